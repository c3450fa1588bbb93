"""The pause menu over a battle (Resume, Save, Load, Settings, Help, Quit to Title) and the help page.

Saving asks for a name and writes ``<data dir>/saves/<name>.json``; a failure is said in the dialog and
nothing is lost. Quit to Title asks first (the battle is autosaved anyway). Esc resumes.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UITextBox

from game.ui.dialogs import NameDialog
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.prefs import ACTIONS
from game.ui.scenes import Action, Pop, Push
from game.ui.settings_screen import SettingsScene, key_label
from game.ui.sheet import SheetScene

if TYPE_CHECKING:
    from game.rules import Ruleset
    from game.ui.battle import BattleScreen
    from game.ui.flow import Flow
    from game.ui.session import BattleSession

__all__ = ["MENU", "HelpScene", "PauseMenu", "summary_html"]

MENU: Final = (
    ("resume", "Resume", "Back to the battle (Esc)"),
    ("save", "Save\u2026", "Save the battle under a name"),
    ("load", "Load\u2026", "Load a saved battle (this one stays in its autosave)"),
    ("settings", "Settings", "Window, sound, animation speed and keys"),
    ("help", "Help", "How a turn works, and the keys"),
    ("quit", "Quit to Title", "Leave the battle (it is autosaved)"),
)
FIXED_KEYS: Final = (
    ("1 \u2013 9", "Action bar"),
    ("Tab", "Next unit with a decision"),
    ("Right click", "Cancel, or take back a pick"),
    ("Ctrl+Z", "Undo"),
    ("Mouse wheel", "Zoom"),
    ("Drag", "Pan the map"),
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


class PauseMenu(SheetScene):
    """See the module text."""

    heading = "Paused"
    overlay = True
    sheet_size = (440, 505)

    def __init__(
        self, shell: Shell, screen: BattleScreen, flow: Flow, size: tuple[int, int] = (1280, 720)
    ) -> None:
        self.screen = screen
        self.flow = flow
        self.note = ""
        self.buttons: dict[str, TipButton] = {}
        self.note_label: UILabel | None = None
        super().__init__(shell, size)

    @property
    def session(self) -> BattleSession:
        return self.screen.session

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        match = self.session.match
        title = self.screen.tmap.properties.get("title") or self.screen.tmap.path.stem
        self.label(
            pygame.Rect(pad, self.content_top - self.px(2), inner.width - 2 * pad, self.px(24)),
            f"{match.ruleset.title} \u00b7 {title}",
            class_id="@note",
            object_id="#subtitle",
        )
        top = self.content_top + self.px(30)
        note_h = self.px(34)
        room = inner.height - top - note_h - self.px(10)
        gap = self.px(8)
        bh = min(self.px(50), (room - gap * (len(MENU) - 1)) // len(MENU))
        bw = min(inner.width - 2 * pad, self.px(320))
        x = (inner.width - bw) // 2
        commands = {
            "resume": lambda: self.act(Pop()),
            "save": self.save,
            "load": lambda: self.act(self.flow.load_screen()),
            "settings": lambda: self.act(Push(SettingsScene(self.shell))),
            "help": lambda: self.act(Push(HelpScene(self.shell, match.ruleset))),
            "quit": lambda: self.act(self.flow.confirm_quit_to_title()),
        }
        self.buttons = {}
        for i, (key, text, tip) in enumerate(MENU):
            self.buttons[key] = self.button(
                pygame.Rect(x, top + i * (bh + gap), bw, bh),
                text,
                commands[key],
                object_id=f"#{key}",
                class_id="@menu_button",
                tooltip=tip,
            )
        self.note_label = self.label(
            pygame.Rect(pad, inner.height - note_h - self.px(6), inner.width - 2 * pad, note_h),
            self.note,
            class_id="@note",
            object_id="#note",
        )

    def set_note(self, text: str) -> None:
        self.note = text
        if self.note_label is not None:
            self.note_label.set_text(text or " ")

    def save(self) -> None:
        self.act(
            Push(
                NameDialog(
                    self.shell,
                    "Save the Battle",
                    "Name this save:",
                    initial=self.flow.suggest_save_name(self.session),
                    on_ok=self._save_as,
                )
            )
        )

    def _save_as(self, name: str) -> str | None:
        problem = self.flow.save(self.session, name)
        if problem is None:
            self.set_note(f"Saved \u201c{name}\u201d as {self.flow.save_path(name).name}")
        return problem

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and not consumed:
            pause_key = self.shell.prefs.key_bindings.get("pause", "escape")
            if event.key == pygame.K_ESCAPE or pygame.key.name(event.key) == pause_key:
                return Pop()
        return None


class HelpScene(SheetScene):
    """The ruleset's summary of a turn and the key bindings (F1 in battle shows the same)."""

    overlay = True
    sheet_size = (1060, 660)

    def __init__(self, shell: Shell, ruleset: Ruleset, size: tuple[int, int] = (1280, 720)) -> None:
        self.ruleset = ruleset
        self.heading = f"{ruleset.title}: How a Turn Works"
        self.boxes: dict[str, UITextBox] = {}
        self.close_button: TipButton | None = None
        super().__init__(shell, size)

    def rules_html(self) -> str:
        try:
            summary = self.ruleset.rules_summary()
        except (AttributeError, NotImplementedError):
            summary = "The summary of this ruleset is not written yet."
        return summary_html(summary)

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
