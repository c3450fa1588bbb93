"""Frontier's rules context: the engine's :class:`~game.engine.context.Context` with Frontier's queries
(a unit's stats and weapon, who is hostile, who is in close combat) and effects (an attack, damage)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from game.battlefield import Cover
from game.dice import roll
from game.engine.actions import ActionBook
from game.engine.context import Context
from game.engine.movement import PathTree, reach
from game.engine.protocol import AttackPreview
from game.events import DamageTaken, Event, Note, Roll, StatusChanged
from game.hexgrid import Hex, hex_distance
from game.rules.frontier import state as st
from game.rules.frontier.combat import (
    AttackSituation,
    attack_preview,
    damage_after_cover,
    hit_modifiers,
    split_damage,
)
from game.rules.frontier.components import FrontierGame, FrontierUnit
from game.rules.frontier.data import FrontierData, UnitData, WeaponData

if TYPE_CHECKING:
    from game.engine.match import Match

__all__ = ["CHARGE_REACH", "FrontierCtx", "SituationParts", "preview_of"]

CHARGE_REACH = 4  # the most a charge's 1d4 adds to Move


# an attack situation's fields after the weapon: skill, distance, cover, aimed, the target's prone, taking
# cover, toughness, wounds and temporary wound
SituationParts = tuple[int, int, Cover, bool, bool, bool, int, int, int]
PREVIEWS_KEPT = 4096
_PREVIEWS: dict[tuple[object, ...], tuple[WeaponData, AttackPreview]] = {}


class FrontierCtx(Context):
    """A Frontier match during one call; ``data`` is the ruleset's data (frontier.toml)."""

    __slots__ = ("_game", "_trees", "book", "data")

    def __init__(
        self,
        match: Match,
        data: FrontierData,
        events: list[Event] | None = None,
        book: ActionBook[FrontierCtx] | None = None,
    ) -> None:
        super().__init__(match, events)
        self.data = data
        self.book = book
        self._game: FrontierGame | None = None
        self._trees: dict[int, PathTree] = {}

    # -- state ------------------------------------------------------------------------------------
    @property
    def game(self) -> FrontierGame:
        if self._game is None:
            self._game = st.game_state(self.match)
        return self._game

    @property
    def round(self) -> int:
        return self.game.round

    def is_unit(self, entity: object) -> bool:
        return super().is_unit(entity) and self.has(entity, FrontierUnit)  # type: ignore[arg-type]

    def stats(self, unit: int) -> UnitData:
        return st.unit_data(self.data, unit)

    def weapon(self, unit: int) -> WeaponData:
        return st.weapon_data(self.data, unit)

    def melee_weapon(self, unit: int) -> WeaponData:
        return st.melee_weapon(self.data, unit)

    def hostiles(self, unit: int) -> list[int]:
        return st.hostiles(self.match, unit)

    def allies(self, unit: int) -> list[int]:
        return st.allies(self.match, unit)

    def engaged(self, unit: int) -> list[int]:
        return st.engaged_with(self.match, unit)

    def blocked(self, unit: int) -> frozenset[Hex]:
        return st.blocked_hexes(self.match, unit)

    def reach_tree(self, unit: int) -> PathTree:
        """One search per unit per call: every hex it could walk to with Move + 4 (a charge's most); a
        Move's tree is this tree cut at Move (:meth:`PathTree.within`)."""
        tree = self._trees.get(unit)
        if tree is None:
            budget = self.stats(unit).move + CHARGE_REACH
            tree = reach(self.battlefield, self.here(unit), budget, self.blocked(unit))
            self._trees[unit] = tree
        return tree

    def occupant_names(self) -> dict[Hex, str]:
        return {h: st.name_of(u) for h, u in self.match.occupied().items()}

    def behind_cover(self, unit: int) -> bool:
        """Take Cover: "If the Unit is behind any kind of cover (Half or Total)": a neighbouring hex gives
        half or total cover (docs/RULES.md "Take Cover")."""
        here = st.hex_of(unit)
        if here is None:
            return False
        bf = self.battlefield
        return any(bf.terrain_at(n).cover != Cover.NONE for n in bf.neighbors(here))

    # -- attacks ----------------------------------------------------------------------------------
    def situation(self, attacker: int, target: int, weapon: WeaponData) -> AttackSituation:
        return AttackSituation(weapon, *self._situation_parts(attacker, target, weapon))

    def _situation_parts(self, attacker: int, target: int, weapon: WeaponData) -> SituationParts:
        """:class:`AttackSituation`'s fields after the weapon, as the match stands."""
        a, t = st.hex_of(attacker), st.hex_of(target)
        assert a is not None and t is not None
        ranged = weapon.is_ranged
        cover = self.battlefield.cover_between(a, t) if ranged else Cover.NONE
        stats = self.stats(attacker)
        skill = stats.ballistics if ranged else stats.melee
        hp = st.health(target)
        tstatus = st.status(target)
        return (
            skill if skill is not None else 7,
            hex_distance(a, t),
            cover,
            ranged and st.activation(attacker).aimed,
            tstatus.prone,
            tstatus.taking_cover,
            hp.toughness,
            hp.wounds,
            hp.temporary,
        )

    def preview(self, attacker: int, target: int, weapon: WeaponData) -> AttackPreview:
        """``attack_preview(self.situation(attacker, target, weapon))``, kept for its parts (the AI asks
        the odds of the same attack from many hexes): no situation is made for parts seen before."""
        return preview_of(weapon, self._situation_parts(attacker, target, weapon))

    def hit_chance(self, attacker: int, target: int, weapon: WeaponData) -> Fraction:
        return self.preview(attacker, target, weapon).hit_chance

    def attack(self, attacker: int, target: int, weapon: WeaponData) -> None:
        """One attack: "Any attack action, whether Ballistic or Melee, is considered a check in the
        corresponding skill and is handled as all checks are."."""
        game = self.game
        situation = self.situation(attacker, target, weapon)
        mods = hit_modifiers(situation)
        (die,) = roll(self.rng, 6)
        total = die + sum(v for _, v in mods)
        hit = total >= situation.skill
        check, purpose = ("ballistics", "attack") if weapon.is_ranged else ("melee", "melee")
        self.emit(
            Roll(game.round, attacker, check, (die,), mods, total, situation.skill, hit, target, purpose)
        )
        if game.active == attacker:
            st.activation(attacker).attacked.append(target)
        if hit:
            amount = damage_after_cover(weapon.damage, situation.target_taking_cover)
            if situation.target_taking_cover:
                self.emit(Note(game.round, target, "taking cover: half damage"))
            self.damage(target, amount, attacker)

    def damage(self, unit: int, amount: int, source: int | None) -> None:
        """Take damage: Dastardly's wound first, then Toughness, then Wounds (docs/RULES.md "Damage")."""
        rnd = self.round
        hp = st.health(unit)
        after = split_damage(amount, hp.toughness, hp.wounds, hp.temporary)
        if hp.temporary and after.temporary < hp.temporary:
            self.emit(Note(rnd, unit, "Dastardly: the temporary wound is lost first"))
        lost_wounds = hp.wounds - after.wounds
        hp.temporary, hp.toughness, hp.wounds = after.temporary, after.toughness, after.wounds
        self.emit(DamageTaken(rnd, unit, amount, source, hp.toughness + hp.wounds + hp.temporary))
        status = st.status(unit)
        # "Units that have taken any Wounds in a Combat Encounter are considered Wounded."
        if lost_wounds and not status.wounded:
            status.wounded = True
            self.emit(StatusChanged(rnd, unit, "wounded", True))
        # "When a Unit is reduced to 0 Wounds, they are considered Seriously Injured and fall Prone."
        if hp.wounds == 0 and not status.seriously_injured:
            status.seriously_injured = True
            self.emit(StatusChanged(rnd, unit, "seriously_injured", True))
            if not status.prone:
                status.prone = True
                self.emit(StatusChanged(rnd, unit, "prone", True))
            if status.taking_cover:
                status.taking_cover = False
                self.emit(StatusChanged(rnd, unit, "taking_cover", False))
            act = st.activation(unit)
            act.card, act.card_name = None, ""  # it no longer takes turns: its card is discarded

    def charge_target(self, unit: int, declared: int | None) -> int | None:
        """Whom a charge that ends where ``unit`` stands attacks (docs/RULES.md 16): the declared target if
        it is an able hostile within 1"; else, of the able hostiles within 1", the one the attack is most
        likely to hit (a prone one: +1), ties to the first in the match's unit order; None if there is
        none. Seriously Injured units are not attacked (they are for Coup de Grace)."""
        near = self.engaged(unit)
        if declared in near:
            return declared
        if not near:
            return None
        weapon = self.melee_weapon(unit)
        return max(near, key=lambda t: (self.hit_chance(unit, t, weapon), -near.index(t)))


def charge_roll(ctx: FrontierCtx, unit: int, die: int, target: int | None) -> int:
    """Roll the charge's 1d4 and log it; the movement budget (Move + the roll)."""
    move = ctx.stats(unit).move
    (extra,) = roll(ctx.rng, die)
    budget = move + extra
    ctx.emit(
        Roll(ctx.round, unit, "charge", (extra,), (("Move", move),), budget, None, None, target, "movement")
    )
    return budget


def preview_of(weapon: WeaponData, parts: SituationParts) -> AttackPreview:
    """``attack_preview(AttackSituation(weapon, *parts))``, kept for its parts (the AI asks the odds of the
    same attack from many hexes): no situation is made for parts seen before."""
    key = (id(weapon), *parts)
    found = _PREVIEWS.get(key)
    if found is not None and found[0] is weapon:
        return found[1]
    preview = attack_preview(AttackSituation(weapon, *parts))
    if len(_PREVIEWS) >= PREVIEWS_KEPT:
        _PREVIEWS.clear()
    _PREVIEWS[key] = (weapon, preview)
    return preview
