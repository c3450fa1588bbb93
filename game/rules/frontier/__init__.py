"""Frontier: the Wild West skirmish rulebook (../shared/seeds), as a Hexslinger ruleset.

``RULESET`` is the instance the registry in :mod:`game.rules` hands out. Interpretations of what the
rulebook leaves open are in docs/RULES.md, section "Frontier".
"""

from __future__ import annotations

from game.rules import Ruleset
from game.rules.frontier.ruleset import ACTIONS, FrontierRuleset, auto_deploy_commands

__all__ = ["ACTIONS", "RULESET", "FrontierRuleset", "auto_deploy_commands"]

RULESET = FrontierRuleset()
_PROTOCOL: Ruleset = RULESET  # mypy checks that FrontierRuleset implements the whole Ruleset protocol
