"""The six attitudes, one module each; importing this package registers their actions and traits."""

from __future__ import annotations

from game.rules.rift.attitudes import bold, calculated, cunning, daring, deliberate, resolute

__all__ = ["bold", "calculated", "cunning", "daring", "deliberate", "resolute"]
