"""The battle screen: the map with tokens and aiming marks, the initiative tracker, the unit panel, the
action bar, the combat log, dice, floating damage, the hotseat hand-over cover and the end-turn check.

It knows no rule, and little of the battle either: this module decodes mouse and keys and wires the parts.
What is selected and aimed, the commands, the hand-over, undo and what the bar and status line say are the
headless :class:`~game.ui.controller.BattleController`'s (events it turns into log lines, dice and floaters
in :class:`~game.ui.battle_feed.BattleFeed`); the map and what lies on it are drawn by
:class:`~game.ui.battle_board.BattleBoard`, the tracker, status line, prompt banner and hand-over cover by
:class:`~game.ui.battle_hud.BattleHud`, and the panel and action bar widgets built by
:class:`~game.ui.battle_widgets.BattleWidgets`. Everything the controller does is a command handed to the
:class:`~game.ui.session.BattleSession`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import pygame
import pygame_gui

from game.commands import Command
from game.engine.match import Match
from game.engine.protocol import DEPLOY
from game.hexgrid import Hex
from game.rules import LegalAction, Prompt, UnitView
from game.tiledmap import TiledMap
from game.ui import settings
from game.ui.battle_board import BattleBoard
from game.ui.battle_feed import DiceShow, Floater
from game.ui.battle_hud import BattleHud, Layout
from game.ui.battle_widgets import BattleWidgets
from game.ui.battle_words import esc
from game.ui.camera import fitting_zoom
from game.ui.combatlog import LogLine
from game.ui.controller import BattleController
from game.ui.dialogs import ConfirmDialog, MessageDialog
from game.ui.end_board import draw_end
from game.ui.gm_panel import GmPanel
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton
from game.ui.held_pan import HeldPan
from game.ui.help import HelpScene
from game.ui.live_battle import LiveBattle
from game.ui.live_map import keep_camera, set_window_title, window_title
from game.ui.mapview import MapView
from game.ui.overlay import Overlay
from game.ui.picking import Hover, Picker
from game.ui.pilot import AiFailure
from game.ui.scenes import Action, Pop, Push
from game.ui.seats import seat_label
from game.ui.session import BattleSession

__all__ = ["BattleScreen", "Layout"]

NUMBER_KEYS = [pygame.K_1 + i for i in range(9)]
SKIP_KEYS = (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER)  # hurry a computer player along
SPECTATOR_KEYS = (pygame.K_p, pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET)  # pause, slower, faster


class BattleScreen(GuiScene):
    """One battle in the window (see the module text)."""

    def __init__(
        self,
        shell: Shell,
        session: BattleSession,
        tmap: TiledMap,
        size: tuple[int, int] = settings.WINDOW_SIZE,
        *,
        on_over: Callable[[BattleSession], Action] | None = None,
        on_menu: Callable[[BattleScreen], Action | None] | None = None,
        side_names: dict[str, str] | None = None,
    ) -> None:
        super().__init__(shell, size)
        self.session = session
        self.tmap = tmap
        self.on_over = on_over
        self.on_menu = on_menu
        self.layout = Layout(size, 1.0)
        self.view = MapView(tmap, self.layout.map.size)
        self.mouse: tuple[int, int] | None = None
        self.drag_from: tuple[int, int] | None = None
        self.dragged = False
        self.drag_die: int | None = None  # a hit die being dragged from the tray onto a target
        self.drag_die_moved = False
        self._hovered_for: object = None
        self._widgets_for: object = None
        self._viewed = False  # the opening view has been set (first_view)
        self._ahead = True  # map chunks not in view are still to be built ahead (MapView.build_ahead)
        self._seen_last: object = None  # what the last frame showed (see update)
        self.panning = HeldPan()  # the pan keys held down (the map scrolls while they are)
        self.controller = BattleController(
            session,
            side_names,
            play=shell.play,
            centre_on=self.centre_on,
            centre_on_hexes=self.centre_on_hexes,
            show_hexes=self.show_hexes,
        )
        self.board = BattleBoard(self.controller, tmap, self.view, self.layout)
        self.hud = BattleHud(self.controller, self.layout)
        self.widgets = BattleWidgets(self, self.controller)
        self.gm = GmPanel(self)  # GM mode (issue 15, the sandbox): game.ui.gm_panel
        self.live = LiveBattle(self)  # the map followed on disk, brought in in GM mode: game.ui.live_battle

    # -- the controller's state, read (and by tools set) through the screen ----------------------------
    @property
    def match(self) -> Match:
        return self.session.match

    @property
    def side_names(self) -> dict[str, str]:
        return self.controller.side_names

    @property
    def sides(self) -> list[str]:
        return self.controller.sides

    @property
    def selected(self) -> int | None:
        return self.controller.selected

    @selected.setter
    def selected(self, unit: int | None) -> None:
        self.controller.selected = unit

    @property
    def inspected(self) -> int | None:
        return self.controller.inspected

    @property
    def picker(self) -> Picker | None:
        return self.controller.picker

    @property
    def hovered(self) -> Hover:
        return self.controller.hovered

    @property
    def message(self) -> str:
        return self.controller.message

    @message.setter
    def message(self, text: str) -> None:
        self.controller.message = text

    @property
    def handover(self) -> bool:
        return self.controller.handover

    @handover.setter
    def handover(self, up: bool) -> None:
        self.controller.handover = up

    @property
    def handover_pending(self) -> bool:
        return self.controller.handover_pending

    @property
    def log(self) -> list[LogLine]:
        return self.controller.feed.log

    @property
    def floaters(self) -> list[Floater]:
        return self.controller.feed.floaters

    @property
    def dice(self) -> DiceShow | None:
        return self.controller.feed.dice

    def prompt(self) -> Prompt | None:
        return self.controller.prompt()

    def actor_actions(self) -> list[LegalAction]:
        return self.controller.actor_actions()

    def unit_view(self, unit: int) -> UnitView:
        return self.controller.unit_view(unit)

    def send(self, command: Command) -> bool:
        return self.controller.send(command)

    def choose(self, action: LegalAction) -> None:
        self.controller.choose(action)

    # -- the parts' answers ----------------------------------------------------------------------------
    @property
    def overlay(self) -> Overlay:
        return self.board.overlay

    @property
    def buttons(self) -> dict[str, pygame_gui.elements.UIButton]:
        return self.widgets.buttons

    @property
    def action_buttons(self) -> list[tuple[pygame_gui.elements.UIButton, LegalAction]]:
        return self.widgets.action_buttons

    @property
    def choice_buttons(self) -> list[tuple[TipButton, str]]:
        return self.widgets.choice_buttons

    @property
    def status_chips(self) -> list[tuple[TipButton, str]]:
        return self.widgets.status_chips

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        return self.board.hex_at(pos)

    def token_spots(self, h: Hex) -> list[tuple[int, tuple[float, float]]]:
        return self.board.token_spots(h)

    def tray_dice(self) -> list[pygame.Rect]:
        return self.board.tray_dice()

    def banner_rect(self) -> pygame.Rect | None:
        return self.hud.banner_rect()

    # -- camera -----------------------------------------------------------------------------------------
    def centre_on(self, unit: int) -> None:
        where = self.session.match.position(unit)
        if where is None:
            return
        x, y = self.tmap.geometry.hex_center(where)
        cam = self.view.camera
        cam.center_x, cam.center_y = x, y
        cam.clamp()

    def centre_on_hexes(self, hexes: tuple[Hex, ...]) -> None:
        """Show a group of tiles (a deploy zone) whole: the camera on the middle of the box around them,
        zoomed out as far as needed for every one to be on screen, and for every posse's deploy zone
        too (never in past the usual 1:1)."""
        if not hexes:
            return
        geometry = self.tmap.geometry
        points = [geometry.hex_center(h) for h in hexes]
        left, right = min(x for x, _ in points), max(x for x, _ in points)
        top, bottom = min(y for _, y in points), max(y for _, y in points)
        cam = self.view.camera
        # every zone at the zoom that shows the largest whole: the battle keeps the zoom it opened at (the
        # map drawn ahead when it opened serves its whole deployment and its first turns; issue 13)
        zones = [hexes, *self.match.battlefield.deploy_zones.values()]
        cam.zoom = max(cam.min_zoom, min(self._zone_zoom(zone) for zone in zones if zone))
        cam.center_x, cam.center_y = (left + right) / 2, (top + bottom) / 2
        cam.clamp()

    def _zone_zoom(self, hexes: Iterable[Hex]) -> float:
        """The zoom that shows ``hexes`` whole (never in past the usual 1:1)."""
        geometry = self.tmap.geometry
        points = [geometry.hex_center(h) for h in hexes]
        left, right = min(x for x, _ in points), max(x for x, _ in points)
        top, bottom = min(y for _, y in points), max(y for _, y in points)
        box = (right - left + geometry.tile_width, bottom - top + geometry.tile_height)
        cam = self.view.camera
        return min(1.0, fitting_zoom(box, (cam.view_w, cam.view_h), margin=8))

    def first_view(self) -> None:
        """Where the camera starts when the battle opens (new or loaded): the deploy zone being filled,
        whole, else the unit whose decision it is."""
        c = self.controller
        if c.picker is not None and c.picker.action.action == DEPLOY:
            self.centre_on_hexes(c.picker.action.hexes)
        elif c.selected is not None:
            self.centre_on(c.selected)

    def show_hexes(self, hexes: tuple[Hex, ...]) -> None:
        """Bring tiles into view (what a computer player is about to do): the camera moves to their middle
        only when one of them is off the map area or so near its edge that its token would be cut."""
        cam = self.view.camera
        geometry = self.tmap.geometry
        margin = round(max(geometry.tile_width, geometry.tile_height) * cam.zoom * 0.6) + 4
        points = [geometry.hex_center(h) for h in hexes]
        for px, py in points:
            x, y = cam.map_to_screen(px, py)
            if not (margin <= x <= cam.view_w - margin and margin <= y <= cam.view_h - margin):
                # the middle of the box around them (a mean would lean towards where most of them are)
                cam.center_x = (min(p[0] for p in points) + max(p[0] for p in points)) / 2
                cam.center_y = (min(p[1] for p in points) + max(p[1] for p in points)) / 2
                cam.clamp()
                return

    def swap_map(self, tmap: TiledMap) -> None:
        """Draw ``tmap`` from now on (the map reloaded from disk): the camera where it was."""
        old = self.view
        self.tmap = tmap
        self.view = MapView(tmap, self.layout.map.size)
        keep_camera(old, self.view)
        self.board = BattleBoard(self.controller, tmap, self.view, self.layout)
        self._ahead = True
        self.controller.stale = True

    def revealed(self) -> None:
        """On top again (or opened): the window's title is the map's."""
        super().revealed()
        if self.session.match.map_path is not None:
            set_window_title(window_title(self.tmap, self.session.match.map_path))

    def closed(self) -> None:
        super().closed()
        self.live.close()
        set_window_title(settings.WINDOW_TITLE)

    # -- widgets ----------------------------------------------------------------------------------------
    def _needed_layout(self) -> Layout:
        """The layout for the buttons up now: the action bar takes rows from the map when its labels need
        them (issue 13: no label cut)."""
        return Layout(self.size, self.scale, self.widgets.bar_extra(Layout(self.size, self.scale)))

    def _lay_out(self, lay: Layout | None = None) -> None:
        self.layout = lay if lay is not None else self._needed_layout()
        self.board.layout = self.hud.layout = self.layout
        self.view.resize(self.layout.map.size)

    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)  # builds the widgets for the new size (and with them the layout)
        self._lay_out()
        self.widgets.update_panels()  # the panel's texts now: a dialog over the battle keeps it from updating

    def build(self, manager: GuiManager) -> None:
        self._lay_out()
        if not self._viewed:  # the map area's size is known now: the opening view
            self._viewed = True
            self.first_view()
            self.revealed()  # the window's title: the map's
        fixed = {
            "end_turn": self.end_turn,
            "auto_deploy": self.controller.auto_deploy,
            "back": self.controller.cancel_aim,
            "undo": self.controller.undo,
            "menu": self.open_menu,
        }
        self.widgets.build(manager, self.layout, fixed)
        self.gm.build(manager)
        # what the battle will show drawn ahead while it opens (issue 13): every unit's bar buttons and
        # the map's chunks around the view, as far as the opening's budget goes; the rest in quiet frames
        self._ahead = self.widgets.foresee(settings.OPEN_FORESEE_MS)
        self._ahead = self.view.build_ahead(settings.OPEN_AHEAD_MS) or self._ahead
        self._widgets_for = self.controller.widget_key()
        self.controller.stale = False

    def refresh_widgets(self) -> None:
        """After a change, the widgets updated in place when only their texts, states, the bar's buttons
        and its height changed, else built again (issue 13: the first frame after a command within its
        budget)."""
        key = self.controller.widget_key()
        if self.controller.stale or self._widgets_for != key:
            lay = self._needed_layout()  # the bar's height: the most this battle's bars have needed
            if self.manager is not None and self.widgets.refresh(lay):
                if lay != self.layout:
                    self._lay_out(lay)
                self._widgets_for = key
                self.controller.stale = False
            else:
                self.rebuild()

    # -- what the screen itself decides ------------------------------------------------------------------
    def end_turn(self, *, confirmed: bool = False) -> None:
        """End the turn; while AP remain and something could still be done, ask first (a dialog)."""
        end = self.controller.end_action()
        if end is None:
            return
        question = None if confirmed else self.controller.end_turn_question()
        if question is not None:
            dialog = ConfirmDialog(
                self.shell,
                "End the turn?",
                question,
                yes="End turn (Y)",
                no="Keep going (N)",
                on_yes=self._end_confirmed,
                size=self.size,
            )
            self.act(Push(dialog))
            return
        self.send(end.command())

    def _end_confirmed(self) -> Action:
        self.end_turn(confirmed=True)
        return Pop()

    def failure_dialog(self, failure: AiFailure) -> MessageDialog:
        """What a failed computer player did wrong, and that its side is a human's now."""
        name = esc(self.side_names.get(failure.side, failure.side))
        text = (
            f"The computer player of <b>{name}</b> ({esc(seat_label(failure.seat))}) stopped: "
            f"{esc(failure.reason)}.<br><br>"
            f"<b>{name}</b> is played by a human from here on: the board waits for your orders. "
            "The battle is autosaved as it stood before the failed decision (nothing of it was played)."
        )
        return MessageDialog(self.shell, "The computer player failed", text, size=self.size)

    def open_help(self) -> None:
        """F1: the ruleset's summary of a turn and the keys (the pause menu's Help page)."""
        self.act(Push(HelpScene(self.shell, self.match.ruleset_title, self.match.rules_summary(), self.size)))

    def open_menu(self) -> None:
        if self.on_menu is not None:
            action = self.on_menu(self)
            if action is not None:
                self.act(action)

    # -- events -------------------------------------------------------------------------------------------
    def _tray_event(self, event: pygame.event.Event) -> bool:
        """Dragging (or clicking) a die of the tray; True when the event was the tray's."""
        c = self.controller
        if c.picker is None or c.picker.action.needs != "assign":
            self.drag_die = None
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, rect in enumerate(self.board.tray_dice()):
                if rect.collidepoint(event.pos):
                    self.drag_die, self.drag_die_moved = i, False
                    return True
            return False
        if self.drag_die is None:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if not any(r.collidepoint(event.pos) for r in self.board.tray_dice()):
                self.drag_die_moved = True
            self._hover(self.board.hex_at(event.pos))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            die, self.drag_die = self.drag_die, None
            h = self.board.hex_at(event.pos)
            c.drop_die(die, h, self.board.token_at(event.pos), moved=self.drag_die_moved)
            self._hover(h)
            return True
        return False

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        c = self.controller
        if self.gm.on_event(event, consumed):  # GM mode's keys and clicks (game.ui.gm_panel)
            return self._take()
        clicked = event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)
        if clicked and self.live.hides_map() and self.layout.map.collidepoint(event.pos):
            return None  # the map's problems are shown in its place: no click reaches the hidden map
        if c.handover:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN) and not consumed:
                if event.type == pygame.KEYDOWN and event.key not in (pygame.K_RETURN, pygame.K_SPACE):
                    return None
                c.take_seat()
            return None
        if c.handover_pending:
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                c.feed.skip()  # a click or key skips to the cover
            elif event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
            return None
        if c.pilot.active and not consumed:
            if event.type == pygame.KEYDOWN and event.key in SKIP_KEYS:
                c.pilot.skip()  # the computer's waits and dice
                return None
            if event.type == pygame.KEYDOWN and c.session.spectating() and event.key in SPECTATOR_KEYS:
                if event.key == pygame.K_p:
                    c.pilot.toggle_pause()
                else:
                    c.pilot.faster(1 if event.key == pygame.K_RIGHTBRACKET else -1)
                return None
            left = event.type == pygame.MOUSEBUTTONDOWN and event.button == 1
            if left and self.layout.map.collidepoint(event.pos):
                c.pilot.skip()
        if c.feed.dice is not None and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            c.feed.dice = None  # skip the animation
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                return None
            if c.ending is not None:
                return None  # the press that skips the last roll does not also leave the end's board
        if c.ending is not None and c.feed.dice is None and not consumed and self._end_event(event):
            return None
        if self._tray_event(event):  # the tray lies on the action bar's panel: its clicks are the tray's
            return None
        area = self.layout.map
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            held = self.drag_from is not None and (event.buttons[0] or event.buttons[1])
            if held and not consumed and (self.dragged or math.dist(self.drag_from or (0, 0), event.pos) > 6):
                self.dragged = True
                self.view.camera.pan_screen(*event.rel)
            self._hover(self.board.hex_at(event.pos))
        elif event.type == pygame.MOUSEBUTTONDOWN and not consumed:
            if event.button in (1, 2) and area.collidepoint(event.pos):
                self.drag_from, self.dragged = event.pos, event.button == 2
        elif event.type == pygame.MOUSEBUTTONUP and not consumed:
            was_drag = self.dragged
            self.drag_from, self.dragged = None, False
            mark = self.board.edge_mark_at(event.pos) if not was_drag and event.button == 1 else None
            if mark is not None:  # an off-screen target's edge mark: bring it into view
                self.centre_on(mark.unit)
                self._hover(self.board.hex_at(event.pos))
            elif not was_drag and event.button in (1, 3) and area.collidepoint(event.pos):
                c.click_map(self.board.hex_at(event.pos), self.board.token_at(self.mouse), event.button)
        elif event.type == pygame.MOUSEWHEEL and self._over(self.widgets.log_rect()):
            self.widgets.scroll_log(event.y * 3)
        elif (
            event.type == pygame.MOUSEWHEEL
            and self.mouse is not None
            and self._over(self.widgets.unit_rect())
        ):
            self.widgets.scroll_unit(-event.y)
        elif event.type == pygame.MOUSEWHEEL and self.mouse is not None and area.collidepoint(self.mouse):
            self.view.zoom_by(event.y, (self.mouse[0] - area.x, self.mouse[1] - area.y))
            self._hover(self.board.hex_at(self.mouse))
        elif event.type == pygame.KEYDOWN:
            action = self._key(event)
            return action if action is not None else self._take()
        elif event.type == pygame.KEYUP:
            self.panning.release(event.key)
        elif event.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWLEAVE):
            self.panning.clear()  # a key let go outside the window sends no KEYUP here
        return None

    def _over(self, rect: pygame.Rect | None) -> bool:
        return rect is not None and self.mouse is not None and rect.collidepoint(self.mouse)

    def _end_event(self, event: pygame.event.Event) -> bool:
        """The battle's end on the board: a click on the map (not a drag), Enter or Space moves on to the
        results; True when the event did."""
        moving_on = event.type == pygame.KEYDOWN and event.key in (
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
            pygame.K_SPACE,
        )
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1 and not self.dragged:
            moving_on = self.layout.map.collidepoint(event.pos)
        if moving_on:
            self.controller.see_end()
        return moving_on

    def _binding(self, name: str) -> int | None:
        key = self.shell.prefs.key_bindings.get(name)
        if not key:
            return None
        try:
            return int(pygame.key.key_code(key))
        except ValueError:
            return None

    def _key(self, event: pygame.event.Event) -> Action | None:
        c = self.controller
        key = event.key
        if key == self._binding("help") or key == pygame.K_F1:
            self.open_help()
        elif key == self._binding("pause"):
            if c.escape():
                self.open_menu()
        elif key == self._binding("end_turn"):
            if not c.confirm():
                self.end_turn()
        elif key == self._binding("undo") or (key == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            c.undo()
        elif key == self._binding("center_unit") and c.selected is not None:
            self.centre_on(c.selected)
        elif key == pygame.K_TAB:
            c.next_actor()
        elif key == pygame.K_BACKSPACE and c.picker is not None and c.picker.has_picks:
            c.take_back()
        elif key in NUMBER_KEYS:
            c.number(NUMBER_KEYS.index(key))
        elif key == self._binding("zoom_in"):
            self.view.zoom_by(1, (self.view.camera.view_w // 2, self.view.camera.view_h // 2))
        elif key == self._binding("zoom_out"):
            self.view.zoom_by(-1, (self.view.camera.view_w // 2, self.view.camera.view_h // 2))
        elif key == self._binding("zoom_reset"):
            self.view.set_zoom(1.0)
        else:
            direction = self._pan_direction(key)
            if direction is not None:  # held, it scrolls in update(); pressed, a nudge now
                self.panning.press(key, direction, self.view.camera)
        return None

    def _pan_direction(self, key: int) -> tuple[int, int] | None:
        """The way a pan key moves the map picture (its bound key or an arrow), None for another key."""
        pans = {"pan_left": (1, 0), "pan_right": (-1, 0), "pan_up": (0, 1), "pan_down": (0, -1)}
        arrows = {pygame.K_LEFT: "pan_left", pygame.K_RIGHT: "pan_right", pygame.K_UP: "pan_up"}
        arrows[pygame.K_DOWN] = "pan_down"
        for name, direction in pans.items():
            if key == self._binding(name) or arrows.get(key) == name:
                return direction
        return None

    def _hover_key(self) -> object:
        """What the hover depends on: the controller's part (the match, the action aimed, its picks), the
        camera and the pointer (a change of any of them makes the shown odds stale)."""
        cam = self.view.camera
        return (self.controller.hover_key(), cam.scroll, cam.zoom, self.mouse)

    def _hover(self, h: Hex | None) -> None:
        self._hovered_for = self._hover_key()
        area = self.layout.map
        if self.mouse is not None and area.collidepoint(self.mouse):
            self.view.set_hover_screen(self.mouse[0] - area.x, self.mouse[1] - area.y)
        else:
            self.view.hover = None
        self.controller.hover(h, self.board.token_at(self.mouse) if h is not None else None)

    # -- frame ----------------------------------------------------------------------------------------------
    def animating(self) -> bool:
        """Dice or damage being shown, the cover about to come, a computer player at work, a drag, map
        pictures still being built (in view, or ahead of the camera): the window keeps its full frame
        rate."""
        c = self.controller
        return (
            c.feed.busy
            or c.handover_pending
            or c.pilot.active
            or self.drag_from is not None
            or self.drag_die is not None
            or self.view.pending > 0
            or self._ahead
            or self.view.ahead_left  # a zoom since the last quiet frame: its chunks are still to build
            or self.live.animating()
        )

    def update(self, dt: float) -> Action | None:
        self.panning.scroll(self.view.camera, dt)
        self.live.update()
        if self.controller.advance(dt, self.shell.prefs.animation_speed) and self.on_over is not None:
            return self.on_over(self.session)
        failed = self.controller.pilot.unseen
        if failed:
            return Push(self.failure_dialog(failed.pop(0)))
        if self._hover_key() != self._hovered_for:
            self._hover(self.board.hex_at(self.mouse) if self.mouse is not None else None)
        # the camera, the pointer and the match as the last frame had them, and no command since
        seen, self._seen_last = self._seen_last, (self._hover_key(), self.controller.widget_key())
        still = seen == self._seen_last and not self.controller.stale
        self.gm.refresh()
        self.refresh_widgets()
        self.widgets.update_panels()
        action = super().update(dt)
        if still and self.drag_from is None and not self.view.pending:  # a frame with nothing to show anew
            self._ahead = self.widgets.foresee(settings.AHEAD_BUDGET_MS)
            self._ahead = self.view.build_ahead() or self._ahead
        return action

    def settle(self) -> None:
        self.widgets.update_panels()  # their texts first: under a dialog this screen gets no update()
        super().settle()

    def draw(self, surface: pygame.Surface) -> None:
        manager = self.ensure_built()
        if self._fresh:
            self.settle()
        covered = self.controller.handover
        surface.fill(settings.VOID_COLOR)
        self.board.draw_map(surface)
        self.hud.draw_tracker(surface)
        self.hud.draw_status(surface)  # under the widgets: a tooltip may hang over the status line
        if not covered:
            self.board.draw_tray(surface, self.drag_die, self.drag_die_moved)
        if self.live.hides_map():
            self.live.draw(surface)
        manager.draw_ui(surface)
        self.gm.draw(surface)
        if not self.live.hides_map():
            self.live.draw(surface)
        banner = None
        if not covered:
            banner = self.hud.draw_banner(surface)
        if self.controller.feed.dice is not None and not covered:
            self.board.draw_dice(surface, below=banner)
        elif self.controller.ending is not None and not covered:
            draw_end(surface, self.layout.map, self.board.overlay, self.controller.ending, self.board.scale)
        if covered:
            self.hud.draw_handover(surface)
        if self.drag_die is not None and self.drag_die_moved and self.mouse is not None:
            self.board.draw_dragged_die(surface, self.drag_die, self.mouse)
