"""The pause menu over a battle (Resume, Save, Load, Settings, Help, Quit to Title).

Saving asks for a name and writes ``<data dir>/saves/<name>.json``; a failure is said in the dialog and
nothing is lost. Quit to Title asks first (the battle is autosaved anyway). Esc resumes.
"""

from __future__ import annotations

from typing import Final

import pygame
from pygame_gui.elements import UILabel, UIPanel

from game.engine.builder import same_name
from game.ui.dialogs import NameDialog
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.help import HelpScene
from game.ui.routes import BattleRoutes, PausedBattle
from game.ui.scenes import Action, Pop, Push
from game.ui.session import BattleSession
from game.ui.settings_screen import SettingsScene
from game.ui.sheet import SheetScene

__all__ = ["MENU", "PauseMenu"]

MENU: Final = (
    ("resume", "Resume", "Back to the battle (Esc)"),
    ("save", "Save\u2026", "Save the battle under a name"),
    ("load", "Load\u2026", "Load a saved battle (this one stays in its autosave)"),
    ("settings", "Settings", "Window, sound, animation speed and keys"),
    ("help", "Help", "How a turn works, and the keys"),
    ("quit", "Quit to Title", "Leave the battle (it is autosaved)"),
)


class PauseMenu(SheetScene):
    """See the module text."""

    heading = "Paused"
    overlay = True
    sheet_size = (440, 505)

    def __init__(
        self, shell: Shell, screen: PausedBattle, flow: BattleRoutes, size: tuple[int, int] = (1280, 720)
    ) -> None:
        self.screen = screen
        self.flow = flow
        self.note = ""
        self._asked: str | None = None  # the name whose replacing was asked about
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
            f"{match.ruleset_title} \u00b7 {title}",
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
            "help": lambda: self.act(Push(HelpScene(self.shell, match.ruleset_title, match.rules_summary()))),
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
        """Save as ``name``; a save already called so is replaced only when Save is pressed again on the
        question (a name that only maps to the same file name gets a file of its own)."""
        question = self.flow.replace_question(name)
        if question is not None and (self._asked is None or not same_name(self._asked, name)):
            self._asked = name
            return question
        self._asked = None
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
