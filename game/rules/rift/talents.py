"""Talents with combat effects, the dog's Distract and the enemy roster's own actions.

Animal Friend's dog is a unit (created in setup); Quick Draw is read by the turn order; Implausibly Well
Groomed by stabilisation; Smooth Sidearm by the Fire cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from game.commands import Command
from game.events import ActionTaken, Event
from game.rules.rift.attitudes.cunning import grant_point
from game.rules.rift.hooks import ActionDef, ApplyFn, PickFn, Picks, TraitDef, register_action, register_trait

if TYPE_CHECKING:
    from game.engine.match import Match
    from game.rules.rift.ruleset import RiftRuleset


def _enemies_within(reach: int) -> PickFn:
    def picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
        here = rs.here(unit)
        return Picks(
            targets=tuple(
                e
                for e in rs.hostiles(match, unit)
                if rs.distance(unit, e) <= reach and rs.sees(match, here, rs.here(e))
            )
        )

    return picks


def _status_action(action: str, status: str) -> ApplyFn:
    def apply(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
        assert cmd.target is not None
        events.append(ActionTaken(rs.game(match).round, unit, action, target=cmd.target))
        rs.inflict(match, cmd.target, status, unit, events)

    return apply


def _allies_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(
        targets=tuple(a for a in rs.allies(match, unit) if rs.distance(unit, a) <= rs.data.ally_range)
    )


def _rally(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    assert cmd.target is not None
    grant_point(rs, match, unit, cmd.target, "rally", events)


def _haymaker_picks(rs: RiftRuleset, match: Match, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(t for t in match.units() if rs.valid_target(match, unit, t, 0)))


def _haymaker(rs: RiftRuleset, match: Match, unit: int, cmd: Command, events: list[Event]) -> None:
    """Pugilist: "Haymaker [2AP] (Attack) 2d6 / 2+ / 0t": every hit to the chosen enemy in the tile."""
    assert cmd.target is not None
    events.append(ActionTaken(rs.game(match).round, unit, "haymaker", target=cmd.target))
    rs.push_attack(match, unit, "haymaker", "haymaker", forced=cmd.target)


for _action, _status, _reach in (
    ("dirty_shot", "suppressed", 6),  # Back Alley Tourist: "Suppress an enemy within 6t."
    ("insult", "taunted", 6),  # Polyglot: "Taunt an enemy within 6t."
    ("grapple", "overwhelmed", 0),  # Pugilist: "Overwhelm an enemy within 0t."
    ("distract", "stunned", 1),  # the dog: "Stun one enemy within 1 tile"
    ("heckle", "taunted", 4),  # Hexslinger's own outlaw goon
):
    register_action(
        ActionDef(
            _action, needs="target", picks=_enemies_within(_reach), apply=_status_action(_action, _status)
        )
    )
register_action(ActionDef("rally", needs="target", picks=_allies_picks, apply=_rally))
register_action(ActionDef("haymaker", needs="target", picks=_haymaker_picks, apply=_haymaker))
register_trait(TraitDef("no_truce_with_the_furies", immune=frozenset({"stunned"})))  # "cannot be Stunned"
for _trait in ("quick_draw", "smooth_sidearm", "implausibly_well_groomed", "animal_friend"):
    register_trait(TraitDef(_trait))
