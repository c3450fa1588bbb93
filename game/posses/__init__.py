"""Posses as a player builds them and keeps them: a draft edited step by step (:mod:`game.posses.draft`)
and a library of named files (:mod:`game.posses.library`).

Neither knows a ruleset: every ruleset's options, default posses and words come from its plugin in the
registry (:mod:`game.engine.registry`), through its posse builder (:mod:`game.engine.builder`). A new
ruleset needs no edit here.
"""

from __future__ import annotations

from game.engine.builder import Choice, DraftError, DraftUnit
from game.posses.draft import (
    FORMAT,
    POSSE_FIELDS,
    VERSION,
    PosseDraft,
    buildable_rulesets,
    builder_for,
    default_posses,
    name_problem,
)
from game.posses.library import (
    DATA_ENV,
    PosseEntry,
    PosseFileError,
    data_dir,
    delete_posse,
    file_stem,
    list_posses,
    load_posse,
    posse_dir,
    read_posse_file,
    save_posse,
)

__all__ = [
    "DATA_ENV",
    "FORMAT",
    "POSSE_FIELDS",
    "VERSION",
    "Choice",
    "DraftError",
    "DraftUnit",
    "PosseDraft",
    "PosseEntry",
    "PosseFileError",
    "buildable_rulesets",
    "builder_for",
    "data_dir",
    "default_posses",
    "delete_posse",
    "file_stem",
    "list_posses",
    "load_posse",
    "name_problem",
    "posse_dir",
    "read_posse_file",
    "save_posse",
]
