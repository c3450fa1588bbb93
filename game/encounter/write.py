"""Writing an encounter file from a battle's setup (New Battle's "Save encounter"), and the shipped ones.

A written file holds its posses inline (it plays the same on any machine, whatever its posse library),
the map as a shipped map's name or a path relative to the file, who plays each side and, when the setup
came from an encounter file, that file's starts, reinforcements, round limit and objectives unchanged
(they are copied from the document it was read from).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from game.engine.protocol import PosseSpec
from game.posses import PosseDraft
from game.resources import encounters_dir, maps_dir
from game.safeio import write_atomic

__all__ = ["encounter_toml", "save_encounter", "shipped_encounters"]


def shipped_encounters() -> list[Path]:
    """The encounter files that come with Hexslinger (the repository's ``encounters/``), by name."""
    return sorted(p for p in encounters_dir().glob("*.toml") if p.is_file())


def _value(value: Any) -> str:
    """A TOML value: text (a JSON string is a TOML basic string), a whole number, a list, an inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"an encounter file holds no {type(value).__name__}")


def _key(key: str) -> str:
    bare = key.replace("_", "").replace("-", "").isalnum() and key.isascii()
    return key if bare else json.dumps(key, ensure_ascii=False)


def _map_ref(map_path: Path, out: Path) -> str:
    """A shipped map by its name, any other by its path relative to the file (absolute if elsewhere)."""
    path = map_path.resolve()
    if path.parent == maps_dir().resolve():
        return path.stem
    try:
        return os.path.relpath(path, out.resolve().parent)
    except ValueError:  # another drive (Windows)
        return str(path)


def encounter_toml(
    *,
    title: str,
    ruleset: str,
    map_path: Path,
    posses: Sequence[PosseSpec],
    seats: Mapping[str, str],
    out: Path,
    extra: Mapping[str, Any] | None = None,
) -> str:
    """The text of an encounter file for this setup; ``extra``: the document an encounter file was read
    from (its rounds, time winner, starts, deploy areas, reinforcements and objectives are kept)."""
    extra = extra or {}
    lines = [
        '# A Hexslinger encounter (docs/GM.md "Encounter files").',
        "# Check it with: hexslinger check-encounter FILE",
        f"title = {_value(title)}",
    ]
    if isinstance(extra.get("description"), str):
        lines.append(f"description = {_value(extra['description'])}")
    lines += [f"ruleset = {_value(ruleset)}", f"map = {_value(_map_ref(map_path, out))}"]
    for key in ("rounds", "time_winner"):
        if key in extra:
            lines.append(f"{key} = {_value(extra[key])}")
    for posse in posses:
        side = posse.side
        found = extra.get(side)
        kept: Mapping[str, Any] = found if isinstance(found, dict) else {}
        lines += ["", f"[{side}]", f"controller = {_value(seats.get(side, 'human'))}"]
        if "deploy" in kept:
            lines.append(f"deploy = {_value(kept['deploy'])}")
        draft = PosseDraft.from_spec(ruleset, posse)
        doc = draft.to_json()
        lines += [
            f"[{side}.posse]",
            f"name = {_value(doc['name'])}",
            f"faction = {_value(doc['faction'])}",
            "units = [",
            *(f"    {_value(u)}," for u in doc["units"]),
            "]",
        ]
        starts = kept.get("starts")
        if isinstance(starts, dict) and starts:
            lines += [f"[{side}.starts]", *(f"{_key(k)} = {_value(v)}" for k, v in starts.items())]
    for table in ("reinforcements", "objectives"):
        items = extra.get(table)
        if isinstance(items, list):
            for item in items:
                if isinstance(item, dict):
                    lines += ["", f"[[{table}]]", *(f"{_key(k)} = {_value(v)}" for k, v in item.items())]
    return "\n".join(lines) + "\n"


def save_encounter(path: Path, text: str) -> None:
    """Write an encounter file atomically (a crash leaves the old file or the new one): a temporary file
    beside it, synced, renamed over it (:func:`game.safeio.write_atomic`). OSError if the folder cannot be
    written."""
    write_atomic(Path(path), text.encode("utf-8"))
