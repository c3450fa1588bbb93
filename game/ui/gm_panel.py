"""The battle screen's GM mode on screen (issue 15, "Sandbox"): the GM button, the GM panel over the right
of the map, the frame and banner that say GM mode is on, and the odds bar. What the buttons do is the
headless :class:`~game.ui.sandbox.Sandbox`'s; the battle screen only hands this module its events, its
frame and its drawing (a few lines in ``game.ui.battle``).

Keys: G switches GM mode on and off (off: the battle goes back to each side's seat); in GM mode 1-5 pick
the tools, O asks for the odds from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pygame
from pygame_gui.elements import UILabel, UIPanel

from ai.odds import Odds
from game.commands import Command
from game.engine.gm import GmField
from game.ui import settings
from game.ui.battle_hud import fit_text, font
from game.ui.gui import GuiManager, TipButton
from game.ui.layout_fit import wrap
from game.ui.sandbox import TOOL_HINTS, TOOL_LABELS, TOOLS, Sandbox

if TYPE_CHECKING:
    from game.ui.battle_board import BattleBoard
    from game.ui.battle_hud import Layout
    from game.ui.controller import BattleController
    from game.ui.session import BattleSession


class GmHost(Protocol):
    """What the GM panel uses of the battle screen (``game.ui.battle.BattleScreen``)."""

    session: BattleSession
    controller: BattleController
    layout: Layout
    board: BattleBoard
    dragged: bool
    drag_from: tuple[int, int] | None

    def px(self, value: float) -> int: ...

    def rebuild(self) -> None: ...

    def button(
        self,
        rect: pygame.Rect,
        text: str,
        command: Callable[[], None],
        *,
        tooltip: str | None = ...,
        container: Any = ...,
    ) -> TipButton: ...


__all__ = ["GM_FRAME_COLOR", "GmPanel"]

GM_KEY = pygame.K_g
ODDS_KEY = pygame.K_o
TOOL_KEYS = {pygame.K_1 + i: tool for i, tool in enumerate(TOOLS)}
GM_FRAME_COLOR = (232, 92, 40)
PANEL_W = 300
ROW = 25
FLAG_CHARS = 10  # a status name longer than this gets a whole row of the panel
BANNER_ROWS = 3  # the GM-mode banner wraps a long message onto this many rows at most


class GmPanel:
    """GM mode's widgets and drawing for one battle screen."""

    def __init__(self, screen: GmHost, *, odds_workers: int | None = None) -> None:
        self.screen = screen
        self.sandbox = Sandbox(lambda: screen.session, self._send, self._pause, odds_workers=odds_workers)
        self.toggle_button: TipButton | None = None
        self.panel: UIPanel | None = None
        self.buttons: dict[str, TipButton] = {}
        self._built_for: object = None
        self._was_paused = False
        self.odds_rect: pygame.Rect | None = None
        # the banner's rows for (its text, its width, its font): wrapping measures every word
        self._banner: tuple[object, list[str]] = (None, [])

    # -- the sandbox's callbacks ----------------------------------------------------------------------
    def _send(self, command: Command) -> bool:
        controller = self.screen.controller
        sent = controller.send(command)
        if not sent:
            self.sandbox.message = controller.message
        return sent

    def _pause(self, on: bool) -> None:
        pilot = self.screen.controller.pilot
        if on:
            self._was_paused = pilot.paused
            pilot.paused = True
            self.screen.controller.gm_lock = True
        else:
            pilot.paused = self._was_paused
            self.screen.controller.gm_lock = False
        self.screen.controller.stale = True

    @property
    def on(self) -> bool:
        return self.sandbox.on

    def toggle(self) -> None:
        self.sandbox.toggle()
        self._built_for = None

    # -- widgets --------------------------------------------------------------------------------------
    def key(self) -> object:
        s = self.sandbox
        if not s.on:  # only the GM button: the battle's own widgets update in place (issue 13)
            return False
        seats = tuple(s.session.seats.values())
        return (s.on, s.tool, s.unit, s.position_key(), seats, s.run is not None)

    def rect(self) -> pygame.Rect:
        area = self.screen.layout.map
        w = min(self.screen.px(PANEL_W), area.width // 2)
        return pygame.Rect(area.right - w, area.top, w, area.height)

    def build(self, manager: GuiManager) -> None:
        """Build the GM button, and the panel while GM mode is on (the screen's build calls this)."""
        scr = self.screen
        area = scr.layout.map
        self.buttons = {}
        self.panel = None
        bw, bh = scr.px(96), scr.px(26)
        label = "GM: on" if self.on else "GM"
        tip = "Leave GM mode: the battle goes on (G)" if self.on else "GM mode: edit the battle (G)"
        right = self.rect().left if self.on else area.right
        self.toggle_button = scr.button(
            pygame.Rect(right - bw - scr.px(6), area.top + scr.px(6), bw, bh), label, self.toggle, tooltip=tip
        )
        self._built_for = self.key()
        if not self.on:
            return
        self._build_panel(manager)

    def _build_panel(self, manager: GuiManager) -> None:
        scr, s = self.screen, self.sandbox
        box = self.rect()
        panel = self.panel = UIPanel(box, manager=manager, object_id="#battle_panel")
        inner = panel.get_container().get_rect().width - scr.px(12)
        x, y = scr.px(6), scr.px(6)
        row = scr.px(ROW)

        def label(text: str, width: int = inner) -> None:
            nonlocal y
            UILabel(pygame.Rect(x, y, width, row), text, manager=manager, container=panel)
            y += row

        def button(
            key: str, rect: pygame.Rect, text: str, command: Callable[[], None], tip: str = ""
        ) -> TipButton:
            made = scr.button(rect, text, command, container=panel, tooltip=tip or None)
            self.buttons[key] = made
            return made

        label("GM MODE: the battle waits")
        tw = inner // 3
        for i, tool in enumerate(TOOLS):
            rect = pygame.Rect(x + (i % 3) * tw, y + (i // 3) * row, tw - scr.px(2), row - scr.px(2))
            made = button(
                f"tool:{tool}",
                rect,
                TOOL_LABELS[tool],
                _bind(s.set_tool, tool),
                f"{TOOL_HINTS[tool]} (key {i + 1})",
            )
            made.set_selected(tool == s.tool)
        y += 2 * row
        if s.unit is not None:
            label(f"{s.match.unit_view(s.unit).name}:")
            column = 0  # flags go two to a row
            for field in s.fields():
                if field.flag:
                    half = inner // 2
                    wide = len(field.label) > FLAG_CHARS  # a long name takes a row of its own
                    if wide and column:
                        y, column = y + row, 0
                    made = button(
                        f"flag:{field.key}",
                        pygame.Rect(
                            x + column * half, y, (inner if wide else half) - scr.px(2), row - scr.px(2)
                        ),
                        field.label,
                        _bind(s.nudge, field.key, 1),
                        f"{field.label}: {'yes' if field.value else 'no'} (click to switch)",
                    )
                    made.set_selected(bool(field.value))
                    column = 0 if wide else 1 - column
                    if column == 0:
                        y += row
                    continue
                if column:
                    y, column = y + row, 0
                self._number_row(manager, panel, button, field, pygame.Rect(x, y, inner, row))
                y += row
            if column:
                y += row
        off = s.off_map()
        if off:
            label("Off the map: pick, click a tile")
            for gone in off[:3]:
                text = f"{gone.name} ({gone.why})"
                made = button(
                    f"place:{gone.unit}",
                    pygame.Rect(x, y, inner, row - scr.px(2)),
                    text,
                    _bind(self._place, gone.unit),
                )
                made.set_selected(gone.unit == s.unit)
                y += row
        label("Seats after GM mode:")
        for side in s.sides():
            who = "computer (ai:normal)" if s.seat_is_ai(side) else "player"
            button(
                f"seat:{side}",
                pygame.Rect(x, y, inner, row - scr.px(2)),
                f"{s.session.side_name(side)}: {who}",
                _bind(s.switch_seat, side),
            )
            y += row
        button(
            "odds",
            pygame.Rect(x, y, inner, row - scr.px(2)),
            "Odds from here (O)",
            self.start_odds,
            f"{s.odds_games} computer-vs-computer games from this position",
        )
        y += row
        inside = panel.get_container().get_rect()
        self.odds_rect = pygame.Rect(inside.x + x, inside.y + y + scr.px(4), inner, scr.px(64))
        y += scr.px(72)
        button(
            "hand_back",
            pygame.Rect(x, max(y, inside.height - row - scr.px(6)), inner, row),
            "Hand back (G)",
            self.toggle,
            "Leave GM mode: each side's seat plays on",
        )

    def _number_row(
        self,
        manager: GuiManager,
        panel: UIPanel,
        button: Callable[..., TipButton],
        field: GmField,
        rect: pygame.Rect,
    ) -> None:
        """A number's row: its label and value, and - / + buttons."""
        scr, s = self.screen, self.sandbox
        sw = scr.px(30)
        text = f"{field.label}: {field.value}/{field.high}"
        UILabel(
            pygame.Rect(rect.x, rect.y, rect.width - 2 * sw, rect.height),
            text,
            manager=manager,
            container=panel,
        )
        inner, gap = rect.height - scr.px(2), scr.px(2)
        minus = button(
            f"minus:{field.key}",
            pygame.Rect(rect.right - 2 * sw, rect.y, sw - gap, inner),
            "-",
            _bind(s.nudge, field.key, -1),
        )
        plus = button(
            f"plus:{field.key}",
            pygame.Rect(rect.right - sw, rect.y, sw - gap, inner),
            "+",
            _bind(s.nudge, field.key, 1),
        )
        minus.set_enabled(field.value > field.low)
        plus.set_enabled(field.value < field.high)

    def _place(self, unit: int) -> None:
        self.sandbox.set_tool("move")
        self.sandbox.pick(unit)

    def start_odds(self) -> None:
        self.sandbox.start_odds()
        self._built_for = None

    def refresh(self) -> None:
        """Each frame: build the widgets again when what they show changed (a cheap key); tell the
        camera what of the map the panel and the banner cover, so the map's edge can come out from under
        them."""
        if self._built_for != self.key():
            self.screen.rebuild()
        cam = self.screen.board.view.camera
        insets = (0, 0, self.rect().width, self.banner_room()) if self.on else (0, 0, 0, 0)
        if cam.insets != insets:
            cam.insets = insets
            cam.clamp()

    # -- events ---------------------------------------------------------------------------------------
    def on_event(self, event: pygame.event.Event, consumed: bool) -> bool:
        """The GM's part of an event; True when it took the event (the battle screen then ignores it)."""
        scr = self.screen
        if event.type == pygame.KEYDOWN and not consumed:
            if event.key == GM_KEY:
                self.toggle()
                return True
            if not self.on:
                return False
            if event.key in TOOL_KEYS:
                self.sandbox.set_tool(TOOL_KEYS[event.key])
                return True
            if event.key == ODDS_KEY:
                self.start_odds()
                return True
            return event.key in (pygame.K_TAB, pygame.K_BACKSPACE, pygame.K_RETURN, pygame.K_KP_ENTER)
        if not self.on:
            return False
        if event.type == pygame.MOUSEBUTTONUP and event.button in (1, 3) and not consumed:
            inside = scr.layout.map.collidepoint(event.pos) and not self.rect().collidepoint(event.pos)
            if not inside or scr.dragged:
                return False
            scr.drag_from, scr.dragged = None, False
            if event.button == 1:
                self.sandbox.click(scr.board.hex_at(event.pos), scr.board.token_at(event.pos))
            return True
        return False

    # -- drawing --------------------------------------------------------------------------------------
    def _banner_font(self) -> pygame.font.Font:
        return font(max(10, self.screen.px(14)), bold=True)

    def banner_room(self) -> int:
        """How much of the map's bottom the GM-mode banner covers (0 with GM mode off): what is drawn in
        the map's place (a broken map's problems) keeps above it."""
        if not self.on:
            return 0
        rows = len(self.banner_rows())
        return rows * self._banner_font().get_linesize() + self.screen.px(14) + self.screen.px(4)

    def banner_rows(self) -> list[str]:
        """The banner's text ("GM MODE — " and the GM's message or the tool's hint) wrapped to the room
        left of the panel: at most ``BANNER_ROWS`` rows, the last cut short with an ellipsis."""
        scr = self.screen
        text = f"GM MODE \u2014 {self.sandbox.message or TOOL_HINTS[self.sandbox.tool]}"
        width = max(scr.px(80), self.rect().left - scr.layout.map.x - scr.px(28))
        face = self._banner_font()
        key = (text, width, face)
        if self._banner[0] == key:  # asked twice a frame (the camera's insets, the drawing): wrapped once
            return self._banner[1]
        rows = wrap(face, text, width)
        if len(rows) > BANNER_ROWS:
            rows = [*rows[: BANNER_ROWS - 1], fit_text(face, " ".join(rows[BANNER_ROWS - 1 :]), width)]
        rows = [r if face.size(r)[0] <= width else fit_text(face, r, width) for r in rows]
        self._banner = (key, rows)
        return rows

    def draw(self, surface: pygame.Surface) -> None:
        """The frame and banner of GM mode, the GM's message and the odds bar (over the widgets)."""
        if not self.on:
            return
        scr = self.screen
        area = scr.layout.map
        pygame.draw.rect(surface, GM_FRAME_COLOR, area, max(2, scr.px(4)))
        face = self._banner_font()
        rows = [face.render(r, True, (255, 248, 232)) for r in self.banner_rows()]
        line = face.get_linesize()
        height = line * (len(rows) - 1) + rows[-1].get_height()
        back = pygame.Rect(area.x + scr.px(8), area.bottom - height - scr.px(14), 0, 0)
        back.size = (max(r.get_width() for r in rows) + scr.px(12), height + scr.px(6))
        pygame.draw.rect(surface, GM_FRAME_COLOR, back, border_radius=scr.px(4))
        for i, row in enumerate(rows):
            surface.blit(row, (back.x + scr.px(6), back.y + scr.px(3) + i * line))
        if self.odds_rect is not None:
            self.draw_odds(surface, self.odds_rect)

    def draw_odds(self, surface: pygame.Surface, box: pygame.Rect) -> None:
        """Each side's chance of winning as a bar (side one's colour from the left, the other's from the
        right, draws grey between), with the percentages, intervals and progress under it."""
        s = self.sandbox
        odds = s.odds()
        faded = odds is None and s.stale is not None
        shown: Odds | None = odds if odds is not None else s.stale
        small = font(max(9, self.screen.px(12)), bold=False)
        bar = pygame.Rect(box.x, box.y, box.width, max(8, box.height // 4))
        pygame.draw.rect(surface, (40, 34, 28), bar)
        if shown is None:
            words = ["Odds from here: not asked yet (O)"]
        else:
            sides = s.sides()
            colours = settings.TOKEN_SIDE_COLORS
            played = shown.played
            if played:
                x = bar.x
                for i, side in enumerate(sides[:2]):
                    share = shown.share(side)[0]
                    width = round(bar.width * share)
                    rect = pygame.Rect(x if i == 0 else bar.right - width, bar.y, width, bar.height)
                    pygame.draw.rect(surface, colours[i % len(colours)], rect)
                    x += width
            pygame.draw.rect(surface, (230, 220, 200), bar, 1)
            words = []
            for side in sides:
                p, low, high = shown.share(side)
                words.append(f"{s.session.side_name(side)}: {p:.0%} ({low:.0%}\u2013{high:.0%})")
            state = (
                "done" if shown.finished else ("stopped: the position changed" if faded else "playing\u2026")
            )
            failed = f", {shown.failed} failed" if shown.failed else ""
            words.append(
                f"{played}/{shown.total} games, draws {shown.draw_share():.0%}{failed} \u2014 {state}"
            )
        y = bar.bottom + 2
        for line in words:
            img = small.render(line, True, (150, 130, 110) if faded else (52, 36, 22))
            surface.blit(img, (box.x, y), pygame.Rect(0, 0, box.width, img.get_height()))
            y += img.get_height()


def _bind(func: Callable[..., object], *args: object) -> Callable[[], None]:
    """A button's command with its arguments bound (a closure per button)."""

    def call() -> None:
        func(*args)

    return call
