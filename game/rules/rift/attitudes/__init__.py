"""The six attitudes, one module each; :func:`register` adds their actions and traits to a ruleset
instance's books."""

from __future__ import annotations

from game.rules.rift.attitudes import bold, calculated, cunning, daring, deliberate, resolute
from game.rules.rift.hooks import Actions, Traits

__all__ = ["bold", "calculated", "cunning", "daring", "deliberate", "register", "resolute"]


def register(book: Actions, traits: Traits) -> None:
    for module in (bold, calculated, cunning, daring, deliberate, resolute):
        module.register(book, traits)
