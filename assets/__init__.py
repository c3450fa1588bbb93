"""Hexslinger's art, tokens, UI theme and fonts: installed as the data package ``game.assets``.

No code lives here; this file only makes the folder a package so both a wheel and an editable install
(``pip install -e .``) find it. Read it through :mod:`game.resources`, see docs/ARCHITECTURE.md.
"""
