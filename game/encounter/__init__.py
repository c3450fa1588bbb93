"""Encounter files: a game master's encounter (map, ruleset, posses, who plays them, starts,
reinforcements, round limit, objectives) in one TOML file (docs/GM.md "Encounter files").

:mod:`game.encounter.load` reads and checks one (every problem at once); :mod:`game.encounter.write`
writes one from a battle's setup (New Battle's "Save encounter"); :mod:`game.encounter.cli` is
``hexslinger check-encounter``. The rules an encounter adds are the engine's
(:mod:`game.engine.scenario`), the same for every ruleset.
"""

# Nothing is imported here: `hexslinger` registers game.encounter.cli without loading the rules.
