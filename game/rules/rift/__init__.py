"""Through the Rift: hex-grid dieselpunk combat (seed 003), as a Hexslinger ruleset.

``PLUGIN`` registers it (entry point ``hexslinger.rulesets``); ``RULESET`` is the instance it loads. Each
:class:`RiftRuleset` builds its own books of actions and traits from the basic actions, the items, the six
attitudes and the talents (each module's ``register``).
Interpretations of what the rulebook leaves open: docs/RULES.md, section "Through the Rift".
"""

from __future__ import annotations

from game.engine.facts import Reasoner
from game.engine.registry import Faction, RulesetPlugin
from game.rules import Ruleset
from game.rules.rift import attitudes, basic, items, talents
from game.rules.rift.attacks import StressDealt
from game.rules.rift.builder import default_posses, rift_builder
from game.rules.rift.cli import ODDS
from game.rules.rift.ruleset import (
    FACTIONS,
    RiftRuleset,
    auto_deploy_commands,
    end_of_encounter,
)

__all__ = [
    "PLUGIN",
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
_COLORS = {"rifters": (230, 186, 100), "outlaws": (158, 46, 38)}  # token rims: brass, oxblood
_PROTOCOL: Ruleset = RULESET  # mypy checks that RiftRuleset implements the whole Ruleset protocol
_REASONER: Reasoner = RULESET  # ... and what it answers the AI

PLUGIN = RulesetPlugin(
    id="rift",
    title="Through the Rift",
    load=lambda: RULESET,
    factions=tuple(Faction(fid, name, _COLORS.get(fid)) for fid, name in FACTIONS.items()),
    order=20,
    blurb="Dieselpunk Rifters: 3 AP, one attack a turn, dice pools, stress and resolve, reactions.",
    builder=lambda: rift_builder(RULESET),
    default_posses=lambda: default_posses(rift_builder(RULESET)),
    distance_unit="tiles",
    odds=ODDS,
)
