"""The battle screen's pygame-gui widgets: the side panel (the unit shown with its status chips, the combat
log) and the action bar (:mod:`game.ui.action_bar`'s buttons and the fixed buttons at its right end), laid
out for a :class:`~game.ui.battle_hud.Layout`. What they say and whether they are enabled is the
:class:`~game.ui.controller.BattleController`'s and :mod:`game.ui.action_bar`'s; this module only places
them and keeps their texts up to date.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui
from pygame_gui.elements import UIImage, UILabel, UIPanel, UITextBox

from game.rules import LegalAction
from game.ui.action_bar import BarButton, FixedButton, bar_buttons, fixed_buttons, foreseen_bars
from game.ui.battle_hud import Layout, fit_text, font
from game.ui.battle_words import esc, unit_html
from game.ui.controller import BattleController
from game.ui.gui import GuiManager, GuiScene, TipButton, _theme_cached, stretch_faces
from game.ui.layout_fit import BAR_FONTS, BarFit, fit_bar, fit_fixed
from game.ui.log_view import LogView
from game.ui.rich_text import RichText
from game.ui.sheet import fit_text as fit_gui_text

__all__ = ["BAR_ROW", "BattleWidgets"]

BAR_ROW = 30  # a row of the action bar added when its buttons need one, at UI scale 1
BAR_FRAME = 22  # the action bar panel's frame, both sides (its container is this much narrower)
BAR_STATES = ("normal", "disabled")  # the faces a bar shows after a command (the others when pointed at)
SPARE_BUTTONS = 160  # hidden bar buttons kept for later turns (a hidden one costs ~2 µs a frame)


def _face(points: int) -> pygame.font.Font:
    """The action bar's type at a size (the theme's bold serif, as pygame-gui draws it)."""
    return font(points, bold=True)


def _line_height(points: int) -> int:
    return int(font(points, bold=True).get_linesize())


class _Slot:
    """A button's command that can be pointed elsewhere when the button is reused for another action."""

    def __init__(self, run: Callable[[], None]) -> None:
        self.run = run

    def __call__(self) -> None:
        self.run()


class BarNeeds:
    """The labels of every action bar this battle has shown, and the one style that holds them all: the
    rows the bar takes from the map (the most any bar has needed) and its type (the smallest any has
    needed at that height, an index into :data:`BAR_FONTS`). A battle's bar keeps that style, never
    growing back, so a command whose bar fits it changes no theme id and no row count: the widgets are
    updated in place (issue 13: the first frame after a command). The style is found again for another
    window size or UI scale, from every bar seen."""

    def __init__(self, fit: Callable[[Layout, list[str], int, int], BarFit]) -> None:
        self._fit = fit  # a bar's fit in a layout, its labels, the room across and the first type tried
        self.seen: set[tuple[str, ...]] = set()
        self._for: tuple[tuple[int, int], float] | None = None  # the window size and UI scale of the style
        self.extra = 0  # pixels of map the bar takes (Layout.bar_extra)
        self.font = 0  # the bar's type: BAR_FONTS[font]
        self.foreseen: list[tuple[str, ...]] = []  # every unit's bar as the ruleset foresees it

    def expect(self, bars: list[list[str]]) -> None:
        """The bars the battle will show as far as the ruleset can say (every unit's, when the battle
        opens: :func:`~game.ui.action_bar.foreseen_bars`): the style holds them all from the first
        frame, so a command never changes the bar's type or rows; a bar none of them foresaw still
        grows it (:meth:`note`)."""
        self.foreseen = [tuple(bar) for bar in bars if bar]
        self.seen.update(self.foreseen)
        self._for = None  # the style found again from every bar at the next note

    def note(self, lay: Layout, texts: list[str]) -> None:
        """A bar labelled ``texts`` is up in (a layout of) ``lay``'s window: the style holds it from now."""
        labels = tuple(texts)
        if (lay.size, lay.s) != self._for:
            self._for = (lay.size, lay.s)
            self.extra, self.font = 0, 0
            if labels:
                self.seen.add(labels)
            for seen in self.seen:
                self._take(lay, seen)
            return
        if labels and labels not in self.seen:
            self.seen.add(labels)
            self._take(lay, labels)

    def _take(self, lay: Layout, labels: tuple[str, ...]) -> None:
        extra = self._extra(lay, list(labels))
        if extra > self.extra:  # a taller bar: every bar's type at its height again
            self.extra, self.font = extra, 0
            for seen in self.seen:
                self.font = max(self.font, self._font(lay, list(seen)))
        else:
            self.font = max(self.font, self._font(lay, list(labels)))

    def _room(self, lay: Layout) -> int:
        return lay.bar.width - BAR_FRAME - lay.px(18) - lay.px(118)  # as build lays the bar out

    def _extra(self, lay: Layout, texts: list[str]) -> int:
        """The fewest pixels of map that let ``texts`` fit uncut (in any type), 0 when none does."""
        for more in range(4):
            grown = Layout(lay.size, lay.s, more * lay.px(BAR_ROW))
            if not self._fit(grown, texts, self._room(grown), 0).cut:
                return grown.bar_extra
        return 0

    def _font(self, lay: Layout, texts: list[str]) -> int:
        """The largest type (its index) that ``texts`` fit uncut with the bar the style's height."""
        grown = Layout(lay.size, lay.s, self.extra)
        fit = self._fit(grown, texts, self._room(grown), 0)
        if fit.cut:
            return len(BAR_FONTS) - 1
        return [object_id for object_id, _size in BAR_FONTS].index(fit.object_id)


class BattleWidgets:
    """The widgets of one battle screen, built by :meth:`build` into ``scene``'s manager (their buttons
    run through ``scene.button``: a click sound, the command after pygame-gui is done with the event)."""

    def __init__(self, scene: GuiScene, controller: BattleController) -> None:
        self.scene = scene
        self.controller = controller
        self.buttons: dict[str, pygame_gui.elements.UIButton] = {}
        self.action_buttons: list[tuple[pygame_gui.elements.UIButton, LegalAction]] = []
        self.choice_buttons: list[tuple[TipButton, str]] = []
        self.status_chips: list[tuple[TipButton, str]] = []
        self.unit_box: UITextBox | None = None  # the unit panel's box (its frame); its text is unit_text's
        self.unit_text = RichText(15, (0x34, 0x21, 0x10))
        self.unit_image: UIImage | None = None
        self.log_box: UITextBox | None = None  # the log's box (its frame); its rows are log_view's
        self.log_view: LogView | None = None
        self.log_image: UIImage | None = None
        self.log_links: dict[str, str] = {}  # a linked log line's name -> its tooltip (a decision's why)
        self.log_tip: Any = None  # the tooltip up now, and the line it is for
        self.log_tip_for = ""
        self._shape: object = None  # what the built widgets were laid out for (see refresh)
        self._entries: list[tuple[TipButton, _Slot]] = []  # the bar's action and choice buttons, in order
        self._spare: list[tuple[TipButton, _Slot]] = []  # bar buttons hidden until more are wanted
        self._bar: UIPanel | None = None
        self._panel: UIPanel | None = None
        self._chip_pool: dict[tuple[str, tuple[int, int]], TipButton] = {}  # hidden chips by status, size
        self._bar_style: tuple[int, str | None] = (0, None)  # the bar's rows and type size now
        self._lay: Layout | None = None  # the layout the widgets are placed for now
        self._fixed: list[tuple[str, str | None, TipButton]] = []  # each fixed button's key, type, button
        self._fixed_commands: dict[str, Callable[[], None]] = {}
        self.bar_needs = BarNeeds(self._fit_from)
        self.bar_needs.expect(foreseen_bars(controller))
        self.foreseen_made = 0  # hidden bar buttons made ahead for the foreseen bars (see foresee)
        self._to_foresee: list[tuple[str, pygame.Rect, str | None]] = []  # still to make: text, place, type
        self._faces_drawn: set[tuple[int, int]] = set()  # the sizes whose disabled face foresee drew
        # the faces of every foreseen size put in pygame-gui's cache (foresee): none, the states a bar shows
        # after a command (normal, disabled), every state
        self._stretched: tuple[str, ...] | None = ()
        self._foreseen_widths: dict[int, set[int]] = {}  # the foreseen bar buttons' widths by height
        self.faces_stretched = 0  # faces put in pygame-gui's shape cache (see _stretch_faces)

    def build(self, manager: GuiManager, lay: Layout, fixed: dict[str, Callable[[], None]]) -> None:
        """The panel and the bar for ``lay``; ``fixed`` runs each fixed button by its key (end_turn,
        auto_deploy, back, undo, menu)."""
        c = self.controller
        self.buttons = {}
        self.action_buttons = []
        self.choice_buttons = []
        self._entries, self._spare = [], []
        self._preload_fonts(manager, lay.s)
        panel = UIPanel(lay.panel, manager=manager, object_id="#battle_panel")
        self._panel, self._chip_pool = panel, {}
        pw = lay.panel.width - lay.px(16)
        chips_h = self._build_status_chips(manager, panel, pw, lay)
        self.unit_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(6), pw, lay.px(250) - chips_h),
            manager=manager,
            container=panel,
            object_id="#unit_box",
        )
        self._place_unit_text(manager, panel, lay)
        UILabel(
            pygame.Rect(lay.px(6), lay.px(262), pw, lay.px(24)),
            "Combat log",
            manager=manager,
            container=panel,
            object_id="#panel_heading",
        )
        log_h = lay.panel.height - lay.px(300)
        self.log_box = UITextBox(
            "",
            pygame.Rect(lay.px(6), lay.px(288), pw, max(lay.px(60), log_h)),
            manager=manager,
            container=panel,
            object_id="#log_box",
        )
        self._place_log(manager, panel, lay)
        self.log_tip, self.log_tip_for = None, ""  # the manager was cleared: the old tooltip went with it
        bar = UIPanel(lay.bar, manager=manager, object_id="#action_bar")
        entries = bar_buttons(c)
        fixed_w = lay.px(118)
        inner_w = bar.get_container().get_rect().width  # the bar inside its frame
        room = inner_w - lay.px(18) - fixed_w
        inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
        self._bar = bar
        fit = self.bar_fit(lay, [e.text for e in entries], room)
        self._bar_style = (fit.rows, fit.object_id)
        for entry, text, rect in zip(entries, fit.texts, _bar_rects(lay, fit), strict=True):
            command = _Slot(self._entry_command(entry))
            button = self.scene.button(
                rect,
                text,
                command,
                container=bar,
                tooltip=entry.tooltip,
                enabled=entry.enabled,
                object_id=fit.object_id,
                class_id="@action",
            )
            button.draw_states_when_shown()
            self._entries.append((button, command))
            if entry.action is None:
                self.choice_buttons.append((button, entry.choice))
                continue
            if entry.selected:
                button.set_selected(True)
            self.action_buttons.append((button, entry.action))
        if c.pilot.active and c.session.spectating():  # nobody at the screen plays: a spectator's controls
            self._build_spectator(manager, bar, room, inner_h, lay)
        elif c.pilot.active:  # the computer has the decision: the bar says so instead of offering actions
            side = c.session.deciding_side() or ""
            who = f"{c.side_names.get(side, side)} ({c.session.seat_label(side)})"
            said = manager.get_theme().get_font(["label"])
            UILabel(
                pygame.Rect(lay.px(12), lay.px(4), room - lay.px(12), inner_h - lay.px(8)),
                fit_gui_text(said, f"{who} is playing \u2014 click or Space hurries it", room - lay.px(30)),
                manager=manager,
                container=bar,
                object_id="#ai_playing",
            )
        self._foresee_buttons(lay, room, fit.object_id)
        self._fixed_commands = fixed
        self._fixed = []
        for n, spec in enumerate(fixed_buttons(c)):
            self._fixed.append(self._fixed_button(lay, n, spec))
        self._lay = lay
        self._shape = self._shape_now(lay, entries)

    def _foresee_buttons(self, lay: Layout, room: int, object_id: str | None) -> None:
        """What :meth:`foresee` makes: a hidden spare bar button for each button of every foreseen bar
        (:attr:`BarNeeds.foreseen`) in the bar's type, at its place's size, with its text."""
        todo: list[tuple[str, pygame.Rect, str | None]] = []
        # first as many buttons of each size as one bar shows (any bar can then be shown by giving
        # buttons other texts, ~0.1 ms each, where a new button is ~0.5 ms), then the rest of the texts
        need: dict[tuple[int, int], int] = {}
        for texts in self.bar_needs.foreseen:
            fit = self.bar_fit(lay, list(texts), room)
            if fit.object_id == object_id and not fit.cut:
                rects = _bar_rects(lay, fit)
                todo.extend((t, r, object_id) for t, r in zip(fit.texts, rects, strict=True))
                sizes = [r.size for r in rects]
                for size in set(sizes):
                    need[size] = max(need.get(size, 0), sizes.count(size))
        firsts: list[int] = []
        for i, (_t, rect, _o) in enumerate(todo):
            if need.get(rect.size, 0) > 0:
                need[rect.size] -= 1
                firsts.append(i)
        chosen = set(firsts)
        self._to_foresee = [todo[i] for i in firsts] + [x for i, x in enumerate(todo) if i not in chosen]
        self._foreseen_widths = {}
        for _text, rect, _object_id in todo:
            self._foreseen_widths.setdefault(rect.height, set()).add(rect.width)
        self._stretched = ()
        self._faces_drawn = set()

    def foresee(self, budget_ms: float) -> bool:
        """Bar buttons made ahead, hidden, for :attr:`BarNeeds.foreseen` (every unit's bar), for at most
        ``budget_ms`` of CPU time (one at least): first a button of each height, its normal and disabled
        faces stretched to every foreseen width (:meth:`_stretch_faces`), then as many buttons of each
        size as one bar shows, then each text at its place's size that no button says yet, and last the
        other states' faces stretched. A unit's bar shown for the first time then takes buttons that
        already say its words, or gives others of the size its words, and a command draws no new face
        (issue 13). True while some are still to make."""
        deadline = time.process_time() + budget_ms / 1000  # CPU time, as the budgets
        if self._bar is None:
            return bool(self._to_foresee)
        have = {(b.text, b.relative_rect.size) for b, _slot in self._entries + self._spare}
        made = False
        if self._stretched == ():  # a button of each height first, its faces stretched to every width
            heights = {b.relative_rect.height for b, _slot in self._entries + self._spare}
            for text, rect, object_id in list(self._to_foresee):
                if rect.height not in heights and len(self._spare) < SPARE_BUTTONS:
                    heights.add(rect.height)
                    self._to_foresee.remove((text, rect, object_id))
                    have.add((text, rect.size))
                    self._make_spare(text, rect, object_id)
                    made = True
            if self._stretch_faces(BAR_STATES):
                self._stretched = BAR_STATES
        elif self._stretched is not None and not self._to_foresee:  # the rest (hovered, pressed, chosen)
            self._stretch_faces(None)
            self._stretched = None
        while self._to_foresee and (not made or time.process_time() < deadline):
            text, rect, object_id = self._to_foresee.pop(0)
            if (text, rect.size) in have or len(self._spare) >= SPARE_BUTTONS:
                continue
            have.add((text, rect.size))
            self._make_spare(text, rect, object_id)
            made = True
        return bool(self._to_foresee) or self._stretched is not None

    def _make_spare(self, text: str, rect: pygame.Rect, object_id: str | None) -> None:
        """A hidden bar button saying ``text`` at ``rect``, kept for a later bar (:meth:`foresee`)."""
        assert self._bar is not None
        slot = _Slot(lambda: None)
        button = self.scene.button(
            rect, text, slot, container=self._bar, object_id=object_id, class_id="@action"
        )
        button.draw_states_when_shown()
        if rect.size not in self._faces_drawn:  # its disabled face too, once a size (pygame-gui caches it)
            self._faces_drawn.add(rect.size)
            button.set_enabled(False)
            button.set_enabled(True)
        button.hide()
        self._spare.append((button, slot))
        self.foreseen_made += 1

    def _stretch_faces(self, states: tuple[str, ...] | None) -> bool:
        """Every foreseen bar button's faces in ``states`` (None: all) put in pygame-gui's shape cache,
        stretched from a bar button as tall (:func:`~game.ui.gui.stretch_faces`): a button made or shown
        at a size never drawn then draws no face. False while some height has no button yet to stretch
        from."""
        made = self._entries + self._spare
        done = True
        for height, widths in self._foreseen_widths.items():
            template = next((b for b, _slot in made if b.relative_rect.height == height), None)
            if template is None:
                done = False
                continue
            self.faces_stretched += stretch_faces(template, widths, states)
        return done

    def _fixed_rect(self, lay: Layout, n: int) -> pygame.Rect:
        """Where the ``n``-th fixed button goes: a column at the bar's right end, inside its frame."""
        fixed_w = lay.px(118)
        right = lay.bar.width - BAR_FRAME - lay.px(6)
        fixed_h = (lay.bar.height - lay.px(22) - lay.px(8)) // 3
        return pygame.Rect(right - fixed_w, lay.px(4) + n * (fixed_h + lay.px(4)), fixed_w, fixed_h)

    def _fixed_button(self, lay: Layout, n: int, spec: FixedButton) -> tuple[str, str | None, TipButton]:
        """The ``n``-th fixed button for ``spec``, in the largest type that holds its text: its key, its
        type's theme id and the button."""
        rect = self._fixed_rect(lay, n)
        object_id, text = fit_fixed(spec.text, rect.width, lay.s, _face)
        button = self.scene.button(
            rect,
            text,
            self._fixed_commands[spec.key],
            container=self._bar,
            tooltip=spec.tooltip,
            enabled=spec.enabled,
            object_id=object_id,
            class_id="@action",
        )
        button.draw_states_when_shown()
        self.buttons[spec.key] = button
        return spec.key, object_id, button

    def _entry_command(self, entry: BarButton) -> Callable[[], None]:
        c = self.controller
        if entry.action is not None:
            return functools.partial(c.choose, entry.action)
        return functools.partial(c.choose_option, entry.choice)

    def _shape_now(self, lay: Layout, entries: list[BarButton]) -> object:
        """What decides where every widget goes and which there are: the window size and UI scale and the
        computer player's state (its label and a spectator's controls,
        laid out for the bar's height). Two states of the same shape differ only in the bar's buttons
        (how many, their texts, type, tooltips and states), the bar's height, the fixed buttons and the
        shown unit's status chips: :meth:`refresh` updates those in place."""
        c = self.controller
        pilot = c.pilot
        ai = (pilot.active, pilot.active and c.session.deciding_side(), pilot.paused, pilot.pace)
        return (
            (lay.size, lay.s, lay.bar_extra if pilot.active else 0),
            ai,
            tuple(c.session.seats.values()) if pilot.active else (),
        )

    def refresh(self, lay: Layout) -> bool:
        """Bring the built widgets up to date in place when only their texts, tooltips and states changed
        (the usual case after a command: the same unit's actions with other costs and reasons), or the
        bar's height or type (:class:`BarNeeds`: a bar that needs more than any before) or a fixed button;
        False when the widgets must be built again (another shape: see :meth:`_shape_now`)."""
        c = self.controller
        entries = bar_buttons(c)
        if self._shape is None or self._shape != self._shape_now(lay, entries) or self._bar is None:
            return False
        if lay != self._lay:  # the bar takes more of the map: it grows upwards, its buttons placed again
            self._bar.set_relative_position(lay.bar.topleft)
            self._bar.set_dimensions(lay.bar.size)
            self._lay = lay
        room = self._bar.get_container().get_rect().width - lay.px(18) - lay.px(118)
        fit = self.bar_fit(lay, [e.text for e in entries], room)
        if fit.object_id != self._bar_style[1]:  # another type: a theme id is set when a button is made
            for button, _slot in self._entries + self._spare:
                button.kill()  # type: ignore[no-untyped-call]
            self._entries, self._spare = [], []
        self._bar_style = (fit.rows, fit.object_id)
        texts = list(fit.texts)
        self._fit_pool(texts, _bar_rects(lay, fit), fit.object_id)
        self.action_buttons, self.choice_buttons = [], []
        for (button, slot), entry, text in zip(self._entries, entries, texts, strict=True):
            _update(button, text, entry.tooltip)
            if entry.enabled != button.is_enabled:
                button.set_enabled(entry.enabled)
            slot.run = self._entry_command(entry)
            if entry.action is None:
                self.choice_buttons.append((button, entry.choice))
                continue
            if entry.selected != button.is_selected:
                button.set_selected(entry.selected)
            self.action_buttons.append((button, entry.action))
        self._refresh_fixed(lay)
        self._refresh_chips(lay)
        return True

    def _refresh_chips(self, lay: Layout) -> None:
        """The shown unit's status chips now: their tooltips updated in place; when the statuses changed
        ("Aimed", "Crouched"), the chips made again and the unit box (and its text) resized to the room
        they leave, the rest of the panel untouched (issue 13)."""
        c = self.controller
        shown = c.panel_unit()
        statuses = c.unit_view(shown).statuses if shown is not None and not c.covered else ()
        if [st.name for st in statuses] == [name for _chip, name in self.status_chips]:
            for (chip, _name), st in zip(self.status_chips, statuses, strict=True):
                chip.tool_tip_text = _chip_tip(st)
            return
        manager, panel, box, image = self.scene.manager, self._panel, self.unit_box, self.unit_image
        if manager is None or panel is None or box is None or image is None:
            return
        for chip, name in self.status_chips:  # hidden for the next time that status is shown
            chip.hide()
            self._chip_pool[(name, (int(chip.relative_rect.width), int(chip.relative_rect.height)))] = chip
        pw = lay.panel.width - lay.px(16)
        chips_h = self._build_status_chips(manager, panel, pw, lay)
        box.set_dimensions((pw, lay.px(250) - chips_h))
        frame = panel.get_container().get_abs_rect()
        inner = pygame.Rect(box.get_abs_rect()).clip(frame).inflate(-lay.px(8), -lay.px(10))
        image.set_relative_position(inner.move(-frame.x, -frame.y).topleft)
        image.set_dimensions(inner.size)
        image.set_image(self.unit_text.picture(inner.size))

    def _refresh_fixed(self, lay: Layout) -> None:
        """The fixed buttons now: each updated in place, or made again where another one (Auto-deploy,
        Back, End Turn) or another type is wanted in its place."""
        for n, spec in enumerate(fixed_buttons(self.controller)):
            key, object_id, button = self._fixed[n]
            rect = self._fixed_rect(lay, n)
            wanted, text = fit_fixed(spec.text, rect.width, lay.s, _face)
            if key != spec.key or wanted != object_id or button.relative_rect.size != rect.size:
                button.kill()  # type: ignore[no-untyped-call]
                self.buttons.pop(key, None)
                self._fixed[n] = self._fixed_button(lay, n, spec)
                continue
            if button.relative_rect.topleft != rect.topleft:
                button.set_relative_position(rect.topleft)
            _update(button, text, spec.tooltip)
            if spec.enabled != button.is_enabled:
                button.set_enabled(spec.enabled)

    def _fit_pool(self, texts: list[str], rects: list[pygame.Rect], object_id: str | None) -> None:
        """A bar button for each of ``texts``, placed as :meth:`build` places that many: one that already
        says the text at that size (the same unit's next turn), else one of that size given the text,
        else a new one. A button is never resized: a resized shape never fills pygame-gui's shape cache,
        where a new or relabelled one takes its face (the shaded frame, ~1 ms to draw) when that size
        was drawn before (the widths come in steps: :data:`~game.ui.layout_fit.WIDTH_STEP`); each draws
        only the state it shows (:meth:`TipButton.draw_states_when_shown`). The ones left over are
        hidden and kept for later turns, the most recently used first, at most :data:`SPARE_BUTTONS`."""
        if self._bar is None:
            return
        free = self._entries + self._spare
        chosen: list[tuple[TipButton, _Slot] | None] = [None] * len(texts)
        for same_text in (True, False):
            for i, (text, rect) in enumerate(zip(texts, rects, strict=True)):
                if chosen[i] is not None:
                    continue
                for k, (button, _slot) in enumerate(free):
                    if button.relative_rect.size == rect.size and (not same_text or button.text == text):
                        chosen[i] = free.pop(k)
                        button.relabel(text)
                        break
        for i, rect in enumerate(rects):
            if chosen[i] is None:
                slot = _Slot(lambda: None)
                button = self.scene.button(
                    rect, texts[i], slot, container=self._bar, object_id=object_id, class_id="@action"
                )
                button.draw_states_when_shown()
                chosen[i] = (button, slot)
        for button, _slot in free:
            if button.visible:
                button.hide()
        for button, _slot in free[SPARE_BUTTONS:]:
            button.kill()  # type: ignore[no-untyped-call]
        self._spare = free[:SPARE_BUTTONS]
        self._entries = [pair for pair in chosen if pair is not None]
        for (button, _slot), rect in zip(self._entries, rects, strict=True):
            if not button.visible:
                button.show()  # type: ignore[no-untyped-call]
            if button.relative_rect.topleft != rect.topleft:
                button.set_relative_position(rect.topleft)

    def bar_fit(self, lay: Layout, texts: list[str], room: int) -> BarFit:
        """How the bar's buttons labelled ``texts`` lie in ``room`` pixels across the bar of ``lay``, in
        the battle's bar type (:class:`BarNeeds`; a smaller one only if even that cannot hold them)."""
        return self._fit_from(lay, texts, room, self.bar_needs.font)

    @staticmethod
    def _fit_from(lay: Layout, texts: list[str], room: int, first: int) -> BarFit:
        """:meth:`bar_fit` trying the types from ``BAR_FONTS[first]`` down."""
        inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
        rows = 3 + lay.bar_extra // max(1, lay.px(BAR_ROW))
        return fit_bar(
            texts,
            room,
            inner_h,
            lay.s,
            face_at=_face,
            line_height=_line_height,
            max_rows=rows,
            fonts=BAR_FONTS[first:],
        )

    def bar_extra(self, lay: Layout) -> int:
        """The height the action bar takes beyond its usual one, in rows of :data:`BAR_ROW` (0: none): the
        most any of this battle's bars has needed, the buttons up now among them (:class:`BarNeeds`); the
        room across is as :meth:`build` lays it out (the panel's frame, the margins and the fixed buttons'
        column taken off)."""
        self.bar_needs.note(lay, [e.text for e in bar_buttons(self.controller)])
        return self.bar_needs.extra

    def _build_spectator(
        self, manager: GuiManager, bar: UIPanel, room: int, inner_h: int, lay: Layout
    ) -> None:
        """A battle between computer players: who plays now and at what pace on top, then Pause / Resume,
        Slower, Faster, Skip turn and a button per side to take its seat over (the battle goes on as a
        solo one)."""
        c = self.controller
        pilot = c.pilot
        side = c.session.deciding_side() or ""
        who = f"{c.side_names.get(side, side)} \u2014 {c.session.seat_label(side)}"
        state = "paused" if pilot.paused else f"pace {pilot.pace:g}\u00d7"
        said = manager.get_theme().get_font(["label"])
        top_h = (inner_h - lay.px(8)) // 2
        UILabel(
            pygame.Rect(lay.px(12), lay.px(2), room - lay.px(12), top_h),
            fit_gui_text(said, f"Watching: {who} is playing ({state})", room - lay.px(30)),
            manager=manager,
            container=bar,
            object_id="#ai_playing",
        )
        specs: list[tuple[str, str, Callable[[], None], str]] = [
            (
                "spectate_pause",
                "Resume" if pilot.paused else "Pause",
                pilot.toggle_pause,
                "Pause or resume (P)",
            ),
            ("spectate_slower", "Slower", lambda: pilot.faster(-1), "A slower pace ([)"),
            ("spectate_faster", "Faster", pilot.faster, "A faster pace (])"),
            ("spectate_skip", "Skip turn", pilot.skip, "Skip the waits and dice of this turn (Space)"),
        ]
        for s in c.session.seats:
            name = c.side_names.get(s, s)
            specs.append(
                (
                    f"take_over_{s}",
                    f"Play {name}",
                    functools.partial(c.take_over, s),
                    f"Take over {name} from its computer player: the battle goes on as a solo one",
                )
            )
        face = font(max(9, round(13 * lay.s)), bold=True)
        gap = lay.px(4)
        free = room - lay.px(6) - gap * (len(specs) - 1)
        # each button as wide as its words, the room left shared out (a long side name is cut last)
        needs = [face.size(text)[0] + lay.px(16) for _key, text, _command, _tip in specs]
        spare = (free - sum(needs)) // len(needs)
        if spare < 0:  # the controls take what they need first, the side buttons share the rest
            fixed = sum(needs[:4])
            rest = max(lay.px(40), (free - fixed) // max(1, len(specs) - 4))
            needs = needs[:4] + [rest] * (len(specs) - 4)
            if fixed + rest * (len(specs) - 4) > free:
                needs = [free // len(specs)] * len(specs)
            spare = 0
        y = lay.px(4) + top_h
        h = inner_h - lay.px(8) - top_h
        x = lay.px(6)
        for (key, text, command, tip), need in zip(specs, needs, strict=True):
            rect = pygame.Rect(x, y, need + spare, h)
            x = rect.right + gap
            self.buttons[key] = self.scene.button(
                rect,
                fit_text(face, text, rect.width - lay.px(10)),
                command,
                container=bar,
                tooltip=tip,
                class_id="@action",
            )

    def _build_status_chips(self, manager: GuiManager, panel: UIPanel, width: int, lay: Layout) -> int:
        """The selected unit's statuses as chips at the foot of the unit box, each with a tooltip quoting
        the rule it comes from; returns the height they take."""
        self.status_chips = []
        shown = self.controller.panel_unit()
        if shown is None or self.controller.covered:
            return 0
        statuses = self.controller.unit_view(shown).statuses
        if not statuses:
            return 0
        face = font(max(9, round(13 * lay.s)), bold=True)
        h, gap = lay.px(26), lay.px(4)
        rects: list[pygame.Rect] = []
        x, row = 0, 0
        for st in statuses:
            w = min(width, face.size(st.name)[0] + lay.px(22))
            if x and x + w > width:
                x, row = 0, row + 1
            rects.append(pygame.Rect(x, row * (h + gap), w, h))
            x += w + gap
        rows = row + 1
        top = lay.px(6) + lay.px(250) - rows * (h + gap)
        for st, rect in zip(statuses, rects, strict=True):
            tip = _chip_tip(st)
            place = rect.move(lay.px(6), top)
            chip = self._chip_pool.pop((st.name, place.size), None)
            if chip is not None:  # shown before in this battle: its face is drawn
                chip.set_relative_position(place.topleft)
                chip.tool_tip_text = tip
                chip.show()  # type: ignore[no-untyped-call]
            else:
                chip = TipButton(
                    place,
                    fit_text(face, st.name, rect.width - lay.px(8)),
                    manager=manager,
                    container=panel,
                    tool_tip_text=tip,
                    object_id=pygame_gui.core.ObjectID(object_id="#status_chip", class_id="@status_chip"),
                )
            self.status_chips.append((chip, st.name))
        return rows * (h + gap)

    def _place_log(self, manager: GuiManager, panel: UIPanel, lay: Layout) -> None:
        """The log's rows over its (empty) box: a picture :class:`LogView` paints, kept across rebuilds
        (its lines are laid out again only for a new width or type size)."""
        box = self.log_box
        assert box is not None
        size = int(_theme_cached(lay.s).get("text_box", {}).get("font", {}).get("size", 15))
        face = font(size, bold=False)
        border = lay.px(2)
        shown = pygame.Rect(box.get_abs_rect()).clip(panel.get_container().get_abs_rect())  # cut by the panel
        rect = shown.inflate(-2 * border, -2 * border)
        if self.log_view is None:
            self.log_view = LogView(face, rect)
        else:
            self.log_view.move_to(rect, face)
        view = self.log_view
        view.sync(self.controller.feed.log)
        picture = view.picture() or pygame.Surface(view.text_rect.size, pygame.SRCALPHA)
        inner = view.text_rect
        relative = inner.move(
            -panel.get_container().get_abs_rect().x, -panel.get_container().get_abs_rect().y
        )
        self.log_image = UIImage(relative, picture, manager=manager, container=panel)
        self.log_links = view.details

    def _place_unit_text(self, manager: GuiManager, panel: UIPanel, lay: Layout) -> None:
        """The unit panel's text over its (empty) box, drawn by :class:`RichText`."""
        box = self.unit_box
        assert box is not None
        size = int(_theme_cached(lay.s).get("text_box", {}).get("font", {}).get("size", 15))
        self.unit_text.points = size
        self.unit_text.set(self._unit_text())
        self.unit_text.html = ""  # laid out for the new size below
        self.unit_text.set(self._unit_text())
        frame = panel.get_container().get_abs_rect()
        inner = pygame.Rect(box.get_abs_rect()).clip(frame).inflate(-lay.px(8), -lay.px(10))
        self.unit_image = UIImage(
            inner.move(-frame.x, -frame.y),
            self.unit_text.picture(inner.size),
            manager=manager,
            container=panel,
        )

    @property
    def unit_html(self) -> str:
        """The unit panel's text now (its markup)."""
        return self.unit_text.html

    def scroll_unit(self, rows: int) -> None:
        """The mouse wheel over the unit panel: ``rows`` rows further down its text."""
        image = self.unit_image
        if image is None:
            return
        self.unit_text.scroll += rows * 20
        image.set_image(self.unit_text.picture((image.rect.width, image.rect.height)))

    def unit_rect(self) -> pygame.Rect | None:
        return pygame.Rect(self.unit_box.get_abs_rect()) if self.unit_box is not None else None

    def scroll_log(self, rows: int) -> bool:
        """The mouse wheel over the log: ``rows`` rows towards older lines. False when not over it."""
        if self.log_view is None:
            return False
        self.log_view.scroll_by(rows)
        self._show_log()
        return True

    def log_rect(self) -> pygame.Rect | None:
        """Where the log's box is on screen (None before the widgets are built)."""
        return pygame.Rect(self.log_box.get_abs_rect()) if self.log_box is not None else None

    def _show_log(self) -> None:
        view, image = self.log_view, self.log_image
        if view is None or image is None:
            return
        picture = view.picture()
        if picture is not None:
            image.set_image(picture)

    @staticmethod
    def _preload_fonts(manager: GuiManager, scale: float) -> None:
        """The unit panel's and log's rich text uses bold, italic and larger sizes of the text font:
        load them with the screen rather than on first use (pygame-gui warns otherwise)."""
        theme_font = _theme_cached(scale).get("text_box", {}).get("font", {})
        name, size = theme_font.get("name"), int(theme_font.get("size", 15))
        if not name:
            return
        fonts = manager.get_theme().get_font_dictionary()
        wanted = []
        for points, style in ((size, "bold"), (round(18 * scale), "bold"), (size, "italic")):
            font_id = fonts.create_font_id(points, name, style == "bold", style == "italic")
            if not fonts.check_font_preloaded(font_id):
                wanted.append({"name": name, "point_size": points, "style": style})
        if wanted:
            manager.preload_fonts(wanted)

    def update_panels(self) -> None:
        """The unit panel's and the log's texts now (set only when they changed)."""
        c = self.controller
        image = self.unit_image
        if image is not None and self.unit_text.set(self._unit_text()):
            image.set_image(self.unit_text.picture((image.rect.width, image.rect.height)))
        if self.log_view is not None:
            before = self.log_view.lines[-1] if self.log_view.lines else None
            self.log_view.sync(c.feed.log)
            if self.log_view.lines and self.log_view.lines[-1] is not before:
                self.log_view.scroll = 0  # a new line: the newest rows in view
            self.log_links = self.log_view.details
            self._show_log()
        self._update_log_tip()

    def _link_pieces(self) -> list[tuple[str, pygame.Rect]]:
        """Each piece of a linked log line (a long line wraps into several) and where it is on screen,
        the pieces scrolled out of the box left out."""
        if self.log_view is None or self.log_box is None or not self.log_box.alive():  # type: ignore[no-untyped-call]
            return []
        return self.log_view.link_pieces()

    def link_rects(self) -> dict[str, pygame.Rect]:
        """Where each linked log line in view starts on screen (the pointer over it shows its tooltip)."""
        out: dict[str, pygame.Rect] = {}
        for href, rect in self._link_pieces():
            out.setdefault(href, rect)
        return out

    def hovered_link(self) -> str:
        """The name of the log's linked line under the pointer ("" when none)."""
        manager = self.scene.manager
        if manager is None or not self.log_links:
            return ""
        # the pointer of the newest event (pygame-gui's own position is a frame behind until it updates)
        pointer = manager.pointer if manager.pointer is not None else manager.get_mouse_position()
        for href, rect in self._link_pieces():
            if href in self.log_links and rect.collidepoint(pointer):
                return href
        return ""

    def _update_log_tip(self) -> None:
        """A computer player's line under the pointer shows why it decided so (its score breakdown)."""
        href = self.hovered_link()
        if href == self.log_tip_for:
            return
        if self.log_tip is not None:
            self.log_tip.kill()
        self.log_tip, self.log_tip_for = None, href
        manager = self.scene.manager
        if not href or manager is None or self.log_box is None:
            return
        x, y = manager.pointer if manager.pointer is not None else manager.get_mouse_position()
        tip = manager.create_tool_tip(
            self.log_links[href], (x, y), (0, 18), self.log_box, None, wrap_width=self.log_box.rect.width + 60
        )
        tip.find_valid_position(pygame.math.Vector2(x, y))
        self.log_tip = tip

    def _unit_text(self) -> str:
        c = self.controller
        if c.handover:
            return ""
        unit = c.panel_unit()
        if unit is None:
            return "<b>No decision to make</b>"
        v = c.unit_view(unit)
        return unit_html(v, c.side_names.get(v.side, v.side), looking_only=unit == c.inspected)


def _chip_tip(st: Any) -> str:
    """A status chip's tooltip: the status, what it does now and the rule it comes from."""
    detail = f"<br>{esc(st.detail)}" if st.detail else ""
    return f"<b>{esc(st.name)}</b>{detail}<br><i>\u201c{esc(st.rule)}\u201d</i>"


def _update(button: pygame_gui.elements.UIButton, text: str, tooltip: str) -> None:
    """A button's text and tooltip, each set only when it changed (setting a text renders it)."""
    if button.text != text:
        button.set_text(text)
    if button.tool_tip_text != tooltip:
        button.tool_tip_text = tooltip


def _bar_rects(lay: Layout, fit: BarFit) -> list[pygame.Rect]:
    """Where each action bar button of ``fit`` goes, inside the bar's frame (:func:`fit_bar`'s rows)."""
    inner_h = lay.bar.height - lay.px(22)  # the panel's frame takes the rest
    row_h = min(lay.px(40), (inner_h - lay.px(4) * fit.rows) // fit.rows)  # the top margin and the gaps
    return [
        pygame.Rect(lay.px(6) + x, lay.px(4) + row * (row_h + lay.px(4)), width, row_h)
        for row, x, width in fit.places
    ]
