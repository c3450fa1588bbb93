"""Hexslinger's shipped encounter files: installed as the data package ``game.encounters``.

No code lives here; this file only makes the folder a package so both a wheel and an editable install
(``pip install -e .``) find it. Read them through :mod:`game.resources` (``encounters_dir``); the format
is docs/GM.md "Encounter files".
"""
