"""Every action says what it does (issue 13): "the tooltip of each action (Take Cover, Sprint, Shout Order,
Hold Fire, Deploy Cover, Covering Fire, ...) gives its cost and the rulebook's sentence, from the
ruleset's data; talents in the posse builder show their text, not their name twice; the Rift F1 page
explains every action as the Frontier one does"."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from game.engine.match import Match
from game.engine.protocol import DEPLOY
from game.posses import default_posses
from game.rules import get_ruleset
from tests.rules import frontier_kit, golden_kit, rift_kit
from tests.ui import battle_driver as bd
from tests.ui.helpers import click, move, step
from tests.ui.test_battle_decisions import _screen
from tests.ui.test_posse_screen import builder, choice, press_widget, tooltip_text  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"
BOOKS = {"frontier": "001", "rift": "003", "golden": "000"}
DATA = {r: ROOT / "game" / "rules" / r / f"{r}.toml" for r in BOOKS}
PLAYERS: dict[str, Callable[[Match], Any]] = {
    "frontier": frontier_kit.aggressive_command,
    "rift": rift_kit.aggressive_command,
    "golden": golden_kit.aggressive_command,
}


def _normal(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "").replace("_", "")).strip()


def _book(ruleset: str) -> str:
    found = sorted(SEEDS.glob(f"{BOOKS[ruleset]}_*.txt"))
    if not found:
        pytest.skip(f"the rulebooks are not at {SEEDS}")
    return _normal(found[0].read_text(encoding="utf-8"))


@pytest.mark.parametrize("ruleset", sorted(BOOKS))
def test_every_action_text_is_the_rulebooks_words_or_says_it_is_hexslingers_own(ruleset: str) -> None:
    book = _book(ruleset)
    data: Any = get_ruleset(ruleset).data  # type: ignore[attr-defined]
    assert data.actions
    for action in data.actions.values():
        text = action.text
        if text.startswith("Hexslinger's own"):
            continue
        assert _normal(text) in book, (action.id, text)
    for talent in getattr(data, "talents", {}).values():
        assert talent.text and _normal(talent.text) in book, talent.id


@cache
def _offered(ruleset: str) -> dict[str, str]:
    """Every action offered in a whole battle of the default posses, with its rule from the match."""
    drafts = default_posses(ruleset)
    posses = [drafts[0].spec(side="side1"), drafts[1].spec(side="side2")]
    match = Match.create(ROOT / "maps" / "ranch_duel.tmx", get_ruleset(ruleset), posses, 3)
    seen: dict[str, str] = {}
    for _ in range(3000):
        if match.is_over:
            break
        for a in match.legal_actions():
            seen[a.action] = match.action_rule(a.action)
        match.apply(PLAYERS[ruleset](match))
    return seen


@pytest.mark.parametrize("ruleset", sorted(BOOKS))
def test_every_action_offered_in_a_battle_has_its_rule(ruleset: str) -> None:
    seen = _offered(ruleset)
    assert len(seen) >= 5
    missing = sorted(a for a, rule in seen.items() if not rule and a != DEPLOY)
    assert missing == []


def test_an_action_button_tooltip_gives_its_cost_and_the_rulebooks_sentence(
    make_app: Callable[..., Any], tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    m = frontier_kit.new_match(
        frontier_kit.open_map(tmp_path, width=16, height=9),
        frontier_kit.law("deputy"),
        frontier_kit.outlaws("outlaw"),
    )
    frontier_kit.deploy(m)
    deputy, outlaw = frontier_kit.unit(m, "side1"), frontier_kit.unit(m, "side2")
    frontier_kit.place(m, deputy, frontier_kit.at(3))
    frontier_kit.place(m, outlaw, frontier_kit.at(9))
    frontier_kit.give_turn(m, deputy)
    screen = _screen(app, m, tmp_path / "test.tmx", tmp_path)
    for wanted, sentence in (
        ("take_cover", "If the Unit is behind any kind of cover"),
        ("shoot", "The Unit makes a Ranged Weapon attack."),
    ):
        action = next(a for a in screen.actor_actions() if a.action == wanted)
        button = bd.button_for(screen, action)
        move(button.center)
        step(app, 40)  # the tooltip delay
        found = next(b for b, a in screen.action_buttons if a == action)
        assert found.tool_tip is not None
        html: str = found.tool_tip.text_block.html_text  # type: ignore[attr-defined]
        assert f"{action.cost} AP" in html
        rule = m.action_rule(wanted)
        assert rule.startswith(sentence[:20]) and rule[:40] in html
        move((2, 2))
        step(app, 2)


def test_talents_in_the_posse_builder_show_their_text(builder: Any) -> None:  # noqa: F811
    """Pugilist used to read "Grapple, Haymaker"; Quick Draw "Quick Draw" (its name twice)."""
    app, scene, _done = builder("rift")
    press_widget(app, scene, scene.kind_buttons["rifter"])
    click(app, scene.tab_buttons["talents"].rect.center)
    pugilist = tooltip_text(app, scene, choice(scene, "talents", "pugilist"))
    assert "picked up a few tricks for fighting unarmed" in pugilist
    assert "Grapple (1 AP): Overwhelm an enemy within 0t." in pugilist
    quick = tooltip_text(app, scene, choice(scene, "talents", "quick_draw"))
    assert "At the beginning of a combat encounter, you always act first." in quick
    assert quick.count("Quick Draw") == 1  # its name once (the heading), then its text
