"""Encounter files in the window: New Battle's "Encounter..." (open one) and "Save encounter..." buttons.

:class:`EncounterSupport` is the part of the New Battle screen that knows encounter files (the screen
subclasses it): it puts the two buttons on the screen's bar, fills the screen from an encounter (its
ruleset, map, both posses and who plays them) and gives the :class:`~game.engine.scenario.Scenario` the
battle starts with. :class:`EncounterScene` lists the shipped encounters and the player's own (in
``<data folder>/encounters``) and opens one, or any file by its path; a broken file shows the same list
of problems ``hexslinger check-encounter`` prints. :class:`SaveEncounterScene` writes the current setup
as an encounter file (docs/GM.md "Encounter files").
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UILabel, UIPanel, UITextBox, UITextEntryLine

from game.encounter.load import Encounter, EncounterError, EncounterProblem, load_encounter, read_encounter
from game.encounter.write import encounter_toml, save_encounter, shipped_encounters
from game.engine import registry
from game.engine.protocol import PosseSpec
from game.engine.scenario import Scenario
from game.posses import PosseFileError, data_dir, file_stem, load_posse
from game.safeio import FileRefusedError, load_toml, parse_toml
from game.ui.dialogs import MessageDialog
from game.ui.gui import GuiManager, Shell, TipButton
from game.ui.scenes import Action, Pop, Push
from game.ui.seats import coarse
from game.ui.sheet import Column, PickerSheet, Row, RowList, SheetScene

__all__ = [
    "EncounterRefusedError",
    "EncounterScene",
    "EncounterSupport",
    "SaveEncounterScene",
    "Scenario",
    "encounter_problems_html",
    "user_encounters_dir",
]

COLUMNS: Final = (
    Column("Encounter", 0.42),
    Column("Ruleset", 0.22),
    Column("Map", 0.2),
    Column("From", 0.16),
)


def user_encounters_dir() -> Path:
    """Where the player's own encounter files are kept (and New Battle saves them)."""
    return data_dir() / "encounters"


def encounter_problems_html(path: Path, problems: Sequence[EncounterProblem]) -> str:
    """An encounter file's problems as check-encounter words them: the key, what is wrong, the fix."""
    rows = [f"<i>{html.escape(str(path))}</i>"]
    for p in problems:
        where = f" <i>({html.escape(p.key)})</i>" if p.key else ""
        fix = f"<br>&nbsp;&nbsp;&nbsp;<i>Fix:</i> {html.escape(p.fix)}"
        rows.append(f"\u2022 <b>{html.escape(p.what)}</b>{where}{fix}")
    return "<br>".join(rows)


class EncounterRefusedError(PosseFileError):
    """The New Battle setup no longer makes a playable encounter (a posse changed after it was opened);
    a PosseFileError, so New Battle's Start shows it in its note and does not start."""


def _doc(path: Path) -> dict[str, Any]:
    """The parsed document of an encounter file already read once (its extra keys are kept on save)."""
    try:
        doc = load_toml(path, what="encounter file")
    except FileRefusedError:
        return {}
    return doc if isinstance(doc, dict) else {}


class EncounterSupport(SheetScene):
    """Encounter files on the New Battle screen (see the module text). The screen provides what is
    declared here; this class adds the buttons, :meth:`use_encounter` and :meth:`encounter_scenario`."""

    ruleset: str
    all_maps: list[Path]
    maps: list[Path]
    map_index: int
    sides: list[Any]  # the screen's _Side records: posse, seat, custom
    note: str
    note_label: UILabel | None
    buttons: dict[str, TipButton]
    encounter: Encounter | None = None
    encounter_doc: dict[str, Any] | None = None

    def _list_maps(self, keep: str = "") -> None:
        raise NotImplementedError

    def _load_posses(self) -> None:
        raise NotImplementedError

    def _sync(self) -> None:
        raise NotImplementedError

    def set_note(self, text: str) -> None:
        raise NotImplementedError

    def side_ids(self) -> list[str]:
        raise NotImplementedError

    def setup_posses(self) -> tuple[list[PosseSpec], dict[str, str]]:
        """Each side's posse as chosen now and who plays it (PosseFileError if a library posse went bad)."""
        posses, seats = [], {}
        for side_id, side in zip(self.side_ids(), self.sides, strict=True):
            seats[side_id] = side.seat
            if side.custom is not None:
                posses.append(dataclasses.replace(side.custom, side=side_id, controller=coarse(side.seat)))
            else:
                draft = load_posse(self.ruleset, side.posse, side_id)
                posses.append(draft.spec(side=side_id, controller=coarse(side.seat)))
        return posses, seats

    # -- the bar
    def build_encounter_buttons(self, y: int, bar_h: int) -> None:
        """ "Encounter..." and "Save encounter..." at the left of the bar; the note moves right of them."""
        pad, bw, wide = self.pad, self.px(160), self.px(190)
        self.buttons["encounter"] = self.button(
            pygame.Rect(pad, y, bw, bar_h),
            "Encounter\u2026",
            self.open_encounters,
            object_id="#encounter",
            tooltip="Open an encounter file: map, posses, who plays them, starts, reinforcements, objectives",
        )
        self.buttons["save_encounter"] = self.button(
            pygame.Rect(pad + bw + self.px(10), y, wide, bar_h),
            "Save encounter\u2026",
            self.save_encounter_screen,
            object_id="#save_encounter",
            tooltip="Save this setup as an encounter file (docs/GM.md)",
        )
        if self.note_label is not None:
            shift = bw + wide + self.px(24)
            rect = self.note_label.relative_rect
            self.note_label.set_relative_position((rect.x + shift, rect.y))
            self.note_label.set_dimensions((max(self.px(40), rect.width - shift), rect.height))

    def open_encounters(self) -> None:
        self._sync()
        self.act(Push(EncounterScene(self.shell, on_pick=self.use_encounter, size=self.size)))

    def save_encounter_screen(self) -> None:
        self._sync()
        title = self.encounter.title if self.encounter is not None else "My encounter"
        self.act(Push(SaveEncounterScene(self.shell, title, self.write_encounter, size=self.size)))

    # -- the model
    def use_encounter(self, encounter: Encounter) -> None:
        """Fill the screen from ``encounter``: its ruleset, its map, its posses and who plays them."""
        self.ruleset = encounter.ruleset
        if encounter.map_path not in self.all_maps:
            self.all_maps.append(encounter.map_path)
        self._list_maps(encounter.map_path.stem)
        for side, posse in zip(self.sides, encounter.posses, strict=True):
            side.custom, side.posse = posse, ""
            side.seat = encounter.seats.get(posse.side, side.seat)
        self._load_posses()
        self.encounter = encounter
        self.encounter_doc = _doc(encounter.path) if encounter.path is not None else {}
        count = len(encounter.scenario.goals)
        goals = f"{count} objective{'s' if count != 1 else ''}" if count else "take out the other posse"
        self.note = f"Encounter: {encounter.title} ({goals})"
        self.rebuild()

    def _current(self) -> tuple[str, Path] | None:
        return (self.ruleset, self.maps[self.map_index]) if self.maps else None

    def encounter_text(self, out: Path, title: str) -> str:
        """The current setup as an encounter file's text (the opened encounter's rules kept)."""
        posses, seats = self.setup_posses()
        ruleset, map_path = self._current() or (self.ruleset, Path())
        doc = self.encounter_doc if self._applies() else None
        return encounter_toml(
            title=title, ruleset=ruleset, map_path=map_path, posses=posses, seats=seats, out=out, extra=doc
        )

    def _applies(self) -> bool:
        """Whether the opened encounter still fits the setup's ruleset and map."""
        enc = self.encounter
        current = self._current()
        return enc is not None and current is not None and current == (enc.ruleset, enc.map_path)

    def encounter_scenario(self) -> Scenario | None:
        """The encounter rules the battle starts with: the opened encounter's, checked again against the
        posses now chosen (EncounterRefusedError with the first problem if they no longer fit); None
        without an encounter, or once another ruleset or map is picked."""
        enc = self.encounter
        if enc is None or not self._applies():
            return None
        posses, _ = self.setup_posses()
        if list(posses) == list(enc.posses) or enc.path is None:
            return enc.scenario
        out = enc.path
        text = self.encounter_text(out, enc.title)
        try:
            again = read_encounter(parse_toml(text.encode("utf-8"), out, what="encounter"), out)
        except EncounterError as error:
            first = error.problems[0]
            raise EncounterRefusedError(
                out, f"the encounter no longer fits: {first.what}", first.fix
            ) from None
        except FileRefusedError as error:  # pragma: no cover - the text is written here
            raise EncounterRefusedError(out, error.what, error.fix) from None
        return again.scenario

    def write_encounter(self, title: str) -> str:
        """Save the setup as ``<data folder>/encounters/<title>.toml``; what happened, in words."""
        out = user_encounters_dir() / f"{file_stem(title, 'encounter')}.toml"
        try:
            text = self.encounter_text(out, title)
            save_encounter(out, text)
        except (OSError, PosseFileError) as error:
            return f"The encounter could not be saved: {error}"
        try:
            load_encounter(out)
        except EncounterError as error:
            return f"Saved to {out}, but it has problems: {error.problems[0]}"
        self.set_note(f"Saved the encounter as {out.name}")
        return f"Saved to {out}"


# == the encounter list ===========================================================================


def _entries() -> list[tuple[Path, bool]]:
    """(path, shipped) of every encounter file to list: the shipped ones, then the player's own."""
    mine = user_encounters_dir()
    own = sorted(p for p in mine.glob("*.toml") if p.is_file()) if mine.is_dir() else []
    return [(p, True) for p in shipped_encounters()] + [(p, False) for p in own]


class EncounterScene(PickerSheet):
    """Pick an encounter file (see the module text); ``on_pick`` gets the loaded encounter."""

    heading = "Open an Encounter"
    sheet_size = (1060, 680)

    def __init__(
        self, shell: Shell, *, on_pick: Callable[[Encounter], None], size: tuple[int, int] = (1280, 720)
    ) -> None:
        self.on_pick = on_pick
        self.entries = _entries()
        self.loaded: dict[Path, Encounter | list[EncounterProblem]] = {}
        self.selected: int | None = 0 if self.entries else None
        self.rows: RowList | None = None
        self.details: UITextBox | None = None
        self.path_entry: UITextEntryLine | None = None
        self.path_text = ""
        self.buttons: dict[str, TipButton] = {}
        super().__init__(shell, size)

    def read(self, path: Path) -> Encounter | list[EncounterProblem]:
        found = self.loaded.get(path)
        if found is None:
            try:
                found = load_encounter(path)
            except EncounterError as error:
                found = error.problems
            self.loaded[path] = found
        return found

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bar_h = self.px(44)
        top = self.content_top
        details_h = max(self.px(110), round(inner.height * 0.24))
        list_h = inner.height - top - 2 * bar_h - details_h - self.px(56)
        rows = []
        for path, shipped in self.entries:
            found = self.read(path)
            if isinstance(found, list):
                rows.append(
                    Row((path.stem, "\u2014", "\u2014", "shipped" if shipped else "yours"), warning=True)
                )
                continue
            title = registry.plugin(found.ruleset).title
            rows.append(Row((found.title, title, found.map_path.stem, "shipped" if shipped else "yours")))
        y = self.build_picker(
            manager,
            panel,
            top=top,
            list_h=list_h,
            details_h=details_h,
            columns=COLUMNS,
            rows=rows,
            name="encounter",
            empty_text="No encounter files found.",
            details_id="#encounter_details",
        )
        y += self.px(10)
        bw = self.px(150)
        self.path_entry = UITextEntryLine(
            pygame.Rect(pad, y, inner.width - 2 * pad - bw - self.px(12), bar_h),
            manager=manager,
            container=panel,
            object_id=ObjectID("#encounter_path"),
            placeholder_text="or type the path of an encounter .toml file",
        )
        if self.path_text:
            self.path_entry.set_text(self.path_text)
        self.buttons["open_path"] = self.button(
            pygame.Rect(inner.width - pad - bw, y, bw, bar_h),
            "Open file",
            self.open_path,
            object_id="#open_path",
            tooltip="Open the file whose path is typed on the left",
        )
        by = inner.height - bar_h - self.px(14)
        self.buttons["use"] = self.button(
            pygame.Rect(inner.width - pad - bw, by, bw, bar_h),
            "Use",
            self.use,
            object_id="#use",
            class_id="@primary",
            tooltip="Set New Battle up for this encounter (Enter)",
            enabled=self.selected is not None,
        )
        self.buttons["back"] = self.button(
            pygame.Rect(inner.width - pad - 2 * bw - self.px(12), by, bw, bar_h),
            "Back",
            lambda: self.act(Pop()),
            object_id="#back",
            tooltip="Esc",
        )

    def details_html(self) -> str:
        if self.selected is None:
            return f"<i>No encounter files: put .toml files in {html.escape(str(user_encounters_dir()))}.</i>"
        path, _ = self.entries[self.selected]
        found = self.read(path)
        if isinstance(found, list):
            return "<font color='#8C1E14'><b>This encounter cannot be played:</b></font><br>" + (
                encounter_problems_html(path, found)
            )
        goals = ", ".join(f"{g.kind} ({g.label})" for g in found.scenario.goals) or "take out the other posse"
        names = " vs ".join(html.escape(p.name) for p in found.posses)
        return (
            f"<b>{html.escape(found.title)}</b> \u2014 {names}<br>{html.escape(found.description)}"
            f"<br><i>Objectives:</i> {html.escape(goals)}<br><i>{html.escape(str(path))}</i>"
        )

    def choose(self, path: Path) -> None:
        """Use the encounter at ``path``, or show its problems (the list check-encounter prints)."""
        self.loaded.pop(path, None)
        found = self.read(path)
        if isinstance(found, list):
            heading = "Encounter has problems"
            self.act(
                Push(MessageDialog(self.shell, heading, encounter_problems_html(path, found), size=self.size))
            )
            return
        self.on_pick(found)
        self.act(Pop())

    def use(self) -> None:
        if self.selected is not None:
            self.choose(self.entries[self.selected][0])

    def open_path(self) -> None:
        text = self.path_entry.get_text().strip() if self.path_entry is not None else self.path_text.strip()
        self.path_text = text
        if text:
            self.choose(Path(text).expanduser())

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.path_entry:
            self.open_path()
            return self._take()
        if event.type == pygame.KEYDOWN and not consumed:
            if event.key == pygame.K_ESCAPE:
                return Pop()
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.use()
                return self._take()
        return None


class SaveEncounterScene(SheetScene):
    """Name the encounter and save it (``save(title)`` writes it and says what happened)."""

    heading = "Save the Encounter"
    overlay = True
    sheet_size = (680, 300)

    def __init__(
        self, shell: Shell, title: str, save: Callable[[str], str], size: tuple[int, int] = (1280, 720)
    ) -> None:
        self.title = title
        self.save = save
        self.entry: UITextEntryLine | None = None
        self.result: UITextBox | None = None
        self.said = f"Saved in {user_encounters_dir()}"
        super().__init__(shell, size)

    def build_sheet(self, manager: GuiManager, panel: UIPanel) -> None:
        inner, pad = self.inner, self.pad
        bh = self.px(40)
        y = self.content_top
        self.entry = UITextEntryLine(
            pygame.Rect(pad, y, inner.width - 2 * pad, bh),
            manager=manager,
            container=panel,
            object_id=ObjectID("#encounter_title"),
        )
        self.entry.set_text(self.title)
        self.result = UITextBox(
            html.escape(self.said),
            pygame.Rect(pad, y + bh + self.px(10), inner.width - 2 * pad, self.px(80)),
            manager=manager,
            container=panel,
            object_id=ObjectID("#encounter_saved", "@paper_text"),
        )
        bw = self.px(140)
        by = inner.height - bh - self.px(14)
        self.button(
            pygame.Rect(inner.width - pad - bw, by, bw, bh),
            "Save",
            self.do_save,
            object_id="#save",
            class_id="@primary",
        )
        self.button(
            pygame.Rect(inner.width - pad - 2 * bw - self.px(12), by, bw, bh),
            "Close",
            lambda: self.act(Pop()),
            object_id="#close",
        )

    def do_save(self) -> None:
        text = self.entry.get_text().strip() if self.entry is not None else self.title
        if not text:
            self.said = "Give the encounter a name first"
        else:
            self.title = text
            self.said = self.save(text)
        if self.result is not None:
            self.result.set_text(html.escape(self.said))

    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN and not consumed and event.key == pygame.K_ESCAPE:
            return Pop()
        return None
