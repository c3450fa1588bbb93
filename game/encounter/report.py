"""A balance report as ONE self-contained HTML page (``hexslinger balance --out``).

Every number on the page comes from :func:`game.encounter.balance.numbers` (the dict ``--json`` prints);
each table cell that shows one carries its place in that dict (``data-json="win_rate.side1.rate"``) and
the value (``data-value``), so a test can hold the page to the JSON. The charts are PNGs drawn with
matplotlib (Agg: :mod:`ai.charts` for rounds, damage and the heatmap over the rendered map; the rest
here) and embedded as base64 ``data:`` URLs: the page opens in a browser with no network and names no
other file.
"""

from __future__ import annotations

import base64
import html
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from matplotlib.figure import Figure

from ai import charts
from game.encounter.load import SIDES

__all__ = ["render_report"]

DPI: Final = charts.DPI
DASH: Final = "\N{EN DASH}"
COLOURS: Final = {"side1": "#b5651d", "side2": "#4682b4", "draw": "#999999"}

CSS: Final = """
body { font-family: Georgia, 'DejaVu Serif', serif; background: #f5ecd9; color: #2b1d0e; margin: 2em auto;
       max-width: 60em; padding: 0 1em; line-height: 1.4; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #8b5a2b; margin-top: 1.6em; }
.verdict { font-size: 1.25em; background: #fffaf0; border-left: 6px solid #8b5a2b; padding: 0.6em 1em; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #c8b08a; padding: 0.25em 0.6em; }
th { background: #e8d5b0; text-align: left; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; border: 1px solid #c8b08a; background: white; }
.note { color: #6b5335; font-size: 0.9em; }
"""


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _cell(path: str, value: Any, text: str | None = None) -> str:
    """A table cell showing ``value`` (a rate as a percentage, else as it is) tied to its JSON place."""
    shown = text if text is not None else str(value)
    where, value_text = html.escape(path), html.escape(str(value))
    return f'<td class="n" data-json="{where}" data-value="{value_text}">{html.escape(shown)}</td>'


def _rate_cells(path: str, rate: dict[str, Any]) -> str:
    return (
        _cell(f"{path}.wins", rate["wins"])
        + _cell(f"{path}.rate", rate["rate"], _pct(rate["rate"]))
        + _cell(f"{path}.low", rate["low"], _pct(rate["low"]))
        + _cell(f"{path}.high", rate["high"], _pct(rate["high"]))
    )


def _esc(text: object) -> str:
    return html.escape(str(text))


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<p><img alt="{_esc(alt)}" src="data:image/png;base64,{data}"></p>'


def _save(fig: Figure, path: Path) -> bytes:
    fig.savefig(path, dpi=DPI, format="png")
    return path.read_bytes()


def _summary(n: dict[str, Any]) -> dict[str, Any]:
    """The keys :mod:`ai.charts` titles its charts with."""
    return {
        "map": n["map"],
        "ruleset": n["ruleset"],
        "posses": n["posses"],
        "games": n["games"],
        "rounds": n["rounds"],
    }


def _win_chart(n: dict[str, Any], path: Path) -> bytes:
    labels = [n["posses"][s] for s in SIDES] + ["draws"]
    rates = [n["win_rate"][s] for s in SIDES] + [n["draws"]]
    fig = Figure(figsize=(7, 3.6))
    ax = fig.add_subplot()
    charts.interval_bars(
        ax,
        labels,
        rates,
        lambda r: f"{_pct(r['rate'])}\n({_pct(r['low'])}{DASH}{_pct(r['high'])})",
        color=[COLOURS["side1"], COLOURS["side2"], COLOURS["draw"]],
        top=1.25,
    )
    ax.axhline(0.5, color="#555555", linewidth=0.8, linestyle=":")
    ax.set_title(f"Who wins: {n['played']} games, Wilson 95% intervals", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _survivor_chart(n: dict[str, Any], path: Path) -> bytes:
    fig = Figure(figsize=(7, 3.4))
    ax = fig.add_subplot()
    most = max((int(k) for s in SIDES for k in n["survivors"][s]["games"]), default=0)
    xs = list(range(most + 1))
    for i, side in enumerate(SIDES):
        games = n["survivors"][side]["games"]
        ax.bar(
            [x + (i - 0.5) * 0.4 for x in xs],
            [games.get(str(x), 0) for x in xs],
            width=0.4,
            color=COLOURS[side],
            label=f"{n['posses'][side]} (mean {n['survivors'][side]['mean']:.1f})",
        )
    ax.set_xticks(xs)
    ax.set_xlabel("units still standing at the end")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    ax.set_title("Survivors", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _decided_chart(n: dict[str, Any], path: Path) -> bytes:
    rows = n["decided_by"]
    fig = Figure(figsize=(8, max(2.2, 0.45 * len(rows) + 1.2)))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    ax.barh(ys, [r["games"] for r in rows], color="#8b5a2b")
    ax.set_yticks(ys, [r["how"] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("games")
    ax.set_title("What decided the games", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def _sensitivity_chart(n: dict[str, Any], path: Path) -> bytes:
    rows = [r for r in n["sensitivity"] if r.get("played")]
    labels = ["as written", *(r["change"] for r in rows)]
    rates = [n["win_rate"]["side1"], *(r["win_rate"]["side1"] for r in rows)]
    fig = Figure(figsize=(8, max(2.4, 0.45 * len(labels) + 1.2)))
    ax = fig.add_subplot()
    ys = list(range(len(labels)))
    values = [r["rate"] for r in rates]
    ax.errorbar(
        values,
        ys,
        xerr=[[r["rate"] - r["low"] for r in rates], [r["high"] - r["rate"] for r in rates]],
        fmt="o",
        color=COLOURS["side1"],
        capsize=5,
    )
    ax.axvline(0.5, color="#555555", linewidth=0.8, linestyle=":")
    ax.axvspan(0.4, 0.6, color="#d8e8c8", alpha=0.5)
    ax.set_yticks(ys, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    ax.set_xlabel(
        f"{n['posses']['side1']} wins (Wilson 95% interval; green: a fair fight, 40{DASH}60%)", fontsize=9
    )
    ax.set_title("Sensitivity: the win rate when the encounter changes", fontsize=10)
    fig.tight_layout()
    return _save(fig, path)


def render_report(
    n: dict[str, Any], records: Sequence[dict[str, Any]], backdrop: charts.Backdrop, *, note: str = ""
) -> str:
    """The report page for ``n`` (:func:`game.encounter.balance.numbers`) and the main batch's records
    (where units were hit and went down); ``backdrop``: the rendered map under the heatmap."""
    with tempfile.TemporaryDirectory(prefix="hexslinger-balance-") as folder:
        tmp = Path(folder)
        summary = _summary(n)
        played = [r for r in records if r["error"] is None]
        images = {
            "wins": _win_chart(n, tmp / "wins.png"),
            "rounds": charts.rounds(summary, played, tmp / "rounds.png").read_bytes() if played else b"",
            "survivors": _survivor_chart(n, tmp / "survivors.png") if played else b"",
            "damage": charts.damage(summary, played, tmp / "damage.png").read_bytes() if played else b"",
            "decided": _decided_chart(n, tmp / "decided.png") if played else b"",
            "heatmap": charts.heatmap(summary, played, backdrop, tmp / "heatmap.png").read_bytes(),
            "sensitivity": _sensitivity_chart(n, tmp / "sensitivity.png")
            if any(r.get("played") for r in n["sensitivity"])
            else b"",
        }
    return _page(n, images, note)


def _page(n: dict[str, Any], images: dict[str, bytes], note: str) -> str:
    posses = n["posses"]
    out: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Balance: {_esc(n['encounter'])}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>Balance report: {_esc(n['encounter'])}</h1>",
        f'<p class="verdict" data-json="verdict">{_esc(n["verdict"])}</p>',
        "<h2>The encounter</h2><table>",
        f"<tr><th>File</th><td>{_esc(n['file'])}</td></tr>",
        f"<tr><th>Map and rules</th><td>{_esc(n['map'])} ({_esc(n['ruleset'])})</td></tr>",
    ]
    for i, side in enumerate(SIDES, 1):
        who = n["controllers"][side] + (" standing in for the players" if side in n["players"] else "")
        out.append(f"<tr><th>Side {i}</th><td>{_esc(posses[side])}, played by {_esc(who)}</td></tr>")
    out += [
        "</table>",
        f'<p class="note">{n["games"]} games (seed {n["seed"]}); {_esc(n["swap_reason"])}.</p>',
    ]
    if note:
        out.append(f'<p class="note">{_esc(note)}</p>')
    if n["interrupted"]:
        out.append(f'<p class="note">Interrupted: {n["games"]} of {n["planned"]} games were played.</p>')
    out += [
        "<h2>Who wins</h2>",
        "<table><tr><th></th><th>games won</th><th>win rate</th><th>95% from</th><th>to</th></tr>",
    ]
    for side in SIDES:
        out.append(
            f"<tr><th>{_esc(posses[side])}</th>{_rate_cells(f'win_rate.{side}', n['win_rate'][side])}</tr>"
        )
    out.append(f"<tr><th>draws</th>{_rate_cells('draws', n['draws'])}</tr></table>")
    out.append(
        f'<p class="note">Draws at the round limit: <span data-json="round_limit" '
        f'data-value="{n["round_limit"]}">{n["round_limit"]}</span>. Played: {n["played"]} games.</p>'
    )
    out.append(_img(images["wins"], "win rates"))
    out.append("<h2>Sensitivity</h2>")
    if not n["sensitivity"]:
        out.append('<p class="note">Not run (--sensitivity-games 0).</p>')
    else:
        out.append(
            f"<table><tr><th>change</th><th>games</th><th>{_esc(posses['side1'])} wins</th><th>95% from</th>"
            f"<th>to</th><th>{_esc(posses['side2'])} wins</th><th>draws</th><th>{_esc(posses['side1'])} "
            "change</th></tr>"
        )
        out.append(
            "<tr><td>as written</td>"
            + _cell("played", n["played"])
            + _cell(
                "win_rate.side1.rate", n["win_rate"]["side1"]["rate"], _pct(n["win_rate"]["side1"]["rate"])
            )
            + _cell("win_rate.side1.low", n["win_rate"]["side1"]["low"], _pct(n["win_rate"]["side1"]["low"]))
            + _cell(
                "win_rate.side1.high", n["win_rate"]["side1"]["high"], _pct(n["win_rate"]["side1"]["high"])
            )
            + _cell(
                "win_rate.side2.rate", n["win_rate"]["side2"]["rate"], _pct(n["win_rate"]["side2"]["rate"])
            )
            + _cell("draws.rate", n["draws"]["rate"], _pct(n["draws"]["rate"]))
            + "<td></td></tr>"
        )
        for i, row in enumerate(n["sensitivity"]):
            if not row.get("played"):
                out.append(
                    f"<tr><td>{_esc(row['change'])}</td>"
                    f"<td colspan=7>not played: {_esc(row['problem'])}</td></tr>"
                )
                continue
            p = f"sensitivity.{i}"
            w1, w2 = row["win_rate"]["side1"], row["win_rate"]["side2"]
            delta = row["change_side1"]
            out.append(
                f"<tr><td>{_esc(row['change'])}</td>"
                + _cell(f"{p}.played", row["played"])
                + _cell(f"{p}.win_rate.side1.rate", w1["rate"], _pct(w1["rate"]))
                + _cell(f"{p}.win_rate.side1.low", w1["low"], _pct(w1["low"]))
                + _cell(f"{p}.win_rate.side1.high", w1["high"], _pct(w1["high"]))
                + _cell(f"{p}.win_rate.side2.rate", w2["rate"], _pct(w2["rate"]))
                + _cell(f"{p}.draws.rate", row["draws"]["rate"], _pct(row["draws"]["rate"]))
                + _cell(f"{p}.change_side1", delta, f"{100 * delta:+.0f} points")
                + "</tr>"
            )
        out.append("</table>")
        out.append(
            '<p class="note">Each change is played with the same seeds as the encounter as written. '
            "A cover object is a run of one kind of cover tile (a wagon, a fence) above the ground layer.</p>"
        )
        if n["unknown_cover"]:
            out.append(
                f'<p class="note">No cover object is called: {_esc(", ".join(n["unknown_cover"]))}.</p>'
            )
        if images["sensitivity"]:
            out.append(_img(images["sensitivity"], "sensitivity"))
    r = n["rounds"]
    out += [
        "<h2>Rounds to finish</h2>",
        "<table><tr><th>mean</th><th>median</th><th>fewest</th><th>most</th></tr><tr>",
        _cell("rounds.mean", r["mean"], f"{r['mean']:.1f}")
        + _cell("rounds.median", r["median"])
        + _cell("rounds.min", r["min"])
        + _cell("rounds.max", r["max"]),
        "</tr></table>",
    ]
    if images["rounds"]:
        out.append(_img(images["rounds"], "rounds per game"))
    out.append("<h2>Survivors</h2><table><tr><th></th><th>units standing at the end (mean)</th></tr>")
    for side in SIDES:
        mean = n["survivors"][side]["mean"]
        out.append(
            f"<tr><th>{_esc(posses[side])}</th>{_cell(f'survivors.{side}.mean', mean, f'{mean:.2f}')}</tr>"
        )
    out.append("</table>")
    if images["survivors"]:
        out.append(_img(images["survivors"], "survivors"))
    out += [
        "<h2>Damage per unit</h2>",
        "<table><tr><th>posse</th><th>unit</th><th>dealt per game</th><th>taken per game</th>"
        "<th>went down</th></tr>",
    ]
    for i, u in enumerate(n["units"]):
        out.append(
            f"<tr><td>{_esc(posses.get(u['side'], u['side']))}</td><td>{_esc(u['name'])}</td>"
            + _cell(f"units.{i}.damage_dealt", u["damage_dealt"], f"{u['damage_dealt']:.2f}")
            + _cell(f"units.{i}.damage_taken", u["damage_taken"], f"{u['damage_taken']:.2f}")
            + _cell(f"units.{i}.out_rate", u["out_rate"], _pct(u["out_rate"]))
            + "</tr>"
        )
    out.append("</table>")
    if images["damage"]:
        out.append(_img(images["damage"], "damage per unit"))
    out.append("<h2>What decided the games</h2><table><tr><th>how</th><th>games</th></tr>")
    for i, row in enumerate(n["decided_by"]):
        out.append(f"<tr><td>{_esc(row['how'])}</td>{_cell(f'decided_by.{i}.games', row['games'])}</tr>")
    out.append("</table>")
    if images["decided"]:
        out.append(_img(images["decided"], "what decided the games"))
    out += [
        "<h2>Where units were hit and went down</h2>",
        f'<p class="note">Hexes shaded by hits taken there (<span data-json="hits" data-value="{n["hits"]}">'
        f'{n["hits"]}</span> hits), crosses where units went down (<span data-json="downs" '
        f'data-value="{n["downs"]}">{n["downs"]}</span>).</p>',
        _img(images["heatmap"], "heatmap over the map"),
    ]
    if n["errors"]:
        out.append("<h2>Games that failed</h2><ul>")
        out += [f"<li>game {e['game']} (seed {e['seed']}): {_esc(e['message'])}</li>" for e in n["errors"]]
        out.append("</ul>")
    out.append(
        '<p class="note">Made by hexslinger balance. Win rates count draws as not won; intervals are '
        "Wilson 95% score intervals. "
        f"A fair fight: the players' posse (or the favourite) wins 40{DASH}60%.</p>"
    )
    out.append("</body></html>")
    return "\n".join(out) + "\n"
