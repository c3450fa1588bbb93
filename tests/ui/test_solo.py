"""Issue 12, "Solo play in the window", in the window, by posted mouse and key events only: a human
against the AI from the title to the results screen in each ruleset; a spectator's AI-vs-AI battle that
plays itself, pauses and ends on the results screen; a save and a load (and Continue) that resume the AI
seats; a broken AI shown in a dialog, its side handed to the human; the AI's decisions in the combat log
with their score breakdown as the line's tooltip; no hand-over cover around the AI's turns."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from ai.baselines import Player
from game.commands import Command
from game.engine.match import MatchView
from game.save import read_save
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import ConfirmDialog, MessageDialog
from game.ui.flow import Flow
from game.ui.load_screen import LoadScene
from game.ui.newbattle import BattleSetup
from game.ui.pause import PauseMenu
from game.ui.results import ResultsScene
from game.ui.session import BattleSession
from tests.ui import battle_driver as bd
from tests.ui.flow_kit import click_rect, default_setup, names, title_app
from tests.ui.helpers import click, move, press, step
from tests.ui.test_newbattle import open_new_battle
from tests.ui.test_pause import load_named, open_pause, save_as

AppMaker = Callable[..., App]


def new_solo_battle(app: App, ruleset: str, seats: tuple[str, str]) -> BattleScreen:
    """The title's New Battle: the ruleset, Showdown at the Lazy K, each side's seat, Start."""
    new = open_new_battle(app)
    click(app, new.buttons[f"ruleset_{ruleset}"].rect.center)
    ranch = [p.stem for p in new.maps].index("ranch_duel")
    assert new.map_list is not None
    click_rect(app, new.map_list.row_rect(ranch))
    for i, seat in enumerate(seats):
        click(app, new.buttons[f"seat_{i}_{seat.replace(':', '_')}"].rect.center)
    click(app, new.buttons["start"].rect.center)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    battle.shell.prefs.animation_speed = 4.0
    return battle


def hover_a_decision(app: App, battle: BattleScreen) -> str:
    """Point at the newest AI line the log shows; the tooltip's text ("" if no AI line is in view)."""
    links = battle.widgets.link_rects()
    if not links:
        return ""
    href = max(links, key=lambda h: links[h].y)
    move(links[href].center)
    step(app, 2)
    tip = battle.widgets.log_tip
    assert battle.widgets.hovered_link() == href and tip is not None
    text = str(tip.text_block.html_text)
    move(battle.layout.map.center)  # the pointer back on the map
    step(app)
    assert battle.widgets.log_tip is None
    return text


# the Rifters are the AI's in Through the Rift (fewer clicks for the human's Outlaws: the test is shorter)
@pytest.mark.parametrize(("ruleset", "human", "level"), [("frontier", 0, "normal"), ("rift", 1, "easy")])
def test_a_human_against_the_ai_from_the_title_to_the_results(
    make_app: AppMaker, ruleset: str, human: int, level: str
) -> None:
    """The human's side is played by clicks and keys (tests/ui/battle_driver.py); the AI takes its turns
    and windows by itself between frames. The hand-over cover never comes up; each AI decision is a line
    in the AI's words whose tooltip is the score breakdown."""
    app = make_app((1280, 720))
    seats = ["human", f"ai:{level}"] if human == 0 else [f"ai:{level}", "human"]
    battle = new_solo_battle(app, ruleset, (seats[0], seats[1]))
    assert battle.session.seats == {"side1": seats[0], "side2": seats[1]}
    bd.zoom_to_fit(app, battle)
    tip = ""
    steps = 0
    while not isinstance(app.top, ResultsScene):
        assert not (battle.handover or battle.handover_pending), "a hand-over cover around the AI's turn"
        if isinstance(app.top, BattleScreen) and battle.session.ai_deciding():
            if not battle.controller.pilot.active:
                raise AssertionError("the AI has the decision but does not play it")
            assert battle.actor_actions() == []  # the bar offers the human nothing meanwhile
            if not battle.controller.pilot.hurry:
                press(app, pygame.K_SPACE)  # hurry it along (its pace is tests/test_pilot.py's)
            step(app)
            continue
        assert isinstance(app.top, (BattleScreen, ConfirmDialog)), names(app)
        if not tip and isinstance(app.top, BattleScreen) and battle.session.outcome is None:
            tip = hover_a_decision(app, battle)
        bd.take_turn_step(app, battle)
        steps += 1
        assert steps < 4000, "the battle did not end"
    assert battle.controller.pilot.failures == []
    lines = [line for line in battle.log if line.kind == "ai"]
    assert lines and all(line.detail for line in lines)
    assert "Score " in tip and f"{level.title()} AI" in tip
    results = app.top
    outcome = battle.session.match.outcome()
    assert outcome is not None
    if outcome.winner is not None:
        assert results.heading == f"Victory for {results.side_names[outcome.winner]}"  # type: ignore[union-attr]


def test_a_spectator_watches_ai_against_ai_pauses_it_and_sees_the_results(make_app: AppMaker) -> None:
    """Both seats the AI: the battle plays itself (nobody clicks), the pause menu stops it, the same log
    lines appear, and it ends on the results screen."""
    app = make_app((1280, 720))
    battle = new_solo_battle(app, "frontier", ("ai:easy", "ai:normal"))
    assert battle.session.spectating()
    step(app, 200)
    made = len(battle.match.log)
    assert made > 0 and any(line.kind == "ai" for line in battle.log)
    assert "Esc pauses" in battle.controller.status_text()
    press(app, pygame.K_ESCAPE)  # the pause menu
    assert isinstance(app.top, PauseMenu), names(app)
    step(app, 240)
    assert len(battle.match.log) == made  # paused: nobody plays
    press(app, pygame.K_ESCAPE)
    assert app.top is battle
    frames = 0
    while not isinstance(app.top, ResultsScene):
        assert app.top is battle, names(app)
        assert not (battle.handover or battle.handover_pending)
        if not battle.controller.pilot.hurry:
            press(app, pygame.K_SPACE)
        step(app)
        frames += 1
        assert frames < 20_000, "the battle did not end"
    sides = {line.detail.split(",")[0] for line in battle.log if line.kind == "ai"}
    assert sides == set(battle.side_names.values())  # both computer players said what they did
    assert battle.controller.pilot.failures == []


def test_save_load_and_continue_resume_the_ai_seats(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app)
    setup = default_setup("frontier", seed=4)
    setup = BattleSetup(
        setup.ruleset, setup.map_path, setup.posses, 4, {"side1": "human", "side2": "ai:hard"}
    )
    app.apply(flow.start(setup))
    step(app)
    battle = app.top
    assert isinstance(battle, BattleScreen)
    battle.shell.prefs.animation_speed = 4.0
    bd.zoom_to_fit(app, battle)
    for _ in range(400):  # until the AI has played some
        if sum(1 for c in battle.match.log if c.side == "side2") >= 6 and not battle.session.ai_deciding():
            break
        if battle.session.ai_deciding():
            step(app)
        else:
            bd.take_turn_step(app, battle)
    assert sum(1 for c in battle.match.log if c.side == "side2") >= 6
    digest = battle.match.digest()
    menu = open_pause(app, battle)
    save_as(app, menu, "solo")
    saved = read_save(flow.save_path("solo"))
    assert saved.version == 3 and saved.seats == {"side1": "human", "side2": "ai:hard"}
    click(app, menu.buttons["load"].rect.center)
    loader = app.top
    assert isinstance(loader, LoadScene), names(app)
    load_named(app, loader, "solo")
    loaded = app.top
    assert isinstance(loaded, BattleScreen), names(app)
    assert loaded.session.seats == {"side1": "human", "side2": "ai:hard"}
    assert loaded.match.digest() == digest
    loaded.shell.prefs.animation_speed = 4.0
    bd.zoom_to_fit(app, loaded)
    before = sum(1 for c in loaded.match.log if c.side == "side2")
    for _ in range(600):  # the AI plays on in the loaded battle
        if sum(1 for c in loaded.match.log if c.side == "side2") > before or loaded.session.outcome:
            break
        if loaded.session.ai_deciding():
            step(app)
        else:
            bd.take_turn_step(app, loaded)
    assert sum(1 for c in loaded.match.log if c.side == "side2") > before
    # Continue on the title: the newest autosave, with its seats
    app.apply(flow.to_title())
    step(app)
    app.apply(flow.continue_latest())
    step(app)
    continued = app.top
    assert isinstance(continued, BattleScreen), names(app)
    assert continued.session.seats == {"side1": "human", "side2": "ai:hard"}
    assert continued.match.digest() == loaded.match.digest()


class Broken(Player):
    def decide(self, view: MatchView, index: int) -> Command:
        raise RuntimeError("the planner lost its map")


def test_a_broken_ai_is_shown_its_side_passes_to_the_human_and_the_autosave_is_intact(
    make_app: AppMaker, tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    title_app(app)
    battle = new_solo_battle(app, "frontier", ("human", "ai:normal"))
    battle.controller.pilot.make = lambda seat, seed: Broken(seed)  # the AI goes wrong from now on
    battle.controller.pilot.players.clear()
    bd.zoom_to_fit(app, battle)
    for _ in range(300):
        if battle.session.ai_deciding() or isinstance(app.top, MessageDialog):
            break
        bd.take_turn_step(app, battle)
    digest, commands = battle.match.digest(), len(battle.match.log)
    for _ in range(120):
        if isinstance(app.top, MessageDialog):
            break
        step(app)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert dialog.heading == "The computer player failed"
    assert "its decision raised RuntimeError: the planner lost its map" in dialog.text_html
    assert battle.match.digest() == digest and len(battle.match.log) == commands
    assert battle.session.seats["side2"] == "human"
    press(app, pygame.K_RETURN, frames=2)  # OK
    assert app.top is battle, names(app)
    # the human plays the side now: its actions are on the bar, no cover (the seat changed hands)
    assert battle.session.deciding_side() == "side2" and battle.actor_actions()
    assert not battle.handover
    path = battle.session.autosave_path()
    assert path is not None
    resumed = BattleSession.load(path)
    assert resumed.match.digest() == digest and resumed.seats == {"side1": "human", "side2": "human"}
    assert Flow(battle.shell).autosave_dir == path.parent
