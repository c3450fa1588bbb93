"""New Battle and encounter files, driven by posted events: open a shipped encounter (the screen takes its
ruleset, map, posses and seats, and the battle starts with its rules), a broken file shows the problems
check-encounter lists, and the setup saves as an encounter file that loads again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.encounter.load import check_encounter, load_encounter
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import MessageDialog
from game.ui.encounter_screen import EncounterScene, SaveEncounterScene, user_encounters_dir
from game.ui.newbattle import NewBattleScene
from tests.ui.flow_kit import click_rect, names, title_app, type_text
from tests.ui.helpers import click, press, step

AppMaker = Callable[[tuple[int, int]], App]
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path("/tmp/enc15_shots")


def shot(app: App, name: str) -> None:
    if SHOTS.is_dir():
        pygame.image.save(app.screen, str(SHOTS / f"{name}.png"))


def open_new_battle(app: App) -> NewBattleScene:
    title, _ = title_app(app)
    click(app, title.buttons["new_battle"].rect.center)
    screen = app.top
    assert isinstance(screen, NewBattleScene), names(app)
    return screen


def open_list(app: App, screen: NewBattleScene) -> EncounterScene:
    click(app, screen.buttons["encounter"].rect.center)
    picker = app.top
    assert isinstance(picker, EncounterScene), names(app)
    return picker


def test_open_a_shipped_encounter_and_start_it(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    picker = open_list(app, screen)
    shot(app, "encounter_list")
    index = [p.name for p, _ in picker.entries].index("rift_breakout.toml")
    assert picker.rows is not None
    click_rect(app, picker.rows.row_rect(index))
    assert picker.details is not None and "Breakout" in picker.details.html_text
    click(app, picker.buttons["use"].rect.center)
    assert app.top is screen, names(app)
    enc = load_encounter(ROOT / "encounters" / "rift_breakout.toml")
    assert screen.ruleset == "rift"
    assert screen.current_map is not None and screen.current_map.stem == "frontier_town"
    assert [s.custom for s in screen.sides] == enc.posses
    assert [s.seat for s in screen.sides] == ["ai:normal", "human"]
    assert "Encounter: Breakout" in screen.note
    shot(app, "newbattle_with_encounter")
    setup = screen.setup()
    assert setup.scenario == enc.scenario
    click(app, screen.buttons["start"].rect.center, frames=4)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    assert battle.session.match.scenario == enc.scenario
    assert [g.kind for g in battle.session.match.goals()] == ["escape", "protect"]
    # the tracker says the objectives beside the order
    note = battle.session.match.tracker_note()
    assert note.startswith(
        "Rifter Crew: reach side 1's ground (0 of 1 got away); Rifter Crew: keep Deliberate"
    )
    step(app, 3)
    shot(app, "battle_with_encounter")


def test_a_broken_encounter_shows_every_problem(make_app: AppMaker, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'ruleset = "frontier"\nmap = "nowhere"\ncolour = 1\n[side1]\nposse = 3\n', encoding="utf-8"
    )
    problems = check_encounter(bad)
    assert len(problems) >= 4
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    picker = open_list(app, screen)
    assert picker.path_entry is not None
    click(app, picker.path_entry.rect.center)
    type_text(app, str(bad))
    click(app, picker.buttons["open_path"].rect.center)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    shot(app, "encounter_problems")
    for problem in problems:
        assert problem.key in dialog.text_html
        assert problem.what.replace("'", "&#x27;") in dialog.text_html or problem.what in dialog.text_html
    assert screen.encounter is None


def test_save_the_setup_as_an_encounter(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    picker = open_list(app, screen)
    index = [p.name for p, _ in picker.entries].index("frontier_bank_job.toml")
    picker.pick(index)
    click(app, picker.buttons["use"].rect.center)
    click(app, screen.buttons["save_encounter"].rect.center)
    saver = app.top
    assert isinstance(saver, SaveEncounterScene), names(app)
    assert saver.entry is not None
    click(app, saver.entry.rect.center)
    type_text(app, "Bank Job Copy")
    saver.do_save()
    step(app, 2)
    shot(app, "encounter_saved")
    out = user_encounters_dir() / "bank-job-copy.toml"
    assert saver.said == f"Saved to {out}", saver.said
    again = load_encounter(out)
    enc = load_encounter(ROOT / "encounters" / "frontier_bank_job.toml")
    assert again.title == "Bank Job Copy"
    assert again.posses == enc.posses and again.scenario.goals == enc.scenario.goals
    assert again.scenario.arrivals == enc.scenario.arrivals
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.top is screen, names(app)
    picker = open_list(app, screen)  # the player's own encounters are listed after the shipped ones
    assert (out, False) in picker.entries


def test_a_posse_changed_after_opening_is_checked_against_the_encounter(make_app: AppMaker) -> None:
    """Breakout needs the Rifter Crew's Cunning to get away: with another posse on that side Start says
    why (the encounter file's own words) and no battle starts."""
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    picker = open_list(app, screen)
    picker.pick([p.name for p, _ in picker.entries].index("rift_breakout.toml"))
    click(app, picker.buttons["use"].rect.center)
    labels = screen.posse_labels()
    other = next(label for label in labels if label.startswith("Outlaw Gang"))
    screen._posse_changed(1, other)  # what picking it in side 2's drop-down does
    click(app, screen.buttons["start"].rect.center, frames=4)
    assert app.top is screen, names(app)
    assert "the encounter no longer fits" in screen.note
    assert "no unit called 'Cunning'" in screen.note
