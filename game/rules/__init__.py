"""The Ruleset protocol every rule system implements, and the registry of rule systems.

The core (game.match) knows no rule: it asks the ruleset what is legal, what it costs, why not and what
the odds are, and hands it the commands to apply. A UI or AI uses only these answers.
"""

from __future__ import annotations

import importlib

from game.engine.protocol import (
    AttackPreview,
    LegalAction,
    Outcome,
    PosseSpec,
    Prompt,
    Ruleset,
    StatusView,
    TrackerEntry,
    UnitSpec,
    UnitView,
)

__all__ = [
    "RULESETS",
    "AttackPreview",
    "LegalAction",
    "Outcome",
    "PosseSpec",
    "Prompt",
    "Ruleset",
    "StatusView",
    "TrackerEntry",
    "UnitSpec",
    "UnitView",
    "UnknownRulesetError",
    "get_ruleset",
]


class UnknownRulesetError(KeyError):
    pass


RULESETS: dict[str, str] = {
    "frontier": "game.rules.frontier",
    "rift": "game.rules.rift",
}


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (e.g. "frontier")."""
    module_name = RULESETS.get(name)
    if module_name is None:
        known = ", ".join(sorted(RULESETS))
        raise UnknownRulesetError(f"unknown ruleset '{name}'; known rulesets: {known}")
    module = importlib.import_module(module_name)
    ruleset: Ruleset = module.RULESET
    return ruleset
