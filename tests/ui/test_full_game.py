"""Issue 5, "Proof": a full hotseat battle of each ruleset played through posted mouse and key events
only, from the title screen to the results screen, with a save and a load in the middle."""

from __future__ import annotations

from collections.abc import Callable

import pygame
import pytest

from game.ui import newbattle
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import ConfirmDialog
from game.ui.load_screen import LoadScene
from game.ui.results import ResultsScene
from tests.ui import battle_driver as bd
from tests.ui.flow_kit import click_rect, names
from tests.ui.helpers import click, press, step
from tests.ui.test_newbattle import open_new_battle
from tests.ui.test_pause import load_named, open_pause, save_as


def settle(app: App, battle: BattleScreen) -> None:
    """Play on until nothing is in the way of the Menu button: no hand-over cover, no dice rolling, no
    "End the turn?" question open."""
    while battle.handover or battle.dice is not None or isinstance(app.top, ConfirmDialog):
        bd.take_turn_step(app, battle)


@pytest.mark.parametrize(
    ("ruleset", "seed"), [("frontier", 11), ("rift", 12), ("golden", 13), ("golden", 14)]
)
def test_title_to_results_by_clicks_and_keys_with_a_save_and_a_load(
    make_app: Callable[..., App], ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # New Battle draws a fresh seed for every battle; the test plays a known one (a failure replays)
    monkeypatch.setattr(newbattle, "new_seed", lambda: seed)
    app = make_app((1280, 720))
    new = open_new_battle(app)  # the title's New Battle button
    click(app, new.buttons[f"ruleset_{ruleset}"].rect.center)
    ranch = [p.stem for p in new.maps].index("ranch_duel")
    assert new.map_list is not None
    click_rect(app, new.map_list.row_rect(ranch))
    click(app, new.buttons["start"].rect.center)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    assert battle.session.match.ruleset.name == ruleset
    battle.shell.prefs.animation_speed = 4.0
    bd.zoom_to_fit(app, battle)
    for _ in range(40):  # deployment and the first turns, by clicks
        bd.take_turn_step(app, battle)
    settle(app, battle)
    digest = battle.session.match.digest()
    menu = open_pause(app, battle)  # the Menu button
    save_as(app, menu, "midway")  # typed into the name dialog, Enter
    press(app, pygame.K_ESCAPE, frames=2)  # back to the battle
    assert app.top is battle
    for _ in range(6):
        bd.take_turn_step(app, battle)
    settle(app, battle)
    assert battle.session.match.digest() != digest
    menu = open_pause(app, battle)
    click(app, menu.buttons["load"].rect.center)
    loader = app.top
    assert isinstance(loader, LoadScene), names(app)
    load_named(app, loader, "midway")
    loaded = app.top
    assert isinstance(loaded, BattleScreen), names(app)
    assert loaded.session.match.digest() == digest  # exactly where it was saved
    loaded.shell.prefs.animation_speed = 4.0
    bd.zoom_to_fit(app, loaded)
    steps = 0
    while not isinstance(app.top, ResultsScene):
        assert isinstance(app.top, (BattleScreen, ConfirmDialog)), names(app)  # "End the turn?"
        bd.take_turn_step(app, loaded)
        step(app)
        steps += 1
        assert steps < 3000, "the battle did not end"
    results = app.top
    outcome = loaded.session.match.outcome()
    assert outcome is not None
    if outcome.winner is not None:
        assert results.heading == f"Victory for {results.side_names[outcome.winner]}"
