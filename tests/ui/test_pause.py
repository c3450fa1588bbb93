"""The pause menu and what it leads to (save, load, settings, help, quit to title), Continue from the title,
and the window's close button mid-battle; everything by posted mouse and key events."""

from __future__ import annotations

import html
import json
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.ui.app import TERMINATED, App
from game.ui.battle import BattleScreen
from game.ui.dialogs import ConfirmDialog, MessageDialog, NameDialog
from game.ui.flow import CLOSE_QUESTION, QUIT_TITLE_QUESTION
from game.ui.help import HelpScene
from game.ui.load_screen import LoadScene
from game.ui.pause import PauseMenu
from game.ui.scenes import Pop, Push, Scene, Unwind
from game.ui.session import latest_autosave
from game.ui.settings_screen import SettingsScene
from tests.ui.flow_kit import (
    click_rect,
    finish,
    names,
    play_some,
    start_battle,
    title_app,
    type_text,
    window_quit,
)
from tests.ui.helpers import click, press, step

AppMaker = Callable[[tuple[int, int]], App]


def open_pause(app: App, battle: BattleScreen) -> PauseMenu:
    click(app, battle.buttons["menu"].get_abs_rect().center)
    menu = app.top
    assert isinstance(menu, PauseMenu), names(app)
    return menu


def save_as(app: App, menu: PauseMenu, name: str) -> None:
    click(app, menu.buttons["save"].rect.center)
    dialog = app.top
    assert isinstance(dialog, NameDialog), names(app)
    assert dialog.current_text()  # a name is suggested
    type_text(app, name)
    press(app, pygame.K_RETURN, frames=2)


def load_named(app: App, screen: LoadScene, name: str) -> None:
    index = next(i for i, e in enumerate(screen.entries) if e.name == name and not e.autosave)
    assert screen.rows is not None
    click_rect(app, screen.rows.row_rect(index))
    assert screen.entry is not None and screen.entry.name == name
    click(app, screen.buttons["load"].rect.center)


@pytest.mark.parametrize("ruleset", ["rift", "frontier"])
def test_pause_save_mid_then_load_mid_gives_the_same_battle(make_app: AppMaker, ruleset: str) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow, ruleset)
    play_some(battle, ruleset, 25)
    step(app, 2)
    digest = battle.session.match.digest()
    moves = len(battle.session.match.log)
    menu = open_pause(app, battle)
    save_as(app, menu, "mid")
    assert app.top is menu
    assert "Saved \u201cmid\u201d" in menu.note
    assert (flow.saves_dir / "mid.json").is_file()
    play_some(battle, ruleset, 3)  # the battle goes on after saving...
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene), names(app)
    entry = next(e for e in screen.entries if e.name == "mid")
    assert entry.ruleset == ruleset and entry.map_title == "Showdown at the Lazy K"
    assert entry.commands == moves and entry.error is None
    load_named(app, screen, "mid")  # ...and loading "mid" goes back to where it was saved
    loaded = app.top
    assert isinstance(loaded, BattleScreen), names(app)
    assert names(app) == ["TitleScene", "GuardedBattleScreen"]
    assert loaded is not battle
    assert loaded.session.match.digest() == digest
    step(app, 3)


def test_resume_and_escape_go_back_to_the_battle(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    menu = open_pause(app, battle)
    assert not menu.opaque  # the battle shows through the veil
    step(app, 2)
    click(app, menu.buttons["resume"].rect.center)
    assert app.top is battle
    open_pause(app, battle)
    press(app, pygame.K_ESCAPE)
    assert app.top is battle


def test_save_says_why_it_could_not_write_and_stays_open(make_app: AppMaker, data_dir: Path) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "saves").write_text("a file where the saves folder should be")
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    menu = open_pause(app, battle)
    save_as(app, menu, "mid")
    dialog = app.top
    assert isinstance(dialog, NameDialog), names(app)
    assert dialog.note.startswith("could not write")
    click(app, dialog.buttons["cancel"].rect.center)
    assert app.top is menu


def test_save_suggests_the_maps_title_as_the_new_battle_screen_shows_it(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)  # on ranch_duel.tmx, titled "Showdown at the Lazy K"
    menu = open_pause(app, battle)
    click(app, menu.buttons["save"].rect.center)
    dialog = app.top
    assert isinstance(dialog, NameDialog), names(app)
    assert dialog.current_text().startswith("Showdown at the Lazy K ")


def test_autosaves_of_different_battles_are_told_apart(make_app: AppMaker) -> None:
    """Two "Autosave" rows with the same time could not be told apart: each says how far its battle went
    and who fights (read from the save, not replayed), and a finished battle says so."""
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    rift = start_battle(app, flow, "rift", seed=7)
    play_some(rift, "rift", 40)
    rift_round = rift.session.match.history[-1].round
    frontier = start_battle(app, flow, "frontier", seed=8)
    finish(frontier, "frontier")
    step(app, 3)
    app.apply(flow.load_screen())
    step(app, 2)
    screen = app.top
    assert isinstance(screen, LoadScene), names(app)
    autosaves = sorted(e.name for e in screen.entries if e.autosave)
    rift_posses = " vs ".join(p.name for p in rift.session.match.posses)
    frontier_posses = " vs ".join(p.name for p in frontier.session.match.posses)
    expected = [f"Autosave, round {rift_round} \u2014 {rift_posses}"]
    expected.append(f"Autosave, battle over \u2014 {frontier_posses}")
    assert autosaves == sorted(expected)
    assert rift_round >= 1
    index = next(i for i, e in enumerate(screen.entries) if e.autosave and "battle over" in e.name)
    assert screen.rows is not None
    click_rect(app, screen.rows.row_rect(index))
    assert screen.details is not None and html.escape(frontier_posses) in screen.details.html_text


def test_load_lists_saves_newest_first_and_a_corrupt_one_shows_its_error(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 10)
    menu = open_pause(app, battle)
    save_as(app, menu, "first")
    flow.saves_dir.joinpath("scribbled.json").write_text('{"format": "hexslinger-save", "vers')
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    assert [e.name for e in screen.entries if not e.autosave] == ["scribbled", "first"]
    assert any(e.autosave for e in screen.entries)
    bad = 0
    assert screen.entries[bad].error is not None and "cut off" in screen.entries[bad].error  # mid-string
    assert screen.rows is not None
    click_rect(app, screen.rows.row_rect(bad))
    assert screen.details is not None and "cannot be loaded" in screen.details.html_text
    click(app, screen.buttons["load"].rect.center)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert "the save is cut off" in dialog.text_html
    assert "load an earlier save" in dialog.text_html
    step(app, 2)
    press(app, pygame.K_RETURN)
    assert app.top is screen  # the game goes on: pick another
    load_named(app, screen, "first")
    assert isinstance(app.top, BattleScreen)


def test_a_save_whose_replay_does_not_match_says_so(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 10)
    menu = open_pause(app, battle)
    save_as(app, menu, "tampered")
    path = flow.saves_dir / "tampered.json"
    doc = json.loads(path.read_text())
    doc["digest"] = "0" * 64
    path.write_text(json.dumps(doc))
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    load_named(app, screen, "tampered")
    assert isinstance(app.top, MessageDialog)
    assert "digest mismatch" in app.top.text_html
    press(app, pygame.K_ESCAPE)
    assert app.top is screen
    click(app, screen.buttons["back"].rect.center)
    assert app.top is menu


def test_continue_after_closing_the_window_resumes_the_latest_autosave(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    title, flow = title_app(app)
    assert not title.buttons["continue"].is_enabled  # nothing autosaved yet
    battle = start_battle(app, flow, "frontier")
    play_some(battle, "frontier", 30)
    step(app, 2)
    digest = battle.session.match.digest()
    window_quit(app)
    dialog = app.top
    assert isinstance(dialog, ConfirmDialog), names(app)
    assert dialog.text == CLOSE_QUESTION and "autosaved" in dialog.text
    assert app.running
    window_quit(app)  # a second close quits
    assert not app.running and app.exit_code == 0

    app2 = make_app((1280, 720))
    title2, _flow2 = title_app(app2)
    assert title2.buttons["continue"].is_enabled
    click(app2, title2.buttons["continue"].rect.center)
    resumed = app2.top
    assert isinstance(resumed, BattleScreen), names(app2)
    assert resumed.session.match.digest() == digest
    # it keeps writing the same autosave file
    before = latest_autosave(flow.autosave_dir)
    play_some(resumed, "frontier", 1)
    assert latest_autosave(flow.autosave_dir) == before
    step(app2, 2)


def test_sigterm_quits_at_once_and_continue_resumes_the_autosave(make_app: AppMaker) -> None:
    """A SIGTERM (a logout, a ``kill``) quits without asking: before, SDL made it a window close and the
    battle's "Leave the battle?" kept the program waiting for a click. Nothing is lost: the autosave
    holds the battle, and the handler from before the window is back once it closes."""
    before = signal.getsignal(signal.SIGTERM)
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow, "frontier")
    play_some(battle, "frontier", 20)
    step(app, 2)
    digest = battle.session.match.digest()
    os.kill(os.getpid(), signal.SIGTERM)
    assert not app.step(1 / 60)
    assert not app.running and app.exit_code == TERMINATED == 143
    app.close()
    assert signal.getsignal(signal.SIGTERM) == before

    app2 = make_app((1280, 720))
    title2, _flow2 = title_app(app2)
    click(app2, title2.buttons["continue"].rect.center)
    resumed = app2.top
    assert isinstance(resumed, BattleScreen), names(app2)
    assert resumed.session.match.digest() == digest


def test_sigterm_is_handed_back_when_the_last_window_closes(make_app: AppMaker) -> None:
    """Two windows open (tests open several): a SIGTERM reaches both, and the handler from before the first
    is back only when the last one closes, not left pointing at a closed window."""
    before = signal.getsignal(signal.SIGTERM)
    first, second = make_app((640, 480)), make_app((640, 480))
    first.close()
    assert signal.getsignal(signal.SIGTERM) != before
    os.kill(os.getpid(), signal.SIGTERM)
    assert not second.step(1 / 60) and second.exit_code == TERMINATED
    second.close()
    assert signal.getsignal(signal.SIGTERM) == before


def test_closing_the_window_and_keeping_playing(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    open_pause(app, battle)  # from under a menu too: the battle below asks
    window_quit(app)
    dialog = app.top
    assert isinstance(dialog, ConfirmDialog)
    step(app, 2)
    click(app, dialog.buttons["no"].rect.center)  # "Keep playing"
    assert isinstance(app.top, PauseMenu) and app.running
    window_quit(app)
    dialog = app.top
    assert isinstance(dialog, ConfirmDialog)
    step(app, 2)
    click(app, dialog.buttons["yes"].rect.center)  # "Quit"
    assert not app.running and app.exit_code == 0


def test_the_close_button_quits_at_once_when_no_battle_is_open(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    title_app(app)
    window_quit(app)
    assert not app.running and app.exit_code == 0


def test_quit_to_title_asks_first_then_continue_is_offered(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 5)
    menu = open_pause(app, battle)
    click(app, menu.buttons["quit"].rect.center)
    confirm = app.top
    assert isinstance(confirm, ConfirmDialog)
    assert confirm.text == QUIT_TITLE_QUESTION
    press(app, pygame.K_ESCAPE)  # no
    assert app.top is menu
    click(app, menu.buttons["quit"].rect.center)
    press(app, pygame.K_RETURN)  # yes
    assert names(app) == ["TitleScene"]
    assert title.buttons["continue"].is_enabled
    click(app, title.buttons["continue"].rect.center)
    assert isinstance(app.top, BattleScreen)
    assert app.top.session.match.digest() == battle.session.match.digest()


def test_continue_with_a_broken_autosave_shows_the_save_error(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    title, flow = title_app(app)
    flow.autosave_dir.mkdir(parents=True)
    (flow.autosave_dir / "autosave-1.json").write_text("not json at all")
    title.revealed()
    step(app)
    assert title.buttons["continue"].is_enabled
    click(app, title.buttons["continue"].rect.center)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert "not valid JSON" in dialog.text_html
    step(app, 2)
    click(app, dialog.ok_button.rect.center)  # type: ignore[union-attr]
    assert names(app) == ["TitleScene"]


def test_load_from_the_title(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    title, flow = title_app(app)
    click(app, title.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    assert screen.entries == [] and not screen.buttons["load"].is_enabled
    press(app, pygame.K_ESCAPE)
    assert names(app) == ["TitleScene"]
    battle = start_battle(app, flow)
    play_some(battle, "rift", 4)
    digest = battle.session.match.digest()
    app.apply(Unwind())
    step(app)
    click(app, title.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    assert screen.entries[0].autosave and screen.entry is screen.entries[0]
    press(app, pygame.K_RETURN)  # loads the chosen (newest) one
    assert isinstance(app.top, BattleScreen)
    assert app.top.session.match.digest() == digest


def test_help_shows_the_rules_summary_and_the_keys(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow, "frontier")
    menu = open_pause(app, battle)
    click(app, menu.buttons["help"].rect.center)
    help_page = app.top
    assert isinstance(help_page, HelpScene)
    rules = help_page.boxes["rules"].html_text
    assert "<b>Initiative:</b>" in rules  # the summary's topics lead in bold
    assert "after round 20 it is a draw." in rules  # the summary's last line
    keys = help_page.boxes["keys"].html_text
    assert "End turn" in keys and "Return" in keys and "F1" in keys
    step(app, 2)
    click(app, help_page.close_button.rect.center)  # type: ignore[union-attr]
    assert app.top is menu


def test_settings_from_the_pause_menu(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    menu = open_pause(app, battle)
    click(app, menu.buttons["settings"].rect.center)
    assert isinstance(app.top, SettingsScene)
    press(app, pygame.K_ESCAPE)
    assert app.top is menu


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_menus_fit_the_window(make_app: AppMaker, size: tuple[int, int]) -> None:
    app = make_app(size)
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    menu = open_pause(app, battle)
    window = pygame.Rect((0, 0), size)
    for button in menu.buttons.values():
        assert menu.sheet.contains(button.rect) and window.contains(button.rect)
    click(app, menu.buttons["load"].rect.center)
    screen = app.top
    assert isinstance(screen, LoadScene)
    for button in screen.buttons.values():
        assert screen.sheet.contains(button.rect) and window.contains(button.rect)


class _Marker(Scene):
    def __init__(self, answer: object = None) -> None:
        self.answer = answer
        self.revealed_count = 0

    def on_close_request(self):  # type: ignore[no-untyped-def]
        return self.answer

    def revealed(self) -> None:
        self.revealed_count += 1


def test_app_asks_the_scenes_from_the_top_and_unwinds(make_app: AppMaker) -> None:
    app = make_app((800, 600))
    bottom, middle, top = _Marker(), _Marker(Push(_Marker())), _Marker()
    for scene in (bottom, middle, top):
        app.push(scene)
    window_quit(app)
    assert app.running and len(app.scenes) == 4  # the middle one answered with a push
    app.apply(Pop())
    assert top.revealed_count == 1
    app.apply(Unwind())
    assert app.scenes == [bottom] and bottom.revealed_count == 1
    app.apply(Unwind(_Marker()))
    assert len(app.scenes) == 2 and app.scenes[0] is bottom


def test_names_that_map_to_one_file_never_overwrite_each_other(make_app: AppMaker) -> None:
    """``../../x``, ``~/x`` and ``x`` behind full-width dots and slash all make the file name ``x``;
    ``..``, ``*`` and an emoji all ``save``. Each gets a file of its own in the saves folder (nothing is
    written outside it), and saving again under a name already saved asks first: the note says so, and
    only a second Save replaces it."""
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    battle = start_battle(app, flow)
    play_some(battle, "rift", 4)
    menu = open_pause(app, battle)
    folder = flow.saves_dir
    names_typed = ["x", "../../x", "~/x", "\uff0e\uff0e\uff0fx", "..", "*", "\U0001f920\U0001f920"]
    for name in names_typed:
        save_as(app, menu, name)
        assert app.top is menu, (name, names(app))
    stored = {
        p.name: json.loads(p.read_text(encoding="utf-8"))["name"]
        for p in folder.iterdir()
        if p.suffix == ".json"
    }
    assert stored == {
        "x.json": "x",
        "x-2.json": "../../x",
        "x-3.json": "~/x",
        "x-4.json": "\uff0e\uff0e\uff0fx",
        "save.json": "..",
        "save-2.json": "*",
        "save-3.json": "\U0001f920\U0001f920",
    }
    assert not (folder.parent / "x.json").exists() and not (folder.parent.parent / "x.json").exists()
    # the same name again: a question first, the file untouched; Save again replaces it
    before = (folder / "x-2.json").read_bytes()
    play_some(battle, "rift", 0)
    save_as(app, menu, " ../../X ")  # the same name, whatever the case and spacing
    dialog = app.top
    assert isinstance(dialog, NameDialog), names(app)
    assert dialog.note == "\u201c../../x\u201d is already saved: Save again to replace it"
    assert (folder / "x-2.json").read_bytes() == before
    press(app, pygame.K_RETURN, frames=2)
    assert app.top is menu, names(app)
    assert json.loads((folder / "x-2.json").read_text(encoding="utf-8"))["name"] == "../../X"
    assert len(list(folder.glob("*.json"))) == len(names_typed)
    # a file that is no save (or is unreadable) under a name's file is never replaced either
    (folder / "y.json").write_text("not a save")
    save_as(app, menu, "y")
    assert app.top is menu
    assert (folder / "y.json").read_text() == "not a save"
    assert json.loads((folder / "y-2.json").read_text(encoding="utf-8"))["name"] == "y"
