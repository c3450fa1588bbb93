"""Golden Frontiers' round: initiative by cards every round, activations in card order with Biding Time
windows, the opposed attack with its tie by cards and its damage card, executions, the end of the round
(the joker reshuffle) and of the encounter.

"Initiative describes which character may act first in each round of combat. ... the initiative step is
the first thing done at the beginning of every round."
"""

from __future__ import annotations

from game.engine import scenario, turns
from game.engine.cards import Card
from game.engine.dice import AcingPool, ExplodingDie
from game.engine.protocol import Outcome
from game.events import (
    ActivationEnded,
    ActivationStarted,
    CardDealt,
    DamageTaken,
    Note,
    PhaseStarted,
    Roll,
    StatusChanged,
)
from game.rules.golden.components import RoundState
from game.rules.golden.context import GoldenCtx
from game.rules.golden.rules import (
    DAMAGE_NAMES,
    apply_damage,
    attack_dice,
    card_result,
    cripple_points,
    graze_points,
)

__all__ = [
    "attack",
    "check_end",
    "end_activation",
    "execute",
    "proceed",
    "start_round",
]


# -- the round -----------------------------------------------------------------------------------------
def start_round(ctx: GoldenCtx, number: int) -> None:
    """Deal the round's initiative and start its first activation.

    "Each combatant draws a card from the top of the deck and places it face up in front of them."; a
    unit that waited the whole last round draws none and acts first ("they will not draw a new
    initiative card on that round, they already know they are first to act"), waiters in their order;
    crippled units draw none; the NPCs of one Large Group share one card (docs/RULES.md G16)."""
    game, deck = ctx.game, ctx.deck
    game.round = number
    game.phase = "action"
    ctx.emit(PhaseStarted(number, "initiative"))
    scenario.round_starts(ctx.match, number, ctx.events)  # an encounter's reinforcements come on
    fighters = [u for u in ctx.units() if ctx.fights(u)]
    top = [u for u in game.top if u in fighters]
    game.top = []
    spec = deck.spec()
    group_cards: dict[tuple[str, str], str] = {}
    carded: list[int] = []
    for unit in ctx.units():
        turn = ctx.turn(unit)
        turn.card, turn.moved, turn.acted, turn.free_load = "", 0, False, False
        turn.done = turn.biding = turn.waiting = False
    for unit in fighters:
        turn = ctx.turn(unit)
        if unit in top:
            continue
        group = ctx.sheet(unit).group
        key = (ctx.side(unit), group)
        if group and key in group_cards:
            turn.card = group_cards[key]
        else:
            turn.card = deck.draw(ctx.rng)
            if group:
                group_cards[key] = turn.card
        carded.append(unit)
        ctx.emit(CardDealt(number, unit, Card.parse(turn.card).label, spec.value_of(turn.card)))
    for unit in top:
        ctx.emit(Note(number, unit, "waited the whole last round: acts first, with no card"))
    # "The character with the highest card (remember jokers are high; twos are low) gets to act first."
    # A Large Group's units share a card and act one after another, in posse order.
    carded.sort(key=lambda u: (spec.sort_key(ctx.turn(u).card), -ctx.identity(u).index), reverse=True)
    game.order = [*top, *carded]
    game.turn = -1
    game.active = 0
    game.asking = []
    game.last = False
    proceed(ctx, ask=False)


def _pending(ctx: GoldenCtx) -> list[int]:
    return [u for u in ctx.game.order if ctx.fights(u) and not ctx.turn(u).done and not ctx.turn(u).biding]


def _biders(ctx: GoldenCtx) -> list[int]:
    return [u for u in ctx.game.order if ctx.fights(u) and ctx.turn(u).biding]


def proceed(ctx: GoldenCtx, *, ask: bool) -> None:
    """After an activation: open a Biding Time window for the units biding their time (``ask``), else
    start the next unit's activation, else end the round."""
    game = ctx.game
    if check_end(ctx):
        return
    pending, biders = _pending(ctx), _biders(ctx)
    if ask and biders:
        game.phase = "window"
        game.active = 0
        game.asking = biders
        game.last = not pending
        return
    game.phase = "action"
    if pending:
        _activate(ctx, pending[0])
        return
    end_round(ctx)


def _activate(ctx: GoldenCtx, unit: int) -> None:
    game = ctx.game
    game.active = unit
    game.turn = game.order.index(unit)
    game.phase = "action"
    ctx.emit(ActivationStarted(game.round, unit, 1))


def activate(ctx: GoldenCtx, unit: int) -> None:
    """``unit``'s activation begins now (a game master's edit: game.rules.golden.gm)."""
    _activate(ctx, unit)


def end_activation(ctx: GoldenCtx, *, ask: bool = True) -> None:
    """The active unit's activation is over (it ended it, waited, or bides its time)."""
    game = ctx.game
    unit = game.active
    if unit:
        turn = ctx.turn(unit)
        if not turn.biding:
            turn.done = True
        ctx.emit(ActivationEnded(game.round, unit))
    game.active = 0
    proceed(ctx, ask=ask)


def bide(ctx: GoldenCtx) -> None:
    """Biding Time: "Gives the player the choice to take their action after somebody with lower
    initiative." The unit steps aside; after each later activation it is asked whether it acts now."""
    ctx.turn(ctx.game.active).biding = True
    ctx.emit(Note(ctx.round, ctx.game.active, "bides their time"))
    end_activation(ctx, ask=False)


def wait_round(ctx: GoldenCtx, unit: int) -> None:
    """ "If a player wants they may choose to wait the entire round. If this is done, the player will be at
    the top of the initiative during the next round.\""""
    turn = ctx.turn(unit)
    turn.biding = False
    turn.waiting = True
    turn.done = True
    ctx.emit(Note(ctx.round, unit, "waits the whole round: first next round"))


def act_now(ctx: GoldenCtx, unit: int) -> None:
    """A bider takes its action now, after the unit that just acted."""
    game = ctx.game
    game.asking = []
    ctx.turn(unit).biding = False
    _activate(ctx, unit)


def keep_biding(ctx: GoldenCtx, unit: int) -> None:
    """A bider lets the moment pass; in the round's last window that is waiting the whole round."""
    game = ctx.game
    game.asking = [u for u in game.asking if u != unit]
    if game.last:
        wait_round(ctx, unit)
    if not game.asking:
        proceed(ctx, ask=False)


def end_round(ctx: GoldenCtx) -> None:
    """The end of a round: a joker drawn reshuffles every card ("the deck has all its cards collected and
    shuffled if a joker is revealed. For combat, this is done after all actions are resolved."), else the
    round's cards are discarded; waiters go to the top; the round limit (own) may end the encounter."""
    game, deck = ctx.game, ctx.deck
    if deck.end_of_round(ctx.rng):
        ctx.emit(Note(game.round, None, "a joker was drawn this round: all 54 cards are reshuffled"))
    game.top = [u for u in game.order if ctx.fights(u) and ctx.turn(u).waiting]
    limit = ctx.round_limit(ctx.data.encounter.max_rounds)
    decided = scenario.round_ends(ctx.match, game.round, limit, ctx.events)  # an encounter's objectives
    if decided is not None:
        turns.finish(game, decided, ctx.events)
        return
    if game.round >= limit:
        turns.finish(game, _time_up(ctx), ctx.events)
        return
    start_round(ctx, game.round + 1)


def _time_up(ctx: GoldenCtx) -> Outcome:
    """Own: after the last round the posse with more units still fighting wins; equal is a draw."""
    counts = {p.side: sum(ctx.fights(u) for u in ctx.units(p.side)) for p in ctx.match.posses}
    best = max(counts.values())
    leaders = [s for s, n in counts.items() if n == best]
    limit = ctx.round_limit(ctx.data.encounter.max_rounds)
    if len(leaders) == 1:
        return Outcome(leaders[0], f"the sun went down after {limit} rounds: more of the posse still fights")
    return Outcome(None, f"the sun went down after {limit} rounds with both posses still fighting")


def check_end(ctx: GoldenCtx) -> bool:
    """End the encounter when one posse (or none) still fights: every hostile unit crippled or dead."""
    game = ctx.game
    if game.phase == "over":
        return True
    if game.phase == "deployment":
        return False
    outcome = turns.standing_outcome(ctx.match, fights=ctx.fights, beaten="crippled or dead")
    if outcome is None:
        decided = scenario.settle(ctx.match, ctx.events)  # an encounter's objectives (own)
        if decided is None:
            return False
        turns.finish(game, decided, ctx.events)
        return True
    quit_ = [p.side for p in ctx.match.posses if p.side != outcome.winner and _gave_up_early(ctx, p.side)]
    if outcome.winner is not None and quit_:
        names = ", ".join(p.name or p.side for p in ctx.match.posses if p.side in quit_)
        share = ctx.data.encounter.gives_up_at
        outcome = Outcome(outcome.winner, f"{names} gave up the fight with {share:.0%} of its units out")
    turns.finish(game, outcome, ctx.events)
    return True


def _gave_up_early(ctx: GoldenCtx, side: str) -> bool:
    """The posse gave up with units still able to fight (own: ``gives_up_at``)."""
    return ctx.gave_up(side) and any(ctx.able(u) for u in ctx.units(side))


# -- attacking -----------------------------------------------------------------------------------------
def _faces(die: ExplodingDie | AcingPool, ctx: GoldenCtx) -> tuple[list[list[int]], int]:
    """Each die's chain of faces (aces first) and the total with the modifier."""
    chains = die.roll_faces(ctx.rng) if isinstance(die, AcingPool) else [die.roll_faces(ctx.rng)]
    return chains, sum(sum(c) for c in chains) + die.modifier


def _shown(chains: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    """The dice as the map shows them (``Roll.chains``): each die's ace chain, () when none aced."""
    return tuple(tuple(c) for c in chains) if any(len(c) > 1 for c in chains) else ()


def chain_text(chains: list[list[int]]) -> str:
    """Dice as ace chains: "8→8→2" (a d8 aced twice), "8→3 + 5" (two dice)."""
    return " + ".join("\u2192".join(str(f) for f in chain) for chain in chains)


def attack(ctx: GoldenCtx, unit: int, target: int, weapon_id: str) -> None:
    """ "To hit a target the attacking character rolls dice associated with their weapon adding any
    modifiers. The defending character rolls dice based on their reflexes adding in modifiers." A hit
    needs a strictly higher number; a tie goes to two cards; a hit draws the damage card."""
    weapon = ctx.weapon(weapon_id)
    turn = ctx.turn(unit)
    a, b = ctx.here(unit), ctx.here(target)
    band = ctx.band_at(weapon, a, b)
    assert band is not None
    mods = ctx.attack_modifiers(unit, weapon, turn.moved)
    dmods = ctx.defence_modifiers(target, weapon, a, b)
    die = attack_dice(band, sum(v for _, v in mods))
    defence = ExplodingDie(ctx.sheet(target).reflexes, sum(v for _, v in dmods))
    turn.acted = True
    if ctx.loads_on_firing(unit, weapon_id):
        # own (G11): a gun that loads free is loaded as the shot is taken, its one free load this round
        load(ctx, unit, weapon_id)
        ctx.emit(Note(ctx.round, unit, f"loads the {weapon.name} (free) and fires"))
    if weapon.is_ranged:
        arms = ctx.arms(unit)
        arms.loaded[arms.weapons.index(weapon_id)] -= 1
    chains, total = _faces(die, ctx)
    dchains, dtotal = _faces(defence, ctx)
    faces = [f for c in chains for f in c]
    dfaces = [f for c in dchains for f in c]
    hit = total > dtotal
    purpose = "attack" if weapon.is_ranged else "melee"
    tie_note = ""
    if total == dtotal:
        # "If both attackers and defenders numbers are equal then the attacker and defender each draw a
        # card from the top of the deck ... If the attacker draws the higher card then a hit is scored"
        deck = ctx.deck
        mine, theirs = deck.draw(ctx.rng), deck.draw(ctx.rng)
        hit = deck.spec().compare(mine, theirs) > 0
        deck.discard(mine)
        deck.discard(theirs)
        tie_note = (
            f"tie at {total}: {ctx.name(unit)} draws {Card.parse(mine).label}, {ctx.name(target)} draws "
            f"{Card.parse(theirs).label}: " + ("a hit" if hit else "a miss")
        )
    ctx.emit(
        Roll(
            ctx.round,
            unit,
            weapon.name.lower(),
            tuple(faces),
            tuple(mods),
            total,
            dtotal + 1,
            hit,
            target,
            purpose,
            chains=_shown(chains),
        )
    )
    ctx.emit(
        Roll(
            ctx.round,
            target,
            "reflexes",
            tuple(dfaces),
            tuple(dmods),
            dtotal,
            None,
            None,
            unit,
            "other",
            chains=_shown(dchains),
        )
    )
    if any(len(c) > 1 for c in (*chains, *dchains)):  # "A character may ace multiple times."
        ctx.emit(
            Note(
                ctx.round,
                unit,
                f"aces: {weapon.name} {chain_text(chains)} = {total} against Reflexes "
                f"{chain_text(dchains)} = {dtotal}",
            )
        )
    if tie_note:
        ctx.emit(Note(ctx.round, unit, tie_note))
    if hit:
        damage(ctx, unit, target)


def damage(ctx: GoldenCtx, unit: int, target: int) -> None:
    """ "If a hit is scored the attacker draws a card from the top of the deck and places it face up in
    front of them. This card determines how much damage was dealt to the defender.\""""
    deck = ctx.deck
    card = deck.draw(ctx.rng)
    result = card_result(ctx.data, card)
    health = ctx.health(target)
    per = ctx.data.damage.grazes_per_wound
    before = graze_points(health, per)
    steps = apply_damage(health, result, per)
    deck.discard(card)
    ctx.emit(
        Note(
            ctx.round,
            target,
            f"damage card {Card.parse(card).label}: {DAMAGE_NAMES[result]} → " + ", ".join(steps),
        )
    )
    after = graze_points(health, per)
    left = cripple_points(health.max_wounds, per) - after
    ctx.emit(DamageTaken(ctx.round, target, after - before, unit, left))
    if health.crippled:
        ctx.emit(StatusChanged(ctx.round, target, "crippled", True))
        check_end(ctx)


def execute(ctx: GoldenCtx, unit: int, target: int) -> None:
    """ "Characters may only be killed in Golden Frontiers by being executed (A character must clearly
    state their intent to go up to and execute another )." Own: the round's action, on a crippled
    hostile unit next to the executioner."""
    ctx.turn(unit).acted = True
    ctx.health(target).dead = True
    ctx.remove(target, "executed")
    check_end(ctx)


def load(ctx: GoldenCtx, unit: int, weapon_id: str) -> None:
    """(Re)Loading: the weapon is filled; it takes the round's action, or is free once a round for a
    weapon that loads quickly (own: "if a weapon has less ammo it may be faster to load that weapon")."""
    weapon = ctx.weapon(weapon_id)
    turn = ctx.turn(unit)
    if weapon.load_action:
        turn.acted = True
    else:
        turn.free_load = True
    arms = ctx.arms(unit)
    arms.loaded[arms.weapons.index(weapon_id)] = weapon.ammo


def fresh_round_state() -> RoundState:
    return RoundState()
