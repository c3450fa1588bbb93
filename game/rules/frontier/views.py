"""What the battle UI shows of a Frontier match, in a player's words: the unit panel (:func:`unit_view`),
the initiative tracker (:func:`tracker`) and the F1 summary (:data:`RULES_SUMMARY`).

Read-only: nothing here changes the match or draws from its RNG. Every status carries the rulebook's own
sentence for it (:data:`STATUS_RULES`, quoted exactly from the Frontier rulebook in ``../shared/seeds``).

Decisions (docs/ARCHITECTURE.md, "What the UI asks a ruleset"):

- ``health`` is the one damage track the rules keep (docs/RULES.md decision 3): Toughness left + Wounds
  left + Dastardly's temporary wound, of the printed Toughness + Wounds (+ the temporary wound while it
  is there), so every point of damage takes exactly one point off.
- ``items`` is the posse inventory, shared by the whole posse ("Items stored this way are accessible to
  the whole Posse"), shown on each of the posse's units.
- ``out``: "seriously injured" (still on the field, but "no longer takes turns in combat"), "out of
  action" or "fled"; "" while the unit fights.
- The tracker lists the units that still take turns: Seriously Injured, Out of Action and fled units are
  left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import esper

from game.components import Removed
from game.events import ActionTaken, Event
from game.rules import StatusView, TrackerEntry, UnitView
from game.rules.frontier import state as st
from game.rules.frontier.components import FrontierUnit, Weapon
from game.rules.frontier.data import FrontierData, WeaponData

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["RULES_SUMMARY", "STATUS_RULES", "StatusRule", "card_label", "describe", "tracker", "unit_view"]


@dataclass(frozen=True, slots=True)
class StatusRule:
    name: str
    rule: str  # the rulebook's sentence(s), exactly as printed
    badge: str  # the token badge's letters
    helps: bool  # the status helps the unit (a round badge), else it hinders it (a diamond)


# Every status the Frontier rules set (Status flags, Activation flags, StatusChanged kinds, removals), with
# the rulebook sentence that defines it. tests/rules/test_frontier_views.py finds each quote in the seed.
STATUS_RULES: dict[str, StatusRule] = {
    "prone": StatusRule(
        "Prone",
        "A Unit may be knocked prone; they must use the Stand Up action from the action list to end this "
        "effect.",
        badge="P",
        helps=False,
    ),
    "wounded": StatusRule(
        "Wounded",
        "Units that have taken any Wounds in a Combat Encounter are considered Wounded. Wounded units take "
        "a - 1 penalty to Cool checks.",
        badge="W",
        helps=False,
    ),
    "seriously_injured": StatusRule(
        "Seriously Injured",
        "When a Unit is reduced to 0 Wounds, they are considered Seriously Injured and fall Prone. A Unit "
        "that is seriously injured no longer takes turns in combat and can now be Coup De Graced.",
        badge="SI",
        helps=False,
    ),
    "taking_cover": StatusRule(
        "Taking Cover",
        "They cannot shoot, however they gain the benefits of total cover and take half of any damage they "
        "would normally receive should they be hit with an attack.",
        badge="C",
        helps=True,
    ),
    "aimed": StatusRule(
        "Aimed",
        "If the Unit makes a subsequent Shoot action in the same turn, +1 to the result of any Hit rolls "
        "they make.",
        badge="A",
        helps=True,
    ),
    "engaged": StatusRule(
        "Engaged",
        "The Unit taking this action may move out of close combat with hostile Units without provoking an "
        "Opportunity Attack.",
        badge="E",
        helps=False,
    ),
    "disengaged": StatusRule(
        "Disengaged",
        "The Unit taking this action may move out of close combat with hostile Units without provoking an "
        "Opportunity Attack.",
        badge="D",
        helps=True,
    ),
    "dastardly": StatusRule(
        "Dastardly", "The next time they take damage this wound is lost first", badge="Da", helps=True
    ),
    "follow_me": StatusRule(
        "Follow Me!",
        "Units chosen this way gain 1 additional AP each in the next Action Phase.",
        badge="F",
        helps=True,
    ),
    "out_of_action": StatusRule(
        "Out of Action",
        "Units that are considered Out of Action are no longer in play and cannot be fielded in the next "
        "Combat Encounter.",
        badge="X",
        helps=False,
    ),
    "broken": StatusRule(
        "Broken",
        "A Unit that fails its Cool check is considered broken. It immediately flees the battlefield and is "
        "removed from the Combat Encounter.",
        badge="B",
        helps=False,
    ),
}

# A removed unit's reason (Removed.reason) -> its status and the words ``UnitView.out`` uses.
_REMOVED = {"out_of_action": ("out_of_action", "out of action"), "fled": ("broken", "fled")}

RULES_SUMMARY = """\
Frontier - how a round works
Initiative: a 14-card deck (Ace to King of Spades and a Joker) is shuffled each round. The smaller
posse draws first, then the players alternate, one card per unit. Highest card acts first (Ace 1,
King 13); whoever draws the Joker places that unit anywhere in the order once all cards are dealt.
Action: each unit activates in that order with 2 AP (Follow Me! adds AP for the next Action phase).
Unspent AP are lost when the activation ends.
  Simple, 1 AP, repeatable: Move (Move in inches, 1 hex = 1 inch), Reload, Coup de Grace, Operate Door,
  Take Item.
  Basic, 1 AP, once per activation: Shoot, Aim (+1 to a later Shoot), Melee, Disengage, Take Cover,
  Stand Up, Use Item.
  Major, 2 AP: Leader Action (Follow Me! / Dastardly, then Recharge 2), Charge (Move + 1d4, then a
  Melee attack on a hostile unit within 1", the named one if it is).
Attacks: roll 1d6 plus modifiers; equal to or above the Ballistics or Melee skill hits. Weapon accuracy
at short or long range, Aim +1, cover -1 (half) or -2 (total), a prone target -1 at range, +1 in melee.
Damage comes off Toughness first, then Wounds: any Wound lost makes the unit Wounded, 0 Wounds leaves it
Seriously Injured and Prone (no more turns; an enemy may Coup de Grace it, Smelling Salts revive it).
Taking Cover: no shooting, counts as total cover and takes half damage until its next activation.
Leaving close combat (within 1") without Disengage provokes a free melee attack.
End: once half the units on the field are down, or a posse's leader is, units make Cool checks (1d6 +
the leader's Leadership, -1 if Wounded), all at once; those that fail flee.
Victory: a posse wins when every hostile unit is out of action or has fled; after round 20 it is a draw.
"""


def _signed(value: int) -> str:
    """An accuracy modifier as printed: "+1", "-1", or "-" for none."""
    return f"{value:+d}" if value else "-"


def _weapon_line(weapon: WeaponData, ammo: int | None) -> str:
    if weapon.is_ranged:
        ranges = (
            f'{weapon.short_range}"/{weapon.long_range}"'
            if weapon.long_range > weapon.short_range
            else f'{weapon.short_range}"'
        )
        accuracy = f"{_signed(weapon.short_accuracy)}/{_signed(weapon.long_accuracy)}"
        shots = f"ammo {ammo}/{weapon.ammo}" if weapon.ammo is not None else "no ammo count"
        return f"{weapon.name}: range {ranges}, accuracy {accuracy}, damage {weapon.damage}, {shots}"
    return f'{weapon.name} (melee): range {weapon.short_range}", damage {weapon.damage}'


def _skill(value: int | None, plus: bool = True) -> str:
    if value is None:
        return "N/A"
    return f"{value}+" if plus else str(value)


def _status(key: str, detail: str = "") -> StatusView:
    rule = STATUS_RULES[key]
    return StatusView(rule.name, rule.rule, key, detail, rule.badge, rule.helps)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def describe(event: Event, name: Callable[[int], str]) -> str | None:
    """The combat log's words for the events Frontier words itself: where the Joker's holder acts
    ("Kid places the Joker: acts 2nd"); None leaves an event to the log's generic line."""
    if isinstance(event, ActionTaken) and event.action == "place_joker":
        who = name(event.unit)
        if event.option.isdigit():
            return f"{who} places the Joker: acts {_ordinal(int(event.option))}"
        place = event.option.replace("_", " ").strip()
        return f"{who} places the Joker: {place}" if place else f"{who} places the Joker"
    return None


def unit_view(data: FrontierData, match: Match, unit: int) -> UnitView:
    """The unit panel's facts about ``unit`` (module docstring for the decisions)."""
    if not st.is_unit(match, unit):
        raise ValueError(f"there is no Frontier unit {unit}")
    ident = match.identity(unit)
    match.enter()
    stats_data = st.unit_data(data, unit)
    kind = esper.component_for_entity(unit, FrontierUnit)
    hp = st.health(unit)
    points = st.ap(unit)
    status = st.status(unit)
    act = st.activation(unit)
    game = st.game_state(match)
    removed = esper.try_component(unit, Removed)

    stats: list[tuple[str, str]] = [
        ("Move", f'{stats_data.move}"'),
        ("Ballistics", _skill(stats_data.ballistics)),
        ("Melee", _skill(stats_data.melee)),
        ("Toughness", f"{hp.toughness}/{stats_data.toughness}"),
        ("Wounds", f"{hp.wounds}/{stats_data.wounds}"),
        ("Leadership", _skill(stats_data.leadership, plus=False)),
        ("Cool", _skill(stats_data.cool)),
    ]
    if hp.temporary:
        stats.append(("Temporary wound", str(hp.temporary)))
    ability = st.leader_ability(unit)
    for aid in stats_data.abilities:
        info = data.abilities[aid]
        if info.passive:
            stats.append((info.name, "passive"))
        elif ability is not None and ability.ability == aid:
            ready = (
                "ready"
                if game.round >= ability.ready_round
                else f"recharging, ready in round {ability.ready_round}"
            )
            stats.append((info.name, f"{ready} (Recharge {info.recharge})"))

    carried = esper.component_for_entity(unit, Weapon)
    weapon = data.weapons[carried.weapon]
    weapons = [_weapon_line(weapon, carried.ammo)]
    melee = st.melee_weapon(data, unit)
    if melee.id != weapon.id:
        weapons.append(_weapon_line(melee, None))

    statuses: list[StatusView] = []
    if status.seriously_injured:
        statuses.append(_status("seriously_injured"))
    if status.prone:
        statuses.append(_status("prone"))
    if status.wounded:
        statuses.append(_status("wounded", "-1 to Cool checks"))
    if status.taking_cover:
        statuses.append(_status("taking_cover", "until its next activation or until it moves"))
    if hp.temporary:
        statuses.append(_status("dastardly", f"{hp.temporary} temporary wound"))
    active = game.phase == "action" and game.active == unit
    if active and act.aimed:
        statuses.append(_status("aimed", "+1 to this activation's Shoot"))
    if active and act.disengaged:
        statuses.append(_status("disengaged", "this activation's moves provoke no opportunity attacks"))
    if removed is None and st.able(unit) and st.hex_of(unit) is not None:
        foes = st.engaged_with(match, unit)
        if foes:
            names = ", ".join(st.name_of(f) for f in foes)
            statuses.append(_status("engaged", f'in close combat (within 1") with {names}'))
    if points.bonus_next:
        statuses.append(_status("follow_me", f"+{points.bonus_next} AP in the next Action Phase"))

    out = ""
    if removed is not None:
        key, out = _REMOVED.get(removed.reason, ("out_of_action", removed.reason.replace("_", " ")))
        statuses.insert(0, _status(key))
    elif status.seriously_injured:
        out = "seriously injured"

    inventory = st.inventory(match, ident.side)
    return UnitView(
        unit=unit,
        name=ident.name,
        side=ident.side,
        kind=kind.kind,
        kind_name=f"{stats_data.name} (Leader)" if kind.leader else stats_data.name,
        action_points=(points.current, points.per_activation),
        health=(
            hp.toughness + hp.wounds + hp.temporary,
            stats_data.toughness + stats_data.wounds + hp.temporary,
        ),
        health_name="Toughness + Wounds",
        stats=tuple(stats),
        weapons=tuple(weapons),
        statuses=tuple(statuses),
        items=tuple(inventory.items) if inventory is not None else (),
        out=out,
        downed=removed is None and bool(status.seriously_injured),
    )


_SUITS = {"Spades": "\u2660", "Hearts": "\u2665", "Diamonds": "\u2666", "Clubs": "\u2663"}
_RANK_SHORT = {"Ace": "A", "Jack": "J", "Queen": "Q", "King": "K"}


def card_label(name: str) -> str:
    """A card as the tracker prints it: "King of Spades" -> "K\u2660", any Joker -> "Joker"."""
    if "joker" in name.lower():
        return "Joker"
    rank, _, suit = name.partition(" of ")
    return _RANK_SHORT.get(rank, rank) + _SUITS.get(suit, suit)


def tracker(match: Match) -> list[TrackerEntry]:
    """This round's initiative as it stands, units that still take turns only.

    Action phase (and after it): the activation order, each with its card, acted and active flags.
    Initiative phase: the cards dealt so far, highest first, then the units still to draw a card
    (label "to draw", not a card). Joker phase: the dealt cards, the Joker last until its owner places
    it. Deployment: nothing is known yet (empty).
    """
    match.enter()
    game = st.game_state(match)
    if game.phase == "deployment":
        return []

    def entry(u: int) -> TrackerEntry:
        act = st.activation(u)
        return TrackerEntry(
            unit=u,
            label=card_label(act.card_name),
            acted=act.activated,
            active=game.phase == "action" and u == game.active,
            card=True,
        )

    if game.order:
        return [entry(u) for u in game.order if st.able(u) and st.activation(u).card is not None]
    carded = [u for u in match.units() if st.able(u) and st.activation(u).card is not None]
    carded.sort(key=lambda u: (st.activation(u).joker, -(st.activation(u).card or 0), u))
    waiting = [u for u in match.units() if st.able(u) and st.activation(u).card is None]
    if game.phase != "initiative":
        waiting = []
    return [entry(u) for u in carded] + [TrackerEntry(u, "to draw") for u in waiting]
