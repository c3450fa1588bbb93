"""What the batch commands' arguments share (``hexslinger simulate``, ``hexslinger balance``): a whole
number, a seed, the cores this process may use and the most games one batch plays. Each raises
``argparse.ArgumentTypeError`` with words a player can act on; argparse prints them and exits 2."""

from __future__ import annotations

import argparse
import os

__all__ = ["MAX_GAMES", "cores", "seed", "whole_number"]

MAX_GAMES = 100_000  # the most games one batch plays


def whole_number(text: str) -> int:
    """``text`` as an int, or an error saying it is not a whole number."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None


def seed(text: str) -> int:
    """A batch's seed: a whole number, 0 or more."""
    value = whole_number(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"the seed must be 0 or more, not {value}")
    return value


def cores() -> int:
    """The CPU cores this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
