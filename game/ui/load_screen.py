"""The Load screen (from the title and the pause menu): the named saves and the autosaves, newest first,
with their date, ruleset and map; Load replays the chosen one and opens the battle.

A save that cannot be read is listed in red with what is wrong; loading it (or one whose replay does not
reach its digest) shows the loader's message and the screen stays, so the player can pick another.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Final

import pygame
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIPanel, UITextBox

from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.library import SaveEntry, list_saves
from game.ui.routes import SaveRoutes
from game.ui.scenes import Action, Pop
from game.ui.sheet import Column, PickerSheet, Row, RowList

__all__ = ["LoadScene"]

COLUMNS: Final = (
    Column("Name", 0.4),
    Column("Saved", 0.2),
    Column("Ruleset", 0.17),
    Column("Map", 0.23),
)
NARROW_COLUMNS: Final = (Column("Name", 0.48), Column("Saved", 0.27), Column("Ruleset", 0.25))


def _home_relative(path: Path) -> str:
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


class LoadScene(PickerSheet):
    heading = "Load a Battle"
    sheet_size = (1060, 680)

    def __init__(self, shell: Shell, flow: SaveRoutes, size: tuple[int, int] = (1280, 720)) -> None:
        self.flow = flow
        self.entries: list[SaveEntry] = []
        self.selected: int | None = None
        self.rows: RowList | None = None
        self.details: UITextBox | None = None
        self.buttons: dict[str, TipButton] = {}
        super().__init__(shell, size)
        self.refresh()

    def refresh(self) -> None:
        """Read the folders again (a save may have been written or deleted meanwhile)."""
        path = self.entries[self.selected].path if self.selected is not None and self.entries else None
        self.entries = list_saves(self.flow.saves_dir, self.flow.autosave_dir)
        paths = [e.path for e in self.entries]
        self.selected = paths.index(path) if path in paths else (0 if self.entries else None)
        self._built_for = None

    @property
    def entry(self) -> SaveEntry | None:
        return self.entries[self.selected] if self.selected is not None else None

    def select_name(self, name: str) -> bool:
        """Select the save called ``name`` (tests and the pause menu); False if there is none."""
        for i, e in enumerate(self.entries):
            if e.name == name and not e.autosave:
                self.pick(i)
                return True
        return False

    # -- layout
    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bar_h = self.px(44)
        details_h = max(self.px(96), round(inner.height * 0.22))
        top = self.content_top
        list_h = inner.height - top - bar_h - details_h - self.px(40)
        wide = inner.width - 2 * pad >= self.px(820)
        columns = COLUMNS if wide else NARROW_COLUMNS
        self.build_picker(
            manager,
            panel,
            top=top,
            list_h=list_h,
            details_h=details_h,
            columns=columns,
            rows=[_row(e, len(columns)) for e in self.entries],
            name="save",
            empty_text="No saved battles yet: save one from the pause menu (Esc in battle).",
            details_id="#save_details",
        )
        bw = self.px(150)
        by = inner.height - bar_h - self.px(14)
        problem = self.load_problem()
        self.buttons = {
            "load": self.button(
                pygame.Rect(inner.width - pad - bw, by, bw, bar_h),
                "Load",
                self.load,
                object_id="#load",
                class_id="@primary",
                tooltip=problem or "Replay the save and open the battle (Enter)",
                enabled=self.entry is not None,
            ),
            "back": self.button(
                pygame.Rect(inner.width - pad - 2 * bw - self.px(12), by, bw, bar_h),
                "Back",
                lambda: self.act(Pop()),
                object_id="#back",
                tooltip="Esc",
            ),
        }
        UITextBox(
            f"Saves are kept in {html.escape(_home_relative(self.flow.saves_dir))}",
            pygame.Rect(pad, by, inner.width - 2 * pad - 2 * bw - self.px(30), bar_h),
            manager=manager,
            container=panel,
            object_id=ObjectID("#where", "@fine_print"),
        )

    def load_problem(self) -> str | None:
        if self.entry is None:
            return "no save chosen"
        return None

    def details_html(self) -> str:
        e = self.entry
        if e is None:
            return "<i>Pick a save above.</i>"
        kind = "" if e.autosave else "Save, "  # an autosave's name says it
        head = f"<b>{html.escape(e.name)}</b> \u2014 <i>{kind}{html.escape(e.date)}</i>"
        if e.error is not None:
            what, _, fix = e.error.partition(" -- ")
            return (
                f"{head}<br><font color='#8C1E14'><b>This save cannot be loaded:</b> {html.escape(what)}"
                f"</font><br><i>What to do:</i> {html.escape(fix)}"
            )
        moves = f"{e.commands} move{'s' if e.commands != 1 else ''} recorded"
        return (
            f"{head}<br>{html.escape(e.ruleset_title)} on {html.escape(e.map_title)} \u00b7 {moves}"
            f"<br><i>{html.escape(str(e.path))}</i>"
        )

    # -- actions
    def pick(self, index: int) -> None:
        super().pick(index)
        load = self.buttons.get("load")
        if load is not None:
            load.set_enabled(self.entry is not None)

    def load(self) -> None:
        e = self.entry
        if e is None:
            return
        self.act(self.flow.open_save(e.path))

    def revealed(self) -> None:
        self.refresh()

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and not consumed:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.load()
                return self._take()
            if event.key in (pygame.K_DOWN, pygame.K_UP) and self.entries:
                step = 1 if event.key == pygame.K_DOWN else -1
                current = self.selected if self.selected is not None else -step
                self.pick(max(0, min(len(self.entries) - 1, current + step)))
        return None


def _tip(text: str, limit: int = 400) -> str:
    """A tooltip from text taken from a file: escaped (tooltips are HTML) and cut short."""
    return html.escape(text if len(text) <= limit else text[: limit - 3] + "...")


def _row(e: SaveEntry, columns: int) -> Row:
    if e.error is not None:
        cells = (e.name, e.date, "damaged", "\u2014")
        return Row(cells[:columns], tooltip=_tip(e.error), warning=True)
    return Row(
        (e.name, e.date, e.ruleset_title, e.map_title)[:columns],
        tooltip=_tip(f"{e.map_title} \u2014 {e.path}"),
    )
