"""The context Golden Frontiers' rules run in: a match's units as the rules read them (sheet, health,
weapons, round), the deck, and the questions every action asks (who is hostile, how far one may still
move, what an attack rolls from where)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import esper

from game.battlefield import Cover
from game.components import Identity, Position, Removed
from game.engine import scenario
from game.engine.actions import ActionBook
from game.engine.cards import MatchDeck
from game.engine.context import Context
from game.engine.movement import PathTree, reach
from game.events import Event
from game.hexgrid import Hex, hex_distance
from game.rules.golden.components import Arms, Character, GoldenGame, Health, RoundState
from game.rules.golden.data import DieBand, GoldenData, WeaponData
from game.rules.golden.rules import die_label

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["GoldenCtx", "game_of"]


def game_of(match: Match) -> tuple[GoldenGame, MatchDeck]:
    """The encounter state and the deck (on one entity)."""
    found = match.first_component(GoldenGame)
    if found is None:
        raise LookupError("this match has no Golden Frontiers encounter")
    entity, game = found
    return game, esper.component_for_entity(entity, MatchDeck)


class GoldenCtx(Context):
    """One match as Golden Frontiers' rules see it during one call."""

    __slots__ = ("_gave_up", "data", "deck", "game", "rules")

    def __init__(
        self,
        match: Match,
        data: GoldenData,
        events: list[Event] | None = None,
        rules: ActionBook[GoldenCtx] | None = None,
    ) -> None:
        super().__init__(match, events)
        self.data = data
        self.rules = rules
        self.game, self.deck = game_of(match)
        self._gave_up: dict[str, bool] | None = None  # kept answers, only while nothing can change

    def asking(self) -> GoldenCtx:
        """This context answers one question (a what-if, a unit's facts) and changes nothing while it lives:
        what it works out once (whether a posse has given up, asked of every target) is kept."""
        self._gave_up = {}
        return self

    @property
    def round(self) -> int:
        return self.game.round

    # -- a unit ----------------------------------------------------------------------------------------
    @staticmethod
    def sheet(unit: int) -> Character:
        return esper.component_for_entity(unit, Character)

    @staticmethod
    def health(unit: int) -> Health:
        return esper.component_for_entity(unit, Health)

    @staticmethod
    def arms(unit: int) -> Arms:
        return esper.component_for_entity(unit, Arms)

    @staticmethod
    def turn(unit: int) -> RoundState:
        return esper.component_for_entity(unit, RoundState)

    def fights(self, unit: int) -> bool:
        """Still in the fight: in play, not crippled, not dead ("When a character has a crippling wound
        they are no longer in combat."), its posse not given up."""
        if not self.able(unit):
            return False
        return self.data.encounter.gives_up_at >= 1 or not self.gave_up(self.side(unit))

    def able(self, unit: int) -> bool:
        """In play, not crippled, not dead."""
        if not self.in_play(unit):
            return False
        h = self.health(unit)
        return not (h.crippled or h.dead)

    def gave_up(self, side: str) -> bool:
        """Own (docs/RULES.md G21): a posse gives up the fight once this share of the units it fielded is
        out of it (crippled or dead): ``[encounter] gives_up_at`` (1: it fights to the last)."""
        # the units it fielded: not a reinforcement still in reserve (asked on every what-if: one pass over
        # the side's units, in no particular order, as only the counts matter)
        kept = self._gave_up
        if kept is not None and side in kept:
            return kept[side]
        fielded = out = 0
        for u, ident in esper.get_component(Identity):
            if ident.side != side:
                continue
            removed = esper.try_component(u, Removed)  # scenario.in_reserve and in_play in one look
            if removed is not None and removed.reason == scenario.RESERVE:
                continue
            fielded += 1
            if removed is not None:
                out += 1
            else:
                h = esper.component_for_entity(u, Health)
                out += h.crippled or h.dead
        given = out > 0 and out >= self.data.encounter.gives_up_at * fielded  # out > 0: some fielded
        if kept is not None:
            kept[side] = given
        return given

    def modifier(self, die: int) -> int:
        return self.data.traits.modifier(die)

    def trait_label(self, die: int) -> str:
        return die_label(self.data, die)

    def weapon(self, weapon_id: str) -> WeaponData:
        return self.data.weapons[weapon_id]

    def loaded(self, unit: int, weapon_id: str) -> int:
        arms = self.arms(unit)
        return arms.loaded[arms.weapons.index(weapon_id)]

    def loads_on_firing(self, unit: int, weapon_id: str) -> bool:
        """An empty gun that loads free (no action) and has not been loaded this round: a shot with it
        loads it first (own, docs/RULES.md G11: "may even be fired on the same round that it was
        loaded")."""
        weapon = self.weapon(weapon_id)
        return (
            weapon.is_ranged
            and not weapon.load_action
            and self.loaded(unit, weapon_id) <= 0
            and not self.turn(unit).free_load
        )

    def can_fire(self, unit: int, weapon_id: str) -> bool:
        """A melee weapon, a gun with a shot in it, or an empty one that loads free this round."""
        weapon = self.weapon(weapon_id)
        if not weapon.is_ranged or self.loaded(unit, weapon_id) > 0:
            return True
        return self.loads_on_firing(unit, weapon_id)

    def hostile(self, a: int, b: int) -> bool:
        return self.side(a) != self.side(b)

    def occupant_names(self) -> dict[Hex, str]:
        return {h: self.name(u) for h, u in self.occupied().items()}

    # -- movement ---------------------------------------------------------------------------------------
    def move_left(self, unit: int) -> int:
        """What the unit may still move this round at most: the whole move while its action is not taken
        (a run, :meth:`run_left`), else the shorter move with an action (docs/RULES.md G9, own)."""
        enc = self.data.encounter
        turn = self.turn(unit)
        budget = enc.move_with_action if turn.acted else enc.move
        return max(0, budget - turn.moved)

    def walk_left(self, unit: int) -> int:
        """What an ordinary move may still cover this round: up to the move with an action (the action is
        kept), or, once the unit has run, the rest of its whole move."""
        enc = self.data.encounter
        turn = self.turn(unit)
        if self.action_room(unit):
            return max(0, enc.move_with_action - turn.moved)
        return self.move_left(unit)

    def run_left(self, unit: int) -> int:
        """What a run may cover: the whole move's rest, while the action is not taken and still fits."""
        turn = self.turn(unit)
        if turn.acted or not self.action_room(unit):
            return 0
        return self.move_left(unit)

    def can_act(self, unit: int) -> bool:
        """The round's action is not taken and still fits the move made."""
        return not self.turn(unit).acted and self.action_room(unit)

    def action_room(self, unit: int) -> bool:
        """An action still fits the move made: no more than the move with an action so far."""
        return self.turn(unit).moved <= self.data.encounter.move_with_action

    def walks(self, unit: int, budget: int | None = None) -> PathTree:
        here = self.here(unit)
        blocked = frozenset(h for h, u in self.occupied().items() if u != unit)
        return reach(self.battlefield, here, self.walk_left(unit) if budget is None else budget, blocked)

    # -- attacks ----------------------------------------------------------------------------------------
    def band_at(self, weapon: WeaponData, a: Hex, b: Hex) -> DieBand | None:
        return weapon.band(hex_distance(a, b))

    def cover_bonus(self, weapon: WeaponData, a: Hex, b: Hex) -> tuple[int, str]:
        """The defence bonus of the target's cover against a shot (own: half +1, full +2); a knife: none."""
        if not weapon.is_ranged:
            return 0, ""
        cover = self.battlefield.cover_between(a, b)
        if cover == Cover.FULL:
            return self.data.encounter.full_cover, "full cover"
        if cover == Cover.HALF:
            return self.data.encounter.half_cover, "half cover"
        return 0, ""

    def attack_modifiers(self, unit: int, weapon: WeaponData, moved: int) -> list[tuple[str, int]]:
        """The attacker's modifiers: the weapon's associated trait (the Knife: Reflexes) and a shot made
        after moving this round (own)."""
        mods: list[tuple[str, int]] = []
        if weapon.trait:
            die = getattr(self.sheet(unit), weapon.trait)
            if self.modifier(die):
                mods.append((weapon.trait.capitalize(), self.modifier(die)))
        if weapon.is_ranged and moved > 0 and self.data.encounter.moving_attack:
            mods.append(("moving", self.data.encounter.moving_attack))
        return mods

    def defence_modifiers(self, target: int, weapon: WeaponData, a: Hex, b: Hex) -> list[tuple[str, int]]:
        mods: list[tuple[str, int]] = []
        reflexes = self.sheet(target).reflexes
        if self.modifier(reflexes):
            mods.append(("Reflexes", self.modifier(reflexes)))
        bonus, name = self.cover_bonus(weapon, a, b)
        if bonus:
            mods.append((name, bonus))
        return mods

    def target_problem(self, unit: int, weapon: WeaponData, target: int, a: Hex | None = None) -> str | None:
        """Why ``unit`` cannot attack ``target`` with ``weapon`` from ``a`` (default: where it stands)."""
        if not self.is_unit(target) or not self.hostile(unit, target):
            return "pick a hostile unit"
        if not self.fights(target):
            return f"{self.name(target)} is out of the fight"
        here = a if a is not None else self.pos(unit)
        there = self.pos(target)
        if here is None or there is None:
            return f"{self.name(target)} is not on the map"
        if self.band_at(weapon, here, there) is None:
            away = hex_distance(here, there)
            return f"{self.name(target)} is {away} hexes away: the {weapon.name} reaches {weapon.reach}"
        if weapon.is_ranged and not self.sees(here, there):
            return f"{self.name(unit)} cannot see {self.name(target)}"
        return None

    @staticmethod
    def identity(unit: int) -> Identity:
        return esper.component_for_entity(unit, Identity)

    @staticmethod
    def position(unit: int) -> Position:
        return esper.component_for_entity(unit, Position)
