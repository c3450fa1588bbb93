"""Issue 10: "the UI names checks ("cool", "melee", "haymaker"), decides whether a status helps or harms,
special-cases actions in the combat log and reads Rift's stress event by getattr". The contract now carries
the words (``Roll.purpose``, ``StatusView.badge`` / ``helps``, ``Match.describe``), and the screens, the
CLI and the battle statistics hold no rule knowledge: no ruleset id, check, status or action id of any
ruleset appears in their code.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from game.engine import registry
from game.engine.match import Match
from game.engine.protocol import DEPLOY
from game.events import ROLL_PURPOSES, Roll, StatusChanged, UnitRemoved
from game.posses import default_posses
from game.rules import get_ruleset
from game.rules.frontier.views import STATUS_RULES as FRONTIER_STATUSES
from game.rules.rift.views import STATUS_RULES as RIFT_STATUSES
from game.stats import battle_stats
from tests.rules import frontier_kit, rift_kit

ROOT = Path(__file__).resolve().parent.parent
RANCH = ROOT / "maps" / "ranch_duel.tmx"
PLAYERS: dict[str, Callable[[Match], object]] = {
    "frontier": frontier_kit.aggressive_command,
    "rift": rift_kit.aggressive_command,
}


@cache
def played(ruleset: str, seed: int = 3) -> Match:
    """The ruleset's default posses played to the end on Showdown at the Lazy K by the rules tests'
    aggressive player (which reads legal actions only)."""
    drafts = default_posses(ruleset)
    posses = [drafts[0].spec(side="side1"), drafts[1].spec(side="side2")]
    match = Match.create(RANCH, get_ruleset(ruleset), posses, seed)
    player = PLAYERS[ruleset]
    for _ in range(5000):
        if match.is_over:
            break
        match.apply(player(match))  # type: ignore[arg-type]
    assert match.is_over
    return match


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_every_roll_says_what_it_is_for(ruleset: str) -> None:
    """Each ruleset sets ``purpose`` where it rolls: attacks are "attack" / "melee" (what the statistics
    count and the screen shows as dice), Frontier's Cool checks "morale" and its charge roll "movement",
    Rift's initiative and roll-offs "initiative"."""
    rolls = [e for e in played(ruleset).history if isinstance(e, Roll)]
    assert rolls
    assert {e.purpose for e in rolls} <= set(ROLL_PURPOSES) - {"other"}
    by_check: dict[str, set[str]] = {}
    for e in rolls:
        by_check.setdefault(e.check, set()).add(e.purpose)
    assert all(len(purposes) == 1 for purposes in by_check.values()), by_check  # one check, one purpose
    attacks = [e for e in rolls if e.is_attack]
    assert attacks and all(e.target_number is not None for e in attacks)
    if ruleset == "frontier":
        assert by_check["ballistics"] == {"attack"}
        assert by_check.get("cool", {"morale"}) == {"morale"}
        assert by_check.get("charge", {"movement"}) == {"movement"}
    else:
        assert by_check["initiative"] == {"initiative"}
        assert by_check["fire"] == {"attack"}


@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_battle_statistics_read_generic_words_only(ruleset: str) -> None:
    """game/stats.py: attacks are the attack rolls, damage dealt is damage some unit took, and how a unit
    left the fight is the ruleset's own word for it (the unit view's ``out``)."""
    match = played(ruleset)
    stats = battle_stats(match)
    rolls = [e for e in match.history if isinstance(e, Roll)]
    assert sum(s.attacks for s in stats) == sum(1 for e in rolls if e.is_attack)
    assert sum(s.hits for s in stats) == sum(1 for e in rolls if e.is_attack and e.success)
    assert sum(s.damage_dealt for s in stats) <= sum(s.damage_taken for s in stats)
    for s in stats:
        assert s.out == match.unit_view(s.unit).out
    outcome = match.outcome()
    assert outcome is not None
    if outcome.winner is not None:
        assert all(s.out for s in stats if s.side != outcome.winner)


def test_badges_come_from_the_rulesets_views() -> None:
    """Every StatusView a battle shows carries its ruleset's badge letters and whether it helps."""
    seen = 0
    for ruleset, rules in (("frontier", FRONTIER_STATUSES), ("rift", RIFT_STATUSES)):
        match = played(ruleset)
        for unit in match.units(in_play=False):
            for status in match.unit_view(unit).statuses:
                rule = rules[status.key]
                assert (status.badge, status.helps) == (rule.badge, rule.helps)
                seen += 1
    assert seen


# -- no rule words outside the rules ---------------------------------------------------------------------

# What the screens may say in their own right: the contract's and the engine's words (needs, roll purposes,
# the deployment action), the combat log's kinds of line and the battle screen's own button keys.
CONTRACT_WORDS = {
    *ROLL_PURPOSES,
    DEPLOY,
    *("target", "targets", "hex", "path", "choice", "assign"),  # LegalAction.needs
    *("roll", "hit", "miss", "damage", "move", "turn", "phase", "card", "status", "note", "action", "end"),
    *("end_turn", "auto_deploy", "back", "undo", "menu", "pause"),  # the bar's fixed buttons, key bindings
}
RULE_FREE = [
    *(
        f"game/ui/{name}.py"
        for name in ("combatlog", "tokens", "results", "session", "controller", "picking")
    ),
    *(str(p.relative_to(ROOT)) for p in sorted((ROOT / "game" / "ui").glob("battle*.py"))),
    "game/ui/action_bar.py",
    "game/ui/demo.py",
    "game/ui/help.py",
    "game/ui/pause.py",
    "game/ui/newbattle.py",
    "game/ui/library.py",
    "game/ui/flow.py",
    "game/ui/shell.py",
    "game/ui/settings.py",
    "game/cli.py",
    "game/stats.py",
    "game/battlefield.py",
    "game/resources.py",
    "game/mapcheck.py",
]


def _rule_words() -> set[str]:
    """Every id a ruleset uses that a screen could be tempted to name: the rulesets' ids and factions,
    the checks rolled, statuses shown or changed, removal reasons and action ids of whole battles."""
    words = {p.id for p in registry.plugins()}
    words |= {f.id for p in registry.plugins() for f in p.factions}
    words |= set(FRONTIER_STATUSES) | set(RIFT_STATUSES)
    for ruleset in ("frontier", "rift"):
        match = played(ruleset)
        for e in match.history:
            if isinstance(e, Roll):
                words.add(e.check)
            elif isinstance(e, StatusChanged):
                words.add(e.status)
            elif isinstance(e, UnitRemoved):
                words.add(e.reason)
        words |= {c.action for c in match.log}
    for rules in (get_ruleset("frontier"), get_ruleset("rift")):
        words |= set(rules.data.actions)  # type: ignore[attr-defined]  (each keeps its action table there)
    return words - CONTRACT_WORDS


def test_no_ruleset_words_in_the_screens_the_cli_or_the_core() -> None:
    words = _rule_words()
    assert {"frontier", "rift", "cool", "haymaker", "prone", "place_joker", "in_cover"} <= words
    found = []
    for name in RULE_FREE:
        tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words:
                found.append(f"{name}:{node.lineno} {node.value!r}")
    assert found == [], "rule knowledge outside game/rules (ask the match or the registry instead)"
