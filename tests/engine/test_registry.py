"""The ruleset registry: plugins through the ``hexslinger.rulesets`` entry-point group."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.engine import registry
from game.engine.match import Match
from game.engine.protocol import PosseSpec, UnitSpec
from tests.plugins import installed_plugin
from tests.rules.frontier_kit import RANCH
from tests.toy_ruleset import RULESET as TOY


def _toy_posse(side: str) -> PosseSpec:
    return PosseSpec(side, "toy", f"Toys {side}", (UnitSpec("toy"), UnitSpec("toy")))


def test_the_shipped_rulesets_are_plugins_in_menu_order() -> None:
    ids = registry.ruleset_ids()
    assert ids[:2] == ["frontier", "rift"]
    assert registry.plugin("rift").title == "Through the Rift"
    assert {f.id for f in registry.plugin("frontier").factions} == {"the_law", "the_outlaws"}
    assert registry.problems() == []


def test_a_ruleset_installed_as_a_plugin_is_found_and_plays(tmp_path: Path) -> None:
    assert "toy" not in registry.ruleset_ids()
    with installed_plugin(tmp_path, "toy", "tests.toy_ruleset:PLUGIN"):
        assert "toy" in registry.ruleset_ids()
        rules = registry.get_ruleset("toy")
        assert rules is TOY
        match = Match.create(RANCH, rules, [_toy_posse("side1"), _toy_posse("side2")], 3)
        for cmd in match.auto_deploy():
            match.apply(cmd)
        assert all(match.position(u) is not None for u in match.units())
    assert "toy" not in registry.ruleset_ids()


def test_a_broken_plugin_is_left_out_with_its_problem(tmp_path: Path) -> None:
    with installed_plugin(tmp_path, "broken", "tests.no_such_module:PLUGIN", dist="broken_plugin"):
        assert "broken" not in registry.ruleset_ids()
        assert any("broken" in p and "failed to load" in p for p in registry.problems())
        assert registry.ruleset_ids()[:2] == ["frontier", "rift"]  # the others still load


def test_a_plugin_that_is_not_a_ruleset_plugin_is_refused(tmp_path: Path) -> None:
    with installed_plugin(tmp_path, "odd", "tests.toy_ruleset:RULESET", dist="odd_plugin"):
        assert "odd" not in registry.ruleset_ids()
        assert any("not a RulesetPlugin" in p for p in registry.problems())


def test_an_unknown_ruleset_names_the_known_ones() -> None:
    with pytest.raises(registry.UnknownRulesetError, match="known rulesets: frontier, rift, golden"):
        registry.plugin("sunset")
