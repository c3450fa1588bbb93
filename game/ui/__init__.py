"""The only package that imports pygame / pygame_gui: screens, camera, map renderer, HUD."""

import os

# pygame prints a greeting on import unless told not to; it would land in `render-map` output.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
