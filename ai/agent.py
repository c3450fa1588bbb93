"""Hexslinger's utility AI: it plays any ruleset from the public view and the rules' questions.

Each decision it (1) lists its options — attacks it can make now, walks to places it could reach (with
the attack it could make from there), the other actions it could take, ending its turn — (2) scores each
with considerations (exact odds from the rules: the chance to take the target out, the damage expected,
how exposed it would stand, the attacks a walk sets off, how well the place suits its weapon's range),
weighted by the unit's personality, (3) takes the best of the highest rank (take a unit out > attack or
defend > reposition > end), or with a difficulty's ``band`` any option close to the best, with its own
RNG; and (4) keeps the breakdown, so it can say why (``Decision``). It re-plans after every command.

It never reads the match's RNG or the order of undrawn cards: only ``MatchView`` (legal actions, previews,
what-if odds, unit facts, movement trees, path reactions, morale risk) and copies made with
``MatchView.sandbox`` to try an action out (or the action supposed in place and put back,
``MatchView.suppose``). Decisions on reactions, hit assignment and places in an initiative order go
through the same scoring (``ai.outside``: ``reaction_options``, ``choice_options``; ``_assign``).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from fractions import Fraction

from ai import outside, trials, wholeturn
from ai.assign import assign
from ai.baselines import Player
from ai.decision import ATTACK, END, REPOSITION, TAKE_OUT, Decision, decision_for, pct
from ai.fastreplace import replace
from ai.profile import Difficulty, Personality, difficulty, personalities, personality_for
from ai.situation import Situation
from ai.threat import exposure, path_risk
from ai.utility import Consideration, Option, choose, score_option
from ai.worth import Plan, considerations
from game.commands import Command
from game.engine.facts import UnitFacts
from game.engine.match import Match, MatchView
from game.engine.movement import reach as reach_tree
from game.engine.protocol import AttackPreview, LegalAction
from game.hexgrid import Hex, hex_distance, hex_neighbors

__all__ = ["ATTACK", "END", "REPOSITION", "TAKE_OUT", "Decision", "UtilityAgent"]

NEVER = ("flee",)  # it never runs from a fight it is in (the flee threshold is 0 in every personality)


def _f(x: Fraction | float) -> float:
    return float(x)


class UtilityAgent(Player):
    """The utility AI for one side (see the module docstring). ``difficulty`` is a profile id ("easy",
    "normal", "hard") or a :class:`Difficulty`; personalities come from each unit's kind, unless
    ``personality`` (an id of ``ai/profiles/personalities.toml`` or a :class:`Personality`) gives every
    unit of the side the same one (the controller name ``ai:LEVEL:PERSONALITY``)."""

    name = "ai"

    def __init__(
        self, level: str | Difficulty = "normal", seed: int = 0, personality: str | Personality | None = None
    ) -> None:
        super().__init__(seed)
        self.level = difficulty(level) if isinstance(level, str) else level
        self.person = personalities()[personality] if isinstance(personality, str) else personality
        self.name = f"ai:{self.level.id}" + (f":{self.person.id}" if self.person is not None else "")
        self.last: Decision | None = None
        self._fields: dict[tuple[object, ...], dict[Hex, int]] = {}
        self._tried: dict[Command, tuple[Match, Situation]] = {}  # this decision's trials on copies
        self._considered: tuple[Personality | None, dict[str, tuple[Consideration[Plan], ...]]] = (None, {})

    def personality(self, keys: tuple[str, ...] = ()) -> Personality:
        """The personality of a unit described by ``keys`` (its kind and art keys): the side's own if it
        was given one, else the one for such a unit."""
        return self.person if self.person is not None else personality_for(keys)

    # -- deciding ----------------------------------------------------------------------------------
    def decide(self, view: MatchView, index: int) -> Command:
        rng = self.rng(view, index)
        legal = view.legal_actions()
        enabled = [a for a in legal if a.enabled and a.action not in NEVER] or [a for a in legal if a.enabled]
        if not enabled:
            raise RuntimeError("the AI was asked to decide with nothing legal to do")
        situation = Situation(view, enabled[0].side)
        tried, self._tried = self._tried, {}
        if self.last is not None and self.last.command in tried:
            trial, after = tried[self.last.command]
            if trial.key() == view.key():  # the command tried on a copy was taken: the same position
                situation.adopt(after)
        first = enabled[0]
        if first.needs == "assign":
            decision = assign(situation, first)
        elif first.action == "deploy":
            decision = self._pick(situation, outside.deploy_options(self, situation, enabled), rng)
        elif any(a.action == "pass" for a in enabled):
            decision = self._pick(situation, outside.reaction_options(self, situation, enabled), rng)
        elif all(a.needs in ("", "choice") and not a.targets for a in enabled) and not any(
            a.ends_turn for a in enabled
        ):
            decision = self._pick(situation, outside.choice_options(self, situation, enabled), rng)
        else:
            decision = self._pick(situation, self._turn_options(situation, enabled), rng)
        self.last = decision
        return decision.command

    def _pick(self, situation: Situation, options: list[Option[Plan]], rng: random.Random) -> Decision:
        level = self.level
        if level.blunder and rng.random() < level.blunder:
            sensible = [o for o in options if o.rank > END] or options
            plan = sensible[rng.randrange(len(sensible))]
            return Decision(plan.subject.command, plan.subject.words, plan.rank, 0.0)
        pick, scored = choose(options, rng, band=level.band, inertia=level.inertia)
        if pick is None:
            fallback = options[-1] if options else None
            assert fallback is not None, "no option at all"
            return Decision(fallback.subject.command, fallback.subject.words, fallback.rank)
        return decision_for(pick, scored)

    # -- a turn ------------------------------------------------------------------------------------
    def _turn_options(self, s: Situation, actions: list[LegalAction]) -> list[Option[Plan]]:
        me = actions[0].actor
        mine = s.of(me)
        person = self.personality((mine.kind, *_art(s, me)))
        if mine.leader:  # a posse's leader keeps out of harm: its fall shakes the whole posse
            person = replace(person, caution=min(1.0, person.caution + person.leader_protection))
        here = s.where(me)
        options: list[Option[Plan]] = []
        foes = s.foes()
        ap = mine.action_points[0]
        total = max(1, mine.action_points[1], ap)
        lefts: list[int] = []  # per option: the action points left after it and the attack it leads to
        guards: list[tuple[int, float]] = []  # actions taken where the unit stands: (cost, exposure after)
        for action in actions:
            found: list[Option[Plan]] = []
            if action.ends_turn:
                found.append(self.option(Plan(action.command(), "end the turn", "end"), END, person))
            elif action.needs == "path" and here is not None:
                found.extend(
                    self._walks(s, me=me, action=action, actions=actions, foes=foes, ap=ap, person=person)
                )
            elif action.needs in ("target", "") and here is not None:
                found.extend(self._attacks_now(s, me, action, foes, person))
                if not found and action.needs == "":
                    found.extend(self._other(s, me, action, person))
            elif action.needs == "hex" and here is not None and _blast_radius(mine, action) is not None:
                found.extend(self._blasts(s, me, action, person))
            elif action.needs in ("targets", "hex", "choice") or action.needs == "target":
                for cmd in itertools.islice(action.expand(), 12):
                    found.append(
                        self.option(Plan(cmd, action.label, "other"), REPOSITION, person, weight=0.3)
                    )
            for option in found:  # what the turn has left after it (and the attack it leads to) counts too
                left = ap - action.cost - option.subject.follow
                spare = max(0, left) / total if not action.ends_turn else 0.0
                plan = (
                    option.subject if option.subject.spare == spare else replace(option.subject, spare=spare)
                )
                options.append(self.rescored(option, plan, person))
                lefts.append(left)
                if plan.kind == "other" and plan.follow == 0 and plan.end == here:
                    guards.append((action.cost, plan.exposure))
        ended = wholeturn.ended(
            self, s, me, here, options, lefts=lefts, actions=actions, guards=guards, person=person
        )
        earned = wholeturn.earned(self, s, me, here, ended, person=person)
        if ap >= total or here is None:
            return earned
        # the unit has already acted this turn (walked, aimed): the attack it can make from where it now
        # stands is the plan in progress (it walked or aimed for it), worth the difficulty's inertia and
        # kept over an equal option, so it does not wander off between equals. Read from the position,
        # not remembered: a battle resumed from a save decides the same
        return [
            replace(o, in_progress=True) if o.subject.kind == "attack" and o.subject.end == here else o
            for o in earned
        ]

    def _attacks_now(
        self, s: Situation, me: int, action: LegalAction, foes: list[int], person: Personality
    ) -> Iterable[Option[Plan]]:
        mine = s.of(me)
        here = s.where(me)
        for target in foes:
            if action.needs == "target":
                if target not in action.targets:
                    continue
                send = action.command(target=target, option=action.option)
                aimed = send
            else:
                send = action.command(option=action.option)
                aimed = replace(send, target=target)
            preview = s.view.preview(aimed)
            if preview is None or preview.expected_damage <= 0:
                continue
            plan = self._attack_plan(
                s,
                send=send,
                target=target,
                preview=preview,
                label=action.label,
                stand=here,
                mine=mine,
                finish=person.finish,
            )
            rank = TAKE_OUT if plan.take_out >= 0.5 else ATTACK
            yield self.option(plan, rank, person)

    def _attack_plan(
        self,
        s: Situation,
        *,
        send: Command,
        target: int,
        preview: AttackPreview,
        label: str,
        stand: Hex | None,
        mine: UnitFacts,
        exposure: float | None = None,
        follow: int = 0,
        odds: tuple[float, float, float] | None = None,
        finish: float = 1.0,
    ) -> Plan:
        take_out, damage, value = odds if odds is not None else _attack_odds(s, target, preview, finish)
        if exposure is None:
            exposure = self.exposure_at(s, mine, stand) if stand is not None else 0.0
        words = f"{label} at {s.name(target)}: {pct(preview.hit_chance)} to hit"
        return Plan(
            send, words, "attack", target, preview, stand, take_out, damage, value, exposure, follow=follow
        )

    def _walks(
        self,
        s: Situation,
        *,
        me: int,
        action: LegalAction,
        actions: list[LegalAction],
        foes: list[int],
        ap: int,
        person: Personality,
    ) -> Iterable[Option[Plan]]:
        """Walks to the best-looking places, each with the attack it leads to (if the AP allow one)."""
        here = s.where(me)
        mine = s.of(me)
        if here is None or action.paths is None or not action.hexes:
            return
        if action.targets:  # a walk that ends in an attack (a charge): weighed by where it ends
            yield from self._attacking_walks(s, me=me, action=action, foes=foes, person=person)
            return
        if _outwalked(action, actions, ap):
            return
        templates = [w for w in mine.weapons if w.action]
        reach = max((w.reach for w in templates), default=1)
        ideal = max(1.0, person.ideal_range * reach)
        nearest = min((hex_distance(here, s.where(f) or here) for f in foes), default=0)
        # with no hostile to fire at from here, close in whatever the ideal range: a good distance with no
        # line of fire wins nothing
        blind = self.best_attack_value(s.view, me, s) <= 0
        # the whole turn's walking: where the unit could end after as many of these walks as its AP
        # allow, each weighed as the turn's final place; the command is the first leg towards it
        tree = action.paths
        legs = max(1, ap // max(1, action.cost))
        turn = (
            reach_tree(s.view.battlefield, tree.start, tree.budget * legs, tree.blocked) if legs > 1 else tree
        )
        # with no one in sight, the way to the hostiles is measured on foot (around walls and canyon
        # sides), not as the crow flies: a straight-line distance leads into dead ends and back
        field = self._approach(s, foes) if blind else None
        ends = s.goal_ends(me, action.hexes, self._candidate_ends(s, action.hexes, foes, ideal, field))
        if turn is not tree:  # and the best of the places further on
            further = s.goal_ends(me, turn.ends(), self._candidate_ends(s, turn.ends(), foes, ideal, field))
            first = set(ends)
            ends += [h for h in further if h not in first]
        attack_costs = {a.action: a.cost for a in actions}
        total = max(1, mine.action_points[1], ap)
        # first what each place is worth before its risks (the attack it leads to, its range, the way
        # closer): that bounds its score from above, as risks only lower it; then the risks (exposure
        # where it ends, the attacks on the way) are asked only of the places whose bound could still
        # beat the best place found so far of the same rank (the IAUS's early out, a place at a time)
        drafts: list[tuple[int, float, Hex, Plan, float, tuple[Hex, ...] | None]] = []
        where = [(target, s.where(target)) for target in foes]  # asked once, not per place
        # each weapon's attack on each hostile and its what-if odds: the same question from every place
        # (s.attacks lists the same weapons as ``templates``, in the same order)
        made = [(t, there, s.attacks(me, t)) for t, there in where if there is not None]
        aims = [
            (w, attack_costs.get(w.action, 1), [(t, ours[i], there) for t, there, ours in made])
            for i, w in enumerate(templates)
        ]
        pathless = action.command(option=action.option)
        legal_ends = frozenset(action.hexes) if turn is not tree else frozenset()
        for end in ends:
            cost = turn.cost_to(end)
            if cost is None:
                continue
            needed = -(-cost // max(1, tree.budget)) if tree.budget else 1
            left = ap - needed * action.cost
            full: tuple[Hex, ...] | None = None  # a one-walk place's path: the walk itself, read if weighed
            if turn is not tree:
                full = turn.path_to(end)
                path = _first_leg(s, full, tree.budget) if full is not None else ()
                if len(path) < 2 or path[-1] not in legal_ends:
                    continue
            dist = min((hex_distance(end, there or end) for _, there in where), default=0)
            range_fit = max(0.0, 1.0 - abs(dist - ideal) / max(ideal, 4.0))
            # how far the walk brings the unit towards its ideal range, per movement point it could spend
            budget = max(1, turn.budget)
            if field is not None and here in field and end in field:
                gap: float = field[here] - field[end]
            else:
                gap = (nearest - dist) if blind else (abs(nearest - ideal) - abs(dist - ideal))
            progress = s.goal_progress(me, here, end, max(-1.0, min(1.0, gap / budget)), budget)
            # a one-walk place's command gets its path when the place is weighed (most are not)
            send = action.command(path=path, option=action.option) if full is not None else pathless
            best: tuple[float, Plan] | None = None
            later: tuple[float, Plan] | None = None  # the best attack from there on a later turn
            for w, follow, targets in aims:
                now = follow <= left
                for target, aim, there in targets:
                    if hex_distance(end, there) > w.reach:
                        continue
                    preview = aim.odds()(end, None)
                    if preview is None or preview.expected_damage <= 0:
                        continue
                    odds = _attack_odds(s, target, preview, person.finish)
                    key = odds[0] * 2 + odds[1] * odds[2]
                    sooner = now and (best is None or key > best[0])
                    if not sooner and later is not None and key <= later[0]:
                        continue  # the plan is made only for an attack that is the best so far
                    plan = self._attack_plan(
                        s,
                        send=send,
                        target=target,
                        preview=preview,
                        label=w.name,
                        stand=end,
                        mine=mine,
                        exposure=0.0,
                        follow=follow,
                        odds=odds,
                    )
                    if sooner:
                        best = (key, plan)
                    if later is None or key > later[0]:
                        later = (key, plan)
            if best is not None:
                words = f"{action.label} to {end.q},{end.r}, then {best[1].words}"
                draft = replace(best[1], words=words, range_fit=range_fit)
                rank = TAKE_OUT if draft.take_out >= 0.5 else ATTACK
                firing = 0.0
            else:
                # a place to fire from next turn is worth part of that attack (a line of fire beats a
                # good distance with no sight of anyone), less the harm it risks there
                firing = 0.0 if later is None else min(1.0, later[1].take_out + 0.5 * later[1].damage)
                draft = Plan(
                    send,
                    f"{action.label} to {end.q},{end.r}",
                    end=end,
                    range_fit=range_fit,
                    progress=progress,
                    gain=firing,
                )
                rank = REPOSITION
            weight = 0.9 if rank != REPOSITION else 1.0
            # with the turn's action points left after it (as the turn weighs it, _turn_options)
            draft = replace(draft, spare=max(0, ap - action.cost - draft.follow) / total)
            bound = score_option(self.option(draft, rank, person, weight)).score
            drafts.append((rank, bound, end, draft, firing, full))
        drafts.sort(key=lambda d: (-d[0], -d[1], d[2].q, d[2].r))
        best_of: dict[int, float] = {}
        keep = 1.0 - self.level.band
        # a difficulty with a band (it takes any place near the best, not the very best) weighs the risks
        # of the most promising half of its places per rank, by that bound (not the others; head to head
        # against weighing them all, 600 Frontier games: as strong, docs/PERFORMANCE.md)
        most = self.level.places // 2 if self.level.band > 0 and self.level.foresight else len(drafts)
        weighed: dict[int, int] = {}
        for rank, bound, end, drafted, firing, known in drafts:
            if bound < best_of.get(rank, 0.0) * keep:
                continue  # even with no risk at all it could not come near the best place of its rank
            if weighed.get(rank, 0) >= most:
                continue
            weighed[rank] = weighed.get(rank, 0) + 1
            full = known
            if full is None:
                full = turn.path_to(end) or ()
            en_route = path_risk(s, me, mine, full) if self.level.reactions else 0.0
            exposure = self.exposure_at(s, mine, end)
            risks: dict[str, object] = {"exposure": exposure, "en_route": en_route}
            if known is None:
                risks["command"] = action.command(path=full, option=action.option)
            if rank == REPOSITION:
                risks["gain"] = firing * max(0.0, 1.0 - exposure)
            weight = 0.9 if rank != REPOSITION else 1.0
            option = self.option(replace(drafted, **risks), rank, person, weight)
            best_of[rank] = max(best_of.get(rank, 0.0), score_option(option).score)
            yield option

    def _blasts(self, s: Situation, me: int, action: LegalAction, person: Personality) -> list[Option[Plan]]:
        """An explosive thrown at a hex: every unit within the blast that the impact sees takes its hits,
        the thrower's own side too (docs/RULES.md R7). Weighed at the hexes that catch a hostile: the
        hostiles' chances of going out and expected losses, less the own side's counted double (a posse
        that blows itself up loses more than the hostiles' units are worth)."""
        mine = s.of(me)
        radius = _blast_radius(mine, action) or 0
        here = s.where(me)
        hostile = [h for h in (s.where(f) for f in s.foes()) if h is not None]
        spots = [h for h in action.hexes if any(hex_distance(h, there) <= radius for there in hostile)]
        exposure = self.exposure_at(s, mine, here) if here is not None else 0.0
        options: list[Option[Plan]] = []
        for h in spots:
            send = action.command(hex=h, option=action.option)
            take_out = damage = 0.0
            lead: tuple[float, int, AttackPreview] | None = None
            friends: list[str] = []
            for unit in s.view.units():
                where = s.where(unit)
                if where is None or hex_distance(where, h) > radius or not s.of(unit).fights:
                    continue
                preview = s.view.preview(replace(send, target=unit))
                if preview is None or preview.expected_damage <= 0:
                    continue
                facts = s.of(unit)
                health = max(1, facts.health[0])
                out = _f(preview.damage.at_least(health))
                hurt = min(1.0, _f(preview.expected_damage) / health)
                if s.side_of(unit) == s.side:
                    take_out -= FRIENDLY * out * facts.value
                    damage -= FRIENDLY * hurt * facts.value
                    friends.append(s.name(unit))
                    continue
                take_out += out * facts.value
                damage += hurt * facts.value
                if lead is None or (out, -unit) > (lead[0], -lead[1]):
                    lead = (out, unit, preview)
            if lead is None:
                continue
            words = f"{action.label} at {h.q},{h.r} on {s.name(lead[1])}: "
            words += f"{pct(lead[2].hit_chance)} to hit"
            if friends:
                words += f", catching {', '.join(friends)}"
            plan = Plan(send, words, "attack", lead[1], lead[2], here, take_out, damage, 1.0, exposure)
            options.append(self.option(plan, TAKE_OUT if take_out >= 0.5 else ATTACK, person))
        return options

    def _attacking_walks(
        self, s: Situation, *, me: int, action: LegalAction, foes: list[int], person: Personality
    ) -> Iterable[Option[Plan]]:
        """A walk that attacks where it ends (a charge): for each target it may name, the two cheapest
        ends next to it, weighed by the attack's odds there times the chance the walk gets there."""
        mine = s.of(me)
        tree = action.paths
        assert tree is not None
        for target in action.targets:
            if target not in foes:
                continue
            there = s.where(target)
            if there is None:
                continue
            ring = {there, *hex_neighbors(there)}  # within 1 of the target
            near = [h for h in action.hexes if h in ring]
            near.sort(key=lambda h: (tree.cost_to(h) or 0, h.q, h.r))
            for end in near[:2]:
                path = action.path_to(end)
                if path is None:
                    continue
                send = action.command(path=path, target=target, option=action.option)
                preview = s.view.preview(send)
                if preview is None or preview.expected_damage <= 0:
                    continue
                reach = _f(preview.reach_chance) if preview.reach_chance is not None else 1.0
                plan = self._attack_plan(
                    s,
                    send=send,
                    target=target,
                    preview=preview,
                    label=action.label,
                    stand=end,
                    mine=mine,
                    finish=person.finish,
                )
                en_route = path_risk(s, me, mine, path) if self.level.reactions else 0.0
                plan = replace(
                    plan,
                    take_out=plan.take_out * reach,
                    damage=plan.damage * reach,
                    en_route=en_route,
                    words=f"{plan.words}, reaching it {round(100 * reach)}%",
                )
                yield self.option(plan, TAKE_OUT if plan.take_out >= 0.5 else ATTACK, person)

    def _candidate_ends(
        self,
        s: Situation,
        hexes: tuple[Hex, ...],
        foes: list[int],
        ideal: float,
        field: dict[Hex, int] | None = None,
    ) -> list[Hex]:
        """The places worth weighing: those whose distance to the nearest hostile suits the weapon best
        (the difficulty says how many); with ``field`` (no one in sight), those nearest the hostiles on
        foot."""
        if field is not None:
            far = 1 << 30
            return sorted(hexes, key=lambda h: (field.get(h, far), h.q, h.r))[: self.level.places]
        where = [s.where(f) for f in foes]
        spots = [(h.q, h.r) for h in where if h is not None]

        def fit(h: Hex) -> tuple[float, int, int]:  # hex_distance inline: every place of every walk
            q, r = h.q, h.r
            dist = -1
            for fq, fr in spots:
                dq, dr = q - fq, r - fr
                d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if dist < 0 or d < dist:
                    dist = d
            return (abs(max(dist, 0) - ideal), q, r)

        ranked = sorted(hexes, key=fit)
        return ranked[: self.level.places]

    def _approach(self, s: Situation, foes: list[int]) -> dict[Hex, int]:
        """Every hex's walking cost to the nearest hostile (other units ignored), kept while the hostiles
        stand where they are and no door or terrain has changed."""
        bf = s.view.battlefield
        where = (s.where(f) for f in foes)
        spots = sorted((p for p in where if p is not None), key=lambda h: (h.q, h.r))
        doors = tuple(d.is_open for d in bf.doors.values())
        key = (bf.file_hash, id(bf.geometry), doors, len(bf.terrain_changes), tuple(spots))
        found = self._fields.get(key)
        if found is None:
            found = bf.walking_costs(spots, APPROACH_BUDGET)
            if len(self._fields) >= 32:
                self._fields.clear()
            self._fields[key] = found
        return found

    def exposure_at(self, s: Situation, mine: UnitFacts, at: Hex) -> float:
        """Expected damage the hostile units could deal the unit standing at ``at`` (each with its best
        attack, from where it stands or the nearest place it could walk to), as a share of its health."""
        return exposure(s, mine, at) if self.level.foresight else 0.0

    def _other(self, s: Situation, me: int, action: LegalAction, person: Personality) -> list[Option[Plan]]:
        """An action that is neither an attack nor a walk (take cover, aim, reload, stand up, ...): tried
        out on a copy, it is worth what it changes: the unit's exposure where it stands after it (against
        standing still, :func:`ai.wholeturn.earned`) and better odds on its best attack — counted in full
        if the unit can still attack this turn, in part if it could not attack at all before (a reload,
        standing up), not at all otherwise (an Aim with nothing left to shoot with is wasted)."""
        mine = s.of(me)
        here = s.where(me)
        if here is None:
            return []
        before_attack = self.best_attack_value(s.view, me, s)
        left = mine.action_points[0] - action.cost  # the action points really left after it
        quick = self._supposed(s, me, action.command(option=action.option), here, before_attack)
        if quick is not None:  # the rules answered without a copy: it betters no attack
            return self._other_option(s, me, action, person, end=here, exposure=quick, improvement=0.0)
        try:
            trial = s.view.sandbox(self.seed)
            if left <= 0:
                trials.keep_turn(trial, me)
            trial.apply(action.command(option=action.option))
        except Exception:
            return []
        view = trial.view(s.side)
        after = Situation(view, s.side)
        self._tried[action.command(option=action.option)] = (trial, after)
        still = after.where(me)
        if still == here and trials.same_walks(s, after, me):
            if trials.same_threats(s, after, me):
                after.share_threats(s)  # nothing the hostiles' attacks on it read has changed: same answers
            else:
                after.share_walks(s)  # its own defence changed (it took cover), not where they could go
        if still is not None:
            exposure = self.exposure_at(after, after.of(me), still)
        else:
            exposure = self.exposure_at(s, mine, here)
        improvement = max(0.0, self.best_attack_value(view, me, after) - before_attack)
        attacks = (
            [
                a
                for a in view.legal_actions()
                if a.enabled and a.actor == me and (a.targets or a.needs == "target") and a.cost <= left
            ]
            if improvement > 0
            else []
        )
        if improvement > 0 and attacks:
            # the action and the better attack it makes possible this turn (aim, then shoot; reload, then
            # shoot): weighed as that attack, with the action points both spend
            then = self._attack_after(
                s,
                after=after,
                me=me,
                action=action,
                attacks=attacks,
                stand=still or here,
                exposure=exposure,
                person=person,
            )
            if then is not None:
                return [then]
        return self._other_option(
            s,
            me,
            action,
            person,
            end=still or here,
            exposure=exposure,
            improvement=improvement if attacks else LATER * improvement if before_attack <= 0 else 0.0,
        )

    def _supposed(self, s: Situation, me: int, cmd: Command, here: Hex, before_attack: float) -> float | None:
        """``_other``'s trial asked of the match itself, the command's effect supposed in place by the
        rules (``MatchView.suppose``: no copy, no command applied): the unit's exposure where it stands
        after it, when it betters none of the unit's attacks; None where the rules do not suppose it or
        it betters an attack (the attack it leads to is weighed on a copy)."""
        undo = s.view.suppose(cmd)
        if undo is None:
            return None
        try:
            after = trials.supposed(s, me)
            if self.best_attack_value(s.view, me, after) > before_attack:
                return None
            return self.exposure_at(after, after.of(me), here)
        finally:
            undo()

    def _other_option(
        self,
        s: Situation,
        me: int,
        action: LegalAction,
        person: Personality,
        *,
        end: Hex,
        exposure: float,
        improvement: float,
    ) -> list[Option[Plan]]:
        """``_other``'s option for an action weighed as itself (not as the attack it leads to):
        ``improvement`` is what it betters the unit's attacks by, as counted (a better attack that has to
        wait for a later turn counts in part, :data:`LATER`, and only if the unit could not attack at all
        before)."""
        mine, here = s.of(me), s.where(me)
        assert here is not None
        gain = improvement * (0.5 + person.aggression)
        saved = self.exposure_at(s, mine, here) - exposure
        if gain <= 0 and saved <= 0:
            # it changes nothing the AI can see (Take Cover with no one to hide from, Aim with nothing in
            # sight): not an option, or the action points it leaves would make it look better than ending
            # the turn, and a unit wasted one before walking on
            return []
        plan = Plan(
            action.command(option=action.option),
            action.label,
            "other",
            end=end,
            gain=min(1.0, gain),
            exposure=exposure,
        )
        # saving a unit ranks with taking one out: an action that keeps half its health or more from harm
        # where it stands (crouching behind cover when out-shot). A smaller saving competes on worth at
        # the lower ranks (ranking every small saving with attacks made the AI worse: 72% -> 58% against
        # greedy on ranch_duel, 30 seed pairs)
        rank = TAKE_OUT if saved >= SAVES else ATTACK if gain > 0.1 else REPOSITION
        return [self.option(plan, rank, person)]

    def _attack_after(
        self,
        s: Situation,
        *,
        after: Situation,
        me: int,
        action: LegalAction,
        attacks: list[LegalAction],
        stand: Hex,
        exposure: float,
        person: Personality,
    ) -> Option[Plan] | None:
        """``action`` weighed as the best attack it leads to this turn (its odds after the action)."""
        send = action.command(option=action.option)
        best: tuple[float, Plan] | None = None
        for attack in attacks:
            for target in attack.targets:
                if target not in s.foes():
                    continue
                aimed = replace(attack.command(option=attack.option), target=target)
                preview = after.view.preview(aimed)
                if preview is None or preview.expected_damage <= 0:
                    continue
                label = f"{action.label}, then {attack.label}"
                plan = self._attack_plan(
                    s,
                    send=send,
                    target=target,
                    preview=preview,
                    label=label,
                    stand=stand,
                    mine=after.of(me),
                    exposure=exposure,
                    follow=attack.cost,
                    finish=person.finish,
                )
                key = plan.take_out * 2 + plan.damage * plan.value
                if best is None or key > best[0]:
                    best = (key, plan)
        if best is None:
            return None
        return self.option(best[1], TAKE_OUT if best[1].take_out >= 0.5 else ATTACK, person)

    def best_attack_value(self, view: MatchView, me: int, s: Situation) -> float:
        """The best expected damage (share of the target's health) the unit could deal from where it
        stands with its weapons, on any hostile, whatever its AP now (asked once per unit and situation:
        ``view`` is ``s.view``)."""
        found = s.best_attack.get(me)
        if found is not None:
            return found
        here = s.where(me)
        if here is None:
            return 0.0
        best = 0.0
        for w in s.of(me).weapons:
            if not w.action:
                continue
            for foe in s.foes():
                there = s.where(foe)
                if there is None or hex_distance(here, there) > w.reach:
                    continue
                preview = view.what_if(Command(w.action, actor=me, target=foe, option=w.option))
                if preview is not None:
                    best = max(best, _f(preview.expected_damage) / max(1, s.of(foe).health[0]))
        s.best_attack[me] = best
        return best

    # -- the other decisions -----------------------------------------------------------------------
    # -- scoring -----------------------------------------------------------------------------------
    def rescored(self, option: Option[Plan], plan: Plan, person: Personality) -> Option[Plan]:
        """``option`` with ``plan`` in place of its own: the same option if the plan is, else scored anew
        (same rank and weight)."""
        return option if plan is option.subject else self.option(plan, option.rank, person, option.weight)

    def option(self, plan: Plan, rank: int, person: Personality, weight: float = 1.0) -> Option[Plan]:
        known = self._considered  # the last personality's considerations by kind (asked per option)
        if known[0] is not person:
            known = self._considered = (person, {})
        found = known[1].get(plan.kind)
        if found is None:
            found = known[1][plan.kind] = considerations(person, self.level, plan.kind)
        return Option(plan, plan.words, rank, weight, found)


APPROACH_BUDGET = 10_000  # movement points: any way across a map
SAVES = 0.5  # an action that keeps this share of a unit's health from harm saves it (the top rank)
FRIENDLY = 2.0  # an own unit caught in a blast counts this many times a hostile one
LATER = 0.4  # what an attack that waits for a trigger (Hold Fire) is worth of one made now


def _attack_odds(
    s: Situation, target: int, preview: AttackPreview, finish: float = 1.0
) -> tuple[float, float, float]:
    """An attack's chance to take ``target`` out, its expected damage as a share of the target's health
    and what the target is worth (a leader counts more: its fall shakes its posse; a hurt unit too, by
    ``finish`` times its share of health lost: the personality's drive to finish what was started)."""
    them = s.of(target)
    health = max(1, them.health[0])
    take_out = _f(preview.damage.at_least(health))
    damage = min(1.0, _f(preview.expected_damage) / health)
    if preview.later:  # made only if something sets it off: worth less than a shot now
        take_out, damage = take_out * LATER, damage * LATER
    hurt = 1.0 - them.health[0] / max(1, them.health[1])
    return take_out, damage, them.value * (1.0 + finish * hurt)


def _first_leg(s: Situation, path: tuple[Hex, ...], budget: int) -> tuple[Hex, ...]:
    """The part of ``path`` one walk of ``budget`` movement covers (the path's start included)."""
    bf = s.view.battlefield
    out = [path[0]]
    spent = 0
    for step in path[1:]:
        cost = bf.move_cost(step) or 1
        if spent + cost > budget:
            break
        spent += cost
        out.append(step)
    return tuple(out)


def _outwalked(action: LegalAction, actions: list[LegalAction], ap: int) -> bool:
    """Whether ``action``, a walk attacking no one, goes no further than another walk taken as often as its
    points allow (Frontier's Charge, Move + 1d4", against two Moves): not weighed, as its best roll is not
    certain (a charge used as a sprint)."""
    tree = action.paths
    if tree is None:
        return False
    for other in actions:
        walk = other.paths
        if other is action or other.targets or other.needs != "path" or walk is None or other.cost <= 0:
            continue
        times = action.cost // other.cost
        if times >= 1 and times * other.cost <= ap and walk.budget * times >= tree.budget:
            return True
    return False


def _blast_radius(mine: UnitFacts, action: LegalAction) -> int | None:
    """The blast radius of the explosive ``action`` throws (None: not an explosive)."""
    for w in mine.weapons:
        if w.kind == "explosive" and w.action == action.action and w.option == action.option:
            return w.radius
    return None


def _art(s: Situation, unit: int) -> tuple[str, ...]:
    return s.view.unit_view(unit).art
