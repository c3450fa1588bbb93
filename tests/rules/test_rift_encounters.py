"""Scripted Through the Rift encounters played to the end by commands only, on the shipped maps.

The player here knows no rule: it reads ``legal_actions`` and follows the LegalAction contract, asks
``match.preview`` which command is an attack and how good it is, and reads positions and events (who was
overcome) from the match. Issue 4, "Proof": "scripted encounters to the end (Rifters vs goons, Rifters vs
Rifters)"; "saves replay to the same digest". Flee: docs/RULES.md R22.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.events import StatusChanged
from game.hexgrid import Hex, hex_distance
from game.rules import LegalAction
from game.save import load_match, save_match
from tests.rules.rift_kit import RANCH, TOWN, new_match, outlaws, rifter, rifters


def _overcome(match: Match) -> set[int]:
    down: set[int] = set()
    for e in match.history:
        if isinstance(e, StatusChanged) and e.status == "overcome":
            (down.add if e.active else down.discard)(e.unit)
    return down


def _foes(match: Match, me: int) -> list[tuple[int, Hex]]:
    side = match.identity(me).side
    down = _overcome(match)
    out = []
    for u in match.units():
        there = match.position(u)
        if match.identity(u).side != side and u not in down and there is not None:
            out.append((u, there))
    return out


def _attacks(match: Match, action: LegalAction, me: int) -> list[Command]:
    """Every command of this action the player would consider as an attack (the preview says which)."""
    foes = _foes(match, me)
    if action.needs == "":
        # no pick: aim it at each foe in turn (the preview answers None for one it cannot reach)
        candidates = [action.command(target=f) for f, _ in foes]
    elif action.needs == "target":
        candidates = [action.command(target=t) for t in action.targets]
    elif action.needs == "hex":
        spots = {h for _, h in foes}
        candidates = [action.command(hex=h) for h in action.hexes if h in spots]
    else:
        return []
    side = match.identity(me).side
    friends = match.units(side)
    out = []
    for c in candidates:
        p = match.preview(c)
        if p is None or p.expected_damage <= 0:
            continue
        if c.hex is not None and any(match.preview(replace(c, target=f)) for f in friends):
            continue  # a friend would be caught in the blast
        out.append(c)
    return out


def player(match: Match, fleeing: str = "") -> Command:
    """One command for whoever must decide now; the side ``fleeing`` flees whenever it can."""
    actions = match.legal_actions()
    first = actions[0]
    if first.needs == "hex" and first.action == "deploy":
        return first.command(hex=first.hexes[0])
    if first.needs == "assign":
        return first.command(targets=(first.targets[0],) * first.max_picks)
    passing = [a for a in actions if a.action == "pass"]
    if passing:
        return passing[0].command()
    me = first.actor
    usable = [a for a in actions if a.enabled]
    if match.identity(me).side == fleeing:
        for a in usable:
            if a.action == "flee":
                return a.command()
        return Command("end_turn", actor=me)
    best: tuple[Fraction, Command] | None = None
    for a in usable:
        for c in _attacks(match, a, me):
            p = match.preview(c)
            assert p is not None
            if best is None or p.expected_damage > best[0]:
                # an action with no pick (Fire: its hits are assigned after the roll) is sent as offered
                best = (p.expected_damage, c if a.needs else a.command())
    if best is not None:
        return best[1]
    here = match.position(me)
    foes = _foes(match, me)
    if here is not None and foes:
        goal = min(foes, key=lambda f: (hex_distance(f[1], here), f[0]))[1]
        for a in usable:
            if a.needs != "path" or a.targets or a.choices or not a.hexes:
                continue
            end = min(a.hexes, key=lambda h: (hex_distance(h, goal), h))
            if hex_distance(end, goal) >= hex_distance(here, goal):
                continue
            path = match.battlefield.path(here, end)
            if path is not None:
                return a.command(path=tuple(path))
    return Command("end_turn", actor=me)


def play(match: Match, fleeing: str = "", limit: int = 4000, stop: int | None = None) -> int:
    count = 0
    while not match.is_over and (stop is None or count < stop):
        match.apply(player(match, fleeing))
        count += 1
        assert count < limit, "the encounter did not end"
    return count


def _vs_goons(map_path: Path, seed: int) -> Match:
    posse = rifters("side1", rifter("deliberate", "Del"), rifter("bold", "Bo"), rifter("calculated", "Cal"))
    gang = outlaws("side2", "outlaw_goon", "outlaw_goon", "sharpshooter", "dynamiter", "gang_boss")
    return new_match(posse, gang, seed, map_path)


def _vs_rifters(map_path: Path, seed: int) -> Match:
    one = rifters("side1", rifter("deliberate", "Del"), rifter("daring", "Dar"), rifter("cunning", "Cun"))
    two = rifters("side2", rifter("resolute", "Res"), rifter("bold", "Bo"), rifter("calculated", "Cal"))
    return new_match(one, two, seed, map_path)


Build = Callable[[Path, int], Match]

CASES = [
    pytest.param(_vs_goons, RANCH, 3, id="rifters-vs-goons-ranch"),
    pytest.param(_vs_goons, TOWN, 3, id="rifters-vs-goons-town"),
    pytest.param(_vs_rifters, RANCH, 3, id="rifters-vs-rifters-ranch"),
    pytest.param(_vs_rifters, TOWN, 3, id="rifters-vs-rifters-town"),
]


@pytest.mark.parametrize(("build", "map_path", "seed"), CASES)
def test_encounter_played_to_the_end_every_hostile_overcome(build: Build, map_path: Path, seed: int) -> None:
    """ "When a character's resolve is reduced to 0, they are overcome and cannot act for the remainder of
    the encounter": played by commands only until one side has overcome every unit of the other."""
    m = build(map_path, seed)
    play(m)
    result = m.outcome()
    assert result is not None and result.winner is not None, result
    assert result.reason == "all hostile units are overcome"
    loser = next(p.side for p in m.posses if p.side != result.winner)
    assert m.units(loser) and all(u in _overcome(m) for u in m.units(loser))


@pytest.mark.parametrize(("build", "map_path", "seed"), CASES)
def test_encounter_won_when_every_hostile_unit_fled(build: Build, map_path: Path, seed: int) -> None:
    """ "Flee [2AP] Immediately leave the combat.": a side that flees unit by unit hands the other side
    the win (docs/RULES.md R22)."""
    m = build(map_path, seed)
    play(m, fleeing="side2")
    result = m.outcome()
    assert result is not None and result.winner == "side1"
    assert result.reason == "all hostile units fled"
    assert m.units("side2") == []  # every unit of side2 left the map's play


@pytest.mark.parametrize(("build", "map_path", "seed"), CASES)
def test_a_save_written_mid_encounter_reloads_to_the_same_digest(
    build: Build, map_path: Path, seed: int, tmp_path: Path
) -> None:
    """Issue 4: "saves replay to the same digest": saved mid-fight, reloaded, and both copies then play on
    to the same end."""
    m = build(map_path, seed)
    play(m, stop=60)
    assert not m.is_over
    save = tmp_path / "mid.json"
    save_match(m, save, "mid-encounter")
    loaded, data = load_match(save)
    assert loaded.digest() == m.digest() == data.digest
    play(m)
    play(loaded)
    assert loaded.digest() == m.digest()
    assert loaded.outcome() == m.outcome()
