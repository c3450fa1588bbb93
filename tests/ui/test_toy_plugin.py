"""Issue 10's proof that a ruleset is a plugin: the toy ruleset (tests/toy_ruleset.py), installed the way a
package of its own would be (an entry point in ``hexslinger.rulesets``, tests/plugins.py), is offered by
New Battle and played to the end in the battle screen, by posted mouse and key events only, and its
results are shown. No file outside the toy knows it: the screens read the registry, the match and the
contract's words (every import below is the test's own or a screen's).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from game.engine import registry
from game.rules import PosseSpec, UnitSpec
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.flow import Flow
from game.ui.help import HelpScene
from game.ui.library import MAPS_DIR
from game.ui.newbattle import BattleSetup, NewBattleScene
from game.ui.results import ResultsScene
from tests.plugins import installed_plugin
from tests.ui.battle_driver import play_to_the_end
from tests.ui.flow_kit import ROOT, names, title_app
from tests.ui.helpers import click, make_shell, press, step

AppMaker = Callable[[tuple[int, int]], App]


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[None]:
    with installed_plugin(tmp_path / "site", "toy", "tests.toy_ruleset:PLUGIN"):
        yield


def _maps(tmp_path: Path) -> Path:
    """Showdown at the Lazy K as shipped (made for Frontier and Through the Rift) and a copy that names no
    ruleset (it suits every installed ruleset, the toy too)."""
    folder = tmp_path / "maps"
    folder.mkdir()
    for tsx in MAPS_DIR.glob("*.tsx"):
        shutil.copy(tsx, folder / tsx.name)
    (tmp_path / "assets").symlink_to(ROOT / "assets")
    text = (MAPS_DIR / "ranch_duel.tmx").read_text(encoding="utf-8")
    (folder / "ranch_duel.tmx").write_text(text, encoding="utf-8")
    line = '  <property name="rulesets" value="frontier,rift,golden"/>\n'
    assert line in text
    (folder / "ranch_open.tmx").write_text(text.replace(line, ""), encoding="utf-8")
    return folder


def _posse(side: str, name: str) -> PosseSpec:
    units = tuple(UnitSpec("toy", f"{name} {i}") for i in (1, 2))
    return PosseSpec(side, "toy", name, units)


def test_new_battle_offers_an_installed_ruleset_and_the_maps_that_suit_it(
    make_app: AppMaker, toy: None, tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    _title, flow = title_app(app, flow=Flow(make_shell(app), maps_dir=_maps(tmp_path)))
    app.apply(flow.new_battle())
    step(app, 2)
    screen = app.top
    assert isinstance(screen, NewBattleScene)
    assert [k for k in screen.buttons if k.startswith("ruleset_")] == [
        f"ruleset_{p.id}" for p in registry.plugins()
    ]
    assert screen.buttons["ruleset_toy"].text == "Toy Skirmish"
    assert [p.name for p in screen.maps] == ["ranch_duel.tmx", "ranch_open.tmx"]  # Frontier: both
    click(app, screen.buttons["ruleset_toy"].rect.center)
    assert screen.ruleset == "toy" and screen.buttons["ruleset_toy"].is_selected
    assert [p.name for p in screen.maps] == ["ranch_open.tmx"]  # the shipped map is not made for it
    click(app, screen.buttons["ruleset_frontier"].rect.center)
    assert screen.ruleset == "frontier" and [p.name for p in screen.maps] == [
        "ranch_duel.tmx",
        "ranch_open.tmx",
    ]


def test_a_plugin_ruleset_is_played_to_the_end_in_the_battle_screen(
    make_app: AppMaker, toy: None, tmp_path: Path
) -> None:
    """Started the way New Battle's Start starts a battle (Flow.start with the posses chosen), then played
    by clicks on the action bar and the map until a side wins; the results screen counts it."""
    app = make_app((1280, 720))
    maps = _maps(tmp_path)
    _title, flow = title_app(app, flow=Flow(make_shell(app), maps_dir=maps))
    setup = BattleSetup(
        "toy",
        (maps / "ranch_open.tmx").resolve(),
        [_posse("side1", "Reds"), _posse("side2", "Blues")],
        seed=4,
        seats={"side1": "human", "side2": "human"},
    )
    app.apply(flow.start(setup))
    step(app, 2)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    match = battle.session.match
    assert match.ruleset_name == "toy"

    press(app, pygame.K_F1, frames=2)  # the toy's own summary on the help page
    assert isinstance(app.top, HelpScene) and "Shoot (1 AP)" in app.top.boxes["rules"].html_text
    press(app, pygame.K_ESCAPE, frames=2)
    assert app.top is battle

    play_to_the_end(app, battle)
    outcome = battle.session.outcome
    assert outcome is not None and outcome.winner in ("side1", "side2")
    log = [line.text for line in battle.log]
    assert any("rolls shoot at" in text for text in log), log[-10:]
    assert any("is out of action and leaves the fight" in text for text in log), log[-10:]
    if battle.dice is not None:
        click(app, battle.layout.map.center)  # the last roll seen: the results come
    step(app, 4)
    results = app.top
    assert isinstance(results, ResultsScene), names(app)
    by_unit = {s.name: s for s in results.stats}
    assert sum(s.attacks for s in by_unit.values()) >= 2
    losers = [s for s in by_unit.values() if s.side != outcome.winner]
    assert losers and all(s.out == "out of action" for s in losers)
