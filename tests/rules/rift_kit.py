"""Helpers for the Through the Rift rule tests: characters, posses, matches, scripted dice, set-ups."""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

import esper

from game.commands import Command
from game.components import ActionPoints, Position
from game.engine.match import Match
from game.hexgrid import Hex, hex_distance
from game.rules import LegalAction, PosseSpec, UnitSpec, get_ruleset
from game.rules.rift import auto_deploy_commands
from game.rules.rift import state as st
from game.rules.rift.character import Character, posse_spec
from game.rules.rift.components import RiftGame, TurnState

ROOT = Path(__file__).resolve().parent.parent.parent
RANCH = ROOT / "maps" / "ranch_duel.tmx"
TOWN = ROOT / "maps" / "frontier_town.tmx"

SKILLS_10 = (("musclehead", 4), ("city_slicker", 3), ("greasemonkey", 3))


def rifter(
    attitude: str,
    name: str = "",
    level: int = 1,
    *,
    second: str = "",
    level7: str = "",
    weapons: tuple[str, ...] = (),
    talents: tuple[str, ...] = (),
) -> Character:
    """A valid character: skills filled up to the level's points."""
    points = 10 + (6 if level >= 3 else 0) + (6 if level >= 6 else 0)
    skills: list[tuple[str, int]] = []
    names = ["musclehead", "city_slicker", "greasemonkey", "field_anatomist", "twinkletoed", "musclehead"]
    pool = [
        "musclehead",
        "city_slicker",
        "greasemonkey",
        "field_anatomist",
        "twinkletoed",
        "part_time_shadow",
    ]
    del names
    for skill in pool:
        if points <= 0:
            break
        rank = min(4, points)
        skills.append((skill, rank))
        points -= rank
    if not talents:
        defaults = ("architect", "professional")
        talents = defaults[: (1 if level >= 2 else 0) + (1 if level >= 5 else 0)]
    return Character(
        name or attitude.title(),
        level,
        attitude,
        second,
        level7,
        weapons,
        talents,
        tuple(sorted(skills)),
    )


def rifters(side: str, *characters: Character) -> PosseSpec:
    return posse_spec(side, "Rifters " + side, list(characters))


def outlaws(side: str, *kinds: str) -> PosseSpec:
    return PosseSpec(side, "outlaws", "Outlaws", tuple(UnitSpec(k) for k in kinds))


class ScriptedRandom(random.Random):
    """A Random whose randint answers come from a script (then from the seeded stream)."""

    def __init__(self, rolls: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(rolls)

    def randint(self, a: int, b: int) -> int:
        if self.script:
            value = self.script.pop(0)
            assert a <= value <= b, (value, a, b)
            return value
        return super().randint(a, b)


def new_match(side1: PosseSpec, side2: PosseSpec, seed: int = 1, map_path: Path = RANCH) -> Match:
    return Match.create(map_path, get_ruleset("rift"), [side1, side2], seed)


def deploy(match: Match) -> None:
    for cmd in auto_deploy_commands(match):
        match.apply(cmd)


def unit(match: Match, side: str, index: int = 0) -> int:
    return match.units(side, in_play=False)[index]


def place(match: Match, who: int, where: Hex) -> None:
    match.enter()
    esper.component_for_entity(who, Position).hex = where


def game(match: Match) -> RiftGame:
    match.enter()
    return st.game_state(match)


def give_turn(match: Match, who: int, ap: int = 3) -> None:
    """Set-up: make ``who`` the acting unit with ``ap`` action points and a fresh turn."""
    match.enter()
    g = st.game_state(match)
    g.stack.clear()
    g.active = who
    g.turn = g.order.index(who)
    g.turn_number += 1
    esper.component_for_entity(who, ActionPoints).current = ap
    t = esper.component_for_entity(who, TurnState)
    t.attacked = t.sprinted = False
    t.started = True


def script(match: Match, *rolls: int) -> ScriptedRandom:
    rng = ScriptedRandom(rolls)
    match.rng = rng
    return rng


def cmd(action: str, actor: int, **kwargs: object) -> Command:
    return Command(action, actor=actor, **kwargs)  # type: ignore[arg-type]


def find(match: Match, who: int, action: str, option: str = "") -> LegalAction:
    for a in match.legal_actions():
        if a.actor == who and a.action == action and (not option or a.option == option):
            return a
    raise AssertionError(
        f"{action} not listed for {who}: {[(a.actor, a.action) for a in match.legal_actions()]}"
    )


def command_for(match: Match, action: LegalAction, rng: random.Random) -> Command:
    """A command for an enabled legal action, following the LegalAction contract only."""
    if action.needs == "assign":
        return action.command(targets=tuple(rng.choice(action.targets) for _ in range(action.max_picks)))
    if action.needs == "hex":
        return action.command(hex=rng.choice(action.hexes))
    if action.needs == "path":
        here = match.position(action.actor)
        assert here is not None
        end = rng.choice(action.hexes)
        path = match.battlefield.path(here, end)
        assert path is not None
        return action.command(path=tuple(path))
    if action.needs == "target":
        return action.command(target=rng.choice(action.targets))
    return action.command()


def aggressive_command(match: Match) -> Command:
    """A simple player reading legal_actions only: assigns to the first target, never reacts, fires,
    throws at the nearest hostile, else walks towards the nearest hostile, else ends the turn."""
    actions = match.legal_actions()
    first = actions[0]
    if first.action == "deploy":
        return first.command(hex=first.hexes[0])
    if first.action == "assign":
        return first.command(targets=(first.targets[0],) * first.max_picks)
    usable = [a for a in actions if a.enabled]
    if any(a.action == "pass" for a in actions):
        return next(a for a in actions if a.action == "pass").command()
    me = first.actor
    here = match.position(me)
    assert here is not None
    match.enter()
    side = st.side(me)
    foes = [u for u in match.units() if st.side(u) != side and st.alive(u)]
    for a in usable:
        if a.action == "fire":
            return a.command()
    for a in usable:
        if a.action == "explosive" and foes:
            there = match.position(foes[0])
            assert there is not None
            best = min(a.hexes, key=lambda h: (hex_distance(h, there), h))
            if hex_distance(best, there) <= 1 and hex_distance(best, here) > 1:
                return a.command(hex=best)
    for a in usable:
        if a.action == "move" and foes:
            nearest = min(foes, key=lambda u: (hex_distance(match.position(u) or here, here), u))
            there = match.position(nearest)
            assert there is not None
            end = min(a.hexes, key=lambda h: (hex_distance(h, there), h))
            if hex_distance(end, there) < hex_distance(here, there):
                path = match.battlefield.path(here, end)
                if path is not None:
                    return a.command(path=tuple(path))
    return Command("end_turn", actor=me)


def play_out(match: Match, limit: int = 5000) -> int:
    count = 0
    while not match.is_over:
        match.apply(aggressive_command(match))
        count += 1
        assert count < limit, "the encounter did not end"
    return count


def fired_at_two_goons(map_path: Path) -> tuple[Match, int, int, int]:
    """A Cunning at col 5 who just fired the Model 4 Pistol at two goons (cols 8 and 9) and rolled
    6, 5, 1: two hits to assign, on a map made by ``frontier_kit.open_map``. Returns (match, shooter,
    goon 1, goon 2)."""
    from tests.rules.frontier_kit import at

    m = new_match(
        rifters("side1", rifter("cunning")), outlaws("side2", "outlaw_goon", "outlaw_goon"), 1, map_path
    )
    deploy(m)
    me, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, g1, at(8))
    place(m, g2, at(9))
    give_turn(m, me)
    script(m, 6, 5, 1)
    m.apply(cmd("fire", me, option="mdtc_model_4_pistol"))
    return m, me, g1, g2
