"""The battle map's picture cache (game/ui/mapview.py, issue 13): chunks built lazily over frames within a
budget, shown meanwhile from another zoom level, the same picture once built, and the cache bounded by the
bytes of its pixels whatever zoom levels were visited."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from game.tiledmap import load_tiled_map
from game.ui import settings
from game.ui.mapview import MapView
from tests.bench.conftest import largest_shipped_map

VIEW = (960, 530)


@pytest.fixture
def screen() -> Iterator[pygame.Surface]:
    pygame.display.init()
    try:
        yield pygame.display.set_mode((1280, 720))
    finally:
        pygame.display.quit()


@pytest.fixture(scope="module")
def big_map() -> Path:
    return largest_shipped_map()


def _settle(view: MapView, screen: pygame.Surface) -> int:
    """Frames until every visible chunk is built; how many it took."""
    for frames in range(1, 200):
        view.draw(screen)
        if not view.pending:
            return frames
    raise AssertionError("the chunks were never all built")


def test_a_frame_builds_chunks_within_its_budget_and_the_rest_on_later_frames(
    screen: pygame.Surface, big_map: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = MapView(load_tiled_map(big_map), VIEW)
    monkeypatch.setattr(settings, "CHUNK_BUILD_BUDGET_MS", 0.0)  # one chunk a frame
    view.set_zoom(0.25)
    view.draw(screen)
    wanted = len(view.visible_chunks())
    assert wanted > 4
    assert view.built == 1 and view.pending == wanted - 1
    frames = _settle(view, screen)
    assert frames == wanted - 1  # one more each frame, none built twice
    assert view.built == wanted
    lazy = screen.subsurface(pygame.Rect((0, 0), VIEW)).copy()
    # built all at once (a budget no chunk exceeds), the picture is the same, pixel for pixel
    monkeypatch.setattr(settings, "CHUNK_BUILD_BUDGET_MS", 10_000.0)
    eager = MapView(load_tiled_map(big_map), VIEW)
    eager.set_zoom(0.25)
    eager.draw(screen)
    assert eager.pending == 0
    whole = screen.subsurface(pygame.Rect((0, 0), VIEW))
    assert pygame.image.tobytes(whole, "RGB") == pygame.image.tobytes(lazy, "RGB")


def test_a_chunk_not_built_yet_is_shown_from_a_cached_zoom_level(
    screen: pygame.Surface, big_map: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = MapView(load_tiled_map(big_map), VIEW)
    _settle(view, screen)  # zoom 1 all built
    monkeypatch.setattr(settings, "CHUNK_BUILD_BUDGET_MS", 0.0)
    monkeypatch.setattr(settings, "CHUNK_STAND_IN_MS", 10_000.0)  # every stand-in, however busy the machine
    view.zoom_by(1, (VIEW[0] / 2, VIEW[1] / 2))
    screen.fill((255, 0, 255))
    view.draw(screen)
    assert view.pending > 0
    shown = screen.subsurface(pygame.Rect((0, 0), VIEW))
    magenta = sum(
        1 for x in range(0, VIEW[0], 8) for y in range(0, VIEW[1], 8) if shown.get_at((x, y)) == (255, 0, 255)
    )
    assert magenta == 0  # every part of the view drawn: built or from the zoom-1 pictures
    fill = view.fill_color
    blank = sum(
        1 for x in range(0, VIEW[0], 8) for y in range(0, VIEW[1], 8) if shown.get_at((x, y))[:3] == fill
    )
    assert blank < (VIEW[0] // 8) * (VIEW[1] // 8) // 20  # not left in the background colour


def test_the_cache_stays_within_its_bytes_at_every_zoom_level(screen: pygame.Surface, big_map: Path) -> None:
    view = MapView(load_tiled_map(big_map), VIEW)
    zoom = settings.ZOOM_MIN
    while zoom <= settings.ZOOM_MAX:
        view.set_zoom(zoom)
        cam = view.camera
        for fx in (0.0, 0.5, 1.0):
            for fy in (0.0, 0.5, 1.0):
                cam.center_x = cam.bounds[0] + cam.bounds[2] * fx
                cam.center_y = cam.bounds[1] + cam.bounds[3] * fy
                cam.clamp()
                _settle(view, screen)
                assert view.cache_bytes() <= settings.BASE_CACHE_BYTES + settings.ZOOMED_CACHE_BYTES
        zoom *= settings.ZOOM_STEP
    # the cache's own count agrees with the pictures it holds
    held = [*view._base_chunks.values(), *view._zoomed_chunks.values()]
    assert view.cache_bytes() == sum(s.get_bytesize() * s.get_width() * s.get_height() for s in held)
    assert view.cache_bytes() > settings.ZOOMED_CACHE_BYTES // 2  # it was filled, and bounded


def test_a_zoomed_out_chunk_drawn_over_an_old_one_is_the_same_picture(
    screen: pygame.Surface, big_map: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zoomed out, the oldest base chunk that leaves the cache is drawn over for the next one (no new
    4 MB surface): the picture is the one a new surface gets, and the cache keeps its bound."""
    tmap = load_tiled_map(big_map)
    roomy = MapView(tmap, VIEW)
    size = roomy._base_chunk_size(0.25)
    assert size > settings.CHUNK_SIZE
    monkeypatch.setattr(settings, "BASE_CACHE_BYTES", 2 * size * size * 4)  # two of them
    tight = MapView(tmap, VIEW)
    first = tight._base_chunk(size, 0, 0)
    tight._base_chunk(size, 1, 0)
    third = tight._base_chunk(size, 1, 1)  # the cache full: (0, 0) goes, its surface drawn over
    assert third is first
    assert list(tight._base_chunks) == [(size, 1, 0), (size, 1, 1)]
    assert tight.cache_bytes() <= settings.BASE_CACHE_BYTES
    monkeypatch.setattr(settings, "BASE_CACHE_BYTES", 64 * size * size * 4)
    fresh = roomy._base_chunk(size, 1, 1)
    assert fresh is not third
    assert pygame.image.tobytes(third, "RGB") == pygame.image.tobytes(fresh, "RGB")
    again = tight._base_chunk(size, 0, 0)
    assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(roomy._base_chunk(size, 0, 0), "RGB")


def test_chunks_not_in_view_are_built_ahead_and_a_jump_then_builds_none(
    screen: pygame.Surface, big_map: Path
) -> None:
    """Frames in which nothing moves build the chunks out of view, nearest first (issue 13: the camera's
    jump to the next unit found its part of the map never drawn): zoomed out the whole map fits and is
    built, and a jump to its far corner then draws without building anything."""
    view = MapView(load_tiled_map(big_map), VIEW)
    view.set_zoom(0.4)
    _settle(view, screen)
    shown, built = set(view.visible_chunks()), view.built
    calls = 0
    while view.build_ahead(0.0):  # one chunk a call
        calls += 1
        assert view.built == built + calls
    zoom = view.camera.zoom
    size = view._base_chunk_size(zoom)
    b = view.bounds
    all_chunks = {
        (i, j)
        for j in range(b.top // size, (b.bottom - 1) // size + 1)
        for i in range(b.left // size, (b.right - 1) // size + 1)
    }
    cached = {(i, j) for z, i, j in view._zoomed_chunks if z == zoom}
    assert cached == all_chunks and len(all_chunks - shown) > 4
    assert view._zoomed_bytes <= settings.ZOOMED_CACHE_BYTES * settings.AHEAD_SHARE
    view.camera.center_x, view.camera.center_y = b.right, b.bottom
    view.camera.clamp()
    before = view.built
    view.draw(screen)
    assert view.built == before and not view.pending


def test_chunks_built_ahead_at_full_size_stop_at_their_share_of_the_cache(
    screen: pygame.Surface, big_map: Path
) -> None:
    """At zoom 1 the whole map does not fit: chunks are built ahead only while the cache has room under
    AHEAD_SHARE of its bytes, so none that is in view is dropped for them; the first ones are the
    nearest."""
    view = MapView(load_tiled_map(big_map), VIEW)
    view.set_zoom(1.0)
    _settle(view, screen)
    mid = view.camera.scroll[0] + VIEW[0] / 2, view.camera.scroll[1] + VIEW[1] / 2
    view.build_ahead(0.0)
    first = next(reversed(view._base_chunks))  # the one just built
    while view.build_ahead(0.0):
        pass
    last = next(reversed(view._base_chunks))
    size = settings.CHUNK_SIZE

    def distance(key: tuple[int, int, int]) -> float:
        return float(((key[1] + 0.5) * size - mid[0]) ** 2 + ((key[2] + 0.5) * size - mid[1]) ** 2)

    assert distance(first) < distance(last)
    assert view._base_bytes <= settings.BASE_CACHE_BYTES * settings.AHEAD_SHARE
    assert len(view._base_chunks) > 2 * len(view.visible_chunks())
    assert all((size, i, j) in view._base_chunks for i, j in view.visible_chunks())


def _mean_difference(a: pygame.Surface, b: pygame.Surface) -> float:
    """Mean absolute difference of two same-size pictures' colour channels, in levels of 255."""
    up, down = a.copy(), b.copy()
    up.blit(b, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(0, a - b) per channel
    down.blit(a, (0, 0), special_flags=pygame.BLEND_RGB_SUB)  # max(0, b - a)
    up.blit(down, (0, 0), special_flags=pygame.BLEND_RGB_ADD)  # |a - b|
    return sum(pygame.transform.average_color(up)[:3]) / 3


@pytest.mark.parametrize("zoom", [0.25, 0.5, 0.75])
def test_a_zoomed_out_chunk_drawn_from_scaled_pictures_looks_like_the_full_size_chunk_scaled(
    screen: pygame.Surface, big_map: Path, zoom: float
) -> None:
    """Zoomed out, a chunk is drawn straight at the zoom from pictures scaled once each (issue 13); it is
    the picture the old way gave (the chunk drawn at full size then smoothscaled) but for rounding."""
    view = MapView(load_tiled_map(big_map), VIEW)
    size = view._base_chunk_size(zoom)
    b = view.bounds
    chunks = [(b.centerx // size, b.centery // size), (b.left // size, b.top // size)]
    for i, j in chunks:
        new = view._drawn_zoomed_out(zoom, size, i, j)
        w, h = view._chunk_place(zoom, size, i, j)[2:]
        old = pygame.transform.smoothscale(view._base_chunk(size, i, j), (w, h))
        assert new.get_size() == old.get_size() == (w, h)
        flat = pygame.Surface((w, h))
        flat.fill(pygame.transform.average_color(new))
        assert _mean_difference(new, flat) > 10  # a real part of the map, not a blank chunk
        mean_difference = _mean_difference(new, old)  # pixels off by rounding, mostly in busy textures
        assert mean_difference < 5, f"zoom {zoom} chunk {(i, j)}: mean difference {mean_difference:.1f}"
        # no darker on the whole: hexes' edges half covered let the ground through as a grid (-5 then)
        bias = (
            sum(pygame.transform.average_color(new)[:3]) / 3
            - sum(pygame.transform.average_color(old)[:3]) / 3
        )
        assert abs(bias) < 1.5, f"zoom {zoom} chunk {(i, j)}: darker or lighter by {bias:.1f}"


def test_zoomed_out_frames_are_drawn_from_scaled_pictures_not_full_size_chunks(
    screen: pygame.Surface, big_map: Path
) -> None:
    view = MapView(load_tiled_map(big_map), VIEW)
    view.set_zoom(0.25)
    _settle(view, screen)
    assert view.built > 0
    assert not view._base_chunks  # no full-size chunk drawn to be scaled down
