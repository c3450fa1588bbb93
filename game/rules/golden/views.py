"""What the battle UI shows of a Golden Frontiers match: the unit panel, the initiative tracker (the
dealt cards with their suits), the Biding Time prompt and the F1 summary. Read-only.

Every status carries the rulebook's own sentence (:data:`STATUS_RULES`, quoted exactly;
tests/rules/test_golden_views.py finds each in the seed)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from game.components import Removed
from game.engine.cards import Card
from game.engine.gm import GM_REMOVED
from game.events import CardDealt, Event
from game.rules import Prompt, StatusView, TrackerEntry, UnitView
from game.rules.golden.context import GoldenCtx
from game.rules.golden.data import GoldenData
from game.rules.golden.rules import cripple_points, graze_points

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["STATUS_RULES", "deck_line", "describe", "prompt", "rules_summary", "tracker", "unit_view"]

# status id -> (name, the book's sentence, badge, helps)
STATUS_RULES: dict[str, tuple[str, str, str, bool]] = {
    "crippled": (
        "Crippled",
        "When a character has a crippling wound they are no longer in combat. They do not get an initiative "
        "card and are unable to attack anybody.",
        "CW",
        False,
    ),
    "biding": (
        "Biding Time",
        "Gives the player the choice to take their action after somebody with lower initiative.",
        "BT",
        True,
    ),
    "waiting": (
        "Waiting the round",
        "If this is done, the player will be at the top of the initiative during the next round.",
        "W",
        True,
    ),
    "grazed": (
        "Grazed",
        "A graze means that a character was hit by an attack but that attack did not really affect the "
        "character. However, these little hits can easily add up to wounds!",
        "G",
        False,
    ),
    "wounded": (
        "Wounded",
        "Characters may still fight with wounds but if too many wounds are accrued than a character may "
        "find themselves with a crippling wound.",
        "Wd",
        False,
    ),
}


def rules_summary(data: GoldenData) -> str:
    """The F1 summary, with Hexslinger's own numbers read from the data."""
    enc = data.encounter
    reach = ", ".join(f"{w.name} {w.reach}" for w in data.weapons.values())
    gives_up = (
        f"A posse gives up once {enc.gives_up_at:.0%} of its units are out of the fight."
        if enc.gives_up_at < 1
        else "A posse fights until every unit is out of the fight."
    )
    return f"""Golden Frontiers (Hexslinger)
Every round each unit draws a card: highest acts first (jokers high, twos low;
ties Spades, Diamonds, Clubs, Hearts; the coloured joker above the black).
A joker drawn reshuffles all 54 cards at the end of the round.
A unit has one action a round: attack, load (revolver, shotgun) or execute.
Move {enc.move_with_action} hexes and keep the action, or Run up to {enc.move} (no action);
a shot after moving is {enc.moving_attack:+d}. An empty rifle loads free as it fires.
Reach in hexes: {reach}.
Attack: weapon dice + modifiers against the target's Reflexes die + modifier
(+{enc.half_cover} half cover, +{enc.full_cover} full cover). Every die aces: its top face rolls again.
Higher hits; a tie is broken by two cards (the higher card wins).
A hit draws the damage card: 2-8 Graze, 9-King Wound, Ace Two Wounds,
Joker Crippling Wound. Three grazes make a wound; a wound past Max Wounds
cripples. A crippled unit is out of the fight; only an execution kills.
Biding Time: step aside and act after somebody with a lower card.
Wait the round: act first next round, with no card drawn.
{gives_up}
After round {enc.max_rounds} the posse with more units fighting wins.
"""


def _status(key: str, detail: str = "") -> StatusView:
    name, rule, badge, helps = STATUS_RULES[key]
    return StatusView(name, rule, key, detail, badge, helps)


def unit_view(ctx: GoldenCtx, unit: int) -> UnitView:
    sheet, health, arms, turn = ctx.sheet(unit), ctx.health(unit), ctx.arms(unit), ctx.turn(unit)
    data = ctx.data
    per = data.damage.grazes_per_wound
    ident = ctx.identity(unit)
    top = cripple_points(health.max_wounds, per)
    kind_name = "Character" if sheet.kind == "character" else data.npcs[sheet.kind].name + " (NPC)"
    stats = [
        ("Survival", ctx.trait_label(sheet.survival)),
        ("Intuition", ctx.trait_label(sheet.intuition)),
        ("Reflexes", ctx.trait_label(sheet.reflexes)),
        ("Slickness", ctx.trait_label(sheet.slickness)),
        ("Wounds", f"{health.wounds}/{health.max_wounds}"),
        ("Grazes", f"{health.grazes}/{per - 1}"),
    ]
    if turn.card:
        stats.append(("Card", Card.parse(turn.card).label))
    weapons = []
    for wid, loaded in zip(arms.weapons, arms.loaded, strict=True):
        w = data.weapons[wid]
        dice = ", ".join(f"{b.label} to {b.reach}" for b in w.bands)
        ammo = f", {loaded}/{w.ammo} loaded" if w.is_ranged else ""
        trait = f" + {w.trait.capitalize()}" if w.trait else ""
        weapons.append(f"{w.name}: {dice} hexes{trait}{ammo}")
    statuses = []
    if health.crippled:
        statuses.append(_status("crippled"))
    if turn.biding:
        statuses.append(_status("biding"))
    if turn.waiting:
        statuses.append(_status("waiting", "first next round, with no card"))
    if health.wounds and not health.crippled:
        statuses.append(_status("wounded", f"{health.wounds} of {health.max_wounds}"))
    if health.grazes:
        statuses.append(_status("grazed", f"{health.grazes} of {per - 1}"))
    removed = ctx.try_comp(unit, Removed)
    out = "executed" if removed is not None else "crippled" if health.crippled else ""
    if removed is not None and removed.reason == GM_REMOVED:
        out = GM_REMOVED
    can_act = ctx.game.active == unit and not turn.acted
    return UnitView(
        unit=unit,
        name=ident.name,
        side=ident.side,
        kind=sheet.kind,
        kind_name=kind_name,
        action_points=(1 if can_act else 0, 1),
        health=(top - graze_points(health, per), top),
        health_name="Graze points",
        stats=tuple(stats),
        weapons=tuple(weapons),
        statuses=tuple(statuses),
        items=tuple(data.printed(g) for g in arms.gear),
        out=out,
        downed=removed is None and bool(health.crippled),
    )


def tracker(ctx: GoldenCtx) -> list[TrackerEntry]:
    """This round's order: each unit with its card ("K♠", "Red Joker") or "first (waited)"; units biding
    their time are marked "biding"; crippled and dead units are left out. Deployment: empty."""
    game = ctx.game
    if game.phase in ("deployment",):
        return []
    out = []
    for u in game.order:
        if not ctx.fights(u):
            continue
        turn = ctx.turn(u)
        label = Card.parse(turn.card).label if turn.card else "first (waited)"
        if turn.biding:
            label += " · biding"
        out.append(TrackerEntry(u, label, acted=turn.done, active=u == game.active, card=bool(turn.card)))
    return out


def deck_line(ctx: GoldenCtx) -> str:
    """The deck's state in words: cards left and whether a reshuffle is due at the end of the round."""
    deck = ctx.deck
    line = f"Deck: {deck.remaining} of {len(deck.spec())} cards left"
    if deck.reshuffle_due:
        line += " · joker drawn: reshuffle at the end of the round"
    return line


def prompt(ctx: GoldenCtx) -> Prompt | None:
    """The Biding Time window: the bider asked now, and what set it off."""
    game = ctx.game
    if game.phase != "window" or not game.asking:
        return None
    bider = game.asking[0]
    name = ctx.name(bider)
    if game.last:
        text = (
            f"Everyone else has acted. {name} is biding their time: act now, or wait the whole round "
            "to be first next round."
        )
    else:
        text = f"{name} is biding their time: act now, after the unit that just acted, or keep waiting."
    return Prompt("Biding Time", text, bider, None, (bider,))


def describe(match: Match, event: Event, name: Callable[[int], str]) -> str | None:
    if isinstance(event, CardDealt):
        return f"{name(event.unit)} draws {event.card} for initiative"
    return None
