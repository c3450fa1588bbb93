"""What a fuzz case feeds its damaged file to: the loaders the game itself uses, each expected to accept
the file or refuse it with its own error, never to raise anything else or hang.

* ``save``: the Load screen's listing (:func:`game.ui.library.list_saves`), :func:`game.save.load_match`
  (a refusal is a :class:`~game.save.SaveError`) and ``hexslinger replay``;
* ``map``: a damaged map or one of its tilesets through the loader (:class:`~game.tiledmap.MapLoadError`)
  and the battlefield's checks (:func:`~game.mapload.build_battlefield`), then ``check-map``;
* ``settings``: :func:`game.ui.prefs.load_prefs` (never raises; a message means refused);
* ``command``: a damaged command (JSON) read as a save reads it, validated on a match part-way through a
  game, and applied to a copy when the match accepts it.

A target prepares its case (:meth:`Target.prepare`: the damaged file in place) and then runs it
(:meth:`Target.run`); only the run is timed.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.commands import Command, CommandFormatError, command_from_json, command_to_json
from game.engine.match import Match
from game.hexgrid import Hex
from game.mapcheck import check_map
from game.mapload import build_battlefield, load_battlefield
from game.safeio import FileRefusedError, parse_json
from game.save import SaveError, load_match
from game.tiledmap import MapLoadError
from game.tiledmap.loader import _Loader
from game.ui.library import list_saves
from game.ui.prefs import load_prefs
from tests.fuzz.corpus import Corpus, random_command
from tests.fuzz.mutators import FIFO_NAME, PATH_LIKE, Mutation, Special, mutate

__all__ = ["ALL_TARGETS", "TARGETS", "Case", "Target"]


@dataclass
class Case:
    """One prepared case: the mutation and how to run it."""

    target: str
    mutation: str
    run: Callable[[], str]  # returns "accepted" or "refused"; anything raised is a crash
    files: list[Path] = field(default_factory=list)  # the damaged file(s), kept when the case fails


def place(path: Path, data: bytes | Special) -> None:
    """Put the damaged file (or a link, FIFO or folder in its place) at ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
        return
    kind = data.kind
    if kind.startswith("link:"):
        target = kind.removeprefix("link:")
        path.symlink_to(path.parent / "nowhere" if target == "dangling" else Path(target))
    elif kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()


def fresh(folder: Path) -> Path:
    """An empty case folder holding only a FIFO nobody writes to."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.mkfifo(folder / FIFO_NAME)
    return folder


class Target:
    name = ""

    def __init__(self, corpus: Corpus, work: Path) -> None:
        self.corpus = corpus
        self.work = work

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        raise NotImplementedError


class SaveTarget(Target):
    name = "save"

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        case = fresh(self.work / "case")
        seed = rng.choice(self.corpus.saves)
        if rng.random() < 0.15:  # the save's map entry: the file the loader is sent to
            doc = json.loads(seed.read_bytes())
            doc["map"]["file"] = rng.choice([*PATH_LIKE, str(case / FIFO_NAME), str(case)])
            mutation = Mutation("map_file", json.dumps(doc).encode())
        else:
            mutation = mutate(seed.read_bytes(), "json", rng)
        saves = case / "saves"
        path = saves / "fuzzed.json"
        place(path, mutation.data)

        def run() -> str:
            entries = list_saves(saves, case / "autosaves")
            if len(entries) != 1:  # whatever the file is, it is one row, readable or not
                raise AssertionError(f"the Load screen lists {len(entries)} rows for one file")
            try:
                match, _ = load_match(path)
            except SaveError:
                loaded = False
            else:
                match.close()
                loaded = True
            from game.cli import main

            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                code = main(["replay", str(path)])
            if code not in (0, 1):
                raise AssertionError(f"hexslinger replay exited {code}")
            return "accepted" if loaded else "refused"

        return Case(self.name, mutation.name, run, [path])


class MapTarget(Target):
    name = "map"

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        case = fresh(self.work / "case")
        maps = case / "maps"
        maps.mkdir()
        for f in (*self.corpus.maps, *self.corpus.tilesets):
            shutil.copy(f, maps / f.name)
        (case / "assets").symlink_to(self.corpus.folder / "assets")
        map_path = maps / rng.choice(self.corpus.maps).name
        victim = map_path
        if rng.random() < 0.25:
            used = [t for t in self.corpus.tilesets if t.name.encode() in map_path.read_bytes()]
            victim = maps / rng.choice(used or list(self.corpus.tilesets)).name
        mutation = mutate(victim.read_bytes(), "xml", rng)
        victim.unlink()
        place(victim, mutation.data)

        def run() -> str:
            try:
                tmap = _Loader(map_path, True).load()
            except MapLoadError:
                outcome = "refused"
            else:
                _, problems = build_battlefield(tmap)
                outcome = "refused" if problems else "accepted"
            with contextlib.suppress(MapLoadError):
                load_battlefield(map_path)
            checked = check_map(map_path)
            bugs = [p for p in checked if "could not be" in p.what or "too large or too deeply" in p.what]
            if bugs:
                raise AssertionError(f"check-map reports a bug: {bugs[0]}")
            return outcome

        return Case(self.name, mutation.name, run, [victim])


class SettingsTarget(Target):
    name = "settings"

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        case = fresh(self.work / "case")
        seed = rng.choice(self.corpus.settings)
        mutation = mutate(seed.read_bytes(), "json", rng)
        path = case / "config" / "settings.json"
        place(path, mutation.data)

        def run() -> str:
            result = load_prefs(path)
            return "refused" if result.message else "accepted"

        return Case(self.name, mutation.name, run, [path])


ODD_VALUES: tuple[Any, ...] = (
    None,
    True,
    -1,
    2**31,
    10**5000,
    1.5,
    float("nan"),
    "",
    "\u2460",
    "\u0661",
    "1",
    "x" * 10000,
    [],
    (),
    (1, 2),
    ("a",),
    Hex(0, 0),
    Hex(10**6, -(10**6)),
    Hex(1.5, 0),  # type: ignore[arg-type]
    (Hex(0, 0),) * 5000,
    {"a": 1},
    b"1",
)


class CommandTarget(Target):
    name = "command"

    def __init__(self, corpus: Corpus, work: Path) -> None:
        super().__init__(corpus, work)
        self._matches: list[Match] = []

    def matches(self) -> list[Match]:
        if not self._matches:
            for save in self.corpus.saves:
                match, _ = load_match(save)
                if not match.is_over:
                    self._matches.append(match)
        return self._matches

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        base = rng.choice(self.matches())
        seed_cmd = random_command(base, rng)
        if rng.random() < 0.3:  # fields of any Python type, as a script or a buggy client might send
            name = rng.choice(
                ["action", "actor", "side", "target", "targets", "hex", "path", "option", "number", "extra"]
            )
            value = rng.choice(ODD_VALUES)
            fields = {f: getattr(seed_cmd, f) for f in Command.__slots__}  # type: ignore[attr-defined]
            fields[name] = value
            cmd = Command(**fields)

            def run_fields() -> str:
                match = base.clone()
                try:
                    if match.validate(cmd) is not None:
                        return "refused"
                    match.apply(cmd)
                    return "accepted"
                finally:
                    match.close()

            return Case(self.name, f"field:{name}", run_fields)
        mutation = mutate(json.dumps(command_to_json(seed_cmd)).encode(), "json", rng)
        text = mutation.data if isinstance(mutation.data, bytes) else b"{}"  # no file here to replace
        path = fresh(self.work / "case") / "command.json"
        path.write_bytes(text)

        def run() -> str:
            try:
                cmd = command_from_json(parse_json(text, "command.json", what="command"))
            except (FileRefusedError, CommandFormatError):
                return "refused"
            match = base.clone()
            try:
                if match.validate(cmd) is not None:
                    return "refused"
                match.apply(cmd)
                return "accepted"
            finally:
                match.close()

        return Case(self.name, mutation.name, run, [path])


class SelfTestTarget(Target):
    """For the runner's own test: case 2 hangs, case 4 crashes, the others are accepted."""

    name = "selftest"

    def prepare(self, rng: random.Random, index: int = 0) -> Case:
        def run() -> str:
            if index == 2:
                time.sleep(600)
            if index == 4:
                return str(1 // (index - 4))
            return "accepted"

        return Case(self.name, "selftest", run)


TARGETS: dict[str, type[Target]] = {t.name: t for t in (SaveTarget, MapTarget, SettingsTarget, CommandTarget)}
ALL_TARGETS: dict[str, type[Target]] = {**TARGETS, SelfTestTarget.name: SelfTestTarget}
