"""Small dialogs over the current screen: a message, a yes/no question, a name to type.

Each is an overlay :class:`~game.ui.sheet.SheetScene`: the screen below stays visible behind a veil, and
closing the dialog (OK, No, Esc) pops it and leaves that screen as it was ("the game goes on").
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UITextBox, UITextEntryLine

from game.save import SaveError
from game.tiledmap import MapProblem
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.scenes import Action, Pop
from game.ui.sheet import SheetScene

MAX_NAME: Final = 60


def problems_html(problems: Sequence[MapProblem]) -> str:
    """Map problems as check-map words them: where, what is wrong, how to fix it."""
    rows = []
    for p in problems:
        where = f"layer \u2018{html.escape(p.layer)}\u2019" if p.layer else ""
        if p.cell is not None:
            where += f"{', ' if where else ''}cell {p.cell[0]},{p.cell[1]}"
        head = f"<b>{html.escape(p.what)}</b>" + (f" <i>({where})</i>" if where else "")
        rows.append(f"\u2022 {head}<br>&nbsp;&nbsp;&nbsp;<i>Fix:</i> {html.escape(p.fix)}")
    return "<br>".join(rows)


def save_error_html(error: SaveError) -> str:
    return (
        f"<b>{html.escape(error.what)}</b><br><br><i>What to do:</i> {html.escape(error.fix)}"
        f"<br><br><i>{html.escape(str(error.path))}</i>"
    )


class MessageDialog(SheetScene):
    """A heading, a text (pygame-gui HTML, scrolls when long) and OK."""

    overlay = True
    sheet_size = (680, 380)

    def __init__(
        self,
        shell: Shell,
        heading: str,
        text_html: str,
        *,
        ok: str = "OK",
        on_ok: Callable[[], Action | None] | None = None,
        size: tuple[int, int] = (1280, 720),
    ) -> None:
        self.heading = heading
        self.text_html = text_html
        self.ok_text = ok
        self.on_ok = on_ok
        self.ok_button: TipButton | None = None
        self.text_box: UITextBox | None = None
        super().__init__(shell, size)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bh = self.px(40)
        self.text_box = UITextBox(
            self.text_html,
            pygame.Rect(
                pad, self.content_top, inner.width - 2 * pad, inner.height - self.content_top - bh - pad - 8
            ),
            manager=manager,
            container=panel,
            object_id=ObjectID("#message", "@paper_text"),
        )
        bw = self.px(140)
        self.ok_button = self.button(
            pygame.Rect((inner.width - bw) // 2, inner.height - bh - self.px(12), bw, bh),
            self.ok_text,
            self.close,
            object_id="#ok",
            container=panel,
        )

    def close(self) -> None:
        action = self.on_ok() if self.on_ok is not None else None
        self.act(action if action is not None else Pop())

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key in (
            pygame.K_ESCAPE,
            pygame.K_RETURN,
            pygame.K_KP_ENTER,
        ):
            self.close()
            return self._take()
        return None


class ConfirmDialog(SheetScene):
    """A question with two buttons. ``on_yes`` gives the action for yes; no (or Esc) closes the dialog.

    ``on_close``: what a press of the window's close button does while the question is open (a second
    close of a battle quits).
    """

    overlay = True
    sheet_size = (600, 260)

    def __init__(
        self,
        shell: Shell,
        heading: str,
        text: str,
        *,
        yes: str,
        no: str,
        on_yes: Callable[[], Action],
        on_close: Action | None = None,
        size: tuple[int, int] = (1280, 720),
    ) -> None:
        self.heading = heading
        self.text = text
        self.yes_text = yes
        self.no_text = no
        self.on_yes = on_yes
        self.on_close = on_close
        self.buttons: dict[str, TipButton] = {}
        super().__init__(shell, size)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bh = self.px(42)
        UITextBox(
            html.escape(self.text),
            pygame.Rect(
                pad, self.content_top, inner.width - 2 * pad, inner.height - self.content_top - bh - pad
            ),
            manager=manager,
            container=panel,
            object_id=ObjectID("#question", "@question"),
        )
        bw, gap = self.px(190), self.px(16)
        y = inner.height - bh - self.px(14)
        left = (inner.width - 2 * bw - gap) // 2
        self.buttons = {
            "no": self.button(
                pygame.Rect(left, y, bw, bh),
                self.no_text,
                lambda: self.act(Pop()),
                object_id="#no",
                container=panel,
            ),
            "yes": self.button(
                pygame.Rect(left + bw + gap, y, bw, bh),
                self.yes_text,
                lambda: self.act(self.on_yes()),
                object_id="#yes",
                class_id="@danger",
                container=panel,
            ),
        }

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_n):
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_y):
                return self.on_yes()
        return None

    def on_close_request(self) -> Action | None:
        return self.on_close


class NameDialog(SheetScene):
    """A name to type (a save's, a replay's). ``on_ok(name)`` returns None when done (the dialog closes)
    or the reason it could not be used, which is shown while the dialog stays open."""

    overlay = True
    sheet_size = (600, 270)

    def __init__(
        self,
        shell: Shell,
        heading: str,
        prompt: str,
        *,
        initial: str = "",
        ok: str = "Save",
        on_ok: Callable[[str], str | None],
        size: tuple[int, int] = (1280, 720),
    ) -> None:
        self.heading = heading
        self.prompt = prompt
        self.text = initial
        self.ok_text = ok
        self.on_ok = on_ok
        self.note = ""
        self.entry: UITextEntryLine | None = None
        self.note_label: UILabel | None = None
        self.buttons: dict[str, TipButton] = {}
        super().__init__(shell, size)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        y = self.content_top
        self.label(pygame.Rect(pad, y, inner.width - 2 * pad, self.px(28)), self.prompt)
        y += self.px(32)
        self.entry = UITextEntryLine(
            pygame.Rect(pad, y, inner.width - 2 * pad, self.px(38)),
            manager=manager,
            container=panel,
            object_id=ObjectID("#name_entry"),
            initial_text=self.text,
        )
        self.entry.length_limit = MAX_NAME
        self.entry.focus()  # type: ignore[no-untyped-call]
        self.entry.edit_position = len(self.text)
        y += self.px(44)
        self.note_label = self.label(
            pygame.Rect(pad, y, inner.width - 2 * pad, self.px(26)),
            self.note,
            class_id="@note",
            object_id="#note",
        )
        bh, bw, gap = self.px(42), self.px(160), self.px(16)
        by = inner.height - bh - self.px(14)
        left = (inner.width - 2 * bw - gap) // 2
        self.buttons = {
            "cancel": self.button(
                pygame.Rect(left, by, bw, bh),
                "Cancel",
                lambda: self.act(Pop()),
                object_id="#cancel",
                container=panel,
            ),
            "ok": self.button(
                pygame.Rect(left + bw + gap, by, bw, bh),
                self.ok_text,
                self.confirm,
                object_id="#ok",
                container=panel,
            ),
        }

    def current_text(self) -> str:
        return self.entry.get_text() if self.entry is not None else self.text

    def confirm(self) -> None:
        self.text = self.current_text()
        name = " ".join(self.text.split())
        problem = "type a name first" if not name else self.on_ok(name)
        if problem is None:
            self.act(Pop())
            return
        self.note = problem
        if self.note_label is not None:
            self.note_label.set_text(problem)

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Pop()
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.confirm()
            return self._take()
        if event.type == pygame_gui.UI_TEXT_ENTRY_CHANGED and event.ui_element is self.entry:
            self.text = self.current_text()
        return None

    def resize(self, size: tuple[int, int]) -> None:
        if self.entry is not None and self.entry.alive():  # type: ignore[no-untyped-call]
            self.text = self.current_text()
        super().resize(size)
