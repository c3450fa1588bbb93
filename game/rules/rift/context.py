"""Through the Rift's rules context: the engine's :class:`~game.engine.context.Context` with the queries
(who is hostile, a valid target, the AP a unit may spend, why an action cannot be taken now) and the
effects (spend AP, give a status, start an attack or a walk, destroy cover) that the actions, the
attitudes and the talents use. They are handed a :class:`RiftCtx`, never the ruleset."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from game.battlefield import Cover, Terrain
from game.components import Position
from game.engine import flow
from game.engine.actions import ActionBook, ActionDef
from game.engine.context import Context
from game.engine.movement import PathTree, reach
from game.events import ActionTaken, Event, Note, StatusChanged
from game.hexgrid import Hex, hex_distance
from game.rules.rift import state as st
from game.rules.rift.components import Combatant, GroundItem, RiftGame, Statuses, StatusRecord, Task
from game.rules.rift.data import RiftData, WeaponData
from game.rules.rift.odds import DOWN_THE_SIGHTS
from game.rules.rift.traits import TraitBook

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["BASIC", "WEAPON_KINDS", "RiftCtx"]

# Everyone's actions but a companion's (a dog has only its own).
BASIC = (
    *("fire", "explosive", "move", "crouch", "flee", "hold_fire"),
    *("interact", "pick_up", "hand_off", "use_item"),
)
WEAPON_KINDS = ("firearm", "explosive")  # an action tagged with one is offered once per such weapon


def weapon_kind(definition: ActionDef[RiftCtx]) -> str:
    """ "firearm" or "explosive" for an action offered per weapon of that kind, else ""."""
    for kind in WEAPON_KINDS:
        if kind in definition.tags:
            return kind
    return ""


class RiftCtx(Context):
    """A Through the Rift match during one call; ``data`` is rift.toml, ``book`` and ``traits`` the
    ruleset instance's actions and traits."""

    __slots__ = ("_defs", "_game", "_units", "_walks", "book", "data", "traits")

    def __init__(
        self,
        match: Match,
        data: RiftData,
        book: ActionBook[RiftCtx],
        traits: TraitBook[RiftCtx],
        events: list[Event] | None = None,
        *,
        defs: dict[tuple[bool, tuple[str, ...]], list[ActionDef[RiftCtx]]] | None = None,
    ) -> None:
        super().__init__(match, events)
        self.data = data
        self.book = book
        self.traits = traits
        self._game: RiftGame | None = None
        self._walks: dict[int, PathTree] = {}
        # a unit's action list by (companion, its action ids): the same for every call of one ruleset
        self._defs = defs if defs is not None else {}
        self._units: dict[tuple[str | None, bool], list[int]] = {}

    # -- state ------------------------------------------------------------------------------------
    @property
    def game(self) -> RiftGame:
        if self._game is None:
            self._game = st.game_state(self.match)
        return self._game

    @property
    def round(self) -> int:
        return self.game.round

    def is_unit(self, entity: object) -> bool:
        return super().is_unit(entity) and self.has(entity, Combatant)  # type: ignore[arg-type]

    def units(self, side: str | None = None, *, in_play: bool = True) -> list[int]:
        """The match's units (as :meth:`Match.units`), read once per call: only :meth:`remove` changes
        who is in play. A copy: callers may keep it."""
        key = (side, in_play)
        found = self._units.get(key)
        if found is None:
            found = self._units[key] = self.match.units(side, in_play=in_play)
        return list(found)

    def remove(self, unit: int, reason: str) -> None:
        self._units.clear()
        super().remove(unit, reason)

    combatant = staticmethod(st.combatant)
    resolve = staticmethod(st.resolve)
    turn_state = staticmethod(st.turn_state)
    ap = staticmethod(st.ap)
    inventory = staticmethod(st.inventory)
    hex_of = staticmethod(st.hex_of)
    alive = staticmethod(st.alive)
    has_trait = staticmethod(st.has_trait)
    statuses = staticmethod(st.statuses)
    has_status = staticmethod(st.has_status)
    taunters = staticmethod(st.taunters)

    # -- weapons ----------------------------------------------------------------------------------
    def weapon(self, wid: str) -> WeaponData:
        return self.data.weapons[wid]

    def weapons_of(self, unit: int, kind: str) -> list[WeaponData]:
        weapons = self.data.weapons
        out = []
        for wid in st.combatant(unit).weapons:
            w = weapons[wid]
            if (kind == "firearm" and w.firearm) or (kind == "explosive" and w.explosive):
                out.append(w)
        return out

    def covering_firearm(self, unit: int) -> WeaponData | None:
        """The gun Covering Fire sweeps with: the longest-ranged firearm carried (the first of equals)."""
        return max(self.weapons_of(unit, "firearm"), key=lambda w: w.range, default=None)

    def sights_factors(self, unit: int) -> list[tuple[str, Fraction]]:
        """Down the Sights pending on ``unit``: one 4x for each taken and not yet spent
        (docs/RULES.md R29)."""
        return [("Down the Sights", DOWN_THE_SIGHTS)] * int(st.turn_state(unit).down_the_sights)

    # -- who ----------------------------------------------------------------------------------------
    def hostiles(self, unit: int) -> list[int]:
        side = st.side(unit)
        return [x for x in self.units() if st.side(x) != side and st.alive(x)]

    def allies(self, unit: int) -> list[int]:
        side = st.side(unit)
        return [x for x in self.units(side) if x != unit and st.alive(x)]

    def valid_target(self, attacker: int, target: int, reach: int, source: Hex | None = None) -> bool:
        """A hostile unit still in the fight, within ``reach`` tiles and in sight ("Line of sight is
        measured in a straight line between the centers of the source and target tile."); a Taunted
        attacker "Can only attempt to attack the target that taunted you"."""
        return self.is_unit(target) and self._valid_target(attacker, target, reach, source)

    def _valid_target(self, attacker: int, target: int, reach: int, source: Hex | None = None) -> bool:
        """:meth:`valid_target` of a unit of this match."""
        if not st.alive(target) or st.side(target) == st.side(attacker):
            return False
        src = source or st.hex_of(attacker)
        there = st.hex_of(target)
        if src is None or there is None:
            return False
        if hex_distance(src, there) > reach or not self.sees(src, there):
            return False
        taunters = [t for t in st.taunters(attacker) if st.alive(t)]
        return not taunters or target in taunters

    def firearm_targets(self, attacker: int, weapon: WeaponData) -> list[int]:
        return [t for t in self.units() if self._valid_target(attacker, t, weapon.range)]

    def step_hexes(self, unit: int) -> list[Hex]:
        """The tiles next to ``unit`` it could step into."""
        here = st.hex_of(unit)
        if here is None:
            return []
        bf = self.battlefield
        return [h for h in bf.neighbors(here) if bf.move_cost(h) is not None]

    def walk(self, unit: int, budget: int) -> PathTree:
        """The tree of ``unit``'s walks with ``budget`` tiles (a tile's map move cost counts:
        docs/RULES.md "Movement"; units do not block). A search is kept for the call: every shorter
        walk of the unit from the same tile is read off it (:meth:`PathTree.within`)."""
        here = self.here(unit)
        tree = self._walks.get(unit)
        if tree is None or tree.start != here or tree.budget < budget:
            tree = self._walks[unit] = reach(self.battlefield, here, budget)
        return tree.within(budget)

    # -- action points ----------------------------------------------------------------------------
    def own_turn(self, unit: int) -> bool:
        return self.game.active == unit

    def spendable(self, unit: int) -> int:
        """AP a unit can spend now: on its turn its AP; off its turn what is left of its last turn plus
        Constant Vigilance's point (docs/RULES.md "AP across turns")."""
        if self.own_turn(unit):
            return st.ap(unit).current
        t = st.turn_state(unit)
        if not t.started:
            return 0
        return st.ap(unit).current + t.vigilance

    def spend(self, unit: int, cost: int) -> None:
        if not self.own_turn(unit):
            t = st.turn_state(unit)
            from_vigilance = min(cost, t.vigilance)
            t.vigilance -= from_vigilance
            cost -= from_vigilance
        points = st.ap(unit)
        points.current = max(0, points.current - cost)

    def action_cost(self, unit: int, action: str, option: str = "") -> int:
        cost = self.data.actions[action].cost
        # Smooth Sidearm: "Firing a pistol now only takes 1 action point."
        w = self.data.weapons.get(option)
        if action == "fire" and w is not None and w.pistol and st.has_trait(unit, "smooth_sidearm"):
            return 1
        return cost

    # -- actions ----------------------------------------------------------------------------------
    def has_action(self, unit: int, action: str) -> bool:
        c = st.combatant(unit)
        if c.companion:
            return action in c.actions
        return action in BASIC or action in c.actions

    def actions_of(self, unit: int) -> list[ActionDef[RiftCtx]]:
        """The unit's actions, in its order (the basic ones first, but a companion's own only)."""
        c = st.combatant(unit)
        key = (c.companion, tuple(c.actions))
        defs = self._defs.get(key)
        if defs is None:
            ids = c.actions if c.companion else [*BASIC, *c.actions]
            book = self.book
            defs = self._defs[key] = [book[a] for a in dict.fromkeys(ids) if a in book]
        return defs

    def common(
        self,
        definition: ActionDef[RiftCtx],
        unit: int,
        option: str = "",
        window: str = "",
        *,
        offered: bool = False,
    ) -> str | None:
        """What stops any action (its own ``problem`` aside), in a player's words: the unit cannot take
        it, is overcome, does not carry the weapon or item, it is not its turn (a reaction in
        ``window`` aside), the AP, "You are only able to make one attack per turn.", Overwhelmed.
        ``offered``: the unit's own action and one of its options (what it is offered), known to be so."""
        action = definition.id
        if not offered and not self.has_action(unit, action):
            return f"{st.name(unit)} cannot {action.replace('_', ' ')}"
        if not st.alive(unit):
            return f"{definition.label_for(self, unit, option)}: {st.name(unit)} is overcome"
        if not offered:
            kind = weapon_kind(definition)
            if kind:
                if option not in [w.id for w in self.weapons_of(unit, kind)]:
                    label = definition.label_for(self, unit, option)
                    return f"{label}: pick a {kind} {st.name(unit)} carries"
            elif definition.options is not None and option not in definition.options(self, unit):
                return f"{definition.label_for(self, unit, option)}: {definition.no_options}"
        cost = definition.cost_for(self, unit, option)
        own = self.own_turn(unit)
        if not own:
            if not window or window not in definition.windows:
                return f"{definition.label_for(self, unit, option)}: not now"
            tags = definition.tags
            if "anytime" not in tags and not (
                "cunning" in tags and st.has_trait(unit, "battlefield_commander")
            ):
                return f"{definition.label_for(self, unit, option)}: only on {st.name(unit)}'s own turn"
        points = self.spendable(unit)
        if points < cost:
            return (
                f"{definition.label_for(self, unit, option)}: needs {cost} AP, {st.name(unit)} has {points}"
            )
        if own and self.data.actions[action].attack and st.turn_state(unit).attacked:
            # "You are only able to make one attack per turn."
            return f"{definition.label_for(self, unit, option)}: you have already attacked this turn"
        if "moves" in definition.tags and st.has_status(unit, "overwhelmed"):
            return f"{definition.label_for(self, unit, option)}: Overwhelmed units are incapable of moving"
        return None

    def problem(
        self, definition: ActionDef[RiftCtx], unit: int, option: str = "", window: str = ""
    ) -> str | None:
        """Why ``unit`` cannot take the action now (picks aside): :meth:`common`, then its own."""
        return self.common(definition, unit, option, window) or definition.problem(self, unit, option)

    # -- the flow ---------------------------------------------------------------------------------
    def reactors(self, task: Task, window: str) -> list[int]:
        """Units that have an enabled reaction in this window, in turn order."""
        order = [u for u in self.game.order if st.alive(u)]
        return flow.reactors(
            self,
            order,
            window,
            task,
            actions=self.actions_of,
            usable=lambda u, d: self.problem(d, u, "", window) is None,
        )

    def push_attack(
        self, attacker: int, mode: str, weapon: str, *, impact: Hex | None = None, forced: int = 0
    ) -> Task:
        """Start an attack: a firearm attack first opens the Nudge window; others roll at once."""
        w = self.weapon(weapon) if weapon else None
        stage = "nudge" if w is not None and w.firearm and mode != "covering_fire" else "roll"
        task = Task("attack", attacker, mode=mode, weapon=weapon, stage=stage, impact=impact, forced=forced)
        if stage == "nudge":
            task.reactors = self.reactors(task, "nudge")
            if not task.reactors:
                task.stage = "roll"
        self.game.stack.append(task)
        return task

    def push_walk(self, unit: int, path: tuple[Hex, ...] | list[Hex]) -> None:
        """Walk ``path`` (the unit's own tile first or not), a tile at a time on the stack."""
        steps = list(path)
        if steps and steps[0] == st.hex_of(unit):
            steps = steps[1:]
        self.game.stack.append(Task("walk", unit, steps=steps))

    # -- statuses ---------------------------------------------------------------------------------
    def inflict(self, target: int, kind: str, inflictor: int, weapon: str = "") -> bool:
        """Give a status until the start of ``inflictor``'s next turn ("Most status effects last until the
        start of the inflictor's next turn")."""
        rnd = self.round
        for d in self.traits.of(st.combatant(target).traits):
            if kind in d.immune:
                self.emit(Note(rnd, target, f"cannot be {kind}"))
                return False
        items = self.comp(target, Statuses).items
        already = any(s.kind == kind for s in items)
        for s in items:
            if s.kind == kind and s.inflictor == inflictor:
                items.remove(s)
                break
        items.append(StatusRecord(kind, inflictor, weapon))
        self.emit(StatusChanged(rnd, target, kind, True))
        if kind == "stunned" and self.own_turn(target) and not already:
            # "Lose 1 Action Point": stunned during its own turn, the unit loses it at once; a unit already
            # Stunned is not stunned more (one point however many stun it: docs/RULES.md R25a)
            points = st.ap(target)
            points.current = max(0, points.current - 1)
        return True

    def expire(self, inflictor: int) -> None:
        """The statuses ``inflictor`` gave end: its turn (taken or not) begins."""
        rnd = self.round
        for u in self.units(in_play=False):
            items = self.comp(u, Statuses).items
            for s in [s for s in items if s.inflictor == inflictor]:
                items.remove(s)
                if not any(x.kind == s.kind for x in items):
                    self.emit(StatusChanged(rnd, u, s.kind, False))

    # -- the map ----------------------------------------------------------------------------------
    def move_to(self, unit: int, h: Hex) -> None:
        self.comp(unit, Position).hex = h

    def destroy_cover(self, h: Hex, by: int) -> bool:
        """Destroy one unit of destructible map cover: it becomes open ground named "wrecked ..."
        (docs/RULES.md "Destroying cover")."""
        bf = self.battlefield
        if not bf.in_bounds(h):
            return False
        t = bf.terrain_at(h)
        if t.cover == Cover.NONE or not t.destructible:
            return False
        bf.set_terrain(h, Terrain(name=f"wrecked {t.name}"))
        self.emit(ActionTaken(self.round, by, "cover_destroyed", hex=h, option=t.name))
        return True

    def drop_items(self, unit: int) -> None:
        """An overcome unit drops what it carries in its tile, for anyone to pick up (docs/RULES.md R28)."""
        carried = st.inventory(unit)
        here = st.hex_of(unit)
        if not carried or here is None:
            return
        for item in carried:
            self.match.create_entity(GroundItem(here, item))
            self.emit(ActionTaken(self.round, unit, "drop_item", hex=here, option=item))
        carried.clear()
