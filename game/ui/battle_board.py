"""The battle map and what lies on it, drawn with pygame: the map itself (:class:`~game.ui.mapview.MapView`),
the aiming marks (reachable tiles, the path under the pointer, deploy zones, blasts, target rings, line of
sight, odds), the tokens, the damage floating up, the dice of the last roll over the map and the dice tray of
a hit assignment. It also answers where things are on screen: the tile and the token under a window point.

What it draws comes from the :class:`~game.ui.controller.BattleController`.
"""

from __future__ import annotations

import math

import pygame

from game.engine.protocol import DEPLOY, LegalAction
from game.hexgrid import Hex
from game.tiledmap import TiledMap
from game.ui.battle_feed import FLOAT_SECONDS
from game.ui.battle_hud import Layout, fit_text, font
from game.ui.battle_words import path_label, pct, reaction_label
from game.ui.camera import Camera
from game.ui.controller import BattleController
from game.ui.edge_marks import EdgeMark, draw_edge_marks, edge_marks
from game.ui.goal_marks import GoalMarks
from game.ui.mapview import MapView
from game.ui.overlay import Overlay
from game.ui.path_marks import draw_reactions, pill, unreachable_mark
from game.ui.tokens import TokenArt, badge_of, icon_key, token_layout
from game.ui.tracker_cards import side_colour_of
from game.ui.zone_marks import draw_zone

__all__ = ["BattleBoard", "draw_die"]


class BattleBoard:
    """The map area of the battle screen for ``layout`` (the screen sets it whenever its size or UI scale
    changes); ``view`` owns the camera."""

    def __init__(self, controller: BattleController, tmap: TiledMap, view: MapView, layout: Layout) -> None:
        self.controller = controller
        self.tmap = tmap
        self.view = view
        self.layout = layout
        self.overlay = Overlay(tmap.geometry, view.camera)
        self.tokens = TokenArt.shared()
        self._reach_layer: tuple[object, pygame.Rect, pygame.Surface, tuple[int, int]] | None = None
        self.edge_marks: list[EdgeMark] = []  # the off-screen targets' marks as last drawn
        self.goals = GoalMarks()  # an encounter's objective areas (game.ui.goal_marks)

    @property
    def scale(self) -> float:
        return self.layout.s

    # -- where things are -------------------------------------------------------------------------------
    def edge_radius(self) -> int:
        """The size of an off-screen target's edge mark (see :mod:`game.ui.edge_marks`)."""
        return max(11, round(15 * self.scale))

    def edge_mark_at(self, pos: tuple[int, int] | None) -> EdgeMark | None:
        """The edge mark under the window position ``pos`` (None: none there)."""
        if pos is None:
            return None
        area = self.layout.map
        for mark in self.edge_marks:
            if mark.hit_rect(self.edge_radius()).move(area.topleft).collidepoint(pos):
                return mark
        return None

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        area = self.layout.map
        if not area.collidepoint(pos):
            return None
        cell = self.view.cell_at_screen(pos[0] - area.x, pos[1] - area.y)
        if cell is None:
            return None
        return self.tmap.geometry.to_hex(*cell)

    def token_hex_size(self) -> float:
        """A hex's inscribed diameter on screen, which token_layout fans a tile's tokens inside."""
        return min(self.tmap.geometry.tile_width, self.tmap.geometry.tile_height) * self.view.camera.zoom

    def token_spots(self, h: Hex) -> list[tuple[int, tuple[float, float]]]:
        """Each unit in tile ``h`` with the window point its token is drawn at (as _draw_tokens fans them)."""
        match = self.controller.match
        units = [u for u in match.units(in_play=False) if match.position(u) == h]
        lay = token_layout(len(units), self.token_hex_size())
        cx, cy = self.overlay.center(h)
        area = self.layout.map
        return [
            (u, (area.x + cx + dx, area.y + cy + dy)) for u, (dx, dy) in zip(units, lay.offsets, strict=False)
        ]

    def token_at(self, pos: tuple[int, int] | None) -> int | None:
        """The unit whose token is drawn nearest ``pos`` in the tile there (a tile may hold several)."""
        h = self.hex_at(pos) if pos is not None else None
        if pos is None or h is None:
            return None
        spots = self.token_spots(h)
        if not spots:
            return None
        return min(spots, key=lambda spot: math.hypot(spot[1][0] - pos[0], spot[1][1] - pos[1]))[0]

    def tray_dice(self) -> list[pygame.Rect]:
        """Where each die of a hit assignment sits in the tray (window coordinates); [] when none."""
        picker = self.controller.assigning()
        if picker is None:
            return []
        # in the action bar, right of the assign button (over the map they would hide the tokens)
        n = len(picker.slots)
        bar = self.layout.bar
        size, gap = max(26, round(42 * self.scale)), max(6, round(10 * self.scale))
        x = bar.x + round(280 * self.scale)
        room = bar.right - round(140 * self.scale) - x
        if n * (size + gap) > room:
            size = max(18, room // n - gap)
        y = bar.y + round(26 * self.scale)
        return [pygame.Rect(x + i * (size + gap), y, size, size) for i in range(n)]

    # -- drawing ----------------------------------------------------------------------------------------
    def draw_map(self, surface: pygame.Surface) -> None:
        """The map, and unless the hand-over cover is up, the marks, the tokens and the floaters on it."""
        area = self.layout.map
        self.view.draw(surface, area.topleft)
        clip = surface.get_clip()
        surface.set_clip(area)
        if not self.controller.handover:
            self._draw_marks(surface, area)
            self._draw_tokens(surface, area)
            self._draw_marks_over(surface, area)
            self._draw_floaters(surface, area)
        surface.set_clip(clip)

    def _draw_marks(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        c = self.controller
        canvas = surface.subsurface(area)
        if c.match.scenario is not None:  # under every other mark: the objectives' areas
            match, sides = c.match, c.sides
            self.goals.draw(
                canvas, self.overlay, match.goals(), lambda side: side_colour_of(match, sides, side)
            )
        if c.selected is not None and (here := c.match.position(c.selected)) is not None:
            self.overlay.selected(canvas, here)
        picker = c.picker
        if picker is None:
            return
        a = picker.action
        if a.needs == "path":
            self._draw_reach(canvas, a)
        elif a.action == DEPLOY:
            self._draw_zones(canvas, a)
        elif a.needs == "hex":
            self.overlay.fill(canvas, a.hexes, (255, 240, 200, 40))
        hov = c.hovered
        if hov.path:
            self.overlay.path(canvas, hov.path, hov.path_cost, badge=False)  # labelled over the tokens
        if hov.caught and hov.hex is not None:
            spots = {c.match.position(u) for u in hov.caught}
            self.overlay.blast(canvas, [h for h in spots if h is not None] or [hov.hex])

    def _draw_reach(self, canvas: pygame.Surface, action: LegalAction) -> None:
        """The tiles a move can reach with their cost dots, painted once per state, action and zoom over
        the view and a quarter of a view around it, and moved with the camera: panning repaints only when
        the view leaves the painted part (issue 13: panning while aiming within 3 ms)."""
        c = self.controller
        cam = self.view.camera
        view = pygame.Rect(cam.scroll, canvas.get_size())  # in zoomed map pixels
        key = (c.state_key(), action, cam.zoom, canvas.get_size())
        cached = self._reach_layer
        if cached is None or cached[0] != key or not cached[1].contains(view):
            region = view.inflate(view.width // 2, view.height // 2)
            painter = Camera(
                center_x=(region.x + region.width / 2) / cam.zoom,
                center_y=(region.y + region.height / 2) / cam.zoom,
                zoom=cam.zoom,
                view_w=region.width,
                view_h=region.height,
                bounds=cam.bounds,
            )
            region.topleft = painter.scroll  # where the painter's picture starts, rounding and all
            layer = pygame.Surface(region.size, pygame.SRCALPHA)
            Overlay(self.tmap.geometry, painter).reachable(layer, c.reach_costs(action))
            inked = layer.get_bounding_rect()  # blending the transparent rest would cost most of a frame
            cached = self._reach_layer = (key, region, layer.subsurface(inked).copy(), inked.topleft)
        _key, region, picture, (dx, dy) = cached
        canvas.blit(picture, (region.x + dx - view.x, region.y + dy - view.y))

    def _draw_zones(self, canvas: pygame.Surface, deploy: LegalAction) -> None:
        """Every side's deploy zone as a tinted, outlined area in its colour; the deploying side's strong."""
        c = self.controller
        zones = c.match.battlefield.deploy_zones
        for side in sorted(zones, key=lambda s: s == deploy.side):  # the deploying side's on top
            colour = side_colour_of(c.match, c.sides, side)
            mine = side == deploy.side
            draw_zone(
                canvas, self.overlay, zones[side], colour, free=deploy.hexes if mine else (), strong=mine
            )

    def _draw_marks_over(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """Marks drawn over the tokens: who a prompt is about, target rings, the dice assigned to each
        target, the line of sight and the hit chance."""
        c = self.controller
        match = c.match
        canvas = surface.subsurface(area)
        prompt = c.prompt()
        if prompt is not None:
            for u in prompt.about:
                if (where := match.position(u)) is not None:
                    self.overlay.alert(canvas, where)
        if c.pilot.active:
            self._draw_ai(canvas)
            return
        picker = c.picker
        self.edge_marks = []
        if picker is None:
            return
        a = picker.action
        out_of_reach = c.unreachable(picker)
        off: list[tuple[int, tuple[float, float]]] = []
        for t in c.targets(picker):
            where = match.position(t)
            if where is None:
                continue
            if t in out_of_reach:  # 0%: a crossed-out ring, not a target to offer
                unreachable_mark(canvas, self.overlay, where)
            else:
                self.overlay.target(canvas, where, strong=t == c.hovered.target)
                off.append((t, self.overlay.center(where)))
        self.edge_marks = edge_marks(canvas.get_size(), off, self.edge_radius() * 2)
        face = font(max(10, round(13 * self.scale)))
        draw_edge_marks(canvas, self.edge_marks, self.edge_radius(), hot=c.hovered.target, face=face)
        hov = c.hovered
        if len(hov.path) > 1:
            reach = hov.preview.reach_chance if hov.preview is not None else None
            end = self.overlay.center(hov.path[-1])
            pill(canvas, self.overlay, end, path_label(hov.path, hov.path_cost, reach), row=-1)
        if hov.reactions:
            name = c.match.identity
            labels = [reaction_label(r, lambda u: name(u).name) for r in hov.reactions]
            spots = {r.reactor: match.position(r.reactor) for r in hov.reactions}
            draw_reactions(canvas, self.overlay, hov.reactions, spots, labels)
        actor = match.position(a.actor)
        if hov.target is not None and actor is not None and (there := match.position(hov.target)) is not None:
            preview = hov.preview
            cover = preview is not None and any(
                n == "cover" or "cover" in n.lower() for n, _ in preview.modifiers
            )
            self.overlay.sight(canvas, actor, there, clear=preview is not None, cover=cover)
            if preview is not None and a.needs == "assign":
                amount = dict(preview.per_target).get(hov.target, 0)
                self.overlay.badge(canvas, self.overlay.center(there), f"-{amount}")
            elif preview is not None and preview.unreachable:
                pill(canvas, self.overlay, self.overlay.center(there), "unreachable", warn=True)
            elif preview is not None:
                self.overlay.badge(canvas, self.overlay.center(there), f"{pct(preview.hit_chance)}")
        if a.needs == "assign":
            values = c.die_values()
            given: dict[int, list[int]] = {}
            for i, slot in enumerate(picker.slots):
                if slot is not None:
                    given.setdefault(slot, []).append(values[i])
            for unit, dice in given.items():
                if (where := match.position(unit)) is not None:
                    self.overlay.dice_on(canvas, where, dice)

    def _draw_ai(self, canvas: pygame.Surface) -> None:
        """A computer player at work: a thought bubble over its unit while it thinks, then what it is about
        to do — the path it walks, the target it aims at (with the line of fire) or the tile it takes."""
        c = self.controller
        match = c.match
        move = c.ai_move
        if move is None:
            unit = c.selected
            where = match.position(unit) if unit is not None else None
            if where is not None and c.pilot.thinking is not None:
                self.overlay.thinking(canvas, where, c.clock)
            return
        cmd = move.command
        if len(cmd.path) > 1:
            cost = sum(match.battlefield.move_cost(h) or 1 for h in cmd.path[1:])
            self.overlay.path(canvas, cmd.path, cost, badge=False)
            pill(canvas, self.overlay, self.overlay.center(cmd.path[-1]), path_label(cmd.path, cost), row=-1)
        actor = match.position(cmd.actor) if cmd.actor else None
        aimed = [t for t in (cmd.target, *cmd.targets) if t is not None]
        start = cmd.path[-1] if cmd.path else actor
        for t in dict.fromkeys(aimed):
            there = match.position(t)
            if there is None:
                continue
            if start is not None and start != there:
                self.overlay.sight(canvas, start, there, clear=True, cover=False)
            self.overlay.target(canvas, there, strong=True)
        if cmd.hex is not None and not cmd.path:
            self.overlay.fill(canvas, [cmd.hex], (255, 240, 200, 90))
            self.overlay.selected(canvas, cmd.hex)

    def _draw_tokens(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        c = self.controller
        match = c.match
        canvas = surface.subsurface(area)
        zoom = self.view.camera.zoom
        hex_size = self.token_hex_size()
        by_hex: dict[Hex, list[int]] = {}
        for u in match.units(in_play=False):
            where = match.position(u)
            if where is not None:
                by_hex.setdefault(where, []).append(u)
        active = set(c.session.actors())
        for where, units in by_hex.items():
            cx, cy = self.overlay.center(where)
            if cx < -80 or cy < -80 or cx > area.width + 80 or cy > area.height + 80:
                continue
            lay = token_layout(len(units), hex_size)
            for u, (dx, dy) in zip(units, lay.offsets, strict=False):
                v = c.unit_view(u)
                side_index = c.sides.index(v.side) if v.side in c.sides else 0
                faction = match.posses[side_index].faction if side_index < len(match.posses) else None
                hp_now, hp_max = v.health
                self.tokens.draw_token(
                    canvas,
                    (round(cx + dx), round(cy + dy)),
                    icon_key(v.kind, v.art),
                    side_index,
                    zoom,
                    faction=faction if side_index == 0 or faction != match.posses[0].faction else None,
                    diameter=lay.diameter,
                    selected=u == c.selected,
                    acting=u in active and u == c.selected,
                    out=bool(v.out) and not v.downed,
                    downed=v.downed,
                    resolve=(hp_now / hp_max) if hp_max else None,
                    statuses=[badge_of(s) for s in v.statuses],
                    time=c.clock,
                )

    def _draw_floaters(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        face = font(max(14, round(26 * self.scale)))
        for f in self.controller.feed.floaters:
            x, y = self.overlay.center(f.hex)
            rise = round(48 * f.age / FLOAT_SECONDS)
            alpha = max(0, 255 - round(255 * f.age / FLOAT_SECONDS))
            for color, off in (((30, 18, 8), 2), ((200, 40, 30), 0)):
                text = face.render(f.text, True, color)
                text.set_alpha(alpha)
                surface.blit(text, text.get_rect(center=(area.x + x + off, area.y + y - 30 - rise + off)))

    def draw_dice(self, surface: pygame.Surface, below: pygame.Rect | None = None) -> None:
        """The dice of the last roll over the top of the map (under the prompt banner ``below``): rolling
        faces at first, then the faces thrown, hits framed, and HIT or MISS."""
        show = self.controller.feed.dice
        assert show is not None
        r = show.roll
        area = self.layout.map
        size = max(36, round(48 * self.scale))
        shown = r.shown()
        small = round(size * 0.7)
        # a die that exploded or aced is a chain: its first face, then each added face smaller, "+4"
        widths = [size + (len(faces) - 1) * (small + 22) for faces, _ in shown]
        n = len(shown)
        total_w = sum(widths) + 10 * n + 20
        box = pygame.Rect(0, 0, max(total_w, round(360 * self.scale)), size + round(70 * self.scale))
        box.midtop = (area.centerx, (below.bottom if below is not None else area.y) + 12)
        pygame.draw.rect(surface, (233, 216, 178), box, border_radius=8)
        pygame.draw.rect(surface, (92, 58, 30), box, 3, border_radius=8)
        face = font(max(12, round(16 * self.scale)))
        head = f"{show.name}: {r.check.replace('_', ' ')}" + (
            f" vs {r.target_number}+" if r.target_number else ""
        )
        surface.blit(face.render(head, True, (52, 33, 16)), (box.x + 10, box.y + 6))
        rolling = show.age < 0.35
        x = box.centerx - (sum(widths) + 10 * n) // 2
        top = box.y + round(34 * self.scale)
        for i, (faces, value) in enumerate(shown):
            face_now = faces[0] if not rolling else 1 + int((self.controller.clock * 17 + i * 5) % 6)
            hit = r.target_number is not None and value >= r.target_number
            draw_die(surface, pygame.Rect(x, top, size, size), face_now, hit=hit and not rolling)
            at = x + size
            for extra in faces[1:] if not rolling else ():
                arrow = face.render("\u2192", True, (52, 33, 16))
                surface.blit(arrow, arrow.get_rect(center=(at + 11, top + size // 2)))
                chip = pygame.Rect(at + 22, top + (size - small) // 2, small, small)
                draw_die(surface, chip, extra, label=f"+{extra}")
                at += small + 22
            x += widths[i] + 10
        if not rolling and r.success is not None:
            verdict = "HIT" if r.success else "MISS"
            tag = font(max(12, round(18 * self.scale))).render(
                verdict, True, (46, 107, 31) if r.success else (140, 30, 20)
            )
            surface.blit(tag, tag.get_rect(topright=(box.right - 10, box.y + 6)))

    def draw_tray(self, surface: pygame.Surface, drag_die: int | None, drag_die_moved: bool) -> None:
        """The dice of a hit assignment: each successful die as a chip to drag onto a target (a chip
        already on a target is drawn dim with its target's name under it; the one in hand is raised;
        ``drag_die`` is the one being dragged, its place left empty once it has moved)."""
        rects = self.tray_dice()
        picker = self.controller.picker
        if not rects or picker is None:
            return
        values = self.controller.die_values()
        labels = self.controller.die_labels()
        small = font(max(9, round(12 * self.scale)), bold=False)
        head = small.render("Drag each hit onto a target:", True, (92, 58, 30))
        surface.blit(head, head.get_rect(bottomleft=(rects[0].x, rects[0].y - 3)))
        for i, rect in enumerate(rects):
            target = picker.slots[i]
            if i == drag_die and drag_die_moved:
                pygame.draw.rect(surface, (90, 70, 50), rect, 2, border_radius=8)  # its empty place
                continue
            held = i in (picker.holding, drag_die)
            draw_die(
                surface,
                rect.move(0, -6 if held else 0),
                values[i],
                hit=True,
                dim=target is not None,
                label=labels[i],
            )
            if target is not None:
                name = self.controller.match.identity(target).name
                text = small.render(fit_text(small, name, rect.width + 8), True, (52, 33, 16))
                surface.blit(text, text.get_rect(midtop=(rect.centerx, rect.bottom + 1)))

    def draw_dragged_die(self, surface: pygame.Surface, die: int, pos: tuple[int, int]) -> None:
        """Die ``die`` of the tray in the hand at ``pos``."""
        values = self.controller.die_values()
        if die < len(values):
            side = max(30, round(44 * self.scale))
            rect = pygame.Rect(0, 0, side, side)
            rect.center = pos
            draw_die(
                surface, rect, values[die], hit=True, lifted=True, label=self.controller.die_labels()[die]
            )


def draw_die(
    surface: pygame.Surface,
    rect: pygame.Rect,
    value: int,
    *,
    hit: bool = False,
    dim: bool = False,
    lifted: bool = False,
    label: str = "",
) -> None:
    """A die face with its number: a hit gets a thick frame and a green ring (shape, not colour alone);
    ``dim`` a die already used (assigned); ``lifted`` a die in the hand (a shadow under it); ``label``
    other words for the number (an added face of a chain: "+4")."""
    if lifted:
        pygame.draw.rect(surface, (20, 12, 6), rect.move(4, 6), border_radius=8)
    face = (196, 186, 168) if dim else (250, 246, 236)
    pygame.draw.rect(surface, face, rect, border_radius=8)
    pygame.draw.rect(surface, (30, 18, 8), rect, 3 if hit else 1, border_radius=8)
    if hit and not dim:
        pygame.draw.rect(surface, (46, 107, 31), rect.inflate(8, 8), 3, border_radius=10)
    words = label or (str(value) if value else "?")
    size = max(12, round(rect.height * 0.45))
    if len(words) > 3:  # a chain ("6\u2192+6\u2192+2") on a chip: smaller type to fit the die
        size = max(9, min(size, round(rect.width * 1.6 / len(words))))
    text = font(size).render(words, True, (90, 80, 70) if dim else (30, 18, 8))
    surface.blit(text, text.get_rect(center=rect.center))
