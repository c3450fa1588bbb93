"""`hexslinger odds frontier`: the exact odds of any attack from stat-block names and a situation.

The same :func:`~game.rules.frontier.combat.attack_preview` the match's preview uses; this module only
turns names into an :class:`~game.rules.frontier.combat.AttackSituation`.
"""

from __future__ import annotations

from game.battlefield import Cover
from game.rules import AttackPreview
from game.rules.frontier.combat import AttackSituation, attack_preview, split_damage
from game.rules.frontier.data import FrontierData, default_data
from game.rules.frontier.ruleset import normalize_id

__all__ = ["OddsError", "attack_odds"]

_COVERS = {"none": Cover.NONE, "half": Cover.HALF, "full": Cover.FULL, "total": Cover.FULL}


class OddsError(ValueError):
    """A name or number the odds cannot be worked out for; the message says what is allowed."""


def attack_odds(
    attacker: str,
    target: str,
    distance: int,
    *,
    weapon: str | None = None,
    cover: str = "none",
    aim: bool = False,
    prone: bool = False,
    taking_cover: bool = False,
    damage_taken: int = 0,
    dastardly: bool = False,
    data: FrontierData | None = None,
) -> AttackPreview:
    """Odds of ``attacker`` (a unit type) hitting ``target`` (a unit type) ``distance`` inches away.

    ``weapon`` defaults to the attacker's first weapon; a gun-only unit fights in melee with "fists".
    ``damage_taken`` is damage the target has already taken; ``dastardly`` gives it the temporary wound.
    """
    data = data or default_data()
    a_id, t_id = normalize_id(attacker), normalize_id(target)
    names = ", ".join(sorted(data.units))
    if a_id not in data.units:
        raise OddsError(f"unknown attacker '{attacker}' (Frontier units: {names})")
    if t_id not in data.units:
        raise OddsError(f"unknown target '{target}' (Frontier units: {names})")
    unit, victim = data.units[a_id], data.units[t_id]
    w_id = normalize_id(weapon) if weapon else unit.weapons[0]
    if w_id == "fists":
        w_id = "unarmed"
    allowed = (*unit.weapons, "unarmed")
    if w_id not in allowed:
        options = ", ".join("fists" if w == "unarmed" else w for w in allowed)
        raise OddsError(f"a {unit.name} cannot attack with '{weapon}' (its weapons: {options})")
    arms = data.weapons[w_id]
    if distance < 1:
        raise OddsError(f"distance must be 1 inch or more, not {distance}")
    if distance > arms.long_range:
        raise OddsError(
            f'the {arms.name} reaches {arms.long_range}"; a target {distance}" away cannot be attacked'
        )
    skill = unit.ballistics if arms.is_ranged else unit.melee
    if skill is None:
        raise OddsError(f"a {unit.name} has no Ballistics skill")
    if cover not in _COVERS:
        raise OddsError(f"cover must be none, half or full, not '{cover}'")
    total = victim.toughness + victim.wounds
    if not 0 <= damage_taken < total:
        raise OddsError(f"a {victim.name} can take {total - 1} damage and stay up; --damage {damage_taken}")
    left = split_damage(damage_taken, victim.toughness, victim.wounds, 0)
    return attack_preview(
        AttackSituation(
            weapon=arms,
            skill=skill,
            distance=distance,
            cover=_COVERS[cover],
            aimed=aim,
            target_prone=prone,
            target_taking_cover=taking_cover,
            target_toughness=left.toughness,
            target_wounds=left.wounds,
            target_temporary=data.abilities["dastardly"].temporary_wounds if dastardly else 0,
        )
    )
