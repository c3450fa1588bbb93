"""Balance reports (docs/GM.md "Balance reports"): who plays and when the sides are swapped, the
sensitivity variants really change the encounter, the report's numbers are the JSON's, the page is
self-contained, and the whole report is the same for 1 and 2 workers.

The games here are played by the greedy baseline (``seats`` replaced) to keep the tests quick; the
command itself (tests/test_cli_balance.py) plays the encounter's own AI."""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from ai.charts import Backdrop
from ai.simulate import _new_match
from game.battlefield import Cover
from game.encounter.balance import (
    STAND_IN,
    Run,
    _rate,
    batch_for,
    cover_objects,
    decided_by,
    numbers,
    pick_cover,
    plan,
    planned_games,
    run_balance,
    variants,
    verdict,
    without_cover,
)
from game.encounter.load import Encounter, load_encounter
from game.encounter.report import render_report
from game.posses import DATA_ENV
from game.tiledmap import load_tiled_map

ROOT = Path(__file__).resolve().parents[2]
RANCH = ROOT / "encounters" / "frontier_ranch_house.toml"
DOC = ROOT / "encounters" / "golden_doc_ellery.toml"


@pytest.fixture(autouse=True)
def _own_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "data"))


def greedy(enc: Encounter) -> Encounter:
    return dataclasses.replace(enc, seats={"side1": "greedy", "side2": "greedy"})


def backdrop(enc: Encounter) -> Backdrop:
    tmap = load_tiled_map(enc.map_path, require_images=False)
    return Backdrop(None, (0, 0), tmap.geometry, (tmap.width, tmap.height))


# -- who plays -------------------------------------------------------------------------------------------


def test_plan_stands_in_for_the_players_and_swaps_only_where_the_encounter_allows() -> None:
    enc = load_encounter(RANCH)  # side1 human, side2 ai:normal
    same = plan(enc)
    assert same.controllers == (STAND_IN, "ai:normal")
    assert same.stand_ins == ("side1",)
    assert not same.swap and "both sides are played by ai:normal" in same.swap_reason

    stronger = plan(dataclasses.replace(enc, seats={"side1": "human", "side2": "ai:hard"}))
    assert stronger.controllers == ("ai:normal", "ai:hard")
    assert stronger.swap and "trading sides" in stronger.swap_reason
    assert batch_for(enc, stronger, 5, 1).total == 6  # 5 games: 3 seeds, each played twice

    fixed = plan(dataclasses.replace(enc, seats={"side1": "ai:easy", "side2": "ai:hard"}))
    assert not fixed.swap and "sets each side's AI" in fixed.swap_reason


# -- the sensitivity variants change the encounter ---------------------------------------------------------


def test_one_unit_fewer_drops_the_unit_and_keeps_every_other_start() -> None:
    enc = load_encounter(RANCH)
    rows = {v.change: v for v in variants(enc, [])}
    fewer = rows["Sheriff's Posse: one Dog fewer"]
    assert fewer.posses is not None and fewer.scenario is not None
    assert [u.name or u.kind for u in fewer.posses[0].units] == ["Sheriff", "Deputy", "Hired Gun"]
    assert fewer.posses[1] == enc.posses[1]
    # the Sheriff and the Deputy still start where the file says
    assert fewer.scenario.starts == enc.scenario.starts
    match = enc.match(1)
    changed = dataclasses.replace(enc, posses=list(fewer.posses), scenario=fewer.scenario).match(1)
    assert len(changed.units(side="side1")) == len(match.units(side="side1")) - 1
    # Frontier caps the Law at 4 units: the row says the rules refuse the fifth
    more = rows["Sheriff's Posse: one unit more"]
    assert more.posses is None and "maximum number of Units" in more.problem


def test_one_unit_more_adds_a_copy_under_a_name_of_its_own() -> None:
    enc = load_encounter(DOC)  # Golden Frontiers takes a fifth posse member; Doc Ellery is protected
    rows = [v for v in variants(enc, []) if v.kind == "more"]
    assert all(not v.problem for v in rows)
    side1 = rows[0]
    assert side1.posses is not None
    names = [u.name or u.kind for u in side1.posses[0].units]
    assert len(names) == len(enc.posses[0].units) + 1
    assert len(set(names)) == len(names)
    assert "Doc Ellery" not in side1.change  # the unit an objective names is never doubled


def test_removing_a_cover_object_takes_its_cover_off_every_match_of_the_batch() -> None:
    enc = load_encounter(RANCH)
    objects = cover_objects(enc)
    wagon = next(o for o in objects if o.kind == "wagon")
    assert wagon.name.startswith("wagon at ") and len(wagon.hexes) == 1
    (h,) = wagon.hexes
    assert enc.battlefield.terrain_at(h).cover == Cover.FULL
    terrain = without_cover(load_tiled_map(enc.map_path, require_images=False), wagon.cells)
    assert [t.cover for _, t in terrain] == [Cover.NONE]
    (v,) = [v for v in variants(enc, [wagon]) if v.kind == "cover"]
    batch = batch_for(enc, plan(enc), 1, 1, v)
    match = _new_match(batch, 7)
    assert match.battlefield.terrain_at(h).cover == Cover.NONE and match.battlefield.is_passable(h)
    assert _new_match(batch_for(enc, plan(enc), 1, 1), 7).battlefield.terrain_at(h).cover == Cover.FULL


def test_cover_is_named_by_the_report_name_or_by_kind() -> None:
    enc = load_encounter(RANCH)
    objects = cover_objects(enc)
    fences = [o for o in objects if o.kind == "fence"]
    picked, unknown = pick_cover(objects, [objects[0].name, "FENCE", "no such thing"], [])
    assert picked[0] == objects[0]
    assert picked[1].hexes == frozenset().union(*(o.hexes for o in fences))
    assert unknown == ["no such thing"]
    # none named: two small ones (no wall of the ranch house)
    default, _ = pick_cover(objects, [], [])
    assert len(default) == 2 and all(len(o.hexes) <= 3 for o in default)


def test_decided_by_reads_the_objective_from_the_verdict() -> None:
    enc = load_encounter(RANCH)
    posses = {"side1": "Sheriff's Posse", "side2": "Blackwater Gang"}
    base = {"winner_side": "side1", "round_limit": False}
    held = {**base, "reason": "Sheriff's Posse held Ranch house for 2 rounds"}
    assert decided_by(held, enc.scenario, posses) == "Sheriff's Posse: held Ranch house for 2 rounds"
    out = {**base, "winner_side": "side2", "reason": "all hostile units are out of action or fled"}
    assert decided_by(out, enc.scenario, posses) == "Blackwater Gang: took out the other posse"
    gave_up = {**base, "reason": "Blackwater Gang gave up the fight with 60% of its units out"}
    assert decided_by(gave_up, enc.scenario, posses) == "Sheriff's Posse: made the other posse give up"
    draw = {"winner_side": None, "round_limit": True, "reason": "the sun went down after 8 rounds: no winner"}
    assert decided_by(draw, enc.scenario, posses) == "draw at the round limit"


# -- the report ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny() -> tuple[dict[str, Any], str, Run]:
    enc = greedy(load_encounter(RANCH))
    run = run_balance(enc, games=6, seed=3, sensitivity_games=2)
    n = numbers(run)
    page = render_report(n, [g.record for g in run.main.games], backdrop(enc))
    return n, page, run


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str, str]] = []
        self.images: list[str] = []
        self.urls: list[str] = []
        self._open: list[tuple[str, str] | None] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("src", "href"):
            if a.get(key):
                self.urls.append(str(a[key]))
        if tag == "img":
            self.images.append(str(a.get("src")))
        if "data-json" in a:
            self._open.append((str(a["data-json"]), str(a.get("data-value", ""))))
            self._text = []
        elif tag in ("td", "span", "p"):
            self._open.append(None)

    def handle_data(self, data: str) -> None:
        self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "span", "p") and self._open:
            top = self._open.pop()
            if top is not None:
                self.cells.append((top[0], top[1], "".join(self._text)))


def _at(n: dict[str, Any], path: str) -> Any:
    value: Any = n
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def test_the_report_shows_the_json_numbers(tiny: tuple[dict[str, Any], str, Run]) -> None:
    n, page, _ = tiny
    parser = _Cells()
    parser.feed(page)
    shown = {path for path, _, _ in parser.cells}
    for side in ("side1", "side2"):
        assert {f"win_rate.{side}.rate", f"win_rate.{side}.low", f"win_rate.{side}.high"} <= shown
    assert {"draws.rate", "rounds.mean", "rounds.median", "survivors.side1.mean", "hits", "downs"} <= shown
    assert {f"units.{i}.damage_dealt" for i in range(len(n["units"]))} <= shown
    assert {f"decided_by.{i}.games" for i in range(len(n["decided_by"]))} <= shown
    played = [i for i, row in enumerate(n["sensitivity"]) if row["played"]]
    assert played and {f"sensitivity.{i}.win_rate.side1.rate" for i in played} <= shown
    assert "verdict" in shown
    for path, value, text in parser.cells:
        expected = _at(n, path)
        if path == "verdict":
            assert text == expected
            continue
        assert value == str(expected), path
        if path.endswith((".rate", ".low", ".high", "out_rate")):
            assert text == f"{100 * expected:.0f}%", path
        elif path.endswith("change_side1"):
            assert text == f"{100 * expected:+.0f} points"
        elif isinstance(expected, float):
            assert abs(float(text) - expected) < 0.051, path
        else:
            assert text == str(expected), path
    # the JSON adds up: every played game was won by a side or drawn
    assert sum(n["win_rate"][s]["wins"] for s in ("side1", "side2")) + n["draws"]["wins"] == n["played"] == 6
    assert sum(row["games"] for row in n["decided_by"]) == 6
    json.dumps(n)  # JSON-ready as it is


def test_the_report_is_self_contained(tiny: tuple[dict[str, Any], str, Run]) -> None:
    _, page, _ = tiny
    parser = _Cells()
    parser.feed(page)
    assert parser.images and all(src.startswith("data:image/png;base64,") for src in parser.images)
    assert all(url.startswith("data:") for url in parser.urls)
    for src in parser.images:
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r"(https?:|ftp:)|<link|<script|@import|url\(", page)
    assert len(parser.images) == 7  # wins, rounds, survivors, damage, decided, heatmap, sensitivity


def _numbers(side1: int, side2: int, games: int, rows: list[tuple[str, int]]) -> dict[str, Any]:
    """A numbers dict as :func:`numbers` makes one, from wins (side1's, side2's) and sensitivity rows."""

    def rates(w1: int, w2: int, g: int) -> dict[str, Any]:
        return {"side1": _rate(w1, g), "side2": _rate(w2, g)}

    return {
        "played": games,
        "posses": {"side1": "The Law", "side2": "The Gang"},
        "players": ["side1"],
        "win_rate": rates(side1, side2, games),
        "draws": _rate(games - side1 - side2, games),
        "sensitivity": [
            {
                "kind": "fewer",
                "side": "side1",
                "unit": unit,
                "change": f"The Law: one {unit} fewer",
                "played": games,
                "win_rate": rates(w, games - w, games),
            }
            for unit, w in rows
        ],
    }


def test_the_verdict_in_a_gms_words() -> None:
    easy = _numbers(162, 38, 200, [("Deputy", 110), ("Dog", 150)])
    assert verdict(easy) == (
        "The Law wins 81% (75%\u201386%): too easy for the players' posse. "
        "Removing one Deputy from The Law brings it to 55% (48%\u201362%)."
    )
    hard = _numbers(40, 160, 200, [("Dog", 20)])
    assert verdict(hard).startswith("The Gang wins 80% (74%\u201385%): too hard for the players' posse.")
    assert verdict(hard).endswith("No change tried here brings it nearer an even fight.")
    fair = _numbers(100, 100, 200, [("Deputy", 50)])
    assert ": a fair fight for the players' posse. It is delicate: removing one Deputy" in verdict(fair)


def test_the_verdict_of_the_tiny_run_heads_with_the_favourite(tiny: tuple[dict[str, Any], str, Run]) -> None:
    n, _, _ = tiny
    top = max(("side1", "side2"), key=lambda s: n["win_rate"][s]["rate"])
    rate = n["win_rate"][top]
    low, high = 100 * rate["low"], 100 * rate["high"]
    assert n["verdict"].startswith(
        f"{n['posses'][top]} wins {100 * rate['rate']:.0f}% ({low:.0f}%\u2013{high:.0f}%)"
    )


def test_the_report_is_the_same_for_any_worker_count(tiny: tuple[dict[str, Any], str, Run]) -> None:
    n1, page1, run1 = tiny
    enc = greedy(load_encounter(RANCH))
    run2 = run_balance(enc, games=6, seed=3, sensitivity_games=2, workers=2)
    n2 = numbers(run2)
    assert [g.record for g in run2.main.games] == [g.record for g in run1.main.games]
    assert n2 == n1
    assert render_report(n2, [g.record for g in run2.main.games], backdrop(enc)) == page1


def test_the_progress_bar_knows_how_many_games_come(tiny: tuple[dict[str, Any], str, Run]) -> None:
    _, _, run = tiny
    played = len(run.main.games) + sum(len(r.games) for _, r in run.variants if r is not None)
    assert planned_games(run.enc, 6, 2, []) == played
    assert planned_games(run.enc, 6, 0, []) == 6
