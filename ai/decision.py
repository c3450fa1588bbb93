"""What the utility AI decided and why (``Decision``), the ranks its options are ordered by, and the words
it says a chance in."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ai.utility import Scored
from ai.worth import Plan
from game.commands import Command
from game.hexgrid import Hex

__all__ = ["ATTACK", "END", "REPOSITION", "TAKE_OUT", "Decision", "decision_for", "pct"]

# the ranks (higher first): take a unit out or save one > attack or defend > reposition > end
TAKE_OUT, ATTACK, REPOSITION, END = 3, 2, 1, 0


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision and why: the command, its words, its rank and score and the breakdown; the runners-up."""

    command: Command
    words: str
    rank: int = 0
    score: float = 0.0
    breakdown: tuple[tuple[str, float, float], ...] = ()  # (consideration, input, score)
    others: tuple[tuple[str, float], ...] = ()
    # a unit's own move, attack or stay: where it ends, and the share of its health it expects to lose
    # there before its next turn (the exposure its considerations weighed); None for other decisions
    end: Hex | None = None
    exposure: float | None = None

    def explain(self) -> str:
        parts = ", ".join(f"{name} {value:.2f}" for name, _, value in self.breakdown)
        return f"{self.words} (score {self.score:.3f}: {parts})" if parts else self.words


def decision_for(pick: Scored[Plan], scored: list[Scored[Plan]]) -> Decision:
    """The decision for the option picked, with its breakdown and the runners-up (at most five)."""
    breakdown = tuple((part.name, part.raw, part.score) for part in pick.parts)
    others = tuple((s.option.label, s.score) for s in scored[:5] if s is not pick)
    plan = pick.option.subject
    placed = plan.kind in ("attack", "walk", "stay")
    return Decision(
        plan.command,
        pick.option.label,
        pick.option.rank,
        pick.score,
        breakdown,
        others,
        plan.end if placed else None,
        plan.exposure if placed else None,
    )


def pct(p: Fraction) -> str:
    """A chance as the log says it: "50%"."""
    return f"{round(100 * p)}%"
