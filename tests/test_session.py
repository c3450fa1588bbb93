"""The battle session behind the window (game/ui/session.py, no pygame): whose decision it is, hotseat
hand-over, undo of a move that rolled no dice, autosave after every command, continue from the newest
autosave, and the results screen's numbers."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.rules import get_ruleset
from game.save import load_match
from game.stats import battle_stats
from game.ui.session import BattleSession, latest_autosave
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk

ROOT = Path(__file__).resolve().parent.parent
RANCH = ROOT / "maps" / "ranch_duel.tmx"


def _rift() -> Match:
    posse = rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo"))
    gang = rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "gang_boss")
    return Match.create(RANCH.resolve(), get_ruleset("rift"), [posse, gang], 3)


def _frontier() -> Match:
    return Match.create(
        RANCH.resolve(),
        get_ruleset("frontier"),
        [fk.law("sheriff", "deputy", "hired_gun"), fk.outlaws("gang_leader", "outlaw", "dog")],
        3,
    )


def _move_of(session: BattleSession) -> Command | None:
    """A plain move for the unit deciding now (no dice, nothing revealed), if it has one."""
    for a in session.legal():
        if a.action == "move" and a.enabled and a.needs == "path":
            here = session.match.position(a.actor)
            assert here is not None
            end = a.hexes[0]
            path = session.match.battlefield.path(here, end)
            if path is not None:
                return a.command(path=tuple(path))
    return None


def _to_battle(session: BattleSession, aggressive: object) -> None:
    """Deploy and play on until a unit may move."""
    for _ in range(400):
        if _move_of(session) is not None:
            return
        session.apply(aggressive(session.match))  # type: ignore[operator]
    raise AssertionError("no move offered")


@pytest.mark.parametrize(("build", "kit"), [(_rift, rk), (_frontier, fk)], ids=["rift", "frontier"])
def test_undo_takes_back_a_move_that_rolled_no_dice(build: object, kit: object, tmp_path: Path) -> None:
    """Issue 5: "Undo of the last move that rolled no dice and revealed nothing": the match is exactly
    the one that never had the move (same digest, same legal actions)."""
    session = BattleSession(build(), tmp_path)  # type: ignore[operator]
    _to_battle(session, kit.aggressive_command)  # type: ignore[attr-defined]
    before = session.match.digest()
    legal_before = session.legal()
    move = _move_of(session)
    assert move is not None
    session.apply(move)
    assert session.match.digest() != before
    assert session.undo_problem() is None
    assert session.undo() == move
    assert session.match.digest() == before
    assert session.legal() == legal_before
    assert not session.needs_handover()  # the same player carries on: no "Pass to ..." cover


def test_undo_refused_once_the_turn_moved_on_or_damage_was_dealt(tmp_path: Path) -> None:
    """Issue 5: undo only "the last move that rolled no dice and revealed nothing": ending the turn and a
    hit assignment whose stress has been dealt stand (the dice were rolled by the attack before)."""
    session = BattleSession(_rift(), tmp_path)
    _to_battle(session, rk.aggressive_command)
    end = next(a for a in session.legal() if a.action == "end_turn")
    session.apply(end.command())
    assert session.undo_problem() is not None
    m, _me, g1, g2 = rk.fired_at_two_goons(fk.open_map(tmp_path))
    fired = BattleSession(m, tmp_path / "fired")
    assign = next(a for a in fired.legal() if a.action == "assign")
    fired.apply(assign.command(targets=(g1, g2)))
    assert fired.undo_problem() == "the last action dealt damage: it stands"


def test_undo_refused_after_dice_were_rolled(tmp_path: Path) -> None:
    """A command that moved the match's RNG (dice, cards) stands: "rolled no dice and revealed nothing"."""
    session = BattleSession(_rift(), tmp_path)
    assert session.undo_problem() == "nothing to undo"
    from game.rules.rift import auto_deploy_commands

    for cmd in auto_deploy_commands(session.match):
        session.apply(cmd)
    # the last deploy rolled the turn order
    assert session.undo_problem() == "can't undo: a die was rolled"
    with pytest.raises(ValueError, match=r"can.t undo"):
        session.undo()


def test_hand_over_between_two_human_players_but_not_for_the_ai(tmp_path: Path) -> None:
    """Hotseat: 'a "pass to <side>" screen hides the board until the next player clicks' - the session
    says when the next decision belongs to the other human player."""
    session = BattleSession(_rift(), tmp_path)
    rng = random.Random(1)
    seen = False
    for _ in range(300):
        legal = [a for a in session.legal() if a.enabled]
        if not legal:
            break
        side_before = session.deciding_side()
        session.apply(rk.command_for(session.match, rng.choice(legal), rng))
        if session.needs_handover():
            seen = True
            assert session.deciding_side() != side_before
    assert seen
    session.seats["side2"] = "ai"
    assert not (session.needs_handover() and "ai" in (session.deciding_side(), session.last_side))


def test_autosave_after_every_command_and_continue_resumes_there(tmp_path: Path) -> None:
    """Issue 5: "autosave at the start of every turn; "continue" after a crash resumes where the game
    was": the newest autosave replays to the digest of the match as it was."""
    session = BattleSession(_rift(), tmp_path / "autosaves")
    _to_battle(session, rk.aggressive_command)
    path = latest_autosave(tmp_path / "autosaves")
    assert path is not None and path == session.autosave_path()
    resumed = BattleSession.load(path, tmp_path / "autosaves")
    assert resumed.match.digest() == session.match.digest()
    assert resumed.battle_id == session.battle_id  # goes on writing the same file
    other = BattleSession(_frontier(), tmp_path / "autosaves", battle_id="later")
    other.apply(other.legal()[0].command(hex=other.legal()[0].hexes[0]))
    os.utime(other.autosave_path(), (2_000_000_000, 2_000_000_000))  # type: ignore[arg-type]
    assert latest_autosave(tmp_path / "autosaves") == other.autosave_path()
    loaded, _ = load_match(other.autosave_path())  # type: ignore[arg-type]
    assert loaded.digest() == other.match.digest()


def test_autosave_failure_is_reported_once_and_the_game_goes_on(tmp_path: Path) -> None:
    """Never lose a game, never a traceback: a folder that cannot be written is reported, play goes on."""
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    told: list[str] = []
    session = BattleSession(_rift(), blocker / "autosaves", on_autosave_error=told.append)
    first = session.legal()[0]
    session.apply(first.command(hex=first.hexes[0]))
    second = session.legal()[0]
    session.apply(second.command(hex=second.hexes[0]))
    assert len(told) == 1 and "autosave failed" in told[0]


def test_battle_stats_add_up(tmp_path: Path) -> None:
    """Results screen: attacks, hits, damage dealt and taken per unit from the events; every point of
    damage dealt by a unit was taken by another, and the losers are all out."""
    session = BattleSession(_rift(), None)
    while not session.match.is_over:
        session.apply(rk.aggressive_command(session.match))
    stats = battle_stats(session.match)
    assert sum(s.damage_dealt for s in stats) <= sum(s.damage_taken for s in stats)
    assert sum(s.attacks for s in stats) >= sum(s.hits for s in stats) > 0
    outcome = session.outcome
    assert outcome is not None and outcome.winner is not None
    losers = [s for s in stats if s.side != outcome.winner]
    assert losers and all(s.out for s in losers)


def test_a_card_draw_is_never_taken_back(tmp_path: Path) -> None:
    """Issue 13: "Undo must never take back anything that revealed information (a card, a die, a hidden
    position), in any ruleset": a Frontier initiative draw moves no die, but it shows a card, so it stands
    (the engine's rule: the command changed the hidden state, ``Match.last_revealed``)."""
    match = fk.new_match(fk.RANCH, fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"), 2)
    session = BattleSession(match, tmp_path)
    for cmd in session.match.auto_deploy():
        session.apply(cmd)
    draw = next(a for a in session.legal() if a.action == "draw_card")
    session.apply(draw.command())
    assert session.match.last_revealed
    assert session.undo_problem() == "can't undo: a card was drawn"


def test_undo_drops_back_to_the_exact_match_before_the_command(tmp_path: Path) -> None:
    session = BattleSession(_rift(), tmp_path)
    _to_battle(session, rk.aggressive_command)
    before = session.match.digest()
    move = next(a for a in session.legal() if a.action == "move" and a.enabled)
    here = session.match.position(move.actor)
    assert here is not None
    path = session.match.battlefield.path(here, move.hexes[0])
    assert path is not None
    session.apply(move.command(path=tuple(path)))
    assert session.match.digest() != before
    assert session.undo_problem() is None
    session.undo()
    assert session.match.digest() == before
    assert session.match.position(move.actor) == here
