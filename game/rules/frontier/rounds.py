"""Frontier's round: the Initiative phase (cards drawn as commands, the Joker placed), the Action phase
(each carded unit's activation, its walks and attacks on the engine's step stack) and the End phase
(Cool checks); and how the encounter ends. Interpretations: docs/RULES.md, section "Frontier"."""

from __future__ import annotations

from game.components import Position
from game.engine import scenario
from game.engine.cards import frontier_14
from game.engine.flow import Flow
from game.engine.order import alternating_draws
from game.engine.protocol import Outcome
from game.engine.turns import finish, standing_outcome
from game.events import (
    ActivationEnded,
    ActivationStarted,
    CardDealt,
    Moved,
    Note,
    PhaseStarted,
    StatusChanged,
)
from game.hexgrid import Hex, hex_distance
from game.rules.frontier import state as st
from game.rules.frontier.components import FrontierGame, FrontierTask
from game.rules.frontier.context import FrontierCtx
from game.rules.frontier.endphase import run_cool_checks
from game.rules.frontier.views import card_label

__all__ = [
    "CARD_VALUES",
    "DECK",
    "FLOW",
    "JOKER",
    "carded",
    "check_end",
    "draw",
    "drawable",
    "end_activation",
    "joker_holder",
    "joker_others",
    "joker_slot_labels",
    "place_joker",
    "start_round",
    "winner",
]

DECK = frontier_14()  # the engine's playing-card deck in Frontier's configuration
CARD_VALUES = {card.name: DECK.value_of(card.id) for card in DECK.cards()}  # by printed name
JOKER = next(card.name for card in DECK.cards() if card.is_joker)


# == Initiative ====================================================================================


def drawable(ctx: FrontierCtx, side: str) -> list[int]:
    return [u for u in ctx.units(side) if st.able(u) and st.activation(u).card is None]


def carded(ctx: FrontierCtx) -> list[int]:
    return [u for u in ctx.units() if st.activation(u).card is not None]


def joker_others(ctx: FrontierCtx, holder: int) -> list[int]:
    """The units with a card other than the Joker's holder, in activation order (highest card first):
    placing the Joker at n puts its holder before the n-th of them (after all of them for the last)."""
    return sorted((u for u in carded(ctx) if u != holder), key=lambda u: (-(st.activation(u).card or 0), u))


def joker_holder(ctx: FrontierCtx) -> int | None:
    for u in ctx.units():
        if st.activation(u).joker:
            return u
    return None


def start_round(ctx: FrontierCtx, number: int) -> None:
    """Initiative phase: a fresh 14-card deck is shuffled every round (docs/RULES.md "Initiative")."""
    game = ctx.game
    game.round = number
    game.phase = "initiative"
    ctx.emit(PhaseStarted(number, "initiative"))
    scenario.round_starts(ctx.match, number, ctx.events)  # an encounter's reinforcements come on
    deck = list(DECK.card_ids())
    ctx.rng.shuffle(deck)
    game.deck = deck
    for u in ctx.units(in_play=False):
        act = st.activation(u)
        act.card, act.card_name, act.joker, act.activated = None, "", False, False
    # "The Player with the smaller Posse draws first. Players then take turns drawing for each Unit in
    # their Posse, alternating with each draw." Posse size = its units that still take turns; a tie goes
    # to the posse listed first.
    counts = {p.side: len(drawable(ctx, p.side)) for p in ctx.match.posses}
    game.draw_order = alternating_draws(counts, game.deploy_order)
    game.draws_made = 0
    game.order, game.turn, game.active = [], 0, 0


def draw(ctx: FrontierCtx, unit: int) -> None:
    game = ctx.game
    card = DECK.card(game.deck.pop())
    value = DECK.value_of(card.id)
    act = st.activation(unit)
    act.card, act.card_name = value, card.name
    act.joker = card.is_joker
    ctx.emit(CardDealt(game.round, unit, card.name, value, act.joker))
    game.draws_made += 1
    if game.draws_made < len(game.draw_order):
        return
    after_draws(ctx)


def after_draws(ctx: FrontierCtx) -> None:
    """Every card of the round is drawn: the Joker's place is asked, or the Action phase begins."""
    # "If a Player draws the Joker for a Unit, they may choose when that Unit acts initiative after all
    # other Units have received their initiative cards."
    if joker_holder(ctx) is not None:
        ctx.game.phase = "joker"
        return
    # "The Unit with the highest initiative takes the first activation of the Action Phase."
    start_action_phase(ctx, sorted(carded(ctx), key=lambda u: (-(st.activation(u).card or 0), u)))


def place_joker(ctx: FrontierCtx, holder: int, place: int) -> None:
    st.activation(holder).joker = False
    others = joker_others(ctx, holder)
    others.insert(place - 1, holder)
    start_action_phase(ctx, others)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def joker_slot_labels(others: list[int]) -> tuple[str, ...]:
    """The Joker's places in a player's words, one per choice "1" ... "n": where its holder would act among
    ``others`` (the other carded units, in activation order): "Act 1st, before Sheriff (K♠)", "Act 2nd,
    after Sheriff (K♠)", ..., "Act last, after Outlaw (2♠)"."""

    def who(u: int) -> str:
        return f"{st.name_of(u)} ({card_label(st.activation(u).card_name)})"

    if not others:
        return ("Act 1st (no other unit has a card)",)
    labels = [f"Act 1st, before {who(others[0])}"]
    labels += [f"Act {_ordinal(n + 1)}, after {who(u)}" for n, u in enumerate(others[:-1], start=1)]
    labels.append(f"Act last, after {who(others[-1])}")
    return tuple(labels)


# == Action phase ==================================================================================


def start_action_phase(ctx: FrontierCtx, order: list[int]) -> None:
    game = ctx.game
    game.phase = "action"
    game.order = order
    game.turn = -1
    ctx.emit(PhaseStarted(game.round, "action"))
    # "AP replenishes at the beginning of each Action Phase."; granted AP (Follow Me!) arrive now.
    for u in ctx.units():
        points = st.ap(u)
        points.current = points.per_activation + points.bonus_next
        points.bonus_next = 0
    next_activation(ctx)


def next_activation(ctx: FrontierCtx) -> None:
    game = ctx.game
    game.active = 0
    while game.turn + 1 < len(game.order):
        game.turn += 1
        unit = game.order[game.turn]
        act = st.activation(unit)
        # "A Unit that is seriously injured no longer takes turns in combat"
        if not st.able(unit) or act.card is None or act.activated:
            continue
        game.active = unit
        act.basic_used = []
        act.aimed = act.disengaged = False
        act.attacked = []
        status = st.status(unit)
        if status.taking_cover:  # Take Cover lasts until the unit's next activation
            status.taking_cover = False
            ctx.emit(StatusChanged(game.round, unit, "taking_cover", False))
        ctx.emit(ActivationStarted(game.round, unit, st.ap(unit).current))
        if st.ap(unit).current <= 0:
            end_activation(ctx)
        return
    end_phase(ctx)


def end_activation(ctx: FrontierCtx) -> None:
    game = ctx.game
    unit = game.active
    st.activation(unit).activated = True
    st.ap(unit).current = 0  # unspent AP are lost (docs/RULES.md "Action points")
    ctx.emit(ActivationEnded(game.round, unit))
    next_activation(ctx)


def end_phase(ctx: FrontierCtx) -> None:
    game = ctx.game
    game.phase = "end"
    game.active = 0
    ctx.emit(PhaseStarted(game.round, "end"))
    run_cool_checks(ctx)
    if winner(ctx) is not None:
        return
    limit = ctx.round_limit(ctx.data.max_rounds)
    if scenario.round_ends(ctx.match, game.round, limit, ctx.events) is not None:
        return  # an encounter's objective decided it: check_end ends it
    if game.round >= limit:
        game.result = f"the sun went down after {game.round} rounds: no winner"
        return
    start_round(ctx, game.round + 1)


# == the step stack: walks, opportunity attacks, a charge's attack =================================


def opportunity_attackers(ctx: FrontierCtx, unit: int, here: Hex, step: Hex, done: list[int]) -> list[int]:
    """Hostiles in close combat with ``unit`` at ``here`` that it leaves by stepping to ``step``.

    "Disengage - The Unit taking this action may move out of close combat with hostile Units without
    provoking an Opportunity Attack." Canine Agility: "The Dog can disengage from Close Combat with an Enemy
    Unit for free if it has made an attack against that Unit this turn."
    """
    act = st.activation(unit)
    if act.disengaged:
        return []
    agile = "canine_agility" in ctx.stats(unit).abilities
    out = []
    for enemy in ctx.hostiles(unit):
        there = st.hex_of(enemy)
        assert there is not None
        if enemy in done or hex_distance(here, there) > 1 or hex_distance(step, there) <= 1:
            continue
        if st.status(enemy).prone:
            continue  # a prone unit cannot fight in close combat (docs/RULES.md "Prone")
        if agile and enemy in act.attacked:
            continue
        out.append(enemy)
    return out


def _walk(ctx: FrontierCtx, task: FrontierTask) -> None:
    """One step of a walk; leaving close combat without Disengage provokes opportunity attacks first (an
    opportunity attack is a reaction with no choice: it is pushed and made at once)."""
    stack = ctx.game.stack
    unit = task.unit
    here = st.hex_of(unit)
    assert here is not None
    if not task.walked:
        task.walked = [here]
    if not st.able(unit):  # taken down by an opportunity attack: the walk ends where it is
        stack.pop()
        return
    if not task.steps:
        stack.pop()
        if st.status(unit).taking_cover:  # moving out of cover ends Take Cover
            st.status(unit).taking_cover = False
            ctx.emit(StatusChanged(ctx.round, unit, "taking_cover", False))
        if len(task.walked) > 1:
            ctx.emit(Moved(ctx.round, unit, tuple(task.walked), task.cost))
        return
    step = task.steps[0]
    attackers = opportunity_attackers(ctx, unit, here, step, task.attacked_by)
    if attackers:
        if len(task.walked) > 1:
            ctx.emit(Moved(ctx.round, unit, tuple(task.walked), task.cost))
            task.walked, task.cost = [here], 0
        task.attacked_by.extend(attackers)
        for enemy in reversed(attackers):  # the first attacks first
            weapon = ctx.melee_weapon(enemy).id
            stack.append(FrontierTask("attack", enemy, target=unit, weapon=weapon, note="opportunity attack"))
        return
    task.steps.pop(0)
    cost = ctx.battlefield.move_cost(step)
    assert cost is not None
    task.cost += cost
    task.walked.append(step)
    ctx.comp(unit, Position).hex = step


def _attack(ctx: FrontierCtx, task: FrontierTask) -> None:
    ctx.game.stack.pop()
    if not (st.able(task.unit) and st.able(task.target)):
        return
    if task.note:
        ctx.emit(Note(ctx.round, task.unit, task.note))
    ctx.attack(task.unit, task.target, ctx.data.weapons[task.weapon])


def _charge_attack(ctx: FrontierCtx, task: FrontierTask) -> None:
    """ "If they finish their movement within 1" of a standing or Prone Hostile Unit they may immediately
    make a Melee Weapon attack against that Unit." (docs/RULES.md 16: whom it attacks)"""
    ctx.game.stack.pop()
    unit = task.unit
    if not st.able(unit):
        return
    declared = task.target or None
    target = ctx.charge_target(unit, declared)
    rnd = ctx.round
    if target is None:
        short = 'no hostile unit within 1": no attack' if declared is None else "the charge fell short"
        ctx.emit(Note(rnd, unit, short))
        return
    if declared is not None and target != declared:
        missed = f'{st.name_of(declared)} is not within 1"'
        ctx.emit(Note(rnd, unit, f"charge attack on {st.name_of(target)}: {missed}"))
    else:
        ctx.emit(Note(rnd, unit, "charge attack"))
    ctx.attack(unit, target, ctx.melee_weapon(unit))


FLOW: Flow[FrontierCtx, FrontierTask] = Flow(
    {"walk": _walk, "attack": _attack, "charge_attack": _charge_attack},
    still_reacts=lambda ctx, task, unit: False,
    stop=lambda ctx: False,
)


# == the end =======================================================================================


def winner(ctx: FrontierCtx) -> Outcome | None:
    """ "A Posse wins a Combat Encounter by either, rendering all hostile Units Out of Action or causing all
    hostile Units to flee the Combat Encounter." (Seriously Injured counts: docs/RULES.md)."""
    if ctx.game.phase == "deployment":
        return None
    return standing_outcome(ctx.match, fights=st.able)


def check_end(ctx: FrontierCtx) -> None:
    game: FrontierGame = ctx.game
    if game.phase == "over":
        return
    result = winner(ctx)
    if result is None and game.phase != "deployment":
        result = scenario.settle(ctx.match, ctx.events)  # an encounter's objectives (own)
    if result is None and game.result:
        result = Outcome(None, game.result)
    if result is None:
        return
    # "any Units that are still considered Seriously Injured when the Combat encounter finishes are
    # immediately classed as Out of Action."
    for u in ctx.units():
        if st.seriously_injured(u):
            ctx.remove(u, "out_of_action")
    finish(game, result, ctx.events)
