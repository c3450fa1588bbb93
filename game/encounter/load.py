"""Reading an encounter file (``encounters/*.toml``, docs/GM.md "Encounter files") with total validation.

:func:`check_encounter` returns every problem of a file at once, each an :class:`EncounterProblem` naming
the file, the key (``side2.posse.units[3].kind``), what is wrong and how to fix it; :func:`load_encounter`
returns the :class:`Encounter` (the ruleset, the map, the two posses, who plays each side and the
:class:`~game.engine.scenario.Scenario` the match is built with) or raises :class:`EncounterError` with
the same list. Nothing here raises a traceback for a bad file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ai.controllers import ControllerError
from ai.controllers import parse as parse_controller
from game.battlefield import Battlefield
from game.engine import registry
from game.engine.builder import DraftError
from game.engine.match import Match
from game.engine.protocol import PosseSpec
from game.engine.scenario import GOAL_KINDS, Arrival, Goal, Scenario
from game.hexgrid import Hex, hex_neighbors
from game.mapload import load_battlefield
from game.posses import PosseDraft, PosseFileError, buildable_rulesets, builder_for, load_posse, name_problem
from game.resources import shipped_map
from game.safeio import FileRefusedError, JsonLimits, load_toml
from game.tiledmap import MapLoadError

__all__ = [
    "SIDES",
    "Encounter",
    "EncounterError",
    "EncounterProblem",
    "check_encounter",
    "load_encounter",
    "read_encounter",
]

SIDES: Final = ("side1", "side2")
HUMAN: Final = "human"
EDGE: Final = "edge"  # an exit area: every hex on the map's edge
LIMITS: Final = JsonLimits(max_bytes=1024 * 1024)

TOP_KEYS: Final = {"title", "description", "ruleset", "map", "rounds", "time_winner", *SIDES}
TOP_LISTS: Final = {"reinforcements", "objectives"}
SIDE_KEYS: Final = {"posse", "controller", "deploy", "starts"}
INLINE_POSSE_KEYS: Final = {"name", "faction", "units"}
ARRIVAL_KEYS: Final = {"side", "unit", "round", "at"}
GOAL_KEYS: Final = {
    "eliminate": {"kind", "side"},
    "hold": {"kind", "side", "area", "rounds"},
    "escape": {"kind", "side", "exit", "unit", "count"},
    "protect": {"kind", "side", "unit"},
    "loot": {"kind", "side", "item", "exit"},
}
GOAL_NEEDS: Final = {
    "eliminate": set(),
    "hold": {"area", "rounds"},
    "escape": {"exit"},
    "protect": {"unit"},
    "loot": {"item", "exit"},
}


@dataclass(frozen=True, slots=True)
class EncounterProblem:
    """One thing wrong with an encounter file: where (``file``, ``key``), what, and how to fix it."""

    file: str
    key: str
    what: str
    fix: str

    def __str__(self) -> str:
        where = f"[{self.key}] " if self.key else ""
        return f"{where}{self.what} -- {self.fix}"


class EncounterError(Exception):
    """An encounter file that cannot be played; ``problems`` lists every reason."""

    def __init__(self, path: Path, problems: list[EncounterProblem]) -> None:
        self.path = path
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(str(p) for p in problems))


@dataclass(slots=True)
class Encounter:
    """An encounter ready to be played: build the match with :meth:`match`."""

    path: Path | None
    title: str
    description: str
    ruleset: str
    map_path: Path
    posses: list[PosseSpec]
    seats: dict[str, str]  # side -> "human" / "ai:normal"
    scenario: Scenario
    battlefield: Battlefield = field(repr=False)

    def match(self, seed: int) -> Match:
        """A new match of this encounter (the map is the one loaded when the file was read)."""
        return Match(
            self.battlefield.clone(),
            registry.get_ruleset(self.ruleset),
            list(self.posses),
            seed,
            map_path=self.map_path,
            scenario=self.scenario,
        )


# == reading ===================================================================================


class _Reader:
    """Collects problems while it reads one file; every check goes on after a problem where it can."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problems: list[EncounterProblem] = []

    def add(self, key: str, what: str, fix: str) -> None:
        self.problems.append(EncounterProblem(str(self.path), key, what, fix))

    def keys(self, table: dict[str, Any], where: str, known: set[str]) -> None:
        for key in sorted(set(table) - known):
            self.add(
                f"{where}.{key}" if where else key,
                f"unknown key '{key}'",
                f"remove it or correct its spelling (known keys here: {', '.join(sorted(known))})",
            )

    def text(self, table: dict[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
        name = f"{where}.{key}" if where else key
        if key not in table:
            if required:
                self.add(name, f"'{key}' is missing", f'add {key} = "..."')
            return None
        value = table[key]
        if not isinstance(value, str):
            self.add(name, f"'{key}' must be text, not {_kind(value)}", f'write it in quotes: {key} = "..."')
            return None
        return value

    def whole(self, table: dict[str, Any], key: str, where: str, low: int, high: int) -> int | None:
        name = f"{where}.{key}" if where else key
        if key not in table:
            return None
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(name, f"'{key}' must be a whole number, not {_kind(value)}", f"write e.g. {key} = {low}")
            return None
        if not low <= value <= high:
            self.add(
                name, f"'{key}' is {value}, outside {low} to {high}", f"pick a number from {low} to {high}"
            )
            return None
        return value


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def check_encounter(path: str | Path) -> list[EncounterProblem]:
    """Every problem of the encounter file at ``path`` (empty: it can be played)."""
    try:
        load_encounter(path)
    except EncounterError as error:
        return error.problems
    return []


def load_encounter(path: str | Path) -> Encounter:
    """The encounter in the file at ``path``; EncounterError listing every problem."""
    path = Path(path)
    reader = _Reader(path)
    try:
        doc = load_toml(path, LIMITS, what="encounter file")
    except FileRefusedError as error:
        reader.add("", error.what, error.fix)
        raise EncounterError(path, reader.problems) from None
    if not isinstance(doc, dict):  # pragma: no cover - a TOML document is always a table
        reader.add("", "the file is not a table of keys", "write an encounter file as docs/GM.md shows")
        raise EncounterError(path, reader.problems)
    encounter = _read(reader, doc, path)
    if reader.problems or encounter is None:
        raise EncounterError(path, reader.problems)
    return encounter


def read_encounter(doc: dict[str, Any], path: Path) -> Encounter:
    """An encounter from an already parsed document (``path``: where relative map paths start)."""
    reader = _Reader(path)
    encounter = _read(reader, doc, path)
    if reader.problems or encounter is None:
        raise EncounterError(path, reader.problems)
    return encounter


def _read(r: _Reader, doc: dict[str, Any], path: Path) -> Encounter | None:
    r.keys(doc, "", TOP_KEYS | TOP_LISTS)
    title = r.text(doc, "title", "") or path.stem.replace("_", " ")
    description = r.text(doc, "description", "") or ""
    ruleset = _ruleset(r, doc)
    bf, map_path = _map(r, doc, path, ruleset)
    rounds = r.whole(doc, "rounds", "", 1, 1000)
    time_winner = r.text(doc, "time_winner", "") or ""
    if time_winner and time_winner not in SIDES:
        r.add("time_winner", f"'{time_winner}' is not a side", f"write one of: {', '.join(SIDES)}")
        time_winner = ""

    posses: dict[str, PosseSpec] = {}
    seats: dict[str, str] = {}
    starts: list[tuple[str, int, Hex]] = []
    zones: list[tuple[str, frozenset[Hex]]] = []
    for side in SIDES:
        table = doc.get(side)
        if not isinstance(table, dict):
            what = f"there is no [{side}] table" if table is None else f"'{side}' must be a table"
            r.add(
                side,
                what,
                f'add a [{side}] table with posse = "..." (a posse of the library) or an inline posse',
            )
            continue
        r.keys(table, side, SIDE_KEYS)
        seats[side] = _controller(r, table, side)
        posse = _posse(r, table, side, ruleset)
        if posse is not None:
            posses[side] = posse
        if bf is not None and "deploy" in table:
            hexes = _area(r, bf, table["deploy"], f"{side}.deploy", edge=False)
            if hexes is not None:
                passable = frozenset(h for h in hexes if bf.is_passable(h))
                if not passable:
                    r.add(
                        f"{side}.deploy",
                        "the deploy area has no hex a unit can stand on",
                        "name another area",
                    )
                else:
                    zones.append((side, passable))
        if bf is not None and posse is not None and "starts" in table:
            starts += _starts(r, bf, table["starts"], side, posse)

    if bf is not None and len(posses) == 2 and ruleset is not None:
        for problem in Match.posse_problems(registry.get_ruleset(ruleset), [posses[s] for s in SIDES]):
            r.add(
                "side1/side2",
                f"the {registry.plugin(ruleset).title} rules refuse these posses: {problem}",
                "change the posses so the rules accept them (the posse builder shows why)",
            )
        given = {s for s, _ in zones}
        for side in SIDES:
            if side not in given and side not in bf.deploy_zones:
                r.add(
                    f"{side}.deploy",
                    f"the map has no deploy zone for {side}",
                    f'add {side}.deploy = "<a map object>"',
                )

    arrivals = _arrivals(r, doc, bf, posses, starts)
    goals = _goals(r, doc, bf, posses)
    seen: dict[Hex, str] = {}
    for side, index, h in starts:
        who = _unit_name(posses[side], index)
        if h in seen:
            r.add(
                f"{side}.starts.{who}",
                f"{who} starts on the hex already taken by {seen[h]} (occupied)",
                "give each unit a hex of its own",
            )
        seen[h] = who
    if r.problems or bf is None or ruleset is None or map_path is None or len(posses) < 2:
        return None
    scenario = Scenario(
        goals=tuple(goals),
        starts=tuple(starts),
        arrivals=tuple(arrivals),
        zones=tuple(zones),
        rounds=rounds,
        time_winner=time_winner,
        name=title,
    )
    return Encounter(
        path, title, description, ruleset, map_path, [posses[s] for s in SIDES], seats, scenario, bf
    )


def _ruleset(r: _Reader, doc: dict[str, Any]) -> str | None:
    ruleset = r.text(doc, "ruleset", "", required=True)
    if ruleset is None:
        return None
    known = buildable_rulesets()
    if ruleset not in known:
        r.add("ruleset", f"unknown ruleset '{ruleset}'", f"write one of: {', '.join(known)}")
        return None
    return ruleset


def _map(
    r: _Reader, doc: dict[str, Any], path: Path, ruleset: str | None
) -> tuple[Battlefield | None, Path | None]:
    name = r.text(doc, "map", "", required=True)
    if name is None:
        return None, None
    found = (path.parent / name) if name.lower().endswith(".tmx") else shipped_map(name)
    if found is None or not found.is_file():
        what = (
            f"there is no map file {found}"
            if found is not None
            else f"there is no shipped map called '{name}'"
        )
        r.add(
            "map",
            what,
            "name a shipped map (hexslinger maps lists them) or a .tmx file relative to this file",
        )
        return None, None
    try:
        bf = load_battlefield(found)
    except MapLoadError as error:
        first = error.problems[0] if error.problems else None
        r.add(
            "map",
            f"the map {found.name} cannot be loaded" + (f": {first.what}" if first else ""),
            f"run hexslinger check-map {found} and fix what it lists",
        )
        return None, None
    if ruleset is not None and bf.rulesets and ruleset not in bf.rulesets:
        r.add(
            "map",
            f"{bf.title} is made for {', '.join(bf.rulesets)}, not {ruleset}",
            "pick a map that suits the ruleset (its 'rulesets' property)",
        )
    return bf, found.resolve()


def _controller(r: _Reader, table: dict[str, Any], side: str) -> str:
    text = r.text(table, "controller", side)
    if text is None or text.strip().lower() == HUMAN:
        return HUMAN
    if not text.strip().lower().startswith("ai"):
        r.add(
            f"{side}.controller",
            f"unknown controller '{text}'",
            'write "human" or "ai:PROFILE" (e.g. "ai:normal")',
        )
        return HUMAN
    try:
        return parse_controller(text)
    except ControllerError as error:
        r.add(f"{side}.controller", str(error), 'write "human" or one of the AI controllers listed')
        return HUMAN


def _posse(r: _Reader, table: dict[str, Any], side: str, ruleset: str | None) -> PosseSpec | None:
    key = f"{side}.posse"
    raw = table.get("posse")
    if raw is None:
        r.add(key, "the side has no posse", 'add posse = "<a posse of the library>" or a [' + key + "] table")
        return None
    if ruleset is None:
        return None
    if isinstance(raw, str):
        try:
            draft = load_posse(ruleset, raw, side)
        except PosseFileError as error:
            r.add(key, error.what, error.fix)
            return None
        return _checked(r, key, draft, ruleset)
    if not isinstance(raw, dict):
        r.add(
            key,
            f"'posse' must be a posse's name or a table, not {_kind(raw)}",
            'write posse = "The Law", or a table with name, faction and units',
        )
        return None
    r.keys(raw, key, INLINE_POSSE_KEYS)
    name = r.text(raw, "name", key, required=True)
    faction = r.text(raw, "faction", key, required=True)
    units = raw.get("units")
    if not isinstance(units, list) or not units:
        r.add(
            f"{key}.units",
            "'units' must be a list of units",
            'write units = [{ kind = "...", name = "..." }, ...]',
        )
        return None
    if name is None or faction is None:
        return None
    if name_problem(name):
        r.add(
            f"{key}.name",
            f"the posse's name is not usable ({name_problem(name)})",
            "give it a short plain name",
        )
        return None
    draft = PosseDraft(ruleset, side, name=name)
    draft.faction = builder_for(ruleset).faction_id(faction)
    read = []
    for i, unit in enumerate(units):
        try:
            read.append(draft.unit_from_json(unit, f"unit {i + 1}"))
        except DraftError as error:
            r.add(
                f"{key}.units[{i + 1}]",
                str(error),
                "write the unit as a posse file does: kind, name and its choices",
            )
    if len(read) != len(units):
        return None
    draft.replace_units(read)
    return _checked(r, key, draft, ruleset)


def _checked(r: _Reader, key: str, draft: PosseDraft, ruleset: str) -> PosseSpec | None:
    problems = draft.problems()
    title = registry.plugin(ruleset).title
    for problem in problems:
        r.add(
            key, f"the {title} rules refuse this posse: {problem}", "change the posse so the rules accept it"
        )
    return None if problems else draft.spec(side=draft.side)


def _unit_name(posse: PosseSpec, index: int) -> str:
    unit = posse.units[index]
    return unit.name or unit.kind


def _unit_index(r: _Reader, posse: PosseSpec | None, name: Any, key: str) -> int | None:
    if not isinstance(name, str):
        r.add(
            key,
            f"a unit must be named by text, not {_kind(name)}",
            'write the unit\'s name in quotes: "Sheriff"',
        )
        return None
    if posse is None:
        return None
    folded = " ".join(name.split()).casefold()
    for i, unit in enumerate(posse.units):
        if " ".join((unit.name or unit.kind).split()).casefold() == folded:
            return i
    names = ", ".join(_unit_name(posse, i) for i in range(len(posse.units)))
    r.add(key, f"{posse.name or 'the posse'} has no unit called '{name}'", f"name one of: {names}")
    return None


def _hex(r: _Reader, bf: Battlefield, raw: Any, key: str) -> Hex | None:
    """A [col, row] cell (as Tiled's status bar shows it) as a hex on the map."""
    if (
        not isinstance(raw, list)
        or len(raw) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
    ):
        r.add(
            key,
            f"a hex must be [col, row], not {_kind(raw)}",
            "write the cell as Tiled's status bar shows it: [12, 4]",
        )
        return None
    h = bf.geometry.to_hex(raw[0], raw[1])
    if not bf.in_bounds(h):
        r.add(
            key,
            f"the cell {raw[0]},{raw[1]} is off the map ({bf.width}x{bf.height} cells)",
            "pick a cell on the map",
        )
        return None
    return h


def _object(bf: Battlefield, name: str) -> frozenset[Hex] | None:
    """The hexes of the map's objective object called ``name`` (any case and spacing), or of a side's
    deploy zone when ``name`` is a side ("side2": the other posse's ground)."""
    folded = " ".join(name.split()).casefold()
    for obj in bf.objectives:
        if " ".join(obj.name.split()).casefold() == folded:
            return obj.hexes
    if folded in SIDES:
        return bf.deploy_zones.get(folded)
    return None


def _object_names(bf: Battlefield) -> list[str]:
    return [o.name for o in bf.objectives if o.name]


def _area(r: _Reader, bf: Battlefield, raw: Any, key: str, *, edge: bool) -> frozenset[Hex] | None:
    """A map object (an ``objective`` object, by name), ``"edge"`` where allowed, or [col, row]."""
    if isinstance(raw, list):
        h = _hex(r, bf, raw, key)
        return None if h is None else frozenset({h})
    if not isinstance(raw, str):
        r.add(
            key,
            f"an area must be a map object's name or [col, row], not {_kind(raw)}",
            'write the name of an objective object of the map: "Bank vault"',
        )
        return None
    if edge and raw.strip().lower() == EDGE:
        return frozenset(h for h in bf.hexes if any(not bf.in_bounds(n) for n in hex_neighbors(h)))
    found = _object(bf, raw)
    if found is None:
        names = ", ".join(repr(n) for n in _object_names(bf)) or "none"
        more = ', "side1", "side2" (a deploy zone)' + (' or "edge" (the map\'s border)' if edge else "")
        r.add(
            key,
            f"the map {bf.title} has no objective object called '{raw}'",
            f"name one of its objective objects ({names}){more}, or add one in Tiled (docs/MAPS.md)",
        )
        return None
    if not found:
        r.add(key, f"the map object '{raw}' covers no hex", "make the object cover at least one hex in Tiled")
        return None
    return found


def _starts(r: _Reader, bf: Battlefield, raw: Any, side: str, posse: PosseSpec) -> list[tuple[str, int, Hex]]:
    key = f"{side}.starts"
    if not isinstance(raw, dict):
        r.add(
            key,
            f"'starts' must be a table of unit = [col, row], not {_kind(raw)}",
            f"write [{key}] then one line per unit: Sheriff = [12, 4]",
        )
        return []
    out = []
    for name, cell in raw.items():
        index = _unit_index(r, posse, name, f"{key}.{name}")
        h = _hex(r, bf, cell, f"{key}.{name}")
        if index is None or h is None:
            continue
        if not bf.is_passable(h):
            r.add(
                f"{key}.{name}",
                f"{name}'s start {cell[0]},{cell[1]} is impassable",
                "pick a hex a unit can stand on",
            )
            continue
        out.append((side, index, h))
    return out


def _arrivals(
    r: _Reader,
    doc: dict[str, Any],
    bf: Battlefield | None,
    posses: dict[str, PosseSpec],
    starts: list[tuple[str, int, Hex]],
) -> list[Arrival]:
    out: list[Arrival] = []
    for key, table in _tables(r, doc, "reinforcements", "a reinforcement"):
        r.keys(table, key, ARRIVAL_KEYS)
        side = _side(r, table, key)
        rnd = r.whole(table, "round", key, 2, 1000)
        if "round" not in table:
            r.add(
                f"{key}.round",
                "'round' is missing",
                "add round = 2 (the round the unit comes on; 2 or later)",
            )
        index = (
            _unit_index(r, posses.get(side or ""), table.get("unit"), f"{key}.unit")
            if "unit" in table
            else None
        )
        if "unit" not in table:
            r.add(f"{key}.unit", "'unit' is missing", 'add unit = "<a unit of the side\'s posse>"')
        hexes = None
        if "at" not in table:
            r.add(f"{key}.at", "'at' is missing", 'add at = "<a map object>" or at = [col, row]')
        elif bf is not None:
            hexes = _area(r, bf, table["at"], f"{key}.at", edge=True)
            if hexes is not None and not any(bf.is_passable(h) for h in hexes):
                r.add(f"{key}.at", "no hex of the arrival area can be stood on", "name another area")
                hexes = None
        if side is None or rnd is None or index is None or hexes is None:
            continue
        if any(s == side and i == index for s, i, _ in starts) or any(
            a.side == side and a.index == index for a in out
        ):
            r.add(
                f"{key}.unit",
                f"{table['unit']} already starts on the map or arrives earlier",
                "give each unit one arrival",
            )
            continue
        if posses.get(side) is not None and sum(1 for a in out if a.side == side) + 1 >= len(
            posses[side].units
        ):
            r.add(
                f"{key}.unit",
                "every unit of the posse would arrive late: one must start on the map",
                "keep a unit back from the reinforcements",
            )
            continue
        out.append(Arrival(side, index, rnd, tuple(sorted(hexes))))
    return out


def _tables(r: _Reader, doc: dict[str, Any], name: str, one: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """The tables of the top-level list ``name`` (``[[name]]``) with their keys for messages
    ("objectives[2]"); what is not a list of tables is reported (``one``: "an objective") and skipped."""
    raw = doc.get(name, [])
    article = "an" if name[0] in "aeiou" else "a"
    if not isinstance(raw, list):
        r.add(name, f"'{name}' must be a list of tables", f"write each as {article} [[{name}]] table")
        return
    for i, table in enumerate(raw):
        key = f"{name}[{i + 1}]"
        if isinstance(table, dict):
            yield key, table
        else:
            fix = f"write it as {article} [[{name}]] table"
            r.add(key, f"{one} must be a table, not {_kind(table)}", fix)


def _side(r: _Reader, table: dict[str, Any], key: str) -> str | None:
    side = r.text(table, "side", key, required=True)
    if side is not None and side not in SIDES:
        r.add(f"{key}.side", f"'{side}' is not a side", f"write one of: {', '.join(SIDES)}")
        return None
    return side


def _goals(
    r: _Reader, doc: dict[str, Any], bf: Battlefield | None, posses: dict[str, PosseSpec]
) -> list[Goal]:
    out: list[Goal] = []
    for key, table in _tables(r, doc, "objectives", "an objective"):
        kind = r.text(table, "kind", key, required=True)
        if kind is None:
            continue
        if kind not in GOAL_KINDS:
            r.add(f"{key}.kind", f"unknown objective '{kind}'", f"write one of: {', '.join(GOAL_KINDS)}")
            continue
        r.keys(table, key, GOAL_KEYS[kind])
        for need in sorted(GOAL_NEEDS[kind] - set(table)):
            r.add(
                f"{key}.{need}",
                f"a {kind} objective needs '{need}'",
                f"add {need} = ... (docs/GM.md lists what each objective takes)",
            )
        side = _side(r, table, key)
        goal = _goal(r, table, key, kind=kind, side=side, bf=bf, posses=posses) if side is not None else None
        if goal is not None:
            out.append(goal)
    return out


def _goal(
    r: _Reader,
    table: dict[str, Any],
    key: str,
    *,
    kind: str,
    side: str,
    bf: Battlefield | None,
    posses: dict[str, PosseSpec],
) -> Goal | None:
    if kind == "eliminate":
        return Goal(kind, side, "take out the other posse")

    def area(k: str, edge: bool) -> frozenset[Hex] | None:
        return _area(r, bf, table[k], f"{key}.{k}", edge=edge) if bf is not None and k in table else None

    posse = posses.get(side)
    if kind == "hold":
        rounds = r.whole(table, "rounds", key, 1, 1000)
        hexes = area("area", False)
        if rounds is None or hexes is None:
            return None
        return Goal(kind, side, _label(table["area"]), area=hexes, rounds=rounds)
    if kind == "escape":
        hexes = area("exit", True)
        unit = _unit_index(r, posse, table["unit"], f"{key}.unit") if "unit" in table else -1
        count = r.whole(table, "count", key, 1, 100) or 1
        if hexes is None or unit is None:
            return None
        if posse is not None and count > len(posse.units):
            r.add(
                f"{key}.count",
                f"{count} units must get away but the posse has {len(posse.units)}",
                "lower the count",
            )
            return None
        return Goal(kind, side, _label(table["exit"]), area=hexes, unit=unit, count=count)
    if kind == "protect":
        unit = _unit_index(r, posse, table.get("unit"), f"{key}.unit") if "unit" in table else None
        if unit is None or posse is None:
            return None
        return Goal(kind, side, _unit_name(posse, unit), unit=unit)
    # loot
    spot = area("item", False)
    hexes = area("exit", True)
    if spot is None or hexes is None:
        return None
    if spot & hexes:
        r.add(f"{key}.exit", "the exit overlaps where the loot lies", "name an exit apart from the loot")
        return None
    return Goal(kind, side, _label(table["item"]), area=hexes, spot=spot)


def _label(raw: Any) -> str:
    """An area's words in an objective's label: its object's name, or the cell."""
    if isinstance(raw, list):
        return f"the hex {raw[0]},{raw[1]}"
    text = str(raw)
    words = {"edge": "the map's edge", "side1": "side 1's ground", "side2": "side 2's ground"}
    return words.get(text.lower(), text)
