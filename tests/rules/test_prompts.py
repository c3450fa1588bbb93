"""The decisions that break into the turns, as the battle screen's banner shows them (``Ruleset.prompt``),
and the words a player is offered with them: a Through the Rift hit assignment's dice (``LegalAction.dice``)
and reaction windows, the Frontier Joker's places (``LegalAction.choice_labels``). Rift dice are scripted;
set-ups place units and hand out turns directly (``rift_kit``); everything checked goes through commands.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from game.engine.match import Match
from game.events import Roll
from game.rules import Prompt
from game.rules.frontier import state as st
from tests.rules import frontier_kit as fk
from tests.rules import rift_kit as rk
from tests.rules.frontier_kit import at, open_map

PISTOL = "mdtc_model_4_pistol"


def _rift(tmp_path: Path, *chars: object, goons: int = 1) -> Match:
    m = rk.new_match(
        rk.rifters("side1", *chars),  # type: ignore[arg-type]
        rk.outlaws("side2", *["outlaw_goon"] * goons),
        1,
        open_map(tmp_path),
    )
    rk.deploy(m)
    return m


def _prompt(m: Match) -> Prompt | None:
    return m.ruleset.prompt(m)


def _name(m: Match, who: int) -> str:
    return m.identity(who).name


# == Through the Rift ===============================================================================


def test_assign_offers_the_hit_dice_in_die_order_and_the_prompt_names_them(tmp_path: Path) -> None:
    """Fire Firearm: "Check each die separately against the threshold value. A result equal or higher is a
    success." then "Assign each die to a valid target. You may choose the same target more than once." -
    ``dice`` are the successes of the Roll event in the order rolled, one per pick."""
    m = _rift(tmp_path, rk.rifter("cunning"), goons=2)
    me, g1, g2 = rk.unit(m, "side1"), rk.unit(m, "side2", 0), rk.unit(m, "side2", 1)
    rk.place(m, me, at(5))
    rk.place(m, g1, at(8))
    rk.place(m, g2, at(9))
    rk.give_turn(m, me)
    rk.script(m, 5, 1, 6)  # the Model 4 Pistol, 3d6 / 5+: a hit, a miss, a hit
    events = m.apply(rk.cmd("fire", me, option=PISTOL))
    (rolled,) = [e for e in events if isinstance(e, Roll)]
    assert rolled.target_number is not None
    assign = rk.find(m, me, "assign")
    assert assign.dice == tuple(d for d in rolled.dice if d >= rolled.target_number) == (5, 6)
    assert len(assign.dice) == assign.max_picks
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "Assign the hits"
    assert prompt.text == (
        'Cunning fires the "Standard" MDTC Model 4 Pistol: 2 hits (5 and 6). Assign each die to a valid '
        "target; the same one may take several."
    )
    assert (prompt.decider, prompt.cause, prompt.about) == (me, me, assign.targets)
    m.apply(assign.command(targets=(g1, g2)))
    assert _prompt(m) is None  # no one can react: the hits landed and the turn goes on


def test_hold_fire_nudge_window_names_the_holder_the_mover_and_the_nudge(tmp_path: Path) -> None:
    """Hold Fire: "Ready yourself, firing your firearm at the first valid target to move, until the start of
    your next turn." Nudge: "Treat the firearm roll of an ally within 6t as if it was 2 higher.", off-turn
    by Battlefield Commander: the holder's ally is asked before the roll, and the banner says why."""
    m = _rift(tmp_path, rk.rifter("cunning", "Holder"), rk.rifter("cunning", "Doc"))
    holder, doc, goon = rk.unit(m, "side1", 0), rk.unit(m, "side1", 1), rk.unit(m, "side2")
    rk.place(m, holder, at(5))
    rk.place(m, doc, at(4))
    rk.place(m, goon, at(12))  # 7 tiles: beyond the pistol's 6t
    rk.give_turn(m, holder)
    m.apply(rk.cmd("hold_fire", holder, option=PISTOL))
    rk.give_turn(m, doc)  # Doc keeps 3 AP for the goon's turn
    rk.give_turn(m, goon)
    assert _prompt(m) is None
    m.apply(rk.cmd("move", goon, path=(at(12), at(11))))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "Hold Fire! React before the roll"
    assert prompt.text == (
        'Holder fires the "Standard" MDTC Model 4 Pistol at Outlaw Goon as Outlaw Goon moves. '
        "Doc may use Nudge, or pass."
    )
    assert (prompt.decider, prompt.cause, prompt.about) == (doc, holder, (goon,))
    m.apply(rk.find(m, doc, "nudge").command(target=holder))
    prompt = _prompt(m)
    assert prompt is not None and prompt.text.endswith("Doc can only pass now.")  # 1 AP left
    rk.script(m, 1, 1, 1)
    m.apply(rk.find(m, doc, "pass").command())
    assert _prompt(m) is None


def test_hold_fire_protect_window_names_the_endangered_mover_and_the_hits_coming(tmp_path: Path) -> None:
    """Hold Fire: "firing your firearm at the first valid target to move"; "Duck!": "Prevent all damage an
    ally within 6t would take this turn." - the mover's ally is asked after the roll, told who fired at whom
    and the hits about to land."""
    m = _rift(tmp_path, rk.rifter("deliberate", "Kid"), rk.rifter("cunning", "Doc"))
    kid, doc, goon = rk.unit(m, "side1", 0), rk.unit(m, "side1", 1), rk.unit(m, "side2")
    rk.place(m, goon, at(5))
    rk.place(m, kid, at(12))
    rk.place(m, doc, at(13))
    rk.give_turn(m, goon)
    m.apply(rk.cmd("hold_fire", goon, option="goon_revolver"))
    rk.give_turn(m, doc)
    rk.give_turn(m, kid)
    rk.script(m, 4, 3)  # Goon's Revolver, 2d4 / 2+: two hits
    m.apply(rk.cmd("move", kid, path=(at(12), at(11), at(10))))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "Hold Fire! React before the hits land"
    assert prompt.text == (
        "Outlaw Goon fires Goon's Revolver at Kid as Kid moves. Hits coming: 4 and 3 on Kid. "
        'Doc may use "Duck!", or pass.'
    )
    assert (prompt.decider, prompt.cause, prompt.about) == (doc, goon, (kid,))
    before = m.digest()
    assert _prompt(m) == prompt and m.digest() == before  # asking changes nothing
    assert st.hex_of(kid) == at(11)  # stopped on the tile that set it off
    m.apply(rk.find(m, doc, "pass").command())
    assert _prompt(m) is None and st.hex_of(kid) == at(10)


def test_covering_fire_protect_window_says_the_shot_is_at_the_mover_as_it_moves(tmp_path: Path) -> None:
    """Covering Fire (Attack) [2AP]: "The first time any valid target moves until the start of your next
    turn, deal a 1 stress shot against them." - no roll, so no Nudge; the mover's ally may still Duck."""
    res_posse = replace(rk.rifters("side2", rk.rifter("resolute", "Res")), faction="outlaws")
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("deliberate", "Kid"), rk.rifter("cunning", "Doc")),
        res_posse,
        1,
        open_map(tmp_path),
    )
    rk.deploy(m)
    kid, doc, res = rk.unit(m, "side1", 0), rk.unit(m, "side1", 1), rk.unit(m, "side2")
    rk.place(m, res, at(5))
    rk.place(m, kid, at(10))
    rk.place(m, doc, at(11))
    rk.give_turn(m, res)
    m.apply(rk.cmd("covering_fire", res))
    rk.give_turn(m, doc)
    rk.give_turn(m, kid)
    m.apply(rk.cmd("move", kid, path=(at(10), at(9))))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "Covering Fire! React before the hits land"
    assert prompt.text == (
        'Res fires a 1 stress shot at Kid as Kid moves. Hits coming: 1 on Kid. Doc may use "Duck!", or pass.'
    )
    assert (prompt.decider, prompt.cause, prompt.about) == (doc, res, (kid,))


def test_protect_window_after_assignment_names_each_unit_hit_and_offers_dodge_roll(tmp_path: Path) -> None:
    """Dodge Roll: "Move 1 tile. Prevent all stress you take this turn. You may use this ability at any
    point between the start of your turn and the start of your next turn." - asked once the hits are
    assigned, with every hit about to land, unit by unit."""
    m = _rift(tmp_path, rk.rifter("daring", "Dash", level=7), rk.rifter("deliberate", "Kid"))
    dash, kid, goon = rk.unit(m, "side1", 0), rk.unit(m, "side1", 1), rk.unit(m, "side2")
    rk.place(m, goon, at(5))
    rk.place(m, dash, at(8))
    rk.place(m, kid, at(9))
    rk.give_turn(m, dash)
    rk.give_turn(m, goon)
    rk.script(m, 4, 2)
    m.apply(rk.cmd("fire", goon, option="goon_revolver"))
    m.apply(rk.find(m, goon, "assign").command(targets=(dash, kid)))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "React before the hits land"
    assert prompt.text == (
        "Outlaw Goon fires Goon's Revolver. Hits coming: 4 on Dash; 2 on Kid. "
        "Dash may use Dodge Roll, or pass."
    )
    assert (prompt.decider, prompt.cause) == (dash, goon)
    assert set(prompt.about) == {dash, kid}


def test_turn_start_window_offers_tactical_reposition_then_each_step(tmp_path: Path) -> None:
    """Battlefield Commander: "You can spend action points on cunning attitude actions at any time between
    the start of your turn and the start of your next turn." Tactical Reposition: "You and each of your
    allies within 6t may move 1t." - asked as the goon's turn starts, then each mover in turn."""
    m = _rift(tmp_path, rk.rifter("cunning", level=7), rk.rifter("deliberate", "Near"))
    cun, near, goon = rk.unit(m, "side1", 0), rk.unit(m, "side1", 1), rk.unit(m, "side2")
    rk.place(m, cun, at(5))
    rk.place(m, near, at(8))
    rk.place(m, goon, at(14))
    g = rk.game(m)
    g.order = [cun, goon, near]
    rk.give_turn(m, cun)
    assert _prompt(m) is None  # its own turn: an ordinary turn
    m.apply(rk.cmd("end_turn", cun))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.title == "React before the turn"
    assert prompt.text == "Outlaw Goon's turn starts. Cunning may use Tactical Reposition, or pass."
    assert (prompt.decider, prompt.cause, prompt.about) == (cun, goon, ())
    m.apply(rk.find(m, cun, "tactical_reposition").command())
    prompt = _prompt(m)
    assert prompt is not None and prompt.title == "Tactical Reposition"
    assert prompt.text == "Cunning calls a Tactical Reposition and may move 1 tile, or pass."
    m.apply(rk.find(m, cun, "reposition").command(hex=at(4)))
    prompt = _prompt(m)
    assert prompt is not None
    assert prompt.text == "Cunning calls a Tactical Reposition. Near may move 1 tile, or pass."
    assert (prompt.decider, prompt.cause) == (near, cun)


def test_no_rift_prompt_while_deploying_or_in_an_ordinary_turn(tmp_path: Path) -> None:
    """The banner is for "a decision that breaks into the turns": none while the posses deploy, none in a
    unit's own turn, none when an attack meets no one who can react."""
    m = rk.new_match(
        rk.rifters("side1", rk.rifter("cunning")), rk.outlaws("side2", "outlaw_goon"), 1, open_map(tmp_path)
    )
    assert _prompt(m) is None  # deployment
    rk.deploy(m)
    me, goon = rk.unit(m, "side1"), rk.unit(m, "side2")
    rk.place(m, me, at(5))
    rk.place(m, goon, at(8))
    rk.give_turn(m, me)
    assert _prompt(m) is None
    m.apply(rk.cmd("move", me, path=(at(5), at(6))))
    assert _prompt(m) is None
    rk.give_turn(m, goon)
    rk.script(m, 3, 3)
    m.apply(rk.cmd("fire", goon, option="goon_revolver"))  # one target, no one to react: no decision
    assert _prompt(m) is None


# == Frontier =======================================================================================


def _joker_match(seed: int) -> Match:
    """A Frontier match dealt up to the Joker's placement (by commands), or dealt without a Joker."""
    m = fk.new_match(
        fk.RANCH, fk.law("sheriff", "deputy", "hired_gun", "dog"), fk.outlaws("gang_leader", "outlaw"), seed
    )
    fk.deploy(m)
    while st.game_state(m).phase == "initiative":
        assert _prompt(m) is None  # drawing the cards is the phase's ordinary business
        m.apply(m.legal_actions()[0].command())
    return m


def _slot(label: str) -> tuple[int | None, str, str]:
    """(1-based place or None for "last", "before"/"after", the unit and card named) of a Joker label."""
    found = re.fullmatch(r"Act (?:(\d+)(?:st|nd|rd|th)|last), (before|after) (.+)", label)
    assert found is not None, label
    place, side, who = found.groups()
    return (int(place) if place else None), side, who


def test_joker_labels_promise_exactly_the_place_each_choice_gives() -> None:
    """Frontier: "If a Player draws the Joker for a Unit, they may choose when that Unit acts initiative
    after all other Units have received their initiative cards." and "The Unit with the highest initiative
    takes the first activation of the Action Phase." - each choice is labelled with the place it gives
    ("Act 2nd, after Sheriff (K\u2660)"), and applying it puts the holder exactly there."""
    for seed in range(300):
        m = _joker_match(seed)
        if st.game_state(m).phase != "joker":
            m.close()
            continue
        (place,) = m.legal_actions()
        assert place.action == "place_joker" and len(place.choice_labels) == len(place.choices) == 6
        holder = place.actor
        prompt = _prompt(m)
        assert prompt is not None and prompt.title == "Place the Joker"
        name = _name(m, holder)
        assert (
            prompt.text
            == f"{name} drew the Joker: choose where {name} acts in this round's initiative order."
        )
        assert (prompt.decider, prompt.cause) == (holder, holder)
        labels = [place.choice_label(c) for c in place.choices]
        assert labels[0].startswith("Act 1st, before ") and labels[-1].startswith("Act last, after ")
        m.close()
        for choice, label in zip(place.choices, labels, strict=True):
            m = _joker_match(seed)
            m.apply(place.command(option=choice))
            assert _prompt(m) is None
            order = m.ruleset.tracker(m)
            shown = [f"{_name(m, e.unit)} ({e.label})" for e in order]
            at_ = [e.unit for e in order].index(holder)
            number, side, who = _slot(label)
            assert at_ == (number - 1 if number is not None else len(order) - 1), label
            assert shown[at_ + 1 if side == "before" else at_ - 1] == who, (label, shown)
            m.close()
        return
    pytest.fail("no seed dealt the Joker")


def test_no_frontier_prompt_in_an_ordinary_activation(tmp_path: Path) -> None:
    """Frontier has no reaction: "Units take turns in initiative order to Activate." - an activation
    (and the deployment before it) shows no banner."""
    m = fk.new_match(open_map(tmp_path), fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    assert _prompt(m) is None  # deployment
    deputy = fk.unit(m, "side1", 1)
    fk.setup_field(m, {deputy: at(5)})
    fk.give_turn(m, deputy)
    assert _prompt(m) is None
