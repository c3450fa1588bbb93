"""The title screen: New Battle, Continue, Load, Settings, Quit over the sunset backdrop.

The screens behind New Battle, Continue and Load come from the caller as callables returning an action
(usually ``Push(SomeScene(...))``), so the app can plug them in as they are written; a button whose
callable is missing, or Continue without an autosave, is disabled with a tooltip saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import pygame

from game.ui.backdrop import draw_backdrop, draw_ornament, render_subtitle, render_title
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton, display_font
from game.ui.scenes import Action, Push, Quit, Scene

OpenScreen = Callable[[], Action | None]

TITLE: Final = "HEXSLINGER"
SUBTITLE: Final = "Gunfights on the hex-grid frontier"
NO_AUTOSAVE_TIP: Final = "No battle to continue yet: a battle is saved automatically after every move."
NOT_YET_TIP: Final = "Not available in this version yet."
ORNAMENT: Final = (232, 199, 106)
BUTTON_W: Final = 300
BUTTON_H: Final = 54
BUTTON_GAP: Final = 12


class TitleScene(GuiScene):
    def __init__(
        self,
        shell: Shell,
        *,
        on_new_battle: OpenScreen | None = None,
        on_continue: OpenScreen | None = None,
        on_load: OpenScreen | None = None,
        open_settings: Callable[[], Scene] | None = None,
        has_autosave: bool | Callable[[], bool] = False,
        tips: dict[str, str] | None = None,
        version: str = "",
    ) -> None:
        super().__init__(shell)
        self.on_new_battle = on_new_battle
        self.on_continue = on_continue
        self.on_load = on_load
        self.open_settings = open_settings
        self.has_autosave = has_autosave
        self.tips = dict(tips or {})
        self.version = version
        self.buttons: dict[str, TipButton] = {}
        self._backdrop: pygame.Surface | None = None
        self._title: pygame.Surface | None = None
        self._subtitle: pygame.Surface | None = None
        self._menu_top = 0
        self._title_top = 0
        self._notice = shell.notice
        shell.notice = None  # shown once

    def autosave_exists(self) -> bool:
        return self.has_autosave() if callable(self.has_autosave) else self.has_autosave

    def revealed(self) -> None:
        """Back on top (a battle ended, a screen closed): Continue may have become possible."""
        button = self.buttons.get("continue")
        possible = self.on_continue is not None and self.autosave_exists()
        if button is not None and button.is_enabled != possible:
            self.rebuild()

    # -- layout
    def build(self, manager: GuiManager) -> None:
        w, h = self.size
        self._backdrop = None  # redrawn for the new size on the next frame
        bw, bh, gap = self.px(BUTTON_W), self.px(BUTTON_H), self.px(BUTTON_GAP)
        menu_h = 5 * bh + 4 * gap
        self._title = render_title(TITLE, round(min(h * 0.15, w * 0.1)), round(w * 0.9))
        self._subtitle = render_subtitle(SUBTITLE, self.px(22))
        # title, subtitle, ornament rule, then the menu
        title_block = self._title.get_height() + self._subtitle.get_height() + self.px(30)
        top = max(self.px(8), (h - title_block - menu_h - self.px(24)) // 2 - self.px(10))
        self._title_top = top
        self._menu_top = top + title_block + self.px(24)
        bottom = h - self.px(8) - self._notice_height()
        if self._menu_top + menu_h > bottom:
            self._menu_top = max(0, bottom - menu_h)
        x = (w - bw) // 2
        autosave = self.autosave_exists()
        specs: list[tuple[str, str, Callable[[], None], bool, str | None]] = [
            (
                "new_battle",
                "New Battle",
                lambda: self._open(self.on_new_battle),
                self.on_new_battle is not None,
                self.tips.get("new_battle", None if self.on_new_battle else NOT_YET_TIP),
            ),
            (
                "continue",
                "Continue",
                lambda: self._open(self.on_continue),
                self.on_continue is not None and autosave,
                (self.tips.get("continue") if self.on_continue is not None else NOT_YET_TIP)
                if autosave
                else NO_AUTOSAVE_TIP,
            ),
            (
                "load",
                "Load",
                lambda: self._open(self.on_load),
                self.on_load is not None,
                self.tips.get("load", None if self.on_load else NOT_YET_TIP),
            ),
            (
                "settings",
                "Settings",
                self._settings,
                self.open_settings is not None,
                self.tips.get("settings"),
            ),
            ("quit", "Quit", lambda: self.act(Quit(0)), True, None),
        ]
        self.buttons = {}
        for i, (name, text, command, enabled, tip) in enumerate(specs):
            rect = pygame.Rect(x, self._menu_top + i * (bh + gap), bw, bh)
            self.buttons[name] = self.button(
                rect,
                text,
                command,
                object_id=f"#{name}",
                class_id="@menu_button",
                tooltip=tip,
                enabled=enabled,
            )

    def _open(self, opener: OpenScreen | None) -> None:
        if opener is not None:
            action = opener()
            if action is not None:
                self.act(action)

    def _settings(self) -> None:
        if self.open_settings is not None:
            self.act(Push(self.open_settings()))

    # -- events
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            return Quit(0)
        return None

    def resize(self, size: tuple[int, int]) -> None:
        super().resize(size)
        self._backdrop = None

    # -- drawing
    def draw_background(self, surface: pygame.Surface) -> None:
        w, h = self.size
        if self._backdrop is None or self._backdrop.get_size() != self.size:
            self._backdrop = draw_backdrop(self.size)
            title, subtitle = self._title, self._subtitle
            assert title is not None and subtitle is not None  # made by build()
            self._backdrop.blit(title, ((w - title.get_width()) // 2, self._title_top))
            sub_y = self._title_top + title.get_height() - self.px(4)
            self._backdrop.blit(subtitle, ((w - subtitle.get_width()) // 2, sub_y))
            rule_y = sub_y + subtitle.get_height() + self.px(14)
            draw_ornament(
                self._backdrop, (w // 2, rule_y), min(round(w * 0.3), title.get_width() // 2), ORNAMENT
            )
            if self.version:
                tag = render_subtitle(self.version, self.px(14), (200, 170, 130))
                self._backdrop.blit(
                    tag, (w - tag.get_width() - self.px(12), h - tag.get_height() - self.px(8))
                )
            if self._notice:
                self._draw_notice(self._backdrop)
        surface.blit(self._backdrop, (0, 0))

    def _notice_lines(self, font: pygame.font.Font) -> list[str]:
        lines: list[str] = []
        current = ""
        for word in (self._notice or "").split():
            candidate = f"{current} {word}".strip()
            if current and font.size(candidate)[0] > self.size[0] - self.px(40):
                lines.append(current)
                current = word
            else:
                current = candidate
        if current:
            lines.append(current)
        return lines

    def _notice_height(self) -> int:
        if not self._notice:
            return 0
        font = display_font(self.px(14), bold=False, italic=True)
        return font.get_linesize() * len(self._notice_lines(font)) + self.px(12)

    def _draw_notice(self, surface: pygame.Surface) -> None:
        """A settings-file problem, in a dark strip along the bottom."""
        w, h = self.size
        font = display_font(self.px(14), bold=False, italic=True)
        lines = self._notice_lines(font)
        line_h = font.get_linesize()
        strip_h = self._notice_height()
        strip = pygame.Surface((w, strip_h), pygame.SRCALPHA)
        strip.fill((30, 14, 8, 225))
        pygame.draw.line(strip, (201, 160, 67), (0, 0), (w, 0), 2)
        for i, line in enumerate(lines):
            rendered = font.render(line, True, (250, 226, 180))
            strip.blit(rendered, ((w - rendered.get_width()) // 2, self.px(6) + i * line_h))
        surface.blit(strip, (0, h - strip_h))
