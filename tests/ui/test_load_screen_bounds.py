"""The Load screen with hostile files in the saves folder (issue 11): each is one unreadable row whose
tooltip says why, and the screen opens, lists the good save and loads it."""

from __future__ import annotations

import html
import json
import os
import time

import pygame
import pytest

from game.ui.battle import BattleScreen
from game.ui.dialogs import MessageDialog
from game.ui.load_screen import LoadScene, _row
from tests.ui.flow_kit import names, play_some, start_battle, title_app
from tests.ui.helpers import click, press, step
from tests.ui.test_pause import AppMaker, open_pause, save_as

pytestmark = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev are POSIX")


def test_hostile_files_in_the_saves_folder_are_one_unreadable_row_each(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 6)
    menu = open_pause(app, battle)
    save_as(app, menu, "good")
    folder = flow.saves_dir
    good = json.loads((folder / "good.json").read_text(encoding="utf-8"))
    hostile = {
        "deep": "[" * 100_000,
        "digits": '{"format": "hexslinger-save", "version": ' + "9" * 5000 + "}",
        "circled": json.dumps({**good, "seed": "\u2460"}),
        "zero-map": json.dumps({**good, "name": "zero", "map": {**good["map"], "file": "/dev/zero"}}),
        "long-name": json.dumps({**good, "name": "<b>" + "W" * 1_000_000}),
        "binary": "\udcff",
    }
    for name, text in hostile.items():
        (folder / f"{name}.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    os.mkfifo(folder / "fifo.json")
    (folder / "device.json").symlink_to("/dev/zero")
    (folder / "folder.json").mkdir()
    start = time.monotonic()
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene), names(app)
    assert time.monotonic() - start < 20
    named = {e.path.stem: e for e in screen.entries if not e.autosave}
    unreadable = {"deep", "digits", "circled", "binary", "fifo", "device", "folder"}
    assert set(named) == unreadable | {"good", "zero-map", "long-name"}
    for stem in unreadable:
        assert named[stem].error is not None, stem
    assert "more than the limit of 32" in (named["deep"].error or "")
    assert "more than the limit of 40" in (named["digits"].error or "")
    assert "not a regular file" in (named["fifo"].error or "")
    assert "not a regular file" in (named["device"].error or "")
    # the listing reads only the header: these two are refused when loaded (the map) or shown cut
    assert named["zero-map"].error is None
    assert len(named["long-name"].name) <= 200
    for stem in unreadable:
        row = _row(named[stem], 4)
        assert row.warning and row.tooltip == html.escape(named[stem].error or "")[: len(row.tooltip or "")]
    assert screen.rows is not None and len(screen.rows.rows) == len(screen.entries)
    if os.environ.get("HEXSLINGER_SHOTS"):  # a picture of the screen, to look at
        pygame.image.save(app.screen, os.environ["HEXSLINGER_SHOTS"])
    assert screen.select_name("zero")
    press(app, pygame.K_RETURN)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert "not a regular file" in dialog.text_html
    step(app, 2)
    press(app, pygame.K_RETURN)
    assert app.top is screen  # the game goes on: pick another
    assert screen.select_name("good")
    press(app, pygame.K_RETURN)
    assert isinstance(app.top, BattleScreen), names(app)
