"""The PNG charts of a simulated batch (``hexslinger simulate --out``), drawn with matplotlib (Agg).

- ``win_rates.png``: each controller's win rate with its Wilson 95% interval, and the draws;
- ``rounds.png``: how many rounds the games lasted;
- ``survivors.png``: how many units each controller had standing at the end of its games;
- ``damage.png``: damage dealt and taken per unit (mean per game), by posse;
- ``heatmap.png``: where units were hit (hexes shaded by count) and went down (crosses), over the
  rendered map when a :class:`Backdrop` is given (the CLI draws it: pygame stays out of ``ai/``).

Figures are made with ``matplotlib.figure.Figure`` directly (no pyplot, no global state, no GUI backend).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib.image
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from game.hexgrid import Hex, TiledHexGeometry

__all__ = ["CHARTS", "Backdrop", "write_charts"]

CHARTS = ("win_rates.png", "rounds.png", "survivors.png", "damage.png", "heatmap.png")
DPI = 100


@dataclass(frozen=True, slots=True)
class Backdrop:
    """The rendered map under the heatmap: its PNG, where map pixel (0, 0) lies in it, and the map's hex
    geometry (hex -> pixel) and size in cells."""

    image: Path | None
    origin: tuple[int, int]
    geometry: TiledHexGeometry
    size: tuple[int, int]  # columns, rows


def _title(summary: dict[str, Any]) -> str:
    posses = summary["posses"]
    return (
        f"{summary['map']} ({summary['ruleset']}): {posses.get('side1', '?')} vs {posses.get('side2', '?')}, "
        f"{summary['games']} games"
    )


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=DPI, format="png")
    return path


def interval_bars(
    ax: Any,
    labels: Sequence[str],
    rates: Sequence[dict[str, Any]],
    words: Callable[[dict[str, Any]], str],
    *,
    color: Any,
    edgecolor: str | None = None,
    top: float = 1.2,
) -> None:
    """Rates (``rate``, ``low``, ``high``: shares) as bars with their intervals as error bars, each
    labelled above its interval by ``words``, on a 0-100% axis: the win-rate charts of ``simulate`` and
    of a balance report."""
    values = [r["rate"] for r in rates]
    errors = [[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]]
    ax.bar(labels, values, yerr=errors, capsize=8, color=color, edgecolor=edgecolor)
    for i, r in enumerate(rates):
        ax.annotate(
            words(r), (i, r["high"]), textcoords="offset points", xytext=(0, 4), ha="center", fontsize=9
        )
    ax.set_ylim(0, top)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])


def win_rates(summary: dict[str, Any], path: Path) -> Path:
    rates = summary["win_rate"]
    names = list(rates)
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    interval_bars(
        ax,
        names,
        [rates[c] for c in names],
        lambda r: f"{100 * r['rate']:.0f}%\n[{100 * r['low']:.0f}-{100 * r['high']:.0f}%]",
        color="#b5651d",
        edgecolor="#4a2a0a",
    )
    ax.set_ylabel("games won (draws count as not won)")
    ax.set_title(f"Win rates with Wilson 95% intervals ({summary['draw_games']} draws)", fontsize=10)
    fig.suptitle(_title(summary), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def rounds(summary: dict[str, Any], records: Sequence[dict[str, Any]], path: Path) -> Path:
    played = [r for r in records if r["error"] is None]
    counts = Counter(r["rounds"] for r in played)
    limit = Counter(r["rounds"] for r in played if r["round_limit"])
    xs = sorted(counts)
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    ax.bar(xs, [counts[x] - limit[x] for x in xs], color="#8b5a2b", label="decided")
    if limit:
        ax.bar(
            xs,
            [limit[x] for x in xs],
            bottom=[counts[x] - limit[x] for x in xs],
            color="#999999",
            label="draw at the round limit",
        )
    ax.set_xlabel("rounds")
    ax.set_ylabel("games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=8)
    r = summary["rounds"]
    ax.set_title(f"Rounds per game (mean {r['mean']:.1f}, median {r['median']})", fontsize=10)
    fig.suptitle(_title(summary), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def survivors(summary: dict[str, Any], records: Sequence[dict[str, Any]], path: Path) -> Path:
    controllers = list(summary["win_rate"])
    by: dict[str, Counter[int]] = {c: Counter() for c in controllers}
    for r in records:
        if r["error"] is None:
            for side, n in r["survivors"].items():
                by[r["controllers"][side]][n] += 1
    most = max((n for c in by.values() for n in c), default=0)
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(controllers))
    for i, c in enumerate(controllers):
        xs = list(range(most + 1))
        ax.bar(
            [x + (i - (len(controllers) - 1) / 2) * width for x in xs],
            [by[c][x] for x in xs],
            width=width,
            label=f"{c} (mean {summary['survivors'].get(c, 0):.1f})",
        )
    ax.set_xlabel("units still standing at the end")
    ax.set_ylabel("games")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(fontsize=8)
    ax.set_title("Survivors per controller", fontsize=10)
    fig.suptitle(_title(summary), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def damage(summary: dict[str, Any], records: Sequence[dict[str, Any]], path: Path) -> Path:
    played = [r for r in records if r["error"] is None]
    dealt: Counter[tuple[str, int, str]] = Counter()
    taken: Counter[tuple[str, int, str]] = Counter()
    for r in played:
        for u in r["units"]:
            key = (u["side"], u["unit"], u["name"])
            dealt[key] += u["damage_dealt"]
            taken[key] += u["damage_taken"]
    keys = sorted(set(dealt) | set(taken))
    n = max(1, len(played))
    labels = [f"{summary['posses'].get(side, side)}: {name}" for side, _, name in keys]
    ys = range(len(keys))
    fig = Figure(figsize=(8, max(3.0, 0.45 * len(keys) + 1.5)))
    ax = fig.add_subplot()
    ax.barh([y - 0.2 for y in ys], [dealt[k] / n for k in keys], height=0.4, color="#b22222", label="dealt")
    ax.barh([y + 0.2 for y in ys], [taken[k] / n for k in keys], height=0.4, color="#4682b4", label="taken")
    ax.set_yticks(list(ys), labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("damage per game (mean)")
    ax.legend(fontsize=8)
    ax.set_title("Damage per unit", fontsize=10)
    fig.suptitle(_title(summary), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def heatmap(
    summary: dict[str, Any], records: Sequence[dict[str, Any]], backdrop: Backdrop, path: Path
) -> Path:
    hits: Counter[Hex] = Counter()
    downs: Counter[Hex] = Counter()
    for r in records:
        hits.update(Hex(q, r_) for q, r_ in r["hits"])
        downs.update(Hex(q, r_) for q, r_ in r["downs"])
    geo = backdrop.geometry
    ox, oy = backdrop.origin
    if backdrop.image is not None:
        picture = matplotlib.image.imread(backdrop.image)
        height, width = picture.shape[0], picture.shape[1]
    else:
        picture = None
        width, height = geo.map_pixel_size(*backdrop.size)
    fig = Figure(figsize=(width / DPI * 0.75 + 1.6, height / DPI * 0.75 + 0.8))
    ax = fig.add_subplot()
    if picture is not None:
        ax.imshow(picture, extent=(0, width, height, 0))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.set_axis_off()
    if hits:
        cells = sorted(hits, key=lambda h: (h.q, h.r))
        polygons = [[(x + ox, y + oy) for x, y in geo.cell_polygon(*geo.to_cell(h))] for h in cells]
        shading = PolyCollection(polygons, cmap="inferno_r", alpha=0.6, edgecolors="none")
        shading.set_array([hits[h] for h in cells])
        ax.add_collection(shading)
        bar = fig.colorbar(shading, ax=ax, fraction=0.03, pad=0.01)
        bar.set_label("hits taken on this hex")
    if downs:
        cells = sorted(downs, key=lambda h: (h.q, h.r))
        centres = [geo.hex_center(h) for h in cells]
        top = max(downs.values())
        ax.scatter(
            [x + ox for x, _ in centres],
            [y + oy for _, y in centres],
            s=[40 + 160 * downs[h] / top for h in cells],
            marker="X",
            c="#1a1a1a",
            edgecolors="white",
            linewidths=0.8,
            label=f"went down (largest: {top})",
        )
        ax.legend(loc="lower right", fontsize=8)
    ax.set_title(
        f"Where units were hit ({sum(hits.values())} hits) and went down ({sum(downs.values())})", fontsize=10
    )
    fig.suptitle(_title(summary), fontsize=9)
    fig.tight_layout()
    return _save(fig, path)


def write_charts(
    out_dir: Path, summary: dict[str, Any], records: Sequence[dict[str, Any]], backdrop: Backdrop
) -> list[Path]:
    """Every chart of :data:`CHARTS` written to ``out_dir``; returns their paths."""
    out_dir = Path(out_dir)
    return [
        win_rates(summary, out_dir / CHARTS[0]),
        rounds(summary, records, out_dir / CHARTS[1]),
        survivors(summary, records, out_dir / CHARTS[2]),
        damage(summary, records, out_dir / CHARTS[3]),
        heatmap(summary, records, backdrop, out_dir / CHARTS[4]),
    ]
