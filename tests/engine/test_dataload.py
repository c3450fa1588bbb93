"""The engine's TOML loader: a table read strictly into a dataclass, driven by its fields."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from game.engine.dataload import load, load_tables


class DataError(ValueError):
    pass


@dataclass(frozen=True)
class Gun:
    id: str = field(default="", metadata={"id": True})
    name: str = field(default="", metadata={"required": True})
    short: int = field(default=1, metadata={"range": (1, 50), "required": True})
    long: int = field(default=0, metadata={"range": (1, 50), "default_from": "short"})
    ammo: int | None = field(default=None, metadata={"range": (1, 30)})
    kind: str = field(default="pistol", metadata={"choices": ("pistol", "rifle")})
    tags: tuple[str, ...] = ()
    weight: float = 1.0
    loud: bool = False


def _gun(**table: object) -> Gun:
    return load(Gun, "[guns.colt]", {"name": "Colt", "short": 8, **table}, error=DataError, name="colt")


def test_a_table_becomes_its_dataclass_with_its_name_and_defaults() -> None:
    gun = _gun(ammo=6, tags=["six-shooter"], weight=2)
    assert gun == Gun("colt", "Colt", 8, 8, 6, "pistol", ("six-shooter",), 2.0, False)
    assert _gun(long=16).long == 16


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"colour": "red"}, "unknown key 'colour' (known keys: ammo, kind, long, loud, name, short, tags,"),
        ({"short": "eight"}, "[guns.colt]: 'short' must be a whole number, not 'eight'"),
        ({"short": True}, "'short' must be a whole number"),
        ({"short": 99}, "[guns.colt]: 'short' is 99, must be from 1 to 50"),
        ({"ammo": 0}, "'ammo' is 0, must be from 1 to 30"),
        ({"ammo": "six"}, "'ammo' must be a whole number"),
        ({"kind": "cannon"}, "'kind' is 'cannon', must be one of pistol, rifle"),
        ({"tags": "six-shooter"}, "'tags' must be a list of names"),
        ({"tags": [1]}, "'tags' must be text"),
        ({"name": "  "}, "'name' must be text"),
        ({"loud": "yes"}, "'loud' must be true or false"),
        ({"weight": "heavy"}, "'weight' must be a number"),
    ],
)
def test_every_bad_value_names_the_table_and_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(DataError) as error:
        _gun(**table)
    assert message in str(error.value)


def test_a_required_key_and_a_required_table_are_missing_in_words() -> None:
    with pytest.raises(DataError, match=r"\[guns.colt\]: missing key 'short'"):
        load(Gun, "[guns.colt]", {"name": "Colt"}, error=DataError, name="colt")
    with pytest.raises(DataError, match=r"\[guns\] is missing or empty"):
        load_tables(Gun, {}, "guns", error=DataError)
    assert load_tables(Gun, {}, "guns", error=DataError, required=False) == {}
    with pytest.raises(DataError, match=r"\[guns.colt\] must be a table"):
        load_tables(Gun, {"guns": {"colt": 5}}, "guns", error=DataError)
    found = load_tables(Gun, {"guns": {"colt": {"name": "Colt", "short": 8}}}, "guns", error=DataError)
    assert list(found) == ["colt"] and found["colt"].id == "colt"
