"""The encounter rules every ruleset shares (Hexslinger's own: docs/RULES.md "Encounter objectives
(own)"): fixed starts, reinforcements, the round limit and its winner, and the objectives — each played
in real matches of all three rulesets, through ``Match.apply`` only."""

from __future__ import annotations

from pathlib import Path

import esper
import pytest

from ai.baselines import RandomPlayer
from ai.controllers import make_player
from ai.runner import play
from game.commands import Command
from game.components import Removed
from game.encounter.load import load_encounter
from game.engine import scenario as sc
from game.engine.match import Match
from game.engine.protocol import DEPLOY
from game.engine.registry import get_ruleset
from game.engine.scenario import Arrival, Goal, Scenario
from game.events import Moved, Note
from game.hexgrid import Hex
from game.mapload import load_battlefield
from game.posses import DATA_ENV, default_posses
from game.resources import shipped_map
from game.save import load_match, save_match

RULESETS = ("frontier", "rift", "golden")
ROOT = Path(__file__).resolve().parents[2]
MAP = shipped_map("ranch_duel")
assert MAP is not None


@pytest.fixture(autouse=True)
def _own_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))


def new_match(ruleset: str, scenario: Scenario, seed: int = 1) -> Match:
    posses = [default_posses(ruleset, s)[i].spec(side=s) for i, s in enumerate(("side1", "side2"))]
    return Match.create(MAP, get_ruleset(ruleset), posses, seed, scenario=scenario)


def zone(side: str) -> frozenset[Hex]:
    return load_battlefield(MAP).deploy_zones[side]  # type: ignore[arg-type]


def deploy_all(match: Match) -> None:
    while match.legal_actions() and match.legal_actions()[0].action == DEPLOY:
        for cmd in match.auto_deploy():
            match.apply(cmd)


def play_random(match: Match, limit: int = 4000) -> None:
    players = {s: RandomPlayer(7 + i) for i, s in enumerate(("side1", "side2"))}
    count = 0
    while not match.is_over and count < limit:
        legal = match.legal_actions()
        side = legal[0].side
        match.apply(players[side].decide(match.view(side), count))
        count += 1


def rounds_seen(match: Match) -> int:
    return max(e.round for e in match.history)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fixed_start_is_the_only_hex_offered_and_kept_from_the_others(ruleset: str) -> None:
    far = max(zone("side1"))
    match = new_match(ruleset, Scenario(starts=(("side1", 0, far),)))
    first = match.units("side1")[0]
    offers = {a.actor: a.hexes for a in match.legal_actions() if a.action == DEPLOY}
    assert offers[first] == (far,)
    assert all(far not in hexes for unit, hexes in offers.items() if unit != first)
    other = next(u for u in offers if u != first)
    refused = match.validate(Command(DEPLOY, actor=other, side="side1", hex=far))
    assert refused is not None and "fixed start" in refused
    wrong = min(zone("side1"))
    refused = match.validate(Command(DEPLOY, actor=first, side="side1", hex=wrong))
    assert refused is not None and "starts" in refused
    deploy_all(match)
    assert match.position(first) == far


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_fixed_start_may_lie_outside_the_deploy_zone(ruleset: str) -> None:
    bf = load_battlefield(MAP)  # type: ignore[arg-type]
    outside = next(
        h for h in sorted(bf.hexes) if bf.is_passable(h) and all(h not in z for z in bf.deploy_zones.values())
    )
    match = new_match(ruleset, Scenario(starts=(("side2", 0, outside),)))
    deploy_all(match)
    assert match.position(match.units("side2")[0]) == outside


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_reinforcement_waits_off_the_map_and_comes_on_at_its_round(ruleset: str) -> None:
    arrive = tuple(sorted(zone("side2")))
    match = new_match(ruleset, Scenario(arrivals=(Arrival("side2", 1, 2, arrive),), rounds=3))
    late = next(u for u in match.units("side2", in_play=False) if match.identity(u).index == 1)
    assert late not in match.units("side2")  # not in play: no deploy offer, no turn
    assert match.unit_view(late).out == "arrives in round 2"
    deploy_all(match)
    assert match.position(late) is None
    play_random(match)
    came = [e for e in match.history if isinstance(e, Note) and e.unit == late and "arrives" in e.rule]
    assert len(came) == 1 and came[0].round == 2
    at = match.history.index(came[0])
    placed = match.history[at + 1]
    assert isinstance(placed, Moved) and placed.unit == late and placed.path[0] in arrive  # it came on there
    assert any(isinstance(e, Moved) and e.unit == late for e in match.history[:at]) is False
    assert not match.unit_view(late).out.startswith("arrives")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_encounter_round_limit_and_its_winner(ruleset: str) -> None:
    match = new_match(ruleset, Scenario(rounds=1, time_winner="side2"))
    deploy_all(match)
    play_random(match)
    outcome = match.outcome()
    assert outcome is not None
    assert outcome.winner == "side2"
    assert outcome.reason == f"the sun went down after 1 rounds: {match.posses[1].name} held out"
    assert rounds_seen(match) == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_holding_an_area_for_n_rounds_wins(ruleset: str) -> None:
    """The side that alone has units in the area at the end of a round counts a round; N in a row wins.
    Side 1's own deploy zone as the area: it holds it from its first round on."""
    match = new_match(ruleset, Scenario(goals=(Goal("hold", "side1", "home", area=zone("side1"), rounds=2),)))
    deploy_all(match)
    play_random(match)
    outcome = match.outcome()
    assert outcome is not None
    held = [e.rule for e in match.history if isinstance(e, Note) and "holds home" in e.rule]
    assert outcome.winner == "side1"
    assert outcome.reason == f"{match.posses[0].name} held home for 2 rounds"
    assert held[-1].endswith("2 of 2 rounds")
    assert rounds_seen(match) == 2


@pytest.mark.parametrize("ruleset", RULESETS)
def test_reaching_the_exit_wins_at_once(ruleset: str) -> None:
    """An exit over side 1's own zone: its units stand on it once deployed, so the first check after the
    deployment ends the encounter — not before (no objective is settled while the posses deploy)."""
    match = new_match(ruleset, Scenario(goals=(Goal("escape", "side1", "the way out", area=zone("side1")),)))
    while not match.is_over:
        for cmd in match.auto_deploy()[:1]:
            match.apply(cmd)
        if not match.auto_deploy() and not match.is_over:
            play_random(match, limit=1)
    outcome = match.outcome()
    assert outcome is not None and outcome.winner == "side1"
    assert "got away" in outcome.reason
    assert all(c.action == DEPLOY for c in match.log[:-1])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_protected_unit_taken_out_loses_the_encounter(ruleset: str) -> None:
    match = new_match(ruleset, Scenario(goals=(Goal("protect", "side1", "boss", unit=0),)))
    deploy_all(match)
    boss = match.units("side1")[0]
    assert sc.settle(match, []) is None
    match.enter()
    esper.add_component(boss, Removed("out_of_action"))
    verdict = sc.settle(match, [])
    assert verdict is not None and verdict.winner == "side2"
    assert f"{match.identity(boss).name} was taken out" in verdict.reason


@pytest.mark.parametrize("ruleset", RULESETS)
def test_loot_is_picked_up_where_it_lies_and_carried_off(ruleset: str) -> None:
    """The loot lies on a unit's fixed start (taken when it deploys there); its exit is a hex next to it:
    the carrier walks there on its first move and the encounter ends with the carrier's side winning."""
    bf = load_battlefield(MAP)  # type: ignore[arg-type]
    home = sorted(zone("side1"))
    start = next(h for h in home if sum(1 for n in home if abs(n.q - h.q) + abs(n.r - h.r) == 1) >= 1)
    step = next(n for n in home if abs(n.q - start.q) + abs(n.r - start.r) == 1 and bf.is_passable(n))
    scenario = Scenario(
        starts=(("side1", 0, start),),
        goals=(Goal("loot", "side1", "the strongbox", area=frozenset({step}), spot=frozenset({start})),),
    )
    match = new_match(ruleset, scenario)
    carrier = match.units("side1")[0]
    players = {s: RandomPlayer(3 + i) for i, s in enumerate(("side1", "side2"))}
    for count in range(4000):
        if match.is_over:
            break
        legal = match.legal_actions()
        walk = [
            a for a in legal if a.actor == carrier and a.needs == "path" and a.enabled and step in a.hexes
        ]
        if walk and match.position(carrier) != step:
            match.apply(walk[0].command(path=walk[0].path_to(step) or ()))
            continue
        side = legal[0].side
        cmd = players[side].decide(match.view(side), count)
        if cmd.actor == carrier and cmd.path:  # the carrier goes nowhere but to the exit
            cmd = next((c for a in legal for c in a.expand() if a.ends_turn and a.actor == carrier), cmd)
        match.apply(cmd)
    outcome = match.outcome()
    assert outcome is not None
    taken = [e for e in match.history if isinstance(e, Note) and "takes the loot" in e.rule]
    assert taken and taken[0].unit == carrier
    assert outcome.winner == "side1"
    assert outcome.reason == f"{match.identity(carrier).name} carried off the loot: the strongbox"
    assert match.position(carrier) == step


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_loot_drops_where_its_carrier_falls(ruleset: str) -> None:
    start = sorted(zone("side1"))[0]
    far = frozenset({sorted(zone("side2"))[0]})
    scenario = Scenario(
        starts=(("side1", 0, start),),
        goals=(Goal("loot", "side1", "the strongbox", area=far, spot=frozenset({start})),),
    )
    match = new_match(ruleset, scenario)
    deploy_all(match)
    carrier = match.units("side1")[0]
    assert sc.settle(match, []) is None
    views = match.view("side2").goals()
    assert views[0].progress == f"carried by {match.identity(carrier).name}"
    match.enter()
    esper.add_component(carrier, Removed("out_of_action"))
    events: list = []
    assert sc.settle(match, events) is None
    assert any("drops the loot" in e.rule for e in events if isinstance(e, Note))
    assert match.goals()[0].spot == frozenset({start})
    assert match.goals()[0].progress == "lying where it fell"


def test_a_match_without_an_encounter_has_no_scenario_entity() -> None:
    plain = new_match("frontier", Scenario())
    bare = Match.create(MAP, get_ruleset("frontier"), list(plain.posses), 1)
    assert len(plain.entities()) == len(bare.entities()) + 1
    assert bare.goals() == []


@pytest.mark.parametrize(
    "name", ["frontier_ranch_house.toml", "rift_breakout.toml", "golden_doc_ellery.toml"]
)
def test_the_ai_plays_a_shipped_encounter_to_its_end_and_the_save_replays(name: str, tmp_path: Path) -> None:
    enc = load_encounter(ROOT / "encounters" / name)
    match = enc.match(seed=5)
    result = play(match, {"side1": make_player("ai:easy", 1), "side2": make_player("ai:easy", 2)})
    assert not result.stalled
    outcome = match.outcome()
    assert outcome is not None
    limit = enc.scenario.rounds
    assert limit is not None and result.rounds <= limit
    if enc.scenario.time_winner and outcome.reason.startswith("the sun went down"):
        assert outcome.winner == enc.scenario.time_winner
    path = tmp_path / "save.json"
    save_match(match, path)
    again, data = load_match(path)
    assert data.scenario == enc.scenario
    assert again.digest() == match.digest()
    assert again.outcome() == outcome


def test_side_names_in_verdicts_are_the_posses() -> None:
    match = new_match("frontier", Scenario(goals=(Goal("escape", "side1", "out", area=zone("side1")),)))
    deploy_all(match)
    outcome = match.outcome()
    assert outcome is not None
    assert outcome.reason == f"{match.posses[0].name} got away: out"


def test_the_ai_reads_the_objectives_and_an_encounter_ends_by_one() -> None:
    """The AI walks to an area its objectives name (``MatchView.goals``: public): on the railyard the
    Rifter Crew takes and holds the water tower, and the encounter ends by that objective (in one of
    the first four seeds: the others may end by the fight first)."""
    enc = load_encounter(ROOT / "encounters" / "rift_water_tower.toml")
    reasons = []
    for seed in range(1, 5):
        match = enc.match(seed=seed)
        players = {"side1": make_player("ai:easy", seed), "side2": make_player("ai:easy", 100 + seed)}
        result = play(match, players)
        assert not result.stalled
        reasons.append((result.winner, result.reason))
        if result.reason == "Rifter Crew held Water tower for 3 rounds":
            assert result.winner == "side1"
            assert match.view("side2").goals()[0].progress == "held 3 of 3 rounds"
            return
    pytest.fail(f"no game ended by the objective: {reasons}")


def test_a_reinforcement_not_yet_come_on_is_not_on_the_field() -> None:
    """Frontier's Cool checks count "the Units on the field" and a posse whose "Leader ... is considered
    Out of Action"; Golden Frontiers' posse gives up at a share of the units it fielded. A reinforcement
    still to come is neither on the field nor out of action (docs/RULES.md E4)."""
    from game.rules.frontier.endphase import cool_checks_due

    leader = next(
        i for i, u in enumerate(new_match("frontier", Scenario()).posses[1].units) if u.kind == "gang_leader"
    )
    arrivals = tuple(
        Arrival("side2", i, 3, tuple(sorted(zone("side2")))) for i in (leader, leader + 1, leader + 2)
    )
    match = new_match("frontier", Scenario(arrivals=arrivals))
    deploy_all(match)
    assert not cool_checks_due(match, "side2")
    assert not cool_checks_due(match, "side1")
    golden = new_match("golden", Scenario(arrivals=(Arrival("side1", 1, 3, tuple(sorted(zone("side1")))),)))
    deploy_all(golden)
    ctx = get_ruleset("golden").ctx(golden)  # type: ignore[attr-defined]
    assert not ctx.gave_up("side1")
