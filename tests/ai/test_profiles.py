"""AI profiles: strict data, quotes from the rulebooks, a personality for every shipped unit kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ai import profile
from ai.profile import ProfileError, load_difficulty, load_personalities
from game.rules.frontier import RULESET as FRONTIER
from game.rules.rift import RULESET as RIFT

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
BOOKS = {"Frontier": "001", "Through the Rift": "003"}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "")).strip()


def test_the_three_difficulties_differ_only_in_decision_quality() -> None:
    easy, normal, hard = (profile.difficulty(n) for n in ("easy", "normal", "hard"))
    assert profile.known_difficulties() == ["easy", "hard", "normal"]
    assert easy.places < normal.places < hard.places
    assert easy.band > normal.band >= hard.band and not easy.foresight and hard.foresight
    with pytest.raises(ProfileError, match="unknown AI profile 'brutal'; known profiles: easy, hard, normal"):
        profile.difficulty("brutal")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[difficulty]\nname='X'\nsummary='y'\nband=2.0",
            "[difficulty]: 'band' is 2.0, must be from 0.0 to 1.0",
        ),
        ("[difficulty]\nname='X'\nsummary='y'\nbnad=0.1", "unknown key 'bnad'"),
        ("[difficulty]\nsummary='y'", "missing key 'name'"),
        ("[dificulty]\nname='X'", "unknown table [dificulty]"),
        ("[difficulty\n", "is not valid TOML"),
        ("[difficulty]\nname='X'\nsummary='y'\nplaces='many'", "'places' must be a whole number"),
    ],
)
def test_a_bad_profile_is_refused_naming_the_file_and_key(text: str, message: str) -> None:
    with pytest.raises(ProfileError) as error:
        load_difficulty(text, "mine.toml", "mine")
    assert message in str(error.value) and "mine.toml" in str(error.value)


def test_personalities_need_a_default_and_strict_keys() -> None:
    with pytest.raises(ProfileError, match=r"\[personality.default\] is missing"):
        load_personalities("[personality.x]\nname='X'\n", "p.toml")
    with pytest.raises(ProfileError, match=r"'caution' is 1\.5"):
        load_personalities("[personality.default]\nname='X'\ncaution=1.5\n", "p.toml")


def test_every_personality_quotes_its_rulebook() -> None:
    for key, p in profile.personalities().items():
        if key == "default":
            continue
        assert p.quote and p.source in BOOKS, key
        found = sorted(SEEDS.glob(f"{BOOKS[p.source]}_*.txt"))
        if not found:
            pytest.skip("the rulebooks are not checked out beside the project")
        assert _norm(p.quote) in _norm(found[0].read_text(encoding="utf-8")), key


def test_every_shipped_unit_kind_and_attitude_has_its_personality() -> None:
    kinds = [*FRONTIER.data.units, *RIFT.data.enemies, *RIFT.data.attitudes]
    missing = [k for k in kinds if profile.personality_for((k,)).id == "default"]
    assert missing == []
    assert profile.personality_for(("rifter", "deliberate")).id == "deliberate"  # a Rifter by attitude
    assert profile.personality_for(("stranger",)).id == "default"


def test_controllers_by_name() -> None:
    from ai.agent import UtilityAgent
    from ai.baselines import GreedyPlayer, RandomPlayer
    from ai.controllers import ControllerError, known, make_player, parse, split

    assert known() == ["ai:easy", "ai:hard", "ai:normal", "random", "greedy"]
    assert parse("AI") == "ai:normal" and parse(" Greedy ") == "greedy"
    assert isinstance(make_player("random", 1), RandomPlayer)
    assert isinstance(make_player("greedy", 1), GreedyPlayer)
    agent = make_player("ai:hard", 1)
    assert isinstance(agent, UtilityAgent) and agent.level.id == "hard" and agent.name == "ai:hard"
    # one personality for every unit of the side: ai:PROFILE:PERSONALITY
    assert parse(" AI:Hard:Outlaw ") == "ai:hard:outlaw" and split("ai:hard:outlaw") == ("hard", "outlaw")
    assert split("ai") == ("normal", None)
    outlaws = make_player("ai:easy:outlaw", 1)
    assert (
        isinstance(outlaws, UtilityAgent) and outlaws.name == "ai:easy:outlaw" and outlaws.level.id == "easy"
    )
    assert outlaws.personality(("sheriff",)).id == "outlaw" and outlaws.personality(()).id == "outlaw"
    assert agent.personality(("sheriff",)).id == "lawman" and agent.personality(()).id == "default"
    with pytest.raises(
        ControllerError, match=r"unknown personality 'brute'.*known personalities: default, lawman"
    ):
        parse("ai:normal:brute")
    for bad in ("ai:brutal", "human", "", "ai:", "ai:brutal:outlaw"):
        with pytest.raises(
            ControllerError, match="known controllers: ai:easy, ai:hard, ai:normal, random, greedy"
        ):
            parse(bad)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[difficulty]\nname='X'\nsummary='y'\nband=nan", "'band' is nan, must be from 0.0 to 1.0"),
        (b"[difficulty]\nname='X'\nsummary='y'\nband=1e999", "'band' is inf"),
        (b"[difficulty]\nname='X'\nsummary='y'\nforesight=1", "'foresight' must be true or false"),
        (b"[difficulty]\nname='X'\nsummary='y'\nplaces=" + b"9" * 5000, "a number of 5000 digits"),
        (b"[difficulty]\nx=" + b"[" * 10_000 + b"]" * 10_000, "nests lists or tables 10000 deep"),
        (b"[difficulty]\nname='\xff'\nsummary='y'", "is not UTF-8 text"),
        (b"[difficulty]\nname='X'\nname='Y'", "is not valid TOML"),
    ],
)
def test_a_hostile_profile_is_a_profile_error_never_a_traceback(data: bytes, message: str) -> None:
    with pytest.raises(ProfileError) as error:
        load_difficulty(data, "mine.toml", "mine")
    assert message in str(error.value) and "mine.toml" in str(error.value)


@pytest.mark.parametrize("name", ["../easy", "easy/../easy", "/etc/passwd", "personalities", "EASY ", ""])
def test_a_profile_name_is_never_a_path(name: str) -> None:
    with pytest.raises(ProfileError, match="unknown AI profile"):
        profile.difficulty(name)


def test_a_profile_file_that_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shipped profile replaced by a pipe (or a link to a device) is refused, not read: reading a FIFO
    would hang the game's start."""
    import os

    folder = tmp_path / "profiles"
    folder.mkdir()
    os.mkfifo(folder / "easy.toml")
    (folder / "huge.toml").write_bytes(b"# " + b"x" * (128 * 1024))
    monkeypatch.setattr(profile, "_folder", lambda: folder)
    profile.difficulty.cache_clear()
    try:
        with pytest.raises(ProfileError, match=r"ai/profiles/easy.toml: .*a pipe"):
            profile.difficulty("easy")
        with pytest.raises(ProfileError, match="larger than 64 KB"):
            profile.difficulty("huge")
    finally:
        profile.difficulty.cache_clear()


def test_a_frontier_dog_is_no_more_reckless_than_the_posse_it_runs_with() -> None:
    """Rulebook (Frontier): "Cool checks are made from the point where half the Units on the field
    (rounded down) are considered Out of Action or when the Leader of their Posse is considered Out of
    Action." A dog counts as a whole unit towards that half, so losing it early shakes its posse as much
    as losing a Deputy: the dog's personality weighs the harm it risks at least as heavily, and deals
    harm no more eagerly, than any other Frontier unit's (a reckless dog was the first of its posse down
    in most games the AI lost; docs/AI_RECORD.md)."""
    dog = profile.personality_for(("dog",))
    assert dog.id == "hound"
    others = [profile.personality_for((k,)) for k in FRONTIER.data.units if k != "dog"]
    assert others and all(dog.caution >= p.caution for p in others), (dog, others)
    assert all(dog.aggression <= p.aggression for p in others), (dog, others)
    found = sorted(SEEDS.glob("001_*.txt"))
    if found:
        book = _norm(found[0].read_text(encoding="utf-8"))
        assert (
            _norm(
                "Cool checks are made from the point where half the Units on the field (rounded down) are "
                "considered Out of Action"
            )
            in book
        )


def test_golden_frontiers_units_finish_the_hostile_they_started_on() -> None:
    """docs/RULES.md G21 (Hexslinger's own): a Golden Frontiers posse gives up once half the units it
    fielded are out of the fight, so every Golden unit (its characters and NPC templates have no
    personality of their own: the default) counts a hostile's lost health more towards its worth than
    a Frontier or Through the Rift unit does (docs/AI_RECORD.md, 2026-11-24 20:40); a ``finish`` out of its
    range is refused, naming the key."""
    from game.rules import get_ruleset

    golden = [profile.personality_for((k,)) for k in ("character", *get_ruleset("golden").data.npcs)]
    assert {p.id for p in golden} == {"default"}
    kinds = [*FRONTIER.data.units, *RIFT.data.enemies, *RIFT.data.attitudes]
    others = [profile.personality_for((k,)) for k in kinds]
    assert all(golden[0].finish > p.finish for p in others), (golden[0], others)
    with pytest.raises(ProfileError, match=r"'finish' is 6"):
        load_personalities("[personality.default]\nname='X'\nfinish=6.0\n", "p.toml")
