"""The western theme: loads cleanly anywhere (serif or bundled font, any working directory), scales."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from pygame_gui.elements import UIButton, UITextBox

from game.ui.app import App
from game.ui.gui import (
    FALLBACK_FONT,
    THEME_FONT,
    THEME_PATH,
    FontFiles,
    create_manager,
    display_font,
    find_serif_fonts,
    layout_scale,
    theme_data,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_theme_file_is_in_assets_and_is_json() -> None:
    assert THEME_PATH == ROOT / "assets" / "ui" / "theme.json"
    theme = json.loads(THEME_PATH.read_text(encoding="utf-8"))
    fonts = [b["font"] for b in theme.values() if isinstance(b, dict) and "font" in b]
    assert fonts and all(f["name"] == THEME_FONT for f in fonts if f.get("name") != "fira_code_symbols")


def test_the_theme_loads_without_a_single_warning(
    make_app: Callable[[tuple[int, int]], App], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    make_app((800, 600))
    monkeypatch.chdir(tmp_path)  # the theme is found from the package, not the working directory
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        manager = create_manager((800, 600), 1.0)
        UIButton(pygame.Rect(10, 10, 200, 40), "Draw!", manager=manager)
        manager.update(0.016)
        manager.draw_ui(pygame.display.get_surface())


def test_with_no_serif_font_it_falls_back_to_the_bundled_one(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    make_app((800, 600))
    theme = theme_data(1.0, fonts=None)
    names = {b["font"]["name"] for b in theme.values() if isinstance(b, dict) and "font" in b}
    assert THEME_FONT not in names and FALLBACK_FONT in names
    assert not any("regular_path" in b.get("font", {}) for b in theme.values() if isinstance(b, dict))
    from game.ui.gui import GuiManager

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        manager = GuiManager((800, 600), theme)
        UIButton(pygame.Rect(10, 10, 200, 40), "Draw!", manager=manager)
        manager.draw_ui(pygame.display.get_surface())


def test_a_found_serif_font_is_used_with_all_four_styles() -> None:
    files = FontFiles("testserif", "/r.ttf", "/b.ttf", "/i.ttf", "/bi.ttf")
    theme = theme_data(1.0, fonts=files)
    font = theme["button"]["font"]
    assert font["name"] == f"{THEME_FONT}_testserif"
    assert (font["regular_path"], font["bold_path"], font["italic_path"], font["bold_italic_path"]) == (
        "/r.ttf",
        "/b.ttf",
        "/i.ttf",
        "/bi.ttf",
    )


def test_the_theme_uses_the_bundled_serif_not_the_machines() -> None:
    """The UI must look and measure the same on every machine (a posse's name that fits here must fit
    there): the theme's font is DejaVu Serif from assets/fonts, whatever the system has."""
    found = find_serif_fonts()
    assert found is not None
    fonts = ROOT / "assets" / "fonts"
    assert (found.regular, found.bold, found.italic, found.bold_italic) == tuple(
        str(fonts / f"DejaVuSerif{style}.ttf") for style in ("", "-Bold", "-Italic", "-BoldItalic")
    )
    pygame.font.init()
    styles = [
        (pygame.font.Font(path, 15).name, pygame.font.Font(path, 15).style_name)
        for path in (found.regular, found.bold, found.italic, found.bold_italic)
    ]
    assert styles == [
        ("DejaVu Serif", "Book"),
        ("DejaVu Serif", "Bold"),
        ("DejaVu Serif", "Italic"),
        ("DejaVu Serif", "Bold Italic"),
    ]
    font = theme_data(1.0)["button"]["font"]
    assert font["name"] == f"{THEME_FONT}_dejavuserif" and font["regular_path"] == found.regular


def test_the_status_line_and_titles_are_drawn_in_the_bundled_serif() -> None:
    from game.resources import serif_font
    from game.ui.hud import TextCache

    pygame.font.init()
    text = "Hex 12,7  (q 9, r 1)"
    assert (
        TextCache(17).render(text, (0, 0, 0)).get_width() == pygame.font.Font(serif_font(), 17).size(text)[0]
    )
    bold = pygame.font.Font(serif_font(bold=True), 40)
    assert display_font(40).size("HEXSLINGER") == bold.size("HEXSLINGER")


def test_the_ui_scale_multiplies_every_theme_font_size() -> None:
    base = theme_data(1.0, fonts=None)
    big = theme_data(1.5, fonts=None)
    for key, block in base.items():
        if isinstance(block, dict) and "size" in block.get("font", {}):
            assert int(big[key]["font"]["size"]) == round(int(block["font"]["size"]) * 1.5)


def test_the_layout_scale_shrinks_to_fit_small_windows() -> None:
    assert layout_scale((1280, 720), 1.0) == 1.0
    assert layout_scale((800, 600), 1.0) == 1.0
    assert layout_scale((800, 600), 1.5) == 1.0  # the layouts are designed to fit 800x600 at 1.0
    assert layout_scale((1920, 1080), 1.5) == 1.5
    assert layout_scale((640, 480), 1.0) == 0.8
    assert layout_scale((320, 240), 1.0) == 0.6


def test_display_font_renders_text(make_app: Callable[[tuple[int, int]], App]) -> None:
    make_app((320, 240))
    assert display_font(40).render("HEXSLINGER", True, (0, 0, 0)).get_width() > 100


def test_a_line_that_just_fills_a_text_box_is_not_followed_by_a_blank_row(
    make_app: Callable[[tuple[int, int]], App],
) -> None:
    """pygame-gui 0.6 started an empty row when a line ended within its line break's 4 px of the box's
    right edge: the combat log showed stray blank lines after "Gang Leader draws Jack of Spades" and the
    Hold Fire line at some widths. Every width from too narrow to roomy: no row without text."""
    make_app((800, 600))
    manager = create_manager((800, 600))
    html = "\u2660 Gang Leader draws Jack of Spades<br>\u00b7 Deputy: hold fire (Sullivan 870 HMG)<br>end"
    for width in range(120, 420):
        box = UITextBox(html, pygame.Rect(0, 0, width, 400), manager)
        rows = box.text_box_layout.layout_rows
        texts = ["".join(getattr(chunk, "text", "") for chunk in row.items) for row in rows]
        assert all(t.strip() for t in texts), (width, texts)
        box.kill()


def test_the_combat_log_marks_are_glyphs_the_serif_draws() -> None:
    """Found in the real window: the log's hit, miss, damage and turn marks (dingbats) drew nothing in the
    bundled serif. Every mark must have a glyph with some width."""
    from game.ui.battle_words import KIND_MARK
    from game.ui.gui import display_font

    pygame.font.init()
    font = display_font(15, bold=False)
    for kind, mark in KIND_MARK.items():
        (metrics,) = font.metrics(mark)
        assert metrics is not None and metrics[1] - metrics[0] > 0, (kind, mark)


def test_the_posse_screens_theme_file_resolves_its_fonts_like_the_western_theme(
    make_app: Callable[[tuple[int, int]], App], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The posse builder's own blocks (assets/ui/posse_theme.json) name the theme's serif; loaded, each is
    pointed at the serif found (or the bundled font) with its size times the UI scale, from any folder."""
    from game.ui.gui import resolve_theme_fonts
    from game.ui.posse_common import POSSE_THEME_PATH, screen_theme

    make_app((800, 600))
    assert POSSE_THEME_PATH == ROOT / "assets" / "ui" / "posse_theme.json"
    raw = json.loads(POSSE_THEME_PATH.read_text(encoding="utf-8"))
    sizes = {k: int(b["font"]["size"]) for k, b in raw.items() if "font" in b}
    assert sizes["@choice"] == 15 and all(raw[k]["font"]["name"] == THEME_FONT for k in sizes)
    monkeypatch.chdir(tmp_path)
    files = find_serif_fonts()
    theme = screen_theme(1.5)
    for key, size in sizes.items():
        font = theme[key]["font"]
        assert font["size"] == str(max(8, round(size * 1.5))), key
        assert font["name"] == (f"{THEME_FONT}_{files.family}" if files is not None else FALLBACK_FONT)
    bare = resolve_theme_fonts(json.loads(POSSE_THEME_PATH.read_text(encoding="utf-8")), 1.0, None)
    assert {b["font"]["name"] for b in bare.values() if "font" in b} == {FALLBACK_FONT}
    manager = create_manager((800, 600), 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        manager.get_theme().load_theme(theme)
