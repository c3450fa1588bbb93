"""Issue 13, "No label is cut at UI scale 1.0-1.5 in a 1280x720 window: action buttons (with their AP
cost), Joker buttons, tracker cards ("Gang Lea...", "d20: 1..."), the odds line" and "Tracker cards show the
side (colour and posse), so two "Dog" cards are told apart".

Each ruleset's battle (Frontier, Through the Rift, Golden Frontiers: all three share the battle screen) is
played by the rule-free demo player to several moments — deployment, the battle, an attack aimed with the
pointer on its target (the odds line), a choice up as buttons (Frontier's Joker) — and at every UI scale
every widget's text is measured with the font it is drawn in: none is wider than its widget, none ends in
an ellipsis.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pygame_gui
import pytest

from game.engine.match import Match
from game.tiledmap import load_tiled_map
from game.ui.app import App
from game.ui.battle import BattleScreen
from game.ui.demo import demo_command, demo_match
from game.ui.gui import Shell
from game.ui.layout_fit import fit_bar
from game.ui.picking import Picker
from game.ui.prefs import Prefs
from game.ui.session import BattleSession
from game.ui.tracker_cards import initials, side_colour_of
from tests.ui.helpers import move, step

SCALES = (1.0, 1.25, 1.5)
RULESETS = ("frontier", "rift", "golden")
FRAME = 8  # a button's border and shadow, both sides (the theme's "@action": 2 + 2): pygame-gui clips there


def _widgets(manager: pygame_gui.UIManager) -> Iterator[object]:
    for sprite in manager.get_sprite_group().sprites():
        if sprite.alive():
            yield sprite


def cut_texts(screen: BattleScreen) -> list[str]:
    """Every text on the battle screen that does not fit its place, measured with its own font."""
    assert screen.manager is not None
    problems = []
    for widget in _widgets(screen.manager):
        if isinstance(widget, pygame_gui.elements.UIButton):
            text, room = widget.text, widget.rect.width - FRAME
        elif isinstance(widget, pygame_gui.elements.UILabel):
            text, room = widget.text, widget.rect.width
        else:
            continue
        if not text.strip() or text in ("\u25b2", "\u25bc"):  # blank, or a scroll bar's arrow
            continue
        width = widget.font.size(text)[0] if widget.font is not None else 0
        if "\u2026" in text or width > room:
            problems.append(f"{type(widget).__name__} {text!r}: {width} px in {room}")
    for drawn in (*screen.hud.drawn, *screen.hud.status_drawn):
        if "\u2026" in drawn.text or drawn.width > drawn.room:
            problems.append(f"drawn {drawn.text!r}: {drawn.width} px in {drawn.room}")
    return problems


def _screen(app: App, match: Match, scale: float) -> BattleScreen:
    assert match.map_path is not None
    session = BattleSession(match, None)
    screen = BattleScreen(
        Shell(prefs=Prefs(ui_scale=scale)), session, load_tiled_map(match.map_path), app.size
    )
    app.push(screen)
    screen.handover = False
    step(app, 2)
    return screen


def _aim(app: App, screen: BattleScreen) -> bool:
    """Choose an attack that reaches a foe and put the pointer on the foe (the odds on the status line)."""
    match = screen.match
    for a in screen.actor_actions():
        if not (a.enabled and a.needs in ("", "target") and a.action not in ("end_turn", "pass")):
            continue
        if screen.session.deciding_side() != match.identity(a.actor).side:
            continue
        foes = [
            t
            for t in Picker(match, a).reachable_targets()
            if match.identity(t).side != match.identity(a.actor).side
        ]
        if not foes:
            continue
        screen.selected = a.actor
        screen.choose(a)
        step(app)
        where = match.position(foes[0])
        assert where is not None
        screen.show_hexes((where,))
        step(app)
        x, y = screen.overlay.center(where)
        area = screen.layout.map
        move((area.x + x, area.y + y))
        step(app, 3)
        return screen.hovered.preview is not None
    return False


def _moments(ruleset: str) -> Iterator[tuple[str, Match]]:
    """The battle at deployment, after some turns, with an attack in reach, and (Frontier) at a choice."""
    yield "deployment", demo_match(ruleset, seed=11)
    match = demo_match(ruleset, seed=11)
    for _ in range(40):
        match.apply(demo_command(match))
    yield "battle", match
    for seed in range(1, 12):
        match = demo_match(ruleset, seed=seed)
        for _ in range(400):
            if match.outcome() is not None:
                break
            if any(a.needs == "choice" and a.choices for a in match.legal_actions()):
                yield "choice", match
                return
            match.apply(demo_command(match))


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scale", SCALES)
def test_no_text_is_cut_at_any_ui_scale(make_app: Callable[..., App], ruleset: str, scale: float) -> None:
    """The moments a player meets: deployment, the battle, an attack aimed, a choice as buttons."""
    app = make_app((1280, 720))
    seen = []
    aimed = False
    for moment, match in _moments(ruleset):
        screen = _screen(app, match, scale)
        seen.append(moment)
        if moment == "choice":
            choice = next(a for a in screen.actor_actions() if a.needs == "choice" and a.choices)
            screen.selected = choice.actor
            screen.choose(choice)
            step(app, 2)
            assert screen.choice_buttons, "the choice's options are buttons"
        assert not cut_texts(screen), (moment, cut_texts(screen))
        costs = [b.text for b, a in screen.action_buttons if a.cost]
        assert all(f"{a.cost}AP" in b.text for b, a in screen.action_buttons if a.cost), costs
        if moment == "battle":
            for _ in range(300):  # on until an attack is in reach: its odds on the status line
                if _aim(app, screen):
                    aimed = True
                    assert not cut_texts(screen), ("aimed", cut_texts(screen))
                    break
                screen.controller.cancel_aim()
                if screen.match.outcome() is not None:
                    break
                screen.send(demo_command(screen.match))
                screen.handover = False
    assert aimed, "an attack was aimed and its odds shown"
    if ruleset == "frontier":
        assert "choice" in seen, "Frontier's Joker came up as buttons"


@pytest.mark.parametrize("size", [(1280, 720), (1280, 800)])
@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("scale", SCALES)
def test_no_text_is_cut_in_any_state_of_a_battle(
    make_app: Callable[..., App], ruleset: str, scale: float, size: tuple[int, int]
) -> None:
    """Every decision of a battle's first turns, each unit with its whole bar of actions (the most
    buttons: found cut in the window at 150% with fourteen of them); the bar takes more rows from the
    map when its usual height cannot hold them."""
    app = make_app(size)
    match = demo_match(ruleset, seed=11)
    screen = _screen(app, match, scale)
    grew = 0
    for i in range(60):
        if match.outcome() is not None:
            break
        screen.send(demo_command(match))
        screen.handover = False
        step(app)
        assert not cut_texts(screen), (i, cut_texts(screen))
        assert screen.layout.map.height >= size[1] // 2  # the map keeps most of the window
        grew = max(grew, screen.layout.bar_extra)
    if ruleset == "rift" and scale > 1:
        assert grew > 0, "Through the Rift's long bars took a row from the map"


def test_the_bar_never_cuts_a_cost_while_smaller_type_holds_it() -> None:
    """The fit itself: more rows, then smaller type; a cut only when even the smallest cannot hold it."""
    pygame.font.init()
    from game.ui.battle_hud import font

    labels = [  # Through the Rift's goon, its ten actions (found cut in the window at 150%)
        "1 Fire: Goon's Revolver \u00b7 2AP",
        "2 Move \u00b7 1AP",
        "3 Crouch Down \u00b7 2AP",
        "4 Flee \u00b7 2AP",
        "5 Hold: Goon's Revolver \u00b7 3AP",
        "6 Interact: Door \u00b7 1AP",
        "7 Interact: Pick Up \u00b7 1AP",
        "8 Interact: Hand Off \u00b7 1AP",
        "9 Interact: Use Item \u00b7 1AP",
        "Heckle \u00b7 1AP",
    ]

    def face(points: int) -> pygame.font.Font:
        return font(points, bold=True)

    def height(points: int) -> int:
        return int(face(points).get_linesize())

    roomy = fit_bar(labels[:2], 900, 80, 1.0, face_at=face, line_height=height)
    assert roomy.rows == 1 and roomy.object_id is None and not roomy.cut
    crowded = fit_bar(labels, 700, 94, 1.2, face_at=face, line_height=height)
    assert not crowded.cut and crowded.texts == tuple(labels)
    for (row, x, width), text in zip(crowded.places, crowded.texts, strict=True):
        assert face(crowded.points).size(text)[0] <= width - FRAME
        assert x + width <= 700 and row < crowded.rows
    hopeless = fit_bar(labels, 200, 30, 1.0, face_at=face, line_height=height)
    assert hopeless.cut and all(t.endswith("\u2026") for t in hopeless.texts)


def test_two_dogs_of_two_posses_are_told_apart(make_app: Callable[..., App]) -> None:
    """Frontier's default posses both have a Dog: their tracker cards differ in colour and posse name."""
    app = make_app((1280, 720))
    match = demo_match("frontier", seed=11)
    for _ in range(40):
        match.apply(demo_command(match))
    screen = _screen(app, match, 1.0)
    dogs = [e for e in match.tracker() if match.identity(e.unit).name == "Dog"]
    assert len({match.identity(e.unit).side for e in dogs}) == 2, "a Dog on each side"
    posses = [screen.side_names[s] for s in screen.sides]
    drawn = [d.text for d in screen.hud.drawn]
    for name in posses:
        assert name in drawn or initials(name) in drawn, (name, drawn)
    # the band's colour: sampled at the top of each Dog's card, where the side's band is drawn
    rect = screen.layout.tracker
    surface = pygame.display.get_surface()
    cards = dict(screen.hud.cards)
    colours = [surface.get_at((rect.x + cards[e.unit].x + 5, rect.y + cards[e.unit].y + 8))[:3] for e in dogs]
    assert colours[0] != colours[1]
    assert colours == [side_colour_of(match, screen.sides, match.identity(e.unit).side) for e in dogs]
