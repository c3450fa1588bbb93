"""A battle to show: the default posses of a ruleset on a map, deployed, and (for the results screen's
screenshot) played to the end by a blunt player that reads only the legal actions and the odds.

This is not the AI (that is its own issue): it knows no rule. It attacks whatever the ruleset's preview
calls an attack with the best hit chance, else walks toward the nearest hostile unit (on the rules' own
paths, ``LegalAction.path_to``), else ends its turn or passes (a free action that needs no pick). Every
command it sends is one the match accepts (``Match.validate``). It exists so ``hexslinger play --screen
results|pause`` can make screenshots without a player.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Final

from game.commands import Command
from game.engine.match import Match
from game.engine.protocol import DEPLOY
from game.hexgrid import Hex, hex_distance
from game.posses import default_posses
from game.rules import LegalAction, get_ruleset
from game.ui.library import MAPS_DIR

__all__ = ["DEMO_MAP", "demo_command", "demo_match", "deploy_all", "play_to_end", "walk"]

DEMO_MAP: Final = MAPS_DIR / "ranch_duel.tmx"


def demo_match(ruleset: str, map_path: Path = DEMO_MAP, seed: int = 5) -> Match:
    """The ruleset's first two default posses on ``map_path``, not yet deployed."""
    from game.mapload import load_battlefield  # noqa: PLC0415

    sides = sorted(load_battlefield(map_path).deploy_zones)[:2]
    drafts = default_posses(ruleset)
    posses = [drafts[i % len(drafts)].spec(side=side, controller="human") for i, side in enumerate(sides)]
    return Match.create(map_path.resolve(), get_ruleset(ruleset), posses, seed)


def _legal(match: Match, cmd: Command) -> bool:
    return match.validate(cmd) is None


def walk(match: Match, action: LegalAction, end: Hex) -> tuple[Hex, ...] | None:
    """The path a "path" action takes to ``end``: the rules' canonical one (``LegalAction.path_to``)."""
    if action.paths is None:
        # TODO(Rift on the engine): Through the Rift's path actions carry no ``paths`` until its port to
        # the shared engine; until then, the battlefield's shortest path (the match validates it).
        here = match.position(action.actor)
        found = match.battlefield.path(here, end) if here is not None else None
        return tuple(found) if found is not None else None
    return action.path_to(end)


def _attack(match: Match, action: LegalAction) -> tuple[Fraction, Command] | None:
    best: tuple[Fraction, Command] | None = None
    targets = action.targets if action.needs in ("target", "") else ()
    for target in targets or ((0,) if action.needs == "" else ()):
        cmd = action.command(target=target) if target else action.command()
        preview = match.preview(cmd)
        if preview is None or not _legal(match, cmd):
            continue
        if best is None or preview.hit_chance > best[0]:
            best = (preview.hit_chance, cmd)
    return best


def demo_command(match: Match) -> Command:
    """One decision for whoever must decide now (see the module text)."""
    actions = match.legal_actions()
    first = actions[0]
    if first.needs == "assign":
        return first.command(targets=(first.targets[0],) * max(1, first.max_picks))
    if first.action == DEPLOY and first.hexes:
        return first.command(hex=first.hexes[0])
    usable = [a for a in actions if a.enabled]
    if first.needs == "choice" and first.choices and len({a.action for a in usable}) == 1:
        return first.command(option=first.choices[0])
    # attacks: what the preview calls one; one that names no target only when the ruleset lists it
    # before its first move (a reaction set up for later, like a held shot, is listed after moving)
    first_move = next((i for i, a in enumerate(actions) if a.needs == "path"), len(actions))
    candidates = [a for i, a in enumerate(actions) if a.enabled and (a.needs == "target" or i < first_move)]
    attacks = [found for a in candidates if (found := _attack(match, a)) is not None]
    if attacks:
        return max(attacks, key=lambda found: found[0])[1]
    me = first.actor
    here = match.position(me)
    side = match.identity(me).side
    foes = [u for u in match.units() if match.identity(u).side != side and match.position(u) is not None]
    if here is not None and foes:
        nearest = min(foes, key=lambda u: (hex_distance(match.position(u) or here, here), u))
        there = match.position(nearest) or here
        for a in usable:
            if a.needs != "path" or not a.hexes:
                continue
            for end in sorted(a.hexes, key=lambda h: (hex_distance(h, there), h))[:6]:
                if hex_distance(end, there) >= hex_distance(here, there):
                    break
                path = walk(match, a, end)
                if path is not None and _legal(match, cmd := a.command(path=path)):
                    return cmd
    # nothing to attack or walk to: end the turn, else let a reaction go (a free action needing no pick)
    done = next((a for a in usable if a.needs == "" and a.ends_turn), None) or next(
        (a for a in usable if a.needs == "" and a.cost == 0), None
    )
    if done is not None:
        return done.command()
    for a in usable:
        if a.needs == "choice" and a.choices:
            return a.command(option=a.choices[0])
        if a.needs == "":
            return a.command()
    return first.command()


def deploy_all(match: Match) -> None:
    """Deploy every unit the way the battle screen's auto-deploy does."""
    for cmd in match.auto_deploy():
        match.apply(cmd)


def play_to_end(match: Match, limit: int = 4000) -> bool:
    """Play both sides with :func:`demo_command`; True if the battle ended within ``limit`` commands."""
    for _ in range(limit):
        if match.is_over:
            return True
        match.apply(demo_command(match))
    return match.is_over
