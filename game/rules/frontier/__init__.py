"""Frontier: the Wild West skirmish rulebook (../shared/seeds), as a Hexslinger ruleset.

``PLUGIN`` registers it (entry point ``hexslinger.rulesets``); ``RULESET`` is the instance it loads.
Interpretations of what the
rulebook leaves open are in docs/RULES.md, section "Frontier".
"""

from __future__ import annotations

from game.engine.facts import Reasoner
from game.engine.registry import Faction, RulesetPlugin
from game.rules import Ruleset
from game.rules.frontier.builder import default_posses, frontier_builder
from game.rules.frontier.cli import ODDS
from game.rules.frontier.ruleset import ACTIONS, FrontierRuleset, auto_deploy_commands

__all__ = ["ACTIONS", "PLUGIN", "RULESET", "FrontierRuleset", "auto_deploy_commands"]

RULESET = FrontierRuleset()
_COLORS = {"the_law": (206, 214, 230), "the_outlaws": (158, 46, 38)}  # token rims: steel, oxblood
_PROTOCOL: Ruleset = RULESET  # mypy checks that FrontierRuleset implements the whole Ruleset protocol
_REASONER: Reasoner = RULESET  # ... and what it answers the AI

PLUGIN = RulesetPlugin(
    id="frontier",
    title="Frontier",
    load=lambda: RULESET,
    factions=tuple(Faction(f.id, f.name, _COLORS.get(f.id)) for f in RULESET.data.factions.values()),
    order=10,
    blurb="Law against Outlaws: 2 AP, d6 checks, a 14-card initiative deck, Cool checks.",
    builder=lambda: frontier_builder(RULESET),
    default_posses=lambda: default_posses(frontier_builder(RULESET)),
    distance_unit='"',
    odds=ODDS,
)
