"""The rule systems. Each sub-package is one ruleset, registered as a plugin (the entry-point group
``hexslinger.rulesets``, :mod:`game.engine.registry`); the contract they implement is
:mod:`game.engine.protocol`, re-exported here for the rules' own imports."""

from __future__ import annotations

from game.engine import registry
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
from game.engine.registry import UnknownRulesetError

__all__ = [
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


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (e.g. "frontier"), from the plugin registry
    (:mod:`game.engine.registry`); :class:`UnknownRulesetError` lists the installed ones."""
    return registry.get_ruleset(name)
