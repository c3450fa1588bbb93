"""A Rifter held back as an encounter's reinforcement brings its Animal Friend dog with it (issue 15).

Through the Rift: "ANIMAL FRIEND ... You've adopted an animal companion, such as a dog or horse. It can do
things to assist you in your encounters". The book has no deployment or reinforcement rules at all (an
encounter's reinforcements are Hexslinger's own, docs/RULES.md E4), so that the dog waits off the map with
its Rifter and comes on with it, on the free arrival tile nearest it, is Hexslinger's own decision (E4)."""

from __future__ import annotations

from pathlib import Path

from ai.baselines import RandomPlayer
from game.engine.match import Match
from game.engine.registry import get_ruleset
from game.engine.scenario import Arrival, Scenario, companions
from game.events import Moved, Note
from game.hexgrid import hex_distance
from game.posses import PosseDraft
from game.save import load_match, save_match
from tests.encounter.test_objectives import MAP, deploy_all, play_random, zone


def _crew_with_a_dog() -> PosseDraft:
    crew = PosseDraft("rift", "side1", "rifters", "Dog Crew")
    for i, attitude in enumerate(("bold", "calculated")):
        assert crew.add_unit("rifter") is None
        assert crew.choose(i, "attitude", attitude) is None
        assert crew.choose(i, "level", "2") is None
        assert crew.act(i, "auto_skills") is None
    assert crew.choose(0, "talents", "animal_friend") is None
    assert crew.choose(1, "talents", "architect") is None
    crew.set_name(0, "Big Jo")
    assert crew.problems() == []
    return crew


def _match(arrival_round: int = 2) -> tuple[Match, int, int]:
    gang = PosseDraft("rift", "side2", "outlaws", "Outlaw Gang")
    for kind in ("gang_boss", "outlaw_goon", "sharpshooter"):
        gang.add_unit(kind)
    arrive = tuple(sorted(zone("side1")))
    scenario = Scenario(arrivals=(Arrival("side1", 0, arrival_round, arrive),), rounds=4)
    match = Match.create(
        MAP, get_ruleset("rift"), [_crew_with_a_dog().spec(), gang.spec()], 3, scenario=scenario
    )
    jo = next(u for u in match.units("side1", in_play=False) if match.identity(u).name == "Big Jo")
    (dog,) = companions(match, jo)
    return match, jo, dog


def test_the_dog_of_a_rifter_held_back_waits_off_the_map_with_it() -> None:
    match, jo, dog = _match()
    assert match.identity(dog).name == "Big Jo's Dog"
    assert dog not in match.units() and jo not in match.units()  # neither is in play: no deploy offer
    assert match.unit_view(dog).out == "arrives in round 2" == match.unit_view(jo).out
    deploy_all(match)
    assert match.position(dog) is None and match.position(jo) is None
    assert match.units("side1") == [u for u in match.units("side1", in_play=False) if u not in (jo, dog)]


def test_the_dog_comes_on_with_its_rifter_on_the_free_arrival_tile_nearest_it() -> None:
    match, jo, dog = _match()
    deploy_all(match)
    players = {s: RandomPlayer(7 + i) for i, s in enumerate(("side1", "side2"))}
    for count in range(2000):  # until the dog is on the map: nothing has moved since it came on
        if dog in match.units() or match.is_over:
            break
        side = match.legal_actions()[0].side
        match.apply(players[side].decide(match.view(side), count))
    notes = [e for e in match.history if isinstance(e, Note) and "arrives" in e.rule]
    assert [(e.unit, e.round) for e in notes] == [(jo, 2), (dog, 2)]  # the Rifter first, then its dog
    jo_at, dog_at = match.position(jo), match.position(dog)
    assert jo_at is not None and dog_at is not None
    arrive = zone("side1")
    others = set(match.occupied()) - {dog_at}
    free = [h for h in arrive if match.battlefield.is_passable(h) and h not in others]
    assert dog_at in free
    assert hex_distance(dog_at, jo_at) == min(hex_distance(h, jo_at) for h in free)
    came = match.history[match.history.index(notes[1]) + 1]
    assert isinstance(came, Moved) and came.unit == dog and came.path == (dog_at,)


def test_the_battle_with_a_late_rifter_and_its_dog_plays_to_its_end() -> None:
    match, _jo, dog = _match()
    deploy_all(match)
    play_random(match)
    assert match.is_over
    assert any(isinstance(e, Note) and e.unit == dog and "arrives" in e.rule for e in match.history)


def test_a_save_with_the_waiting_dog_replays_to_the_same_state(tmp_path: Path) -> None:
    match, _jo, dog = _match(3)
    deploy_all(match)
    path = tmp_path / "dog.json"
    save_match(match, path)
    loaded, _ = load_match(path)
    assert loaded.digest() == match.digest() and loaded.position(dog) is None
