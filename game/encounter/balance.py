"""Balance reports: an encounter played many times AI-vs-AI and what it comes to (``hexslinger balance``).

:func:`plan` picks who plays each side (the encounter's AI, or ``ai:normal`` standing in for the players
where the file says ``human``) and whether the games are side-swapped. :func:`run_balance` plays the
encounter with :mod:`ai.simulate`'s batches (deterministic, the same records for any worker count), then
the sensitivity variants (:func:`variants`: a side with one unit more or fewer, a named cover object
taken off the map), each with the same seeds, and returns :func:`numbers`' JSON-ready dict: win rates
with Wilson 95% intervals, draws, rounds, survivors, damage per unit, which objective decided the games,
where units were hit and went down, the sensitivity table and a one-line verdict in a GM's words.
The HTML page is :mod:`game.encounter.report`; the command is :mod:`game.encounter.balance_cli`.

Everything here is Hexslinger's own (the rulebooks say nothing of balance): docs/GM.md "Balance reports".
"""

from __future__ import annotations

import dataclasses
import math
import multiprocessing.pool
import statistics
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ai.simulate import Batch, BatchResult, GameOutcome, run_batch, wilson
from game.battlefield import Terrain
from game.encounter.load import HUMAN, SIDES, Encounter
from game.engine import registry
from game.engine.match import Match
from game.engine.protocol import PosseSpec, UnitSpec
from game.engine.scenario import Goal, Scenario
from game.hexgrid import Hex, hex_neighbors
from game.mapload import build_battlefield
from game.tiledmap import GID_MASK, TiledMap, TileLayer, load_tiled_map

__all__ = [
    "STAND_IN",
    "CoverObject",
    "Plan",
    "Variant",
    "cover_objects",
    "decided_by",
    "numbers",
    "plan",
    "run_balance",
    "variants",
]

STAND_IN: Final = "ai:normal"  # plays a side the encounter gives to a human
FAIR: Final = (0.40, 0.60)  # a win rate in this band reads as a fair fight (Hexslinger's own line)
DASH: Final = "\N{EN DASH}"  # between the ends of an interval
DEFAULT_COVER: Final = 2  # cover objects tried when none is named: the two fought around most
SMALL: Final = 3  # ... among those of at most this many hexes (crates, a wagon; not a wall or a long fence)


@dataclass(frozen=True, slots=True)
class Plan:
    """Who plays each side, whether each seed is played twice with the controllers trading sides, and
    why (or why not) in words."""

    controllers: tuple[str, str]
    stand_ins: tuple[str, ...]  # the sides the file gives to a human (played by STAND_IN)
    swap: bool
    swap_reason: str


def plan(enc: Encounter) -> Plan:
    """The controllers and the side swap for ``enc``.

    A swap (:class:`ai.simulate.Batch` ``swap``: each seed played twice, the controllers trading sides,
    the posses and the encounter's rules staying) takes a difference between the two AIs out of the
    posses' win rates. It is played only where the encounter allows it: when one side is the players'
    (the file says ``human``, so its AI is only a stand-in) and the other's AI differs from the
    stand-in. Not when both sides end up with the same AI (a swap would change nothing but the dice),
    nor when the file sets a different AI for each side (that pairing is part of the encounter)."""
    seats = [enc.seats.get(side, HUMAN) for side in SIDES]
    controllers = tuple(STAND_IN if s == HUMAN else s for s in seats)
    stand_ins = tuple(side for side, s in zip(SIDES, seats, strict=True) if s == HUMAN)
    c1, c2 = controllers
    if c1 == c2:
        why = (
            f"not side-swapped: both sides are played by {c1}, so swapping them would change nothing "
            "but the dice"
        )
        return Plan((c1, c2), stand_ins, False, why)
    if not stand_ins:
        why = (
            f"not side-swapped: the encounter sets each side's AI (side 1 {c1}, side 2 {c2}); swapping "
            "them would play another encounter"
        )
        return Plan((c1, c2), stand_ins, False, why)
    why = (
        f"side-swapped: each seed is played twice, {c1} and {c2} trading sides ({STAND_IN} stands in for "
        "the players), so the win rates are the posses' and the ground's, not the two AIs' difference"
    )
    return Plan((c1, c2), stand_ins, True, why)


# == sensitivity variants =====================================================================


@dataclass(frozen=True, slots=True)
class CoverObject:
    """Connected hexes of one cover-giving tile kind on one rule layer above the ground (a wagon, a row
    of fence): ``name`` as the report shows it ("wagon at 15,11"); ``cells``: (layer index, col, row) of
    its tiles in the map file."""

    name: str
    kind: str
    hexes: frozenset[Hex]
    cells: tuple[tuple[int, int, int], ...]


def cover_objects(enc: Encounter, tmap: TiledMap | None = None) -> list[CoverObject]:
    """The map's cover objects: tiles that give cover (``cover = half/full``) on the rule layers above
    the lowest one, grouped into connected runs of the same kind on the same layer; in map order."""
    tmap = tmap or load_tiled_map(enc.map_path, require_images=False)
    geo = tmap.geometry
    rule_layers = [
        (i, layer)
        for i, layer in enumerate(tmap.layers)
        if isinstance(layer, TileLayer) and layer.visible and not layer.decoration
    ]
    found: list[CoverObject] = []
    for i, layer in rule_layers[1:]:
        kinds: dict[Hex, tuple[str, tuple[int, int]]] = {}
        for row, values in enumerate(layer.raw):
            for col, gid in enumerate(values):
                info = tmap.tiles.get(gid & GID_MASK) if gid & GID_MASK else None
                if info is None or str(info.properties.get("cover", "none")) not in ("half", "full"):
                    continue
                kind = str(info.properties.get("terrain") or info.tile_class or info.tileset)
                kinds[geo.to_hex(col, row)] = (kind, (col, row))
        seen: set[Hex] = set()
        for start in sorted(kinds, key=lambda h: (kinds[h][1][1], kinds[h][1][0])):
            if start in seen:
                continue
            kind = kinds[start][0]
            group, todo = {start}, [start]
            seen.add(start)
            while todo:
                h = todo.pop()
                for n in hex_neighbors(h):
                    if n in kinds and n not in seen and kinds[n][0] == kind:
                        seen.add(n)
                        group.add(n)
                        todo.append(n)
            col, row = kinds[start][1]
            size = f" ({len(group)} hexes)" if len(group) > 1 else ""
            cells = tuple(sorted((i, *kinds[h][1]) for h in group))
            found.append(CoverObject(f"{kind} at {col},{row}{size}", kind, frozenset(group), cells))
    return found


def without_cover(tmap: TiledMap, cells: Sequence[tuple[int, int, int]]) -> tuple[tuple[Hex, Terrain], ...]:
    """Each hex's terrain once the tiles at ``cells`` ((layer index, col, row)) are gone: the map built
    again from the file's layers without them."""
    layers = list(tmap.layers)
    for index in sorted({c[0] for c in cells}):
        layer = layers[index]
        assert isinstance(layer, TileLayer)
        raw = [list(row) for row in layer.raw]
        for i, col, row in cells:
            if i == index:
                raw[row][col] = 0
        layers[index] = dataclasses.replace(layer, raw=raw)
    field_, _ = build_battlefield(dataclasses.replace(tmap, layers=layers))
    hexes = sorted({tmap.geometry.to_hex(col, row) for _, col, row in cells})
    return tuple((h, field_.terrain_at(h)) for h in hexes)


@dataclass(frozen=True, slots=True)
class Variant:
    """One row of the sensitivity table: what changed (``change``, in a GM's words), whose side, and the
    encounter's posses, scenario and terrain with it (``problem``: why it cannot be played)."""

    kind: str  # "more" / "fewer" / "cover"
    side: str
    change: str
    unit: str = ""
    posses: tuple[PosseSpec, PosseSpec] | None = None
    scenario: Scenario | None = None
    terrain: tuple[tuple[Hex, Terrain], ...] = ()
    problem: str = ""


def _name(u: UnitSpec) -> str:
    return u.name or u.kind


def _named(units: Sequence[UnitSpec], base: str) -> str:
    taken = {_name(u).casefold() for u in units}
    n = 2
    while f"{base} {n}".casefold() in taken:
        n += 1
    return f"{base} {n}"


def _goal_units(scenario: Scenario, side: str) -> set[int]:
    return {
        g.unit for g in scenario.goals if g.side == side and g.kind in ("protect", "escape") and g.unit >= 0
    }


def _fewer(scenario: Scenario, side: str, index: int) -> Scenario:
    """``scenario`` with unit ``index`` of ``side`` gone (its start and arrival dropped, later indexes one
    lower)."""

    def shift(i: int) -> int:
        return i - 1 if i > index else i

    return dataclasses.replace(
        scenario,
        starts=tuple((s, shift(i), h) for s, i, h in scenario.starts if not (s == side and i == index)),
        arrivals=tuple(
            dataclasses.replace(a, index=shift(a.index)) if a.side == side else a
            for a in scenario.arrivals
            if not (a.side == side and a.index == index)
        ),
        goals=tuple(
            dataclasses.replace(g, unit=shift(g.unit)) if g.side == side and g.unit >= 0 else g
            for g in scenario.goals
        ),
    )


def _playable(enc: Encounter, posses: tuple[PosseSpec, PosseSpec], scenario: Scenario, seed: int) -> str:
    """Why the encounter cannot be set up with these posses ("" : it can)."""
    ruleset = registry.get_ruleset(enc.ruleset)
    problems = Match.posse_problems(ruleset, list(posses))
    if problems:
        return "the rules refuse it: " + "; ".join(problems)
    try:
        Match(
            enc.battlefield.clone(), ruleset, list(posses), seed, map_path=enc.map_path, scenario=scenario
        ).close()
    except ValueError as error:
        return f"it cannot be set up: {error}"
    return ""


def _posse_variants(enc: Encounter, side: str, seed: int) -> list[Variant]:
    s = SIDES.index(side)
    posse = enc.posses[s]
    who = posse.name or side
    units = list(posse.units)
    out: list[Variant] = []

    def with_units(new: list[UnitSpec]) -> tuple[PosseSpec, PosseSpec]:
        changed = dataclasses.replace(posse, units=tuple(new))
        return (changed, enc.posses[1]) if s == 0 else (enc.posses[0], changed)

    # one more: a copy of the commonest kind of unit (the last such unit), the first the rules accept
    counts = Counter(u.kind for u in units)
    keep = _goal_units(enc.scenario, side)
    order = sorted(
        (i for i in range(len(units)) if i not in keep), key=lambda i: (-counts[units[i].kind], -i)
    )
    why = "no unit of the posse can be doubled"
    for i in order:
        base = _name(units[i]).rstrip(" 0123456789") or units[i].kind
        posses = with_units([*units, dataclasses.replace(units[i], name=_named(units, base))])
        why = _playable(enc, posses, enc.scenario, seed)
        if not why:
            out.append(Variant("more", side, f"{who}: one {base} more", base, posses, enc.scenario))
            break
    else:
        out.append(Variant("more", side, f"{who}: one unit more", problem=why))

    # one fewer: the last unit no objective names, the first the rules accept
    why = "the posse has no unit to spare"
    for i in reversed(range(len(units))):
        if i in keep or len(units) < 2:
            continue
        posses = with_units(units[:i] + units[i + 1 :])
        scenario = _fewer(enc.scenario, side, i)
        why = _playable(enc, posses, scenario, seed)
        if not why:
            base = _name(units[i]).rstrip(" 0123456789") or units[i].kind
            out.append(Variant("fewer", side, f"{who}: one {base} fewer", base, posses, scenario))
            break
    else:
        out.append(Variant("fewer", side, f"{who}: one unit fewer", problem=why))
    return out


def _fought_around(obj: CoverObject, records: Sequence[dict[str, Any]]) -> int:
    near = set(obj.hexes) | {n for h in obj.hexes for n in hex_neighbors(h)}
    return sum(1 for r in records for q, r_ in (*r["hits"], *r["downs"]) if Hex(q, r_) in near)


def pick_cover(
    objects: Sequence[CoverObject], names: Sequence[str], records: Sequence[dict[str, Any]]
) -> tuple[list[CoverObject], list[str]]:
    """The cover objects to try: those ``names`` names (a full name, "wagon at 15,11", or a kind, "fence":
    every object of that kind at once), else the :data:`DEFAULT_COVER` fought around most in
    ``records`` among the small ones (at most :data:`SMALL` hexes). Returns them and the names that
    matched nothing."""
    if not names:
        small = [o for o in objects if len(o.hexes) <= SMALL]
        ranked = sorted(small, key=lambda o: -_fought_around(o, records))
        return ranked[:DEFAULT_COVER], []
    picked: list[CoverObject] = []
    unknown: list[str] = []
    for name in names:
        folded = " ".join(name.split()).casefold()
        exact = [
            o for o in objects if o.name.casefold() == folded or o.name.casefold().startswith(folded + " (")
        ]
        if exact:
            picked.append(exact[0])
            continue
        same = [o for o in objects if o.kind.casefold() == folded]
        if not same:
            unknown.append(name)
            continue
        hexes = frozenset().union(*(o.hexes for o in same))
        cells = tuple(sorted(c for o in same for c in o.cells))
        picked.append(CoverObject(f"every {same[0].kind} ({len(same)} objects)", same[0].kind, hexes, cells))
    return picked, unknown


def variants(enc: Encounter, cover: Sequence[CoverObject], seed: int = 1) -> list[Variant]:
    """The sensitivity variants: each side with one unit more and one fewer, then each cover object in
    ``cover`` taken off the map."""
    out = [v for side in SIDES for v in _posse_variants(enc, side, seed)]
    if cover:
        tmap = load_tiled_map(enc.map_path, require_images=False)
        for o in cover:
            terrain = without_cover(tmap, o.cells)
            out.append(Variant("cover", "", f"without the {o.name}", o.name, terrain=terrain))
    return out


# == running ==================================================================================


@dataclass(slots=True)
class Run:
    """What :func:`run_balance` played: the main batch and each variant's (None: not played)."""

    enc: Encounter
    plan: Plan
    main: BatchResult
    variants: list[tuple[Variant, BatchResult | None]] = field(default_factory=list)
    unknown_cover: list[str] = field(default_factory=list)


def batch_for(enc: Encounter, p: Plan, games: int, seed: int, v: Variant | None = None) -> Batch:
    """The batch of ``games`` games (with a swap: ``games`` rounded up to pairs)."""
    seeds = math.ceil(games / 2) if p.swap else games
    posses = (enc.posses[0], enc.posses[1]) if v is None or v.posses is None else v.posses
    scenario = enc.scenario if v is None or v.scenario is None else v.scenario
    terrain = () if v is None else v.terrain
    return Batch(
        enc.map_path, enc.ruleset, posses, p.controllers, seeds, seed, p.swap, scenario, terrain=terrain
    )


def run_balance(
    enc: Encounter,
    *,
    games: int,
    seed: int = 1,
    workers: int = 1,
    sensitivity_games: int = 0,
    cover: Sequence[str] = (),
    on_game: Callable[[str, GameOutcome], None] | None = None,
    pool: multiprocessing.pool.Pool | None = None,
) -> Run:
    """Play the encounter ``games`` times, then each sensitivity variant ``sensitivity_games`` times (0:
    none), with the same seeds. ``on_game`` sees (what is being played, the game) in order."""
    p = plan(enc)

    def seen(label: str) -> Callable[[GameOutcome], None] | None:
        if on_game is None:
            return None
        return lambda outcome: on_game(label, outcome)

    main = run_batch(
        batch_for(enc, p, games, seed), workers=workers, on_game=seen("the encounter"), pool=pool
    )
    run = Run(enc, p, main)
    if sensitivity_games <= 0 or main.interrupted:
        return run
    objects, run.unknown_cover = pick_cover(cover_objects(enc), cover, [g.record for g in main.games])
    for v in variants(enc, objects, seed):
        if v.problem:
            run.variants.append((v, None))
            continue
        result = run_batch(
            batch_for(enc, p, sensitivity_games, seed, v), workers=workers, on_game=seen(v.change), pool=pool
        )
        run.variants.append((v, result))
        if result.interrupted:
            break
    return run


def planned_games(enc: Encounter, games: int, sensitivity_games: int, cover: Sequence[str]) -> int:
    """How many games :func:`run_balance` will play at most (for a progress bar)."""
    p = plan(enc)
    main = batch_for(enc, p, games, 1).total
    if sensitivity_games <= 0:
        return main
    posse_rows = sum(1 for v in variants(enc, []) if not v.problem)
    small = sum(1 for o in cover_objects(enc) if len(o.hexes) <= SMALL)
    rows = posse_rows + (len(cover) if cover else min(DEFAULT_COVER, small))
    return main + rows * batch_for(enc, p, sensitivity_games, 1).total


# == what it comes to ===========================================================================


def _rate(wins: int, games: int) -> dict[str, float | int]:
    low, high = wilson(wins, games)
    return {
        "games": games,
        "wins": wins,
        "rate": round(wins / games, 4) if games else 0.0,
        "low": round(low, 4),
        "high": round(high, 4),
    }


def decided_by(record: dict[str, Any], scenario: Scenario, posses: dict[str, str]) -> str:
    """Which objective decided a played game, in a GM's words (the engine's verdict read back)."""
    reason: str = record["reason"]
    winner = record["winner_side"]
    if winner is None:
        return "draw at the round limit" if record["round_limit"] else f"draw ({reason})"
    for g in scenario.goals:
        if _goal_won(g, reason, winner):
            return f"{posses.get(winner, winner)}: {_goal_words(g)}"
    who = posses.get(winner, winner)
    if reason.startswith("the sun went down"):  # the encounter's time winner, or a ruleset's count
        return f"{who}: held out to the last round" if scenario.time_winner == winner else f"{who}: {reason}"
    if "gave up the fight" in reason:  # Golden Frontiers: a posse gives up with enough units out
        return f"{who}: made the other posse give up"
    return f"{who}: took out the other posse"


def _goal_won(g: Goal, reason: str, winner: str) -> bool:
    if g.kind == "hold":
        return g.side == winner and f" held {g.label} for " in reason
    if g.kind == "escape":
        return g.side == winner and reason.endswith(f"got away: {g.label}")
    if g.kind == "loot":
        return g.side == winner and reason.endswith(f"carried off the loot: {g.label}")
    if g.kind == "protect":
        return g.side != winner and reason.startswith(f"{g.label} was taken out")
    return False


def _goal_words(g: Goal) -> str:
    if g.kind == "hold":
        return f"held {g.label} for {g.rounds} round{'s' if g.rounds != 1 else ''}"
    if g.kind == "escape":
        return f"got away ({g.label})"
    if g.kind == "loot":
        return f"carried off the loot ({g.label})"
    return f"took out {g.label}, whom the other side had to protect"


def _side_numbers(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    played = [r for r in records if r["error"] is None]
    wins = Counter(r["winner_side"] for r in played if r["winner_side"] is not None)
    draws = sum(1 for r in played if r["winner_side"] is None)
    return {
        "played": len(played),
        "win_rate": {side: _rate(wins[side], len(played)) for side in SIDES},
        "draws": _rate(draws, len(played)),
    }


def _units(records: Sequence[dict[str, Any]], played: int) -> list[dict[str, Any]]:
    """Damage dealt and taken per unit (mean per game) and how often it went down, by side and name."""
    dealt: Counter[tuple[str, str]] = Counter()
    taken: Counter[tuple[str, str]] = Counter()
    down: Counter[tuple[str, str]] = Counter()
    order: dict[tuple[str, str], int] = {}
    for r in records:
        if r["error"] is not None:
            continue
        for u in r["units"]:
            key = (u["side"], u["name"])
            order.setdefault(key, u["unit"])
            dealt[key] += u["damage_dealt"]
            taken[key] += u["damage_taken"]
            down[key] += 1 if u["out"] else 0
    n = max(1, played)
    return [
        {
            "side": side,
            "name": name,
            "damage_dealt": round(dealt[(side, name)] / n, 3),
            "damage_taken": round(taken[(side, name)] / n, 3),
            "out_rate": round(down[(side, name)] / n, 4),
        }
        for side, name in sorted(order, key=lambda k: (SIDES.index(k[0]) if k[0] in SIDES else 9, order[k]))
    ]


def numbers(run: Run) -> dict[str, Any]:
    """Every number of the report, JSON-ready (the HTML shows these and no others): the same for any
    worker count."""
    enc, p = run.enc, run.plan
    records = [g.record for g in run.main.games]
    played = [r for r in records if r["error"] is None]
    posses = {side: posse.name for side, posse in zip(SIDES, enc.posses, strict=True)}
    sides = _side_numbers(records)
    rounds = [r["rounds"] for r in played]
    survivors: dict[str, list[int]] = {side: [r["survivors"].get(side, 0) for r in played] for side in SIDES}
    decided = Counter(decided_by(r, enc.scenario, posses) for r in played)
    out: dict[str, Any] = {
        "encounter": enc.title,
        "file": str(enc.path) if enc.path is not None else "",
        "map": enc.map_path.stem,
        "ruleset": enc.ruleset,
        "posses": posses,
        "controllers": dict(zip(SIDES, p.controllers, strict=True)),
        "players": list(p.stand_ins),
        "swap": p.swap,
        "swap_reason": p.swap_reason,
        "seed": run.main.batch.seed,
        "games": len(records),
        "planned": run.main.batch.total,
        "interrupted": run.main.interrupted,
        "played": sides["played"],
        "errors": [
            {"game": r["game"], "seed": r["seed"], "message": r["error"]["message"]}
            for r in records
            if r["error"]
        ],
        "win_rate": sides["win_rate"],
        "draws": sides["draws"],
        "round_limit": sum(1 for r in played if r["round_limit"]),
        "rounds": {
            "mean": round(statistics.fmean(rounds), 3) if rounds else 0.0,
            "median": statistics.median(rounds) if rounds else 0,
            "min": min(rounds, default=0),
            "max": max(rounds, default=0),
            "games": {str(k): v for k, v in sorted(Counter(rounds).items())},
        },
        "survivors": {
            side: {
                "mean": round(statistics.fmean(v), 3) if v else 0.0,
                "games": {str(k): n for k, n in sorted(Counter(v).items())},
            }
            for side, v in survivors.items()
        },
        "units": _units(records, len(played)),
        "decided_by": [
            {"how": how, "games": n} for how, n in sorted(decided.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "hits": sum(len(r["hits"]) for r in played),
        "downs": sum(len(r["downs"]) for r in played),
        "sensitivity": [],
        "unknown_cover": list(run.unknown_cover),
    }
    for v, result in run.variants:
        row: dict[str, Any] = {"kind": v.kind, "side": v.side, "change": v.change, "unit": v.unit}
        if result is None:
            row.update({"played": 0, "problem": v.problem})
        else:
            row.update(_side_numbers([g.record for g in result.games]))
            row["problem"] = ""
            row["change_side1"] = round(
                row["win_rate"]["side1"]["rate"] - sides["win_rate"]["side1"]["rate"], 4
            )
        out["sensitivity"].append(row)
    out["verdict"] = verdict(out)
    return out


# == the verdict ==================================================================================


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def verdict(n: dict[str, Any]) -> str:
    """One line a GM reads first: who wins how often, what that means for the players, and the change
    of the sensitivity table that brings it nearest an even fight."""
    if not n["played"]:
        return "No game could be played: see the errors below."
    rates = n["win_rate"]
    posses = n["posses"]
    top = max(SIDES, key=lambda s: (rates[s]["rate"], -SIDES.index(s)))
    r = rates[top]
    head = f"{posses[top]} wins {_pct(r['rate'])} ({_pct(r['low'])}{DASH}{_pct(r['high'])})"
    if n["draws"]["rate"] >= 0.05:
        head += f", {_pct(n['draws']['rate'])} draws"
    players = n["players"][0] if len(n["players"]) == 1 else None
    low, high = FAIR
    if players is not None:
        p_rate = rates[players]["rate"]
        fair = low <= p_rate <= high
        if p_rate > high:
            judgement = "too easy for the players' posse"
        elif p_rate < low:
            judgement = "too hard for the players' posse"
        else:
            judgement = "a fair fight for the players' posse"
    else:
        fair = low <= r["rate"] <= high
        judgement = "a fair fight" if fair else f"{posses[top]} is favoured"
    line = f"{head}: {judgement}."
    now = r["rate"]
    tried = [(row, row["win_rate"][top]["rate"]) for row in n["sensitivity"] if row.get("played")]
    if not tried:
        return line
    if not fair:
        row, rate = min(tried, key=lambda x: (abs(x[1] - 0.5), x[0]["change"]))
        if abs(rate - 0.5) < abs(now - 0.5):
            line += f" {_change_words(row, posses)} brings it to {_span(row['win_rate'][top])}."
        else:
            line += " No change tried here brings it nearer an even fight."
    else:
        row, rate = max(tried, key=lambda x: (abs(x[1] - now), x[0]["change"]))
        if abs(rate - now) >= 0.10:
            words = _change_words(row, posses)
            line += f" It is delicate: {words[0].lower()}{words[1:]} makes it {_span(row['win_rate'][top])}."
    return line


def _span(rate: dict[str, Any]) -> str:
    """A rate and its interval, e.g. 55% (48% to 62%) with an en dash."""
    return f"{_pct(rate['rate'])} ({_pct(rate['low'])}{DASH}{_pct(rate['high'])})"


def _change_words(row: dict[str, Any], posses: dict[str, str]) -> str:
    if row["kind"] == "more":
        return f"Giving {posses[row['side']]} one more {row['unit']}"
    if row["kind"] == "fewer":
        return f"Removing one {row['unit']} from {posses[row['side']]}"
    return f"Removing the {row['unit']}"
