"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import settings

# No test asserts a wall-clock time (docs/PERFORMANCE.md): hypothesis's per-example deadline would fail a
# property on a busy CI machine for no fault of the code, so properties run without one.
settings.register_profile("hexslinger", deadline=None)
settings.load_profile("hexslinger")
