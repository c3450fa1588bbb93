"""The one-line progress bar the batch commands (``hexslinger simulate``, ``hexslinger balance``) draw on
stderr while their games play: drawn only when stderr is a terminal, so a script reading the output sees
no bar."""

from __future__ import annotations

import sys
import time

__all__ = ["ProgressBar"]

WIDTH = 24  # characters of the bar itself
LINE = 200  # the longest line drawn (a narrow terminal cuts it, it does not wrap it)


class ProgressBar:
    """Games done of ``total`` as a bar, with a label its caller words (the tally so far, the batch being
    played), the time spent and about how much is left."""

    def __init__(self, total: int) -> None:
        self.total = max(1, total)
        self.done = 0
        self.start = time.monotonic()
        self.shown = sys.stderr.isatty()

    def step(self, label: str) -> None:
        """One more game done; ``label`` is shown after the count."""
        self.done += 1
        if not self.shown:
            return
        filled = min(WIDTH, WIDTH * self.done // self.total)
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * max(0, self.total - self.done)
        line = (
            f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {self.done}/{self.total} games  {label}  "
            f"{elapsed:.0f}s, about {left:.0f}s left"
        )
        sys.stderr.write(line[:LINE] + "\033[K")
        sys.stderr.flush()

    def close(self) -> None:
        """End the bar's line (nothing if no bar was drawn)."""
        if self.shown and self.done:
            sys.stderr.write("\n")
            sys.stderr.flush()
