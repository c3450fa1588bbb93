"""The results screen after a finished battle: winner and reason, the per-unit table, Rematch, Save Replay
(a file the replay check accepts) and Title; by posted mouse and key events (the battle itself is finished
by the rules tests' aggressive players, through the session)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

import pygame
import pytest

from game.save import load_match
from game.stats import battle_stats
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import NameDialog
from game.ui.flow import Flow
from game.ui.results import ResultsScene, out_text
from tests.ui.flow_kit import ROOT, finish, names, start_battle, title_app, type_text
from tests.ui.helpers import click, move, post, press, step

AppMaker = Callable[[tuple[int, int]], App]


def finished(app: App, ruleset: str, seed: int = 7) -> tuple[ResultsScene, BattleScreen, Flow]:
    _title, flow = title_app(app)
    battle = start_battle(app, flow, ruleset, seed)
    finish(battle, ruleset)
    step(app, 3)  # the battle screen sees the end and hands over to the results
    results = app.top
    assert isinstance(results, ResultsScene), names(app)
    assert names(app) == ["TitleScene", "ResultsScene"]
    return results, battle, flow


@pytest.mark.parametrize("ruleset", ["rift", "frontier"])
def test_the_results_show_the_winner_the_reason_and_every_unit(make_app: AppMaker, ruleset: str) -> None:
    app = make_app((1280, 720))
    results, battle, _flow = finished(app, ruleset)
    outcome = battle.session.match.outcome()
    assert outcome is not None
    if outcome.winner is None:
        assert results.heading == "A Draw"
    else:
        assert results.heading == f"Victory for {results.side_names[outcome.winner]}"
        assert results.side_names[outcome.winner] in {p.name for p in battle.session.match.posses}
    step(app, 2)
    stats = battle_stats(battle.session.match)
    assert stats
    for s in stats:
        row = {
            column: results.cells[(s.unit, column)].text
            for column in ("Unit", "Attacks", "Hits", "Dealt", "Taken", "Fate")
        }
        assert row == {
            "Unit": s.name,
            "Attacks": str(s.attacks),
            "Hits": str(s.hits),
            "Dealt": str(s.damage_dealt),
            "Taken": str(s.damage_taken),
            "Fate": out_text(s.out),
        }
    for posse in battle.session.match.posses:
        units = [s for s in stats if s.side == posse.side]
        assert results.totals[(posse.side, "Attacks")].text == str(sum(s.attacks for s in units))
        assert (
            results.totals[(posse.side, "Fate")].text
            == f"{sum(1 for s in units if s.out)} of {len(units)} out"
        )
    assert any(s.out for s in stats)  # someone left the fight
    assert sum(s.attacks for s in stats) > 0


def test_rematch_starts_the_same_posses_on_the_same_map_with_new_dice(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    results, battle, _flow = finished(app, "rift")
    old = battle.session.match
    click(app, results.buttons["rematch"].rect.center)
    again = app.top
    assert isinstance(again, BattleScreen), names(app)
    assert names(app) == ["TitleScene", "GuardedBattleScreen"]
    new = again.session.match
    assert new.ruleset.name == old.ruleset.name
    assert new.map_path == old.map_path
    assert new.posses == old.posses
    assert new.seed != old.seed
    assert new.log == [] and not new.is_over
    step(app, 2)


def test_save_replay_writes_a_save_that_replays_to_the_same_end(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    results, battle, flow = finished(app, "frontier")
    click(app, results.buttons["save_replay"].rect.center)
    dialog = app.top
    assert isinstance(dialog, NameDialog)
    assert dialog.current_text().startswith("Replay Showdown at the Lazy K ")  # the map's title
    type_text(app, "the showdown")
    step(app, 2)
    click(app, dialog.buttons["ok"].rect.center)
    assert app.top is results
    path = flow.saves_dir / "the-showdown.json"
    assert path.is_file()
    assert "the-showdown.json" in results.note
    match, data = load_match(path)  # replays every command and checks the digest
    assert match.digest() == battle.session.match.digest()
    assert match.is_over and data.name == "the showdown"
    result = subprocess.run(
        [sys.executable, "-m", "game", "replay", str(path), "--verify"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_title_goes_back_and_continue_then_shows_the_results_again(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    results, _battle, _flow = finished(app, "rift")
    click(app, results.buttons["title"].rect.center)
    assert names(app) == ["TitleScene"]
    title = app.top
    assert title.buttons["continue"].is_enabled  # type: ignore[union-attr]
    click(app, title.buttons["continue"].rect.center)  # type: ignore[union-attr]
    step(app, 3)
    battle = app.top  # the battle's end on the board first (issue 13), then the results
    assert isinstance(battle, BattleScreen) and battle.controller.ending is not None
    press(app, pygame.K_RETURN, frames=3)
    assert isinstance(app.top, ResultsScene)
    press(app, pygame.K_ESCAPE)
    assert names(app) == ["TitleScene"]


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_results_fit_the_window(make_app: AppMaker, size: tuple[int, int]) -> None:
    app = make_app(size)
    results, _battle, _flow = finished(app, "rift")
    window = pygame.Rect((0, 0), size)
    for button in results.buttons.values():
        assert results.sheet.contains(button.rect) and window.contains(button.rect)
    heads = [label.rect for (unit, column), label in results.cells.items() if column == "Unit"]
    assert heads and all(r.width > 60 for r in heads)


def _wheel(app: App, pos: tuple[int, int], notches: int) -> None:
    """Turn the mouse wheel over ``pos``: negative ``notches`` scroll down, as pygame reports them."""
    move(pos)
    step(app)
    for _ in range(abs(notches)):
        sign = 1 if notches > 0 else -1
        post(pygame.MOUSEWHEEL, x=0, y=sign, flipped=False, precise_x=0.0, precise_y=float(sign))
        step(app)
    step(app, 60)  # the list glides to where the wheel sent it


def test_the_unit_table_scrolls_by_the_wheel_and_by_its_arrows(make_app: AppMaker) -> None:
    """Found in the real window: only dragging the thumb moved the table (the wheel over its rows did
    nothing, an arrow click barely moved it), so the last rows of a long table stayed hidden."""
    app = make_app((1280, 720))
    results, _battle, _flow = finished(app, "rift")  # six units a side: a table taller than its view
    table = results.table
    assert table is not None
    bar = table.vert_scroll_bar
    assert bar is not None and bar.visible_percentage < 1.0
    last = results.totals[(results.session.match.posses[-1].side, "Unit")]
    assert last.rect.bottom > table.rect.bottom  # the last posse's total is out of sight
    heading = results.heading_label
    assert heading is not None
    _wheel(app, heading.rect.center, -3)  # not over the table: nothing moves
    assert bar.start_percentage == 0.0
    over_rows = results.cells[(results.stats[0].unit, "Hits")].rect.center
    _wheel(app, over_rows, -10)
    assert bar.start_percentage > 0.0
    assert table.rect.top <= last.rect.top and last.rect.bottom <= table.rect.bottom  # now in sight
    _wheel(app, over_rows, 10)
    assert bar.start_percentage == 0.0
    # a click on an arrow moves the table a row, and back
    assert bar.bottom_button is not None and bar.top_button is not None
    first = results.cells[(results.stats[0].unit, "Unit")]
    top = first.rect.top
    click(app, bar.bottom_button.rect.center, frames=60)
    assert first.rect.top <= top - results.px(28) + 2
    click(app, bar.top_button.rect.center, frames=60)
    assert first.rect.top == top
