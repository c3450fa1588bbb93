"""The New Battle screen, driven by posted mouse and key events: from the title to a battle of the right
ruleset; maps with problems; posses; seats; the seed; the layout at both window sizes."""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest
from pygame_gui.elements import UIDropDownMenu

from ai.agent import UtilityAgent
from ai.profile import difficulty
from game.posses import default_posses, posse_dir, save_posse
from game.rules import PosseSpec, UnitSpec
from game.ui import newbattle
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.dialogs import MessageDialog
from game.ui.flow import Flow
from game.ui.newbattle import NewBattleScene
from game.ui.prefs import Prefs
from game.ui.session import latest_autosave
from tests.plugins import installed_plugin
from tests.ui.flow_kit import (
    RANCH,
    click_rect,
    default_setup,
    maps_folder,
    names,
    posse,
    title_app,
    type_text,
)
from tests.ui.helpers import click, make_shell, move, press, step

AppMaker = Callable[[tuple[int, int]], App]


def open_new_battle(app: App, flow: Flow | None = None) -> NewBattleScene:
    title, _flow = title_app(app, flow=flow)
    click(app, title.buttons["new_battle"].rect.center)
    screen = app.top
    assert isinstance(screen, NewBattleScene), names(app)
    return screen


def pick_option(app: App, dropdown: UIDropDownMenu, text: str) -> None:
    """Open a drop-down and click the option showing ``text``."""
    click(app, dropdown.rect.center)
    options = dropdown.current_state.options_selection_list
    for item in options.item_list:
        if item["text"] == text and item["button_element"] is not None:
            click(app, item["button_element"].rect.center, frames=4)  # pygame-gui passes it on by events
            return
    raise AssertionError(f"{text!r} not among {[i['text'] for i in options.item_list]}")


def shown(dropdown: object) -> str:
    option = dropdown.selected_option  # type: ignore[attr-defined]
    return option[0] if isinstance(option, tuple) else option


def test_title_to_a_through_the_rift_battle_on_ranch_duel_with_the_default_posses(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    assert names(app) == ["TitleScene", "LiveNewBattleScene"]
    click(app, screen.buttons["ruleset_rift"].rect.center)
    assert screen.ruleset == "rift"
    assert screen.buttons["ruleset_rift"].is_selected and not screen.buttons["ruleset_frontier"].is_selected
    ranch = [p.stem for p in screen.maps].index("ranch_duel")
    assert screen.map_list is not None
    click_rect(app, screen.map_list.row_rect(ranch))
    assert screen.current_map == screen.maps[ranch]
    # the built-in posses: Rifter Crew against Outlaw Gang
    assert [shown(d).split(" \u2014")[0] for d in screen.dropdowns] == ["Rifter Crew", "Outlaw Gang"]
    seed = int(screen.seed_text)
    click(app, screen.buttons["start"].rect.center)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    assert names(app) == ["TitleScene", "GuardedBattleScreen"]
    match = battle.session.match
    assert match.ruleset.name == "rift"
    assert match.map_path == RANCH
    assert match.seed == seed
    assert [p.name for p in match.posses] == ["Rifter Crew", "Outlaw Gang"]
    assert [p.side for p in match.posses] == ["side1", "side2"]  # the map's deploy zones
    assert battle.session.seats == {"side1": "human", "side2": "human"}
    # saved at once, so Continue works from the first moment
    assert latest_autosave(Flow(battle.shell).autosave_dir) is not None
    step(app, 3)  # the battle screen draws


def test_frontier_is_the_first_ruleset_and_its_default_posses_face_each_other(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    assert screen.ruleset == "frontier"
    assert screen.current_map is not None and screen.current_map.stem == "ranch_duel"
    assert [shown(d).split(" \u2014")[0] for d in screen.dropdowns] == ["Sheriff's Posse", "Blackwater Gang"]
    press(app, pygame.K_RETURN)  # Enter starts
    assert isinstance(app.top, BattleScreen)
    assert app.top.session.match.ruleset.name == "frontier"
    assert posse(app.top, "side2").name == "Blackwater Gang"


def test_a_saved_posse_is_offered_and_fights(make_app: AppMaker) -> None:
    save_posse(default_posses("frontier")[0], "Marshal's Men")
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    labels = screen.side_options(1)
    saved = next(label for label in labels if label.startswith("Marshal's Men"))
    assert "saved" in saved
    pick_option(app, screen.dropdowns[1], saved)
    assert screen.sides[1].posse == "Marshal's Men"
    click(app, screen.buttons["start"].rect.center)
    assert isinstance(app.top, BattleScreen)
    assert posse(app.top, "side2").name == "Marshal's Men"


def test_a_damaged_posse_file_says_why_and_is_not_picked(make_app: AppMaker) -> None:
    folder = posse_dir("rift")
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text('{"format": "hexslinger-posse", "version": 1, "ruleset": "rift"')
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    click(app, screen.buttons["ruleset_rift"].rect.center)
    damaged = next(label for label in screen.side_options(0) if "damaged" in label)
    pick_option(app, screen.dropdowns[0], damaged)
    assert isinstance(app.top, MessageDialog)
    assert "cut off" in (app.top.text_html or "")
    press(app, pygame.K_RETURN)
    assert app.top is screen
    assert screen.sides[0].posse == "Rifter Crew"  # still the usable one
    assert not shown(screen.dropdowns[0]).endswith("(damaged)")


def test_a_map_with_problems_shows_them_and_cannot_start_and_the_game_goes_on(
    make_app: AppMaker, tmp_path: Path
) -> None:
    app = make_app((1280, 720))
    flow = Flow(make_shell(app), maps_dir=maps_folder(tmp_path))
    screen = open_new_battle(app, flow)
    assert [p.name for p in screen.maps] == ["broken.tmx", "ranch_duel.tmx", "ranch_typo.tmx"]
    assert screen.current_map is not None and screen.current_map.name == "ranch_duel.tmx"
    assert screen.buttons["start"].is_enabled
    assert screen.map_list is not None
    # a map Tiled could not even write: the problems from check-map, what and how to fix
    click_rect(app, screen.map_list.row_rect(0))
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert "not valid XML" in dialog.text_html and "Fix:" in dialog.text_html
    assert "re-save it from Tiled" in dialog.text_html
    step(app, 2)
    click(app, dialog.ok_button.rect.center)  # type: ignore[union-attr]
    assert app.top is screen
    start = screen.buttons["start"]
    assert not start.is_enabled
    assert "has problems" in (start.tool_tip_text or "")
    # a map that loads but breaks a convention: its picture is shown, its problem listed
    click_rect(app, screen.map_list.row_rect(2))
    assert isinstance(app.top, MessageDialog)
    assert "unknown map property" in app.top.text_html
    press(app, pygame.K_ESCAPE)
    assert app.top is screen and not screen.buttons["start"].is_enabled
    # a good map again
    click_rect(app, screen.map_list.row_rect(1))
    assert app.top is screen and screen.buttons["start"].is_enabled
    click(app, screen.buttons["start"].rect.center)
    assert isinstance(app.top, BattleScreen)


def test_each_seat_is_a_human_or_the_ai_at_a_difficulty(make_app: AppMaker) -> None:
    """Issue 12, solo play: "AI seats in New Battle with difficulty": each side is played by a human or
    by the AI at one of ai/profiles' difficulties, whose own summary is the button's tooltip; the posse
    picked stays the same, and the battle starts with those seats."""
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    keys = [k for k in screen.buttons if k.startswith("seat_1_")]
    assert keys == ["seat_1_human", "seat_1_ai_easy", "seat_1_ai_normal", "seat_1_ai_hard"]
    assert screen.buttons["seat_1_human"].is_selected
    hard = screen.buttons["seat_1_ai_hard"]
    assert hard.is_enabled and hard.text == "Hard"
    posses_before = [shown(d) for d in screen.dropdowns]
    move(hard.rect.center)
    step(app, 40)  # the tooltip's delay
    assert hard.tool_tip is not None
    summary = difficulty("hard").summary
    assert summary in hard.tool_tip.text_block.html_text  # type: ignore[union-attr]
    click(app, hard.rect.center)
    assert screen.sides[1].seat == "ai:hard"
    assert screen.buttons["seat_1_ai_hard"].is_selected and not screen.buttons["seat_1_human"].is_selected
    assert screen.buttons["seat_0_human"].is_selected  # the other side is still a human's
    assert [shown(d) for d in screen.dropdowns] == posses_before  # the posses picked stay
    click(app, screen.buttons["seat_0_ai_easy"].rect.center)
    click(app, screen.buttons["seat_0_human"].rect.center)
    assert screen.sides[0].seat == "human"
    click(app, screen.buttons["start"].rect.center)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    assert battle.session.seats == {"side1": "human", "side2": "ai:hard"}
    assert [p.controller for p in battle.session.match.posses] == ["human", "ai"]
    assert [p.name for p in battle.session.match.posses] == [t.split(" \u2014")[0] for t in posses_before]


def test_an_ai_seat_takes_a_personality_by_unit_or_one_for_the_whole_side(make_app: AppMaker) -> None:
    """Issue 12, solo play: "AI seats in New Battle with difficulty and personality": an AI side plays
    each unit by its kind's personality (the default, "By unit") or one personality of
    ai/profiles/personalities.toml for every unit, chosen from those of the ruleset's rulebook; a human
    side has no such choice; the difficulty and the personality are kept apart."""
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    assert screen.person_drops == {}  # two humans: nothing to choose
    click(app, screen.buttons["seat_1_ai_hard"].rect.center)
    drop = screen.person_drops[1]
    assert list(screen.person_drops) == [1] and shown(drop) == "By unit (default)"
    labels = [c.label for c in screen.personality_options()]
    assert labels == ["By unit (default)", "Gunhand", "Lawman", "Outlaw", "Hound"]  # Frontier's own
    face = drop.current_state.selected_option_button  # type: ignore[attr-defined]
    move(face.rect.center)
    step(app, 40)
    assert (
        face.tool_tip is not None and "Each unit plays as its kind does" in face.tool_tip.text_block.html_text
    )
    pick_option(app, screen.person_drops[1], "Outlaw")
    assert screen.sides[1].seat == "ai:hard:outlaw" and shown(screen.person_drops[1]) == "Outlaw"
    click(app, screen.buttons["seat_1_ai_easy"].rect.center)  # another difficulty keeps the personality
    assert screen.sides[1].seat == "ai:easy:outlaw" and screen.buttons["seat_1_ai_easy"].is_selected
    assert not screen.buttons["seat_1_ai_hard"].is_selected and shown(screen.person_drops[1]) == "Outlaw"
    click(app, screen.buttons["ruleset_rift"].rect.center)  # Through the Rift has no Outlaw personality
    assert screen.sides[1].seat == "ai:easy" and shown(screen.person_drops[1]) == "By unit (default)"
    assert "Goon" in [c.label for c in screen.personality_options()]
    click(app, screen.buttons["ruleset_frontier"].rect.center)
    pick_option(app, screen.person_drops[1], "Outlaw")
    click(app, screen.buttons["seat_0_ai_normal"].rect.center)  # both sides the AI's: both choose
    assert sorted(screen.person_drops) == [0, 1] and shown(screen.person_drops[0]) == "By unit (default)"
    start = screen.buttons["start"].rect  # both rows fit above the bar
    assert all(d.rect.bottom <= start.top for d in [*screen.dropdowns, *screen.person_drops.values()])
    click(app, screen.buttons["start"].rect.center)
    battle = app.top
    assert isinstance(battle, BattleScreen), names(app)
    assert battle.session.seats == {"side1": "ai:normal", "side2": "ai:easy:outlaw"}
    assert battle.session.seat_label("side2") == "Easy AI, Outlaw"
    player = battle.controller.pilot.player("side2")
    assert isinstance(player, UtilityAgent) and player.level.id == "easy"
    assert player.personality(("sheriff",)).id == "outlaw"  # every unit, whatever its kind
    assert battle.controller.pilot.player("side1").personality(("sheriff",)).id == "lawman"  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [(1024, 600), (800, 600)])
def test_two_ai_sides_fit_a_small_window(make_app: AppMaker, size: tuple[int, int]) -> None:
    """Both sides the AI's (a spectated battle) in a small window: the rows tighten, nothing goes under
    the Start button."""
    app = make_app(size)
    screen = open_new_battle(app)
    click(app, screen.buttons["seat_0_ai_easy"].rect.center)
    click(app, screen.buttons["seat_1_ai_hard"].rect.center)
    top = screen.buttons["start"].rect.top
    assert screen.seed_entry is not None and len(screen.person_drops) == 2
    rows = [*screen.dropdowns, *screen.person_drops.values(), screen.seed_entry]
    assert all(r.rect.bottom <= top for r in rows), [r.rect for r in rows]


def test_the_seed_is_random_editable_and_used(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    first = screen.seed_text
    assert first.isdigit()
    click(app, screen.buttons["roll"].rect.center)
    assert screen.seed_text.isdigit() and screen.seed_text != first
    assert screen.seed_entry is not None
    click(app, screen.seed_entry.rect.center)
    rolled = screen.seed_entry.get_text()
    type_text(app, "abc")  # letters are not taken
    assert screen.seed_entry.get_text() == rolled
    press(app, pygame.K_a, mod=pygame.KMOD_CTRL)
    press(app, pygame.K_BACKSPACE, frames=2)
    assert screen.seed_entry.get_text() == ""
    assert not screen.buttons["start"].is_enabled
    assert "seed" in (screen.buttons["start"].tool_tip_text or "")
    type_text(app, "424242")
    assert screen.buttons["start"].is_enabled
    click(app, screen.buttons["start"].rect.center)
    assert isinstance(app.top, BattleScreen)
    assert app.top.session.match.seed == 424242


def test_edit_opens_the_posse_builder_and_its_posse_fights(make_app: AppMaker) -> None:
    pytest.importorskip("game.ui.posse_screen")
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    click(app, screen.buttons["edit_0"].rect.center)
    builder = app.top
    assert type(builder).__name__ == "PosseScreen", names(app)
    assert builder.ruleset == "frontier" and builder.side == "side1"  # type: ignore[attr-defined]
    assert builder.draft.name == "Sheriff's Posse"  # type: ignore[attr-defined]
    step(app, 2)
    click(app, builder.widgets["done"].rect.center)  # type: ignore[attr-defined]
    assert app.top is screen
    # unchanged, it is the library's posse: picked there, not listed a second time (issue 13)
    assert screen.sides[0].custom is None
    assert shown(screen.dropdowns[0]) == "Sheriff's Posse \u2014 4 units"
    click(app, screen.buttons["edit_0"].rect.center)
    builder = app.top
    click(app, builder.widgets["posse_name"].rect.center)  # type: ignore[attr-defined]
    type_text(app, "Sheriff's Own")
    click(app, builder.widgets["done"].rect.center)  # type: ignore[attr-defined]
    assert app.top is screen
    assert screen.sides[0].custom is not None
    assert shown(screen.dropdowns[0]).startswith("\u270e Sheriff's Own")
    assert len(set(screen.side_options(0))) == len(screen.side_options(0))
    click(app, screen.buttons["start"].rect.center)
    assert isinstance(app.top, BattleScreen)
    assert posse(app.top, "side1").name == "Sheriff's Own"


def test_edit_is_hidden_without_the_posse_builder(
    make_app: AppMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(newbattle, "posse_screen_available", lambda: False)
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    assert "edit_0" not in screen.buttons and "edit_1" not in screen.buttons


def test_back_and_escape_return_to_the_title(make_app: AppMaker) -> None:
    app = make_app((1280, 720))
    screen = open_new_battle(app)
    click(app, screen.buttons["back"].rect.center)
    assert names(app) == ["TitleScene"]
    title = app.top
    click(app, title.buttons["new_battle"].rect.center)  # type: ignore[union-attr]
    assert isinstance(app.top, NewBattleScene)
    press(app, pygame.K_ESCAPE)
    assert names(app) == ["TitleScene"]


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_the_layout_fits_the_window(make_app: AppMaker, size: tuple[int, int]) -> None:
    app = make_app(size)
    screen = open_new_battle(app)
    step(app, 2)
    window = pygame.Rect((0, 0), size)
    widgets = [
        *screen.buttons.values(),
        *screen.dropdowns,
        screen.seed_entry,
        screen.thumbnail,
        screen.details,
        *(screen.map_list.buttons if screen.map_list else []),
    ]
    rects = [pygame.Rect(w.rect) for w in widgets if w is not None]
    for rect in rects:
        assert window.contains(rect), rect
        assert screen.sheet.contains(rect), rect
    controls = [pygame.Rect(b.rect) for b in screen.buttons.values()]
    for a, b in itertools.combinations(controls, 2):
        assert not a.colliderect(b), (a, b)
    assert screen.thumbnail is not None and screen.thumbnail.rect.height >= 100


@pytest.mark.parametrize("scale", [1.0, 1.25])
@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_every_label_fits_its_text(make_app: AppMaker, size: tuple[int, int], scale: float) -> None:
    """With the bundled serif at 800x600, "Played by" was 9 px too wide for its indented label (it read
    "Played b"). pygame-gui warns when a label's text does not fit."""
    app = make_app(size)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        open_new_battle(app, Flow(make_shell(app, Prefs(ui_scale=scale))))
        step(app, 2)
    assert not [str(w.message) for w in caught if "too small" in str(w.message)]


@pytest.mark.parametrize("scale", [1.0, 1.25, 1.5])
def test_the_posse_entries_fit_their_drop_down_at_any_ui_scale(make_app: AppMaker, scale: float) -> None:
    """Found at UI scale 1.25: "Trial Crew \u2014 3 units \u2022 sav\u2026". Every entry, closed and in the
    open list, fits its control; a name too long for any control gives way before what follows it, and
    the entry still picks its posse."""
    trial = default_posses("frontier")[0]
    assert trial.remove_unit(0) is None
    assert len(trial.units) == 3
    save_posse(trial, "Trial Crew")
    save_posse(default_posses("frontier")[1], "The Longest Named Posse in the Whole Wild West")
    app = make_app((1280, 720))
    flow = Flow(make_shell(app, Prefs(ui_scale=scale)))
    screen = open_new_battle(app, flow)
    step(app, 2)

    def fits(button: object) -> bool:
        text, font, rect = button.text, button.font, button.rect  # type: ignore[attr-defined]
        return bool(font.size(text)[0] <= rect.width - 8)

    for dropdown in screen.dropdowns:
        closed = dropdown.current_state.selected_option_button  # type: ignore[attr-defined]
        assert closed is not None and fits(closed), closed.text
        click(app, dropdown.rect.center)
        items = dropdown.current_state.options_selection_list.item_list  # type: ignore[attr-defined]
        shown_texts = [item["text"] for item in items]
        assert "Trial Crew \u2014 3 units \u2022 saved" in shown_texts
        long = next(t for t in shown_texts if t.startswith("The Long"))
        assert long.endswith("\u2026 \u2014 5 units \u2022 saved"), long
        for item in items:
            if item["button_element"] is not None:
                assert fits(item["button_element"]), item["text"]
        click(app, dropdown.rect.center)  # closes the list again
        assert dropdown.current_state is dropdown.menu_states["closed"]  # type: ignore[attr-defined]
    pick_option(app, screen.dropdowns[0], long)
    assert screen.sides[0].posse == "The Longest Named Posse in the Whole Wild West"


def test_posses_the_ruleset_refuses_are_named_not_started(make_app: AppMaker) -> None:
    """Start asks the ruleset about the posses together (Ruleset.validate_posses) and shows its reason; a
    battle started with three Frontier posses (not from this screen) ends in a message, not a traceback
    ("The Player with the smaller Posse draws first": Frontier is for two posses, docs/RULES.md 8a)."""
    app = make_app((1280, 720))
    title, flow = title_app(app)
    click(app, title.buttons["new_battle"].rect.center)
    screen = app.top
    assert isinstance(screen, NewBattleScene)
    five = tuple(UnitSpec(k) for k in ("gang_leader", "outlaw", "outlaw", "outlaw", "dog", "dog"))
    screen.sides[1].custom = PosseSpec("side2", "the_outlaws", "Six Guns", five)
    click(app, screen.buttons["start"].rect.center)
    assert app.top is screen, names(app)
    assert screen.note == "posse 'Six Guns': The maximum number of Units The Outlaws can field is 5, not 6"
    setup = default_setup("frontier")
    third = dataclasses.replace(setup.posses[1], side="side3")
    app.apply(flow.start(dataclasses.replace(setup, posses=[*setup.posses, third])))
    step(app)
    dialog = app.top
    assert isinstance(dialog, MessageDialog), names(app)
    assert "Frontier is played by two posses, not 3" in (dialog.text_html or "")


@pytest.mark.parametrize("size", [(1280, 720), (800, 600)])
def test_a_plugged_in_ruleset_is_offered_edited_and_played(
    make_app: AppMaker, tmp_path: Path, size: tuple[int, int]
) -> None:
    """The toy ruleset, installed as a plugin with its posse builder and default posses, is a ruleset of
    New Battle like the shipped ones: its defaults face each other, the posse builder edits them, and the
    battle starts under its rules. Nothing outside tests/toy_ruleset.py names it."""
    folder = maps_folder(tmp_path)  # Showdown at the Lazy K, made for every ruleset here
    text = (folder / "ranch_duel.tmx").read_text(encoding="utf-8")
    line = '  <property name="rulesets" value="frontier,rift,golden"/>\n'
    assert line in text
    (folder / "ranch_duel.tmx").write_text(text.replace(line, ""), encoding="utf-8")
    with installed_plugin(tmp_path / "plugins", "toy", "tests.toy_ruleset:PLUGIN"):
        app = make_app(size)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            screen = open_new_battle(app, Flow(make_shell(app), maps_dir=folder))
        assert not [str(w.message) for w in caught if "too small" in str(w.message)]
        buttons = [screen.buttons[f"ruleset_{r}"] for r in ("frontier", "rift", "toy")]
        assert buttons[2].text == "Toy Skirmish"
        assert not any(a.rect.colliderect(b.rect) for a, b in itertools.combinations(buttons, 2))
        assert all(screen.panel.rect.contains(b.rect) for b in buttons)
        click(app, buttons[2].rect.center)
        assert screen.ruleset == "toy"
        assert [screen.sides[i].posse for i in (0, 1)] == ["Red Hats", "Blue Hats"]
        assert all(shown(d).startswith(("Red Hats", "Blue Hats")[i]) for i, d in enumerate(screen.dropdowns))
        click(app, screen.buttons["edit_1"].rect.center)
        builder = app.top
        assert type(builder).__name__ == "PosseScreen", names(app)
        step(app, 2)
        assert builder.draft.name == "Blue Hats"  # type: ignore[attr-defined]
        click(app, builder.widgets["done"].rect.center)  # type: ignore[attr-defined]
        assert app.top is screen
        click(app, screen.buttons["start"].rect.center)
        battle = app.top
        assert isinstance(battle, BattleScreen), names(app)
        assert battle.session.match.ruleset.name == "toy"
        assert [p.name for p in battle.session.match.posses] == ["Red Hats", "Blue Hats"]
        step(app, 3)  # the battle screen draws
