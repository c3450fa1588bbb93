"""``hexslinger check-encounter FILE...``: every problem of each encounter file at once.

Exit status 0: every file can be played; 1: at least one has problems (each listed under its file, with
the key, what is wrong and how to fix it); 2: a usage error (argparse). With no FILE, the shipped
encounters are checked.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from game.problems import count, print_problems

__all__ = ["add_parser", "cmd_check_encounter"]

EXIT_OK = 0
EXIT_PROBLEMS = 1


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    check = sub.add_parser(
        "check-encounter",
        help="list every problem in one or more encounter files (exit 1 if any)",
        description="Check encounter files (docs/GM.md): every problem at once, each with its key, what "
        "is wrong and how to fix it. Exit 0: all can be played; 1: problems were found.",
    )
    check.add_argument(
        "files",
        nargs="*",
        type=Path,
        metavar="FILE",
        help="an encounter .toml file (none: every shipped one)",
    )


def cmd_check_encounter(args: argparse.Namespace) -> int:
    from game.encounter.load import check_encounter, load_encounter
    from game.encounter.write import shipped_encounters
    from game.engine import registry

    any_problem = False
    for path in args.files or shipped_encounters():
        problems = check_encounter(path)
        if problems:
            any_problem = True
            print_problems(f"{path}: {count(problems)}", problems)
            continue
        enc = load_encounter(path)
        goals = ", ".join(f"{g.kind} ({g.side})" for g in enc.scenario.goals) or "take out the other posse"
        title = registry.plugin(enc.ruleset).title
        print(f"{path}: OK ({enc.title}: {title} on {enc.map_path.stem}; objectives: {goals})")
    return EXIT_PROBLEMS if any_problem else EXIT_OK
