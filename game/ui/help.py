"""The help page (F1 in battle, Help in the pause menu): the ruleset's summary of how a turn works and the
key bindings. The summary is the ruleset's own text (``Match.rules_summary``); the page only lays it out.
"""

from __future__ import annotations

import html
from typing import Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIPanel, UITextBox

from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.prefs import ACTIONS
from game.ui.scenes import Action, Pop
from game.ui.settings_screen import key_label
from game.ui.sheet import SheetScene

__all__ = ["FIXED_KEYS", "HelpScene", "summary_html"]

FIXED_KEYS: Final = (
    ("1 \u2013 9", "Action bar"),
    ("Tab", "Next unit with a decision"),
    ("Right click", "Cancel, or take back a pick"),
    ("Ctrl+Z", "Undo"),
    ("Mouse wheel", "Zoom"),
    ("Drag", "Pan the map"),
    ("Space, click", "Hurry the computer player"),
    ("P", "Pause or resume (two computer players)"),
    ("[  ]", "Slower, faster (two computer players)"),
)


def _blocks(text: str) -> list[tuple[bool, str]]:
    """The summary's lines joined back into sentences: (indented, text) per block. A line continues the
    one before unless that one ended a sentence; an indented line is a list item."""
    blocks: list[tuple[bool, str]] = []
    for number, raw in enumerate(text.splitlines()):
        line = raw.rstrip()
        if not line.strip():
            continue
        indented = line.startswith(" ")
        words = line.strip()
        lead, colon, _rest = words.partition(":")
        topic = bool(colon) and not indented and 0 < len(lead.split()) <= 3
        open_end = bool(blocks) and number > 1 and not blocks[-1][1].endswith((".", ":", "!", "?"))
        if open_end and not topic and (indented == blocks[-1][0] or not indented):
            blocks[-1] = (blocks[-1][0], f"{blocks[-1][1]} {words}")
        else:
            blocks.append((indented, words))
    return blocks


def summary_html(text: str) -> str:
    """A ruleset's rules summary as a page: its first line as the heading, "Topic:" leads in bold, indented
    lines as list items, and the hard line breaks of the source text joined into flowing sentences."""
    blocks = _blocks(text)
    if not blocks:
        return ""
    out: list[str] = []
    for i, (indented, block) in enumerate(blocks):
        if i == 0 and not indented and not block.endswith(".") and len(block) < 60:
            continue  # the summary's own title: the page's heading says it
        lead, colon, rest = block.partition(":")
        if colon and not indented and 0 < len(lead.split()) <= 3:
            item = f"<b>{html.escape(lead)}:</b>{html.escape(rest)}"
        else:
            item = html.escape(block)
        out.append(f"&nbsp;&nbsp;\u2022 {item}" if indented else item)
    return "<br>".join(out)


class HelpScene(SheetScene):
    """The ruleset's summary of a turn (``title``: the ruleset's name) and the key bindings."""

    overlay = True
    sheet_size = (1060, 660)

    def __init__(self, shell: Shell, title: str, summary: str, size: tuple[int, int] = (1280, 720)) -> None:
        self.title = title
        self.summary = summary
        self.heading = f"{title}: How a Turn Works"
        self.boxes: dict[str, UITextBox] = {}
        self.close_button: TipButton | None = None
        super().__init__(shell, size)

    def rules_html(self) -> str:
        return summary_html(self.summary or "The summary of this ruleset is not written yet.")

    def keys_html(self) -> str:
        rows = [
            f"<b>{html.escape(key_label(self.shell.prefs.key_bindings.get(action, '')))}</b> \u2014 "
            f"{html.escape(label)}"
            for action, (label, _default) in ACTIONS.items()
        ]
        rows += [f"<b>{html.escape(k)}</b> \u2014 {html.escape(v)}" for k, v in FIXED_KEYS]
        return "<br>".join(rows)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bh = self.px(40)
        top = self.content_top
        height = inner.height - top - bh - self.px(26)
        gap = self.px(20)
        keys_w = max(self.px(220), round((inner.width - 2 * pad) * 0.32))
        rules_w = inner.width - 2 * pad - keys_w - gap
        self.boxes = {
            "rules": UITextBox(
                self.rules_html(),
                pygame.Rect(pad, top, rules_w, height),
                manager=manager,
                container=panel,
                object_id=ObjectID("#rules", "@paper_text"),
            ),
            "keys": UITextBox(
                "<b>Keys</b><br>" + self.keys_html(),
                pygame.Rect(pad + rules_w + gap, top, keys_w, height),
                manager=manager,
                container=panel,
                object_id=ObjectID("#keys", "@paper_text"),
            ),
        }
        bw = self.px(150)
        self.close_button = self.button(
            pygame.Rect((inner.width - bw) // 2, inner.height - bh - self.px(12), bw, bh),
            "Close",
            lambda: self.act(Pop()),
            object_id="#close",
        )

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_RETURN):
            return Pop()
        return None
