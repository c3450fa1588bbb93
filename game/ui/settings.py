"""Every window, camera and look-and-feel constant of the UI, in one place."""

from __future__ import annotations

from typing import Final

Color = tuple[int, int, int]
ColorA = tuple[int, int, int, int]

# -- window
WINDOW_SIZE: Final = (1280, 720)
WINDOW_TITLE: Final = "Hexslinger"
TITLE_SEPARATOR: Final = " \u2014 "  # "Hexslinger — <map title>"
FPS_LIMIT: Final = 60
# Idle (issue 13: an idle window took ~60% of a core): after IDLE_AFTER seconds with no input, no key or
# button held and nothing moving on screen (Scene.animating), the window looks for input IDLE_POLL_FPS
# times a second and draws a frame only every IDLE_REDRAW_SECONDS (a tooltip, the acting token's pulse);
# the first input brings the full rate back at once.
IDLE_AFTER: Final = 1.0
IDLE_POLL_FPS: Final = 30
IDLE_REDRAW_SECONDS: Final = 0.5
MIN_WINDOW_SIZE: Final = (320, 240)

# -- camera
ZOOM_MIN: Final = 0.25
ZOOM_MAX: Final = 3.0
ZOOM_STEP: Final = 1.15  # one mouse-wheel notch multiplies or divides the zoom by this
# Zoom snaps to a quantum so the per-zoom map cache is reused instead of rebuilt for 1.0000001 vs 1.0.
ZOOM_QUANTUM: Final = 1 / 64
KEY_PAN_SPEED: Final = 900.0  # screen pixels per second for WASD / arrow keys
# The camera keeps the window on the map (no empty margin beside it); a map smaller than the window is
# centred in it.
DRAG_BUTTONS: Final = (1, 2)  # left and middle mouse button pan

# -- map cache
CHUNK_SIZE: Final = 256  # map pixels per cache chunk edge (at zoom 1)
# The map pictures kept, by the bytes of their pixels (least recently drawn dropped first): the chunks at
# zoom 1 the others are scaled from, and the scaled ones. A 1280x720 window shows at most ~20 MB of them at
# any zoom, so a few screens' worth of panning stays cached (issue 13: 496 MB on the largest map before).
BASE_CACHE_BYTES: Final = 32 * 1024 * 1024
ZOOMED_CACHE_BYTES: Final = 48 * 1024 * 1024
# The chunks a frame builds at most (milliseconds of its time); the rest are built over the next frames,
# the part of the view they cover shown meanwhile from another zoom level's picture if one is cached.
CHUNK_BUILD_BUDGET_MS: Final = 6.0
CHUNK_STAND_IN_MS: Final = 4.0  # and the stand-ins it makes for the chunks still to come, at most
# A frame in which nothing moved builds chunks not in view yet, nearest first, for at most this long (one at
# least), while the cache they go into stays under AHEAD_SHARE of its bytes: the camera's jump to the next
# unit then finds its picture drawn (issue 13: the first frame after a command).
AHEAD_BUDGET_MS: Final = 3.0
AHEAD_SHARE: Final = 0.75
# Opening a battle (a 250 ms budget) makes every unit's action bar buttons ahead for at most OPEN_FORESEE_MS
# (their faces stretched from one drawn a height, then as many buttons of each size as one bar shows, then
# each unit's words: 0.5-1.3 ms a button) and builds the map's chunks around the view for at most
# OPEN_AHEAD_MS; quiet frames go on with the rest (issue 13: no command draws a button face, nor, where the
# opening got to it, a map chunk).
OPEN_FORESEE_MS: Final = 45.0  # CPU time
OPEN_AHEAD_MS: Final = 30.0

# -- colours
VOID_COLOR: Final[Color] = (28, 24, 20)  # around the map when it has no background colour
GRID_COLOR: Final[ColorA] = (0, 0, 0, 90)
COORD_TEXT_COLOR: Final[Color] = (20, 20, 20)
COORD_SHADOW_COLOR: Final[Color] = (245, 240, 225)

# Hover outline: a dark wide band under a bright narrow one reads on light and dark terrain alike and
# by shape and contrast, not by hue, so it works for colour-blind players too.
HOVER_OUTER_COLOR: Final[Color] = (20, 14, 8)
HOVER_INNER_COLOR: Final[Color] = (255, 236, 170)
HOVER_OUTER_WIDTH: Final = 9
HOVER_INNER_WIDTH: Final = 4

# Status bar: parchment on a wood frame.
STATUS_HEIGHT: Final = 34
STATUS_BG: Final[Color] = (233, 216, 178)
STATUS_BG_SHADE: Final[Color] = (214, 192, 146)
STATUS_BORDER: Final[Color] = (92, 58, 30)
STATUS_BORDER_LIGHT: Final[Color] = (150, 102, 58)
STATUS_TEXT: Final[Color] = (52, 33, 16)
STATUS_TEXT_DIM: Final[Color] = (120, 92, 60)
STATUS_WARN: Final[Color] = (140, 30, 20)
STATUS_FONT_SIZE: Final = 17

# Error screen (a map that could not be loaded)
ERROR_BG: Final[Color] = (40, 30, 24)
ERROR_PANEL: Final[Color] = (233, 216, 178)
ERROR_TITLE: Final[Color] = (140, 30, 20)
ERROR_TEXT: Final[Color] = (52, 33, 16)
ERROR_FONT_SIZE: Final = 16

# -- unit tokens (game/ui/tokens.py; art from tools/gen_tokens.py)
# Rim colours. A side's rim *shape* comes from its position (star, rope, dashed, beaded) so sides differ
# without colour; the colour comes from the faction if its ruleset plugin gives one (Faction.color), else
# from the position. Side 1 is light and side 2 dark, so they differ in greyscale too.
TOKEN_SIDE_COLORS: Final[tuple[Color, ...]] = (
    (206, 214, 230),  # steel
    (158, 46, 38),  # oxblood
    (92, 160, 132),  # verdigris
    (92, 100, 176),  # indigo
)
TOKEN_HEX_FILL: Final = 55 / 64  # one token's base diameter / the hex's inscribed diameter
TOKEN_HEX_MARGIN: Final = 0.97  # several tokens stay inside this share of the inscribed circle
TOKEN_OVERLAP: Final = 0.12  # tokens in a crowded hex may overlap by this share of their diameter
TOKEN_CACHE_LIMIT: Final = 800  # scaled tokens and markers kept (LRU)
TOKEN_PULSE_SECONDS: Final = 1.2  # the acting ring's pulse period
TOKEN_PULSE_STEPS: Final = 12  # pulse sizes cached per token size
TOKEN_BAR_STEPS: Final = 40  # resolve bar fill is shown in this many steps
TOKEN_BADGE_MIN: Final = 11  # status badge size in px, never smaller
TOKEN_DETAIL_MIN: Final = 16  # below this base diameter (px) health and badges are left out
TOKEN_BADGE_MAX: Final = 4  # badges shown; more collapse into "+n"
TOKEN_MARK_DARK: Final[Color] = (24, 16, 10)
TOKEN_ACTING_COLOR: Final[Color] = (255, 214, 96)
TOKEN_SELECTED_COLOR: Final[Color] = (250, 246, 232)
TOKEN_PIP_COLOR: Final[Color] = (232, 72, 52)  # a wound left: a filled pip with a highlight
TOKEN_PIP_EMPTY: Final[Color] = (110, 92, 78)  # a wound lost: a hollow ring (shape, not only colour)
TOKEN_BAR_COLOR: Final[Color] = (236, 184, 70)
TOKEN_BAR_EMPTY: Final[Color] = (70, 52, 40)
TOKEN_BADGE_HELPFUL: Final[Color] = (238, 228, 200)
TOKEN_BADGE_HELPFUL_TEXT: Final[Color] = (40, 28, 18)
TOKEN_BADGE_HARMFUL: Final[Color] = (150, 34, 28)
TOKEN_BADGE_HARMFUL_TEXT: Final[Color] = (255, 244, 226)
TOKEN_OUT_X: Final[Color] = (120, 24, 18)
TOKEN_OUT_X_EDGE: Final[Color] = (240, 230, 210)
TOKEN_OUT_ANGLE: Final = -24.0  # degrees an out-of-action token is knocked askew
TOKEN_DOWNED_DIM: Final[Color] = (200, 185, 170)  # a downed token keeps its colours, dimmed by this
TOKEN_DOWNED_CROSS: Final[Color] = (200, 30, 24)  # the medic's cross on a downed token
