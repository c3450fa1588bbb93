"""What an option is worth to the utility AI: the ``Plan`` an option carries (its first command and the
numbers its considerations read) and the scoring on one scale for every kind of option (``net_value``), with
the considerations each kind is judged by (docs/AI.md, "Considerations and the rules they serve")."""

from __future__ import annotations

from ai.profile import Difficulty, Personality
from ai.utility import Consideration, Curve
from game.commands import Command, value_class
from game.engine.protocol import AttackPreview
from game.hexgrid import Hex

__all__ = ["SPARE_WORTH", "Plan", "considerations", "net_value"]

SPARE_WORTH = 0.25  # what a whole turn's action points left unspent are worth for what comes next


@value_class
class Plan:
    """What an option would do: its first command, the attack it leads to (and on whom, with what odds),
    where the unit would stand, and the numbers its considerations read."""

    command: Command
    words: str
    kind: str = "walk"  # attack | walk | other | stay | end | deploy | choice | react: its considerations
    target: int | None = None
    preview: AttackPreview | None = None
    end: Hex | None = None
    take_out: float = 0.0  # chance the attack takes the target out
    damage: float = 0.0  # expected damage as a share of the target's health
    value: float = 0.0  # how much the target matters (leader, hurt: focus fire)
    exposure: float = 0.0  # expected damage to the unit where it stands after, as a share of its health
    en_route: float = 0.0  # expected damage from the attacks the walk sets off, as a share of its health
    range_fit: float = 1.0  # 1: at its weapon's ideal range; 0: far from it
    progress: float = 0.0  # how much closer to the nearest hostile (walks with no attack)
    gain: float = 0.0  # what a non-attack action improves (exposure saved, odds gained)
    spare: float = 0.0  # the share of the turn's action points left after it (for what comes next)
    follow: int = 0  # action points the plan spends after its first command (the attack it leads to)


def net_value(plan: Plan, person: Personality) -> float:
    """What an option is worth to the unit, in shares of a unit's health, whatever its kind, so an attack,
    a walk and taking cover can be weighed against each other: the damage it deals (a unit taken out
    counts double, a valuable or hurt one more, as the personality focuses fire) against the damage it
    risks (where it ends up and on the way there), as the personality weighs the two."""
    aggression = 0.5 + person.aggression
    caution = 0.3 + person.caution
    risk = plan.exposure + plan.en_route
    spare = SPARE_WORTH * plan.spare
    if plan.kind == "attack":
        weight = 1.0 + person.focus_fire * (plan.value - 1.0)
        dealt = (plan.take_out + 0.5 * plan.damage) * weight
        return aggression * dealt - caution * risk + spare
    if plan.kind == "walk":
        place = 0.2 * plan.range_fit + 0.4 * aggression * plan.progress + 0.5 * aggression * plan.gain
        return place - caution * risk + spare
    if plan.kind == "stay":
        return -caution * risk
    return plan.gain - caution * risk + spare


def considerations(person: Personality, level: Difficulty, kind: str) -> tuple[Consideration[Plan], ...]:
    """The considerations an option of ``kind`` is judged by, shaped by the unit's personality: its worth
    (:func:`net_value`, on one scale for every kind) and, for an attack, how sure it is."""
    key = (person, level.id, kind)
    found = _CACHE.get(key)
    if found is not None:
        return found
    worth: Consideration[Plan] = Consideration(
        "worth",
        lambda p: net_value(p, person),
        Curve("logistic", m=0.02, c=0.5),
        low=-2.0,
        high=3.0,
        serves="damage dealt against damage risked",
    )
    if kind == "attack":
        found = (
            worth,
            Consideration(
                "sure",
                lambda p: float(p.preview.hit_chance) if p.preview else 0.0,
                Curve("linear", m=0.2, b=0.8),
            ),
        )
    elif kind == "deploy":
        found = (
            Consideration("cover", lambda p: p.gain, Curve("linear", m=0.5, b=0.5)),
            Consideration("forward", lambda p: p.progress, Curve("linear", m=0.3, b=0.7)),
            Consideration("crowding", lambda p: p.exposure, Curve("linear", m=-0.5, b=1.0)),
        )
    elif kind in ("choice", "react"):
        found = (Consideration("improves", lambda p: p.gain, Curve("linear", m=0.8, b=0.2)),)
    elif kind == "end":
        found = (Consideration("nothing better", lambda p: 0.0, Curve("constant", b=0.5)),)
    elif kind == "stay":  # ending the turn where it stands, worth what it risks there
        found = (worth,)
    else:
        found = (worth,)
    _CACHE[key] = found
    return found


_CACHE: dict[tuple[Personality, str, str], tuple[Consideration[Plan], ...]] = {}
