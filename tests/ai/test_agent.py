"""The utility AI: it never cheats, leaves the match untouched, explains itself, plays well enough."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

from ai.agent import UtilityAgent
from ai.runner import play
from ai.situation import Situation
from game.commands import Command
from game.engine.match import Match
from game.hexgrid import hex_distance
from tests import maps_factory as mf
from tests.bench import corpus
from tests.rules import frontier_kit as fk

RANCH = corpus.ROOT / "maps" / "ranch_duel.tmx"


def _midgame(ruleset: str, seed: int, steps: int) -> Match:
    make, player = corpus.GAMES[ruleset]
    match = make(RANCH, seed)
    while len(match.log) < steps and not match.is_over:
        match.apply(player(match))
    return match


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_deciding_changes_nothing_and_hidden_things_change_no_decision(ruleset: str) -> None:
    """Issue 12: "decide() leaves the match's digest and RNG untouched"; "decisions are identical on
    matches that differ only in undrawn cards or RNG state"."""
    for steps in (10, 25, 40):
        match = _midgame(ruleset, 3, steps)
        if match.is_over:
            continue
        side = match.legal_actions()[0].side
        digest = match.digest()
        rng = match.rng.getstate()
        first = UtilityAgent("normal", 7).decide(match.view(side), 4)
        assert match.digest() == digest and match.rng.getstate() == rng
        for seed in (1, 2, 3):
            other = match.clone(reseed=seed)  # other dice to come, other order of undrawn cards
            assert UtilityAgent("normal", 7).decide(other.view(side), 4) == first


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_every_breakdown_recomputes_its_score_and_every_command_is_legal(ruleset: str) -> None:
    make, _ = corpus.GAMES[ruleset]
    match = make(RANCH, 2)
    agents = {"side1": UtilityAgent("normal", 1), "side2": UtilityAgent("hard", 2)}
    counts: dict[str, int] = {}
    while not match.is_over and len(match.log) < 400:
        side = match.legal_actions()[0].side
        agent = agents[side]
        index = counts.get(side, 0)
        counts[side] = index + 1
        cmd = agent.decide(match.view(side), index)
        assert match.validate(cmd) is None, (cmd, match.validate(cmd))
        decision = agent.last
        assert decision is not None and decision.command == cmd and decision.words
        match.apply(cmd)
    assert match.is_over


def test_the_kill_shot_is_taken(tmp_path: Path) -> None:
    """Golden position (issue 12): a wounded outlaw one hit from going down, a healthy one beside him,
    both in the sheriff's sights: the sheriff shoots the one a hit takes out."""
    m = fk.new_match(fk.open_map(tmp_path), fk.law("sheriff"), fk.outlaws("gang_leader", "outlaw"))
    sheriff, leader, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.place(m, sheriff, fk.at(3))
    fk.place(m, leader, fk.at(9))
    fk.place(m, outlaw, fk.at(8))
    fk.hurt(m, outlaw, 4)  # Toughness 2 + 2 of its Wounds: one Revolver hit from Seriously Injured
    fk.give_turn(m, sheriff)
    agent = UtilityAgent("normal", 1)
    # the sheriff may first step out of the outlaws' charge reach (the shot is as good from there) or
    # aim ("+1 to the result of any Hit rolls" of the Shoot after it); the attack it makes this turn is
    # the one that matters
    for index in range(4):
        cmd = agent.decide(m.view("side1"), index)
        assert m.validate(cmd) is None, cmd
        if cmd.target is not None:
            break
        assert cmd.action in ("move", "aim"), cmd  # only a step or an aim before the shot, never unshot
        m.apply(cmd)
    assert cmd.target == outlaw, cmd


def test_the_joker_goes_first_when_the_unit_is_in_the_fight() -> None:
    """Golden position: a unit that drew the Joker with a hostile in its sights takes the first place."""
    match = fk.joker_match(fk.RANCH, fk.law("sheriff", "deputy"), fk.outlaws("gang_leader", "outlaw"))
    (place,) = match.legal_actions()
    holder = place.actor
    here = match.position(holder)
    assert here is not None
    foe = next(u for u in match.units() if match.identity(u).side != place.side)
    bf = match.battlefield
    spot = next(  # a hex 3 to 5 away that the holder can see
        h
        for h in sorted(bf.hexes, key=lambda h: (h.q, h.r))
        if bf.is_passable(h) and 3 <= fk.hex_distance(h, here) <= 5 and bf.line_of_sight(here, h)
    )
    fk.place(match, foe, spot)
    cmd = UtilityAgent("normal", 1).decide(match.view(place.side), 0)
    assert cmd == Command("place_joker", actor=holder, side=place.side, option="1")


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_the_ai_beats_the_random_player(ruleset: str) -> None:
    """A seeded smoke run of issue 12's "Normal AI vs random >= 96%" (the full measure: make bench-ai)."""
    make = corpus.EVEN[ruleset]  # an even encounter: the default Rift one is one-sided whoever plays
    from ai.baselines import RandomPlayer

    wins = 0
    for seed in range(3):
        for ai_side in ("side1", "side2"):
            other = "side2" if ai_side == "side1" else "side1"
            result = play(
                make(RANCH, seed), {ai_side: UtilityAgent("normal", seed), other: RandomPlayer(seed)}
            )
            wins += result.winner == ai_side
    assert wins >= 5


def test_aim_is_weighed_as_the_shot_it_improves(tmp_path: Path) -> None:
    """Rulebook (Frontier), Aim: "If the Unit makes a subsequent Shoot action in the same turn, +1 to the
    result of any Hit rolls they make." Aim is weighed as the shot it leads to, with its better odds and
    both action points spent (the point a plain shot leaves free counts for it); after aiming, the shot
    is taken with the +1."""
    m = fk.new_match(fk.open_map(tmp_path), fk.law("sheriff"), fk.outlaws("outlaw"))
    sheriff, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, sheriff, fk.at(3))
    fk.place(m, outlaw, fk.at(16))  # long range, beyond the outlaw's charge
    fk.give_turn(m, sheriff)
    plain = m.preview(Command("shoot", actor=sheriff, target=outlaw))
    assert plain is not None and plain.hit_chance == Fraction(2, 3)
    agent = UtilityAgent("normal", 1)
    agent.decide(m.view("side1"), 0)
    assert agent.last is not None
    weighed = [agent.last.words, *(words for words, _ in agent.last.others)]
    assert "Aim, then Shoot (Revolver) at Outlaw: 83% to hit" in weighed, weighed
    m.apply(Command("aim", actor=sheriff))
    shot = agent.decide(m.view("side1"), 1)
    assert shot.action == "shoot" and shot.target == outlaw, agent.last
    aimed = m.preview(shot)
    assert aimed is not None and aimed.hit_chance == plain.hit_chance + Fraction(1, 6)


def test_threats_shared_with_a_trial_change_no_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """A trial of an action that moves no one and leaves the turn with the unit reuses the threats worked
    out before it (ai.trials.same_threats), and one that changes only the unit's own defence (taking cover)
    the hostiles' walks and charges (ai.trials.same_walks): the same decisions as working them out
    again. A trial that
    spent the unit's last action point would start the next unit's turn on the copy, which may change
    what no unit fact shows (a Frontier unit's Aim is dropped), so threats are never shared across one;
    Frontier's copies keep the turn open (``ai.trials.keep_turn``), Golden Frontiers' do not."""
    from ai import trials

    def game() -> str:
        match = corpus.frontier_match(RANCH, 5)
        play(match, {p.side: UtilityAgent("normal", seed=5) for p in match.posses})
        return match.digest()

    shared = game()
    monkeypatch.setattr(trials, "same_threats", lambda before, after, me: False)
    assert game() == shared  # the hostiles' walks and charges still shared (ai.trials.same_walks)
    monkeypatch.setattr(trials, "same_walks", lambda before, after, me: False)
    assert game() == shared  # nothing shared


def test_a_decision_started_from_the_trial_of_its_position_changes_no_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The decision after a command the AI tried on a copy starts from what that trial asked when the
    position is the trial's (``Situation.adopt``; the public state's ``Match.key`` equal): the same
    decisions as asking everything again, and it happens in a game."""
    from ai.situation import Situation

    def game() -> str:
        match = corpus.frontier_match(RANCH, 5)
        play(match, {p.side: UtilityAgent("normal", seed=5) for p in match.posses})
        return match.digest()

    adopted: list[int] = []
    real = Situation.adopt

    def counted(self: Situation, other: Situation) -> None:
        adopted.append(1)
        real(self, other)

    monkeypatch.setattr(Situation, "adopt", counted)
    kept = game()
    assert adopted  # the seed's game takes commands it tried out
    monkeypatch.setattr(Situation, "adopt", lambda self, other: None)
    assert game() == kept


def test_trying_an_action_out_never_runs_past_the_units_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An action the AI tries out on a copy is seen as the unit's turn ends, not after the phases that
    follow it ran on by themselves: with its last action point the Sheriff's Take Cover or Aim would end
    his activation, and (the last to act, with Cool checks due) the End phase would roll its Cool checks
    on the copy's dice, where a fleeing outlaw would make the cover look like it saved him. The copy gets
    one action point more (``ai.trials.keep_turn``), so no trial ends the activation; an action the rules
    suppose in place (``MatchView.suppose``: Take Cover, Aim) runs nothing on at all, and is put back."""
    from game.engine.match import MatchView
    from game.events import ActivationEnded, PhaseStarted

    m = fk.new_match(
        fk.open_map(tmp_path, terrain={(4, fk.ROW): mf.BARREL}),
        fk.law("sheriff", "deputy"),
        fk.outlaws("outlaw", "outlaw"),
    )
    sheriff, deputy = fk.unit(m, "side1"), fk.unit(m, "side1", 1)
    near, far = fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.place(m, sheriff, fk.at(3))
    fk.place(m, near, fk.at(12))
    fk.place(m, far, fk.at(14, 2))
    fk.place(m, deputy, fk.at(2, 2))
    fk.hurt(m, deputy, 5)  # Seriously Injured: with the outlaws' Gang Leader not fielded, Cool checks are due
    fk.give_turn(m, sheriff, ap=1)
    trials: list[tuple[Match, int]] = []
    real = MatchView.sandbox

    def sandbox(view: MatchView, seed: int) -> Match:
        copy = real(view, seed)
        trials.append((copy, len(copy.history)))
        return copy

    supposed: list[str] = []
    suppose = MatchView.suppose

    def spy(view: MatchView, cmd: Command) -> Callable[[], None] | None:
        undo = suppose(view, cmd)
        if undo is not None:
            supposed.append(cmd.action)
        return undo

    monkeypatch.setattr(MatchView, "sandbox", sandbox)
    monkeypatch.setattr(MatchView, "suppose", spy)
    key, history = m.key(), len(m.history)
    UtilityAgent("normal", 1).decide(m.view("side1"), 0)
    assert m.key() == key and len(m.history) == history  # every supposed action put back
    tried = [copy.log[-1].action for copy, _ in trials if copy.log] + supposed
    assert "take_cover" in tried and "aim" in tried, tried
    for copy, start in trials:
        after = copy.history[start:]
        assert not any(isinstance(e, (ActivationEnded, PhaseStarted)) for e in after), after


def test_the_shot_comes_before_taking_cover(tmp_path: Path) -> None:
    """Rulebook (Frontier), Take Cover: "They cannot shoot, however they gain the benefits of total cover
    and take half of any damage they would normally receive". With two action points, a hostile in his
    sights and cover beside him, the Sheriff shoots first: taking cover first would forbid the shot and
    leave its point worth nothing, while a shot made first still leaves the point to take cover with
    (``ai.wholeturn.ended``)."""
    m = fk.new_match(
        fk.open_map(tmp_path, terrain={(4, fk.ROW): mf.BARREL}),
        fk.law("sheriff"),
        fk.outlaws(("gang_leader", "rifle"), "outlaw"),
    )
    sheriff, leader, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2"), fk.unit(m, "side2", 1)
    fk.place(m, sheriff, fk.at(3))
    fk.place(m, leader, fk.at(17))  # the rifle's long range: its best band
    fk.place(m, outlaw, fk.at(16, 2))
    fk.give_turn(m, sheriff)
    agent = UtilityAgent("normal", 1)
    first = agent.decide(m.view("side1"), 0)
    assert first.action == "shoot", agent.last
    assert agent.last is not None and agent.last.exposure is not None
    m.apply(first)
    cover = agent.decide(m.view("side1"), 1)
    assert cover.action in ("take_cover", "move"), agent.last  # then out of harm's way


def test_a_run_is_never_weighed_with_an_attack_after_it() -> None:
    """Rulebook (Golden Frontiers): "Keep in mind that a character is able to shoot their revolver and
    then move, but will not be able to move as far as they would if they moved the whole round while
    also firing." As docs/RULES.md G9 reads it, a run leaves no action this round. The attack spends the
    round's action as the run does (both cost 1 of the unit's one action point, as does a load that
    takes the round's action), so the AI never weighs a run as leading to a shot this round ("Run ...
    to 4,0, then Revolver at ...")."""
    from tests.rules import golden_kit as gk

    match = gk.even_match(RANCH, 3)
    agent = UtilityAgent("normal", 3)
    runs = 0
    costs: set[tuple[str, int]] = set()
    for index in range(400):
        if match.is_over:
            break
        legal = [a for a in match.legal_actions() if a.enabled]
        side = legal[0].side
        runs += any(a.action == "run" for a in legal)
        costs |= {(a.action, a.cost) for a in legal if a.action in ("attack", "run")}
        # a gun loaded as "the round's action" spends it too; a free load does not
        assert all(a.cost == ("round's action" in a.label) for a in legal if a.action == "load"), legal
        cmd = agent.decide(match.view(side), index)
        assert agent.last is not None
        weighed = [agent.last.words, *(words for words, _ in agent.last.others)]
        assert not [w for w in weighed if w.startswith("Run") and ", then " in w], weighed
        match.apply(cmd)
    assert runs > 10  # the check above was asked where runs were on offer
    assert costs == {("attack", 1), ("run", 1)}


def test_no_action_point_is_spent_on_an_action_that_changes_nothing(tmp_path: Path) -> None:
    """Rulebook (Frontier), Take Cover: "If the Unit is behind any kind of cover (Half or Total), they may
    take cover." and Aim: "If the Unit makes a subsequent Shoot action in the same turn, +1 to the result
    of any Hit rolls they make." With no hostile in sight, taking cover hides the Sheriff from no one and
    aiming improves no shot: neither is an option (the point either leaves was once worth more than
    ending the turn, and the AI took cover and then walked out of it)."""
    m = fk.new_match(
        fk.open_map(tmp_path, terrain={(4, fk.ROW): mf.BARREL}),
        fk.law("sheriff"),
        fk.outlaws("outlaw"),
    )
    sheriff, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, sheriff, fk.at(3))
    fk.place(m, outlaw, fk.at(3, 12))  # far off: no shot, and no outlaw's walk reaches him this round
    fk.give_turn(m, sheriff)
    legal = {a.action for a in m.legal_actions() if a.enabled}
    assert {"take_cover", "aim"} <= legal, legal
    agent = UtilityAgent("normal", 1)
    situation = Situation(m.view("side1"), "side1")
    options = agent._turn_options(situation, [a for a in m.legal_actions() if a.enabled])
    weighed = [o.subject.words for o in options]
    assert "end the turn" in weighed and [w for w in weighed if w.startswith("Move to")], weighed
    assert not [w for w in weighed if w in ("Take Cover", "Aim")], weighed
    cmd = agent.decide(m.view("side1"), 0)
    assert cmd.action not in ("take_cover", "aim"), agent.last


def test_a_hurt_hostile_is_finished_before_a_fresh_one_is_started(tmp_path: Path) -> None:
    """Golden Frontiers: "When a character has a crippling wound they are no longer in combat", and a
    posse gives up once half the units it fielded are out of the fight (docs/RULES.md G21, Hexslinger's
    own): every unit out counts the same towards it, so the damage already dealt to one is worth
    building on. The Marshal's Gunhand has Black Jack Riley (a character, fresh) and the Black Hat Gang's
    Gunhand (a wound taken: 9 of 12 left) in his sights at the same distance: he shoots the hurt
    Gunhand (59% to hit), not the fresh character behind his better defence (40%), as he once did
    (a hurt unit's worth rose by its share of health lost once; now three times)."""
    from game.posses import default_posses
    from tests.rules import golden_kit as gk

    drafts = default_posses("golden")
    marshals, gang = drafts[0].spec("side1").units, drafts[1].spec("side2").units
    m = gk.new_match(tmp_path, (marshals[2],), (gang[0], gang[2]))
    gk.deploy(m, {1: fk.at(3), 2: fk.at(9, 4), 3: fk.at(9, 6)}, cards=("AS", "2S", "3S"))
    view = m.view("side1")
    shooter, riley, gunhand = view.units()
    assert (view.unit_view(riley).name, view.unit_view(gunhand).name) == ("Black Jack Riley", "Gunhand")
    gk.health(m, gunhand).wounds = 1
    view = m.view("side1")
    assert view.unit_facts(gunhand).health == (9, 12) and view.unit_facts(riley).health == (12, 12)
    here = view.position(shooter)
    assert here is not None
    assert hex_distance(here, view.position(riley) or here) == hex_distance(
        here, view.position(gunhand) or here
    )
    agent = UtilityAgent("normal", 1)
    cmd = agent.decide(view, 0)
    assert (cmd.action, cmd.target) == ("attack", gunhand), agent.last


def test_the_shot_is_made_and_then_the_unit_steps_out_of_reach(tmp_path: Path) -> None:
    """Rulebook (Frontier): "Each Unit has a total of 2 action points (AP)"; Shoot and Move cost 1 each,
    and a Tomahawk deals 3 damage to a Revolver's 1. An Outlaw six hexes from the Deputy walks up and
    strikes on his turn; the Deputy shoots from where he stands and spends his second point stepping
    back out of the Outlaw's reach (Move + 1d4 and the 1" of a blow), rather than aiming and shooting
    from there and waiting for the blow (the exposure of a shot made where the unit stands, with a walk
    left after it, is that of the safest place the walk reaches: ``ai.wholeturn.ended``)."""
    m = fk.new_match(fk.open_map(tmp_path), fk.law("deputy"), fk.outlaws("outlaw"))
    deputy, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, deputy, fk.at(3))
    fk.place(m, outlaw, fk.at(9))
    fk.give_turn(m, deputy)
    agent = UtilityAgent("normal", 1)
    done: list[str] = []
    for index in range(3):
        cmd = agent.decide(m.view("side1"), index)
        done.append(cmd.action)
        m.apply(cmd)
        if not m.legal_actions() or m.legal_actions()[0].actor != deputy:
            break
    assert done[0] == "shoot", done
    here, there = m.position(deputy), m.position(outlaw)
    assert here is not None and there is not None
    assert hex_distance(here, there) > 5 + 4 + 1, (done, here, there)


def test_a_charge_with_no_one_in_reach_is_no_sprint(tmp_path: Path) -> None:
    """Rulebook (Frontier): "Charge - The Unit taking this action may move its full movement + 1d4"" for
    its 2 AP, while two Moves take it twice its movement. With every hostile out of a charge's reach,
    the Hired Gun's charge is weighed as no walk at all: its far hexes are reached only on the d4's best
    roll, and two Moves surely get as far (the AI charged as a sprint, counting that roll as certain)."""
    m = fk.new_match(fk.open_map(tmp_path), fk.law("hired_gun"), fk.outlaws("outlaw"))
    hired_gun, outlaw = fk.unit(m, "side1"), fk.unit(m, "side2")
    fk.place(m, hired_gun, fk.at(3))
    fk.place(m, outlaw, fk.at(20))  # beyond Move 6 + 1d4 + 1
    fk.give_turn(m, hired_gun)
    legal = [a for a in m.legal_actions() if a.enabled]
    assert any(a.action == "charge" and not a.targets for a in legal), legal
    agent = UtilityAgent("normal", 1)
    options = agent._turn_options(Situation(m.view("side1"), "side1"), legal)
    assert not [o for o in options if o.subject.command.action == "charge"], options
    cmd = agent.decide(m.view("side1"), 0)
    assert cmd.action != "charge", agent.last


@pytest.mark.parametrize("ruleset", sorted(corpus.GAMES))
def test_what_a_decision_keeps_is_what_the_match_answers(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every answer a decision keeps for the rest of the decision (``Situation``: where a unit stands) is
    the one the match gives when asked afresh, at every time it is read in a game."""
    real = Situation.where
    read: list[int] = []

    def checked(self: Situation, unit: int) -> object:
        found = real(self, unit)
        assert found == self.view.position(unit)
        read.append(unit)
        return found

    monkeypatch.setattr(Situation, "where", checked)
    make, _ = corpus.GAMES[ruleset]
    match = make(RANCH, 4)
    play(match, {p.side: UtilityAgent("normal", seed=4) for p in match.posses})
    assert read
