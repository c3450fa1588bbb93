"""Talents with combat effects, the dog's Distract and the enemy roster's own actions.

Animal Friend's dog is a unit (created in setup); Quick Draw is read by the turn order; Implausibly Well
Groomed by stabilisation; Smooth Sidearm by the Fire cost.
"""

from __future__ import annotations

from game.commands import Command
from game.engine.actions import Picks
from game.events import ActionTaken
from game.rules.rift.attitudes.cunning import grant_point
from game.rules.rift.context import RiftCtx
from game.rules.rift.hooks import Actions, ApplyFn, PickFn, Traits, define
from game.rules.rift.traits import TraitDef

__all__ = ["STATUS_ACTIONS", "register"]

# (action, the status it gives, its reach in tiles)
STATUS_ACTIONS = (
    ("dirty_shot", "suppressed", 6),  # Back Alley Tourist: "Suppress an enemy within 6t."
    ("insult", "taunted", 6),  # Polyglot: "Taunt an enemy within 6t."
    ("grapple", "overwhelmed", 0),  # Pugilist: "Overwhelm an enemy within 0t."
    ("distract", "stunned", 1),  # the dog: "Stun one enemy within 1 tile"
    ("heckle", "taunted", 4),  # Hexslinger's own outlaw goon
)


def _enemies_within(reach: int) -> PickFn:
    def picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
        here = ctx.here(unit)
        return Picks(
            targets=tuple(
                e
                for e in ctx.hostiles(unit)
                if ctx.distance(unit, e) <= reach and ctx.sees(here, ctx.here(e))
            )
        )

    return picks


def _status_action(action: str, status: str) -> ApplyFn:
    def apply(ctx: RiftCtx, unit: int, cmd: Command) -> None:
        assert cmd.target is not None
        ctx.emit(ActionTaken(ctx.round, unit, action, target=cmd.target))
        ctx.inflict(cmd.target, status, unit)

    return apply


def _allies_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(a for a in ctx.allies(unit) if ctx.distance(unit, a) <= ctx.data.ally_range))


def _rally(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    assert cmd.target is not None
    grant_point(ctx, unit, cmd.target, "rally")


def _haymaker_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return Picks(targets=tuple(t for t in ctx.units() if ctx.valid_target(unit, t, 0)))


def _haymaker(ctx: RiftCtx, unit: int, cmd: Command) -> None:
    """Pugilist: "Haymaker [2AP] (Attack) 2d6 / 2+ / 0t": every hit to the chosen enemy in the tile."""
    assert cmd.target is not None
    ctx.emit(ActionTaken(ctx.round, unit, "haymaker", target=cmd.target))
    ctx.push_attack(unit, "haymaker", "haymaker", forced=cmd.target)


def register(book: Actions, traits: Traits) -> None:
    for action, status, reach in STATUS_ACTIONS:
        book.add(define(action, "target", picks=_enemies_within(reach), apply=_status_action(action, status)))
    book.add(define("rally", "target", picks=_allies_picks, apply=_rally))
    book.add(define("haymaker", "target", picks=_haymaker_picks, apply=_haymaker))
    traits.add(TraitDef("no_truce_with_the_furies", immune=frozenset({"stunned"})))  # "cannot be Stunned"
    for trait in ("quick_draw", "smooth_sidearm", "implausibly_well_groomed", "animal_friend"):
        traits.add(TraitDef(trait))
