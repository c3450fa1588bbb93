"""The seed files the mutators start from, built once into a work folder (deterministic).

* ``maps/``: the shipped maps and tilesets (``assets/`` beside it links to the repository's art, so tile
  images resolve as they do in the game);
* ``saves/``: saves of seeded random games — Frontier and Through the Rift, on two shipped maps, stopped
  part-way — whose ``map.file`` is the copy in ``maps/``;
* ``settings/``: a settings file with every value changed from its default.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from game.commands import Command
from game.engine.match import Match
from game.posses import default_posses
from game.rules import get_ruleset
from game.save import save_match
from game.ui.prefs import Prefs

ROOT = Path(__file__).resolve().parent.parent.parent
SHIPPED_MAPS = ROOT / "maps"
GAMES = (  # ruleset, map, seed, commands played before saving
    ("frontier", "ranch_duel.tmx", 1, 60),
    ("frontier", "frontier_town.tmx", 2, 90),
    ("rift", "ranch_duel.tmx", 3, 60),
    ("rift", "frontier_town.tmx", 4, 90),
)


@dataclass(frozen=True)
class Corpus:
    folder: Path
    maps: tuple[Path, ...]
    tilesets: tuple[Path, ...]
    saves: tuple[Path, ...]
    settings: tuple[Path, ...]


def random_command(match: Match, rng: random.Random) -> Command:
    """A uniformly chosen enabled action, then one of (at most 64 of) the commands it allows.

    A "path" action without the rules' path tree (Through the Rift's, until it moves onto the engine)
    expands to nothing: its path is then the battlefield's cheapest path to a random end."""
    actions = [a for a in match.legal_actions() if a.enabled]
    action = rng.choice(actions)
    commands = list(islice(action.expand(), 64))
    if not commands and action.needs == "path":
        here = match.position(action.actor)
        path = match.battlefield.path(here, rng.choice(action.hexes)) if here is not None else None
        if path is not None:
            return action.command(path=tuple(path))
    if not commands:
        return next(a for a in actions if a.ends_turn or a.needs == "").command()
    return rng.choice(commands)


def play(map_path: Path, ruleset: str, seed: int, commands: int) -> Match:
    """A match of two default posses played at random for ``commands`` commands (or to its end)."""
    posses = [default_posses(ruleset, "side1")[0].spec(), default_posses(ruleset, "side2")[-1].spec()]
    match = Match.create(map_path, get_ruleset(ruleset), posses, seed)
    rng = random.Random(seed)
    for _ in range(commands):
        if match.is_over:
            break
        match.apply(random_command(match, rng))
    return match


def _fingerprint() -> str:
    """What the corpus depends on: the game's code and the shipped maps. A corpus built by other code (an
    older save format, other rules) is rebuilt, or its saves would not load."""
    digest = hashlib.sha256()
    for source in sorted(
        [
            *(ROOT / "game").rglob("*.py"),
            *(ROOT / "game").rglob("*.toml"),
            *(f for f in SHIPPED_MAPS.iterdir() if f.is_file()),
        ]
    ):
        digest.update(str(source.relative_to(ROOT)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def build(folder: Path) -> Corpus:
    """The corpus in ``folder`` (built on first use, reused while the game's code is the same)."""
    folder = folder.resolve()
    maps_dir = folder / "maps"
    saves_dir = folder / "saves"
    settings_dir = folder / "settings"
    stamp = folder / "corpus.done"
    fingerprint = _fingerprint()
    if not stamp.exists() or stamp.read_text(encoding="utf-8").strip() != fingerprint:
        shutil.rmtree(folder, ignore_errors=True)
        maps_dir.mkdir(parents=True)
        saves_dir.mkdir()
        settings_dir.mkdir()
        for f in SHIPPED_MAPS.iterdir():
            if f.suffix in (".tmx", ".tsx"):
                shutil.copy(f, maps_dir / f.name)
        (folder / "assets").symlink_to(ROOT / "assets")
        for ruleset, map_name, seed, count in GAMES:
            match = play(maps_dir / map_name, ruleset, seed, count)
            try:
                save_match(
                    match, saves_dir / f"{ruleset}-{Path(map_name).stem}.json", name=f"{ruleset} {seed}"
                )
            finally:
                match.close()
        prefs = Prefs(window_size=(1600, 900), fullscreen=True, ui_scale=1.25, volume=0.5, muted=True)
        prefs.rebind("undo", "z")
        (settings_dir / "settings.json").write_text(json.dumps(prefs.to_json(), indent=2), encoding="utf-8")
        stamp.write_text(fingerprint + "\n", encoding="utf-8")
    return Corpus(
        folder,
        tuple(sorted(maps_dir.glob("*.tmx"))),
        tuple(sorted(maps_dir.glob("*.tsx"))),
        tuple(sorted(saves_dir.glob("*.json"))),
        tuple(sorted(settings_dir.glob("*.json"))),
    )
