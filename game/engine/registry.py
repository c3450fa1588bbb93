"""The one registry of rulesets: plugins found through the ``hexslinger.rulesets`` entry-point group.

A ruleset registers itself the way Python plugins do (the packaging ecosystem's convention): its
distribution declares an entry point in the group ``hexslinger.rulesets`` naming a :class:`RulesetPlugin`
object, e.g. in ``pyproject.toml``::

    [project.entry-points."hexslinger.rulesets"]
    my_rules = "my_package.rules:PLUGIN"

so a ruleset can ship inside Hexslinger or as a package of its own. Every screen, the CLI and the map
checker read this registry — the list of rulesets, their titles, factions, default posses, posse
builders and odds commands — and nothing outside a ruleset's package names a ruleset.

A plugin that fails to load (an import error, not a ``RulesetPlugin``, a duplicate id) is left out and
its problem kept in :func:`problems`, so one broken plugin never stops the game.
"""

from __future__ import annotations

import argparse
import importlib.metadata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from game.engine.builder import PosseBuilder
from game.engine.protocol import PosseSpec, Ruleset

__all__ = [
    "EXIT_OK",
    "EXIT_USAGE",
    "GROUP",
    "Faction",
    "OddsCommand",
    "RulesetPlugin",
    "UnknownRulesetError",
    "get_ruleset",
    "plugin",
    "plugins",
    "problems",
    "refresh",
    "ruleset_ids",
]

GROUP = "hexslinger.rulesets"
EXIT_OK = 0  # an odds command's exit status when it printed the odds
EXIT_USAGE = 2  # ... when its arguments were wrong (the message on stderr says what and how to fix it)


class UnknownRulesetError(KeyError):
    """A ruleset id no installed plugin provides; the message lists the known ones."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown ruleset"


@dataclass(frozen=True, slots=True)
class Faction:
    """A posse a ruleset fields: its id (``PosseSpec.faction``), its name for players and the colour of its
    tokens' rims (RGB; None: the colour of the side's place)."""

    id: str
    name: str
    color: tuple[int, int, int] | None = None


@dataclass(frozen=True, slots=True)
class OddsCommand:
    """The ruleset's ``hexslinger odds <id>`` sub-command: ``configure`` adds its arguments to the
    sub-command's parser, ``run`` prints the odds and returns the exit status (:data:`EXIT_OK`, or
    :data:`EXIT_USAGE` with a message on stderr; never a traceback)."""

    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class RulesetPlugin:
    """Everything Hexslinger needs to know of a ruleset, without loading its rules data.

    ``load`` gives the :class:`~game.engine.protocol.Ruleset` (loaded once, on first use); ``builder``
    the posse builder's :class:`~game.engine.builder.PosseBuilder` (None: its posses cannot be built in
    the game); ``default_posses`` the posses offered before any is saved, as (name, spec) pairs (the
    draft gives them their side); ``order`` sorts the rulesets in menus."""

    id: str
    title: str
    load: Callable[[], Ruleset]
    factions: tuple[Faction, ...] = ()
    order: int = 100
    blurb: str = ""
    builder: Callable[[], PosseBuilder] | None = None  # the posse builder's answers (game.engine.builder)
    default_posses: Callable[[], Sequence[tuple[str, PosseSpec]]] = field(default=lambda: ())
    odds: OddsCommand | None = None
    distance_unit: str = "hexes"  # the words a distance is given in ('"' inches, "tiles")

    def faction_name(self, faction: str) -> str:
        for f in self.factions:
            if f.id == faction:
                return f.name
        return faction


class _State:
    plugins: dict[str, RulesetPlugin] | None = None
    problems: list[str] = []  # noqa: RUF012 - module state, one per process
    loaded: dict[str, Ruleset] = {}  # noqa: RUF012


_state = _State()


def _discover() -> dict[str, RulesetPlugin]:
    found: dict[str, RulesetPlugin] = {}
    problems = _state.problems
    problems.clear()
    for ep in sorted(importlib.metadata.entry_points(group=GROUP), key=lambda e: (e.name, e.value)):
        try:
            obj = ep.load()
        except Exception as error:
            problems.append(f"ruleset plugin '{ep.name}' ({ep.value}) failed to load: {error}")
            continue
        if not isinstance(obj, RulesetPlugin):
            problems.append(f"ruleset plugin '{ep.name}' ({ep.value}) is not a RulesetPlugin")
            continue
        if obj.id in found:
            if found[obj.id] is not obj:
                problems.append(f"ruleset '{obj.id}' is registered twice; {ep.value} was left out")
            continue
        found[obj.id] = obj
    return found


def refresh() -> None:
    """Look for plugins again (after a plugin was installed or, in tests, registered)."""
    _state.plugins = None
    _state.loaded.clear()


def _table() -> dict[str, RulesetPlugin]:
    if _state.plugins is None:
        _state.plugins = _discover()
    return _state.plugins


def plugins() -> list[RulesetPlugin]:
    """Every installed ruleset, in menu order."""
    return sorted(_table().values(), key=lambda p: (p.order, p.id))


def ruleset_ids() -> list[str]:
    return [p.id for p in plugins()]


def plugin(ruleset: str) -> RulesetPlugin:
    """The plugin of ``ruleset``; :class:`UnknownRulesetError` (listing the known ones) if none."""
    found = _table().get(ruleset) if isinstance(ruleset, str) else None
    if found is None:
        known = ", ".join(ruleset_ids()) or "none installed"
        raise UnknownRulesetError(f"unknown ruleset '{ruleset}'; known rulesets: {known}")
    return found


def get_ruleset(ruleset: str) -> Ruleset:
    """The ruleset called ``ruleset`` (its entry point's name), loaded once per process."""
    loaded = _state.loaded.get(ruleset)
    if loaded is None:
        loaded = plugin(ruleset).load()
        _state.loaded[ruleset] = loaded
    return loaded


def problems() -> list[str]:
    """Why plugins were left out (empty when all loaded)."""
    _table()
    return list(_state.problems)
