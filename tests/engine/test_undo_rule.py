"""The one undo rule of every ruleset (issue 13): "Undo must never take back anything that revealed
information (a card, a die, a hidden position), in any ruleset; state that rule once in the engine, not
per screen." The engine says what a command revealed (``Match.last_reveal``) and refuses to have it taken
back (``Match.undo_refusal``); the battle session only asks. Hexslinger's own rule (the rulebooks say
nothing of undo): docs/RULES.md "Undo"."""

from __future__ import annotations

from pathlib import Path

from game.engine.match import Match
from game.rules import get_ruleset
from game.rules.frontier import state as fst
from game.ui.session import BattleSession
from tests.engine.rulebooks import Quotes
from tests.rules import frontier_kit as fk
from tests.rules import golden_kit as gk
from tests.rules import rift_kit as rk

ROOT = Path(__file__).resolve().parents[2]
RANCH = ROOT / "maps" / "ranch_duel.tmx"

Q = Quotes()
DRAWING = Q(
    "frontier", "Players then take turns drawing for each Unit in their Posse, alternating with each draw."
)
GOLDEN_DAMAGE = Q("golden", "If a hit is scored the attacker draws a card from the top of the deck")


def test_quotes_are_the_books_words() -> None:
    Q.check()


def _card_of(match: Match, unit: int) -> str:
    match.enter()
    return fst.activation(unit).card_name


def test_a_frontier_initiative_card_once_drawn_stays_with_its_unit(tmp_path: Path) -> None:
    """The reported bug: a unit drew 3\u2660, U logged "Undone: draw card", and the next draw gave the
    3\u2660 to another unit. Each unit draws its own card (DRAWING): the draw stands, its card stays
    with the unit that drew it, and the next draw is a different card."""
    match = fk.new_match(RANCH, fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"), 2)
    session = BattleSession(match, tmp_path)
    for cmd in session.match.auto_deploy():
        session.apply(cmd)
    first = next(a for a in session.legal() if a.action == "draw_card")
    session.apply(first.command())
    card = _card_of(session.match, first.actor)
    assert card
    assert session.match.undo_refusal() == "can't undo: a card was drawn"
    assert session.undo_problem() == "can't undo: a card was drawn"
    assert _card_of(session.match, first.actor) == card  # nothing was taken back
    second = next(a for a in session.legal() if a.action == "draw_card")
    assert second.actor != first.actor
    session.apply(second.command())
    assert _card_of(session.match, second.actor) not in ("", card)
    assert _card_of(session.match, first.actor) == card


def test_a_rift_die_roll_is_never_taken_back(tmp_path: Path) -> None:
    """Through the Rift rolls the turn order (1d20 each) when the last unit is deployed: that command
    showed dice and stands."""
    posses = [
        rk.rifters("side1", rk.rifter("deliberate", "Del"), rk.rifter("bold", "Bo")),
        rk.outlaws("side2", "outlaw_goon", "gang_boss"),
    ]
    session = BattleSession(Match.create(RANCH, get_ruleset("rift"), posses, 3), tmp_path)
    commands = session.match.auto_deploy()
    for cmd in commands[:-1]:
        session.apply(cmd)
        assert session.match.undo_refusal() is None  # a unit placed reveals nothing
    assert session.undo_problem() is None
    session.apply(commands[-1])
    assert session.match.undo_refusal() == "can't undo: a die was rolled"
    assert session.undo_problem() == "can't undo: a die was rolled"


def test_golden_frontiers_cards_dealt_and_drawn_are_never_taken_back(tmp_path: Path) -> None:
    """Golden Frontiers deals the round's initiative cards when the last unit is deployed, and an attack
    that hits draws the damage card (GOLDEN_DAMAGE): both commands stand."""
    match = gk.new_match(tmp_path, (gk.char("Rusty"),), (gk.char("Clem"),))
    commands = match.auto_deploy()
    for cmd in commands[:-1]:
        match.apply(cmd)
        assert match.undo_refusal() is None
    match.apply(commands[-1])
    assert match.undo_refusal() == "can't undo: a card was drawn"
    # an attack: dice rolled, and a card drawn when it hits (or on a tie)
    for _ in range(200):
        attack = next((a for a in match.legal_actions() if a.action == "attack" and a.enabled), None)
        if attack is not None:
            break
        match.apply(gk.aggressive_command(match))
    assert attack is not None
    events = match.apply(next(attack.expand()))
    refusal = match.undo_refusal()
    assert refusal is not None and "a die was rolled" in refusal
    if any("damage card" in getattr(e, "rule", "") for e in events):
        assert refusal == "can't undo: a card was drawn and a die was rolled"


def test_a_command_that_reveals_nothing_may_be_taken_back_and_a_copy_keeps_the_word(tmp_path: Path) -> None:
    match = fk.new_match(RANCH, fk.law("sheriff"), fk.outlaws("gang_leader"), 2)
    deploy = match.auto_deploy()[0]
    match.apply(deploy)
    assert match.last_reveal == "" and match.undo_refusal() is None
    fk.deploy(match)
    draw = next(a for a in match.legal_actions() if a.action == "draw_card")
    match.apply(draw.command())
    assert match.clone().undo_refusal() == "can't undo: a card was drawn"
    assert match.last_revealed


def test_a_move_of_the_rng_with_nothing_shown_still_stands(tmp_path: Path) -> None:
    """Whatever the ruleset: a command that moved the RNG (a shuffle, a hidden position drawn) revealed
    hidden information even when no die or card is on the table."""
    from game.engine.match import _reveal

    assert _reveal([], rng_moved=True, hidden_changed=False) == "it revealed hidden information"
    assert _reveal([], rng_moved=False, hidden_changed=True) == "a card was drawn"
    assert _reveal([], rng_moved=False, hidden_changed=False) == ""


def test_the_match_dice_give_python_numbers_and_count_each_draw() -> None:
    """``Match.apply`` knows a command rolled by the dice's count of draws (not a copy of the whole RNG
    state before and after): the match's ``Dice`` must give the numbers ``random.Random`` gives from the
    same seed, and count every way of drawing."""
    import random

    from game.engine.match import Dice

    plain, dice = random.Random(42), Dice(42)
    before = dice.moves
    deck = list(range(20))
    shuffled = deck.copy()
    dice.shuffle(shuffled)
    plain.shuffle(deck)
    assert shuffled == deck
    assert dice.moves > before
    for draw in ("random", "getrandbits"):
        before = dice.moves
        args = (8,) if draw == "getrandbits" else ()
        assert getattr(dice, draw)(*args) == getattr(plain, draw)(*args)
        assert dice.moves == before + 1
    assert [dice.randint(1, 6) for _ in range(30)] == [plain.randint(1, 6) for _ in range(30)]
    assert dice.choice("abcdef") == plain.choice("abcdef")
    before = dice.moves
    dice.setstate(plain.getstate())
    assert dice.moves == before + 1 and dice.getstate() == plain.getstate()
    before = dice.moves
    dice.seed(7)
    assert dice.moves == before + 1


def test_a_match_and_its_copy_roll_the_counted_dice() -> None:
    from game.engine.match import Dice

    match = fk.new_match(RANCH, fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"), 3)
    copy = match.clone()
    assert isinstance(match.rng, Dice) and isinstance(copy.rng, Dice)
    assert copy.rng.getstate() == match.rng.getstate()
    assert copy.rng.random() == match.rng.random()
