"""A player at the battle screen who acts only by posted mouse and key events.

It looks at the screen the way a person does — the action bar's buttons (their text, whether they are
enabled), the marks on the map (targets, reachable tiles), the status line — and decides like a simple,
aggressive player: attack what an attack can reach (the preview says how well), else walk towards the
nearest foe, else end the turn. To click a tile it computes where the tile is drawn (the same geometry the
screen draws with); it zooms the map out first so the whole field is on screen.
"""

from __future__ import annotations

from fractions import Fraction

import pygame

from game.hexgrid import Hex, hex_distance
from game.rules import LegalAction
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import ConfirmDialog
from game.ui.picking import Picker
from tests.ui.helpers import click, move, post, press, step


def hex_pos(screen: BattleScreen, h: Hex) -> tuple[int, int]:
    x, y = screen.overlay.center(h)
    area = screen.layout.map
    return area.x + x, area.y + y


def zoom_to_fit(app: App, screen: BattleScreen) -> None:
    """Wheel out over the map until every tile is inside the map area."""
    area = screen.layout.map
    for _ in range(30):
        w, h = screen.tmap.geometry.map_pixel_size(screen.tmap.width, screen.tmap.height)
        zoom = screen.view.camera.zoom
        if w * zoom <= area.width - 10 and h * zoom <= area.height - 10:
            break
        move(area.center)
        post(pygame.MOUSEWHEEL, x=0, y=-1, precise_x=0.0, precise_y=-1.0, flipped=False)
        step(app)


def button_for(screen: BattleScreen, action: LegalAction) -> pygame.Rect:
    for button, a in screen.action_buttons:
        if a == action:
            return button.get_abs_rect()
    raise AssertionError(f"no button for {action.label}: {[a.label for _, a in screen.action_buttons]}")


def _foes(screen: BattleScreen, me: int) -> list[tuple[int, Hex]]:
    match = screen.match
    side = match.identity(me).side
    out = []
    for u in match.units():
        where = match.position(u)
        if match.identity(u).side != side and where is not None and not screen.unit_view(u).out:
            out.append((u, where))
    return out


def _best_attack(screen: BattleScreen, actions: list[LegalAction]) -> tuple[LegalAction, Hex] | None:
    """The enabled action and the tile to click that the preview rates best against a foe."""
    match = screen.match
    best: tuple[Fraction, LegalAction, Hex] | None = None
    for a in actions:
        if not a.enabled or a.needs not in ("", "target", "hex"):
            continue
        foes = dict(_foes(screen, a.actor))
        picker = Picker(match, a)
        if a.needs == "hex":
            spots = [h for h in a.hexes if h in foes.values()]
        else:
            spots = [match.position(t) for t in picker.reachable_targets() if t in foes]  # type: ignore[misc]
        for h in spots:
            if h is None:
                continue
            hover = picker.hover(h)
            if not hover.valid or hover.preview is None or hover.preview.expected_damage <= 0:
                continue
            friends = [u for u in hover.caught if match.identity(u).side == match.identity(a.actor).side]
            if friends:
                continue
            if best is None or hover.preview.expected_damage > best[0]:
                best = (hover.preview.expected_damage, a, h)
    return (best[1], best[2]) if best is not None else None


def _walk(screen: BattleScreen, actions: list[LegalAction]) -> tuple[LegalAction, Hex] | None:
    match = screen.match
    for a in actions:
        if not a.enabled or a.needs != "path" or a.action != "move":
            continue
        here = match.position(a.actor)
        foes = _foes(screen, a.actor)
        if here is None or not foes:
            return None
        goal = min(foes, key=lambda f: (hex_distance(f[1], here), f[0]))[1]
        end = min(a.hexes, key=lambda h: (hex_distance(h, goal), h))
        if hex_distance(end, goal) < hex_distance(here, goal):
            return a, end
    return None


def take_turn_step(app: App, screen: BattleScreen) -> None:
    """One decision, made by clicks and keys."""
    step(app)
    top = app.top
    if isinstance(top, ConfirmDialog):  # "End the turn?" while AP remain: yes
        press(app, pygame.K_y, frames=2)
        return
    assert top is screen, f"another screen is up: {type(top).__name__}"
    if screen.handover or screen.handover_pending:  # the cover, or the result shown before it
        click(app, screen.layout.map.center)
        return
    if screen.dice is not None:
        click(app, screen.layout.map.center)
        return
    if screen.controller.ending is not None:  # the battle's end on the board: on to the results
        click(app, screen.layout.map.center)
        return
    picker = screen.picker
    if picker is not None and picker.action.needs == "assign":
        if picker.command() is not None:
            press(app, pygame.K_RETURN, frames=2)  # every die assigned: fire them
            return
        target = picker.action.targets[0]
        where = screen.match.position(target)
        assert where is not None
        click(app, hex_pos(screen, where))
        return
    if screen.choice_buttons:  # a choice up as buttons (the Joker's place): the first
        click(app, screen.choice_buttons[0][0].get_abs_rect().center)
        return
    if picker is not None and picker.action.action == "deploy":
        free = list(picker.action.hexes)
        click(app, hex_pos(screen, free[0]))
        return
    actions = screen.actor_actions()
    passing = next((a for a in actions if a.action == "pass"), None)
    if passing is not None:
        click(app, button_for(screen, passing).center)
        return
    choice = next((a for a in actions if a.enabled and a.needs == "choice"), None)
    if choice is not None:
        click(app, button_for(screen, choice).center)
        if screen.choice_buttons:
            click(app, screen.choice_buttons[0][0].get_abs_rect().center)
        return
    attack = _best_attack(screen, actions)
    if attack is not None:
        action, h = attack
        click(app, button_for(screen, action).center)
        click(app, hex_pos(screen, h))
        return
    walk = _walk(screen, actions)
    if walk is not None:
        action, h = walk
        click(app, button_for(screen, action).center)
        click(app, hex_pos(screen, h))
        return
    if not any(a.ends_turn for a in actions):
        # a decision that cannot be put off (draw a card, place the Joker): take the first offered
        forced = next((a for a in actions if a.enabled), None)
        assert forced is not None, f"nothing to do: {[a.label for a in actions]}"
        click(app, button_for(screen, forced).center)
        picker = screen.picker
        if picker is not None and picker.action == forced:
            if forced.hexes:
                click(app, hex_pos(screen, forced.hexes[0]))
            elif forced.targets:
                where = screen.match.position(forced.targets[0])
                assert where is not None
                click(app, hex_pos(screen, where))
        return
    end = screen.buttons.get("end_turn")
    assert end is not None
    click(app, end.get_abs_rect().center)


def play_to_the_end(app: App, screen: BattleScreen, limit: int = 3000) -> int:
    zoom_to_fit(app, screen)
    steps = 0
    while screen.session.outcome is None:
        before = len(screen.match.log)
        take_turn_step(app, screen)
        steps += 1
        assert steps < limit, f"the battle did not end: {screen.message}"
        if len(screen.match.log) == before and steps % 50 == 0:
            step(app, 2)
    return steps
