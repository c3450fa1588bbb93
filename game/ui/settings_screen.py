"""The settings screen: window, UI scale, animation speed, sound and key bindings, on a parchment panel.

Changes are made to a draft; Save writes them (:func:`game.ui.prefs.save_prefs`) and applies what can be
applied at once (volume and mute, window size and fullscreen, UI scale). Back leaves; with unsaved changes
it asks first (a second Back discards them). To rebind a key, click its button and press the new key
(Esc cancels); a key another action had is swapped onto that action, so no key is bound twice.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import (
    UIDropDownMenu,
    UIHorizontalSlider,
    UILabel,
    UIPanel,
    UIScrollingContainer,
    UITextBox,
)

from game.ui.backdrop import draw_backdrop, draw_ornament, draw_parchment
from game.ui.gui import GuiManager, GuiScene, Shell, TipButton
from game.ui.prefs import ACTIONS, Prefs
from game.ui.scenes import Action, Pop

WINDOW_SIZES: Final = ((800, 600), (1024, 768), (1280, 720), (1366, 768), (1600, 900), (1920, 1080))
UI_SCALES: Final = (0.75, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0)
ANIMATION_SPEEDS: Final = (
    (0.25, "Very slow"),
    (0.5, "Slow"),
    (1.0, "Normal"),
    (2.0, "Fast"),
    (4.0, "Very fast"),
)
RULE: Final = (140, 96, 52)  # the ornament under the heading
CAPTURE_TEXT: Final = "Press a key\u2026"
UNBOUND_TEXT: Final = "\u2014"
KEYS_HINT: Final = "Click a key, then press the new one."
UNSAVED_NOTE: Final = "You have unsaved changes: Save them, or press Back again to leave without them."


def _home_relative(path: Path) -> str:
    try:
        return "~/" + path.relative_to(Path.home()).as_posix()
    except ValueError:
        return str(path)


def key_label(name: str) -> str:
    """How a pygame key name is shown: ``return`` -> ``Return``, ``f1`` -> ``F1``, ``a`` -> ``A``."""
    if not name:
        return UNBOUND_TEXT
    if len(name) == 1 or (name[0] == "f" and name[1:].isdigit()):
        return name.upper()
    return " ".join(part.capitalize() for part in name.split())


def size_label(size: tuple[int, int]) -> str:
    return f"{size[0]} \u00d7 {size[1]}"


def scale_label(scale: float) -> str:
    return f"{round(scale * 100)}%"


def speed_label(speed: float) -> str:
    for value, name in ANIMATION_SPEEDS:
        if abs(value - speed) < 1e-6:
            return f"{name} ({value:g}\u00d7)"
    return f"{speed:g}\u00d7"


class SettingsScene(GuiScene):
    def __init__(self, shell: Shell) -> None:
        super().__init__(shell)
        self.draft: Prefs = shell.prefs.copy()
        self.capturing: str | None = None
        self.note = ""
        self.sound_note = ""  # the note row's standing words (no sound device, no room above)
        self._warned_unsaved = False
        self._backdrop: pygame.Surface | None = None
        self.panel: UIPanel | None = None
        self._panel_rect = pygame.Rect(0, 0, 1, 1)
        self.widgets: dict[str, Any] = {}
        self.key_buttons: dict[str, TipButton] = {}
        self.key_list: UIScrollingContainer | None = None
        self._choices: dict[str, dict[str, Any]] = {}
        self._list_bottom = 0  # drop-down lists end above this (panel coordinates)

    @property
    def dirty(self) -> bool:
        return self.draft != self.shell.prefs

    # -- layout
    def build(self, manager: GuiManager) -> None:
        self._backdrop = None
        self.capturing = None
        self.widgets = {}
        self.key_buttons = {}
        w, h = self.size
        margin = self.px(20)
        pw = min(w - 2 * margin, self.px(1000))
        ph = min(h - 2 * margin, self.px(720))
        panel_rect = pygame.Rect((w - pw) // 2, (h - ph) // 2, pw, ph)
        self._panel_rect = panel_rect
        # The parchment itself is drawn with the backdrop (once per size); the panel only holds widgets.
        self.panel = panel = UIPanel(
            panel_rect.inflate(-2 * self.px(8), -2 * self.px(8)),
            manager=manager,
            object_id=ObjectID("#sheet"),
        )
        inner = pygame.Rect(
            0, 0, panel.get_container().get_rect().width, panel.get_container().get_rect().height
        )
        pad = self.px(22)
        UILabel(
            pygame.Rect(pad, self.px(10), inner.width - 2 * pad, self.px(50)),
            "Settings",
            manager=manager,
            container=panel,
            object_id=ObjectID("#heading", "@heading"),
        )
        top = self.px(74)
        bottom_bar = self.px(50)
        note_h = self.px(28)
        body = pygame.Rect(
            pad, top, inner.width - 2 * pad, inner.height - top - bottom_bar - note_h - self.px(14)
        )
        gap = self.px(30)
        two_columns = body.width >= self.px(620)
        if two_columns:
            col_w = (body.width - gap) // 2
            left = pygame.Rect(body.x, body.y, col_w, body.height)
            right = pygame.Rect(body.x + col_w + gap, body.y, col_w, body.height)
        else:
            split = self.px(300)
            left = pygame.Rect(body.x, body.y, body.width, split)
            right = pygame.Rect(body.x, body.y + split, body.width, body.height - split)
        self.sound_note = ""  # set by _build_general when the note row must say there is no sound
        self._build_general(manager, panel, left, inner)
        self._build_keys(manager, panel, right)

        note_rect = pygame.Rect(
            pad, inner.height - bottom_bar - note_h - self.px(8), inner.width - 2 * pad, note_h
        )
        self.widgets["note"] = UILabel(
            note_rect,
            self.note or self.sound_note or " ",
            manager=manager,
            container=panel,
            object_id=ObjectID("#note", "@note"),
        )
        bw, bh = self.px(140), self.px(42)
        y = inner.height - bh - self.px(12)
        x = inner.width - pad - bw
        self.widgets["save"] = self.button(
            pygame.Rect(x, y, bw, bh), "Save", self.save, object_id="#save", container=panel
        )
        self.widgets["back"] = self.button(
            pygame.Rect(x - bw - self.px(12), y, bw, bh),
            "Back",
            self.back,
            object_id="#back",
            container=panel,
        )
        self.widgets["defaults"] = self.button(
            pygame.Rect(pad, y, self.px(170), bh),
            "Defaults",
            self.reset_defaults,
            object_id="#defaults",
            container=panel,
            tooltip="Put every setting back to how the game ships (Save keeps it).",
        )

    def _row(self, rect: pygame.Rect, i: int, text: str, manager: GuiManager, panel: UIPanel) -> pygame.Rect:
        """The label of row ``i`` of a column, and the rectangle left for its control."""
        row_h, step = self.px(36), self.px(46)
        y = rect.y + self.px(40) + i * step
        label_w = round(rect.width * 0.44)
        UILabel(pygame.Rect(rect.x, y, label_w, row_h), text, manager=manager, container=panel)
        return pygame.Rect(rect.x + label_w, y, rect.width - label_w, row_h)

    def _section(self, rect: pygame.Rect, text: str, manager: GuiManager, panel: UIPanel) -> None:
        UILabel(
            pygame.Rect(rect.x, rect.y, rect.width, self.px(32)),
            text,
            manager=manager,
            container=panel,
            object_id=ObjectID(class_id="@section"),
        )

    def _dropdown(
        self, name: str, options: list[tuple[str, Any]], current: tuple[str, Any], rect: pygame.Rect
    ) -> None:
        """A drop-down of (label, value) options showing ``current`` (added when not among them)."""
        labels: list[str | tuple[str, str]] = [label for label, _ in options]
        if current[0] not in labels:
            labels.append(current[0])
        self._choices[name] = {**dict(options), current[0]: current[1]}
        self.widgets[name] = UIDropDownMenu(
            labels,
            current[0],
            rect,
            manager=self.manager,
            container=self.panel,
            object_id=ObjectID(f"#{name}"),
            expansion_height_limit=max(self.px(60), self._list_bottom - rect.bottom),
        )

    def _build_general(
        self, manager: GuiManager, panel: UIPanel, rect: pygame.Rect, inner: pygame.Rect
    ) -> None:
        d = self.draft
        self._section(rect, "Display & sound", manager, panel)
        self._list_bottom = inner.height - self.px(70)

        control = self._row(rect, 0, "Window size", manager, panel)
        sizes = [(size_label(s), s) for s in WINDOW_SIZES]
        self._dropdown("window_size", sizes, (size_label(d.window_size), d.window_size), control)

        control = self._row(rect, 1, "Fullscreen", manager, panel)
        self.widgets["fullscreen"] = self._toggle(control, "fullscreen", d.fullscreen, ("On", "Off"))

        control = self._row(rect, 2, "UI scale", manager, panel)
        scales = [(scale_label(s), s) for s in UI_SCALES]
        self._dropdown("ui_scale", scales, (scale_label(d.ui_scale), d.ui_scale), control)

        control = self._row(rect, 3, "Animation speed", manager, panel)
        speeds = [(speed_label(v), v) for v, _ in ANIMATION_SPEEDS]
        self._dropdown(
            "animation_speed", speeds, (speed_label(d.animation_speed), d.animation_speed), control
        )

        control = self._row(rect, 4, "Volume", manager, panel)
        value_w = self.px(56)
        slider_rect = pygame.Rect(
            control.x,
            control.y + self.px(4),
            control.width - value_w - self.px(8),
            control.height - self.px(8),
        )
        self.widgets["volume"] = UIHorizontalSlider(
            slider_rect,
            round(d.volume * 100),
            (0, 100),
            manager=manager,
            container=panel,
            object_id=ObjectID("#volume"),
            click_increment=5,
        )
        self.widgets["volume_value"] = UILabel(
            pygame.Rect(control.right - value_w, control.y, value_w, control.height),
            f"{round(d.volume * 100)}%",
            manager=manager,
            container=panel,
            object_id=ObjectID("#volume_value", "@value"),
        )

        control = self._row(rect, 5, "Sound", manager, panel)
        self.widgets["muted"] = self._toggle(control, "muted", d.muted, ("Muted", "On"))

        control = self._row(rect, 6, "Try a sound", manager, panel)
        half = (control.width - self.px(8)) // 2
        silent = self.no_sound()
        for i, (name, text) in enumerate((("gunshot", "Gunshot"), ("dice", "Dice"))):
            self.widgets[f"try_{name}"] = self.button(
                pygame.Rect(control.x + i * (half + self.px(8)), control.y, half, control.height),
                text,
                lambda n=name: self.preview(n),  # type: ignore[misc]
                object_id=f"#try_{name}",
                class_id="@toggle",
                container=panel,
                sound=None,
                tooltip=f"No sound: {silent}." if silent else "Plays at the volume set above (before saving)",
                enabled=not silent,
            )

        # without a sound device the game says so here, once, rather than playing nothing
        # the reason in short here (the device's own words are in the greyed buttons' tooltips)
        short = silent.split(" (", 1)[0]
        said = f"<b>No sound:</b> {html.escape(short)}; the game plays silently." if silent else ""
        kept = (
            f"Settings are kept in {html.escape(_home_relative(self.shell.settings_file))}<br>"
            "Esc goes back; Ctrl+Enter saves."
        )
        top = control.bottom + self.px(16)
        if not silent:
            where = pygame.Rect(rect.x, top, rect.width, self.px(64))
            if where.bottom <= rect.bottom:
                self.widgets["where"] = self._fine_print(kept, where)
            return
        # the missing sound is said first, whole; where the settings are kept only if room is left
        for text in (f"{said}<br>{kept}", said):
            box = self._fine_print(text, pygame.Rect(rect.x, top, rect.width, -1))  # as tall as its text
            if box.get_relative_rect().bottom <= rect.bottom:
                self.widgets["where"] = box
                return
            box.kill()
        # no room in the column (a large UI scale): the note row under both columns says it, on one line
        self.sound_note = "No sound: the game plays silently (Try a sound says why)."

    def _fine_print(self, text: str, rect: pygame.Rect) -> UITextBox:
        kind = ObjectID("#where", "@fine_print")
        return UITextBox(text, rect, manager=self.manager, container=self.panel, object_id=kind)

    def _toggle(self, rect: pygame.Rect, name: str, value: bool, texts: tuple[str, str]) -> TipButton:
        button = self.button(
            rect,
            texts[0] if value else texts[1],
            lambda: self._flip(name, texts),
            object_id=f"#{name}",
            class_id="@toggle",
            container=self.panel,
        )
        button.set_selected(value)
        return button

    def _flip(self, name: str, texts: tuple[str, str]) -> None:
        value = not bool(getattr(self.draft, name))
        setattr(self.draft, name, value)
        button = self.widgets[name]
        button.set_text(texts[0] if value else texts[1])
        button.set_selected(value)
        self._changed()

    def _build_keys(self, manager: GuiManager, panel: UIPanel, rect: pygame.Rect) -> None:
        self._section(rect, "Keys", manager, panel)
        UILabel(
            pygame.Rect(rect.x, rect.y + self.px(32), rect.width, self.px(24)),
            KEYS_HINT,
            manager=manager,
            container=panel,
            object_id=ObjectID("#keys_hint", "@note"),
        )
        list_rect = pygame.Rect(rect.x, rect.y + self.px(60), rect.width, rect.height - self.px(60))
        self.key_list = scroller = UIScrollingContainer(
            list_rect, manager=manager, container=panel, allow_scroll_x=False, object_id=ObjectID("#key_list")
        )
        row_h, step = self.px(30), self.px(36)
        bar = self.px(20)  # room for the scroll bar
        width = list_rect.width - bar
        button_w = round(width * 0.42)
        for i, (action, (label, _default)) in enumerate(ACTIONS.items()):
            y = i * step
            UILabel(pygame.Rect(0, y, width - button_w, row_h), label, manager=manager, container=scroller)
            self.key_buttons[action] = self.button(
                pygame.Rect(width - button_w, y, button_w, row_h),
                key_label(self.draft.key_bindings.get(action, "")),
                lambda a=action: self.start_capture(a),  # type: ignore[misc]
                object_id=f"#key_{action}",
                class_id="@key_button",
                container=scroller,
            )
        scroller.set_scrollable_area_dimensions((width, len(ACTIONS) * step))

    def no_sound(self) -> str:
        """Why no effect can play, or "" when they can (no sound bank at all: nothing to say)."""
        sounds = self.shell.sounds
        if sounds is None or sounds.available:
            return ""
        return sounds.problem or "no sound device could be opened"

    def preview(self, name: str) -> None:
        self._sync_from_widgets()
        if self.shell.sounds is not None:
            self.shell.sounds.play(name, volume=self.draft.effective_volume)

    # -- state changes
    def _changed(self) -> None:
        self._warned_unsaved = False

    def set_note(self, text: str) -> None:
        self.note = text
        note = self.widgets.get("note")
        if isinstance(note, UILabel):
            note.set_text(text or self.sound_note or " ")

    def start_capture(self, action: str) -> None:
        self.cancel_capture()
        self.capturing = action
        button = self.key_buttons[action]
        button.set_text(CAPTURE_TEXT)
        button.set_selected(True)
        self.set_note(
            f"Press the key for \u201c{ACTIONS[action][0]}\u201d, or Esc to keep "
            f"{key_label(self.draft.key_bindings.get(action, ''))}."
        )

    def cancel_capture(self) -> None:
        if self.capturing is not None:
            button = self.key_buttons[self.capturing]
            button.set_selected(False)
            button.set_text(key_label(self.draft.key_bindings.get(self.capturing, "")))
            self.capturing = None
            self.set_note("")

    def bind(self, action: str, key_name: str) -> None:
        other = self.draft.rebind(action, key_name)
        self.capturing = None
        for name, button in self.key_buttons.items():
            button.set_selected(False)
            button.set_text(key_label(self.draft.key_bindings.get(name, "")))
        if other is not None:
            self.set_note(
                f"{key_label(key_name)} now does \u201c{ACTIONS[action][0]}\u201d; "
                f"\u201c{ACTIONS[other][0]}\u201d moved to {key_label(self.draft.key_bindings[other])}."
            )
        else:
            self.set_note(f"{key_label(key_name)} now does \u201c{ACTIONS[action][0]}\u201d.")
        self._changed()

    def _sync_from_widgets(self) -> None:
        """Read the controls into the draft (drop-downs and the slider keep their own state)."""
        for name in ("window_size", "ui_scale", "animation_speed"):
            widget = self.widgets.get(name)
            if isinstance(widget, UIDropDownMenu):
                label = (
                    widget.selected_option[0]
                    if isinstance(widget.selected_option, tuple)
                    else widget.selected_option
                )
                value = self._choices.get(name, {}).get(label)
                if value is not None:
                    setattr(self.draft, name, value)
        slider = self.widgets.get("volume")
        if isinstance(slider, UIHorizontalSlider):
            self.draft.volume = min(1.0, max(0.0, float(slider.get_current_value()) / 100))

    def save(self) -> None:
        self.cancel_capture()
        self._sync_from_widgets()
        scale_changed = self.draft.ui_scale != self.shell.prefs.ui_scale
        try:
            path = self.shell.save(self.draft)
        except OSError as error:
            self.set_note(f"Could not save the settings: {error}")
            return
        self.note = f"Saved to {path}"
        self._warned_unsaved = False
        if scale_changed:
            self.rebuild()
        else:
            self.set_note(self.note)

    def back(self) -> None:
        self.cancel_capture()
        self._sync_from_widgets()
        if self.dirty and not self._warned_unsaved:
            self._warned_unsaved = True
            self.set_note(UNSAVED_NOTE)
            return
        self.act(Pop())

    def reset_defaults(self) -> None:
        self.draft = Prefs()
        self.note = "Defaults restored: Save to keep them."
        self._warned_unsaved = False
        self.rebuild()

    # -- events
    def on_event(self, event: pygame.event.Event, consumed: bool) -> Action | None:
        if event.type == pygame.KEYDOWN:
            if self.capturing is not None:
                if event.key == pygame.K_ESCAPE:
                    self.cancel_capture()
                else:
                    name = pygame.key.name(event.key)
                    if name:
                        self.bind(self.capturing, name)
                return None
            if event.key == pygame.K_ESCAPE:
                self.back()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and event.mod & pygame.KMOD_CTRL:
                self.save()
        elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED and event.ui_element is self.widgets.get(
            "volume"
        ):
            self.draft.volume = min(1.0, max(0.0, float(event.value) / 100))
            self.widgets["volume_value"].set_text(f"{round(self.draft.volume * 100)}%")
            self._changed()
        elif event.type == pygame_gui.UI_DROP_DOWN_MENU_CHANGED:
            self._sync_from_widgets()
            self._changed()
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self.capturing is not None and not self.key_buttons[self.capturing].rect.collidepoint(
                event.pos
            ):
                self.cancel_capture()  # clicking anywhere else gives up the rebind
            self._click_slider_track(event.pos)
        return None

    def _click_slider_track(self, pos: tuple[int, int]) -> None:
        """Clicking the volume bar beside its handle jumps the handle there (pygame-gui only drags)."""
        slider = self.widgets.get("volume")
        if not isinstance(slider, UIHorizontalSlider) or not slider.rect.collidepoint(pos):
            return
        handle = slider.sliding_button
        if handle is not None and handle.rect.collidepoint(pos):
            return
        track = slider.rect.inflate(-2 * self.px(11), 0)
        fraction = min(1.0, max(0.0, (pos[0] - track.x) / max(1, track.width)))
        value = round(fraction * 100)
        slider.set_current_value(value, warn=False)
        self.draft.volume = value / 100
        self.widgets["volume_value"].set_text(f"{value}%")
        self._changed()

    # -- drawing
    def draw_background(self, surface: pygame.Surface) -> None:
        if self._backdrop is None or self._backdrop.get_size() != self.size:
            self._backdrop = draw_backdrop(self.size, dim=0.35)
            draw_parchment(self._backdrop, self._panel_rect, frame=self.px(8))
            rect = self._panel_rect
            draw_ornament(
                self._backdrop, (rect.centerx, rect.y + self.px(78)), min(self.px(220), rect.width // 3), RULE
            )
        surface.blit(self._backdrop, (0, 0))


SettingsFactory = Callable[[], SettingsScene]
