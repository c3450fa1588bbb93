"""ai/simulate.py: seeded batches, the same records for any number of workers, errors kept with a save that
replays, Ctrl-C keeping what was done, and the summary's numbers (a quick smoke subset of issue 12's
"hexslinger simulate"; the full measure is make bench-ai)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from ai.baselines import GreedyPlayer, Player
from ai.controllers import make_player
from ai.runner import play
from ai.simulate import (
    Batch,
    BatchResult,
    _new_match,
    derive_seed,
    percentile,
    play_game,
    record_line,
    run_batch,
    summarize,
    wilson,
)
from game.commands import Command
from game.engine.match import MatchView
from game.engine.protocol import UnitSpec
from game.events import FLED, DamageTaken, UnitRemoved
from game.save import load_match
from tests.bench import corpus

RANCH = corpus.ROOT / "maps" / "ranch_duel.tmx"
FRONTIER = tuple(corpus.EVEN["frontier"](RANCH, 0).posses)
TIMED = ("decision_ms", "elapsed_s")  # wall clock: the only parts that may differ between runs


def batch(controllers: tuple[str, str] = ("greedy", "random"), games: int = 3, swap: bool = True) -> Batch:
    return Batch(RANCH, "frontier", (FRONTIER[0], FRONTIER[1]), controllers, games, 11, swap)


def untimed(summary: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in summary.items() if k not in TIMED}


# -- players that go wrong (module level, so spawned workers can build them too) --------------------------


class IllegalAtFive(GreedyPlayer):
    """Plays greedy, then at its sixth decision ends the turn of a unit that does not exist."""

    def decide(self, view: MatchView, index: int) -> Command:
        if index == 5:
            return Command("end_turn", actor=9999, side=view.side)
        return super().decide(view, index)


class RaisesAtThree(GreedyPlayer):
    def decide(self, view: MatchView, index: int) -> Command:
        if index == 3:
            raise RuntimeError("the player broke")
        return super().decide(view, index)


class Interrupted(GreedyPlayer):
    """Ctrl-C arriving while it thinks."""

    def decide(self, view: MatchView, index: int) -> Command:
        raise KeyboardInterrupt


def broken_in_pair_zero(name: str, seed: int) -> Player:
    """In games 0 and 1 of ``batch()`` (seed index 0: greedy on side1, then swapped on side2) the greedy
    player sends an illegal command."""
    if name == "greedy" and seed == derive_seed(11, 0, "player", 1):
        return IllegalAtFive(seed)
    return make_player(name, seed)


def raising_in_pair_one(name: str, seed: int) -> Player:
    if name == "greedy" and seed == derive_seed(11, 1, "player", 1):
        return RaisesAtThree(seed)
    return make_player(name, seed)


def interrupted_in_pair_one(name: str, seed: int) -> Player:
    if name == "greedy" and seed == derive_seed(11, 1, "player", 1):
        return Interrupted(seed)
    return make_player(name, seed)


# -- seeds and sides ---------------------------------------------------------------------------------------


def test_seeds_come_from_the_batch_seed_and_the_game_alone() -> None:
    assert derive_seed(11, 0, "match") == derive_seed(11, 0, "match")
    assert len({derive_seed(11, i, "match") for i in range(100)}) == 100
    assert derive_seed(11, 0, "match") != derive_seed(12, 0, "match")
    b = batch()
    first, second = b.setup(0), b.setup(1)
    # a swapped pair: the same match seed, the controllers (and each one's seed) on the other side
    assert first[2] == second[2] and not first[1] and second[1]
    assert first[3] == {"side1": "greedy", "side2": "random"}
    assert second[3] == {"side1": "random", "side2": "greedy"}
    assert first[4]["side1"] == second[4]["side2"] and first[4]["side2"] == second[4]["side1"]
    assert b.total == 6 and batch(swap=False).total == 3


def test_one_and_two_workers_give_the_same_records_byte_for_byte() -> None:
    b = batch(("ai:easy", "greedy"), games=2)
    one = run_batch(b, workers=1)
    two = run_batch(b, workers=2)
    assert [record_line(g) for g in one.games] == [record_line(g) for g in two.games]
    assert [g.record["game"] for g in two.games] == [0, 1, 2, 3]
    assert untimed(summarize(one)) == untimed(summarize(two))
    # a game played on its own is the same game
    assert record_line(play_game(b, 3)) == record_line(one.games[3])


def test_a_swapped_batch_counts_wins_by_controller() -> None:
    result = run_batch(batch(games=3), workers=1)
    summary = summarize(result)
    records = [g.record for g in result.games]
    assert summary["games"] == 6 and not summary["interrupted"]
    winners = Counter(r["winner"] for r in records)
    assert summary["wins"] == {"greedy": winners["greedy"], "random": winners["random"]}
    assert summary["draw_games"] == winners[None]
    assert summary["draws"] == {"greedy": winners[None], "random": winners[None]}
    assert summary["wins"]["greedy"] + summary["wins"]["random"] + summary["draw_games"] == 6
    # the winner's controller is the one that played the winning side in that game
    for r in records:
        if r["winner_side"] is not None:
            assert r["winner"] == r["controllers"][r["winner_side"]]
    # greedy played each side three times
    assert Counter(r["controllers"]["side1"] for r in records) == {"greedy": 3, "random": 3}


def test_the_summary_has_the_shape_the_issue_asks_for() -> None:
    summary = summarize(run_batch(batch(games=2), workers=1))
    json.dumps(summary)  # JSON-ready
    assert summary["games"] == 4
    assert set(summary["wins"]) == set(summary["draws"]) == {"greedy", "random"}
    assert set(summary["rounds"]) >= {"mean", "median"}
    assert summary["rounds"]["min"] <= summary["rounds"]["median"] <= summary["rounds"]["max"]
    for controller in ("greedy", "random"):
        timing = summary["decision_ms"][controller]
        assert timing["decisions"] > 0 and 0 < timing["median"] <= timing["p95"] <= timing["max"]
        rate = summary["win_rate"][controller]
        assert rate["low"] <= rate["rate"] <= rate["high"] and rate["games"] == 4


def test_a_game_record_says_where_units_were_hit_and_went_down() -> None:
    b = batch(games=1, swap=False)
    record = play_game(b, 0).record
    assert record["error"] is None and record["rounds"] > 0
    units = record["units"]
    out = [u for u in units if u["out"]]
    assert sum(record["survivors"].values()) == len(units) - len(out)
    # the same game again from its seeds, to read its history and where everyone ended
    again = _new_match(b, record["seed"])
    players = {
        s: make_player(record["controllers"][s], record["player_seeds"][s]) for s in ("side1", "side2")
    }
    play(again, players)
    assert again.digest() == record["digest"]
    damaged = [e for e in again.history if isinstance(e, DamageTaken) and e.amount > 0]
    assert len(record["hits"]) == len(damaged) > 0
    assert sum(u["damage_taken"] for u in units) == sum(e.amount for e in damaged)
    # Frontier keeps a unit taken out where it fell: the downs are where the fallen (not the fled) lie
    fled = {e.unit for e in again.history if isinstance(e, UnitRemoved) and e.reason == FLED}
    fallen = [again.position(u["unit"]) for u in out if u["unit"] not in fled]
    assert sorted(record["downs"]) == sorted([h.q, h.r] for h in fallen if h is not None)
    assert len(record["downs"]) == len(fallen) > 0
    # ... and every one of them was hit there
    assert all(down in record["hits"] for down in record["downs"])


def test_wilson_intervals_match_the_textbook_values() -> None:
    # Wilson score intervals at 95% (z = 1.96): 0/10 -> [0, 0.2775], 5/10 -> [0.2366, 0.7634]
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert percentile([1, 2, 3, 4, 5], 50) == 3
    assert percentile([0, 10], 95) == pytest.approx(9.5)


# -- errors and interruptions --------------------------------------------------------------------------------


@pytest.mark.parametrize("workers", [1, 2])
def test_an_illegal_command_is_recorded_with_a_save_that_replays(tmp_path: Path, workers: int) -> None:
    b = batch(games=2)
    result = run_batch(b, workers=workers, make=broken_in_pair_zero, save_dir=tmp_path)
    assert len(result.games) == 4 and not result.interrupted  # the batch went on
    assert [g.record["error"] is None for g in result.games] == [False, False, True, True]
    assert result.games[0].record["error"]["side"] == "side1"
    bad = result.games[1].record
    error = bad["error"]
    assert error["message"].startswith("illegal command")
    assert error["controller"] == "greedy" and error["side"] == "side2"  # game 1 is swapped
    assert "end_turn" in error["command"]
    assert bad["seed"] == b.setup(1)[2]
    save = tmp_path / error["save"]
    match, data = load_match(save, verify=True)  # replays to the saved digest
    assert data.seed == bad["seed"] and len(data.commands) == error["commands"] > 0
    assert not match.is_over
    summary = summarize(result)
    assert summary["errors"][1] == {
        "game": 1,
        "seed": bad["seed"],
        "message": error["message"],
        "save": error["save"],
    }
    assert summary["games"] == 4 and sum(summary["wins"].values()) + summary["draw_games"] == 2


def test_a_player_that_raises_is_recorded_and_the_batch_goes_on(tmp_path: Path) -> None:
    result = run_batch(batch(games=2), workers=1, make=raising_in_pair_one, save_dir=tmp_path)
    errors = [g.record for g in result.games if g.record["error"] is not None]
    assert [r["game"] for r in errors] == [2, 3]
    assert errors[0]["error"]["message"] == "RuntimeError: the player broke"
    load_match(tmp_path / errors[0]["error"]["save"], verify=True)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_before_it_and_marks_the_batch_interrupted(workers: int) -> None:
    result = run_batch(batch(games=3), workers=workers, make=interrupted_in_pair_one)
    assert isinstance(result, BatchResult)
    assert result.interrupted
    assert [g.record["game"] for g in result.games] == [0, 1]
    summary = summarize(result)
    assert summary["interrupted"] and summary["games"] == 2 and summary["planned"] == 6


def test_an_encounter_that_cannot_be_set_up_is_an_error_per_game_not_a_crash(tmp_path: Path) -> None:
    bogus = replace(FRONTIER[1], units=(UnitSpec("no_such_kind"),))
    b = Batch(RANCH, "frontier", (FRONTIER[0], bogus), ("greedy", "random"), 2, 11)
    result = run_batch(b, workers=1, save_dir=tmp_path)
    assert [g.record["game"] for g in result.games] == [0, 1]
    for g in result.games:
        error = g.record["error"]
        assert error["save"] is None and error["commands"] == 0 and "no_such_kind" in error["message"]
    assert list(tmp_path.iterdir()) == []
