"""Through the Rift's Deliberate, Daring, Bold and Resolute abilities, one test each, by commands: every
test quotes the rulebook sentence it checks and asserts its effect on events, resolve, AP, statuses and
positions. Dice are scripted; set-ups place units directly (tests/rules/rift_kit.py)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.engine.match import Match
from game.events import Event, Note, Roll
from game.hexgrid import Hex
from game.rules import PosseSpec
from game.rules.rift import RULESET, StressDealt
from game.rules.rift import state as st
from tests import maps_factory as mf
from tests.rules.frontier_kit import at, open_map
from tests.rules.rift_kit import (
    cmd,
    deploy,
    find,
    game,
    give_turn,
    new_match,
    outlaws,
    place,
    rifter,
    rifters,
    script,
    unit,
)


def _match(tmp_path: Path, side1: PosseSpec, side2: PosseSpec, **map_args: object) -> Match:
    m = new_match(side1, side2, 1, open_map(tmp_path, **map_args))  # type: ignore[arg-type]
    deploy(m)
    return m


def _stress(events: list[Event]) -> list[StressDealt]:
    return [e for e in events if isinstance(e, StressDealt)]


def _factors(e: StressDealt) -> dict[str, Fraction]:
    return dict(e.factors)


def _notes(events: list[Event]) -> list[str]:
    return [e.rule for e in events if isinstance(e, Note)]


def _settle(m: Match, events: list[Event]) -> list[Event]:
    """Pass every reaction window still open (a Cunning ally's Nudge / "Duck!"); all the events."""
    out = list(events)
    while (window := [a for a in m.legal_actions() if a.action == "pass"]) and not any(
        a.action == "assign" for a in m.legal_actions()
    ):
        out += m.apply(window[0].command())
    return out


def _until_turn_of(m: Match, who: int) -> None:
    """End turns (by commands) until ``who``'s turn starts."""
    for _ in range(50):
        if game(m).active == who:
            return
        m.apply(cmd("end_turn", game(m).active))
    raise AssertionError("the turn never came round")


# == Deliberate =================================================================================


def test_down_the_sights_the_next_shot_that_hits_inflicts_4x_and_a_miss_keeps_it(tmp_path: Path) -> None:
    """Down the Sights: "The next shot you make that hits inflicts 4x as much stress. ... A missed shot does
    not remove the multiplier." (only that one shot: "not the entire volley")"""
    m = _match(tmp_path, rifters("side1", rifter("deliberate")), outlaws("side2", "gang_boss"))
    me, boss = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, boss, at(9))
    give_turn(m, me, ap=2)
    m.apply(cmd("down_the_sights", me))
    assert st.ap(me).current == 0
    give_turn(m, me, ap=2)
    script(m, 1, 2, 3)  # Model 13 2d10 / 7+ (three dice, Firearm Mastery): every shot misses
    events = m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
    assert not _stress(events) and st.turn_state(me).down_the_sights  # the miss kept it
    give_turn(m, me, ap=2)
    script(m, 8, 9, 1)  # kept 8 and 9: two hits, the best (9) takes the 4x
    events = m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
    dealt = _stress(events)
    assert [(e.value, e.amount) for e in dealt] == [(8, 8), (9, 36)]
    assert _factors(dealt[1])["Down the Sights"] == 4 and "Down the Sights" not in _factors(dealt[0])
    assert st.resolve(boss).current == 0
    assert not st.turn_state(me).down_the_sights


def test_down_the_sights_may_be_taken_again_while_one_is_pending(tmp_path: Path) -> None:
    """ "Other actions can be taken any number of times, up to your maximum number of action points." --
    a second Down the Sights while one is pending is allowed. Both name "The next shot you make that hits",
    so both 4x go on it; "These effects are multiplicative, to a minimum of ¼ and a maximum of 4x": it
    matters against halving, e.g. cover: 9 x 4 x 4 x ½ is held to 4x, 36, where one Down the Sights gives
    18 (docs/RULES.md R29)."""
    m = _match(
        tmp_path,
        rifters("side1", rifter("deliberate")),
        outlaws("side2", "gang_boss"),
        terrain={(8, 5): mf.BARREL},
    )
    me, boss = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, boss, at(9))  # behind the barrel: cover
    give_turn(m, me, ap=2)
    m.apply(cmd("down_the_sights", me))
    assert st.turn_state(me).down_the_sights is True  # one is stored as before: old saves keep their digest
    give_turn(m, me, ap=2)
    assert find(m, me, "down_the_sights").enabled
    m.apply(cmd("down_the_sights", me))
    assert st.turn_state(me).down_the_sights == 2
    assert [s.detail for s in RULESET.unit_view(m, me).statuses if s.key == "down_the_sights"] == [
        "taken 2 times (4x each, 4x at most), until a shot hits"
    ]
    give_turn(m, me, ap=2)
    preview = m.preview(cmd("fire", me, option="mdtc_model_13_rifle", target=boss))
    assert preview is not None
    assert [v for n, v in preview.modifiers if n.startswith("Down the Sights")] == [400, 400]
    script(m, 8, 9, 1)  # kept 8 and 9: two hits, the best (9) takes both 4x
    dealt = _stress(m.apply(cmd("fire", me, option="mdtc_model_13_rifle")))
    assert [(e.value, e.amount) for e in dealt] == [(8, 4), (9, 36)]
    assert sorted(dealt[1].factors) == [
        ("Down the Sights", 4),
        ("Down the Sights", 4),
        ("cover", Fraction(1, 2)),
    ]
    assert not st.turn_state(me).down_the_sights  # both spent on that one shot


def test_firearm_mastery_rolls_one_extra_die_and_drops_the_lowest(tmp_path: Path) -> None:
    """Firearm Mastery: "If your weapon has two shots roll three dice, drop the lowest, and then assign the
    remaining two if they hit." Improved: "roll two additional dice and drop the lowest two results." """
    for level, dice, kept, dropped in ((1, (9, 2, 7), (9, 7), "2"), (4, (3, 9, 2, 7), (9, 7), "3, 2")):
        m = _match(
            tmp_path / str(level),
            rifters("side1", rifter("deliberate", level=level)),
            outlaws("side2", "gang_boss"),
        )
        me, boss = unit(m, "side1"), unit(m, "side2")
        place(m, me, at(5))
        place(m, boss, at(9))
        give_turn(m, me)
        script(m, *dice)
        events = m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
        (rolled,) = [e for e in events if isinstance(e, Roll)]
        assert rolled.dice == kept  # two shots, as the rifle's 2d10
        assert any(f"dropped the lowest: {dropped}" in n for n in _notes(events)), _notes(events)
        assert [e.amount for e in _stress(events)] == list(kept)


def test_piercing_fire_half_stress_to_another_target_in_the_tile_behind_on_a_hex_axis(tmp_path: Path) -> None:
    """Piercing Fire: "If a target of your firearm is in a direct line with you, your hits penetrate, dealing
    ½ stress to another target in a tile behind. (The extra target must still be within range)" -- direct
    line: one of the six hex axes (docs/RULES.md R19)."""
    m = _match(tmp_path, rifters("side1", rifter("deliberate")), outlaws("side2", "gang_boss", "gang_boss"))
    me, b1, b2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, me, at(5))
    place(m, b1, at(8))  # a row of the test map is a hex axis
    place(m, b2, at(9))  # the tile behind, in range (4 <= 8)
    give_turn(m, me)
    script(m, 7, 8, 1)
    m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
    events = m.apply(find(m, me, "assign").command(targets=(b1, b1)))
    dealt = [(e.unit, e.value, e.amount, _factors(e).get("Piercing Fire")) for e in _stress(events)]
    assert dealt == [
        (b1, 7, 7, None),
        (b2, 7, 3, Fraction(1, 2)),
        (b1, 8, 8, None),
        (b2, 8, 4, Fraction(1, 2)),
    ]
    # off the axes: the tile "behind" on the straight line (2 steps of (2, 1)) is not a direct line
    s = st.hex_of(me)
    place(m, b1, s + Hex(2, 1))
    place(m, b2, s + Hex(4, 2))
    give_turn(m, me)
    script(m, 7, 8, 1)
    m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
    events = m.apply(find(m, me, "assign").command(targets=(b1, b1)))
    assert {e.unit for e in _stress(events)} == {b1}
    # out of range behind: no pierce (the rifle's 8t)
    place(m, b1, at(12))
    place(m, b2, at(14))
    give_turn(m, me)
    script(m, 7, 8, 1)
    events = m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
    assert {e.unit for e in _stress(events)} == {b1}


def test_thread_the_needle_ignores_cover_when_calculating_stress_you_inflict(tmp_path: Path) -> None:
    """Thread the Needle: "You ignore the effects of cover when calculating stress you inflict." (a goon
    crouched behind a barrel takes the full shot; a level-1 Deliberate's shot is reduced to zero)"""
    for level, amounts in ((7, [7]), (1, [0])):
        m = _match(
            tmp_path / str(level),
            rifters("side1", rifter("deliberate", level=level)),
            outlaws("side2", "gang_boss"),
            terrain={(8, 5): mf.BARREL},
        )
        me, boss = unit(m, "side1"), unit(m, "side2")
        place(m, me, at(5))
        place(m, boss, at(9))
        give_turn(m, boss)
        m.apply(cmd("crouch", boss))
        give_turn(m, me)
        script(m, 7, 1, 1, 1)
        events = m.apply(cmd("fire", me, option="mdtc_model_13_rifle"))
        assert [e.amount for e in _stress(events)] == amounts
        if level == 7:
            assert "cover" not in _factors(_stress(events)[0])


# == Daring =====================================================================================


def test_run_and_gun_moves_2_fires_and_halves_stress_taken_until_the_next_turn(tmp_path: Path) -> None:
    """Run & Gun (Attack) [3AP]: "Move 2 tiles. Fire your firearm. You take ½ stress until the start of your
    next turn." """
    m = _match(tmp_path, rifters("side1", rifter("daring")), outlaws("side2", "outlaw_goon"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(2))
    place(m, goon, at(8))  # 6 tiles: out of the Model 8's 4t until the run
    give_turn(m, me, ap=5)
    assert (
        m.validate(cmd("run_and_gun", me, option="mdtc_model_8_smg", path=(at(3), at(4), at(5)))) is not None
    )
    script(m, 6, 3, 3, 3)  # Model 8 4d6 / 5+: one hit
    events = m.apply(cmd("run_and_gun", me, option="mdtc_model_8_smg", path=(at(3), at(4))))
    assert st.hex_of(me) == at(4) and st.ap(me).current == 2
    assert [(e.unit, e.amount) for e in _stress(events)] == [(goon, 6)]
    assert m.validate(cmd("fire", me, option="mdtc_model_8_smg")) == (
        "Fire Firearm (MDTC Model 8 Submachine Gun): you have already attacked this turn"
    )
    m.apply(cmd("end_turn", me))
    give_turn(m, goon)
    script(m, 4, 3)
    events = m.apply(cmd("fire", goon, option="goon_revolver"))
    assert [(e.amount, _factors(e)["Run & Gun"]) for e in _stress(events)] == [
        (2, Fraction(1, 2)),
        (1, Fraction(1, 2)),
    ]
    m.apply(cmd("end_turn", goon))
    _until_turn_of(m, me)
    assert not st.has_status(me, "half_stress")


def test_sprint_moves_4_tiles_only_once_per_turn(tmp_path: Path) -> None:
    """Sprint [1AP]: "Move 4 tiles. You may only use this ability once per turn." """
    m = _match(tmp_path, rifters("side1", rifter("daring")), outlaws("side2", "outlaw_goon"))
    me = unit(m, "side1")
    place(m, me, at(2))
    give_turn(m, me)
    five = tuple(at(c) for c in range(3, 8))
    assert "5 tiles of movement, the unit has 4 tiles" in (m.validate(cmd("sprint", me, path=five)) or "")
    m.apply(cmd("sprint", me, path=five[:4]))
    assert st.hex_of(me) == at(6) and st.ap(me).current == 2
    assert m.validate(cmd("sprint", me, path=(at(7),))) == "Sprint: only once per turn"
    assert not find(m, me, "sprint").enabled


def test_killer_calves_run_and_gun_3_and_sprint_5_tiles(tmp_path: Path) -> None:
    """Killer Calves: "Your Run & Gun and Sprint abilities now allow you to move 3 and 5 tiles,
    respectively." """
    m = _match(tmp_path, rifters("side1", rifter("daring", level=4)), outlaws("side2", "outlaw_goon"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(2))
    place(m, goon, at(20))
    give_turn(m, me)
    six = tuple(at(c) for c in range(3, 9))
    assert "6 tiles of movement, the unit has 5 tiles" in (m.validate(cmd("sprint", me, path=six)) or "")
    m.apply(cmd("sprint", me, path=six[:5]))
    assert st.hex_of(me) == at(7)
    give_turn(m, me)
    run = (at(8), at(9), at(10), at(11))
    assert "4 tiles of movement, the unit has 3 tiles" in (
        m.validate(cmd("run_and_gun", me, option="mdtc_model_8_smg", path=run)) or ""
    )
    place(m, goon, at(14))
    script(m, 3, 3, 3, 3)
    m.apply(cmd("run_and_gun", me, option="mdtc_model_8_smg", path=run[:3]))
    assert st.hex_of(me) == at(10)


def test_spray_and_pray_rerolls_a_1_or_2_once_per_die_and_improved_a_miss(tmp_path: Path) -> None:
    """Spray & Pray: "you may reroll a result of 1 or 2 once per die." Improved Spray & Pray: "you may now
    reroll a miss once per die." (the faces of every rerolled die are in the log)"""
    m = _match(tmp_path, rifters("side1", rifter("daring")), outlaws("side2", "gang_boss"))
    me, boss = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, boss, at(8))
    give_turn(m, me)
    # Model 8 4d6 / 5+: 1 -> 6, a 3 stays, 2 -> 1 (once), 5
    script(m, 1, 6, 3, 2, 1, 5)
    events = m.apply(cmd("fire", me, option="mdtc_model_8_smg"))
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.dice == (6, 3, 1, 5)
    assert any("1→6, 3, 2→1, 5" in n for n in _notes(events)), _notes(events)
    assert [e.amount for e in _stress(events)] == [6, 5]
    m4 = _match(tmp_path / "4", rifters("side1", rifter("daring", level=4)), outlaws("side2", "gang_boss"))
    me, boss = unit(m4, "side1"), unit(m4, "side2")
    place(m4, me, at(5))
    place(m4, boss, at(8))
    give_turn(m4, me)
    script(m4, 3, 5, 4, 2, 6, 1, 6)  # a 3 and a 4 miss: rerolled now; a hit 6 is kept
    events = m4.apply(cmd("fire", me, option="mdtc_model_8_smg"))
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.dice == (5, 2, 6, 6)
    assert any("3→5, 4→2, 6, 1→6" in n for n in _notes(events)), _notes(events)


def test_dodge_roll_moves_1_tile_and_prevents_all_stress_this_turn_off_turn(tmp_path: Path) -> None:
    """Dodge Roll [1AP]: "Move 1 tile. Prevent all stress you take this turn. You may use this ability at any
    point between the start of your turn and the start of your next turn." """
    m = _match(tmp_path, rifters("side1", rifter("daring", level=7)), outlaws("side2", "outlaw_goon"))
    me, goon = unit(m, "side1"), unit(m, "side2")
    place(m, me, at(5))
    place(m, goon, at(9))
    give_turn(m, me, ap=1)  # the daring's turn: 1 AP left over for the goon's turn
    give_turn(m, goon)
    script(m, 4, 3)
    m.apply(cmd("fire", goon, option="goon_revolver"))
    dodge = find(m, me, "dodge_roll")
    assert dodge.enabled and dodge.needs == "hex" and at(4) in dodge.hexes
    events = _settle(m, m.apply(dodge.command(hex=at(4))))
    assert st.hex_of(me) == at(4) and st.ap(me).current == 0
    assert [(e.amount, e.prevented) for e in _stress(events)] == [(0, "prevented this turn")] * 2
    assert st.resolve(me).current == 45


# == Bold =======================================================================================


def test_scary_yelling_taunts_anyone_hit_until_the_start_of_your_next_turn(tmp_path: Path) -> None:
    """Scary Yelling (Attack) [2AP]: "Fire your firearm. Anyone you hit is Taunted and can only attack you
    until the start of your next turn." """
    m = _match(
        tmp_path, rifters("side1", rifter("bold"), rifter("cunning", "K")), outlaws("side2", "outlaw_goon")
    )
    bold, cun, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, bold, at(5))
    place(m, cun, at(8))
    place(m, goon, at(9))
    give_turn(m, bold)
    script(m, 3, 3)  # Sullivan 668 2d6 / 2+
    _settle(m, m.apply(cmd("scary_yelling", bold, option="sullivan_668_shotgun")))
    assert st.resolve(goon).current == 6 and st.has_status(goon, "taunted")
    assert m.validate(cmd("fire", bold, option="sullivan_668_shotgun")) is not None  # it was the attack
    m.apply(cmd("end_turn", bold))
    give_turn(m, goon)
    script(m, 2, 2)
    events = _settle(m, m.apply(cmd("fire", goon, option="goon_revolver")))  # the cunning is nearer
    assert {e.unit for e in _stress(events)} == {bold}
    m.apply(cmd("end_turn", goon))
    _until_turn_of(m, bold)
    assert not st.has_status(goon, "taunted")


def test_massive_presence_enemies_in_your_tile_are_overwhelmed_and_cannot_move(tmp_path: Path) -> None:
    """Massive Presence [1AP]: "Enemies in your tile are overwhelmed and cannot move until the start of your
    next turn." """
    m = _match(tmp_path, rifters("side1", rifter("bold")), outlaws("side2", "outlaw_goon", "outlaw_goon"))
    bold, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, bold, at(5))
    place(m, g1, at(5))
    place(m, g2, at(6))
    give_turn(m, bold)
    m.apply(cmd("massive_presence", bold))
    assert st.has_status(g1, "overwhelmed") and not st.has_status(g2, "overwhelmed")
    assert st.ap(bold).current == 2
    give_turn(m, g1)
    assert m.validate(cmd("move", g1, path=(at(4),))) == "Move: Overwhelmed units are incapable of moving"
    assert not find(m, g1, "move").enabled
    place(m, g1, at(9))
    give_turn(m, bold)
    assert m.validate(cmd("massive_presence", bold)) == "Massive Presence: no enemy in your tile"


def test_meatshield_cover_in_all_directions_with_an_enemy_in_your_tile_improved_for_allies(
    tmp_path: Path,
) -> None:
    """Meatshield: "If there is an enemy in your tile, you are considered to have cover in all directions."
    Improved Meatshield: "The cover effects of meatshield now apply to allies as well." (allies in the bold's
    tile: docs/RULES.md RB2)"""
    for level, ally_cover in ((1, False), (4, True)):
        m = _match(
            tmp_path / str(level),
            rifters("side1", rifter("bold", level=level), rifter("cunning", "K")),
            outlaws("side2", "outlaw_goon", "outlaw_goon"),
        )
        bold, cun, g1, g2 = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2", 0), unit(m, "side2", 1)
        place(m, bold, at(8))
        place(m, cun, at(8))
        place(m, g1, at(8))
        place(m, g2, at(5))
        give_turn(m, g2)
        script(m, 4, 4)
        _settle(m, m.apply(cmd("fire", g2, option="goon_revolver")))
        events = _settle(m, m.apply(find(m, g2, "assign").command(targets=(bold, cun))))
        dealt = {e.unit: e for e in _stress(events)}
        assert dealt[bold].amount == 2 and _factors(dealt[bold])["cover"] == Fraction(1, 2)
        assert ("cover" in _factors(dealt[cun])) is ally_cover
        assert dealt[cun].amount == (2 if ally_cover else 4)
    # no enemy in the tile: no cover
    place(m, g1, at(20))
    give_turn(m, g2)
    script(m, 4, 4)
    _settle(m, m.apply(cmd("fire", g2, option="goon_revolver")))
    events = _settle(m, m.apply(find(m, g2, "assign").command(targets=(bold, bold))))
    assert [e.amount for e in _stress(events)] == [4, 4]


def test_heightened_durability_increases_maximum_resolve_by_15(tmp_path: Path) -> None:
    """Heightened Durability: "Increase your maximum Resolve by 15." (Bold: "60 Resolve")"""
    m = _match(
        tmp_path,
        rifters("side1", rifter("bold"), rifter("bold", "B4", level=4)),
        outlaws("side2", "outlaw_goon"),
    )
    assert [(st.resolve(u).current, st.resolve(u).maximum) for u in m.units("side1")] == [
        (60, 60),
        (75, 75),
    ]


def test_bullet_sponge_innately_half_stress_still_not_below_a_quarter(tmp_path: Path) -> None:
    """Bullet Sponge: "You innately take 1/2 stress. (It still can't be reduced to less than 1/4)" -- a
    Bold crouched (½) and shot by a Suppressed attacker (½) takes 8 x ¼ = 2, not 8 x ⅛ = 1."""
    m = _match(
        tmp_path,
        rifters("side1", rifter("bold", level=7), rifter("resolute", "R")),
        rifters("side2", rifter("deliberate", "Foe")),
    )
    bold, res, foe = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, bold, at(5))
    place(m, res, at(6, 3))  # off the foe's line through the bold (no Piercing Fire)
    place(m, foe, at(10))
    give_turn(m, foe)
    script(m, 8, 1, 1)  # Model 13 2d10 / 7+, Firearm Mastery: one hit of 8
    m.apply(cmd("fire", foe, option="mdtc_model_13_rifle"))
    (shot,) = _stress(m.apply(find(m, foe, "assign").command(targets=(bold,))))
    assert shot.amount == 4 and _factors(shot) == {"Bullet Sponge": Fraction(1, 2)}
    give_turn(m, res)
    script(m, 2, 2, 2)  # Sullivan 870 3d4 / 2+: Suppressive Fire on the foe
    m.apply(cmd("fire", res, option="sullivan_870_hmg"))
    give_turn(m, bold)
    m.apply(cmd("crouch", bold))
    give_turn(m, foe)
    script(m, 8, 1, 1)
    m.apply(cmd("fire", foe, option="mdtc_model_13_rifle"))
    (shot,) = _stress(m.apply(find(m, foe, "assign").command(targets=(bold,))))
    assert sorted(f for _, f in shot.factors) == [Fraction(1, 2)] * 3
    assert shot.amount == 2


# == Resolute ===================================================================================


def test_deploy_cover_shield_in_your_tile_usable_by_allies_pick_up_to_redeploy(tmp_path: Path) -> None:
    """Deploy Cover [1AP]: "Put down an omnidirectional shield in your tile. This shield provides cover in all
    directions. You must pick up the shield to redeploy." ... "The cover is also usable by allies."
    Pick Up Cover [0AP]: "Pick up your shield, allowing you to place it elsewhere." """
    m = _match(
        tmp_path,
        rifters("side1", rifter("resolute"), rifter("cunning", "K")),
        outlaws("side2", "outlaw_goon"),
    )
    res, cun, goon = unit(m, "side1", 0), unit(m, "side1", 1), unit(m, "side2")
    place(m, res, at(5))
    place(m, cun, at(5))
    place(m, goon, at(9))
    give_turn(m, res)
    m.apply(cmd("deploy_cover", res))
    assert st.ap(res).current == 2
    m.apply(cmd("move", res, path=(at(4),)))
    assert (
        m.validate(cmd("deploy_cover", res)) == "Deploy Cover: every shield is down; pick one up to redeploy"
    )
    give_turn(m, goon)
    script(m, 4, 4)
    _settle(m, m.apply(cmd("fire", goon, option="goon_revolver")))
    events = _settle(m, m.apply(find(m, goon, "assign").command(targets=(cun, res))))
    dealt = {e.unit: e for e in _stress(events)}
    assert dealt[cun].amount == 2 and _factors(dealt[cun])["cover"] == Fraction(1, 2)  # the ally's shield
    assert dealt[res].amount == 4  # the resolute left it
    give_turn(m, res)
    assert m.validate(cmd("pick_up_cover", res)) == "Pick Up Cover: none of your shields is in your tile"
    m.apply(cmd("move", res, path=(at(5),)))
    m.apply(cmd("pick_up_cover", res))
    assert st.ap(res).current == 2  # 0 AP
    give_turn(m, goon)
    script(m, 4, 4)
    _settle(m, m.apply(cmd("fire", goon, option="goon_revolver")))
    events = _settle(m, m.apply(find(m, goon, "assign").command(targets=(cun, cun))))
    assert [e.amount for e in _stress(events)] == [4, 4]


def test_walking_fortress_two_shields_deploy_cover_twice_at_a_time(tmp_path: Path) -> None:
    """Walking Fortress: "You now carry two shields, allowing you to Deploy Cover twice at a time." """
    m = _match(tmp_path, rifters("side1", rifter("resolute", level=4)), outlaws("side2", "outlaw_goon"))
    res = unit(m, "side1")
    place(m, res, at(5))
    give_turn(m, res)
    m.apply(cmd("deploy_cover", res))
    assert m.validate(cmd("deploy_cover", res)) == "Deploy Cover: your shield is already in this tile"
    m.apply(cmd("move", res, path=(at(4),)))
    m.apply(cmd("deploy_cover", res))
    give_turn(m, res)
    m.apply(cmd("move", res, path=(at(3),)))
    assert (
        m.validate(cmd("deploy_cover", res)) == "Deploy Cover: every shield is down; pick one up to redeploy"
    )


def test_covering_fire_the_first_time_any_valid_target_moves_a_1_stress_shot(tmp_path: Path) -> None:
    """Covering Fire (Attack) [2AP]: "The first time any valid target moves until the start of your next
    turn, deal a 1 stress shot against them." (each valid target once: docs/RULES.md R10)"""
    m = _match(tmp_path, rifters("side1", rifter("resolute")), outlaws("side2", "outlaw_goon", "outlaw_goon"))
    res, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, res, at(5))
    place(m, g1, at(10))
    place(m, g2, at(15))  # 10 tiles: out of the 870's 8t
    give_turn(m, res)
    m.apply(cmd("covering_fire", res))
    assert st.ap(res).current == 1
    assert m.validate(cmd("fire", res, option="sullivan_870_hmg")) is not None  # it was the attack
    give_turn(m, g1)
    events = m.apply(cmd("move", g1, path=(at(11), at(12))))
    assert [(e.unit, e.value, e.amount) for e in _stress(events)] == [(g1, 1, 1)]
    events = m.apply(cmd("move", g1, path=(at(11),)))
    assert not _stress(events)  # the first time only
    give_turn(m, g2)
    events = m.apply(cmd("move", g2, path=(at(14), at(13))))
    # at 9 tiles not yet a valid target; at 8 it is: one shot
    assert [(e.unit, e.amount) for e in _stress(events)] == [(g2, 1)]
    _until_turn_of(m, res)
    assert not st.has_status(res, "covering_fire")


def test_suppressive_fire_an_enemy_hit_deals_half_until_the_start_of_your_next_turn(tmp_path: Path) -> None:
    """Suppressive Fire: "An enemy hit by your firearm deals 1/2 stress until the start of your next
    turn." """
    m = _match(tmp_path, rifters("side1", rifter("resolute")), outlaws("side2", "gang_boss"))
    res, boss = unit(m, "side1"), unit(m, "side2")
    place(m, res, at(5))
    place(m, boss, at(9))
    give_turn(m, res)
    script(m, 2, 1, 1)  # Sullivan 870 3d4 / 2+: one hit
    m.apply(cmd("fire", res, option="sullivan_870_hmg"))
    assert st.has_status(boss, "suppressed")
    m.apply(cmd("end_turn", res))
    give_turn(m, boss)
    script(m, 4, 4, 3)  # Twin Revolvers 3d4 / 2+
    events = m.apply(cmd("fire", boss, option="boss_twin_revolvers"))
    assert [(e.value, e.amount, _factors(e)["Suppressed"]) for e in _stress(events)] == [
        (4, 2, Fraction(1, 2)),
        (4, 2, Fraction(1, 2)),
        (3, 1, Fraction(1, 2)),
    ]
    m.apply(cmd("end_turn", boss))
    _until_turn_of(m, res)
    assert not st.has_status(boss, "suppressed")


def test_suppressive_fire_a_covering_fire_shot_is_a_hit_by_your_firearm(tmp_path: Path) -> None:
    """Suppressive Fire: "An enemy hit by your firearm deals 1/2 stress until the start of your next turn."
    Covering Fire: "Set up your gun to sweep the battlefield. The first time any valid target moves ...,
    deal a 1 stress shot against them." The shot is one of the gun's: the mover it hits is Suppressed
    (docs/RULES.md R10a)."""
    m = _match(tmp_path, rifters("side1", rifter("resolute")), outlaws("side2", "outlaw_goon"))
    res, goon = unit(m, "side1"), unit(m, "side2")
    place(m, res, at(5))
    place(m, goon, at(13))
    give_turn(m, res)
    m.apply(cmd("covering_fire", res))
    give_turn(m, goon)
    events = m.apply(cmd("move", goon, path=(at(12), at(11))))  # shot at on its first tile
    assert [(e.unit, e.amount) for e in _stress(events)] == [(goon, 1)]
    assert st.has_status(goon, "suppressed")
    script(m, 4, 3)  # Goon's Revolver 2d4 / 2+
    events = _settle(m, m.apply(cmd("fire", goon, option="goon_revolver")))
    assert [(e.value, e.amount, _factors(e)["Suppressed"]) for e in _stress(events)] == [
        (4, 2, Fraction(1, 2)),
        (3, 1, Fraction(1, 2)),
    ]
    _until_turn_of(m, res)
    assert not st.has_status(goon, "suppressed")


def test_lockdown_enemies_within_range_are_overwhelmed_and_unable_to_move(tmp_path: Path) -> None:
    """Lockdown [3AP]: "Enemies within range are overwhelmed and unable to move until the start of your next
    turn." (range: the longest firearm carried, in sight: docs/RULES.md RB1)"""
    m = _match(
        tmp_path,
        rifters("side1", rifter("resolute", level=7)),
        outlaws("side2", "outlaw_goon", "outlaw_goon"),
    )
    res, g1, g2 = unit(m, "side1"), unit(m, "side2", 0), unit(m, "side2", 1)
    place(m, res, at(5))
    place(m, g1, at(13))  # 8 tiles: the 870's range
    place(m, g2, at(14))
    give_turn(m, res)
    m.apply(cmd("lockdown", res))
    assert st.has_status(g1, "overwhelmed") and not st.has_status(g2, "overwhelmed")
    give_turn(m, g1)
    assert m.validate(cmd("move", g1, path=(at(12),))) == "Move: Overwhelmed units are incapable of moving"
    _until_turn_of(m, res)
    assert not st.has_status(g1, "overwhelmed")
