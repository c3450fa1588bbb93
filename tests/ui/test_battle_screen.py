"""The battle screen played by posted mouse and key events only (issue 5, "Proof"): a whole hotseat
battle of each ruleset from deployment to the end, with the hand-over cover between the players, undo of a
move, the end-turn check and the combat log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from game.engine.match import Match
from game.rules import get_ruleset
from game.rules.rift import RULESET as RIFT
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.battle_words import short_label as _short
from game.ui.dialogs import ConfirmDialog
from game.ui.gui import Shell
from game.ui.prefs import Prefs
from game.ui.session import BattleSession, latest_autosave
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.ui import battle_driver as bd
from tests.ui.helpers import click, move, press, step

ROOT = Path(__file__).resolve().parents[2]
RANCH = ROOT / "maps" / "ranch_duel.tmx"


def _rift_posses() -> list:  # type: ignore[type-arg]
    return [
        rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "gang_boss"),
    ]


def _frontier_posses() -> list:  # type: ignore[type-arg]
    return [fk.law("sheriff", "deputy", "hired_gun"), fk.outlaws("gang_leader", "outlaw", "dog")]


def _screen(app: App, ruleset: str, posses: list, tmp_path: Path) -> BattleScreen:  # type: ignore[type-arg]
    match = Match.create(RANCH, get_ruleset(ruleset), posses, 3)
    shell = Shell(prefs=Prefs(animation_speed=4.0))
    session = BattleSession(match, tmp_path / "autosaves")
    screen = BattleScreen(shell, session, load_tiled_map(RANCH), app.size)
    app.push(screen)
    step(app, 2)
    return screen


@pytest.mark.parametrize(
    ("ruleset", "posses"), [("rift", _rift_posses), ("frontier", _frontier_posses)], ids=["rift", "frontier"]
)
def test_a_whole_hotseat_battle_by_clicks_and_keys(
    make_app: Callable[..., App],
    tmp_path: Path,
    ruleset: str,
    posses: Callable[[], list],  # type: ignore[type-arg]
) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, ruleset, posses(), tmp_path)
    handovers = 0
    bd.zoom_to_fit(app, screen)
    steps = 0
    while screen.session.outcome is None:
        if screen.handover:
            handovers += 1
            # the board is hidden: no token is drawn while the cover is up
            assert screen.session.deciding_side() is not None
        bd.take_turn_step(app, screen)
        steps += 1
        assert steps < 3000
    outcome = screen.session.outcome
    assert outcome is not None and outcome.winner in ("side1", "side2")
    assert handovers > 0
    assert any(line.kind in ("hit", "miss") for line in screen.log)
    assert any(line.kind == "end" for line in screen.log)
    saved = latest_autosave(tmp_path / "autosaves")
    assert saved is not None
    assert BattleSession.load(saved).match.digest() == screen.match.digest()


def test_undo_takes_back_a_move_by_key_and_the_end_turn_check_asks(
    make_app: Callable[..., App], tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, "rift", _rift_posses(), tmp_path)
    bd.zoom_to_fit(app, screen)
    for _ in range(200):  # deploy and play on until a unit of the first player may move
        moves = [a for a in screen.actor_actions() if a.action == "move" and a.enabled]
        if moves and not screen.handover and screen.dice is None:
            break
        bd.take_turn_step(app, screen)
    move_action = next(a for a in screen.actor_actions() if a.action == "move" and a.enabled)
    before = screen.match.digest()
    click(app, bd.button_for(screen, move_action).center)
    target = move_action.hexes[0]
    move(bd.hex_pos(screen, target))
    step(app)
    assert screen.hovered.path and screen.hovered.path[-1] == target  # the path under the mouse
    click(app, bd.hex_pos(screen, target))
    assert screen.match.digest() != before
    press(app, pygame.K_u, frames=2)
    assert screen.match.digest() == before
    assert any("Undone" in line.text for line in screen.log)
    press(app, pygame.K_RETURN, frames=2)  # AP left: the screen asks first, in a dialog
    assert isinstance(app.top, ConfirmDialog)
    press(app, pygame.K_n, frames=2)
    assert app.top is screen and screen.match.digest() == before


def test_a_disabled_action_says_why(make_app: Callable[..., App], tmp_path: Path) -> None:
    app = make_app((1280, 720))
    screen = _screen(app, "rift", _rift_posses(), tmp_path)
    bd.zoom_to_fit(app, screen)
    for _ in range(200):
        if any(not a.enabled for _, a in screen.action_buttons) and not screen.handover:
            break
        bd.take_turn_step(app, screen)
    button, action = next((b, a) for b, a in screen.action_buttons if not a.enabled)
    assert action.reason and button.tool_tip_text.endswith(f"Not now: {action.reason}")


def test_short_labels_keep_the_verb_and_the_thing() -> None:
    assert _short('Fire Firearm ("Standard" MDTC Model 4 Pistol)') == "Fire: Model 4 Pistol"
    assert _short("Interact: Pick Up (Canteen)") == "Pick Up: Canteen"
    assert _short("Move") == "Move"
    assert _short('"Duck!"') == "Duck!"  # a label that is all quote keeps its words (found in the window)
    for action_id in RIFT.data.actions:  # every Rift action's name shortens to words
        label = RIFT.data.actions[action_id].name
        assert _short(label).strip(" :()"), label


@pytest.mark.parametrize(
    ("ruleset", "posses"), [("rift", _rift_posses), ("frontier", _frontier_posses)], ids=["rift", "frontier"]
)
def test_auto_deploy_places_the_deciding_posse_and_the_zone_is_in_view(
    make_app: Callable[..., App],
    tmp_path: Path,
    ruleset: str,
    posses: Callable[[], list],  # type: ignore[type-arg]
) -> None:
    """Issue 5: "Deployment on the map's deploy zones (click to place, or auto-deploy)"."""
    app = make_app((1280, 720))
    screen = _screen(app, ruleset, posses(), tmp_path)
    picker = screen.picker
    assert picker is not None and picker.action.action == "deploy"
    area = screen.layout.map
    shown = [h for h in picker.action.hexes if area.collidepoint(bd.hex_pos(screen, h))]
    assert shown, "the deploy zone is on screen when deployment starts"
    for side in ("side1", "side2"):
        if screen.handover:
            click(app, area.center)
        assert screen.session.deciding_side() == side
        button = screen.buttons["auto_deploy"]
        click(app, button.get_abs_rect().center)
        placed = [u for u in screen.match.units(side) if screen.match.position(u) is not None]
        assert placed == screen.match.units(side)
    assert "auto_deploy" not in screen.buttons or not any(
        a.action == "deploy" for a in screen.session.legal()
    )
