"""Unit tokens: art for every kind in the rule data, sides apart without colour, markers, crowded hexes, and
a deterministic generator."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import dataclasses
import itertools
import json
import math
import random
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pygame
import pytest

from game.engine import registry
from game.engine.protocol import StatusView
from game.hexgrid import StaggerAxis, StaggerIndex, TiledHexGeometry, polygon_contains
from game.rules.frontier.components import Status as FrontierStatus
from game.rules.frontier.views import STATUS_RULES as FRONTIER_STATUSES
from game.rules.rift.views import STATUS_RULES as RIFT_STATUSES
from game.ui import settings
from game.ui.tokens import (
    TOKENS_DIR,
    StatusBadge,
    TokenArt,
    badge_of,
    icon_key,
    side_color,
    token_diameter,
    token_layout,
    token_offsets,
)

ROOT = Path(__file__).resolve().parents[2]
FRONTIER_TOML = ROOT / "game" / "rules" / "frontier" / "frontier.toml"
RIFT_TOML = ROOT / "game" / "rules" / "rift" / "rift.toml"


@pytest.fixture(scope="module")
def art() -> TokenArt:
    pygame.font.init()
    return TokenArt()


def data_kinds() -> list[str]:
    """Every token kind the two rulesets' data can put on the map, read from the TOML files."""
    frontier = tomllib.loads(FRONTIER_TOML.read_text(encoding="utf-8"))
    rift = tomllib.loads(RIFT_TOML.read_text(encoding="utf-8"))
    kinds = list(frontier["units"])
    kinds += ["rifter", *(icon_key("rifter", [attitude]) for attitude in rift["attitudes"])]
    kinds += list(rift["enemies"])
    kinds += list(rift.get("companions", {}))
    return kinds


def grey_bytes(surface: pygame.Surface) -> tuple[bytes, int, int]:
    grey = pygame.transform.grayscale(surface)
    w, h = grey.get_size()
    return pygame.image.tobytes(grey, "RGBA"), w, h


def ring_difference(a: pygame.Surface, b: pygame.Surface, inner: float, outer: float) -> float:
    """Mean absolute difference of the luminance (L) of two same-size tokens over the ring inner..outer."""
    assert a.get_size() == b.get_size()
    da, w, h = grey_bytes(a)
    db, _, _ = grey_bytes(b)
    cx, cy = w / 2, h / 2
    total = 0
    n = 0
    for y in range(h):
        for x in range(w):
            r = math.hypot(x + 0.5 - cx, y + 0.5 - cy)
            if inner <= r <= outer:
                i = (y * w + x) * 4
                total += abs(da[i] - db[i])
                n += 1
    assert n > 0
    return total / n


def mean_rgb_difference(a: pygame.Surface, b: pygame.Surface) -> float:
    assert a.get_size() == b.get_size()
    da, db = pygame.image.tobytes(a, "RGBA"), pygame.image.tobytes(b, "RGBA")
    return sum(abs(x - y) for x, y in zip(da, db, strict=True)) / len(da)


# -- art for every kind


def test_every_kind_in_the_rule_data_has_a_portrait(art: TokenArt) -> None:
    """Deliberate policy: the game falls back to a plain bust for an unknown kind (never crashes), but a
    kind the shipped rules can field must have its own portrait, so this test fails until one is drawn."""
    kinds = data_kinds()
    assert {"sheriff", "outlaw", "dog", "rifter.bold", "gang_boss"} <= set(kinds)
    missing = [k for k in kinds if not art.has_icon(k)]
    assert missing == [], (
        f"no token portrait for {missing}: add one to ICONS in tools/gen_tokens.py and run "
        "python -m tools.gen_tokens"
    )


def test_portraits_are_all_different(art: TokenArt) -> None:
    pictures = {k: pygame.image.tobytes(s, "RGBA") for k, s in art.icons.items()}
    for a, b in itertools.combinations(pictures, 2):
        assert pictures[a] != pictures[b], f"{a} and {b} share a portrait"


def test_unknown_kinds_fall_back_to_the_generic_bust(art: TokenArt) -> None:
    unknown = art.token_surface("tumbleweed_wrangler", 0, (200, 200, 200), 40)
    generic = art.token_surface(art.fallback, 0, (200, 200, 200), 40)
    assert pygame.image.tobytes(unknown, "RGBA") == pygame.image.tobytes(generic, "RGBA")
    surface = pygame.Surface((200, 200), pygame.SRCALPHA)
    odd = [badge_of(StatusView("", "")), StatusBadge("", "blank")]
    area = art.draw_token(surface, (100, 100), "", 7, 1.0, statuses=odd, wounds=(5, 2))
    assert area.collidepoint(100, 100)


def test_a_variant_without_art_gets_its_kind_s_portrait(art: TokenArt) -> None:
    """``icon_key``'s ``kind.variant`` (a Rifter's first attitude) falls back to the kind's own portrait,
    so a ruleset's new art key never shows the generic bust for a kind that has art."""
    assert art.icon_for("deputy.no_such_variant") == "deputy"
    assert art.icon_for("rifter.bold") == "rifter.bold"
    assert art.icon_for("tumbleweed_wrangler.x") == art.fallback
    plain = art.token_surface("deputy", 0, (200, 200, 200), 40)
    variant = art.token_surface("deputy.no_such_variant", 0, (200, 200, 200), 40)
    assert pygame.image.tobytes(plain, "RGBA") == pygame.image.tobytes(variant, "RGBA")


def test_icon_key_is_the_kind_or_its_first_art_variant() -> None:
    """The unit view's art keys (a Rifter's attitudes) pick a variant of the kind's portrait."""
    assert icon_key("rifter", ["bold", "cunning"]) == "rifter.bold"
    assert icon_key("rifter") == "rifter"
    assert icon_key("sheriff", [""]) == "sheriff"


def test_the_manifest_matches_the_sheets() -> None:
    meta = json.loads((TOKENS_DIR / "tokens.json").read_text(encoding="utf-8"))
    bases = pygame.image.load(str(TOKENS_DIR / "bases.png"))
    icons = pygame.image.load(str(TOKENS_DIR / "icons.png"))
    cell, icon = meta["base_cell"], meta["icon_cell"]
    assert bases.get_size() == (cell * len(meta["styles"]), cell * len(meta["base_rows"]))
    rows = math.ceil(len(meta["icons"]) / meta["icon_columns"])
    assert icons.get_size() == (icon * meta["icon_columns"], icon * rows)
    assert meta["fallback"] in meta["icons"]


# -- sides apart by shape as well as colour


def rim(art: TokenArt, diameter: int) -> tuple[float, float]:
    scale = diameter / (2 * art.disc_radius)
    face = float(json.loads((TOKENS_DIR / "tokens.json").read_text(encoding="utf-8"))["face_radius"])
    return face * scale + 1.0, art.disc_radius * scale - 1.0


@pytest.mark.parametrize("kind", ["sheriff", "outlaw", "rifter.resolute", "gang_boss", "dog"])
def test_the_two_sides_differ_in_greyscale(art: TokenArt, kind: str) -> None:
    d = art.zoom1_diameter
    inner, outer = rim(art, d)
    pairs = [
        (side_color(0), side_color(1)),  # positional colours
        (side_color(0, "the_law"), side_color(1, "the_outlaws")),
        (side_color(0, "rifters"), side_color(1, "outlaws")),
    ]
    for first, second in pairs:
        a = art.token_surface(kind, 0, first, d)
        b = art.token_surface(kind, 1, second, d)
        assert ring_difference(a, b, inner, outer) > 70.0, (first, second)


@pytest.mark.parametrize("color", [(206, 214, 230), (158, 46, 38), (230, 186, 100), (128, 128, 128)])
def test_the_rim_shape_alone_tells_the_sides_apart(art: TokenArt, color: tuple[int, int, int]) -> None:
    """Same colour for both (two posses of one faction, or no colour vision at all): the rims still differ."""
    for d in (art.zoom1_diameter, art.zoom1_diameter // 2):
        inner, outer = rim(art, d)
        styles = [art.token_surface("deputy", s, color, d) for s in range(len(art.styles))]
        assert ring_difference(styles[0], styles[1], inner, outer) > 18.0  # the first two posses
        for a, b in itertools.combinations(styles, 2):
            assert ring_difference(a, b, inner, outer) > 10.0


def test_side_colours_come_from_the_faction_else_the_position() -> None:
    """A faction's colour is its ruleset plugin's (``Faction.color``); the UI names no faction."""
    law = next(f for f in registry.plugin("frontier").factions if f.id == "the_law")
    assert law.color is not None and side_color(0, "the_law") == law.color
    assert side_color(1, "no_such_faction") == settings.TOKEN_SIDE_COLORS[1]
    assert side_color(5) == settings.TOKEN_SIDE_COLORS[5 % len(settings.TOKEN_SIDE_COLORS)]


# -- markers


def test_out_of_action_tokens_look_different(art: TokenArt) -> None:
    d = art.zoom1_diameter
    for kind in ("sheriff", "rifter.daring"):
        healthy = art.token_surface(kind, 0, side_color(0), d)
        out = art.token_surface(kind, 0, side_color(0), d, out=True)
        assert out.get_width() > healthy.get_width()  # knocked askew: the turned square is larger
        crop = out.subsurface(
            out.get_rect().inflate(
                -(out.get_width() - healthy.get_width()), -(out.get_height() - healthy.get_height())
            )
        )
        assert ring_difference(healthy, crop, 0, d / 2) > 40.0


def draw(art: TokenArt, **markers: object) -> pygame.Surface:
    surface = pygame.Surface((160, 160), pygame.SRCALPHA)
    art.draw_token(surface, (80, 80), "deputy", 0, 1.0, **markers)  # type: ignore[arg-type]
    return surface


def test_markers_change_the_picture_outside_the_base(art: TokenArt) -> None:
    plain = draw(art)
    for markers in (
        {"selected": True},
        {"acting": True},
        {"wounds": (2, 3)},
        {"resolve": 0.5},
        {"statuses": [StatusBadge("P", "Prone", False)]},
        {"out": True},
    ):
        assert mean_rgb_difference(plain, draw(art, **markers)) > 0.5, markers


def test_the_acting_marker_pulses_and_health_shows_the_amount(art: TokenArt) -> None:
    a, b = draw(art, acting=True, time=0.0), draw(art, acting=True, time=0.6)
    assert pygame.image.tobytes(a, "RGBA") != pygame.image.tobytes(b, "RGBA")
    a, b = draw(art, wounds=(1, 3)), draw(art, wounds=(2, 3))
    assert pygame.image.tobytes(a, "RGBA") != pygame.image.tobytes(b, "RGBA")
    a, b = draw(art, resolve=0.25), draw(art, resolve=0.75)
    assert pygame.image.tobytes(a, "RGBA") != pygame.image.tobytes(b, "RGBA")


def test_every_status_the_rules_set_has_a_badge_from_its_ruleset() -> None:
    """The badge letters and whether a status helps come from the rulesets' views (StatusView.badge,
    helps); every status the rules set has them."""
    frontier = {f.name for f in dataclasses.fields(FrontierStatus)}
    rift = {
        "in_cover",
        "suppressed",
        "stunned",
        "taunted",
        "overwhelmed",
        "half_stress",
        "hold_fire",
        "covering_fire",
    }
    source = "\n".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "game" / "rules" / "rift").rglob("*.py")
    )
    rift |= set(re.findall(r'(?:has_status|statuses)\([^()"]*"([a-z_]+)"\)', source))
    assert sorted(frontier - set(FRONTIER_STATUSES)) == []
    assert sorted(rift - set(RIFT_STATUSES)) == []
    for rules in (FRONTIER_STATUSES, RIFT_STATUSES):
        for rule in rules.values():
            assert 1 <= len(rule.badge) <= 2 and rule.name
    assert not FRONTIER_STATUSES["prone"].helps and FRONTIER_STATUSES["taking_cover"].helps
    assert not RIFT_STATUSES["suppressed"].helps and RIFT_STATUSES["hold_fire"].helps
    # a status a ruleset gives no letters shows its name's first letter; one with no name a "?"
    assert badge_of(StatusView("Bewildered", "...")).glyph == "B"
    assert badge_of(StatusView("", "")).glyph == "?"
    assert badge_of(StatusView("Hold Fire", "...", "hold_fire", badge="HF", helps=True)) == StatusBadge(
        "HF", "Hold Fire", True
    )


def test_a_badge_that_hinders_is_drawn_apart_from_one_that_helps(art: TokenArt) -> None:
    helps = art._badge(StatusBadge("C", "Cover", True), 24)
    hinders = art._badge(StatusBadge("C", "Cover", False), 24)
    assert pygame.image.tobytes(helps, "RGBA") != pygame.image.tobytes(hinders, "RGBA")
    # the round badge leaves its corners clear; the diamond leaves them clear too but fills its edges'
    # middles, where a circle of the same size is drawn as well: compare a point inside only the circle
    assert helps.get_at((5, 5)).a > hinders.get_at((5, 5)).a


def test_many_statuses_collapse_into_a_count(art: TokenArt) -> None:
    surface = pygame.Surface((200, 200), pygame.SRCALPHA)
    many = [StatusBadge(rule.badge, rule.name, rule.helps) for rule in RIFT_STATUSES.values()]
    art.draw_token(surface, (100, 100), "outlaw", 1, 1.0, statuses=many)
    more = f"+{len(many) - settings.TOKEN_BADGE_MAX + 1}"
    assert any(k[0] == "badge" and k[1] == more for k in art._scaled)


def test_drawing_again_uses_the_cache(art: TokenArt) -> None:
    surface = pygame.Surface((300, 300), pygame.SRCALPHA)
    markers = {
        "acting": True,
        "selected": True,
        "wounds": (1, 2),
        "statuses": [StatusBadge("P", "Prone", False), StatusBadge("St", "Stunned", False)],
        "time": 0.2,
    }
    art.draw_token(surface, (150, 150), "sheriff", 0, 1.0, **markers)  # type: ignore[arg-type]
    cached = len(art._scaled)
    art.draw_token(surface, (150, 150), "sheriff", 0, 1.0, **markers)  # type: ignore[arg-type]
    assert len(art._scaled) == cached


# -- several units on one hex


def hex_polygons() -> list[tuple[str, list[tuple[float, float]], tuple[float, float], float]]:
    """The shipped hex shapes at a few zooms: (name, polygon, centre, inscribed diameter)."""
    out = []
    for name, geometry in (
        ("pointy", TiledHexGeometry.create(64, 74, 36, StaggerAxis.Y, StaggerIndex.ODD)),
        ("flat", TiledHexGeometry.create(74, 64, 36, StaggerAxis.X, StaggerIndex.ODD)),
    ):
        for zoom in (0.25, 0.5, 1.0, 2.0):
            polygon = [(x * zoom, y * zoom) for x, y in geometry.cell_polygon(3, 3)]
            cx, cy = geometry.cell_center(3, 3)
            hex_size = min(geometry.tile_width, geometry.tile_height) * zoom
            out.append((f"{name}@{zoom}", polygon, (cx * zoom, cy * zoom), hex_size))
    return out


@pytest.mark.parametrize("count", range(1, 13))
def test_crowded_tokens_stay_inside_the_hex(count: int) -> None:
    for name, polygon, (cx, cy), hex_size in hex_polygons():
        layout = token_layout(count, hex_size)
        assert len(layout.offsets) == count
        assert layout.offsets == tuple(token_offsets(count, hex_size))
        assert layout.diameter == token_diameter(count, hex_size) >= 1
        r = layout.diameter / 2
        for dx, dy in layout.offsets:
            assert math.hypot(dx, dy) + r <= hex_size / 2 + 1e-9, name
            for k in range(24):
                a = k * math.tau / 24
                assert polygon_contains(polygon, cx + dx + r * math.cos(a), cy + dy + r * math.sin(a)), name
        for (ax, ay), (bx, by) in itertools.combinations(layout.offsets, 2):
            assert math.hypot(ax - bx, ay - by) >= layout.diameter * (1 - settings.TOKEN_OVERLAP) - 1e-6


def test_one_token_fills_the_hex_and_more_shrink() -> None:
    assert token_layout(1, 64).offsets == ((0.0, 0.0),)
    assert token_diameter(1, 64) == 55
    sizes = [token_diameter(n, 64) for n in range(1, 13)]
    assert sizes == sorted(sizes, reverse=True)
    assert token_layout(0, 64).offsets == ()


# -- the generator


def test_the_generator_is_deterministic() -> None:
    from tools import gen_tokens

    for kind in ("sheriff", "rifter.calculated"):
        first = gen_tokens.paint_icon(kind).to_rgba()
        assert gen_tokens.paint_icon(kind).to_rgba() == first
        assert gen_tokens.paint_icon(kind, seed=gen_tokens.SEED + 1).to_rgba() != first
    rng = lambda: random.Random(f"{gen_tokens.SEED}:tint:rope")  # noqa: E731
    assert gen_tokens.paint_tint("rope", rng()).to_rgba() == gen_tokens.paint_tint("rope", rng()).to_rgba()


@pytest.mark.slow
def test_the_shipped_token_art_is_what_the_generator_makes(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "tools.gen_tokens", str(tmp_path)], cwd=ROOT, check=True, capture_output=True
    )
    fresh = tmp_path / "assets" / "tokens"
    assert (fresh / "tokens.json").read_bytes() == (TOKENS_DIR / "tokens.json").read_bytes()
    for name in ("bases.png", "icons.png"):
        a, b = pygame.image.load(str(TOKENS_DIR / name)), pygame.image.load(str(fresh / name))
        assert a.get_size() == b.get_size(), name
        assert pygame.image.tobytes(a, "RGBA") == pygame.image.tobytes(b, "RGBA"), name
