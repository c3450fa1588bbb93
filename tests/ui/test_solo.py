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
from ai.profile import personalities
from game.commands import Command
from game.engine.match import MatchView
from game.save import read_save
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import demo_command, demo_match
from game.ui.dialogs import ConfirmDialog, MessageDialog
from game.ui.flow import Flow
from game.ui.gui import Shell
from game.ui.load_screen import LoadScene
from game.ui.newbattle import BattleSetup
from game.ui.pause import PauseMenu
from game.ui.pilot import SHOW_SECONDS
from game.ui.prefs import Prefs
from game.ui.results import ResultsScene
from game.ui.session import BattleSession
from tests.ui import battle_driver as bd
from tests.ui.flow_kit import click_rect, default_setup, names, title_app
from tests.ui.helpers import click, move, press, step
from tests.ui.test_newbattle import open_new_battle, pick_option
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
        level, _, person = seat.partition(":")[2].partition(":")
        click(app, new.buttons[f"seat_{i}_ai_{level}" if level else f"seat_{i}_{seat}"].rect.center)
        if person:  # "ai:hard:outlaw": the personality from the seat's drop-down
            pick_option(app, new.person_drops[i], personalities()[person].name)
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
    pieces = battle.widgets._link_pieces()
    wrapped = [h for h in links if sum(1 for p, _r in pieces if p == h) > 1]
    # the newest line, or one that wraps: its first piece shows the tooltip too (not only its last)
    href = max(wrapped or links, key=lambda h: links[h].y)
    assert links[href] == min((r for p, r in pieces if p == href), key=lambda r: (r.y, r.x))
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
    c = battle.controller
    assert "P pauses" in c.status_text()
    # a long line wraps in the log: the pointer on its first piece shows its tooltip
    press(app, pygame.K_p)
    step(app, 2)
    pieces = battle.widgets._link_pieces()
    wrapped = [h for h, _r in pieces if sum(1 for p, _q in pieces if p == h) > 1]
    assert wrapped, "no AI line wraps in the log"
    first = min((r for p, r in pieces if p == wrapped[-1]), key=lambda r: (r.y, r.x))
    move(first.center)
    step(app, 2)
    assert battle.widgets.hovered_link() == wrapped[-1] and battle.widgets.log_tip is not None
    assert "Score " in str(battle.widgets.log_tip.text_block.html_text)
    move(battle.layout.map.center)
    press(app, pygame.K_p)
    # P pauses (the bar's Pause button turns into Resume), nothing is played meanwhile; the button resumes
    press(app, pygame.K_p, frames=3)
    assert c.pilot.paused and "paused" in c.status_text()
    made = len(battle.match.log)
    step(app, 240)
    assert len(battle.match.log) == made
    resume = battle.widgets.buttons["spectate_pause"]
    assert resume.text == "Resume"
    click(app, resume.rect.center)
    assert not c.pilot.paused
    # ] faster, [ slower (within 0.25x to 4x), and the bar's Faster
    press(app, pygame.K_RIGHTBRACKET)
    assert c.pilot.pace == 2.0
    for _ in range(4):
        press(app, pygame.K_LEFTBRACKET)
    assert c.pilot.pace == 0.25
    step(app)
    click(app, battle.widgets.buttons["spectate_faster"].rect.center)
    assert c.pilot.pace == 0.5
    for _ in range(3):
        press(app, pygame.K_RIGHTBRACKET)
    assert c.pilot.pace == 4.0
    made = len(battle.match.log)
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


def test_a_spectator_takes_a_seat_over_and_plays_on_against_the_ai(make_app: AppMaker) -> None:
    """The spectator's "Play <side>" button: that side is the human's from its next decision (no cover, the
    autosave says so), the other side's computer player plays on; the battle is a solo one."""
    app = make_app((1280, 720))
    battle = new_solo_battle(app, "frontier", ("ai:normal", "ai:hard:outlaw"))
    bd.zoom_to_fit(app, battle)
    c = battle.controller
    while not any(cmd.action not in ("deploy",) for cmd in battle.match.log):  # into the battle proper
        if not c.pilot.hurry:
            press(app, pygame.K_SPACE)
        step(app)
    step(app, 2)
    sheriffs = battle.side_names["side1"]
    press(app, pygame.K_RIGHTBRACKET)  # watched at twice the pace
    assert c.pilot.pace == 2.0
    button = battle.widgets.buttons["take_over_side1"]
    assert button.text == f"Play {sheriffs}"
    click(app, button.rect.center)
    assert battle.session.seats == {"side1": "human", "side2": "ai:hard:outlaw"}
    assert not battle.session.spectating() and not c.pilot.paused and c.pilot.pace == 1.0
    assert any(line.text == f"A human takes over {sheriffs} from its computer player" for line in battle.log)
    path = battle.session.autosave_path()
    assert path is not None and read_save(path).seats == {"side1": "human", "side2": "ai:hard:outlaw"}
    assert "take_over_side1" not in battle.widgets.buttons  # no spectator's bar any more
    assert battle.session.undo_problem() == "the computer player's moves stand"  # its moves are not undone
    mine = sum(1 for cmd in battle.match.log if cmd.side == "side1")
    theirs = sum(1 for cmd in battle.match.log if cmd.side == "side2")
    for _ in range(3000):  # the human plays side 1 by clicks, the AI side 2 by itself
        assert not (battle.handover or battle.handover_pending)
        if battle.session.outcome is not None or isinstance(app.top, ResultsScene):
            break
        now = sum(1 for cmd in battle.match.log if cmd.side == "side2")
        if sum(1 for cmd in battle.match.log if cmd.side == "side1") > mine + 2 and now > theirs + 2:
            break
        if battle.session.ai_deciding():
            if not c.pilot.hurry:
                press(app, pygame.K_SPACE)
            step(app)
        else:
            bd.take_turn_step(app, battle)
    assert sum(1 for cmd in battle.match.log if cmd.side == "side1") > mine  # the human's clicks
    assert c.pilot.failures == []


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


def test_the_ais_move_is_brought_into_view_whole(make_app: AppMaker) -> None:
    """At zoom 1 (the map larger than its area), the unit the AI is about to move and its target are both
    well inside the map area when the move is shown (not at its edge: the tokens whole)."""
    app = make_app((1280, 720))
    match = demo_match("frontier", seed=3)
    assert match.map_path is not None
    session = BattleSession(match, None, seats={"side1": "human", "side2": "ai:normal"})
    screen = BattleScreen(Shell(prefs=Prefs()), session, load_tiled_map(match.map_path), app.size)
    app.push(screen)
    pilot = screen.controller.pilot
    cam = screen.view.camera
    shown = 0
    for _ in range(6000):
        if not session.ai_deciding():
            screen.send(demo_command(match))
        step(app)
        plan = pilot.plan
        if plan is None or not (plan.command.path and plan.command.target) or pilot.wait < SHOW_SECONDS - 0.1:
            continue
        half = screen.tmap.geometry.tile_height // 2
        for unit in (plan.command.actor, plan.command.target):
            where = match.position(unit)
            assert where is not None
            x, y = cam.map_to_screen(*screen.tmap.geometry.hex_center(where))
            assert half <= x <= cam.view_w - half and half <= y <= cam.view_h - half, (unit, x, y)
        shown += 1
        if shown >= 3:
            break
    assert shown >= 3, "the AI made fewer than three attacking walks"
