"""Scripted encounters played to the end through commands only (no UI), for both posses, reaching each way
of winning: "A Posse wins a Combat Encounter by either, rendering all hostile Units Out of Action or causing
all hostile Units to flee the Combat Encounter."

The player is :func:`tests.rules.frontier_kit.aggressive_command`, which knows no rule and reads only
``legal_actions``; the seeds are pinned so each encounter ends the way its name says.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.components import Removed
from game.events import MatchEnded
from game.rules import PosseSpec
from game.rules.frontier import state as st
from tests.rules.frontier_kit import RANCH, TOWN, law, new_match, outlaws, play_out

SMALL = (law("sheriff", "deputy"), outlaws("gang_leader", ("outlaw", "revolver")))
DOGS = (law("sheriff", "dog"), outlaws("outlaw", "outlaw", "dog"))
HIRED = (law("deputy", "hired_gun"), outlaws("gang_leader", "outlaw", "dog"))


@pytest.mark.parametrize(
    ("map_path", "posses", "seed", "winner", "reason"),
    [
        (TOWN, SMALL, 22, "side1", "all hostile units are out of action"),  # The Law wins by shooting
        (RANCH, SMALL, 4, "side2", "all hostile units are out of action"),  # The Outlaws win the same way
        (RANCH, DOGS, 14, "side1", "all hostile units fled"),  # The Outlaws break and flee
        (RANCH, HIRED, 1, "side2", "all hostile units fled"),  # The Law breaks and flees
    ],
    ids=["law-out-of-action", "outlaws-out-of-action", "law-outlaws-fled", "outlaws-law-fled"],
)
def test_scripted_encounter_reaches_its_ending(
    map_path: Path, posses: tuple[PosseSpec, PosseSpec], seed: int, winner: str, reason: str
) -> None:
    m = new_match(map_path, *posses, seed=seed)
    play_out(m)
    outcome = m.outcome()
    assert outcome is not None and (outcome.winner, outcome.reason) == (winner, reason)
    ended = [e for e in m.history if isinstance(e, MatchEnded)]
    assert len(ended) == 1 and ended[0].winner == winner
    m.enter()
    loser_units = [u for u in m.units(in_play=False) if st.side_of(u) != winner]
    wanted = "fled" if "fled" in reason else "out_of_action"
    assert all(st.comp(u, Removed).reason == wanted for u in loser_units)
    assert all(not st.seriously_injured(u) for u in m.units())  # none left Seriously Injured at the end
    m.close()


def test_encounters_are_deterministic_from_the_seed() -> None:
    digests = []
    for _ in range(2):
        m = new_match(RANCH, *SMALL, seed=9)
        play_out(m)
        digests.append((m.digest(), len(m.log)))
        m.close()
    assert digests[0] == digests[1]
