"""The extension points the basic actions, the items, the attitudes and the talents plug into.

Each of those modules has a ``register(book, traits)`` that adds its actions (engine
:class:`~game.engine.actions.ActionDef`\\ s, made with :func:`define`) and its traits
(:class:`~game.rules.rift.traits.TraitDef`\\ s) to a ruleset instance's books; the rules ask the books,
never name an attitude's ability themselves. Every hook is given the rules context
(:class:`~game.rules.rift.context.RiftCtx`), never the ruleset.

An action's hook points: availability (``problem``), valid picks (``picks``), the effect (``apply``),
the off-turn windows it may be used in (``windows``: "nudge", "protect", "turn_start") and its picks
there (``window_picks``), a path action's movement (``budget``). Its name and AP cost are rift.toml's
``[actions]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from game.commands import Command
from game.engine.actions import EMPTY_PICKS, ActionBook, ActionDef, Picks
from game.rules.rift.context import WEAPON_KINDS, RiftCtx
from game.rules.rift.traits import Factors, TraitBook, TraitDef

__all__ = [
    "Action",
    "Actions",
    "ApplyFn",
    "Factors",
    "PickFn",
    "Picks",
    "Trait",
    "Traits",
    "define",
    "walk_picks",
]

Action = ActionDef[RiftCtx]
Actions = ActionBook[RiftCtx]
Trait = TraitDef[RiftCtx]
Traits = TraitBook[RiftCtx]
PickFn = Callable[[RiftCtx, int, str], Picks]
ApplyFn = Callable[[RiftCtx, int, Command], None]
ProblemFn = Callable[[RiftCtx, int, str], "str | None"]

# what the engine's picks-need reasons say when nothing can be picked
NO_PICKS = {"target": "no valid target", "hex": "no tile to pick", "path": "nowhere to go"}


def _no_problem(ctx: RiftCtx, unit: int, option: str) -> str | None:
    return None


def _no_picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
    return EMPTY_PICKS


def walk_picks(ctx: RiftCtx, unit: int, budget: int) -> Picks:
    """Every tile ``unit`` can walk to with ``budget`` tiles, with the tree of its canonical paths."""
    tree = ctx.walk(unit, budget)
    return Picks(hexes=tree.ends(), paths=tree)


def _walks(budget: Callable[[RiftCtx, int], int]) -> PickFn:
    def picks(ctx: RiftCtx, unit: int, option: str) -> Picks:
        return walk_picks(ctx, unit, budget(ctx, unit))

    return picks


def _label(action: str, kind: str, itemised: bool) -> Callable[[RiftCtx, int, str], str]:
    def label(ctx: RiftCtx, unit: int, option: str) -> str:
        name = ctx.data.actions[action].name
        if itemised and option:
            return f"{name} ({option})"
        w = ctx.data.weapons.get(option) if kind else None
        return f"{name} ({w.name})" if w is not None else name

    return label


def _cost(action: str) -> Callable[[RiftCtx, int, str], int]:
    def cost(ctx: RiftCtx, unit: int, option: str) -> int:
        return ctx.action_cost(unit, action, option)

    return cost


def _weapons(kind: str) -> Callable[[RiftCtx, int], Sequence[str]]:
    def options(ctx: RiftCtx, unit: int) -> list[str]:
        return [w.id for w in ctx.weapons_of(unit, kind)]

    return options


def define(
    action: str,
    needs: str = "",
    *,
    weapons: str = "",
    options: Callable[[RiftCtx, int], Sequence[str]] | None = None,
    no_options: str = "nothing to pick",
    no_picks: str = "",
    windows: tuple[str, ...] = (),
    cunning: bool = False,
    anytime: bool = False,
    moves: bool = False,
    problem: ProblemFn = _no_problem,
    picks: PickFn = _no_picks,
    apply: ApplyFn | None = None,
    budget: Callable[[RiftCtx, int], int] | None = None,
    window_picks: Callable[[RiftCtx, object, int], Picks] | None = None,
) -> Action:
    """A Through the Rift action (data in rift.toml ``[actions]``) as an engine ActionDef.

    ``weapons``: "firearm" / "explosive" offers it once per carried weapon of that kind (its id in
    ``option``; none carried: not offered); ``options`` once per string it returns instead (an item
    name; none: offered once, disabled with ``no_options``); ``cunning`` marks a cunning attitude action
    (off-turn with Battlefield Commander), ``anytime`` one usable off-turn by its own text (Dodge Roll),
    ``moves`` one that moves the unit (refused while Overwhelmed); ``budget`` is a "path" action's
    movement (a function of the unit: Killer Calves)."""
    assert not weapons or weapons in WEAPON_KINDS, weapons
    tags = {weapons} if weapons else set()
    tags |= {flag for flag, on in (("cunning", cunning), ("anytime", anytime), ("moves", moves)) if on}
    if budget is not None and picks is _no_picks:
        picks = _walks(budget)
    return ActionDef(
        action,
        needs,
        label=_label(action, weapons, options is not None),
        cost=_cost(action),
        options=_weapons(weapons) if weapons else options,
        no_options=no_options if options is not None else "",
        problem=problem,
        picks=picks,
        no_picks=no_picks or NO_PICKS.get(needs, "nothing to pick"),
        apply=apply,
        windows=windows,
        tags=frozenset(tags),
        window_picks=window_picks,
        budget=budget,
    )
