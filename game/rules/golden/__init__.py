"""Golden Frontiers: the western RPG's combat (../shared/seeds/000_...), as a Hexslinger ruleset.

``PLUGIN`` registers it (entry point ``hexslinger.rulesets``); ``RULESET`` is the instance it loads.
Interpretations and Hexslinger's own decisions are in docs/RULES.md, section "Golden Frontiers".
"""

from __future__ import annotations

from game.engine.facts import Reasoner
from game.engine.registry import Faction, RulesetPlugin
from game.rules import Ruleset
from game.rules.golden.builder import default_posses, golden_builder
from game.rules.golden.cli import ODDS
from game.rules.golden.ruleset import GoldenRuleset, auto_deploy_commands

__all__ = ["PLUGIN", "RULESET", "GoldenRuleset", "auto_deploy_commands"]

RULESET = GoldenRuleset()
_COLORS = {"lawmen": (214, 178, 74), "outlaws": (96, 64, 40)}  # token rims: brass, saddle brown
_PROTOCOL: Ruleset = RULESET  # mypy checks that GoldenRuleset implements the whole Ruleset protocol
_REASONER: Reasoner = RULESET  # ... and what it answers the AI

PLUGIN = RulesetPlugin(
    id="golden",
    title="Golden Frontiers",
    load=lambda: RULESET,
    factions=tuple(Faction(fid, f.name, _COLORS.get(fid)) for fid, f in RULESET.data.factions.items()),
    order=30,
    blurb="Cards every round, opposed acing dice, a damage card: grazes, wounds, crippling.",
    builder=lambda: golden_builder(RULESET),
    default_posses=lambda: default_posses(golden_builder(RULESET)),
    distance_unit="hexes",
    odds=ODDS,
)
