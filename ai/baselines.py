"""Baseline players the AI is measured against: they read only the public view and the legal actions.

- :class:`RandomPlayer`: a legal action uniformly at random (never Flee), then one of the commands it
  allows uniformly at random.
- :class:`GreedyPlayer`: the attack with the highest expected damage (exact odds from ``preview``) on the
  nearest hostile unit it can hit; else a move towards the nearest hostile unit; else it ends its turn.
  Reactions: it passes; hit assignment: every hit on the first target offered.

Both take their randomness from the AI's own RNG (``ai.utility.decision_rng``), never the match's.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from ai.utility import decision_rng
from game.commands import Command
from game.engine.match import MatchView
from game.engine.protocol import LegalAction
from game.hexgrid import Hex, hex_distance

__all__ = ["GreedyPlayer", "Player", "RandomPlayer", "hostiles"]

NEVER = ("flee",)  # the baselines never run away (they would win nothing by it)


class Player:
    """Something that decides for one side: ``decide(view, index)`` gives the next command."""

    name = "player"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: MatchView, index: int) -> Command:
        raise NotImplementedError

    def rng(self, view: MatchView, index: int) -> random.Random:
        return decision_rng(self.seed, view.side, index)


def hostiles(view: MatchView, side: str) -> list[int]:
    """Units of other sides on the map and still in the fight (their panel says they have not left it)."""
    return [
        u
        for u in view.units()
        if view.identity(u).side != side and view.position(u) is not None and not view.unit_view(u).out
    ]


def _enabled(view: MatchView) -> list[LegalAction]:
    return [a for a in view.legal_actions() if a.enabled and a.action not in NEVER]


class RandomPlayer(Player):
    """Uniform over the legal actions (never Flee), then uniform over the commands the chosen one allows."""

    name = "random"

    def decide(self, view: MatchView, index: int) -> Command:
        rng = self.rng(view, index)
        actions = _enabled(view)
        if not actions:
            actions = [a for a in view.legal_actions() if a.enabled]
        rng.shuffle(actions)
        for action in actions:
            commands = list(action.expand())
            if commands:
                return commands[rng.randrange(len(commands))]
        raise RuntimeError("no legal command to take")


def _expected(view: MatchView, cmd: Command) -> Fraction:
    preview = view.preview(cmd)
    return Fraction(0) if preview is None else preview.expected_damage


class GreedyPlayer(Player):
    """The most expected damage on the nearest target it can hit, else towards the nearest hostile."""

    name = "greedy"

    def decide(self, view: MatchView, index: int) -> Command:
        legal = view.legal_actions()
        actions = [a for a in legal if a.enabled and a.action not in NEVER]
        if not actions:
            actions = [a for a in legal if a.enabled]
        first = actions[0]
        if first.needs == "assign":
            return first.command(targets=(first.targets[0],) * first.max_picks)
        if any(a.action == "pass" for a in actions):
            return next(a for a in actions if a.action == "pass").command()
        if first.action == "deploy" or (all(a.action == first.action for a in actions) and first.needs == ""):
            return next(iter(first.expand()))
        me = first.actor
        here = view.position(me)
        side = view.identity(me).side
        foes = hostiles(view, side)
        if here is None or not foes:
            return self._fallback(actions)
        distance = {f: hex_distance(here, view.position(f) or here) for f in foes}
        best: tuple[Fraction, int, Command] | None = None
        for action in actions:
            for send, aimed, target in self._attacks(view, action, foes):
                value = _expected(view, aimed)
                if value <= 0:
                    continue
                key = (value, -distance.get(target, 99), send)
                if best is None or key[:2] > best[:2]:
                    best = key
        if best is not None:
            return best[2]
        nearest = min(foes, key=lambda f: (distance[f], f))
        there = view.position(nearest)
        assert there is not None
        move = self._closer(actions, here, there)
        return move if move is not None else self._fallback(actions)

    @staticmethod
    def _attacks(view: MatchView, action: LegalAction, foes: list[int]) -> list[tuple[Command, Command, int]]:
        """(command to send, command to ask the odds of, target) for each hostile ``action`` can attack: a
        targeted attack names it; an attack that names none (its hits are assigned after the roll) is
        sent as it is and its odds asked against each hostile."""
        if action.needs == "target":
            return [
                (cmd, cmd, t)
                for t in action.targets
                if t in foes
                for cmd in [action.command(target=t, option=action.option)]
            ]
        if action.needs == "" and not action.ends_turn:
            base = action.command(option=action.option)
            return [(base, replace(base, target=t), t) for t in foes]
        return []

    @staticmethod
    def _closer(actions: list[LegalAction], here: Hex, there: Hex) -> Command | None:
        for action in actions:
            if action.needs != "path" or action.targets:
                continue
            ends = [h for h in action.hexes if hex_distance(h, there) < hex_distance(here, there)]
            if not ends:
                continue
            end = min(ends, key=lambda h: (hex_distance(h, there), h.q, h.r))
            path = action.path_to(end)
            if path is not None:
                return action.command(path=path)
        return None

    @staticmethod
    def _fallback(actions: list[LegalAction]) -> Command:
        ender = next((a for a in actions if a.ends_turn), None)
        if ender is not None:
            return ender.command()
        return next(iter(actions[0].expand()))
