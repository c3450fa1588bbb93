"""The battle screen after a command takes in only what changed (issue 13: the first frame after a command
within 8 ms): the combat log is appended to, never laid out again; the action bar's buttons are updated in
place, and always say what a freshly built bar would say; the bar keeps one type and height for the
battle (the smallest and tallest it has needed), so no command builds the widgets again; the unit panel
draws its markup."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui
import pytest
from pygame_gui.core.surface_cache import SurfaceCache

from game.engine.match import Match
from game.rules import get_ruleset
from game.tiledmap import load_tiled_map
from game.ui.action_bar import bar_buttons, fixed_buttons
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.battle_hud import font
from game.ui.battle_words import LOG_SHOWN
from game.ui.combatlog import LogLine
from game.ui.demo import demo_command, demo_match
from game.ui.gui import Shell, TipButton, create_manager
from game.ui.layout_fit import fit_fixed
from game.ui.log_view import LogView
from game.ui.prefs import Prefs
from game.ui.rich_text import render_rich
from game.ui.session import BattleSession
from tests.bench.conftest import largest_shipped_map
from tests.rules import rift_kit as rk
from tests.ui.helpers import step
from tests.ui.test_fit_layout import cut_texts

ROOT = Path(__file__).resolve().parents[2]
RANCH = ROOT / "maps" / "ranch_duel.tmx"


def _count_builds(screen: BattleScreen) -> dict[str, int]:
    builds = {"n": 0}
    build = screen.widgets.build

    def counted(*args: object, **kwargs: object) -> None:
        builds["n"] += 1
        build(*args, **kwargs)  # type: ignore[arg-type]

    screen.widgets.build = counted  # type: ignore[method-assign]
    return builds


def _screen(app: App) -> BattleScreen:
    posses = [
        rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo")),
        rk.outlaws("side2", "outlaw_goon", "outlaw_goon", "gang_boss"),
    ]
    match = Match.create(RANCH, get_ruleset("rift"), posses, 3)
    screen = BattleScreen(Shell(prefs=Prefs()), BattleSession(match, None), load_tiled_map(RANCH), app.size)
    app.push(screen)
    step(app, 2)
    return screen


def _bar_says_what_a_new_bar_would(screen: BattleScreen) -> None:
    """Each shown bar button: the text, tooltip, enabled and selected state of its entry now."""
    c = screen.controller
    entries = bar_buttons(c)
    shown = [b for b, _slot in screen.widgets._entries]
    assert len(shown) == len(entries)
    lay = screen.layout
    bar = screen.widgets._bar
    assert bar is not None
    room = bar.get_container().get_rect().width - lay.px(18) - lay.px(118)
    fit = screen.widgets.bar_fit(lay, [e.text for e in entries], room)  # what a new bar would say
    for button, entry, text in zip(shown, entries, fit.texts, strict=True):
        assert button.visible
        assert button.text == text
        assert button.tool_tip_text == entry.tooltip
        assert button.is_enabled == entry.enabled
        if entry.action is not None:
            assert button.is_selected == entry.selected
    assert [a for _b, a in screen.action_buttons] == [e.action for e in entries if e.action is not None]
    for spec in fixed_buttons(c):
        fixed = screen.buttons[spec.key]
        text = fit_fixed(spec.text, lay.px(118), lay.s, lambda points: font(points, bold=True))[1]
        assert (fixed.text, fixed.is_enabled, fixed.tool_tip_text) == (text, spec.enabled, spec.tooltip)
    for spare, _slot in screen.widgets._spare:
        assert not spare.visible


def test_commands_update_the_widgets_in_place_and_append_to_the_log(make_app: Callable[..., App]) -> None:
    app = make_app((1280, 720))
    screen = _screen(app)
    builds = _count_builds(screen)
    view = screen.widgets.log_view
    assert view is not None
    resets = view.resets
    commands = 0
    for _ in range(80):
        if screen.match.is_over:
            break
        screen.handover = False
        laid_out, lines = view.laid_out, len(screen.log)
        last = screen.log[-1] if screen.log else None
        screen.send(rk.aggressive_command(screen.match))
        commands += 1
        step(app)
        new = len(screen.log) - lines if last is None or last in screen.log else None
        # each new line laid out once (a walk's line that grew replaces the newest line: that one again)
        if new is not None:
            assert view.laid_out - laid_out in (new, new + 1)
        assert view.lines == screen.log[-LOG_SHOWN:]
        _bar_says_what_a_new_bar_would(screen)
        assert screen.widgets.unit_html == screen.widgets._unit_text()
    assert commands >= 40
    assert view.resets == resets  # never laid out whole again
    # the deployment's Auto-deploy button, the bar growing a row and taking a smaller type: all in place
    assert builds["n"] == 0, builds


@pytest.mark.parametrize("scale", [1.0, 1.5])
@pytest.mark.parametrize("ruleset", ["frontier", "rift"])
def test_a_whole_battle_builds_the_widgets_once(
    make_app: Callable[..., App], ruleset: str, scale: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every command of a battle, deployment to the end: the widgets are built when the screen opens and
    never again; the bar keeps the type and height it was fitted with when the battle opened (over every
    unit's actions), and no label is ever cut. Once the frames where nothing moved have drawn ahead what
    the battle will show, the frame after a command draws no button face and builds no map chunk."""
    app = make_app((1280, 720))
    match = demo_match(ruleset, seed=11)
    assert match.map_path is not None
    shell = Shell(prefs=Prefs(ui_scale=scale))
    screen = BattleScreen(shell, BattleSession(match, None), load_tiled_map(match.map_path), app.size)
    app.push(screen)
    step(app, 2)
    builds = _count_builds(screen)
    faces = _count_faces(monkeypatch)
    needs = screen.widgets.bar_needs
    assert len(needs.foreseen) >= len(match.units(in_play=False)), "every unit's bar foreseen"
    styles = [(needs.extra, needs.font)]
    commands = 0
    chunks = screen.view.built
    while match.outcome() is None and commands < 400:
        _quiet(app, screen)
        faces["sizes"], chunks = [], screen.view.built
        screen.handover = False
        screen.send(demo_command(match))
        commands += 1
        step(app)
        assert not cut_texts(screen), (commands, cut_texts(screen))
        assert screen.layout.bar_extra == needs.extra
        styles.append((needs.extra, needs.font))
        if ruleset == "rift":  # Frontier's card draws and Joker places are bars no unit's actions foresee
            bar = {b.relative_rect.size for b, _slot in screen.widgets._entries}
            drawn = [size for size in faces["sizes"] if size in bar]
            assert not drawn, f"command {commands}: the faces of bar buttons {drawn} drawn"
            assert screen.view.built == chunks, f"command {commands}: map chunks built"
    assert commands >= 60
    assert builds["n"] == 0, builds
    assert styles == [styles[0]] * len(styles), "one style for the whole battle, fitted when it opened"
    assert len(needs.seen) > 5, "many different bars were shown"
    assert screen.widgets.foreseen_made > 20


def _count_faces(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[tuple[int, int]]]:
    """The sizes of the rounded button faces pygame-gui draws (a face not in its shape cache is drawn)."""
    faces: dict[str, list[tuple[int, int]]] = {"sizes": []}
    find = SurfaceCache.find_surface_in_cache

    def counted(cache: SurfaceCache, lookup_id: str) -> pygame.Surface | None:
        found = find(cache, lookup_id)
        shape, width, height = lookup_id.split("_")[1:4]  # rounded_rectangle_<w>_<h>_...
        if found is None and shape == "rectangle" and lookup_id.startswith("rounded_"):
            faces["sizes"].append((int(width), int(height)))
        return found

    monkeypatch.setattr(SurfaceCache, "find_surface_in_cache", counted)
    return faces


def _quiet(app: App, screen: BattleScreen) -> None:
    """Frames with nothing moving until the screen has nothing left to do ahead (a player reading)."""
    frames = 0
    while screen.animating() and frames < 600:
        step(app)
        frames += 1


def test_quiet_frames_build_the_map_ahead_and_a_frame_after_a_command_does_not(
    make_app: Callable[..., App],
) -> None:
    """The map's chunks out of view are built in frames where nothing moved, the window at its full rate
    until they are; the frame after a command (the one with a budget) builds none of them."""
    app = make_app((1280, 720))
    big = largest_shipped_map()
    match = demo_match("rift", map_path=big, seed=11)
    shell = Shell(prefs=Prefs())
    screen = BattleScreen(shell, BattleSession(match, None), load_tiled_map(big), app.size)
    app.push(screen)
    step(app, 3)
    calls = {"n": 0}
    build_ahead = screen.view.build_ahead

    def counted(budget_ms: float = 3.0) -> bool:
        calls["n"] += 1
        return build_ahead(budget_ms)

    screen.view.build_ahead = counted  # type: ignore[method-assign]
    screen.handover = False
    screen.send(demo_command(match))
    step(app)
    assert calls["n"] == 0, "the frame after a command builds nothing ahead"
    # the opening and its first quiet frames may have built the whole map at its zoom by now: another zoom
    # (the frame that shows it builds only what is in view), then the quiet frames build the rest
    screen.view.set_zoom(screen.view.camera.zoom * 1.5)
    step(app)
    frames = 0
    chunks = len(screen.view._zoomed_chunks)
    while screen.animating() and frames < 600:
        step(app)
        frames += 1
    assert calls["n"] > 0 and not screen.animating(), (calls, frames)
    assert len(screen.view._zoomed_chunks) > chunks, "the quiet frames built chunks"
    assert not screen.view.build_ahead(), "nothing left to build ahead"


def _face(button: TipButton, state: str) -> bytes:
    """The picture of a button's state as it would be shown (drawn first if it is not yet)."""
    shape = button.drawable_shape
    assert shape is not None
    shape.set_active_state(state)
    return pygame.image.tobytes(shape.states[state].surface, "RGBA")


def test_a_relabelled_button_shows_its_new_text_in_every_state(make_app: Callable[..., App]) -> None:
    """A bar button given another text (or a new one) draws only the state it shows; every other state,
    drawn when first shown, says the new text: none keeps a face of the old one."""
    make_app((640, 360))
    manager = create_manager((640, 360))
    rect = pygame.Rect(10, 10, 160, 30)
    ids = pygame_gui.core.ObjectID(object_id="#bar_small", class_id="@action")
    old = TipButton(rect, "1 Fire: Model 4 Pistol", manager=manager, object_id=ids)
    for _ in range(6):
        manager.update(1 / 60)  # pygame-gui draws the other states, one a frame
    states = ["normal", "hovered", "selected", "active", "disabled"]
    before = {state: _face(old, state) for state in states}
    _face(old, "normal")
    old.relabel("2 Move")
    shape = old.drawable_shape
    assert shape is not None
    assert not shape.states_to_redraw_queue, "no state drawn in the next frames"
    assert [s for s in states if shape.states[s].generated] == ["normal"]
    fresh = TipButton(rect, "2 Move", manager=manager, object_id=ids)
    fresh.draw_states_when_shown()
    for state in states:
        assert _face(old, state) == _face(fresh, state), state
        assert _face(old, state) != before[state], state


def _line(n: int, detail: str = "") -> LogLine:
    return LogLine(1, "roll", f"line {n} rolls to hit: [4, 5] +1 cover = 10 vs 8+", detail)


def test_the_log_view_appends_redoes_a_replaced_line_and_keeps_its_links(
    make_app: Callable[..., App],
) -> None:
    make_app((320, 240))
    face = font(15, bold=False)
    view = LogView(face, pygame.Rect(0, 0, 300, 200))
    log = [_line(i) for i in range(5)]
    view.sync(log)
    assert view.laid_out == 5 and view.resets == 1
    log.append(_line(5, detail="Score 3.2\nsafe"))
    view.sync(log)
    assert view.laid_out == 6 and view.resets == 1
    (href,) = view.details
    assert view.details[href] == "Score 3.2<br>safe"
    log[-1] = _line(6)  # the newest line replaced (a walk's line grew): only it is laid out again
    view.sync(log)
    assert view.laid_out == 7 and view.resets == 1 and view.details == {}
    assert view.lines == log
    # more than the view keeps: the oldest go, with their links
    log.append(_line(7, detail="why"))
    log.extend(_line(100 + i) for i in range(LOG_SHOWN))
    view.sync(log)
    assert view.lines == log[-LOG_SHOWN:] and view.details == {} and view.resets == 1
    # scrolled to the top and back, the rows in view change; a picture is painted only when asked anew
    assert view.picture() is not None and view.picture() is None
    view.scroll_by(10_000)
    top = view.link_pieces(), view.picture()
    assert top[1] is not None and view.scroll == view.content_height - view.view_height
    view.scroll_by(-10_000)
    assert view.scroll == 0


def test_the_unit_panel_markup_is_laid_out_with_its_styles(make_app: Callable[..., App]) -> None:
    make_app((320, 240))
    plain = render_rich("Move 2 tiles", 15, 400, (0, 0, 0))
    big = render_rich("<font size=5><b>Move 2 tiles</b></font>", 15, 400, (0, 0, 0))
    assert (
        big.get_height() > plain.get_height()
        and big.get_bounding_rect().width > plain.get_bounding_rect().width
    )
    two = render_rich("Move<br>Run", 15, 400, (0, 0, 0))
    assert two.get_height() >= 2 * plain.get_height() - 2
    narrow = render_rich("a long line of words that cannot fit in a narrow box", 15, 80, (0, 0, 0))
    assert narrow.get_height() > 3 * plain.get_height() and narrow.get_bounding_rect().right <= 80
    escaped = render_rich("3 &lt; 4 &amp; 5 &gt; 2", 15, 400, (0, 0, 0))
    assert (
        escaped.get_bounding_rect().width
        == render_rich("3 < 4 & 5 > 2", 15, 400, (0, 0, 0)).get_bounding_rect().width
    )
