"""Golden Frontiers' rules on the hex map, each test quoting the rulebook sentence it checks
(../shared/seeds/000_e36ca2019dcddc71.txt; every quote is checked word for word)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.commands import Command
from game.engine.match import Match
from game.rules.golden.components import Health
from game.rules.golden.data import default_data
from game.rules.golden.rules import apply_damage
from game.rules.golden.ruleset import GoldenRuleset
from tests.engine.rulebooks import Quotes
from tests.rules.golden_kit import (
    at,
    cards_on_top,
    char,
    cmd,
    deploy,
    end,
    game,
    health,
    new_match,
    place,
    reason_for,
    round_state,
    script,
)

Q = Quotes()
DATA = default_data()

TIES = Q("golden", "Suite priority is as follows : Spades, Diamonds, Clubs, and Hearts.")
EXAMPLE_TIE = Q(
    "golden",
    "Rusty gets a Ten of Spades and Clem gets a Ten of Hearts. Spades has a higher priority than hearts so "
    "Rusty gets to act first, followed by Clem.",
)
HIGH = Q(
    "golden",
    "The character with the highest card (remember jokers are high; twos are low) gets to act first.",
)
BOTH_JOKERS = Q(
    "golden",
    "In the extremely rare case that both jokers are drawn for initiative, the colored joker has higher "
    "priority.",
)
EVERY_ROUND = Q("golden", "the initiative step is the first thing done at the beginning of every round")
JOKER_END = Q(
    "golden",
    "If a player draws a joker that round of combat is resolved as normal and then the deck the reshuffled "
    "at the end of the round.",
)
BIDE = Q("golden", "Gives the player the choice to take their action after somebody with lower initiative.")
WAIT = Q(
    "golden",
    "If a player chooses to wait the whole round so that they may act first the next round they will not "
    "draw a new initiative card on that round, they already know they are first to act.",
)
MULTI = Q(
    "golden",
    "So if two people choose to bide time through the whole round then the player who had higher initiative "
    "this round will still have highest initiative next round, followed by the person who bode their time "
    "with the next highest initiative.",
)
MOVE = Q(
    "golden",
    "Keep in mind that a character is able to shoot their revolver and then move, but will not be able to "
    "move as far as they would if they moved the whole round while also firing.",
)
HARDER = Q(
    "golden",
    "However, this would cause the shot to be more difficult as the attacker is moving and firing at the "
    "same time.",
)
LOADING = Q("golden", "Weapons that require ammo take time to load or reload.")
HIT = Q("golden", "An attack hits if the attackers number is higher than the defenders.")
MISS = Q(
    "golden",
    "An attack misses (or is dodged by the defender) if the defenders number is higher than the attackers.",
)
ACE = Q("golden", "These rolls may ace (explained in the Skill Checks section).")
TIE = Q(
    "golden",
    "If both attackers and defenders numbers are equal then the attacker and defender each draw a card from "
    "the top of the deck, placing the card face up in front of them. If the attacker draws the higher card "
    "then a hit is scored, if the defenders card is higher than the attack is a miss.",
)
DAMAGE_CARD = Q(
    "golden",
    "If a hit is scored the attacker draws a card from the top of the deck and places it face up in front of "
    "them. This card determines how much damage was dealt to the defender.",
)
THREE_DRAWN = Q("golden", "Draws a card from the deck and places it face up for damage. A three was drawn.")
GRAZES = Q(
    "golden",
    "If a character has two grazes and would receive a third they instead receive a wound. The two grazes "
    "the character had are removed, resetting the character to zero grazes.",
)
AT_MAX = Q(
    "golden",
    "If a character is at his maximum amount of wounds and would receive another wound they instead receive "
    "a crippling wound.",
)
NO_CARD = Q(
    "golden",
    "When a character has a crippling wound they are no longer in combat. They do not get an initiative card "
    "and are unable to attack anybody.",
)
CLEARED = Q(
    "golden",
    "When a crippling wound is inflicted all other grazes or wounds are removed from the character.",
)
KILLED = Q("golden", "Characters may only be killed in Golden Frontiers by being executed")
KNIFE = Q(
    "golden", "Ok, roll the die associated with your knife. Clem, roll the die associated with your reflexes."
)
CLEM = Q("golden", "Rolls his die and gets a two, but his reflexes modifier brings his roll up to a three.")
MODIFIERS = Q(
    "golden",
    "When a roll is made using one of these traits, the die is modified positively by the amount listed.",
)
SURVIVAL = Q(
    "golden",
    "The amount of wounds a character may suffer is determined by their survival skill, this is known as "
    "Max Wounds.",
)


def test_every_quote_is_word_for_word_in_its_rulebook() -> None:
    Q.check()


def duel(
    tmp_path: Path, a: dict[str, object] | None = None, b: dict[str, object] | None = None, seed: int = 1
):
    """Rusty (side1) and Clem (side2), three hexes apart on an open map; round 1 cards 10S / 10H."""
    rusty = char("Rusty", **(a or {}))  # type: ignore[arg-type]
    clem = char("Clem", **(b or {}))  # type: ignore[arg-type]
    match = new_match(tmp_path, (rusty,), (clem,), seed)
    deploy(match, {1: at(3), 2: at(6)}, cards=("10S", "10H"))
    return match


# -- initiative ----------------------------------------------------------------------------------------
def test_equal_cards_go_by_suit_spades_first(tmp_path: Path) -> None:
    assert TIES and EXAMPLE_TIE
    match = duel(tmp_path)
    g, _ = game(match)
    assert g.order == [1, 2] and g.active == 1
    assert [e.label for e in match.tracker()] == ["10♠", "10♥"]
    match2 = new_match(tmp_path / "b", (char("Rusty"),), (char("Clem"),))
    deploy(match2, cards=("10H", "10S"))
    assert game(match2)[0].order == [2, 1]


def test_jokers_are_high_twos_low_and_the_coloured_joker_first(tmp_path: Path) -> None:
    assert HIGH and BOTH_JOKERS
    match = new_match(tmp_path, (char("A"), char("B")), (char("C"), char("D")))
    deploy(match, cards=("2S", "BJ", "AS", "RJ"))
    assert game(match)[0].order == [4, 2, 3, 1]


def test_cards_are_dealt_again_every_round(tmp_path: Path) -> None:
    assert EVERY_ROUND
    match = duel(tmp_path)
    cards_on_top(match, "3C")
    end(match)  # Rusty
    cards_on_top(match, "2D", "KD")  # next round: Rusty 2D, Clem KD
    end(match)  # Clem: the round ends, round 2 deals new cards
    g, deck = game(match)
    assert g.round == 2 and g.order == [2, 1]
    assert (round_state(match, 1).card, round_state(match, 2).card) == ("2D", "KD")
    assert deck.remaining == 54 - 4 and sorted(deck.discards) == ["10H", "10S"]


def test_a_joker_reshuffles_all_54_cards_at_the_end_of_the_round(tmp_path: Path) -> None:
    assert JOKER_END
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"),))
    deploy(match, cards=("RJ", "5H"))
    g, deck = game(match)
    assert deck.reshuffle_due and "reshuffle at the end of the round" in match.tracker_note()
    end(match)
    end(match)
    g, deck = game(match)
    assert g.round == 2 and not deck.reshuffle_due
    assert deck.remaining == 52 and not deck.discards  # all 54 reshuffled, then two dealt


def test_crippled_units_get_no_card(tmp_path: Path) -> None:
    assert NO_CARD
    # three in the posse, so one crippled is not yet the share at which it gives up (G21)
    match = new_match(tmp_path, (char("Rusty"), char("Doc"), char("Wes")), (char("Clem"),))
    deploy(match)
    health(match, 2).crippled = True
    while game(match)[0].round == 1:
        end(match)
    assert round_state(match, 2).card == "" and 2 not in game(match)[0].order
    assert game(match)[1].remaining == 54 - 4 - 3


# -- Biding Time and waiting ----------------------------------------------------------------------------
def test_biding_time_acts_after_somebody_with_lower_initiative(tmp_path: Path) -> None:
    assert BIDE
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"), char("Bart")))
    deploy(match, cards=("AS", "KS", "QS"))  # Rusty, Clem, Bart
    match.apply(cmd("bide", 1))
    g, _ = game(match)
    assert g.active == 2 and round_state(match, 1).biding
    end(match)  # Clem acted: Rusty is asked
    g, _ = game(match)
    assert g.phase == "window" and g.asking == [1]
    prompt = match.prompt()
    assert prompt is not None and prompt.decider == 1 and "biding" in prompt.text
    match.apply(cmd("act_now", 1))
    g, _ = game(match)
    assert g.active == 1 and not round_state(match, 1).biding
    end(match)  # Rusty done; Bart acts last
    assert game(match)[0].active == 3


def test_a_bider_may_keep_waiting_after_each_activation(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"), char("Bart")))
    deploy(match, cards=("AS", "KS", "QS"))
    match.apply(cmd("bide", 1))
    end(match)
    match.apply(cmd("keep_biding", 1))
    assert game(match)[0].active == 3
    end(match)  # Bart done: the round's last window
    g, _ = game(match)
    assert g.phase == "window" and g.last
    labels = {a.action: a.label for a in match.legal_actions()}
    assert "whole round" in labels["keep_biding"]
    match.apply(cmd("act_now", 1))
    assert game(match)[0].active == 1


def test_waiting_the_whole_round_acts_first_next_round_without_a_card(tmp_path: Path) -> None:
    assert WAIT
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"),))
    deploy(match, cards=("2S", "KS"))  # Clem first
    end(match)
    match.apply(cmd("wait_round", 1))
    g, deck = game(match)
    assert g.round == 2 and g.order[0] == 1 and g.active == 1
    assert round_state(match, 1).card == "" and round_state(match, 2).card
    assert deck.remaining == 54 - 2 - 1  # only Clem drew in round 2
    assert match.tracker()[0].label == "first (waited)" and not match.tracker()[0].card


def test_several_waiters_keep_their_order(tmp_path: Path) -> None:
    assert MULTI
    match = new_match(tmp_path, (char("Rusty"), char("Doc")), (char("Clem"),))
    deploy(match, cards=("KS", "QS", "AS"))  # Clem AS, Rusty KS, Doc QS
    end(match)  # Clem
    match.apply(cmd("wait_round", 1))
    match.apply(cmd("wait_round", 2))
    g, _ = game(match)
    assert g.round == 2 and g.order[:2] == [1, 2]


# -- one action, movement, loading ---------------------------------------------------------------------
def test_one_action_a_round(tmp_path: Path) -> None:
    match = duel(tmp_path)
    script(match, 7, 1)  # Rusty 7 against Clem's 1: a hit
    cards_on_top(match, "3C")
    match.apply(cmd("attack", 1, target=2, option="revolver"))
    assert game(match)[0].active == 1  # may still move (3 hexes)
    assert "taken this round's action" in (reason_for(match, 1, "attack", "revolver") or "")


def test_moving_is_free_but_shortens_with_an_action(tmp_path: Path) -> None:
    """MOVE (G9): a walk of up to the move with an action keeps the action, before, after or split around
    it; a run reaches the hexes beyond it, up to the whole move, and takes the round's action."""
    assert MOVE
    enc = DATA.encounter
    match = duel(tmp_path)
    move = next(a for a in match.legal_actions() if a.action == "move")
    run = next(a for a in match.legal_actions() if a.action == "run")
    assert max(move.paths.costs.values()) == enc.move_with_action  # type: ignore[union-attr]
    assert max(run.paths.costs.values()) == enc.move  # type: ignore[union-attr]
    assert run.cost == 1 and move.cost == 0  # the AI and the action bar read a run as the action spent
    assert set(run.hexes).isdisjoint(move.hexes)  # a run only reaches further than a walk
    match.apply(cmd("move", 1, path=(at(3), at(2))))
    script(match, 7, 1)
    cards_on_top(match, "3C")
    match.apply(cmd("attack", 1, target=2, option="revolver"))
    move = next(a for a in match.legal_actions() if a.action == "move")
    assert max(move.paths.costs.values()) == enc.move_with_action - 1  # type: ignore[union-attr]
    assert "taken this round's action" in (reason_for(match, 1, "run") or "")


def test_a_long_move_leaves_no_action(tmp_path: Path) -> None:
    """MOVE (G9): a unit that has walked as far as an action allows must run to go further, and a run
    leaves it no action; it may then run on to the whole move."""
    enc = DATA.encounter
    match = duel(tmp_path)
    place(match, 1, at(12))  # Clem stands at column 6: Rusty walks right, away from him, along the row
    walk = enc.move_with_action
    match.apply(cmd("move", 1, path=tuple(at(12 + i) for i in range(walk + 1))))
    assert "run to go further" in (reason_for(match, 1, "move") or "")
    assert reason_for(match, 1, "attack", "revolver") is None  # the action is still there
    match.apply(cmd("run", 1, path=(at(12 + walk), at(13 + walk))))
    assert f"moved {walk + 1} hexes" in (reason_for(match, 1, "attack", "revolver") or "")
    move = next(a for a in match.legal_actions() if a.action == "move")
    assert move.enabled and max(move.paths.costs.values()) == enc.move - walk - 1  # type: ignore[union-attr]


def test_a_shot_after_moving_is_harder(tmp_path: Path) -> None:
    assert HARDER
    match = duel(tmp_path)
    still = match.preview(Command("attack", actor=1, target=2, option="revolver"))
    match.apply(cmd("move", 1, path=(at(3), at(2))))
    moving = match.preview(Command("attack", actor=1, target=2, option="revolver"))
    assert still is not None and moving is not None
    assert ("moving", -1) in moving.modifiers and moving.hit_chance < still.hit_chance


def test_loading_an_empty_revolver_takes_the_round(tmp_path: Path) -> None:
    assert LOADING
    match = duel(tmp_path)
    match.enter()
    import esper

    from game.rules.golden.components import Arms

    esper.component_for_entity(1, Arms).loaded[0] = 0
    assert "empty: load it" in (reason_for(match, 1, "attack", "revolver") or "")
    match.apply(cmd("load", 1, option="revolver"))
    assert esper.component_for_entity(1, Arms).loaded[0] == 6
    assert round_state(match, 1).acted


def test_a_rifle_loads_free_once_a_round(tmp_path: Path) -> None:
    match = duel(tmp_path, a={"items": ("rifle",), "k": 8, "s": 4, "i": 4, "r": 8})
    script(match, 9, 1)
    cards_on_top(match, "3C")
    match.apply(cmd("attack", 1, target=2, option="rifle"))
    assert reason_for(match, 1, "load", "rifle") is None
    match.apply(cmd("load", 1, option="rifle"))
    assert round_state(match, 1).free_load  # loading the rifle took no action (the shot did)
    import esper

    from game.rules.golden.components import Arms

    match.enter()
    esper.component_for_entity(1, Arms).loaded[0] = 0  # set-up: emptied again
    assert "loaded once this round" in (reason_for(match, 1, "load", "rifle") or "")


FIRED_SAME_ROUND = Q(
    "golden",
    "A weapon such as this may not take a full round to load and may even be fired on the same round that it "
    "was loaded.",
)


def test_an_empty_rifle_is_loaded_free_as_it_fires(tmp_path: Path) -> None:
    """FIRED_SAME_ROUND (G11, own): a shot with an empty gun that loads free takes that round's free load
    first, so the Rifle fires every round; a gun whose loading is an action cannot."""
    assert FIRED_SAME_ROUND
    import esper

    from game.rules.golden.components import Arms

    match = duel(tmp_path, a={"items": ("rifle",), "k": 8, "s": 4, "i": 4, "r": 8})
    match.enter()
    esper.component_for_entity(1, Arms).loaded[0] = 0
    attack = next(a for a in match.legal_actions() if a.action == "attack" and a.option == "rifle")
    assert attack.enabled and "loads free" in attack.label
    preview = match.preview(Command("attack", actor=1, target=2, option="rifle"))
    assert preview is not None and preview.hit_chance > 0
    script(match, 9, 1)
    cards_on_top(match, "3C")
    match.apply(cmd("attack", 1, target=2, option="rifle"))
    match.enter()
    assert esper.component_for_entity(1, Arms).loaded[0] == 0  # loaded, then fired
    assert round_state(match, 1).free_load  # the round's free load is used
    assert any("loads the Rifle (free) and fires" in str(e) for e in match.history)
    other = duel(tmp_path / "b")
    other.enter()
    esper.component_for_entity(1, Arms).loaded[0] = 0  # the revolver: loading it is the round's action
    assert "empty: load it first" in (reason_for(other, 1, "attack", "revolver") or "")
    assert other.preview(Command("attack", actor=1, target=2, option="revolver")) is None


# -- the attack -------------------------------------------------------------------------------------------
def test_a_hit_needs_a_higher_number_and_draws_the_damage_card(tmp_path: Path) -> None:
    assert HIT and DAMAGE_CARD and THREE_DRAWN
    match = duel(tmp_path)
    script(match, 5, 4)
    cards_on_top(match, "3C")
    events = match.apply(cmd("attack", 1, target=2, option="revolver"))
    assert health(match, 2).grazes == 1
    assert any("damage card 3♣: Graze" in getattr(e, "rule", "") for e in events)
    assert "3C" in game(match)[1].discards


def test_a_higher_defence_dodges(tmp_path: Path) -> None:
    assert MISS and CLEM
    # Clem's Reflexes d8 (+1): he rolls a two, "brings his roll up to a three"; Rusty's knife rolls a two
    match = duel(tmp_path, a={"items": ("knife",), "r": 6}, b={"r": 8, "s": 4, "i": 6, "k": 6})
    script(match, 2, 2)
    from tests.rules.golden_kit import place

    place(match, 2, at(4))
    events = match.apply(cmd("attack", 1, target=2, option="knife"))
    rolls = [e for e in events if type(e).__name__ == "Roll"]
    assert rolls[0].total == 2 and rolls[1].total == 3 and rolls[0].success is False
    assert health(match, 2).grazes == 0


def test_both_rolls_ace(tmp_path: Path) -> None:
    assert ACE
    match = duel(tmp_path)
    script(match, 8, 8, 2, 6, 1)  # Rusty: 8 + 8 + 2 = 18; Clem d6: 6 + 1 = 7
    cards_on_top(match, "9C")
    events = match.apply(cmd("attack", 1, target=2, option="revolver"))
    rolls = [e for e in events if type(e).__name__ == "Roll"]
    assert rolls[0].dice == (8, 8, 2) and rolls[0].total == 18
    assert rolls[1].dice == (6, 1) and rolls[1].total == 7
    assert health(match, 2).wounds == 1
    # the combat log shows the aces as chains
    assert any(
        getattr(e, "rule", "") == "aces: Revolver 8\u21928\u21922 = 18 against Reflexes 6\u21921 = 7"
        for e in events
    )


def test_a_tie_is_decided_by_two_cards(tmp_path: Path) -> None:
    assert TIE
    match = duel(tmp_path)
    script(match, 4, 4)
    cards_on_top(match, "7S", "7H", "KD")  # attacker 7S beats 7H: a hit, damage KD: a wound
    match.apply(cmd("attack", 1, target=2, option="revolver"))
    assert health(match, 2).wounds == 1
    match2 = duel(tmp_path / "b")
    script(match2, 4, 4)
    cards_on_top(match2, "7H", "7S")
    match2.apply(cmd("attack", 1, target=2, option="revolver"))
    assert health(match2, 2) == Health(3)  # the defender's card is higher: a miss


def test_the_knife_adds_its_associated_trait_and_guns_none(tmp_path: Path) -> None:
    assert KNIFE and MODIFIERS
    match = duel(tmp_path, a={"items": ("knife", "revolver"), "r": 10, "s": 4, "i": 4, "k": 6})
    from tests.rules.golden_kit import place

    place(match, 2, at(4))
    knife = match.preview(Command("attack", actor=1, target=2, option="knife"))
    gun = match.preview(Command("attack", actor=1, target=2, option="revolver"))
    assert knife is not None and gun is not None
    assert ("Reflexes", 2) in knife.modifiers and not any(n == "Reflexes" for n, _ in gun.modifiers)


def test_trait_modifiers_and_max_wounds_follow_the_table() -> None:
    assert SURVIVAL
    assert [DATA.traits.modifier(d) for d in (4, 6, 8, 10, 12)] == [0, 0, 1, 2, 3]
    assert [DATA.traits.wounds(d) for d in (4, 6, 8, 10, 12)] == [2, 3, 3, 4, 5]


def test_the_equipment_table() -> None:
    w = DATA.weapons
    assert (w["knife"].dice, w["knife"].trait, w["knife"].cost) == (("1d6",), "reflexes", 2)
    assert (w["revolver"].dice, w["revolver"].ammo, w["revolver"].cost) == (("1d8",), 6, 3)
    assert (w["rifle"].dice, w["rifle"].ammo, w["rifle"].cost) == (("1d10",), 1, 5)
    assert (w["shotgun"].dice[0], w["shotgun"].dice[-1], w["shotgun"].ammo, w["shotgun"].cost) == (
        "2d8",
        "1d6",
        2,
        5,
    )
    assert all(DATA.gear[g].cost == 1 for g in ("clothes", "hat", "boots", "canteen", "satchel"))


# -- damage -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("card", "result"),
    [
        ("2S", "graze"),
        ("8H", "graze"),
        ("9D", "wound"),
        ("KC", "wound"),
        ("AS", "two_wounds"),
        ("RJ", "crippling"),
        ("BJ", "crippling"),
    ],
)
def test_the_damage_table(card: str, result: str) -> None:
    from game.rules.golden.rules import card_result

    assert card_result(DATA, card) == result


def test_a_third_graze_is_a_wound() -> None:
    assert GRAZES
    h = Health(3, grazes=2)
    assert apply_damage(h, "graze") == ["wound"]
    assert (h.grazes, h.wounds) == (0, 1)


def test_a_wound_beyond_max_wounds_cripples_and_clears() -> None:
    assert AT_MAX and CLEARED
    h = Health(3, grazes=1, wounds=3)
    assert apply_damage(h, "wound") == ["crippled"]
    assert h.crippled and (h.grazes, h.wounds) == (0, 0)


def test_two_wounds_at_max_minus_one_wound_then_cripple() -> None:
    h = Health(3, wounds=2)
    assert apply_damage(h, "two_wounds") == ["wound", "crippled"]
    assert h.crippled


def test_a_crippled_unit_cannot_attack_and_dies_only_by_execution(tmp_path: Path) -> None:
    assert KILLED
    match = duel(tmp_path)
    from tests.rules.golden_kit import place

    place(match, 2, at(4))
    script(match, 7, 1)
    cards_on_top(match, "RJ")  # a crippling wound
    events = match.apply(cmd("attack", 1, target=2, option="revolver"))
    assert health(match, 2).crippled and not health(match, 2).dead
    assert match.is_over  # Clem was the last of the outlaws fighting
    assert any(getattr(e, "status", "") == "crippled" for e in events)
    assert "attack" not in {a.action for a in match.legal_actions()}  # the encounter is over


def test_execution_takes_the_action_on_a_crippled_neighbour(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty"),), (char("Clem"), char("Bart"), char("Jim")))
    deploy(match, {1: at(3), 2: at(4), 3: at(10), 4: at(11)}, cards=("AS", "2S", "3S", "4S"))
    health(match, 2).crippled = True  # one of three: the Outlaws fight on (G21)
    execute = next(a for a in match.legal_actions() if a.action == "execute")
    assert execute.enabled and execute.targets == (2,)
    match.apply(cmd("execute", 1, target=2))
    assert health(match, 2).dead and 2 not in match.units()
    assert "taken this round's action" in (reason_for(match, 1, "attack", "revolver") or "")


def test_the_preview_is_exact_with_the_tie_share_and_the_damage_card_odds(tmp_path: Path) -> None:
    from game.engine.dice import ExplodingDie, opposed
    from game.ui.battle_words import preview_text

    match = duel(tmp_path, b={"r": 8, "s": 4, "i": 6, "k": 6})
    preview = match.preview(Command("attack", actor=1, target=2, option="revolver"))
    assert preview is not None
    contest = opposed(ExplodingDie(8), ExplodingDie(8, 1))
    # two cards from the 52 left after the initiative deal always differ: the tie is won half the time
    assert preview.hit_chance == contest.win + contest.tie / 2
    assert preview.damage.probability(0) == 1 - preview.hit_chance
    text = preview_text(preview)
    assert "tie \u2192 cards" in text and "damage card: Graze" in text and "Crippling Wound" in text


def test_the_damage_odds_after_a_tie_take_the_two_tie_cards_out_first(tmp_path: Path) -> None:
    """TIE, DAMAGE_CARD (G24): the tie cards are drawn before the damage card, so a hit's damage odds are
    the next card's after a higher number and, after a tie won by the cards, the card's after those two:
    with two cards left in the pile the tie takes both and the damage card comes from the reshuffled
    discards. The preview's damage is that mixture, exactly."""
    assert TIE and DAMAGE_CARD
    from fractions import Fraction

    from game.engine.dice import ExplodingDie, opposed
    from game.rules.golden.rules import damage_odds, tie_damage_odds

    match = duel(tmp_path, b={"r": 8, "s": 4, "i": 6, "k": 6})
    _, deck = game(match)
    spent = [c for c in deck.pile if c not in ("AS", "2H")]
    deck.pile = ["AS", "2H"]  # an Ace and a two on the pile; everything else discarded
    deck.discards = spent
    cmd_ = Command("attack", actor=1, target=2, option="revolver")
    preview = match.preview(cmd_)
    assert preview is not None
    contest = opposed(ExplodingDie(8), ExplodingDie(8, 1))
    higher, share = contest.win, contest.tie * Fraction(1, 2)  # the Ace wins if the attacker draws it
    assert preview.hit_chance == higher + share
    after_tie = tie_damage_odds(DATA, deck, deck.spec())
    # the tie took the Ace and the two: the damage card comes from all 52 cards off the pile again
    assert after_tie == damage_odds(DATA, dict.fromkeys([*spent, "AS", "2H"], 1))
    next_card = damage_odds(DATA, deck.next_counts())
    assert next_card == {"graze": Fraction(1, 2), "two_wounds": Fraction(1, 2)}
    hit = higher + share
    for result in ("graze", "wound", "two_wounds", "crippling"):
        expected = next_card.get(result, Fraction(0)) * higher + after_tie[result] * share
        assert expected == hit * _share(preview, result)


def _share(preview: object, result: str) -> object:
    """The chance of a damage result given a hit, read back from a preview on a fresh target (d4 Survival:
    Max Wounds 2, crippled at 9 graze points): Graze 1 point, Wound 3, Two Wounds 6, Crippling 9."""
    from game.engine.protocol import AttackPreview

    assert isinstance(preview, AttackPreview)
    points = {"graze": 1, "wound": 3, "two_wounds": 6, "crippling": 9}[result]
    return preview.damage.probability(points) / preview.hit_chance


LARGE_GROUPS = Q(
    "golden",
    "When the GM thinks it is appropriate they may use one card to represent priority for the whole group.",
)
PLAYERS_DRAW = Q(
    "golden",
    "Players should always draw an initiative card and not be part of a Large Group Initiative card.",
)


def test_npcs_of_one_template_share_a_card_and_characters_draw_their_own(tmp_path: Path) -> None:
    assert LARGE_GROUPS and PLAYERS_DRAW
    from game.rules import UnitSpec

    match = new_match(tmp_path, (char("Rusty"),), (UnitSpec("gunhand"), char("Clem"), UnitSpec("gunhand")))
    deploy(match, cards=("5S", "KS", "9D"))  # Rusty 5S; the gunhands' one card KS; Clem 9D
    assert [round_state(match, u).card for u in (1, 2, 3, 4)] == ["5S", "KS", "9D", "KS"]
    assert game(match)[0].order == [2, 4, 3, 1]  # the group acts together, in posse order
    assert game(match)[1].remaining == 54 - 3


NO_LONGER_IN_COMBAT = Q("golden", "When a character has a crippling wound they are no longer in combat.")


def _giving_up(share: float) -> GoldenRuleset:
    return GoldenRuleset(replace(DATA, encounter=replace(DATA.encounter, gives_up_at=share)))


def _cripple_clem(match: Match) -> None:
    """Rusty (unit 1, first with K♠) shoots Clem (unit 3): 7 against 1, the Red Joker for damage."""
    script(match, 7, 1)
    cards_on_top(match, "RJ")
    match.apply(cmd("attack", 1, target=3, option="revolver"))
    assert health(match, 3).crippled


def test_a_posse_gives_up_once_half_its_units_are_out(tmp_path: Path) -> None:
    """NO_LONGER_IN_COMBAT (G21, own victory): a crippled unit is out of the fight, and a posse gives up
    once ``gives_up_at`` of the units it fielded are out — the shipped data's share, and 1 (to the last)
    for comparison."""
    assert NO_LONGER_IN_COMBAT
    share = DATA.encounter.gives_up_at
    assert 0 < share <= 0.5  # shipped: a posse of four gives up with two out
    spots = {1: at(3), 2: at(2), 3: at(6), 4: at(7)}
    cards = ("KS", "2H", "3H", "4H")
    for value, over in ((0.5, True), (1.0, False)):
        ruleset = _giving_up(value)
        match = new_match(
            tmp_path / str(value),
            (char("Rusty"), char("Doc")),
            (char("Clem"), char("Jesse")),
            ruleset=ruleset,
        )
        deploy(match, spots, cards)
        _cripple_clem(match)
        outcome = match.outcome()
        if over:  # one of two out: half the posse
            assert match.is_over and outcome is not None and outcome.winner == "side1"
            assert "gave up the fight" in outcome.reason
        else:
            assert not match.is_over and outcome is None


def test_the_sun_goes_down_after_the_round_limit(tmp_path: Path) -> None:
    match = new_match(tmp_path, (char("Rusty"), char("Doc")), (char("Clem"),))
    deploy(match)
    health(match, 3).wounds = 1
    limit = DATA.encounter.max_rounds
    while not match.is_over:
        end(match)
    g, _ = game(match)
    outcome = match.outcome()
    assert g.round == limit and outcome is not None and outcome.winner == "side1"
    assert f"after {limit} rounds" in outcome.reason
