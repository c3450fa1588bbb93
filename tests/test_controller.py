"""The battle controller behind the battle screen (game/ui/controller.py and game/ui/action_bar.py, no
pygame): selecting and looking at units, choosing and aiming an action, picks turned into commands through
the LegalAction contract, undo, the hand-over cover and what the status line and the action bar say, on
real matches of each ruleset. Nothing here imports pygame (tests/test_architecture.py proves the modules
import without it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.hexgrid import Hex
from game.rules import get_ruleset
from game.ui.action_bar import bar_buttons, fixed_buttons
from game.ui.controller import BattleController
from game.ui.session import BattleSession
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.rules.frontier_kit import at, open_map

RANCH = Path(__file__).resolve().parent.parent / "maps" / "ranch_duel.tmx"
PISTOL = "mdtc_model_4_pistol"


class Screen:
    """What the controller asks of the screen, written down: sounds, and where to put the camera."""

    def __init__(self) -> None:
        self.sounds: list[str] = []
        self.centred: list[int] = []
        self.zones: list[tuple[Hex, ...]] = []


def _controller(match: Match, tmp_path: Path | None = None) -> tuple[BattleController, Screen]:
    seen = Screen()
    session = BattleSession(match, tmp_path / "autosaves" if tmp_path is not None else None)
    c = BattleController(
        session, play=seen.sounds.append, centre_on=seen.centred.append, centre_on_hexes=seen.zones.append
    )
    return c, seen


def _deliberate_turn(tmp_path: Path, goon_at: Hex) -> tuple[BattleController, Screen, int, int]:
    """A Deliberate rifter's turn (3 AP) at col 5 against one goon, on the open test map."""
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("deliberate")),
        rk.outlaws("side2", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    rk.deploy(m)
    me, goon = rk.unit(m, "side1"), rk.unit(m, "side2")
    rk.place(m, me, at(5))
    rk.place(m, goon, goon_at)
    rk.give_turn(m, me)
    c, seen = _controller(m, tmp_path)
    return c, seen, me, goon


def _rift_ranch() -> Match:
    posse = rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo"))
    return Match.create(
        RANCH, get_ruleset("rift"), [posse, rk.outlaws("side2", "outlaw_goon", "gang_boss")], 3
    )


def _frontier_ranch() -> Match:
    posses = [fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw")]
    return Match.create(RANCH, get_ruleset("frontier"), posses, 3)


def test_deployment_is_aimed_at_once_and_a_click_deploys_there(tmp_path: Path) -> None:
    """At the start the deciding unit's deploy action is aimed with the camera on its zone; a click on a
    tile of the zone sends the deploy command for that tile."""
    c, seen = _controller(_rift_ranch(), tmp_path)
    picker = c.picker
    assert picker is not None and picker.action.action == "deploy"
    assert c.selected == picker.action.actor
    assert seen.zones == [picker.action.hexes]  # the camera on the zone, once for the side
    spot = picker.action.hexes[0]
    c.hover(spot, None)
    assert c.hovered.valid and c.hovered.command is not None
    assert "to decide" in c.status_text() and "cover, move" in c.status_text()
    assert [b.key for b in fixed_buttons(c)] == ["auto_deploy", "undo", "menu"]
    c.click_map(spot, None, 1)
    sent = c.match.log[-1]
    assert sent.action == "deploy" and sent.hex == spot
    assert c.match.position(sent.actor) == spot
    assert c.feed.log  # the deployment is in the combat log
    assert c.picker is not None and c.picker.action.actor != sent.actor  # the next unit is aimed


def test_a_click_selects_a_unit_of_yours_and_shows_a_foe_without_commanding_it(tmp_path: Path) -> None:
    c, _seen, me, goon = _deliberate_turn(tmp_path, at(12))
    assert c.selected == me and c.panel_unit() == me
    c.click_map(at(12), goon, 1)
    assert c.inspected == goon and c.selected == me and c.panel_unit() == goon
    assert not c.escape()  # Esc: back to the unit being commanded ...
    assert c.inspected is None and c.panel_unit() == me
    assert c.escape()  # ... and with nothing to put down, the pause menu
    c.click_map(at(5), me, 1)
    assert c.selected == me and c.inspected is None


def test_a_move_is_aimed_along_the_path_under_the_pointer_and_sent_by_a_click(tmp_path: Path) -> None:
    c, _seen, me, _goon = _deliberate_turn(tmp_path, at(20))
    move = next(a for a in c.actor_actions() if a.action == "move" and a.enabled)
    c.choose(move)
    assert c.picker is not None and c.picker.action == move
    assert c.message == "click a shaded tile to move there (right click cancels)"
    assert any(b.selected and b.action == move for b in bar_buttons(c))
    assert c.reach_costs(move)[at(7)] == 2
    c.hover(at(7), None)
    assert c.hovered.path[0] == at(5) and c.hovered.path[-1] == at(7) and c.hovered.path_cost == 2
    c.click_map(at(7), None, 3)  # a right click puts the move down
    assert c.picker is None and c.match.position(me) == at(5)
    c.choose(move)
    c.click_map(at(7), None, 1)
    assert c.match.log[-1].action == "move" and c.match.position(me) == at(7)
    assert c.picker is None and c.message == ""


def test_an_attack_shows_the_odds_against_the_unit_pointed_at_and_fires_on_a_click(tmp_path: Path) -> None:
    c, seen, me, goon = _deliberate_turn(tmp_path, at(9))
    fire = next(a for a in c.actor_actions() if a.action == "fire" and a.enabled and a.needs == "")
    c.choose(fire)
    picker = c.picker
    assert picker is not None and picker.action == fire
    assert c.message == "click a marked target to attack, or press the button again"
    assert goon in c.targets(picker)
    c.hover(at(9), goon)
    preview = c.match.preview(fire.command(target=goon))
    assert preview is not None and c.hovered.target == goon and c.hovered.preview == preview
    assert f"hit {round(float(preview.hit_chance) * 100)}%" in c.status_text()
    c.hover(at(14), None)
    assert "no target here" in c.status_text()
    c.click_map(at(9), goon, 1)
    assert c.match.log[-1] == fire.command()  # Fire names no target: its hits are assigned after
    assert "gunshot" in seen.sounds and c.feed.dice is not None
    assert c.feed.dice.name == c.match.identity(me).name


def test_hits_are_assigned_die_by_die_and_fired_when_every_die_has_a_target(tmp_path: Path) -> None:
    """Through the Rift: "Assign each die to a valid target. You may choose the same target more than
    once." - the assignment is aimed at once and cannot be put down; dice go to targets in any order
    (dropped or clicked), a right click takes the last back, and the hits go in die order."""
    m, me, g1, g2 = rk.fired_at_two_goons(open_map(tmp_path))
    c, seen = _controller(m, tmp_path)
    picker = c.picker
    assert picker is not None and picker.action.needs == "assign" and c.selected == me
    assert c.assigning() is picker and c.die_values() == (6, 5)
    (assign,) = [b for b in bar_buttons(c) if b.action is not None and b.action.needs == "assign"]
    assert "Assign hits: 2 left" in assign.text and not assign.enabled
    c.cancel_aim()
    assert c.picker is picker  # a decision that cannot wait
    c.drop_die(1, at(9), g2, moved=True)
    assert picker.slots == [None, g2] and c.message.startswith("1 hit to assign")
    c.choose(picker.action)
    assert c.message == "assign every die first: drag each onto a target" and c.match.log[-1].action == "fire"
    c.click_map(at(8), g1, 1)  # a click on a target takes the next die
    assert picker.slots == [g1, g2] and c.message.endswith("Enter fires them")
    (ready,) = [b for b in bar_buttons(c) if b.action is not None and b.action.needs == "assign"]
    assert "Fire the hits (Enter)" in ready.text and ready.enabled
    c.drop_die(0, at(15), None, moved=True)  # dragged off into the open: taken back
    assert picker.slots == [None, g2]
    c.drop_die(0, at(8), g1, moved=True)
    assert picker.slots == [g1, g2]
    c.click_map(at(8), None, 3)  # the last die assigned goes back
    assert picker.slots == [None, g2]
    c.drop_die(0, None, None, moved=False)  # clicked in the tray: in hand
    assert picker.holding == 0
    c.click_map(at(8), g1, 1)
    assert picker.slots == [g1, g2]
    assert c.confirm()
    sent = c.match.log[-1]
    assert sent.action == "assign" and sent.targets == (g1, g2)
    assert c.feed.floaters and "hit" in seen.sounds


def test_the_joker_is_a_choice_that_cannot_be_put_off_and_a_number_key_places_it(tmp_path: Path) -> None:
    """Frontier: "If a Player draws the Joker for a Unit, they may choose when that Unit acts" - the
    options are the bar's buttons at once, there is no Back, and the option chosen is sent."""
    m = fk.joker_match(
        fk.RANCH,
        fk.law("sheriff", "deputy", "hired_gun", "dog"),
        fk.outlaws("gang_leader", "outlaw"),
        range(300),
    )
    c, _seen = _controller(m, tmp_path)
    choosing = c.choosing()
    assert choosing is not None and c.forced_choice(c.session.legal()) == choosing.action
    buttons = bar_buttons(c)
    assert [b.choice for b in buttons] == list(choosing.action.choices)
    assert buttons[0].text.startswith("1 Act 1st, before")
    assert [b.key for b in fixed_buttons(c)] == ["end_turn", "undo", "menu"]  # no Back
    c.cancel_aim()
    assert c.choosing() is choosing
    assert c.escape() and c.choosing() is choosing  # Esc opens the menu, the choice stays
    c.number(1)
    assert c.match.log[-1].action == "place_joker" and c.match.log[-1].option == choosing.action.choices[1]


@pytest.mark.parametrize(
    ("build", "kit"), [(_rift_ranch, rk), (_frontier_ranch, fk)], ids=["rift", "frontier"]
)
def test_undo_takes_a_plain_move_back_and_says_why_a_roll_stands(
    build: Callable[[], Match], kit: object, tmp_path: Path
) -> None:
    """Issue 5: "Undo of the last move that rolled no dice and revealed nothing" - the Undo button is
    enabled after a move and takes it back; after a roll it is disabled, its tooltip and the status line
    saying why."""
    c, _seen = _controller(build(), tmp_path)
    aggressive: Callable[[Match], Command] = kit.aggressive_command  # type: ignore[attr-defined]
    for _ in range(400):
        c.handover_pending = False  # the players pass the seat at once
        c.take_seat()
        move = next((a for a in c.actor_actions() if a.action == "move" and a.enabled), None)
        if move is not None:
            break
        assert c.send(aggressive(c.match))
    assert move is not None
    undo = next(b for b in fixed_buttons(c) if b.key == "undo")
    assert not undo.enabled and undo.tooltip != "Take back the last move (U)"  # it says why not
    c.undo()
    assert c.message == undo.tooltip
    before, where = c.match.digest(), c.match.position(move.actor)
    c.choose(move)
    c.click_map(move.hexes[0], None, 1)
    assert c.match.log[-1].action == "move" and c.match.position(move.actor) != where
    assert next(b for b in fixed_buttons(c) if b.key == "undo").enabled
    c.undo()
    assert c.match.digest() == before and c.match.position(move.actor) == where
    assert c.feed.log[-1].text == "Undone: move" and c.selected == move.actor


@pytest.mark.parametrize(("ap", "asked"), [(3, True), (0, False)])
def test_ending_the_turn_asks_while_ap_remain_and_something_could_be_done(
    tmp_path: Path, ap: int, asked: bool
) -> None:
    c, _seen, me, _goon = _deliberate_turn(tmp_path, at(9))
    rk.give_turn(c.match, me, ap=ap)
    question = c.end_turn_question()
    end = c.end_action()
    assert end is not None and end.action == "end_turn"
    if asked:
        assert question is not None and question.startswith(
            f"{c.unit_view(me).name} still has 3 AP and could: "
        )
    else:
        assert question is None
    assert c.send(end.command()) and c.match.log[-1].action == "end_turn"


def test_the_cover_comes_after_the_result_is_seen_and_goes_when_the_seat_is_taken(tmp_path: Path) -> None:
    """Hotseat: the next human player's decision hides the board once the dice and damage have been
    shown; the board takes no orders meanwhile; taking the seat shows it again."""
    m, _me, g1, g2 = rk.fired_at_two_goons(open_map(tmp_path))
    c, _seen = _controller(m, tmp_path)
    c.click_map(at(8), g1, 1)
    c.click_map(at(9), g2, 1)
    assert c.confirm() and c.feed.busy
    end = c.end_action()
    assert end is not None and c.send(end.command())
    assert c.session.needs_handover() and c.handover_pending and not c.handover
    assert c.covered and bar_buttons(c) == [] and c.choosing() is None and c.assigning() is None
    log = len(c.match.log)
    c.click_map(at(8), g1, 1)
    assert len(c.match.log) == log  # no orders under the cover
    assert not c.advance(0.1, 1.0) and c.handover_pending
    for _ in range(100):
        c.advance(0.1, 1.0)
    assert c.handover and not c.handover_pending and not c.feed.busy
    c.take_seat()
    assert not c.handover and not c.covered and c.actor_actions()


def test_the_end_of_the_battle_is_reported_once_after_its_last_roll(tmp_path: Path) -> None:
    c, _seen = _controller(_rift_ranch(), None)
    for _ in range(5000):
        if c.session.outcome is not None:
            break
        assert c.send(rk.aggressive_command(c.match))
    assert c.session.outcome is not None and c.picker is None and bar_buttons(c) == []
    # issue 13: the end stays on the board (who won, the last checks) until the player moves on
    assert c.ending is not None
    assert [c.advance(0.25, 1.0) for _ in range(20)].count(True) == 0
    c.see_end()
    reports = [c.advance(0.25, 1.0) for _ in range(20)]
    assert reports.count(True) == 1
