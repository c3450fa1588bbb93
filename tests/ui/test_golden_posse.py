"""Golden Frontiers on the posse builder screen, which knows no ruleset: a character's four trait dice
bought with the points ("Players have four points to place into their Traits."), its equipment bought
with its money, an NPC template with nothing to choose."""

from __future__ import annotations

from typing import Any

from game.rules import get_ruleset
from tests.ui.helpers import click
from tests.ui.test_posse_screen import (  # noqa: F401 - the fixtures are used by name
    READY,
    builder,
    choice,
    data_dir,
    pick,
    press_widget,
    problems_text,
    tooltip_text,
    type_into,
)


def test_golden_character_traits_money_and_an_npc(builder: Any) -> None:  # noqa: F811 - the fixture
    app, scene, done = builder("golden")
    press_widget(app, scene, scene.kind_buttons["character"])
    assert scene.selected == 0 and scene.tab == "traits"
    unit = scene.draft.units[0]
    assert dict(unit.traits) == {"survival": 6, "intuition": 4, "reflexes": 8, "slickness": 6}
    shown = {b.text for (field, _key, _value), b in scene.choice_buttons.items() if field == "traits"}
    assert shown == {"4", "6", "8", "10", "12"}  # every die size fits its button
    # a fifth point is refused with the book's words
    d10 = choice(scene, "traits", "10", key="survival")
    assert not d10.is_enabled
    assert "four points to place" in tooltip_text(app, scene, d10)
    # lowering a trait is always allowed: a point to place again (a to-do)
    pick(app, scene, "traits", "4", key="reflexes")
    assert scene.draft.todo_left(0, "trait_points") == 2
    pick(app, scene, "traits", "10", key="slickness")  # two points into Slickness: money 10 + 2
    assert scene.draft.todo_left(0, "trait_points") == 0
    click(app, scene.tab_buttons["equipment"].rect.center)
    assert scene.tab == "equipment"
    pick(app, scene, "equipment", "knife")  # sell the knife: revolver and hat cost 4 of 12
    rifle = choice(scene, "equipment", "rifle")
    assert rifle.is_enabled
    pick(app, scene, "equipment", "rifle")  # 9 of 12
    shotgun = choice(scene, "equipment", "shotgun")
    assert not shotgun.is_enabled
    assert "costs 14, the character has 12" in tooltip_text(app, scene, shotgun)
    type_into(app, scene.widgets["unit_name"], "Calamity Kate")
    press_widget(app, scene, scene.kind_buttons["gunhand"])
    assert scene.selected == 1 and not scene.choice_buttons  # an NPC has nothing to choose
    type_into(app, scene.widgets["posse_name"], "Kate's Posse")
    assert READY in problems_text(scene)
    click(app, scene.widgets["done"].rect.center)
    spec, name = done[0]
    assert name == "Kate's Posse" and [u.kind for u in spec.units] == ["character", "gunhand"]
    assert dict(spec.units[0].options)["slickness"] == "10" and set(spec.units[0].loadout) == {
        "revolver",
        "hat",
        "rifle",
    }
    assert get_ruleset("golden").validate_posse(spec) == []
