"""Through the Rift: hex-grid dieselpunk combat (seed 003), as a Hexslinger ruleset.

``RULESET`` is the instance the registry in :mod:`game.rules` hands out. Importing the package registers
the basic actions, the item actions, the six attitudes and the talents with :mod:`game.rules.rift.hooks`.
Interpretations of what the rulebook leaves open: docs/RULES.md, section "Through the Rift".
"""

from __future__ import annotations

from game.rules import Ruleset
from game.rules.rift import attitudes, basic, items, talents
from game.rules.rift.ruleset import RiftRuleset, StressDealt, auto_deploy_commands, end_of_encounter

__all__ = [
    "RULESET",
    "RiftRuleset",
    "StressDealt",
    "attitudes",
    "auto_deploy_commands",
    "basic",
    "end_of_encounter",
    "items",
    "talents",
]

RULESET = RiftRuleset()
_PROTOCOL: Ruleset = RULESET  # mypy checks that RiftRuleset implements the whole Ruleset protocol
