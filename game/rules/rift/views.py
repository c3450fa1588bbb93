"""What the battle UI shows of a Through the Rift match, in a player's words: the unit panel
(:func:`unit_view`), the initiative tracker (:func:`tracker`), the banner of a decision that breaks into
the turns (:func:`prompt`) and the F1 summary (:data:`RULES_SUMMARY`).

Read-only: nothing here changes the match or draws from its RNG. Every status carries the rulebook's own
sentence for it (:data:`STATUS_RULES`, quoted exactly from Through the Rift in ``../shared/seeds``).

Decisions (docs/ARCHITECTURE.md, "What the UI asks a ruleset"):

- ``health`` is resolve (current, maximum); ``action_points`` the AP left and the AP a turn brings.
- ``kind_name``: "Rifter \u2014 Cunning 4 / Bold" (first attitude, level, second attitude), an enemy's or a
  companion's name from rift.toml; ``art`` the Rifter's attitude ids (token art), else empty.
- ``items``: what the unit carries (its own Inventory).
- ``out``: "overcome" (resolve 0: on the map, "cannot act for the remainder of the encounter"), "fled",
  or "" while the unit fights.
- A status inflicted by another unit says by whom and until when in ``detail``; "Duck!" and Dodge Roll
  protection are told apart by the match's event history.
- The tracker is the order rolled at the start of the encounter, each unit's first 1d20 as its label;
  overcome and fled units are left out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import esper

from game.components import ActionPoints, Identity, Removed
from game.engine.protocol import Prompt, StatusView, TrackerEntry, UnitView
from game.events import ActionTaken, Event
from game.rules.rift import attacks, rounds
from game.rules.rift import state as st
from game.rules.rift.actions import decision_actions
from game.rules.rift.components import Combatant, Inventory, Shield, Statuses, Task
from game.rules.rift.context import RiftCtx
from game.rules.rift.data import RiftData, WeaponData

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = [
    "RULES_SUMMARY",
    "STATUS_RULES",
    "StatusRule",
    "actions_summary",
    "describe",
    "prompt",
    "tracker",
    "unit_view",
]


@dataclass(frozen=True, slots=True)
class StatusRule:
    name: str
    rule: str  # the rulebook's sentence(s), exactly as printed
    badge: str = ""  # the token badge's letters
    helps: bool = False  # the status helps the unit (a round badge), else it hinders it (a diamond)


# Every status the Through the Rift rules set (StatusRecord kinds, TurnState flags, StatusChanged kinds,
# removals, all-round cover), with the rulebook sentence that defines it.
# tests/rules/test_rift_views.py finds each quote in the seed.
STATUS_RULES: dict[str, StatusRule] = {
    "in_cover": StatusRule(
        "In Cover (crouched)",
        "Until the start of your next turn, you are treated as if you have cover in all directions. If a "
        "shot would have already been halved due to being behind existing cover, it is instead reduced to "
        "zero.",
        badge="C",
        helps=True,
    ),
    "suppressed": StatusRule("Suppressed", "Deal ½ stress", badge="S", helps=False),
    "stunned": StatusRule("Stunned", "Lose 1 Action Point", badge="St", helps=False),
    "taunted": StatusRule(
        "Taunted", "Can only attempt to attack the target that taunted you", badge="T", helps=False
    ),
    "overwhelmed": StatusRule("Overwhelmed", "Incapable of moving", badge="O", helps=False),
    "half_stress": StatusRule(
        "Half Stress", "You take ½ stress until the start of your next turn.", badge="H", helps=True
    ),
    "hold_fire": StatusRule(
        "Hold Fire",
        "Ready yourself, firing your firearm at the first valid target to move, until the start of your "
        "next turn.",
        badge="HF",
        helps=True,
    ),
    "covering_fire": StatusRule(
        "Covering Fire",
        "Set up your gun to sweep the battlefield. The first time any valid target moves until the start "
        "of your next turn, deal a 1 stress shot against them.",
        badge="CF",
        helps=True,
    ),
    "down_the_sights": StatusRule(
        "Down the Sights",
        "The next shot you make that hits inflicts 4x as much stress.",
        badge="DS",
        helps=True,
    ),
    "duck": StatusRule(
        '"Duck!"', "Prevent all damage an ally within 6t would take this turn.", badge="D", helps=True
    ),
    "dodge_roll": StatusRule("Dodge Roll", "Prevent all stress you take this turn.", badge="DR", helps=True),
    "shield": StatusRule("Shield", "This shield provides cover in all directions.", badge="Sh", helps=True),
    "meatshield": StatusRule(
        "Meatshield",
        "If there is an enemy in your tile, you are considered to have cover in all directions.",
        badge="M",
        helps=True,
    ),
    "improved_meatshield": StatusRule(
        "Meatshield (an ally's)",
        "The cover effects of meatshield now apply to allies as well.",
        badge="M",
        helps=True,
    ),
    "overcome": StatusRule(
        "Overcome",
        "When a character's resolve is reduced to 0, they are overcome and cannot act for the remainder of "
        "the encounter.",
        badge="X",
        helps=False,
    ),
    "fled": StatusRule(
        "Fled",
        "Immediately leave the combat. This will likely begin a skill challenge to escape.",
        badge="F",
        helps=False,
    ),
}

# The order statuses are listed in on the panel (StatusRecord kinds; other kinds follow, by name).
_RECORD_ORDER = (
    "stunned",
    "suppressed",
    "taunted",
    "overwhelmed",
    "in_cover",
    "half_stress",
    "hold_fire",
    "covering_fire",
)

RULES_SUMMARY = """\
Through the Rift - how a turn works
Turn order: everyone rolls 1d20 once, at the start; highest acts first, ties roll off; Quick Draw
(and the Gang Boss) always act first. A round is every unit's turn in that order.
Your turn: 3 action points, spent in any order. Only one attack per turn.
  Fire Firearm (attack, 2 AP), Use Explosive (attack, 2 AP), Move (1 AP, up to 2 tiles),
  Crouch Down (2 AP), Flee (2 AP), Hold Fire (attack, 3 AP), Interact (1 AP: pick up, hand off, use
  an item), plus your attitude's and talents' actions (every action is listed below). AP left over
  can pay for reactions between turns (Nudge, "Duck!", Dodge Roll, Tactical Reposition) where a trait
  allows it.
Weapons read dice / threshold / range (/ radius): "3d6 / 5+ / 6t" rolls 3d6, each die of 5 or more
is a hit dealing stress equal to its value to a hostile unit in sight and in range; you assign each
hit, the same target may take several. An explosive hits every unit within its radius of the impact.
Stress: cover on the line from the source halves it; Crouch Down gives cover all round, and behind
real cover a crouched unit takes none. Multipliers (Suppressed, Down the Sights, ...) multiply,
limited to 1/4x - 4x, rounded down, at least 1.
Statuses last until the start of the inflictor's next turn: Suppressed (deal 1/2 stress), Stunned
(lose 1 AP), Taunted (may only attack the taunter), Overwhelmed (cannot move).
Resolve 0: the unit is overcome and cannot act for the rest of the encounter (an ally stabilises it
afterwards to 1/3 of its resolve).
Victory: a side wins when every hostile unit is overcome or has fled; after round {max_rounds} it is a draw
(a map may set its own limit).
"""


def actions_summary(data: RiftData) -> str:
    """The F1 page's list of every action, from rift.toml: its name, AP cost and the rulebook's words
    (Hexslinger's own actions say so), as Frontier's page explains each of its actions."""
    lines = ["Every action (AP cost), in the rulebook's words:"]
    for action in data.actions.values():
        kind = ", attack" if action.attack else ""
        lines.append(f"  {action.name} ({action.cost} AP{kind}): {action.text.rstrip('.')}.")
    return "\n".join(lines) + "\n"


def _status(key: str, detail: str = "") -> StatusView:
    rule = STATUS_RULES[key]
    return StatusView(rule.name, rule.rule, key, detail, rule.badge, rule.helps)


def _name(u: int) -> str:
    return esper.component_for_entity(u, Identity).name


def _until(inflictor: int, unit: int) -> str:
    if inflictor == unit:
        return "until the start of its next turn"
    return f"until the start of {_name(inflictor)}'s next turn"


def _weapon_line(unit: int, weapon: WeaponData) -> str:
    line = f"{weapon.name} \u2014 {weapon.block}"
    if weapon.explosive:
        line += f" (blast radius {weapon.radius})"
    elif weapon.melee:
        line += " (melee)"
    elif weapon.pistol and st.has_trait(unit, "smooth_sidearm"):
        line += " (fires for 1 AP: Smooth Sidearm)"
    return line


def _protection(match: Match, unit: int) -> str:
    """Which of "Duck!" (an ally's) and Dodge Roll (its own) protects ``unit`` this turn: the latest."""
    for event in reversed(match.history):
        if isinstance(event, ActionTaken):
            if event.action == "duck" and event.target == unit:
                return "duck"
            if event.action == "dodge_roll" and event.unit == unit:
                return "dodge_roll"
    return "duck"


def _statuses(ctx: RiftCtx, unit: int) -> list[StatusView]:
    match = ctx.match
    out: list[StatusView] = []
    removed = esper.try_component(unit, Removed)
    if removed is not None:
        key = removed.reason if removed.reason in STATUS_RULES else "fled"
        out.append(_status(key))
    if st.resolve(unit).overcome:
        out.append(_status("overcome"))
    records = esper.component_for_entity(unit, Statuses).items
    order = {k: i for i, k in enumerate(_RECORD_ORDER)}
    for record in sorted(records, key=lambda r: (order.get(r.kind, len(order)), r.kind, r.inflictor)):
        if record.kind not in STATUS_RULES:
            continue
        if record.kind == "hold_fire":
            weapon = ctx.data.weapons.get(record.weapon)
            ready = f"{weapon.name} ready, " if weapon is not None else ""
            detail = ready + _until(record.inflictor, unit)
        elif record.inflictor != unit:
            detail = f"by {_name(record.inflictor)}, {_until(record.inflictor, unit)}"
        else:
            detail = _until(record.inflictor, unit)
        out.append(_status(record.kind, detail))
    turn = st.turn_state(unit)
    if turn.down_the_sights:
        taken = int(turn.down_the_sights)
        several = f"taken {taken} times (4x each, 4x at most), " if taken > 1 else ""
        out.append(_status("down_the_sights", several + "until a shot hits"))
    if turn.protected_turn == ctx.game.turn_number and ctx.game.phase == "battle":
        out.append(_status(_protection(match, unit), "no stress this turn"))
    here = st.hex_of(unit)
    if st.alive(unit) and here is not None:
        shields = [s for _, s in match.iter_components(Shield) if s.hex == here]
        if shields:
            out.append(_status("shield", f"{_name(shields[0].owner)}'s shield in this tile"))
        own = False
        for d in ctx.traits.of(st.combatant(unit).traits):
            if d.all_round_cover is not None and d.all_round_cover(ctx, unit):
                own = True
                if d.id in STATUS_RULES:
                    out.append(_status(d.id, "an enemy in this tile: cover in all directions"))
        if not own and not st.has_status(unit, "in_cover") and attacks.all_round_cover(ctx, unit):
            out.append(
                _status("improved_meatshield", "an ally's Improved Meatshield: cover in all directions")
            )
    return out


def unit_view(ctx: RiftCtx, unit: int) -> UnitView:
    """The unit panel's facts about ``unit`` (module docstring for the decisions)."""
    if not ctx.is_unit(unit):
        raise ValueError(f"there is no Through the Rift unit {unit}")
    data = ctx.data
    ident = esper.component_for_entity(unit, Identity)
    c = esper.component_for_entity(unit, Combatant)
    points = esper.component_for_entity(unit, ActionPoints)
    res = st.resolve(unit)

    stats: list[tuple[str, str]] = []
    art: tuple[str, ...] = ()
    if c.kind == "rifter":
        attitudes = [data.attitudes[a].name for a in c.attitudes if a in data.attitudes]
        kind_name = f"Rifter \u2014 {attitudes[0]} {c.level}" if attitudes else f"Rifter {c.level}"
        if len(attitudes) > 1:
            kind_name += " / " + " / ".join(attitudes[1:])
        art = tuple(c.attitudes)
        stats.append(("Level", str(c.level)))
        stats.append(("Attitudes", " / ".join(attitudes)))
        talents = [data.talents[t].name for t in c.talents if t in data.talents]
        stats.append(("Talents", ", ".join(talents) if talents else "none"))
    elif c.companion:
        companion = data.companions.get(c.kind)
        kind_name = companion.name if companion is not None else c.kind.replace("_", " ").title()
        if c.owner:
            stats.append(("Companion of", _name(c.owner)))
    else:
        enemy = data.enemies.get(c.kind)
        kind_name = enemy.name if enemy is not None else c.kind.replace("_", " ").title()
        if enemy is not None and enemy.text:
            stats.append(("Ability", enemy.text))
    traits = [data.traits[t].name for t in c.traits if t in data.traits]
    if traits:
        stats.append(("Traits", ", ".join(traits)))
    stats.append(("Move", f"{c.move_tiles} tiles"))
    turn = st.turn_state(unit)
    if turn.vigilance:
        stats.append(("Constant Vigilance", f"{turn.vigilance} AP for other units' turns"))

    weapons = [_weapon_line(unit, data.weapons[w]) for w in c.weapons if w in data.weapons]
    if "haymaker" in c.actions and "haymaker" in data.weapons:
        weapons.append(_weapon_line(unit, data.weapons["haymaker"]))

    out = ""
    removed = esper.try_component(unit, Removed)
    if removed is not None:
        out = removed.reason.replace("_", " ")
    elif res.overcome:
        out = "overcome"

    return UnitView(
        unit=unit,
        name=ident.name,
        side=ident.side,
        kind=ident.kind,
        kind_name=kind_name,
        action_points=(points.current, points.per_activation),
        health=(res.current, res.maximum),
        health_name="Resolve",
        stats=tuple(stats),
        weapons=tuple(weapons),
        statuses=tuple(_statuses(ctx, unit)),
        items=tuple(esper.component_for_entity(unit, Inventory).items),
        out=out,
        downed=removed is None and bool(res.overcome),
        art=art,
    )


def tracker(ctx: RiftCtx) -> list[TrackerEntry]:
    """The turn order rolled at the start of the encounter (empty while the posses deploy): each unit
    still in the fight with its 1d20 ("d20: 17", "Quick Draw" where that put it first), whether it has
    had its turn this round and whether it acts now."""
    game = ctx.game
    die = ctx.data.initiative_die
    out: list[TrackerEntry] = []
    for index, u in enumerate(game.order):
        if not st.alive(u):
            continue
        label = f"d{die}: {st.turn_state(u).initiative}"
        if st.has_trait(u, "quick_draw"):
            label += " Quick Draw"
        active = game.phase == "battle" and u == game.active
        acted = index < game.turn or (game.phase == "over" and index == game.turn)
        out.append(TrackerEntry(u, label, acted=acted and not active, active=active))
    return out


# == the banner of a decision ======================================================================


def prompt(ctx: RiftCtx) -> Prompt | None:
    """The decision on top of the stack in a player's words, for the battle screen's banner: the
    attacker's hit assignment, or a reaction window (a Nudge before the roll, "Duck!" / Dodge Roll
    before the hits land, a reaction as a turn starts, a Tactical Reposition step). None in an ordinary
    turn, while the posses deploy and after the end. Read-only."""
    game = ctx.game
    if game.phase != "battle" or not game.stack:
        return None
    task = game.stack[-1]
    if task.kind == "attack" and task.stage == "assign":
        return _assign_prompt(ctx, task)
    if task.reactors:
        return _window_prompt(ctx, task)
    return None


def _assign_prompt(ctx: RiftCtx, task: Task) -> Prompt:
    attacker = task.unit
    values = attacks.hit_values(task)
    hits = f"{len(values)} hit" + ("" if len(values) == 1 else "s")
    text = (
        f"{_attack_words(ctx, task)}: {hits} ({_and_list([str(v) for v in values])}). "
        "Assign each die to a valid target; the same one may take several."
    )
    targets = tuple(attacks.assign_targets(ctx, task))
    return Prompt("Assign the hits", text, attacker, attacker, targets)


def _window_prompt(ctx: RiftCtx, task: Task) -> Prompt:
    reactor = task.reactors[0]
    who = _name(reactor)
    window = rounds.window_of(task)
    if window == "reposition":
        caller = _name(task.unit)
        can = bool(ctx.step_hexes(reactor))
        if reactor == task.unit:
            text = f"{caller} calls a Tactical Reposition" + (
                " and may move 1 tile, or pass." if can else " but has no tile to move to: pass."
            )
        else:
            text = f"{caller} calls a Tactical Reposition. " + (
                f"{who} may move 1 tile, or pass." if can else f"{who} has no tile to move to: pass."
            )
        return Prompt("Tactical Reposition", text, reactor, task.unit)
    labels = [a.label for a in decision_actions(ctx, task) if a.enabled and a.action != "pass"]
    options = f"{who} may use {_or_list(labels)}, or pass." if labels else f"{who} can only pass now."
    if window == "turn_start":
        text = f"{_name(task.unit)}'s turn starts. {options}"
        return Prompt("React before the turn", text, reactor, task.unit)
    prefix = {"hold_fire": "Hold Fire! ", "covering_fire": "Covering Fire! "}.get(task.mode, "")
    if window == "nudge":
        text = f"{_attack_words(ctx, task)}. {options}"
        aimed_at: tuple[int, ...] = (task.forced,) if task.forced else ()
        return Prompt(prefix + "React before the roll", text, reactor, task.unit, aimed_at)
    coming: dict[int, list[str]] = {}
    for target, value, _source, extra in attacks.blows(ctx, task):
        named = ", ".join(f"{n} x{f}" for n, f in extra)
        coming.setdefault(target, []).append(f"{value} ({named})" if named else str(value))
    hits = "; ".join(f"{_and_list(values)} on {_name(t)}" for t, values in coming.items())
    landing = f"Hits coming: {hits}." if hits else "No hit reaches anyone."
    text = f"{_attack_words(ctx, task)}. {landing} {options}"
    about = tuple(attacks.endangered(ctx, task))
    return Prompt(prefix + "React before the hits land", text, reactor, task.unit, about)


def _attack_words(ctx: RiftCtx, task: Task) -> str:
    """An attack on the stack as a clause: who attacks with what (and whom, when there is one target):
    "Goon fires Goon's Revolver at Kid as Kid moves"."""
    attacker = _name(task.unit)
    w = ctx.weapon(task.weapon) if task.weapon else None
    what = _weapon_words(w.name) if w is not None else "a weapon"
    mover = _name(task.forced) if task.forced else ""
    if task.mode == "hold_fire":
        return f"{attacker} fires {what} at {mover} as {mover} moves"
    if task.mode == "covering_fire":
        return f"{attacker} fires a 1 stress shot at {mover} as {mover} moves"
    if task.mode == "haymaker":
        return f"{attacker} throws a Haymaker at {mover}"
    if w is not None and w.explosive:
        return f"{attacker} throws {what}"
    words = f"{attacker} {'is about to fire' if task.stage == 'nudge' else 'fires'} {what}"
    if task.forced:
        words += f" at {mover}"
    if task.mode != "fire" and task.mode in ctx.data.actions:
        words += f" ({ctx.data.actions[task.mode].name})"
    return words


def _joined(words: list[str], last: str) -> str:
    """ "6", "6 and 5", "6, 5 and 4" (``last`` is the word before the last item)."""
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def _and_list(words: list[str]) -> str:
    return _joined(words, "and")


def _or_list(words: list[str]) -> str:
    return _joined(words, "or")


def _weapon_words(name: str) -> str:
    """A weapon's printed name after a verb: "the MDTC Antipersonnel Grenade", but "Goon's Revolver"."""
    return name if "'s " in name else f"the {name}"


def describe(event: Event, name: Callable[[int], str]) -> str | None:
    """The combat log's words for the events Through the Rift words itself: one shot's stress with every
    multiplier ("Kid: hit of 6 x1/2 cover → 3 stress") and the hits assigned, by name ("Doc assigns the
    hits: Kid, Kid"); None leaves an event to the log's generic line."""
    if isinstance(event, attacks.StressDealt):
        parts = [f"{name(event.unit)}: hit of {event.value}"]
        parts += [f"\u00d7{Fraction(f)} {n.replace('_', ' ')}" for n, f in event.factors]
        parts.append(f"\u2192 {event.amount} stress")
        tail = f" \u2014 {event.prevented}" if event.prevented else ""
        return " ".join(parts) + tail
    if isinstance(event, ActionTaken) and event.action == "assign":
        who = name(event.unit)
        ids = [int(part) for part in event.option.split(",") if part.strip().lstrip("-").isdigit()]
        if not ids:
            return f"{who} assigns no hits"
        return f"{who} assigns the hits: " + ", ".join(name(u) for u in ids)
    return None
