"""Helpers for the Golden Frontiers rule tests: posses, a match on an open map, rigged cards and
scripted dice. Set-up helpers write components directly so a test starts from the situation a rule is
about; everything a test then checks goes through commands."""

from __future__ import annotations

from pathlib import Path

import esper

from game.commands import Command
from game.components import Position
from game.engine.cards import MatchDeck
from game.engine.match import Match
from game.hexgrid import Hex
from game.rules import PosseSpec, Ruleset, UnitSpec, get_ruleset
from game.rules.golden.components import GoldenGame, Health, RoundState
from game.rules.golden.context import game_of
from tests.rules.frontier_kit import ScriptedRandom, at, open_map

__all__ = [
    "ScriptedRandom",
    "at",
    "cards_on_top",
    "char",
    "deploy",
    "game",
    "health",
    "new_match",
    "open_map",
    "place",
    "reason_for",
    "round_state",
    "script",
]


def char(
    name: str, s: int = 6, i: int = 6, r: int = 6, k: int = 6, *, items: tuple[str, ...] = ("revolver",)
) -> UnitSpec:
    """A character: trait dice (Survival, Intuition, Reflexes, Slickness) and equipment."""
    return UnitSpec(
        "character",
        name,
        items,
        (("survival", str(s)), ("intuition", str(i)), ("reflexes", str(r)), ("slickness", str(k))),
    )


def posse(side: str, faction: str, *units: UnitSpec) -> PosseSpec:
    return PosseSpec(side, faction, faction.title(), tuple(units))


def new_match(
    directory: Path,
    side1: tuple[UnitSpec, ...],
    side2: tuple[UnitSpec, ...],
    seed: int = 1,
    ruleset: Ruleset | None = None,
) -> Match:
    """Lawmen (side1) against Outlaws (side2) on an open test map; ``ruleset``: another data set."""
    path = open_map(directory)
    return Match.create(
        path,
        ruleset if ruleset is not None else get_ruleset("golden"),
        [posse("side1", "lawmen", *side1), posse("side2", "outlaws", *side2)],
        seed,
    )


def game(match: Match) -> tuple[GoldenGame, MatchDeck]:
    return game_of(match)


def cards_on_top(match: Match, *cards: str) -> None:
    """Set-up: the next cards drawn are ``cards``, in this order."""
    _, deck = game_of(match)
    for c in cards:
        deck.pile.remove(c)
    deck.pile.extend(reversed(cards))


def deploy(match: Match, spots: dict[int, Hex] | None = None, cards: tuple[str, ...] = ()) -> None:
    """Deploy everyone by commands (the last deployment deals round 1's cards: ``cards`` first, in unit
    order), then move units to ``spots`` (set-up)."""
    commands = match.auto_deploy()
    for c in commands[:-1]:
        match.apply(c)
    if cards:
        cards_on_top(match, *cards)
    match.apply(commands[-1])
    for who, where in (spots or {}).items():
        place(match, who, where)


def place(match: Match, who: int, where: Hex) -> None:
    match.enter()
    esper.component_for_entity(who, Position).hex = where


def health(match: Match, who: int) -> Health:
    match.enter()
    return esper.component_for_entity(who, Health)


def round_state(match: Match, who: int) -> RoundState:
    match.enter()
    return esper.component_for_entity(who, RoundState)


def script(match: Match, *rolls: int) -> ScriptedRandom:
    rng = ScriptedRandom(rolls)
    match.rng = rng
    return rng


def reason_for(match: Match, who: int, action: str, option: str = "") -> str | None:
    for a in match.legal_actions():
        if a.actor == who and a.action == action and (not option or a.option == option):
            return a.reason
    raise AssertionError(f"{action} not listed for {who}")


def cmd(action: str, actor: int, **kwargs: object) -> Command:
    return Command(action, actor=actor, **kwargs)  # type: ignore[arg-type]


def end(match: Match) -> None:
    """The active unit ends its activation."""
    game_state, _ = game_of(match)
    match.apply(Command("end", actor=game_state.active))


def aggressive_command(match: Match) -> Command:
    """A simple, deterministic player that knows no rule: it reads legal actions only. It executes,
    attacks, loads, else walks toward the nearest hostile unit, else ends its activation (or acts now
    when asked in a Biding Time window)."""
    from game.hexgrid import hex_distance

    actions = match.legal_actions()
    first = actions[0]
    if first.action == "deploy":
        return first.command(hex=first.hexes[0])
    usable = [a for a in actions if a.enabled]
    by_id = {a.action: a for a in usable}
    if "act_now" in by_id:
        return by_id["act_now"].command()
    for kind in ("execute", "attack"):
        offers = [a for a in usable if a.action == kind]
        if offers:
            return offers[0].command(target=offers[0].targets[0])
    loads = [a for a in usable if a.action == "load"]
    if loads:
        return loads[0].command()
    me = first.actor
    here = match.position(me)
    side = match.identity(me).side
    foes = [
        p for u in match.units() if match.identity(u).side != side and (p := match.position(u)) is not None
    ]
    if "move" in by_id and here is not None and foes:
        move = by_id["move"]
        best = min(move.hexes, key=lambda h: (min(hex_distance(h, f) for f in foes), h.q, h.r))
        if min(hex_distance(best, f) for f in foes) < min(hex_distance(here, f) for f in foes):
            path = move.path_to(best)
            assert path is not None
            return move.command(path=path)
    end = next(a for a in usable if a.ends_turn)
    return end.command()


def even_match(map_path: Path, seed: int) -> Match:
    """The two default posses (an even fight, for measuring players)."""
    from game.posses import default_posses

    drafts = default_posses("golden")
    return Match.create(
        map_path, get_ruleset("golden"), [drafts[0].spec("side1"), drafts[1].spec("side2")], seed
    )


def small_match(map_path: Path, seed: int) -> Match:
    """Two against two of the default posses (a character and a Gunhand each): short games for the
    corpus of positions."""
    from game.posses import default_posses

    drafts = default_posses("golden")
    specs = [drafts[0].spec("side1"), drafts[1].spec("side2")]
    from dataclasses import replace

    specs = [replace(s, units=(s.units[0], s.units[2])) for s in specs]
    return Match.create(map_path, get_ruleset("golden"), specs, seed)
