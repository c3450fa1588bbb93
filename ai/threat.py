"""What the hostiles could do to a unit, asked of one decision's :class:`~ai.situation.Situation`: each
hostile's best attack on a hex on its next turn (a shot from where it stands or the nearest place it could
walk to, a blow if it can get next to the hex, walking or charging), and the free attacks a walk sets
off. The utility AI weighs a place's exposure and a walk's risk with these (docs/AI.md)."""

from __future__ import annotations

from ai.situation import Aim, Situation
from game.engine.facts import Odds, UnitFacts
from game.hexgrid import Hex, hex_distance

__all__ = ["blow", "exposure", "firing_places", "path_risk", "threat", "threatened"]


def exposure(s: Situation, mine: UnitFacts, at: Hex) -> float:
    """The expected damage the hostiles could deal ``mine`` standing at ``at`` (each with its best attack,
    :func:`threat`), as a share of its health: 1 at most, so the hostiles left are not asked once the
    ones asked already could take all of it. Kept for the decision (a place is weighed again and again:
    where the unit stands, by every attack made from there)."""
    health = max(1, mine.health[0])
    key = (mine.unit, at, health)
    found = s.exposures.get(key)
    if found is not None:
        return found
    total = 0.0
    for foe in s.foes():
        total += threat(s, foe, mine.unit, at)
        if total >= health:
            break
    found = s.exposures[key] = min(1.0, total / health)
    return found


def threatened(s: Situation, mine: UnitFacts, at: Hex) -> bool:
    """Whether any hostile could deal ``mine`` damage standing at ``at`` (its :func:`exposure` is more than
    0), asking the hostiles only until one could."""
    return any(threat(s, foe, mine.unit, at) > 0 for foe in s.foes())


def threat(s: Situation, foe: int, me: int, at: Hex) -> float:
    """The expected damage ``foe`` could deal ``me`` standing at ``at`` on its next turn with its best
    attack: a shot from where it stands or from the nearest place it could walk to; a blow from next
    to ``at`` if it can get there, walking (certain) or charging (as likely as the charge's roll)."""
    key = (foe, me, at)
    found = s.threat.get(key)
    if found is not None:
        return found
    facts = s.of(foe)
    there = facts.position
    best = 0.0
    places: list[Hex] | None = None  # where it would shoot from: the same for every weapon
    if there is not None:
        dist = hex_distance(there, at)
        for aim in s.attacks(foe, me):
            w = aim.weapon
            if w.kind == "melee" and w.reach <= 1:
                best = max(best, blow(s, foe, aim, at, dist))
                continue
            if dist > w.reach + s.stride(foe):
                continue
            if places is None:
                places = firing_places(s, foe, there, at)
            ask: Odds | None = None
            for origin in places:
                if hex_distance(origin, at) > w.reach:
                    continue
                if ask is None:
                    ask = aim.odds()
                preview = ask(origin, at)
                if preview is not None:
                    best = max(best, float(preview.expected_damage))
    s.threat[key] = best
    return best


def firing_places(s: Situation, foe: int, there: Hex, at: Hex) -> list[Hex]:
    """Where ``foe`` would shoot at ``at`` from: where it stands and the nearest place it could walk."""
    near = [there]
    ends = s.walkable(foe)
    if at in s.walkable_set(foe):  # it could walk onto ``at`` itself: nothing is nearer
        near.append(at)
    elif ends:  # the nearest place it could walk to, ties to the smaller q then r (asked very often:
        # cube distance inline, one pass comparing numbers, no tuple per place)
        aq, ar = at.q, at.r
        best = ends[0]
        low = abs(best.q - aq) + abs(best.r - ar) + abs(best.q + best.r - aq - ar)
        for h in ends:
            q, r = h.q, h.r
            d = abs(q - aq) + abs(r - ar) + abs(q + r - aq - ar)
            if d < low or (d == low and (q < best.q or (q == best.q and r < best.r))):
                best, low = h, d
        near.append(best)
    return near


def blow(s: Situation, foe: int, aim: Aim, at: Hex, dist: int) -> float:
    """A melee attack's expected damage on ``at``, times the chance ``foe`` gets next to it."""
    facts = s.of(foe)
    if dist <= 1:
        preview = aim.odds()(None, at)
        return float(preview.expected_damage) if preview is not None else 0.0
    dash = facts.charge
    furthest = facts.move + (max(v for v, _ in dash) if dash is not None else 0)
    if dist - 1 > furthest:
        return 0.0
    tree = s.charge_tree(foe, furthest)
    if tree is None:
        return 0.0
    best = tree.cheapest_next_to(at)
    if best is None:
        return 0.0
    cost, origin = best
    if cost <= facts.move:
        chance = 1.0
    elif dash is not None:
        chance = float(dash.at_least(cost - facts.move))
    else:
        return 0.0
    preview = aim.odds()(origin, at)
    return chance * float(preview.expected_damage) if preview is not None else 0.0


def path_risk(s: Situation, me: int, mine: UnitFacts, path: tuple[Hex, ...]) -> float:
    """The expected damage of the free attacks walking ``path`` sets off, as a share of the unit's health."""
    expected = 0.0
    for reaction in s.view.path_reactions(me, path):
        if reaction.preview is not None:
            expected += float(reaction.chance) * float(reaction.preview.expected_damage)
    return min(1.0, expected / max(1, mine.health[0]))
