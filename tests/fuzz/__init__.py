"""Seeded fuzzing of everything a user hands the game: saves, maps and tilesets, commands, settings.

``corpus`` builds the seed files (real saves of random games on the shipped maps, the shipped maps,
settings), ``mutators`` damages them in ways chosen from what broke before (truncation, byte flips, type
swaps, deep nesting, huge numbers, Unicode digits, path-like names, zip/deflate bombs, XML entity tricks),
``targets`` feeds one damaged file to the loaders the game uses and says whether it was accepted or
refused, and ``runner`` runs the cases in a worker process it watches: an exception escaping a loader is a
crash, a case that takes longer than the hang limit is a hang. A short seeded run is part of the test suite
(``test_fuzz.py``); ``make fuzz`` runs a long one (``python -m tests.fuzz``).
"""
