"""The posse builder's Load dialog (:class:`LoadPosseScene`): over the builder, the saved and built-in
posses of a ruleset from the library (:func:`game.posses.list_posses`), saved ones first; a file that cannot
be used is listed with its error and cannot be picked. A library failure is a sentence, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.posses import PosseEntry, PosseFileError, list_posses
from game.ui.backdrop import draw_ornament, draw_parchment
from game.ui.gui import GuiManager, Shell
from game.ui.posse_common import RULE, SCROLL_BAR, ChoiceButton, PosseScene, esc, fit_text
from game.ui.scenes import Action, Pop

__all__ = ["LoadPosseScene"]


class LoadPosseScene(PosseScene):
    """Over the builder: the saved and built-in posses of a ruleset; a file that cannot be used is listed
    with its error and cannot be picked. ``on_pick`` returns None when the posse was taken, else why not."""

    opaque = False

    def __init__(
        self,
        shell: Shell,
        ruleset: str,
        on_pick: Callable[[PosseEntry], str | None],
        *,
        title: str = "",
    ) -> None:
        super().__init__(shell)
        self.ruleset = ruleset
        self.on_pick = on_pick
        self.title = title
        self.note = ""
        self.entries: list[PosseEntry] = []
        self.entry_buttons: list[ChoiceButton] = []
        self.error_boxes: dict[int, UITextBox] = {}
        self.widgets: dict[str, Any] = {}
        self._panel = pygame.Rect(0, 0, 1, 1)
        self._shade: pygame.Surface | None = None

    def build(self, manager: GuiManager) -> None:
        self.theme(manager)
        self._shade = None
        self.widgets = {}
        self.entry_buttons = []
        self.error_boxes = {}
        try:
            self.entries = list_posses(self.ruleset)
        except (PosseFileError, OSError) as failure:
            self.entries = []
            self.note = f"The posses cannot be listed: {failure}"
        w, h = self.size
        pw, ph = min(w - self.px(60), self.px(660)), min(h - self.px(50), self.px(560))
        self._panel = rect = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        frame = self.px(8)
        panel = UIPanel(rect.inflate(-2 * frame, -2 * frame), manager=manager, object_id=ObjectID("#sheet"))
        inner = panel.get_container().get_rect()
        pad = self.px(18)
        UILabel(
            pygame.Rect(pad, self.px(4), inner.width - 2 * pad, self.px(46)),
            "Load a Posse",
            manager=manager,
            container=panel,
            object_id=ObjectID("#heading", "@heading"),
        )
        UILabel(
            pygame.Rect(pad, self.px(62), inner.width - 2 * pad, self.px(24)),
            f"{self.title} posses: saved ones first, then the built-in ones",
            manager=manager,
            container=panel,
            object_id=ObjectID("#subtitle", "@note"),
        )
        bh = self.px(42)
        top = self.px(96)
        list_rect = pygame.Rect(pad, top, inner.width - 2 * pad, inner.height - top - bh - self.px(48))
        scroller = self.scroller("posse_list", list_rect, panel)
        width = list_rect.width - SCROLL_BAR
        y = 0
        height = self.px(34)
        meta_w = self.px(150)
        for k, entry in enumerate(self.entries):
            kind = "built in" if entry.builtin else "saved"
            error = entry.error.replace(" -- ", " \u2014 ") if entry.error else None
            tip = (
                f"<b>Cannot be loaded.</b> {esc(error)}"
                if error
                else f"{esc(str(entry.path))}"
                if entry.path is not None
                else "Built into Hexslinger."
            )
            self.entry_buttons.append(
                self.choice_button(
                    pygame.Rect(0, y, width - meta_w - self.px(8), height),
                    entry.name,
                    lambda e=entry: self.pick(e),  # type: ignore[misc]
                    class_id="@row",
                    object_id="#posse_entry",
                    tooltip=tip,
                    enabled=entry.error is None,
                    container=scroller,
                )
            )
            meta = "cannot be loaded" if entry.error else f"{entry.units} units, {kind}"
            UILabel(
                pygame.Rect(width - meta_w, y, meta_w, height),
                meta,
                manager=manager,
                container=scroller,
                object_id=ObjectID(None, "@fine_right"),
            )
            y += height + self.px(4)
            if error:
                box = UITextBox(
                    esc(error),
                    pygame.Rect(self.px(10), y, width - self.px(10), -1),
                    manager=manager,
                    container=scroller,
                    object_id=ObjectID("#entry_error", "@error"),
                )
                self.error_boxes[k] = box
                y += box.rect.height + self.px(6)
        if not self.entries:
            UILabel(
                pygame.Rect(0, 0, width, height),
                "No posses to load.",
                manager=manager,
                container=scroller,
                object_id=ObjectID(None, "@note"),
            )
        scroller.set_scrollable_area_dimensions((width, max(1, y)))
        self.widgets["note"] = UILabel(
            pygame.Rect(pad, inner.height - bh - self.px(42), inner.width - 2 * pad, self.px(28)),
            self.note or " ",
            manager=manager,
            container=panel,
            object_id=ObjectID("#note", "@note"),
        )
        self.widgets["cancel"] = self.button(
            pygame.Rect(inner.width - pad - self.px(130), inner.height - bh - self.px(10), self.px(130), bh),
            "Cancel",
            lambda: self.act(Pop()),
            object_id="#cancel",
            container=panel,
        )

    def pick(self, entry: PosseEntry) -> None:
        problem = self.on_pick(entry)
        if problem is None:
            self.act(Pop())
            return
        self.note = problem
        label = self.widgets.get("note")
        if isinstance(label, UILabel):
            label.set_text(fit_text(self.font("@note"), problem, label.rect.width))

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        return None

    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)
        self._shade = None

    def draw_background(self, surface: pygame.Surface) -> None:
        if self._shade is None or self._shade.get_size() != self.size:
            self._shade = pygame.Surface(self.size, pygame.SRCALPHA)
            self._shade.fill((12, 6, 4, 150))
            draw_parchment(self._shade, self._panel, frame=self.px(8))
            draw_ornament(
                self._shade,
                (self._panel.centerx, self._panel.y + self.px(62)),
                min(self.px(200), self._panel.width // 3),
                RULE,
            )
        surface.blit(self._shade, (0, 0))
