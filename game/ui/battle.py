"""The battle screen: the map with tokens and aiming marks, the initiative tracker, the unit panel, the
action bar, the combat log, dice, floating damage, the hotseat hand-over cover and the end-turn check.

It knows no rule. Everything it shows comes from the match through :class:`~game.ui.session.BattleSession`
(legal actions with costs and reasons, the decider, undo, autosave), :class:`~game.ui.picking.Picker`
(paths, odds, blasts) and the ruleset's views (``unit_view``, ``tracker``); everything it does is a
command handed to the session.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pygame
import pygame_gui
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.commands import Command
from game.events import CardDealt, DamageTaken, Event, Moved, Roll
from game.hexgrid import Hex, hex_distance
from game.match import Match
from game.rules import AttackPreview, LegalAction, Prompt, UnitView
from game.tiledmap import TiledMap
from game.ui import settings
from game.ui.combatlog import LogLine, describe
from game.ui.dialogs import ConfirmDialog
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton, _theme_cached, display_font
from game.ui.mapview import MapView
from game.ui.overlay import Overlay
from game.ui.pause import HelpScene
from game.ui.picking import Hover, Picker, units_at
from game.ui.scenes import Action, Pop, Push
from game.ui.session import BattleSession
from game.ui.tokens import TokenArt, icon_key, token_layout

__all__ = ["BattleScreen", "Layout"]

TRACKER_H = 62
ACTION_BAR_H = 100
STATUS_H = 30
PANEL_W = 318
DICE_SECONDS = 1.1  # a roll stays on screen this long at animation speed 1
FLOAT_SECONDS = 1.4
LOG_KEEP = 300
NUMBER_KEYS = [pygame.K_1 + i for i in range(9)]
KIND_MARK = {  # glyphs the bundled serif has (dingbats such as U+2714 draw nothing in it)
    "hit": "+",
    "miss": "\u00d7",
    "damage": "\u2020",
    "turn": "\u00bb",
    "roll": "\u00b7",
    "card": "\u2660",
    "end": "\u2666",
}
KIND_COLOR = {
    "hit": "#2E6B1F",
    "miss": "#8C1E14",
    "damage": "#8C1E14",
    "turn": "#5C3A1E",
    "phase": "#7A5C3C",
    "end": "#5C3A1E",
}


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes for a window size (at UI scale ``s``)."""

    size: tuple[int, int]
    s: float

    def px(self, v: float) -> int:
        return round(v * self.s)

    @property
    def panel(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(w - self.px(PANEL_W), 0, self.px(PANEL_W), h - self.px(STATUS_H))

    @property
    def tracker(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.size[0] - self.px(PANEL_W), self.px(TRACKER_H))

    @property
    def bar(self) -> pygame.Rect:
        w, h = self.size
        top = h - self.px(STATUS_H) - self.px(ACTION_BAR_H)
        return pygame.Rect(0, top, w - self.px(PANEL_W), self.px(ACTION_BAR_H))

    @property
    def status(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(0, h - self.px(STATUS_H), w, self.px(STATUS_H))

    @property
    def map(self) -> pygame.Rect:
        top = self.tracker.bottom
        return pygame.Rect(0, top, max(1, self.size[0] - self.px(PANEL_W)), max(1, self.bar.top - top))


@dataclass(slots=True)
class Floater:
    hex: Hex
    text: str
    age: float = 0.0


@dataclass(slots=True)
class DiceShow:
    roll: Roll
    name: str
    age: float = 0.0


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
        self.side_names = side_names or {p.side: p.name or p.side for p in session.match.posses}
        self.sides = [p.side for p in session.match.posses]
        self.layout = Layout(size, 1.0)
        self.view = MapView(tmap, self.layout.map.size)
        self.overlay = Overlay(tmap.geometry, self.view.camera)
        self.tokens = TokenArt.shared()
        self.selected: int | None = None
        self.inspected: int | None = None  # a unit clicked to look at (its panel), not commanded
        self.picker: Picker | None = None
        self.hover_hex: Hex | None = None
        self.hovered: Hover = Hover()
        self.mouse: tuple[int, int] | None = None
        self.drag_from: tuple[int, int] | None = None
        self.dragged = False
        self.log: list[LogLine] = []
        self.floaters: list[Floater] = []
        self.dice: DiceShow | None = None
        self.message = ""
        self.handover = False
        self.handover_pending = False
        self._centre_after_handover: int | None = None
        self.clock = 0.0
        self._hovered_for: object = None
        self.drag_die: int | None = None  # a hit die being dragged from the tray onto a target
        self.drag_die_moved = False
        self._prompt_cache: tuple[object, Prompt | None] | None = None
        self._banner_cache: tuple[object, tuple[pygame.Rect, pygame.Surface]] | None = None
        self.status_chips: list[tuple[TipButton, str]] = []
        self.choice_buttons: list[tuple[TipButton, str]] = []
        self.over_reported = False
        self._reach_cache: tuple[object, dict[Hex, int]] | None = None
        self._views: dict[int, UnitView] = {}
        self._deploy_view_for = ""
        self._targets_cache: tuple[object, tuple[int, ...]] | None = None
        self._views_for: tuple[int, int] | None = None
        self._tracker_cache: tuple[object, pygame.Surface] | None = None
        self._status_cache: tuple[str, pygame.Surface] | None = None
        self._reach_layer: tuple[object, pygame.Surface] | None = None
        self._widgets_for: object = None
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.action_buttons: list[tuple[pygame_gui.elements.UIButton, LegalAction]] = []
        self._log_box: UITextBox | None = None
        self._unit_box: UITextBox | None = None
        self._log_shown = -1
        self._last_move: tuple[int, int, LogLine] | None = None
        for e in session.match.history:
            self._log_event(e)
        self._after_change([])

    # -- model ----------------------------------------------------------------------------------------
    @property
    def match(self) -> Match:
        return self.session.match

    def state_key(self) -> tuple[int, int]:
        """Changes whenever the match does (a command applied, an undo: a new match object)."""
        return id(self.match), len(self.match.log)

    def unit_view(self, unit: int) -> UnitView:
        """The ruleset's view of a unit, asked once per match state (the panel and tokens ask each frame)."""
        key = self.state_key()
        if self._views_for != key:
            self._views.clear()
            self._views_for = key
        view = self._views.get(unit)
        if view is None:
            view = self.match.ruleset.unit_view(self.match, unit)
            self._views[unit] = view
        return view

    def actor_actions(self) -> list[LegalAction]:
        if self.selected is None:
            return []
        return self.session.actions_for(self.selected)

    def _default_selection(self) -> None:
        actors = self.session.actors()
        if self.selected not in actors:
            self.selected = actors[0] if actors else None

    def _after_change(self, events: list[Event]) -> None:
        """After a command (or at start): choose the deciding unit, aim forced decisions, hand over."""
        self.picker = None
        self.inspected = None
        self._default_selection()
        legal = self.session.legal()
        assign = next((a for a in legal if a.needs == "assign"), None)
        if assign is not None:
            self.selected = assign.actor
            self.picker = Picker(self.match, assign)
        elif (forced := self._forced_choice(legal)) is not None:
            self.selected = forced.actor
            self.picker = Picker(self.match, forced)
        else:
            deploy = [a for a in self.actor_actions() if a.action == "deploy" and a.enabled]
            if deploy:
                self.picker = Picker(self.match, deploy[0])
                side = deploy[0].side
                if side != self._deploy_view_for:
                    self._deploy_view_for = side
                    self.centre_on_hexes(deploy[0].hexes)
        if self.session.needs_handover():
            # the cover comes once the roll and its damage have been seen (the attacker watches the
            # result on the board); until then the board takes no orders
            self.handover_pending = True
        started = self.session.turn_started(events)
        if started is not None:
            if self.handover_pending or self.handover:
                self._centre_after_handover = started
            else:
                self.centre_on(started)
        self._reach_cache = None
        self._widgets_for = None  # rebuild the bar and panels
        if self.session.outcome is not None:
            self.picker = None
        self._pass_if_nothing_else(legal)

    def _pass_if_nothing_else(self, legal: list[LegalAction]) -> None:
        """A reaction window where the decider can do nothing but let it go ("X can only pass now"):
        sent at once rather than asking for a click that decides nothing."""
        if self.session.outcome is not None or self.prompt() is None:
            return
        enabled = [a for a in legal if a.enabled]
        if len(enabled) == 1 and enabled[0].needs == "" and not enabled[0].ends_turn and len(legal) > 1:
            only = enabled[0]
            self.log.append(LogLine(0, "note", f"{self.match.identity(only.actor).name} can only pass"))
            self.send(only.command())

    @staticmethod
    def _forced_choice(legal: list[LegalAction]) -> LegalAction | None:
        """A choice the decider cannot put off (the Joker's place): the only thing it may do."""
        enabled = [a for a in legal if a.enabled]
        if len(enabled) == 1 and enabled[0].needs == "choice" and len(enabled[0].choices) > 1:
            return enabled[0]
        return None

    def prompt(self) -> Prompt | None:
        """The ruleset's words for a decision that breaks into the turns, asked once per state."""
        key = self.state_key()
        if self._prompt_cache is None or self._prompt_cache[0] != key:
            prompt = None if self.session.outcome is not None else self.match.ruleset.prompt(self.match)
            self._prompt_cache = (key, prompt)
        return self._prompt_cache[1]

    def send(self, command: Command) -> bool:
        """Hand a command to the session; show the reason if it is refused."""
        events, reason = self.session.try_apply(command)
        if reason is not None:
            self.message = reason
            return False
        self.message = ""
        for e in events:
            self._log_event(e)
            self._animate(e)
        self._after_change(events)
        return True

    def _log_event(self, e: Event) -> None:
        line = describe(self.match, e)
        if line is None:
            return
        if isinstance(e, Moved):
            # a walk arrives step by step: one line per walk ("moves 2 hexes"), not per step
            steps = max(0, len(e.path) - 1)
            last = self._last_move
            if (
                steps
                and last is not None
                and last[1]
                and last[0] == e.unit
                and self.log
                and self.log[-1] is last[2]
            ):
                steps += last[1]
                name = self.match.identity(e.unit).name
                line = LogLine(e.round, "move", f"{name} moves {steps} hex{'es' if steps != 1 else ''}")
                self.log[-1] = line
                self._last_move = (e.unit, steps, line)
                return
            self._last_move = (e.unit, steps, line)
        self.log.append(line)
        del self.log[:-LOG_KEEP]

    def _animate(self, e: Event) -> None:
        if isinstance(e, Roll) and e.target_number is not None and e.check not in ("cool",):
            self.dice = DiceShow(e, self.match.identity(e.unit).name)
            self.shell.play("gunshot" if e.check not in ("melee", "haymaker") else "hit")
        elif isinstance(e, Roll):
            self.shell.play("dice")
        elif isinstance(e, DamageTaken):
            where = self.match.position(e.unit)
            if where is not None:
                self.floaters.append(Floater(where, f"-{e.amount}"))
            if e.amount:
                self.shell.play("hit")
        elif isinstance(e, CardDealt):
            self.shell.play("card")

    # -- camera -----------------------------------------------------------------------------------------
    def centre_on(self, unit: int) -> None:
        where = self.match.position(unit)
        if where is None:
            return
        x, y = self.tmap.geometry.hex_center(where)
        cam = self.view.camera
        cam.center_x, cam.center_y = x, y
        cam.clamp()

    def centre_on_hexes(self, hexes: tuple[Hex, ...]) -> None:
        """Show a group of tiles (a deploy zone): the camera on their middle."""
        if not hexes:
            return
        points = [self.tmap.geometry.hex_center(h) for h in hexes]
        cam = self.view.camera
        cam.center_x = sum(x for x, _ in points) / len(points)
        cam.center_y = sum(y for _, y in points) / len(points)
        cam.clamp()

    def auto_deploy(self) -> None:
        """The "Auto-deploy" button: the ruleset's deployment for the side deploying now, one command at a
        time while that side is still the one deploying."""
        side = self.session.deciding_side()
        for cmd in self.match.ruleset.auto_deploy(self.match):
            if self.session.deciding_side() != side or cmd.side not in ("", side):
                continue
            if self.match.validate(cmd) is None:
                self.send(cmd)

    def token_spots(self, h: Hex) -> list[tuple[int, tuple[float, float]]]:
        """Each unit in tile ``h`` with the window point its token is drawn at (as _draw_tokens fans them)."""
        units = [u for u in self.match.units(in_play=False) if self.match.position(u) == h]
        lay = token_layout(len(units), self._token_hex_size())
        cx, cy = self.overlay.center(h)
        area = self.layout.map
        return [
            (u, (area.x + cx + dx, area.y + cy + dy)) for u, (dx, dy) in zip(units, lay.offsets, strict=False)
        ]

    def _token_hex_size(self) -> float:
        """A hex's inscribed diameter on screen, which token_layout fans a tile's tokens inside."""
        return min(self.tmap.geometry.tile_width, self.tmap.geometry.tile_height) * self.view.camera.zoom

    def token_at(self, pos: tuple[int, int] | None) -> int | None:
        """The unit whose token is drawn nearest ``pos`` in the tile there (a tile may hold several)."""
        h = self.hex_at(pos) if pos is not None else None
        if pos is None or h is None:
            return None
        spots = self.token_spots(h)
        if not spots:
            return None
        return min(spots, key=lambda spot: math.hypot(spot[1][0] - pos[0], spot[1][1] - pos[1]))[0]

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        area = self.layout.map
        if not area.collidepoint(pos):
            return None
        cell = self.view.cell_at_screen(pos[0] - area.x, pos[1] - area.y)
        if cell is None:
            return None
        return self.tmap.geometry.to_hex(*cell)

    # -- widgets ----------------------------------------------------------------------------------------
    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)  # builds the widgets for the new size (and with them the layout)
        self.layout = Layout(size, self.scale)
        self.view.resize(self.layout.map.size)
        self._update_panels()  # the panel's texts now: a dialog over the battle keeps it from updating

    def build(self, manager: GuiManager) -> None:
        self.layout = Layout(self.size, self.scale)
        self.view.resize(self.layout.map.size)
        self.buttons = {}
        self.action_buttons = []
        self.choice_buttons = []
        lay = self.layout
        self._preload_fonts(manager)
        panel = UIPanel(lay.panel, manager=manager, object_id="#battle_panel")
        pw = lay.panel.width - lay.px(16)
        chips_h = self._build_status_chips(manager, panel, pw)
        self._unit_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(6), pw, lay.px(250) - chips_h),
            manager=manager,
            container=panel,
            object_id="#unit_box",
        )
        UILabel(
            pygame.Rect(lay.px(6), lay.px(262), pw, lay.px(24)),
            "Combat log",
            manager=manager,
            container=panel,
            object_id="#panel_heading",
        )
        log_h = lay.panel.height - lay.px(300)
        self._log_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(288), pw, max(lay.px(60), log_h)),
            manager=manager,
            container=panel,
            object_id="#log_box",
        )
        self._log_shown = -1
        bar = UIPanel(lay.bar, manager=manager, object_id="#action_bar")
        actions = [a for a in self.actor_actions() if not a.ends_turn]
        if self.handover or self.handover_pending or self.session.outcome is not None:
            actions = []
        choosing = self._choosing()
        deploying = any(a.action == "deploy" for a in actions)
        fixed_w = lay.px(118)
        inner_w = bar.get_container().get_rect().width  # the bar inside its frame
        room = inner_w - lay.px(18) - fixed_w
        count = len(choosing.action.choices) if choosing is not None else len(actions)
        rows = max(1, min(3, -(-count * lay.px(170) // max(1, room))))
        per_row = max(1, -(-count // rows)) if count else 1
        width = max(lay.px(64), min(lay.px(240), room // per_row))
        inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
        row_h = min(lay.px(40), (inner_h - lay.px(4) * (rows - 1)) // rows)
        font = _font(max(9, round(14 * lay.s)), bold=True)

        def slot(i: int) -> pygame.Rect:
            row, col = divmod(i, per_row)
            return pygame.Rect(
                lay.px(6) + col * width, lay.px(4) + row * (row_h + lay.px(4)), width - lay.px(4), row_h
            )

        if choosing is not None:
            # the options of a choice as buttons (the Joker's place in the order): its own words
            a = choosing.action
            for i, choice in enumerate(a.choices):
                key = str(i + 1) if i < 9 else ""
                words = a.choice_label(choice)
                rect = slot(i)
                button = self.button(
                    rect,
                    _fit_text(font, f"{key} {words}".strip(), rect.width - lay.px(10)),
                    functools.partial(self.choose_option, choice),
                    container=bar,
                    tooltip=f"{a.label}: {words}" + (f" (key {key})" if key else ""),
                    class_id="@action",
                )
                self.choice_buttons.append((button, choice))
            actions = []
        for i, a in enumerate(actions):
            key = str(i + 1) if i < 9 else ""
            cost = f" \u00b7 {a.cost}AP" if a.cost else ""
            tip = (
                (a.reason or "")
                if not a.enabled
                else f"{a.label}: {a.cost} AP" + (f" (key {key})" if key else "")
            )
            rect = slot(i)
            label = _short(a.label)
            enabled = a.enabled
            if self.picker is not None and self.picker.action == a and a.needs == "assign":
                ready = self.picker.command() is not None
                left = sum(1 for t in self.picker.slots if t is None)
                label = "Fire the hits (Enter)" if ready else f"Assign hits: {left} left"
                tip = (
                    "Deal the hits as assigned"
                    if ready
                    else "Drag each die from the tray onto a target, or click targets in die order"
                )
                enabled = ready
            text = _fit_text(font, f"{key} {label}{cost}".strip(), rect.width - lay.px(10))
            button = self.button(
                rect,
                text,
                functools.partial(self.choose, a),
                container=bar,
                tooltip=tip,
                enabled=enabled,
                class_id="@action",
            )
            if self.picker is not None and self.picker.action == a:
                button.set_selected(True)
            self.action_buttons.append((button, a))
        right = inner_w - lay.px(6)  # inside the panel's frame
        end = next((a for a in self.actor_actions() if a.ends_turn), None)
        undo_reason = self.session.undo_problem()
        specs: list[tuple[str, str, Callable[[], None], bool, str]] = [
            (
                "end_turn",
                _short(end.label) if end is not None else "End Turn",
                self.end_turn,
                end is not None,
                f"{end.label if end is not None else 'End the turn'} (Enter)",
            ),
        ]
        if deploying:
            specs = [("auto_deploy", "Auto-deploy", self.auto_deploy, True, "Place the rest of this posse")]
        elif choosing is not None and self._forced_choice(self.session.legal()) is None:
            specs = [("back", "Back", self.cancel_aim, True, "Choose another action (Esc)")]
        specs += [
            ("undo", "Undo", self.undo, undo_reason is None, undo_reason or "Take back the last move (U)"),
            ("menu", "Menu", self.open_menu, True, "Pause menu: save, load, settings (Esc)"),
        ]
        fixed_h = (inner_h - lay.px(8)) // 3
        for n, (key, text, fn, enabled, tip) in enumerate(specs):
            rect = pygame.Rect(right - fixed_w, lay.px(4) + n * (fixed_h + lay.px(4)), fixed_w, fixed_h)
            self.buttons[key] = self.button(
                rect, text, fn, container=bar, tooltip=tip, enabled=enabled, class_id="@action"
            )
        self._widgets_for = self._widget_key()

    def _build_status_chips(self, manager: GuiManager, panel: UIPanel, width: int) -> int:
        """The selected unit's statuses as chips at the foot of the unit box, each with a tooltip quoting
        the rule it comes from; returns the height they take."""
        self.status_chips = []
        shown = self.panel_unit()
        if shown is None or self.handover or self.handover_pending:
            return 0
        statuses = self.unit_view(shown).statuses
        if not statuses:
            return 0
        lay = self.layout
        font = _font(max(9, round(13 * lay.s)), bold=True)
        h, gap = lay.px(26), lay.px(4)
        rects: list[pygame.Rect] = []
        x, row = 0, 0
        for st in statuses:
            w = min(width, font.size(st.name)[0] + lay.px(22))
            if x and x + w > width:
                x, row = 0, row + 1
            rects.append(pygame.Rect(x, row * (h + gap), w, h))
            x += w + gap
        rows = row + 1
        top = lay.px(6) + lay.px(250) - rows * (h + gap)
        for st, rect in zip(statuses, rects, strict=True):
            detail = f"<br>{_esc(st.detail)}" if st.detail else ""
            tip = f"<b>{_esc(st.name)}</b>{detail}<br><i>\u201c{_esc(st.rule)}\u201d</i>"
            chip = TipButton(
                rect.move(lay.px(6), top),
                _fit_text(font, st.name, rect.width - lay.px(8)),
                manager=manager,
                container=panel,
                tool_tip_text=tip,
                object_id=pygame_gui.core.ObjectID(object_id="#status_chip", class_id="@status_chip"),
            )
            self.status_chips.append((chip, st.name))
        return rows * (h + gap)

    @property
    def _covered(self) -> bool:
        """The board takes no orders: the hand-over cover is up or about to come."""
        return self.handover or self.handover_pending

    def panel_unit(self) -> int | None:
        """The unit the panel shows: one clicked to look at, else the one being commanded."""
        if self.inspected is not None and self.match.position(self.inspected) is None:
            self.inspected = None
        return self.inspected if self.inspected is not None else self.selected

    def _choosing(self) -> Picker | None:
        """The picker while it waits for one of its action's choices (shown as buttons)."""
        p = self.picker
        if p is not None and p.action.needs == "choice" and not p.option and not self._covered:
            return p
        return None

    def _preload_fonts(self, manager: GuiManager) -> None:
        """The unit panel's and log's rich text uses bold, italic and larger sizes of the text font:
        load them with the screen rather than on first use (pygame-gui warns otherwise)."""
        font = _theme_cached(self.scale).get("text_box", {}).get("font", {})
        name, size = font.get("name"), int(font.get("size", 15))
        if not name:
            return
        fonts = manager.get_theme().get_font_dictionary()
        wanted = []
        for points, style in ((size, "bold"), (round(18 * self.scale), "bold"), (size, "italic")):
            font_id = fonts.create_font_id(points, name, style == "bold", style == "italic")
            if not fonts.check_font_preloaded(font_id):
                wanted.append({"name": name, "point_size": points, "style": style})
        if wanted:
            manager.preload_fonts(wanted)

    def _widget_key(self) -> object:
        picker = self.picker
        return (
            len(self.match.log),
            id(self.match),
            self.selected,
            self.inspected,
            self.handover,
            self.handover_pending,
            picker is not None and picker.action,
            picker is not None and picker.option,
            picker is not None and picker.command() is not None,
            picker is not None and tuple(picker.slots),
        )

    def refresh_widgets(self) -> None:
        if self._widgets_for != self._widget_key():
            self.rebuild()

    # -- choosing and aiming ------------------------------------------------------------------------------
    def choose(self, action: LegalAction) -> None:
        """An action bar button (or its number key)."""
        if not action.enabled:
            self.message = action.reason or "not possible now"
            return
        current = self.picker
        if (
            current is not None
            and current.action == action
            and action.needs in ("targets", "assign")
            and (cmd := current.command()) is not None
        ):
            self.send(cmd)  # the button again confirms the picks (the hits as assigned)
            return
        if current is not None and current.action == action and action.needs == "assign":
            self.message = "assign every die first: drag each onto a target"
            return
        picker = Picker(self.match, action)
        if action.needs == "choice" and len(action.choices) == 1:
            picker.option = action.choices[0]
        if action.needs == "choice" and not picker.option:
            self.picker = picker
            self.message = f"{action.label}: choose one"
            self._widgets_for = None
            return
        self._aim(picker)

    def choose_option(self, option: str) -> None:
        """One of the choice buttons (or its number key) while a choice is being made."""
        picker = self._choosing()
        if picker is None or option not in picker.action.choices:
            return
        picker.option = option
        self.picker = None  # aimed afresh: a choice that still needs the map is pointed, not fired
        self._aim(picker)

    def cancel_aim(self) -> None:
        """Put the chosen action down (Esc, right click, Back), unless the decision cannot wait."""
        if self.picker is None or self.picker.action.needs == "assign":
            return
        if self._forced_choice(self.session.legal()) is not None:
            return
        self.picker = None
        self.message = ""
        self._widgets_for = None

    def _aim(self, picker: Picker) -> None:
        """Send an action that needs nothing more, else aim it on the map."""
        action = picker.action
        if picker.ready_without_map and not picker.reachable_targets():
            cmd = picker.command()
            if cmd is not None:
                self.send(cmd)
            return
        if self.picker is not None and self.picker.action == action and picker.ready_without_map:
            cmd = picker.command()  # a second press fires without pointing at anyone
            if cmd is not None:
                self.send(cmd)
            return
        self.picker = picker
        self.message = _aim_hint(action)
        self._reach_cache = None
        self._widgets_for = None

    def end_turn(self, *, confirmed: bool = False) -> None:
        """End the turn; while AP remain and something could still be done, ask first (a dialog)."""
        end = next((a for a in self.actor_actions() if a.ends_turn), None)
        if end is None:
            return
        if self.selected is not None and not confirmed:
            view = self.unit_view(self.selected)
            usable = [a for a in self.actor_actions() if a.enabled and a.cost > 0 and not a.ends_turn]
            ap = view.action_points[0]
            if ap > 0 and usable:
                could = ", ".join(_short(a.label) for a in usable[:4]) + ("\u2026" if len(usable) > 4 else "")
                self.act(
                    Push(
                        ConfirmDialog(
                            self.shell,
                            "End the turn?",
                            f"{view.name} still has {ap} AP and could: {could}".rstrip(".") + ".",
                            yes="End turn (Y)",
                            no="Keep going (N)",
                            on_yes=self._end_confirmed,
                            size=self.size,
                        )
                    )
                )
                return
        self.send(end.command())

    def _end_confirmed(self) -> Action:
        self.end_turn(confirmed=True)
        return Pop()

    def open_help(self) -> None:
        """F1: the ruleset's summary of a turn and the keys (the pause menu's Help page)."""
        self.act(Push(HelpScene(self.shell, self.match.ruleset, self.size)))

    def undo(self) -> None:
        problem = self.session.undo_problem()
        if problem is not None:
            self.message = problem
            return
        undone = self.session.undo()
        self.log.append(LogLine(0, "note", f"Undone: {undone.action.replace('_', ' ')}"))
        self._after_change([])

    def open_menu(self) -> None:
        if self.on_menu is not None:
            action = self.on_menu(self)
            if action is not None:
                self.act(action)

    def click_map(self, h: Hex | None, button: int) -> None:
        if self._covered or h is None:
            return
        if button == 3:
            if self.picker is not None and self.picker.has_picks:
                self.picker.unpick()
                self._assign_message()
            else:
                self.cancel_aim()
            return
        if self.picker is not None:
            cmd = self.picker.click(h, self.token_at(self.mouse))
            if self.picker.action.needs == "assign":
                self._assign_message()  # sent by Enter or the button, once the player has looked
            elif cmd is not None:
                self.send(cmd)
            elif self.picker.action.needs in ("targets",) and self.picker.picked:
                self.message = f"{len(self.picker.picked)} picked: Enter to confirm"
            return
        actors = set(self.session.actors())
        pointed = self.token_at(self.mouse)
        here = sorted((u for u in units_at(self.match, h) if u in actors), key=lambda u: u != pointed)
        if here:
            self.selected = here[0]
            self.inspected = None
        else:
            # any other unit (a foe, an ally not acting now): its panel, until a unit of yours is chosen
            others = units_at(self.match, h)
            self.inspected = (pointed if pointed in others else others[0]) if others else None
        self._widgets_for = None

    def _assign_message(self) -> None:
        picker = self.picker
        if picker is None or picker.action.needs != "assign":
            return
        left = sum(1 for t in picker.slots if t is None)
        if left:
            self.message = f"{left} hit{'s' if left != 1 else ''} to assign: drag a die onto a target"
            return
        preview = picker.preview()
        names = ", ".join(
            f"{self.match.identity(u).name} {amount}" for u, amount in (preview.per_target if preview else ())
        )
        self.message = "all hits assigned" + (f" ({names})" if names else "") + ": Enter fires them"

    # -- the dice tray (hit assignment) ---------------------------------------------------------------------
    def tray_dice(self) -> list[pygame.Rect]:
        """Where each die of a hit assignment sits in the tray (window coordinates); [] when none."""
        picker = self.picker
        if picker is None or picker.action.needs != "assign" or self._covered:
            return []
        # in the action bar, right of the assign button (over the map they would hide the tokens)
        n = len(picker.slots)
        bar = self.layout.bar
        size, gap = max(26, round(42 * self.scale)), max(6, round(10 * self.scale))
        x = bar.x + round(280 * self.scale)
        room = bar.right - round(140 * self.scale) - x
        if n * (size + gap) > room:
            size = max(18, room // n - gap)
        y = bar.y + round(26 * self.scale)
        return [pygame.Rect(x + i * (size + gap), y, size, size) for i in range(n)]

    def _die_values(self) -> tuple[int, ...]:
        picker = self.picker
        if picker is None:
            return ()
        values = picker.action.dice
        return values if len(values) == len(picker.slots) else tuple(0 for _ in picker.slots)

    def _tray_event(self, event: pygame.event.Event) -> bool:
        """Dragging (or clicking) a die of the tray; True when the event was the tray's."""
        picker = self.picker
        if picker is None or picker.action.needs != "assign":
            self.drag_die = None
            return False
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for i, rect in enumerate(self.tray_dice()):
                if rect.collidepoint(event.pos):
                    self.drag_die, self.drag_die_moved = i, False
                    return True
            return False
        if self.drag_die is None:
            return False
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            if not any(r.collidepoint(event.pos) for r in self.tray_dice()):
                self.drag_die_moved = True
            self._hover(self.hex_at(event.pos))
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            die, self.drag_die = self.drag_die, None
            h = self.hex_at(event.pos)
            targets = units_at(self.match, h, picker.action.targets) if h is not None else []
            pointed = self.token_at(event.pos)
            if targets:
                picker.assign(die, pointed if pointed in targets else targets[0])
            elif self.drag_die_moved:
                picker.assign(die, None)  # dragged off into the open: taken back
            else:
                picker.hold(None if picker.holding == die else die)  # a click: in hand for a target click
            self._assign_message()
            self._hover(h)
            return True
        return False

    # -- events -------------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if self.handover:
            if event.type in (pygame.MOUSEBUTTONUP, pygame.KEYDOWN) and not consumed:
                if event.type == pygame.KEYDOWN and event.key not in (pygame.K_RETURN, pygame.K_SPACE):
                    return None
                self.handover = False
                self._widgets_for = None
                if self._centre_after_handover is not None:
                    self.centre_on(self._centre_after_handover)
                    self._centre_after_handover = None
            return None
        if self.handover_pending:
            if event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
                self.dice = None  # a click or key skips to the cover
                self.floaters.clear()
            elif event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
            return None
        if self.dice is not None and event.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN):
            self.dice = None  # skip the animation
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                return None
        if self._tray_event(event):  # the tray lies on the action bar's panel: its clicks are the tray's
            return None
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
            held = self.drag_from is not None and (event.buttons[0] or event.buttons[1])
            if held and not consumed and (self.dragged or math.dist(self.drag_from or (0, 0), event.pos) > 6):
                self.dragged = True
                self.view.camera.pan_screen(*event.rel)
            self._hover(self.hex_at(event.pos))
        elif event.type == pygame.MOUSEBUTTONDOWN and not consumed:
            if event.button in (1, 2) and self.layout.map.collidepoint(event.pos):
                self.drag_from, self.dragged = event.pos, event.button == 2
        elif event.type == pygame.MOUSEBUTTONUP and not consumed:
            was_drag = self.dragged
            self.drag_from, self.dragged = None, False
            if not was_drag and event.button in (1, 3) and self.layout.map.collidepoint(event.pos):
                self.click_map(self.hex_at(event.pos), event.button)
        elif (
            event.type == pygame.MOUSEWHEEL
            and self.mouse is not None
            and self.layout.map.collidepoint(self.mouse)
        ):
            area = self.layout.map
            self.view.zoom_by(event.y, (self.mouse[0] - area.x, self.mouse[1] - area.y))
            self._hover(self.hex_at(self.mouse))
        elif event.type == pygame.KEYDOWN:
            action = self._key(event)
            return action if action is not None else self._take()
        return None

    def _binding(self, name: str) -> int | None:
        key = self.shell.prefs.key_bindings.get(name)
        if not key:
            return None
        try:
            return int(pygame.key.key_code(key))
        except ValueError:
            return None

    def _key(self, event: pygame.event.Event) -> Action | None:
        key = event.key
        if key == self._binding("help") or key == pygame.K_F1:
            self.open_help()
        elif key == self._binding("pause"):
            if (
                self.picker is not None
                and self.picker.action.needs != "assign"
                and self._forced_choice(self.session.legal()) is None
            ):
                self.cancel_aim()
            elif self.inspected is not None:
                self.inspected = None  # back to the unit being commanded
                self._widgets_for = None
            else:
                self.open_menu()
        elif key == self._binding("end_turn"):
            if self.picker is not None and self.picker.command() is not None:
                cmd = self.picker.command()
                assert cmd is not None
                self.send(cmd)
            else:
                self.end_turn()
        elif key == self._binding("undo") or (key == pygame.K_z and event.mod & pygame.KMOD_CTRL):
            self.undo()
        elif key == self._binding("center_unit") and self.selected is not None:
            self.centre_on(self.selected)
        elif key == pygame.K_TAB:
            self.inspected = None
            actors = self.session.actors()
            if actors:
                i = actors.index(self.selected) if self.selected in actors else -1
                self.selected = actors[(i + 1) % len(actors)]
                self._widgets_for = None
        elif key == pygame.K_BACKSPACE and self.picker is not None and self.picker.has_picks:
            self.picker.unpick()
            self._assign_message()
        elif key in NUMBER_KEYS:
            index = NUMBER_KEYS.index(key)
            choosing = self._choosing()
            if choosing is not None:
                if index < len(choosing.action.choices):
                    self.choose_option(choosing.action.choices[index])
                return None
            bar = [a for a in self.actor_actions() if not a.ends_turn]
            if index < len(bar):
                self.choose(bar[index])
        elif key == self._binding("zoom_in"):
            self.view.zoom_by(1, (self.view.camera.view_w // 2, self.view.camera.view_h // 2))
        elif key == self._binding("zoom_out"):
            self.view.zoom_by(-1, (self.view.camera.view_w // 2, self.view.camera.view_h // 2))
        elif key == self._binding("zoom_reset"):
            self.view.set_zoom(1.0)
        else:
            pans = {"pan_left": (1, 0), "pan_right": (-1, 0), "pan_up": (0, 1), "pan_down": (0, -1)}
            arrows = {pygame.K_LEFT: "pan_left", pygame.K_RIGHT: "pan_right", pygame.K_UP: "pan_up"}
            arrows[pygame.K_DOWN] = "pan_down"
            for name, (dx, dy) in pans.items():
                if key == self._binding(name) or arrows.get(key) == name:
                    self.view.camera.pan_screen(dx * 64, dy * 64)
        return None

    def _hover_key(self) -> object:
        """What the hover depends on besides the tile: the match, the action aimed, its picks, the camera
        (a change of any of them makes the shown odds stale)."""
        p = self.picker
        cam = self.view.camera
        return (
            self.state_key(),
            id(p),
            p is not None and p.option,
            p is not None and tuple(p.slots),
            cam.scroll,
            cam.zoom,
            self.mouse,
        )

    def _hover(self, h: Hex | None) -> None:
        self._hovered_for = self._hover_key()
        self.hover_hex = h
        area = self.layout.map
        if self.mouse is not None and area.collidepoint(self.mouse):
            self.view.set_hover_screen(self.mouse[0] - area.x, self.mouse[1] - area.y)
        else:
            self.view.hover = None
        pointed = self.token_at(self.mouse) if h is not None else None
        self.hovered = self.picker.hover(h, pointed) if self.picker is not None else Hover(h)

    # -- frame ----------------------------------------------------------------------------------------------
    def update(self, dt: float) -> Action | None:
        self.clock += dt
        speed = max(0.1, self.shell.prefs.animation_speed)
        if self.dice is not None:
            self.dice.age += dt * speed
            if self.dice.age > DICE_SECONDS:
                self.dice = None
        for f in self.floaters:
            f.age += dt * speed
        self.floaters = [f for f in self.floaters if f.age < FLOAT_SECONDS]
        if self.handover_pending and self.dice is None and not self.floaters:
            self.handover_pending = False
            self.handover = self.session.needs_handover() and self.session.outcome is None
            self._widgets_for = None
        if self.session.outcome is not None and not self.over_reported and self.dice is None:
            self.over_reported = True
            if self.on_over is not None:
                return self.on_over(self.session)
        if self._hover_key() != self._hovered_for:
            self._hover(self.hex_at(self.mouse) if self.mouse is not None else None)
        self.refresh_widgets()
        self._update_panels()
        return super().update(dt)

    def _update_panels(self) -> None:
        if self._unit_box is not None:
            text = self._unit_html()
            if text != self._unit_box.html_text:
                self._unit_box.set_text(text)
        if self._log_box is not None and self._log_shown != len(self.log):
            self._log_box.set_text(self._log_html())
            if self._log_box.scroll_bar is not None:
                self._log_box.scroll_bar.set_scroll_from_start_percentage(1.0)
            self._log_shown = len(self.log)

    def _unit_html(self) -> str:
        if self.handover:
            return ""
        unit = self.panel_unit()
        if unit is None:
            return "<b>No decision to make</b>"
        v = self.unit_view(unit)
        ap_now, ap_max = v.action_points
        pips = "\u25cf" * max(0, ap_now) + "\u25cb" * max(0, ap_max - ap_now)
        hp_now, hp_max = v.health
        lines = [
            f"<font size=5><b>{_esc(v.name)}</b></font>",
            f"<i>{_esc(v.kind_name)}</i> \u2014 {_esc(self.side_names.get(v.side, v.side))}",
            f"<b>AP</b> {pips} ({ap_now}/{ap_max})",
            f"<b>{_esc(v.health_name)}</b> {hp_now}/{hp_max}",
        ]
        if v.stats:
            lines.append(" \u00b7 ".join(f"{_esc(n)} {_esc(val)}" for n, val in v.stats))
        for w in v.weapons:
            lines.append(f"\u2022 {_esc(w)}")
        if v.items:
            lines.append("Carries: " + ", ".join(_esc(i) for i in v.items))
        if v.out:
            lines.append(f"<b>Out of the fight: {_esc(v.out)}</b>")
        if unit == self.inspected:
            lines.insert(1, "<i>Looking only: click a unit of yours (or Tab) to command it.</i>")
        return "<br>".join(lines)

    def _log_html(self) -> str:
        rows = []
        for line in self.log[-120:]:
            mark = KIND_MARK.get(line.kind, "\u00b7")
            color = KIND_COLOR.get(line.kind)
            text = f"{mark} {_esc(line.text)}"
            rows.append(f"<font color='{color}'>{text}</font>" if color else text)
        return "<br>".join(rows)

    def draw(self, surface: pygame.Surface) -> None:
        manager = self.ensure_built()
        area = self.layout.map
        surface.fill(settings.VOID_COLOR)
        self.view.draw(surface, area.topleft)
        clip = surface.get_clip()
        surface.set_clip(area)
        if not self.handover:
            self._draw_marks(surface, area)
            self._draw_tokens(surface, area)
            self._draw_marks_over(surface, area)
            self._draw_floaters(surface, area)
        surface.set_clip(clip)
        self._draw_tracker(surface)
        self._draw_status(surface)  # under the widgets: a tooltip may hang over the status line
        if not self.handover:
            self._draw_tray(surface)
        manager.draw_ui(surface)
        banner = None
        if not self.handover:
            banner = self._draw_banner(surface)
        if self.dice is not None and not self.handover:
            self._draw_dice(surface, below=banner)
        if self.handover:
            self._draw_handover(surface)
        if self.drag_die is not None and self.drag_die_moved and self.mouse is not None:
            values = self._die_values()
            if self.drag_die < len(values):
                rect = pygame.Rect(0, 0, max(30, round(44 * self.scale)), max(30, round(44 * self.scale)))
                rect.center = self.mouse
                _draw_die(surface, rect, values[self.drag_die], hit=True, lifted=True)

    def _reach_costs(self, action: LegalAction) -> dict[Hex, int]:
        """The cheapest cost to each offered tile (for the dots), cached per state and action."""
        key = (len(self.match.log), action)
        if self._reach_cache is None or self._reach_cache[0] != key:
            here = self.match.position(action.actor)
            costs: dict[Hex, int] = {}
            if here is not None:
                reach = self.match.battlefield.reachable(here, 99)
                costs = {h: reach.get(h, hex_distance(here, h)) for h in action.hexes}
            self._reach_cache = (key, costs)
        return self._reach_cache[1]

    def _draw_marks(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        canvas = surface.subsurface(area)
        if self.selected is not None and (here := self.match.position(self.selected)) is not None:
            self.overlay.selected(canvas, here)
        picker = self.picker
        if picker is None:
            return
        a = picker.action
        if a.needs == "path":
            cam = self.view.camera
            key = (self.state_key(), a, cam.scroll, cam.zoom, canvas.get_size())
            if self._reach_layer is None or self._reach_layer[0] != key:
                layer = pygame.Surface(canvas.get_size(), pygame.SRCALPHA)
                self.overlay.reachable(layer, self._reach_costs(a))
                self._reach_layer = (key, layer)
            canvas.blit(self._reach_layer[1], (0, 0))
        elif a.action == "deploy":
            self.overlay.deploy(canvas, a.hexes)
        elif a.needs == "hex":
            self.overlay.fill(canvas, a.hexes, (255, 240, 200, 40))
        hov = self.hovered
        if hov.path:
            self.overlay.path(canvas, hov.path, hov.path_cost)
        if hov.caught and hov.hex is not None:
            spots = {self.match.position(u) for u in hov.caught}
            self.overlay.blast(canvas, [h for h in spots if h is not None] or [hov.hex])

    def _targets(self, picker: Picker) -> tuple[int, ...]:
        """The units an action can reach, asked once per state and action (an attack that names no
        target asks the preview of every unit)."""
        key = (self.state_key(), picker.action, picker.option)
        if self._targets_cache is None or self._targets_cache[0] != key:
            self._targets_cache = (key, picker.reachable_targets())
        return self._targets_cache[1]

    def _draw_marks_over(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Marks drawn over the tokens: who a prompt is about, target rings, the dice assigned to each
        target, the line of sight and the hit chance."""
        canvas = surface.subsurface(area)
        prompt = self.prompt()
        if prompt is not None:
            for u in prompt.about:
                if (where := self.match.position(u)) is not None:
                    self.overlay.alert(canvas, where)
        picker = self.picker
        if picker is None:
            return
        a = picker.action
        for t in self._targets(picker):
            where = self.match.position(t)
            if where is not None:
                self.overlay.target(canvas, where, strong=t == self.hovered.target)
        hov = self.hovered
        actor = self.match.position(a.actor)
        if (
            hov.target is not None
            and actor is not None
            and (there := self.match.position(hov.target)) is not None
        ):
            preview = hov.preview
            cover = preview is not None and any(
                n == "cover" or "cover" in n.lower() for n, _ in preview.modifiers
            )
            self.overlay.sight(canvas, actor, there, clear=preview is not None, cover=cover)
            if preview is not None and a.needs == "assign":
                amount = dict(preview.per_target).get(hov.target, 0)
                self.overlay.badge(canvas, self.overlay.center(there), f"-{amount}")
            elif preview is not None:
                self.overlay.badge(canvas, self.overlay.center(there), f"{_pct(preview.hit_chance)}")
        if a.needs == "assign":
            values = self._die_values()
            given: dict[int, list[int]] = {}
            for i, slot in enumerate(picker.slots):
                if slot is not None:
                    given.setdefault(slot, []).append(values[i])
            for unit, dice in given.items():
                if (where := self.match.position(unit)) is not None:
                    self.overlay.dice_on(canvas, where, dice)

    def _draw_tokens(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        canvas = surface.subsurface(area)
        zoom = self.view.camera.zoom
        hex_size = self._token_hex_size()
        by_hex: dict[Hex, list[int]] = {}
        for u in self.match.units(in_play=False):
            where = self.match.position(u)
            if where is not None:
                by_hex.setdefault(where, []).append(u)
        active = set(self.session.actors())
        for where, units in by_hex.items():
            cx, cy = self.overlay.center(where)
            if cx < -80 or cy < -80 or cx > area.width + 80 or cy > area.height + 80:
                continue
            lay = token_layout(len(units), hex_size)
            for u, (dx, dy) in zip(units, lay.offsets, strict=False):
                v = self.unit_view(u)
                side_index = self.sides.index(v.side) if v.side in self.sides else 0
                faction = (
                    self.match.posses[side_index].faction if side_index < len(self.match.posses) else None
                )
                hp_now, hp_max = v.health
                self.tokens.draw_token(
                    canvas,
                    (round(cx + dx), round(cy + dy)),
                    icon_key(v.kind, v.art),
                    side_index,
                    zoom,
                    faction=faction if side_index == 0 or faction != self.match.posses[0].faction else None,
                    diameter=lay.diameter,
                    selected=u == self.selected,
                    acting=u in active and u == self.selected,
                    out=bool(v.out),
                    resolve=(hp_now / hp_max) if hp_max else None,
                    statuses=[s.key or s.name.lower().replace(" ", "_") for s in v.statuses],
                    time=self.clock,
                )

    def _draw_floaters(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        font = _font(max(14, round(26 * self.scale)))
        for f in self.floaters:
            x, y = self.overlay.center(f.hex)
            rise = round(48 * f.age / FLOAT_SECONDS)
            alpha = max(0, 255 - round(255 * f.age / FLOAT_SECONDS))
            for color, off in (((30, 18, 8), 2), ((200, 40, 30), 0)):
                text = font.render(f.text, True, color)
                text.set_alpha(alpha)
                surface.blit(text, text.get_rect(center=(area.x + x + off, area.y + y - 30 - rise + off)))

    def _draw_tracker(self, surface: pygame.Surface) -> None:
        rect = self.layout.tracker
        key = (self.state_key(), rect.size, self.scale)
        if self._tracker_cache is None or self._tracker_cache[0] != key:
            picture = pygame.Surface(rect.size)
            self._paint_tracker(picture, picture.get_rect())
            self._tracker_cache = (key, picture)
        surface.blit(self._tracker_cache[1], rect)

    def _paint_tracker(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, (60, 38, 20), rect)
        pygame.draw.line(surface, (150, 102, 58), rect.bottomleft, rect.bottomright, 3)
        entries = self.match.ruleset.tracker(self.match)
        font = _font(max(11, round(15 * self.scale)), bold=True)
        small = _font(max(9, round(12 * self.scale)), bold=False)
        x = rect.x + 8
        h = rect.height - 12
        widest = max((font.size(e.label)[0] for e in entries), default=0)
        w = max(round(70 * self.scale), min(round(150 * self.scale), widest + 18))
        if entries and x + w * len(entries) > rect.right - 8:
            w = max(12, (rect.right - 8 - x) // len(entries))  # a narrow window: every card, narrower
        for e in entries:
            card = pygame.Rect(x, rect.y + 6, w - 6, h)
            face = (245, 236, 214) if e.card else (233, 216, 178)
            if e.acted:
                face = (150, 140, 120)
            pygame.draw.rect(surface, face, card, border_radius=6)
            border = (255, 215, 90) if e.active else (30, 18, 8)
            pygame.draw.rect(surface, border, card, 4 if e.active else 2, border_radius=6)
            if e.active:
                pygame.draw.polygon(
                    surface,
                    (255, 215, 90),
                    [
                        (card.centerx - 6, card.bottom + 1),
                        (card.centerx + 6, card.bottom + 1),
                        (card.centerx, card.bottom - 6),
                    ],
                )
            red = e.card and any(s in e.label for s in ("\u2665", "\u2666"))
            label = font.render(
                _fit_text(font, e.label, card.width - 6), True, (160, 20, 20) if red else (30, 18, 8)
            )
            surface.blit(label, label.get_rect(midtop=(card.centerx, card.y + 3)))
            name = self.match.identity(e.unit).name
            text = small.render(_fit_text(small, name, card.width - 6), True, (40, 26, 12))
            surface.blit(text, text.get_rect(midbottom=(card.centerx, card.bottom - 3)))
            if e.acted:
                pygame.draw.line(surface, (90, 60, 30), card.topleft, card.bottomright, 2)
            x += w

    def _draw_status(self, surface: pygame.Surface) -> None:
        rect = self.layout.status
        pygame.draw.rect(surface, settings.STATUS_BG, rect)
        pygame.draw.line(surface, settings.STATUS_BORDER, rect.topleft, rect.topright, 2)
        font = _font(max(10, round(15 * self.scale)), bold=False)
        parts = []
        side = self.session.deciding_side()
        if side is not None:
            parts.append(f"{self.side_names.get(side, side)} to decide")
        if self.message:
            parts.append(self.message)
        if self.hover_hex is not None:
            t = self.match.battlefield.terrain_at(self.hover_hex)
            cost = self.match.battlefield.move_cost(self.hover_hex)
            cover = t.cover.name.lower() if t.cover.name != "NONE" else "no"
            parts.append(f"{t.name}: {cover} cover, move {cost if cost is not None else 'blocked'}")
        preview = self.hovered.preview if self.picker is not None else None
        if preview is not None:
            parts.append(_preview_text(preview, lambda u: self.match.identity(u).name))
        elif self.picker is not None and self.hovered.reason and self.hovered.hex is not None:
            parts.append(self.hovered.reason)
        line = _fit_text(font, "   \u2022   ".join(parts), rect.width - 20)
        if self._status_cache is None or self._status_cache[0] != line:
            self._status_cache = (line, font.render(line, True, settings.STATUS_TEXT))
        text = self._status_cache[1]
        surface.blit(text, text.get_rect(midleft=(rect.x + 10, rect.centery)))

    def _draw_dice(self, surface: pygame.Surface, below: pygame.Rect | None = None) -> None:
        show = self.dice
        assert show is not None
        r = show.roll
        area = self.layout.map
        size = max(36, round(48 * self.scale))
        n = len(r.dice)
        total_w = n * (size + 10) + 20
        box = pygame.Rect(0, 0, max(total_w, round(360 * self.scale)), size + round(70 * self.scale))
        box.midtop = (area.centerx, (below.bottom if below is not None else area.y) + 12)
        pygame.draw.rect(surface, (233, 216, 178), box, border_radius=8)
        pygame.draw.rect(surface, (92, 58, 30), box, 3, border_radius=8)
        font = _font(max(12, round(16 * self.scale)))
        head = f"{show.name}: {r.check.replace('_', ' ')}" + (
            f" vs {r.target_number}+" if r.target_number else ""
        )
        surface.blit(font.render(head, True, (52, 33, 16)), (box.x + 10, box.y + 6))
        rolling = show.age < 0.35
        x = box.centerx - (n * (size + 10)) // 2
        for i, value in enumerate(r.dice):
            face = value if not rolling else 1 + int((self.clock * 17 + i * 5) % 6)
            hit = r.target_number is not None and value >= r.target_number
            die = pygame.Rect(x + i * (size + 10), box.y + round(34 * self.scale), size, size)
            _draw_die(surface, die, face, hit=hit and not rolling)
        if not rolling and r.success is not None:
            verdict = "HIT" if r.success else "MISS"
            tag = _font(max(12, round(18 * self.scale))).render(
                verdict, True, (46, 107, 31) if r.success else (140, 30, 20)
            )
            surface.blit(tag, tag.get_rect(topright=(box.right - 10, box.y + 6)))

    def banner_rect(self) -> pygame.Rect | None:
        """Where the prompt banner is drawn (None: no prompt now)."""
        banner = self._banner()
        return banner[0] if banner is not None else None

    def _banner(self) -> tuple[pygame.Rect, pygame.Surface] | None:
        """The prompt banner's place and picture, painted once per prompt, map area and scale."""
        prompt = self.prompt()
        if prompt is None or self.handover:
            return None
        area = self.layout.map
        key = (prompt, area, self.scale)
        if self._banner_cache is not None and self._banner_cache[0] == key:
            return self._banner_cache[1]
        width = min(area.width - 24, round(820 * self.scale))
        head = _font(max(12, round(19 * self.scale)))
        font = _font(max(10, round(15 * self.scale)), bold=False)
        rows = _wrap(font, prompt.text, width - 28)[:4]
        rect = pygame.Rect(0, 0, width, 14 + head.get_linesize() + len(rows) * font.get_linesize() + 10)
        picture = pygame.Surface((rect.width + 3, rect.height + 4), pygame.SRCALPHA)
        pygame.draw.rect(picture, (30, 18, 8, 110), rect.move(3, 4), border_radius=8)  # its shadow
        pygame.draw.rect(picture, (245, 236, 214), rect, border_radius=8)
        pygame.draw.rect(picture, (140, 30, 20), rect, 3, border_radius=8)
        pygame.draw.rect(picture, (140, 30, 20), pygame.Rect(0, 0, 8, rect.height), border_radius=8)
        title = head.render(_fit_text(head, prompt.title, width - 28), True, (140, 30, 20))
        picture.blit(title, (18, 7))
        y = 7 + head.get_linesize()
        for row in rows:
            picture.blit(font.render(row, True, (52, 33, 16)), (18, y))
            y += font.get_linesize()
        banner = (rect.move(area.centerx - width // 2, area.y + 8), picture)
        self._banner_cache = (key, banner)
        return banner

    def _draw_banner(self, surface: pygame.Surface) -> pygame.Rect | None:
        """The prompt: what set off the decision waiting now and what can be done (a reaction window,
        the hits to assign, the Joker), over the top of the map."""
        banner = self._banner()
        if banner is None:
            return None
        rect, picture = banner
        surface.blit(picture, rect)
        return rect

    def _draw_tray(self, surface: pygame.Surface) -> None:
        """The dice of a hit assignment: each successful die as a chip to drag onto a target (a chip
        already on a target is drawn dim with its target's name under it; the one in hand is raised)."""
        rects = self.tray_dice()
        picker = self.picker
        if not rects or picker is None:
            return
        values = self._die_values()
        small = _font(max(9, round(12 * self.scale)), bold=False)
        head = small.render("Drag each hit onto a target:", True, (92, 58, 30))
        surface.blit(head, head.get_rect(bottomleft=(rects[0].x, rects[0].y - 3)))
        for i, rect in enumerate(rects):
            target = picker.slots[i]
            if i == self.drag_die and self.drag_die_moved:
                pygame.draw.rect(surface, (90, 70, 50), rect, 2, border_radius=8)  # its empty place
                continue
            held = i in (picker.holding, self.drag_die)
            _draw_die(surface, rect.move(0, -6 if held else 0), values[i], hit=True, dim=target is not None)
            if target is not None:
                name = self.match.identity(target).name
                text = small.render(_fit_text(small, name, rect.width + 8), True, (52, 33, 16))
                surface.blit(text, text.get_rect(midtop=(rect.centerx, rect.bottom + 1)))

    def _draw_handover(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        cover = pygame.Surface((w, h))
        cover.fill((28, 20, 14))
        for y in range(0, h, 6):
            pygame.draw.line(cover, (36, 26, 18), (0, y), (w, y))
        surface.blit(cover, (0, 0))
        side = self.session.deciding_side() or ""
        name = self.side_names.get(side, side)
        big = _font(max(24, round(48 * self.scale)))
        small = _font(max(12, round(20 * self.scale)), bold=False)
        title = big.render(f"Pass to {name}", True, (245, 236, 214))
        surface.blit(title, title.get_rect(center=(w // 2, h // 2 - 30)))
        hint = small.render(
            "The board is hidden. Click or press Enter when you have the seat.", True, (214, 192, 146)
        )
        surface.blit(hint, hint.get_rect(center=(w // 2, h // 2 + 24)))


def _draw_die(
    surface: pygame.Surface,
    rect: pygame.Rect,
    value: int,
    *,
    hit: bool = False,
    dim: bool = False,
    lifted: bool = False,
) -> None:
    """A die face with its number: a hit gets a thick frame and a green ring (shape, not colour alone);
    ``dim`` a die already used (assigned); ``lifted`` a die in the hand (a shadow under it)."""
    if lifted:
        pygame.draw.rect(surface, (20, 12, 6), rect.move(4, 6), border_radius=8)
    face = (196, 186, 168) if dim else (250, 246, 236)
    pygame.draw.rect(surface, face, rect, border_radius=8)
    pygame.draw.rect(surface, (30, 18, 8), rect, 3 if hit else 1, border_radius=8)
    if hit and not dim:
        pygame.draw.rect(surface, (46, 107, 31), rect.inflate(8, 8), 3, border_radius=10)
    font = _font(max(12, round(rect.height * 0.45)))
    label = font.render(str(value) if value else "?", True, (90, 80, 70) if dim else (30, 18, 8))
    surface.blit(label, label.get_rect(center=rect.center))


@functools.cache
def _font(size: int, bold: bool = True) -> pygame.font.Font:
    """The display serif at a size, loaded once (loading a font file costs more than a frame's text)."""
    return display_font(size, bold=bold)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _pct(p: Fraction) -> str:
    return f"{round(float(p) * 100)}%"


def _preview_text(p: AttackPreview, name: Callable[[int], str] = str) -> str:
    text = f"hit {_pct(p.hit_chance)}, expected {float(p.expected_damage):.1f}"
    if p.target_number is not None:
        text += f" (needs {p.target_number}+)"
    mods = ", ".join(f"{n} {v:+d}" if abs(v) < 10 else f"{n} {v}%" for n, v in p.modifiers)
    if mods:
        text += f" [{mods}]"
    if p.per_target:
        return "stress dealt: " + ", ".join(f"{name(u)} {amount}" for u, amount in p.per_target)
    return text


def _aim_hint(action: LegalAction) -> str:
    return {
        "path": "click a shaded tile to move there (right click cancels)",
        "hex": "click a marked tile (right click cancels)",
        "target": "click a marked target (right click cancels)",
        "targets": f"click up to {action.max_picks} targets, Enter to confirm",
        "assign": "drag each die onto a target, or click targets in die order (right click takes one back)",
        "": "click a marked target to attack, or press the button again",
        "choice": "pick an option with the number keys",
    }.get(action.needs, "")


def _short(label: str) -> str:
    """A compact action bar label; the full label is the tooltip.

    Quoted nicknames and all-capital maker names go; "Verb Noun (Thing)" becomes "Verb: Thing" and
    "Group: Verb (Thing)" becomes "Verb: Thing" ('Fire Firearm ("Standard" MDTC Model 4 Pistol)' ->
    'Fire: Model 4 Pistol', 'Interact: Pick Up (Canteen)' -> 'Pick Up: Canteen').
    """
    out, quoted = [], False
    for ch in label:
        if ch in '"\u201c\u201d':
            quoted = not quoted
            continue
        if not quoted:
            out.append(ch)
    text = " ".join("".join(out).split())
    if not text.strip(" ():"):  # the whole label was quoted ('"Duck!"'): keep its words
        text = " ".join(label.replace('"', "").replace("\u201c", "").replace("\u201d", "").split())
    if "(" not in text or not text.endswith(")"):
        return text
    head, _, inner = text[:-1].partition("(")
    head = head.strip()
    head = head.split(":", 1)[1].strip() if ":" in head else head.split()[0]
    words = [w for w in inner.split() if not (len(w) > 1 and w.isupper() and w.isalpha())]
    return f"{head}: {' '.join(words) or inner.strip()}"


def _fit_text(font: pygame.font.Font, text: str, width: int) -> str:
    """``text`` cut to ``width`` pixels, with an ellipsis when cut."""
    if font.size(text)[0] <= width:
        return text
    while text and font.size(text + "\u2026")[0] > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def _wrap(font: pygame.font.Font, text: str, width: int) -> list[str]:
    words, rows, current = text.split(" "), [], ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if current and font.size(candidate)[0] > width:
            rows.append(current)
            current = word
        else:
            current = candidate
    rows.append(current)
    return rows
