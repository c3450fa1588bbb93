"""The ``hexslinger print`` and ``hexslinger print-posse`` commands (registered in :mod:`game.cli`).

Exit status: 0 the PDF was written; 1 the map cannot be loaded (its problems are listed) or the PDF could
not be written; 2 a wrong argument (an unknown map or posse, an --out that cannot be written; argparse
itself answers a wrong --paper or --ruleset with 2). Every message says what is wrong and how to fix it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from game.engine import registry
from game.engine.builder import same_name
from game.posses import (
    PosseDraft,
    PosseFileError,
    buildable_rulesets,
    list_posses,
    load_posse,
    read_posse_file,
)
from game.posses.library import POSSE_LIMITS
from game.problems import print_problems
from game.resources import shipped_map, shipped_maps
from game.safeio import FileRefusedError, load_json
from game.tiledmap import MapLoadError
from game.ui.print_map import write_map_pdf
from game.ui.print_pdf import PAPERS, writable_out
from game.ui.print_posse import write_posse_pdf

__all__ = ["find_posse", "run_print", "run_print_posse"]

EXIT_OK = 0
EXIT_PROBLEMS = 1
EXIT_USAGE = 2


def _usage(command: str, text: str) -> int:
    print(f"hexslinger {command}: {text}", file=sys.stderr)
    return EXIT_USAGE


def run_print(args: argparse.Namespace) -> int:
    """``hexslinger print MAP --out FILE.pdf [--paper a4|letter] [--grid] [--coords]``."""
    path = Path(args.map)
    if not path.is_file():
        found = shipped_map(str(args.map))
        if found is None:
            names = ", ".join(p.stem for p in shipped_maps())
            return _usage(
                "print",
                f"unknown map '{args.map}': no such file and no shipped map of that name; "
                f"name a .tmx file or one of the shipped maps: {names}",
            )
        path = found
    problem = writable_out(args.out)
    if problem is not None:
        return _usage("print", problem)
    paper = PAPERS[args.paper]
    try:
        result = write_map_pdf(path, args.out, paper, grid=args.grid, coords=args.coords)
    except MapLoadError as error:
        print_problems(f"hexslinger print: cannot print {path}:", error.problems, err=True)
        return EXIT_PROBLEMS
    except OSError as error:
        print(f"hexslinger print: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_PROBLEMS
    plan = result.plan
    print(
        f"wrote {args.out}: {result.pages} pages -- the page map and {plan.pages} {paper.name} sheets "
        f"({'landscape' if plan.landscape else 'portrait'}, {plan.rows} rows x {plan.cols} columns); "
        f"1 hex = {result.hex_points:g} pt = 1 inch: print at 100% (actual size)"
    )
    return EXIT_OK


def _file_ruleset(path: Path) -> str | None:
    """The ruleset a posse file says it is for (None: it says none that is installed)."""
    try:
        doc = load_json(path, POSSE_LIMITS, what="posse file")
    except FileRefusedError:
        return None
    ruleset = doc.get("ruleset") if isinstance(doc, dict) else None
    return ruleset if isinstance(ruleset, str) and ruleset in buildable_rulesets() else None


def find_posse(name: str, ruleset: str | None) -> PosseDraft | str:
    """The posse ``name`` (a saved or built-in posse's name, or a posse .json file) of ``ruleset`` -- of
    whichever ruleset has one of that name when ``ruleset`` is None; else why not, and how to fix it."""
    path = Path(name)
    if name.lower().endswith(".json") and path.is_file():
        found = ruleset or _file_ruleset(path)
        if found is None:
            known = ", ".join(buildable_rulesets())
            return f"{path} names no installed ruleset; name its ruleset with --ruleset ({known})"
        try:
            return read_posse_file(path, found)
        except PosseFileError as error:
            return f"{error.path}: {error.what} -- {error.fix}"
    rulesets = [ruleset] if ruleset else buildable_rulesets()
    holders = [
        r for r in rulesets if any(same_name(e.name, name) and e.error is None for e in list_posses(r))
    ]
    if len(holders) > 1:
        return (
            f"there is a posse called '{name}' in several rulesets ({', '.join(holders)}); "
            "name one with --ruleset"
        )
    if not holders:
        known = "; ".join(
            f"{registry.plugin(r).title}: "
            + (", ".join(f"'{e.name}'" for e in list_posses(r) if e.error is None) or "none")
            for r in rulesets
        )
        return (
            f"there is no posse called '{name}'; the posses are -- {known} "
            "(hexslinger play --screen posse builds more)"
        )
    try:
        return load_posse(holders[0], name)
    except PosseFileError as error:
        return f"{error.path}: {error.what} -- {error.fix}"


def run_print_posse(args: argparse.Namespace) -> int:
    """``hexslinger print-posse POSSE --out FILE.pdf [--ruleset R] [--paper a4|letter]``."""
    found = find_posse(args.posse, args.ruleset or None)
    if isinstance(found, str):
        return _usage("print-posse", found)
    problem = writable_out(args.out)
    if problem is not None:
        return _usage("print-posse", problem)
    paper = PAPERS[args.paper]
    title = registry.plugin(found.ruleset).title
    try:
        result = write_posse_pdf(found, title, args.out, paper)
    except OSError as error:
        print(f"hexslinger print-posse: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_PROBLEMS
    print(
        f"wrote {args.out}: {found.name} ({title}), {result.cards} unit cards and {result.tokens} tokens "
        f"on {result.pages} {paper.name} pages; print at 100% (actual size): a token is 1 inch across"
    )
    return EXIT_OK
