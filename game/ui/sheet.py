"""The parchment sheet the menu screens and dialogs are written on, and a list of selectable rows.

:class:`SheetScene` is a :class:`~game.ui.gui.GuiScene` with a parchment sheet in a wood frame and a heading.
A full screen (New Battle, Load, Results) puts it over the dimmed sunset; an *overlay* (the pause menu,
dialogs) puts it over the screen below, which shows through a dark veil. Subclasses lay out their widgets
in :meth:`SheetScene.build_sheet`, inside the sheet's panel.

:class:`RowList` is a scrolling table of rows (a button per row, columns as labels the pointer passes
through) where one row is selected at a time: the map list and the save list.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UIScrollingContainer, UITextBox

from game.ui.backdrop import draw_backdrop, draw_ornament, draw_parchment
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton

RULE: Final = (140, 96, 52)  # the ornament under a heading
VEIL: Final = (12, 6, 4, 175)
WELL: Final = (250, 242, 222)  # the lighter ground under a list
WELL_EDGE: Final = (176, 138, 90)  # over the screen below an overlay


class PassLabel(UILabel):
    """A label the pointer passes through (so the row button under it still highlights)."""

    def can_hover(self) -> bool:
        return False


class SheetScene(GuiScene):
    """A parchment sheet with a heading (see the module text)."""

    heading: str = ""
    sheet_size: tuple[int, int] = (1000, 720)  # the largest sheet, in layout pixels at scale 1
    overlay: bool = False  # True: over the screen below (not opaque), False: over the sunset

    def __init__(self, shell: Shell, size: tuple[int, int] = (1280, 720)) -> None:
        super().__init__(shell, size)
        self.opaque = not self.overlay
        self.panel: UIPanel | None = None
        self.sheet = pygame.Rect(0, 0, 1, 1)  # the frame, window coordinates
        self.inner = pygame.Rect(0, 0, 1, 1)  # the panel's area, panel coordinates
        self.heading_label: UILabel | None = None
        self._background: pygame.Surface | None = None
        self._veil: pygame.Surface | None = None
        self.wells: list[pygame.Rect] = []  # lighter insets drawn on the sheet (window coordinates)

    # -- layout
    def sheet_rect(self) -> pygame.Rect:
        w, h = self.size
        margin = self.px(16) if not self.overlay else self.px(24)
        sw = min(w - 2 * margin, self.px(self.sheet_size[0]))
        sh = min(h - 2 * margin, self.px(self.sheet_size[1]))
        return pygame.Rect((w - sw) // 2, (h - sh) // 2, sw, sh)

    @property
    def pad(self) -> int:
        return self.px(22)

    @property
    def content_top(self) -> int:
        """Where the content starts in the panel, below the heading and its ornament."""
        return self.px(70) if self.heading else self.pad

    def build(self, manager: GuiManager) -> None:
        self._background = None
        self.wells = []
        self.sheet = self.sheet_rect()
        frame = self.px(8)
        self.panel = panel = UIPanel(
            self.sheet.inflate(-2 * frame, -2 * frame), manager=manager, object_id=ObjectID("#sheet")
        )
        area = panel.get_container().get_rect()
        self.inner = pygame.Rect(0, 0, area.width, area.height)
        self.heading_label = None
        if self.heading:
            self.heading_label = UILabel(
                pygame.Rect(self.pad, self.px(8), self.inner.width - 2 * self.pad, self.px(48)),
                self.heading,
                manager=manager,
                container=panel,
                object_id=ObjectID("#heading", "@heading"),
            )
        self.build_sheet(manager, panel)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        raise NotImplementedError

    # -- widget helpers
    def button(
        self,
        rect: pygame.Rect,
        text: str,
        command: Callable[[], None],
        *,
        container: Any = None,
        **kwargs: Any,
    ) -> TipButton:
        """A button on the sheet (in its panel unless another container is given)."""
        return super().button(
            rect, text, command, container=container if container is not None else self.panel, **kwargs
        )

    def label(
        self,
        rect: pygame.Rect,
        text: str,
        *,
        class_id: str | None = None,
        object_id: str | None = None,
        container: Any = None,
    ) -> UILabel:
        return UILabel(
            rect,
            text or " ",
            manager=self.manager,
            container=container if container is not None else self.panel,
            object_id=ObjectID(object_id=object_id, class_id=class_id),
        )

    def add_well(self, rect: pygame.Rect) -> None:
        """Paint a lighter inset under ``rect`` (panel coordinates) on the sheet."""
        if self.panel is not None:
            origin = self.panel.get_container().get_rect().topleft
            self.wells.append(rect.move(origin))

    def section(self, rect: pygame.Rect, text: str, container: Any = None) -> UILabel:
        return self.label(
            pygame.Rect(rect.x, rect.y, rect.width, self.px(30)),
            text,
            class_id="@section",
            container=container,
        )

    # -- drawing
    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)
        self._background = None
        self._veil = None

    def draw_sheet(self, surface: pygame.Surface, offset: tuple[int, int] = (0, 0)) -> None:
        """The parchment, the ornament under the heading, and anything a subclass draws on the sheet."""
        rect = self.sheet.move(offset)
        draw_parchment(surface, rect, frame=self.px(8))
        for well in self.wells:
            area = well.move(offset)
            pygame.draw.rect(surface, WELL, area, border_radius=4)
            pygame.draw.rect(surface, WELL_EDGE, area, 1, border_radius=4)
        if self.heading:
            draw_ornament(
                surface, (rect.centerx, rect.y + self.px(64)), min(self.px(220), rect.width // 3), RULE
            )

    def draw_background(self, surface: pygame.Surface) -> None:
        if self.overlay:
            if self._veil is None or self._veil.get_size() != self.size:
                self._veil = pygame.Surface(self.size, pygame.SRCALPHA)
                self._veil.fill(VEIL)
            if self._background is None:
                margin = 16
                card = pygame.Surface(
                    (self.sheet.width + 2 * margin, self.sheet.height + 2 * margin), pygame.SRCALPHA
                )
                self.draw_sheet(card, (margin - self.sheet.x, margin - self.sheet.y))
                self._background = card
            surface.blit(self._veil, (0, 0))
            surface.blit(self._background, (self.sheet.x - 16, self.sheet.y - 16))
            return
        if self._background is None or self._background.get_size() != self.size:
            self._background = draw_backdrop(self.size, dim=0.35)
            self.draw_sheet(self._background)
        surface.blit(self._background, (0, 0))


@dataclass(frozen=True, slots=True)
class Column:
    title: str
    share: float  # of the row's width
    align: str = "left"  # "left" / "right" / "center"


@dataclass(frozen=True, slots=True)
class Row:
    cells: tuple[str, ...]
    tooltip: str | None = None
    warning: bool = False  # shown in red (a broken map, a damaged save)


class RowList:
    """A table of selectable rows in a scrolling container (see the module text)."""

    def __init__(
        self,
        scene: GuiScene,
        rect: pygame.Rect,
        container: Any,
        columns: Sequence[Column],
        rows: Sequence[Row],
        *,
        on_select: Callable[[int], None],
        selected: int | None = None,
        name: str = "row",
        row_height: int = 34,
        empty_text: str = "",
    ) -> None:
        self.scene = scene
        self.on_select = on_select
        self.rows = list(rows)
        self.buttons: list[TipButton] = []
        self.selected: int | None = None
        manager = scene.manager
        head_h = scene.px(24)
        x = rect.x
        widths = _widths(rect.width - scene.px(20), columns)
        pad = scene.px(10)
        for column, width in zip(columns, widths, strict=True):
            UILabel(
                pygame.Rect(x + pad, rect.y, width - pad, head_h),
                column.title or " ",
                manager=manager,
                container=container,
                object_id=ObjectID(class_id=f"@column_head_{column.align}"),
            )
            x += width
        body = pygame.Rect(
            rect.x, rect.y + head_h + scene.px(2), rect.width, rect.height - head_h - scene.px(2)
        )
        if isinstance(scene, SheetScene):
            scene.add_well(body.inflate(scene.px(6), scene.px(6)))
        self.container = scroller = UIScrollingContainer(
            body,
            manager=manager,
            container=container,
            allow_scroll_x=False,
            object_id=ObjectID(f"#{name}_list"),
        )
        step = scene.px(row_height)
        inner_w = body.width - scene.px(20)  # room for the scroll bar
        theme = manager.get_theme() if manager is not None else None
        for i, row in enumerate(self.rows):
            y = i * step
            cells = []  # (rect, text shown, class id); a cell too long for its column ends in an ellipsis
            cut: list[str] = []
            cx = 0
            for column, width, text in zip(columns, widths, row.cells, strict=False):
                class_id = f"{'@cell_bad' if row.warning and cx > 0 else '@cell'}_{column.align}"
                font = theme.get_font([class_id, "label"]) if theme is not None else None
                shown = fit_text(font, text, width - 2 * pad)
                if shown != text:
                    cut.append(html.escape(text))
                cells.append((pygame.Rect(cx + pad, y, width - 2 * pad, step - scene.px(3)), shown, class_id))
                cx += width
            tooltip = "<br>".join([*cut, row.tooltip] if row.tooltip else cut) or None  # the whole of it
            button = scene.button(
                pygame.Rect(0, y, inner_w, step - scene.px(3)),
                "",
                lambda i=i: self.select(i, notify=True),  # type: ignore[misc]
                object_id=f"#{name}_{i}",
                class_id="@row",
                container=scroller,
                tooltip=tooltip,
            )
            self.buttons.append(button)
            for area, shown, class_id in cells:
                PassLabel(
                    area,
                    shown or " ",
                    manager=manager,
                    container=scroller,
                    object_id=ObjectID(class_id=class_id),
                )
        if not self.rows and empty_text:
            PassLabel(
                pygame.Rect(0, scene.px(8), inner_w, step),
                empty_text,
                manager=manager,
                container=scroller,
                object_id=ObjectID(class_id="@note"),
            )
        scroller.set_scrollable_area_dimensions((inner_w, max(1, len(self.rows)) * step))
        if selected is not None and 0 <= selected < len(self.rows):
            self.select(selected)

    def select(self, index: int, notify: bool = False) -> None:
        self.selected = index
        for i, button in enumerate(self.buttons):
            button.set_selected(i == index)
        if notify:
            self.on_select(index)

    def row_rect(self, index: int) -> pygame.Rect:
        """Where row ``index`` is on the window (tests click it)."""
        return pygame.Rect(self.buttons[index].rect)


class PickerSheet(SheetScene):
    """A sheet to pick one thing from a list (a :class:`RowList`), with what the picked one is in a text
    box under the list (:meth:`details_html`): the Load screen and the encounter picker."""

    rows: RowList | None
    details: UITextBox | None
    selected: int | None

    def build_picker(
        self,
        manager: GuiManager,
        panel: UIPanel,
        *,
        top: int,
        list_h: int,
        details_h: int,
        columns: Sequence[Column],
        rows: Sequence[Row],
        name: str,
        empty_text: str,
        details_id: str,
    ) -> int:
        """The list from ``top``, ``list_h`` high, and the details box under it; the y under the box."""
        inner, pad = self.inner, self.pad
        self.rows = RowList(
            self,
            pygame.Rect(pad, top, inner.width - 2 * pad, list_h),
            panel,
            columns,
            rows,
            on_select=self.pick,
            selected=self.selected,
            name=name,
            empty_text=empty_text,
        )
        y = top + list_h + self.px(10)
        self.details = UITextBox(
            self.details_html(),
            pygame.Rect(pad, y, inner.width - 2 * pad, details_h),
            manager=manager,
            container=panel,
            object_id=ObjectID(details_id, "@paper_text"),
        )
        return y + details_h

    def details_html(self) -> str:
        """What the picked one is (or what to do with none picked), as pygame-gui's HTML."""
        raise NotImplementedError

    def pick(self, index: int) -> None:
        """Pick row ``index``: the list shows it picked and the details box says what it is."""
        self.selected = index
        if self.rows is not None:
            self.rows.select(index)
        if self.details is not None:
            self.details.set_text(self.details_html())


class ScrollAssist:
    """The mouse wheel anywhere over a scrolling container, and a whole ``step`` (content pixels) per click
    on its scroll bar's arrows. pygame-gui scrolls by the wheel only while a widget inside the container
    is hovered, and a table of labels (the results) has none; its arrows move only while held, so a click
    hardly moves the list. The screen hands it its events (:meth:`handle`)."""

    def __init__(self, scroller: UIScrollingContainer, step: int, wheel_steps: int = 2) -> None:
        self.scroller = scroller
        self.step = step
        self.wheel_steps = wheel_steps

    def handle(self, event: pygame.event.Event, consumed: bool) -> bool:
        """Scroll for a wheel turn over the container (unless pygame-gui already did) or a press on an
        arrow; True if it did."""
        bar = self.scroller.vert_scroll_bar
        if bar is None or not self.scroller.alive():  # type: ignore[no-untyped-call]
            return False
        if event.type == pygame.MOUSEWHEEL and not consumed and event.y:
            pointer = self.scroller.ui_manager.get_mouse_position()
            if self.scroller.rect.collidepoint(pointer):
                self.scroll_by(-event.y * self.wheel_steps * self.step)
                return True
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for arrow, sign in ((bar.top_button, -1), (bar.bottom_button, 1)):
                if arrow is not None and arrow.visible and arrow.rect.collidepoint(event.pos):
                    self.scroll_by(sign * self.step)
                    return True
        return False

    def scroll_by(self, pixels: float) -> None:
        """Move the contents ``pixels`` down (up if negative), within the ends; the bar glides there."""
        bar = self.scroller.vert_scroll_bar
        content = self.scroller.scrolling_height
        if bar is None or bar.sliding_button is None or content <= 0:
            return
        track = bar.scrollable_height / content  # bar pixels per content pixel
        lowest = bar.bottom_limit - bar.sliding_button.relative_rect.height
        target = bar.target_scroll_position + pixels * track
        bar.target_scroll_position = min(max(target, bar.top_limit), lowest)


MAX_CELL_CHARS = 300  # more than any column shows: longer text (a name from a damaged file) is cut first


def fit_text(font: Any, text: str, width: int) -> str:
    """``text`` cut to ``width`` pixels in ``font`` (a pygame-gui font), with an ellipsis when cut.

    The longest prefix that fits is found by bisection over at most :data:`MAX_CELL_CHARS` characters,
    so a name of a million characters costs a dozen measurements, not a million."""
    if font is None:
        return text
    if len(text) <= MAX_CELL_CHARS and font.size(text)[0] <= width:
        return text
    text = text[:MAX_CELL_CHARS]
    low, high = 0, len(text)  # text[:low] + ellipsis fits; text[:high + 1] + ellipsis does not
    while low < high:
        mid = (low + high + 1) // 2
        if font.size(text[:mid] + "\u2026")[0] <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "\u2026"


def _widths(total: int, columns: Sequence[Column]) -> list[int]:
    shares = sum(c.share for c in columns) or 1.0
    widths = [round(total * c.share / shares) for c in columns]
    widths[-1] = total - sum(widths[:-1])
    return widths
