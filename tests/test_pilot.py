"""The computer players in the window, headless (game/ui/pilot.py through the battle controller, no pygame):
issue 12, "Solo play in the window" — the AI takes its turns and its reaction windows on the main loop,
one step a frame, at a readable pace that a skip cuts short, with one log line per decision in its own
words and its score breakdown as the detail; no hand-over cover around its turns; a failure is shown, the
seat passes to a human and the autosave is intact; a resumed battle decides as one never interrupted."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ai.baselines import Player
from ai.controllers import make_player
from ai.runner import play
from game.battlefield import Cover
from game.commands import Command
from game.engine.match import Match, MatchView
from game.hexgrid import Hex, hex_add, hex_scale, hex_subtract
from game.posses import default_posses
from game.rules import get_ruleset
from game.save import read_save
from game.ui.combatlog import LogLine
from game.ui.controller import BattleController
from game.ui.pilot import QUICK_SECONDS, SHOW_SECONDS, THINK_SECONDS, AiPilot, decision_line, place_words
from game.ui.session import BattleSession
from tests.rules import frontier_kit, rift_kit
from tests.rules.frontier_kit import at, open_map

ROOT = Path(__file__).resolve().parent.parent
RANCH = (ROOT / "maps" / "ranch_duel.tmx").resolve()
FRAME = 1 / 60
HUMANS: dict[str, Callable[[Match], Command]] = {
    "frontier": frontier_kit.aggressive_command,
    "rift": rift_kit.aggressive_command,
}


def _match(ruleset: str, seed: int = 5) -> Match:
    drafts = default_posses(ruleset)
    posses = [drafts[0].spec(side="side1", controller="ai"), drafts[1].spec(side="side2", controller="ai")]
    return Match.create(RANCH, get_ruleset(ruleset), posses, seed)


def _controller(
    match: Match,
    seats: dict[str, str],
    autosaves: Path | None = None,
    make: Callable[[str, int], Player] | None = None,
) -> BattleController:
    return BattleController(BattleSession(match, autosaves, seats=seats), make_player=make)


class Counting(Player):
    """A real AI player that counts its decisions (how many a frame may take)."""

    def __init__(self, seat: str, seed: int) -> None:
        super().__init__(seed)
        self.inner = make_player(seat, seed)
        self.calls = 0

    @property
    def last(self) -> object:
        return getattr(self.inner, "last", None)

    def decide(self, view: MatchView, index: int) -> Command:
        self.calls += 1
        return self.inner.decide(view, index)


def _run(
    c: BattleController,
    human: Callable[[Match], Command] | None = None,
    *,
    commands: int = 100_000,
    limit: int = 200_000,
) -> int:
    """Frames until the battle is over (or has ``commands`` commands); a human side (if any) plays
    ``human``'s commands when asked."""
    frames = 0
    while c.session.outcome is None and len(c.match.log) < commands:
        if not c.session.ai_deciding() and not c.covered:
            assert human is not None, "a human was asked with no human playing"
            assert c.send(human(c.match))
        c.advance(FRAME, 1.0)
        frames += 1
        assert frames < limit, "the battle did not end"
    return frames


# Through the Rift's AI decides slowly today (docs/PERFORMANCE.md): its battles are cut short here
@pytest.mark.parametrize(("ruleset", "commands"), [("frontier", 100_000), ("rift", 60)])
def test_ai_against_ai_in_the_window_plays_exactly_as_the_headless_runner(
    ruleset: str, commands: int
) -> None:
    """The window's computer players are ai.runner's: the same players, seeded by the match's seed, make
    the same commands (the decision index is the side's count of commands in the log)."""
    window = _controller(_match(ruleset), {"side1": "ai:normal", "side2": "ai:easy"})
    _run(window, commands=commands)
    headless = _match(ruleset)
    players = {"side1": make_player("ai:normal", 5), "side2": make_player("ai:easy", 5)}
    result = play(headless, players, limit=commands)
    assert window.match.log == headless.log
    assert len(window.match.log) == min(commands, result.commands)
    if commands == 100_000:
        assert not result.stalled and window.session.outcome == headless.outcome()
    assert window.pilot.failures == []


def test_one_step_a_frame_at_a_readable_pace_and_a_skip_cuts_the_waits() -> None:
    """Thinking (the unit marked, no decision yet), then the decision shown (its words on the status
    line) before it is made, never two decisions in one frame; a skip makes the rest of the turn at once."""
    players: list[Counting] = []

    def counting(seat: str, seed: int) -> Player:
        players.append(Counting(seat, seed))
        return players[-1]

    c = _controller(_match("frontier"), {"side1": "ai:normal", "side2": "ai:normal"}, make=counting)
    assert c.session.spectating() and c.session.ai_deciding()
    log = len(c.match.log)
    c.advance(FRAME, 1.0)
    assert c.pilot.thinking == "side1" and c.ai_move is None
    assert "is thinking" in c.status_text()
    frames = 1
    while c.ai_move is None:
        calls = sum(p.calls for p in players)
        c.advance(FRAME, 1.0)
        frames += 1
        assert sum(p.calls for p in players) - calls <= 1
    assert frames * FRAME >= THINK_SECONDS
    assert len(c.match.log) == log  # shown, not yet made
    move = c.ai_move
    assert move.words in c.status_text() and "skips" in c.status_text()
    shown = 0
    while len(c.match.log) == log:
        c.advance(FRAME, 1.0)
        shown += 1
    assert shown * FRAME >= (QUICK_SECONDS if move.quick else SHOW_SECONDS) - FRAME
    assert c.match.log[-1] == move.command
    # a skip: the next decisions come a frame or two apart, whatever the pace
    c.pilot.skip()
    before = len(c.match.log)
    for _ in range(6):
        calls = sum(p.calls for p in players)
        c.advance(FRAME, 1.0)
        assert sum(p.calls for p in players) - calls <= 1
    assert len(c.match.log) >= before + 2


@pytest.mark.parametrize(("ruleset", "level"), [("frontier", "normal"), ("rift", "easy")])
def test_a_human_against_the_ai_no_cover_and_a_line_per_decision(ruleset: str, level: str) -> None:
    """A human (the rules tests' aggressive player) against the normal AI to the end: the AI decides its
    turns and its reaction windows, the hand-over cover never comes up, and every decision has its line in
    the log, in the AI's words with the score breakdown as the detail."""
    c = _controller(_match(ruleset, seed=9), {"side1": "human", "side2": f"ai:{level}"})
    lines: dict[int, LogLine] = {}  # every AI line as it comes (the log itself keeps the newest 300)
    passes = 0  # windows the controller let go at once ("X can only pass"): no decision to make
    shown: list[str] = []
    cover = False
    frames = 0
    while c.session.outcome is None:
        if not c.session.ai_deciding():
            assert c.send(HUMANS[ruleset](c.match))
        before = c.ai_move
        c.advance(FRAME, 4.0)
        cover = cover or c.covered
        if c.ai_move is not None and c.ai_move is not before:
            shown.append(c.ai_move.words)
        for line in c.feed.log if c.feed.log and id(c.feed.log[-1]) not in lines else ():
            if line.kind == "ai":
                lines.setdefault(id(line), line)
            elif line.text.endswith("can only pass") and id(line) not in lines:
                lines[id(line)] = line
                if c.match.log[-1].side == "side2":
                    passes += 1
        frames += 1
        assert frames < 200_000
    assert not cover
    decided = [line for line in lines.values() if line.kind == "ai"]
    made = [cmd for cmd in c.match.log if cmd.side == "side2"]
    assert c.pilot.failures == []
    assert len(decided) == c.pilot.decisions == len(made) - passes
    assert [line.text for line in decided] == shown  # its line, as shown before it was made
    # a unit's move said as a place, what it risks there after
    moves = [line.text for line in decided if re.search(" (moves|heads|sprints) ", line.text)]
    assert moves and all(re.search(r" (moves|heads|sprints) (to|for|behind|next to|into) ", t) for t in moves)
    assert any("; exposure after: " in line.text for line in decided)
    for line in decided:
        assert line.detail.startswith(f"{c.side_names['side2']}, {level.title()} AI\n")
        assert "Score " in line.detail


def test_the_ai_takes_its_reaction_window_on_the_humans_turn(tmp_path: Path) -> None:
    """Dodge Roll: "You may use this ability at any point between the start of your turn and the start of
    your next turn." The human's goon fires at the AI's Rifters; the window that opens is the AI's, on the
    human's turn: the AI decides it (a line in the log), and the turn goes back to the human, no cover."""
    m = rift_kit.new_match(
        rift_kit.rifters(
            "side1", rift_kit.rifter("daring", "Dash", level=7), rift_kit.rifter("deliberate", "Kid")
        ),
        rift_kit.outlaws("side2", "outlaw_goon"),
        1,
        open_map(tmp_path),
    )
    rift_kit.deploy(m)
    dash, kid, goon = rift_kit.unit(m, "side1", 0), rift_kit.unit(m, "side1", 1), rift_kit.unit(m, "side2")
    rift_kit.place(m, goon, at(5))
    rift_kit.place(m, dash, at(8))
    rift_kit.place(m, kid, at(9))
    rift_kit.give_turn(m, dash)
    rift_kit.give_turn(m, goon)
    rift_kit.script(m, 4, 2)
    c = _controller(m, {"side1": "ai:normal", "side2": "human"})
    assert c.session.deciding_side() == "side2" and not c.session.ai_deciding()
    assert c.send(rift_kit.cmd("fire", goon, option="goon_revolver"))
    assert c.send(rift_kit.find(m, goon, "assign").command(targets=(dash, kid)))
    prompt = c.prompt()
    assert prompt is not None and prompt.decider == dash
    assert c.session.ai_deciding() and not c.covered  # its window, on the human's turn
    assert c.actor_actions() == []  # the human cannot answer it for the AI
    frames = 0
    while c.session.ai_deciding():
        c.advance(FRAME, 1.0)
        assert not c.covered
        frames += 1
        assert frames < 600
    line = next(line for line in reversed(c.feed.log) if line.kind == "ai")
    assert line.text.startswith("Dash: ") and "Score " in line.detail
    assert m.log[-1].actor == dash  # its answer (Dodge Roll or Pass) was played
    assert c.session.deciding_side() == "side2" and c.actor_actions()  # the goon's turn goes on


def test_the_human_cannot_command_the_ai_side_nor_take_its_moves_back(tmp_path: Path) -> None:
    c = _controller(_match("rift"), {"side1": "ai:easy", "side2": "human"}, tmp_path)
    assert c.session.ai_deciding()
    c.advance(FRAME, 1.0)
    assert c.actor_actions() == [] and c.picker is None and c.end_action() is None
    unit = c.session.actors()[0]
    where = c.match.position(unit)
    if where is not None:
        c.click_map(where, unit, 1)
        assert c.picker is None
    while c.session.ai_deciding():
        c.advance(FRAME, 4.0)
    problem = str(c.session.undo_problem())
    assert problem == "the computer player's moves stand" or problem.startswith("can't undo: ")


class Broken(Player):
    """A computer player gone wrong: it raises, or returns a command the rules refuse, or no command."""

    def __init__(self, how: str) -> None:
        super().__init__(0)
        self.how = how

    def decide(self, view: MatchView, index: int) -> Command:
        if self.how == "raise":
            raise ZeroDivisionError("division by zero in the planner")
        if self.how == "illegal":
            return Command("teleport", actor=view.legal_actions()[0].actor, side=view.side)
        return "move north"  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("raise", "its decision raised ZeroDivisionError: division by zero in the planner"),
        ("illegal", "it chose a command the rules do not allow (teleport"),
        ("nothing", "it decided 'move north', which is not a command"),
    ],
)
def test_a_failing_ai_is_reported_its_side_passes_to_a_human_and_the_autosave_is_intact(
    tmp_path: Path, how: str, said: str
) -> None:
    autosaves = tmp_path / "autosaves"

    def factory(seat: str, seed: int) -> Player:
        return Broken(how) if seat == "ai:hard" else make_player(seat, seed)

    c = _controller(_match("frontier"), {"side1": "human", "side2": "ai:hard"}, autosaves, make=factory)
    c.session.autosave()
    while not c.session.ai_deciding():
        assert c.send(HUMANS["frontier"](c.match))
    digest, commands = c.match.digest(), len(c.match.log)
    for _ in range(120):
        c.advance(FRAME, 1.0)
        if c.pilot.failures:
            break
    assert len(c.pilot.failures) == 1
    failure = c.pilot.failures[0]
    assert failure.side == "side2" and failure.seat == "ai:hard" and said in failure.reason
    assert c.pilot.unseen == [failure]  # for the screen to show
    assert c.session.seats["side2"] == "human"
    assert c.match.digest() == digest and len(c.match.log) == commands  # nothing of it was played
    assert "failed" in c.feed.log[-1].text and "Blackwater Gang" in c.message
    path = c.session.autosave_path()
    assert path is not None
    data = read_save(path)
    assert data.seats == {"side1": "human", "side2": "human"} and len(data.commands) == commands
    resumed = BattleSession.load(path, autosaves)
    assert resumed.match.digest() == digest
    # the human plays on for that side
    assert not c.session.ai_deciding()
    c.advance(FRAME, 1.0)
    assert c.actor_actions() and c.session.deciding_side() == "side2"


@pytest.mark.parametrize(("ruleset", "commands"), [("frontier", 100_000), ("rift", 50)])
def test_a_battle_resumed_from_its_autosave_decides_as_the_one_never_interrupted(
    tmp_path: Path, ruleset: str, commands: int
) -> None:
    autosaves = tmp_path / "autosaves"
    seats = {"side1": "ai:easy", "side2": "ai:normal"}
    first = _controller(_match(ruleset), seats, autosaves)
    _run(first, commands=25)
    assert first.session.outcome is None
    path = first.session.autosave_path()
    assert path is not None
    resumed_session = BattleSession.load(path, autosaves)
    assert resumed_session.seats == seats
    resumed = BattleController(resumed_session)
    assert resumed.match.digest() == first.match.digest()
    _run(first, commands=commands)
    _run(resumed, commands=commands)
    assert resumed.match.log == first.match.log
    assert len(first.match.log) > 25


def test_an_unknown_profile_in_a_save_is_played_by_a_human_and_said(tmp_path: Path) -> None:
    session = BattleSession(_match("rift"), None, seats={"side1": "human", "side2": "ai:brutal"})
    assert session.seats["side2"] == "human"
    assert session.seat_notes and "ai:brutal" in session.seat_notes[0]
    c = BattleController(session)
    assert "ai:brutal" in c.message


def test_the_pilot_is_the_controllers() -> None:
    c = _controller(_match("rift"), {"side1": "human", "side2": "human"})
    assert isinstance(c.pilot, AiPilot) and not c.pilot.active
    c.advance(FRAME, 1.0)
    assert c.pilot.thinking is None and c.pilot.decisions == 0


def test_a_move_is_said_as_a_place_and_the_exposure_after_as_a_share() -> None:
    """The log line's words (issue 12: "Outlaw 2 moves behind the fence and shoots the Deputy: 50% to hit;
    exposure after: 17%"): onto a hex that gives cover, behind what gives cover between the unit and the
    nearest foe, next to it when it is not between them, into the open when nothing is near."""
    m = _match("frontier")
    bf = m.battlefield
    hexes = [h for h in bf.hexes_within(Hex(0, 0), 60) if bf.in_bounds(h)]
    covered = next(h for h in hexes if bf.terrain_at(h).cover != Cover.NONE)
    assert place_words(bf, covered, []) == f"to the {bf.terrain_at(covered).name}"

    def shelters(h: Hex) -> list[Hex]:
        return [n for n in bf.neighbors(h) if bf.terrain_at(n).cover != Cover.NONE or bf.blocks_sight(n)]

    open_hex = next(h for h in hexes if bf.terrain_at(h).cover == Cover.NONE and not shelters(h))
    assert place_words(bf, open_hex, []) == "into the open"
    h = next(
        h
        for h in hexes
        if bf.terrain_at(h).cover == Cover.NONE and len(shelters(h)) == 1 and not bf.blocks_sight(h)
    )
    wall = shelters(h)[0]
    step = hex_subtract(wall, h)
    name = bf.terrain_at(wall).name
    assert (
        place_words(bf, h, [hex_add(wall, hex_scale(step, 2))]) == f"behind the {name}"
    )  # the foe beyond the wall
    assert (
        place_words(bf, h, [hex_subtract(h, hex_scale(step, 2))]) == f"next to the {name}"
    )  # the foe on this side
    unit = next(u for u in m.units() if m.identity(u).side == "side1")
    cmd = Command("move", unit, path=(h,), side="side1")
    line = decision_line(m, "side1", cmd, f"Move to {h.q},{h.r}, then Rifle at Outlaw: 50% to hit", 0.17)
    said = place_words(
        bf, h, [p for u in m.units() if m.identity(u).side == "side2" and (p := m.position(u))]
    )
    assert line == (
        f"{m.identity(unit).name} moves {said} ({h.q},{h.r}), then Rifle at Outlaw: 50% to hit; "
        "exposure after: 17%"
    )
    assert decision_line(m, "side1", cmd, "Take Cover", None) == f"{m.identity(unit).name}: Take Cover"
    deploy = Command("deploy", unit, hex=covered, side="side1")
    assert decision_line(m, "side1", deploy, f"deploy at {covered.q},{covered.r}", None) == (
        f"{m.identity(unit).name} deploys at the {bf.terrain_at(covered).name} ({covered.q},{covered.r})"
    )
    deploy = Command("deploy", unit, hex=open_hex, side="side1")
    assert decision_line(m, "side1", deploy, f"deploy at {open_hex.q},{open_hex.r}", None).endswith(
        f" deploys in the open ({open_hex.q},{open_hex.r})"
    )
    # the first leg of a walk planned for the whole turn heads for the place; a Sprint sprints
    leg = Command("move", unit, path=(open_hex,), side="side1")
    said = decision_line(m, "side1", leg, f"Move to {h.q},{h.r}", None)
    assert said.startswith(f"{m.identity(unit).name} heads ") and said.endswith(f"({h.q},{h.r})")
    assert decision_line(m, "side1", cmd, f"Sprint to {h.q},{h.r}", None).startswith(
        f"{m.identity(unit).name} sprints "
    )
