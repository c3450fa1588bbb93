"""Hit assignment for the utility AI (Through the Rift's hits to share among targets): the split that
takes the most units out, then deals the most stress that counts — never more than a target has left."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from ai.decision import TAKE_OUT, Decision
from ai.situation import Situation
from game.engine.protocol import AttackPreview, LegalAction

__all__ = ["assign"]

EXHAUSTIVE = 256  # splits tried one by one up to this many; die by die beyond


def assign(s: Situation, action: LegalAction) -> Decision:
    """Hits to targets: the split that takes the most units out, then deals the most stress that counts
    (never more than a target has left); exhaustive when small, die by die otherwise."""
    targets = [t for t in action.targets if s.side_of(t) != s.side] or list(action.targets)
    if len(targets) ** action.max_picks <= EXHAUSTIVE:
        splits: Iterable[tuple[int, ...]] = itertools.product(targets, repeat=action.max_picks)
    else:
        splits = [_greedy_split(s, action, targets)]
    best: tuple[tuple[int, float], tuple[int, ...]] | None = None
    for split in splits:
        preview = s.view.preview(action.command(targets=split))
        outcome = _split_value(s, preview)
        if best is None or outcome > best[0]:
            best = (outcome, split)
    assert best is not None
    split = best[1]
    names = ", ".join(s.name(t) for t in split)
    return Decision(action.command(targets=split), f"assign the hits: {names}", TAKE_OUT, float(best[0][0]))


def _greedy_split(s: Situation, action: LegalAction, targets: list[int]) -> tuple[int, ...]:
    """Die by die: each die to the target that makes the split so far best (the rest going with it)."""
    chosen: list[int] = []
    for _ in range(action.max_picks):
        best_t = targets[0]
        best_v: tuple[int, float] | None = None
        for t in targets:
            trial = (*chosen, t, *([t] * (action.max_picks - len(chosen) - 1)))
            value = _split_value(s, s.view.preview(action.command(targets=trial)))
            if best_v is None or value > best_v:
                best_v, best_t = value, t
        chosen.append(best_t)
    return tuple(chosen)


def _split_value(s: Situation, preview: AttackPreview | None) -> tuple[int, float]:
    """Units taken out (own ones count against), then stress that counts, capped at what each has left."""
    if preview is None:
        return (0, 0.0)
    out = 0
    useful = 0.0
    for unit, stress in preview.per_target:
        left = s.of(unit).health[0]
        sign = -1 if s.side_of(unit) == s.side else 1
        out += sign * (1 if stress >= left else 0)
        useful += sign * min(stress, left)
    return (out, useful)
