"""The posse library: posses kept by name as JSON files, and the built-in defaults beside them.

Posses live in ``<data dir>/posses/<ruleset>/``; the data dir is ``platformdirs.user_data_dir("hexslinger")``,
or ``$HEXSLINGER_DATA_DIR``. Files are written atomically (:func:`game.save.write_save`). Every way a file
can be wrong ends in a :class:`PosseFileError` saying what and how to fix it. Each ruleset also has default
posses (its plugin's ``default_posses``), so a new player can start at once; a saved posse of the same name
takes their place. The rulesets are the registry's (:func:`game.posses.draft.buildable_rulesets`); this
module names none.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs

from game.engine import registry
from game.engine.builder import DraftError, DraftUnit, same_name
from game.posses.draft import (
    FORMAT,
    MAX_NAME,
    VERSION,
    PosseDraft,
    buildable_rulesets,
    builder_for,
    default_posses,
    name_problem,
)
from game.safeio import FileRefusedError, JsonLimits, load_json, remove_stale_temp_files, size_text
from game.save import write_save

__all__ = [
    "DATA_ENV",
    "MAX_FILE_BYTES",
    "POSSE_LIMITS",
    "PosseEntry",
    "PosseFileError",
    "data_dir",
    "delete_posse",
    "file_stem",
    "list_posses",
    "load_posse",
    "posse_dir",
    "read_posse_file",
    "save_posse",
]

DATA_ENV: Final = "HEXSLINGER_DATA_DIR"
MAX_FILE_BYTES: Final = 1024 * 1024
# A posse file nests 5 deep (a Rifter's skills); numbers are small counts.
POSSE_LIMITS: Final = JsonLimits(max_bytes=MAX_FILE_BYTES, max_depth=16, max_containers=10_000, max_digits=40)


# == the library ===================================================================================


class PosseFileError(Exception):
    """A posse file that cannot be used: ``what`` is wrong and ``fix`` says what to do about it."""

    def __init__(self, path: Path, what: str, fix: str) -> None:
        self.path = path
        self.what = what
        self.fix = fix
        super().__init__(f"{path}: {what} -- {fix}")


@dataclass(frozen=True, slots=True)
class PosseEntry:
    """A posse the library offers: saved (``path``) or built in; ``error`` if its file cannot be used."""

    name: str
    ruleset: str
    builtin: bool
    path: Path | None
    units: int = 0
    error: str | None = None


def data_dir() -> Path:
    """Hexslinger's data folder: ``$HEXSLINGER_DATA_DIR``, else platformdirs' user data dir."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("hexslinger", appauthor=False))


def posse_dir(ruleset: str | None = None) -> Path:
    """The folder of saved posses (of one ruleset: its subfolder)."""
    base = data_dir() / "posses"
    return base if ruleset is None else base / ruleset


_RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)), *(f"lpt{i}" for i in range(10))}


def file_stem(name: str, fallback: str = "posse") -> str:
    """A safe file name for a posse's (or a save's) name: letters and digits kept (any script), every
    other run of characters one '-', at most 48 characters; never empty (``fallback`` for a name of no
    letter or digit), never a path or a reserved device name."""
    text = unicodedata.normalize("NFKC", name).casefold()
    stem = re.sub(r"[\W_]+", "-", text).strip("-")[:48].strip("-")
    if not stem:
        stem = fallback
    if stem in _RESERVED:
        stem = f"{fallback}-{stem}"
    return stem


def _check_ruleset(ruleset: str) -> str:
    """The title of ``ruleset`` if its posses can be built; PosseFileError if not."""
    known = buildable_rulesets()
    if ruleset not in known:
        raise PosseFileError(posse_dir(), f"unknown ruleset '{ruleset}'", f"use one of: {', '.join(known)}")
    return registry.plugin(ruleset).title


def read_posse_file(path: str | Path, ruleset: str, side: str = "side1") -> PosseDraft:
    """Read a posse file of ``ruleset`` into a draft; every problem is a PosseFileError."""
    path = Path(path)
    title = _check_ruleset(ruleset)
    damaged = "the file is damaged; delete it and build the posse again in the posse builder"
    doc = _read_json(path, damaged)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise PosseFileError(path, "this is not a Hexslinger posse file", "move it out of the posses folder")
    version = doc.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise PosseFileError(path, "the file's 'version' is missing or not a whole number", damaged)
    if version > VERSION:
        raise PosseFileError(
            path,
            f"the posse file is format version {version}, newer than this Hexslinger understands ({VERSION})",
            "update Hexslinger to use it",
        )
    if version < 1:
        raise PosseFileError(path, f"unknown posse file version {version}", damaged)
    ruleset_of_file = doc.get("ruleset")
    if ruleset_of_file != ruleset:
        if ruleset_of_file in buildable_rulesets():
            right = posse_dir(str(ruleset_of_file))
            raise PosseFileError(
                path,
                f"this is a {registry.plugin(str(ruleset_of_file)).title} posse, not a {title} one",
                f"move it to {right}",
            )
        raise PosseFileError(
            path, f"the file names no ruleset Hexslinger knows ({ruleset_of_file!r})", damaged
        )
    extra = set(doc) - {"format", "version", "ruleset", "name", "faction", "units"}
    if extra:
        raise PosseFileError(
            path, f"unknown key(s) {', '.join(sorted(extra))}", "remove them (the file was edited by hand)"
        )
    name, faction, units = doc.get("name"), doc.get("faction"), doc.get("units")
    if not isinstance(name, str) or not name.strip() or name_problem(name):
        raise PosseFileError(path, "the posse's 'name' is missing or not a usable name", damaged)
    if not isinstance(faction, str):
        raise PosseFileError(path, "the posse's 'faction' is missing or not text", damaged)
    if not isinstance(units, list):
        raise PosseFileError(path, "the posse's 'units' is missing or not a list", damaged)
    draft = PosseDraft(ruleset, side, name=name)
    draft.faction = builder_for(ruleset).faction_id(faction)
    try:
        read: list[DraftUnit] = [draft.unit_from_json(u, f"unit {i + 1}") for i, u in enumerate(units)]
    except DraftError as error:
        raise PosseFileError(
            path, str(error), "correct the file by hand, or delete it and build the posse again"
        ) from None
    draft.replace_units(read)
    for unit in read:
        if name_problem(unit.name):
            raise PosseFileError(path, f"a unit's name is not usable ({unit.name!r})", damaged)
    problems = draft.problems()
    if problems:
        raise PosseFileError(
            path,
            f"the posse does not follow the {title} rules: " + "; ".join(problems),
            "correct the file by hand, or delete it and build the posse again in the posse builder",
        )
    return draft


def _read_json(path: Path, damaged: str) -> object:
    """The JSON value of a posse file, read within :data:`POSSE_LIMITS` (:mod:`game.safeio`: regular
    files only, at most 1 MB, nesting, number and size caps); every refusal a PosseFileError."""
    try:
        return load_json(path, POSSE_LIMITS, what="posse file")
    except FileRefusedError as error:
        if error.reason == "missing":
            raise PosseFileError(
                path, "the posse file does not exist", "pick a posse from the list"
            ) from None
        if error.reason == "too_large":
            raise PosseFileError(
                path,
                f"the file is larger than {size_text(MAX_FILE_BYTES)}, too large to be a posse",
                "delete it or move it away",
            ) from None
        if error.reason == "not_text":
            raise PosseFileError(path, "the posse file is not text", damaged) from None
        if error.reason == "cut_off":
            raise PosseFileError(path, error.what.replace("the posse file", "the file"), damaged) from None
        if error.reason == "not_regular":
            raise PosseFileError(path, error.what, "move it out of the posses folder") from None
        if error.reason == "unreadable":
            raise PosseFileError(path, error.what, error.fix) from None
        raise PosseFileError(path, error.what, damaged) from None


def _files(ruleset: str) -> list[Path]:
    """Every ``*.json`` entry of the ruleset's posse folder, whatever it is (a pipe, a link to a device
    or a folder is listed too, as a posse that cannot be read); stale temporary files of killed writes
    are deleted on the way."""
    folder = posse_dir(ruleset)
    remove_stale_temp_files(folder)
    try:
        return sorted(folder.glob("*.json"))
    except OSError:
        return []


def _stored_name(path: Path) -> str | None:
    """The name a posse file says it holds, read leniently but bounded (None if it cannot tell)."""
    try:
        doc = load_json(path, POSSE_LIMITS, what="posse file")
    except FileRefusedError:
        return None
    name = doc.get("name") if isinstance(doc, dict) else None
    return name if isinstance(name, str) else None


def _find(ruleset: str, name: str) -> Path | None:
    """The saved file holding the posse called ``name``: its own file name first, else any file."""
    first = posse_dir(ruleset) / f"{file_stem(name)}.json"
    candidates = [first, *(p for p in _files(ruleset) if p != first)]
    for path in candidates:
        stored = _stored_name(path)
        if stored is not None and same_name(stored, name):
            return path
    return None


def list_posses(ruleset: str) -> list[PosseEntry]:
    """The saved posses of ``ruleset`` (by name; unusable files listed with their error), then the
    built-in defaults no saved posse of the same name replaces."""
    _check_ruleset(ruleset)
    saved: list[PosseEntry] = []
    for path in _files(ruleset):
        try:
            draft = read_posse_file(path, ruleset)
            saved.append(PosseEntry(draft.name, ruleset, False, path, len(draft.units)))
        except PosseFileError as error:
            # the name an unusable file claims, as a listing can show it (a usable name is short)
            stored = _stored_name(path)
            name = stored if stored is not None and not name_problem(stored) and stored.strip() else path.stem
            name = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "\u2026"
            saved.append(PosseEntry(name, ruleset, False, path, 0, f"{error.what} -- {error.fix}"))
    saved.sort(key=lambda e: (e.name.casefold(), str(e.path)))
    builtin = [
        PosseEntry(d.name, ruleset, True, None, len(d.units))
        for d in default_posses(ruleset)
        if not any(same_name(e.name, d.name) for e in saved)
    ]
    return saved + builtin


def load_posse(ruleset: str, name: str, side: str = "side1") -> PosseDraft:
    """The posse called ``name``: a saved one, else a built-in default; PosseFileError if neither."""
    _check_ruleset(ruleset)
    path = _find(ruleset, name)
    if path is not None:
        return read_posse_file(path, ruleset, side)
    for draft in default_posses(ruleset, side):
        if same_name(draft.name, name):
            return draft
    raise PosseFileError(
        posse_dir(ruleset) / f"{file_stem(name)}.json",
        f"there is no {registry.plugin(ruleset).title} posse called '{name}'",
        "pick one from the list of posses",
    )


def save_posse(draft: PosseDraft, name: str | None = None) -> Path:
    """Save ``draft`` under ``name`` (default: its own name), replacing a saved posse of that name; the
    draft takes the name. Only a posse the rules accept is saved. Returns the file written."""
    name = (draft.name if name is None else name).strip()
    folder = posse_dir(draft.ruleset)
    problem = name_problem(name, "a posse's name") or (None if name else "a posse needs a name to be saved")
    if problem:
        raise PosseFileError(folder, problem, "type another name")
    problems = draft.problems()
    if problems:
        raise PosseFileError(
            folder / f"{file_stem(name)}.json",
            "the posse cannot be saved yet: " + "; ".join(problems),
            "fix what is listed in the posse builder first",
        )
    path = _find(draft.ruleset, name)
    if path is None:
        stem = file_stem(name)
        path = folder / f"{stem}.json"
        n = 2
        while path.exists():
            path = folder / f"{stem}-{n}.json"
            n += 1
    draft.name = name
    try:
        write_save(path, draft.to_json())
    except OSError as error:
        raise PosseFileError(
            path, f"the posse cannot be written ({error.strerror or error})", "check the folder's permissions"
        ) from None
    return path


def delete_posse(ruleset: str, name: str) -> None:
    """Delete the saved posse called ``name`` (a built-in default of that name shows again)."""
    _check_ruleset(ruleset)
    path = _find(ruleset, name)
    if path is None:
        builtin = any(same_name(d.name, name) for d in default_posses(ruleset))
        raise PosseFileError(
            posse_dir(ruleset) / f"{file_stem(name)}.json",
            f"'{name}' is built in and cannot be deleted"
            if builtin
            else f"there is no saved posse called '{name}'",
            "pick a saved posse from the list",
        )
    try:
        path.unlink()
    except OSError as error:
        raise PosseFileError(
            path, f"the posse cannot be deleted ({error.strerror or error})", "check the folder's permissions"
        ) from None
