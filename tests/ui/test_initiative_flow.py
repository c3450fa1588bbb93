"""Frontier's Initiative phase at the battle screen, by posted mouse and key events (issue 13): "Frontier
initiative takes 9 clicks and 8 full "Pass to ..." covers a round for public cards. The cover exists to
hide a player's plans; a public draw needs none. Keep the players' choice of which unit draws (if the rules
give one) but make the round's draw one quick flow, with the cover only where something is hidden or a
plan could be seen." And the undo of a draw is refused on screen (docs/RULES.md U1, U2)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from game.engine.match import Match
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from tests.engine.rulebooks import Quotes
from tests.rules import frontier_kit as fk
from tests.ui import battle_driver as bd
from tests.ui.helpers import click, press, step

Q = Quotes()
ALTERNATE = Q(
    "frontier", "Players then take turns drawing for each Unit in their Posse, alternating with each draw."
)
SMALLER = Q("frontier", "The Player with the smaller Posse draws first.")


def test_quotes_are_the_books_words() -> None:
    Q.check()


def _deployed(app: App, tmp_path: Path, match: Match) -> BattleScreen:
    session = BattleSession(match, tmp_path / "autosaves")
    shell = Shell(prefs=Prefs(animation_speed=4.0))
    screen = BattleScreen(shell, session, load_tiled_map(fk.RANCH), app.size)
    app.push(screen)
    step(app, 2)
    bd.zoom_to_fit(app, screen)
    while any(a.action == "deploy" for a in session.legal()):
        if screen.handover or screen.handover_pending:
            click(app, screen.layout.map.center)
            continue
        click(app, screen.buttons["auto_deploy"].get_abs_rect().center)
    step(app, 10)
    if screen.handover:
        click(app, screen.layout.map.center)
    return screen


def _drawing(screen: BattleScreen) -> bool:
    return any(a.action in ("draw_card", "place_joker") for a in screen.session.legal())


def test_a_round_of_draws_is_one_click_per_unit_and_no_cover(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    """Six units (ALTERNATE, SMALLER): six clicks on the bar's buttons, not one "Pass to" cover; the bar
    offers every unit of the side drawing (the player still chooses which unit draws). The cover comes
    once, before the first activation, if that unit's side is not the one that last planned."""
    app = make_app((1280, 720))
    law, outlaws = fk.law("sheriff", "deputy", "hired_gun"), fk.outlaws("gang_leader", "outlaw", "dog")
    match = fk.new_match(fk.RANCH, law, outlaws, 5)
    screen = _deployed(app, tmp_path, match)
    last_planner = screen.session.last_side
    clicks = covers = 0
    drawn: set[int] = set()
    while _drawing(screen):
        assert not screen.handover and not screen.handover_pending
        if screen.choice_buttons:  # the Joker's place
            click(app, screen.choice_buttons[0][0].get_abs_rect().center)
            clicks += 1
            covers += (screen.handover or screen.handover_pending) and _drawing(screen)
            continue
        offered = [a for _, a in screen.action_buttons]
        side = screen.session.deciding_side()
        expected = [a.actor for a in screen.session.legal() if a.action == "draw_card"]
        assert [a.actor for a in offered] == expected and len(expected) >= 1
        assert all(match.identity(a.actor).side == side for a in offered)
        # the last unit of the side offered: the choice is the player's, not the first in line
        button, action = screen.action_buttons[-1]
        click(app, button.get_abs_rect().center)
        clicks += 1
        assert screen.match.log[-1].action == "draw_card" and screen.match.log[-1].actor == action.actor
        drawn.add(action.actor)
        covers += (screen.handover or screen.handover_pending) and _drawing(screen)
    assert len(drawn) == 6
    assert clicks in (6, 7) and covers == 0  # one click per unit (and one for a Joker's place)
    step(app, 10)
    first = screen.session.deciding_side()
    assert (screen.handover or screen.handover_pending) == (first != last_planner)


def test_a_click_on_a_unit_draws_its_card_and_undo_refuses_to_take_it_back(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    """The reported bug: after a unit drew 3\u2660, U logged "Undone: draw card" and the next draw gave
    the 3\u2660 to another unit. A click on a token of the side drawing draws for that unit; U then says
    "can't undo: a card was drawn" and the card stays."""
    app = make_app((1280, 720))
    match = fk.new_match(fk.RANCH, fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"), 2)
    screen = _deployed(app, tmp_path, match)
    offered = [a.actor for a in screen.session.legal() if a.action == "draw_card"]
    unit = offered[-1]
    where = match.position(unit)
    assert where is not None
    click(app, bd.hex_pos(screen, where))
    assert match.log[-1].action == "draw_card" and match.log[-1].actor == unit
    dealt = [e for e in match.history if type(e).__name__ == "CardDealt"]
    card = dealt[-1].card  # type: ignore[attr-defined]
    press(app, pygame.K_u, frames=2)
    assert screen.message == "can't undo: a card was drawn"
    assert not any("Undone" in line.text for line in screen.log)
    assert match.log[-1].action == "draw_card"
    click(app, screen.action_buttons[0][0].get_abs_rect().center)
    dealt = [e for e in match.history if type(e).__name__ == "CardDealt"]
    assert len(dealt) == 2 and dealt[0].card == card and dealt[1].card != card  # type: ignore[attr-defined]
