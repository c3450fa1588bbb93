"""Exploding and acing dice as chains (issue 13): "an exploding die is shown as a chain (6 → +4), never as a
"10" on a d6" — in the combat log and on the dice shown over the map, in every ruleset: Through the
Rift's Bring the Fireworks, Golden Frontiers' aces (which until now showed their chains only in a log
note)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from game.engine.match import Match
from game.events import Roll, chain_words
from game.rules.golden.components import RoundState
from game.ui import battle_board
from game.ui.app import App
from game.ui.battle import BattleScreen
from tests.engine.rulebooks import Quotes
from tests.rules import golden_kit as gk
from tests.rules import rift_kit as rk
from tests.rules.frontier_kit import at, open_map
from tests.ui.helpers import step
from tests.ui.test_battle_decisions import _screen

Q = Quotes()
ACE = Q(
    "golden",
    "When a player aces, the number rolled is added to the characters current roll, rolls start at zero, "
    "and the player may roll their die again.",
)
# Through the Rift (seed 003, not in the engine's quote checker): Bring the Fireworks, "When a die rolled
# for an explosive or firearm attack displays the maximum value, you may roll one additional die and add
# it to the result of the first die." (checked in tests/rules/test_rift_attitudes_b.py)


def test_quotes_are_the_books_words() -> None:
    Q.check()


def test_chain_words() -> None:
    assert chain_words((6, 4)) == "6 \u2192 +4"
    assert chain_words((8, 8, 2)) == "8 \u2192 +8 \u2192 +2"
    assert chain_words((5,)) == "5"


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the dice over the map show: the text of every die drawn (its number or its "+4")."""
    seen: list[str] = []
    real = battle_board.draw_die

    def spy(surface: object, rect: object, value: int, **kw: object) -> None:
        seen.append(str(kw.get("label") or value))
        real(surface, rect, value, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(battle_board, "draw_die", spy)
    return seen


def _show_roll(app: App, screen: BattleScreen, seen: list[str]) -> list[str]:
    """Frames until the dice have stopped rolling; the faces drawn on the last frame."""
    for _ in range(40):
        seen.clear()
        step(app)
        show = screen.controller.feed.dice
        if show is not None and show.age >= 0.35:
            return list(seen)
    raise AssertionError("no dice shown")


def test_rift_fireworks_dice_show_their_chain_not_the_sum(
    make_app: Callable[..., App], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Improved Fireworks: 6, 6, 2 on a d6 make 14 - shown as 6 \u2192 +6 \u2192 +2, never "14"."""
    chars = rk.rifters("side1", rk.rifter("calculated", level=4))
    m = rk.new_match(chars, rk.outlaws("side2", "outlaw_goon", "outlaw_goon"), 1, open_map(tmp_path))
    rk.deploy(m)
    me, g1, g2 = rk.unit(m, "side1"), rk.unit(m, "side2", 0), rk.unit(m, "side2", 1)
    rk.place(m, me, at(5))
    rk.place(m, g1, at(8))
    rk.place(m, g2, at(9))
    rk.give_turn(m, me)
    app = make_app((1280, 720))
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    seen = _drawn(monkeypatch)
    rk.script(m, 6, 6, 2, 1, 1)
    assert screen.controller.send(rk.cmd("fire", me, option="mdtc_model_4_pistol"))
    rolled = [e for e in m.history if isinstance(e, Roll) and e.unit == me][-1]
    assert rolled.dice == (14, 1, 1) and rolled.chains == ((6, 6, 2), (1,), (1,))
    faces = _show_roll(app, screen, seen)
    # the one hit waiting in the tray to be assigned, then the three dice over the map
    assert faces == ["6\u2192+6\u2192+2", "6", "+6", "+2", "1", "1"] and "14" not in faces
    assert screen.controller.die_labels() == ("6\u2192+6\u2192+2",)
    line = next(line.text for line in reversed(screen.log) if "rolls" in line.text)
    assert "[6 \u2192 +6 \u2192 +2, 1, 1]" in line and "14," not in line


def test_golden_aces_are_chains_on_the_map_dice(
    make_app: Callable[..., App], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ACE: Rusty's d8 aces twice (8, 8, 2 = 18), Clem's d6 once (6, 1 = 7): the map shows the chains."""
    match: Match = gk.new_match(tmp_path, (gk.char("Rusty"),), (gk.char("Clem"),), 1)
    gk.deploy(match, {1: at(3), 2: at(6)}, cards=("10S", "10H"))
    app = make_app((1280, 720))
    screen = _screen(app, match, tmp_path / "test.tmx", tmp_path)
    seen = _drawn(monkeypatch)
    gk.script(match, 8, 8, 2, 6, 1)
    gk.cards_on_top(match, "9C")
    match.enter()
    assert isinstance(gk.round_state(match, 1), RoundState)
    assert screen.controller.send(gk.cmd("attack", 1, target=2, option="revolver"))
    rolls = [e for e in match.history if isinstance(e, Roll)][-2:]
    assert rolls[0].chains == ((8, 8, 2),) and rolls[1].chains == ((6, 1),)
    faces = _show_roll(app, screen, seen)
    assert faces == ["8", "+8", "+2"]
    assert any("[8 \u2192 +8 \u2192 +2]" in line.text for line in screen.log)
    assert any("[6 \u2192 +1]" in line.text for line in screen.log)
