"""Seeded mutators: each takes a seed file's bytes and a ``random.Random`` and returns damaged bytes.

Three families, picked per file kind by :func:`mutate`:

* bytes (any file): truncation, byte flips, inserted and deleted spans, a span repeated, interesting
  tokens dropped in;
* JSON (saves, settings, posse files, commands): type swaps, deep nesting, huge numbers, Unicode digits,
  path-like names, dropped / unknown / duplicated keys, long strings and lists, lone surrogates;
* XML (maps, tilesets): attribute values (huge, negative, not numbers, Unicode digits), elements dropped
  or repeated, nested groups, polygons of many points, zip and deflate bombs in tile layer data, DTDs and
  entities (billion laughs, external entities), UTF-16 re-encoding, path-like sources.

A mutator may instead ask for the file itself to be replaced (:class:`Special`): by a link to
``/dev/zero`` or ``/dev/stdin``, a FIFO, or a folder.
"""

from __future__ import annotations

import base64
import functools
import json
import random
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

__all__ = ["FIFO_NAME", "Mutation", "Special", "mutate"]

FIFO_NAME = "fifo"  # a FIFO of this name sits in every case's folder (nobody writes to it)


@dataclass(frozen=True)
class Special:
    """Replace the file by something that is not a regular file: ``link:/dev/zero``, ``fifo``, ``dir``."""

    kind: str


@dataclass(frozen=True)
class Mutation:
    name: str
    data: bytes | Special


PATH_LIKE = (
    "/dev/zero",
    "/dev/stdin",
    "/dev/urandom",
    "/proc/self/fd/0",
    FIFO_NAME,
    "/",
    ".",
    "..",
    "../../x",
    "~/x",
    "\uff0e\uff0e\uff0fx",  # full-width ../x
    "*",
    "\U0001f920",
    "",
    "C:\\x",
    "nul",
    "con.json",
    "a" * 300,
    "x\x00y",
    "saves/../../../etc/passwd",
)
UNICODE_DIGITS = ("\u00b2", "\u2460", "\u0661", "\uff11", "\U0001d7d9", "\u0a67", "\u00bd", "1\u0663")
HUGE_NUMBERS = (
    "9" * 19,
    "9" * 20,
    "-" + "9" * 40,
    "1" * 309,
    "9" * 4301,
    "1" * 5000,
    "7" * 10000,
    "1e999",
    "-1e999",
    "1e-999",
    "-0",
    "0.5",
    "1.0",
    "4294967296",
    "2147483648",
    "-2147483649",
    "1048576",
)
SCALARS: tuple[Any, ...] = (None, True, False, 0, -1, 1, 2**63, 1.5, "", "x", [], {}, [[]], {"": None})


# -- bytes ------------------------------------------------------------------------------------------


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def flip_bytes(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 4, 16))):
        if out:
            i = rng.randrange(len(out))
            out[i] = rng.randrange(256) if rng.random() < 0.5 else out[i] ^ (1 << rng.randrange(8))
    return bytes(out)


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    return data[:i] + junk + data[i:]


def delete_span(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + data[i + rng.randrange(1, 256) :]


def repeat_span(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    span = data[i : i + rng.randrange(1, 64)]
    return data[:i] + span * rng.choice((2, 10, 1000, 100000)) + data[i:]


TOKENS = (
    b"NaN",
    b"Infinity",
    b"1e999",
    b"[" * 5000,
    b"{" * 100,
    b"\x00",
    b"\\ud800",
    b'"\\',
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"<!DOCTYPE x>",
    b"&amp;",
    b"]]>",
    b"-0",
    b"9" * 5000,
)


def insert_token(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(TOKENS) + data[i:]


BYTE_MUTATORS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "truncate": truncate,
    "flip_bytes": flip_bytes,
    "insert_bytes": insert_bytes,
    "delete_span": delete_span,
    "repeat_span": repeat_span,
    "insert_token": insert_token,
}


# -- JSON ---------------------------------------------------------------------------------------------

_HOLE = "\x00HOLE\x00"


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def _pick(doc: Any, rng: random.Random, want: Callable[[Any], bool] = lambda _v: True) -> tuple[Any, ...]:
    paths = [p for p in _paths(doc) if want(_get(doc, p))]
    return rng.choice(paths) if paths else ()


def _dump(doc: Any, rng: random.Random, hole: str | None = None) -> bytes:
    text = json.dumps(doc, indent=rng.choice((None, 1)), ensure_ascii=rng.random() < 0.5)
    if hole is not None:
        text = text.replace(json.dumps(_HOLE, ensure_ascii=True), hole).replace(json.dumps(_HOLE), hole)
    return text.encode("utf-8", "surrogatepass")


def _with_hole(
    doc: Any, rng: random.Random, filler: str, want: Callable[[Any], bool] = lambda _v: True
) -> bytes:
    return _dump(_set(doc, _pick(doc, rng, want), _HOLE), rng, filler)


def type_swap(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng)
    others = [_get(doc, p) for p in _paths(doc)]
    new = rng.choice([*SCALARS, rng.choice(others)])
    return _dump(_set(doc, path, json.loads(json.dumps(new))), rng)


def deep_nesting(doc: Any, rng: random.Random) -> bytes:
    depth = rng.choice((63, 64, 65, 100, 1000, 100000))
    opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
    return _with_hole(doc, rng, opener * depth + "1" + closer * depth)


def huge_number(doc: Any, rng: random.Random) -> bytes:
    want = rng.choice((lambda v: isinstance(v, int), lambda _v: True))
    return _with_hole(doc, rng, rng.choice(HUGE_NUMBERS), want)


def unicode_digits(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, int | str) and not isinstance(v, bool))
    old = _get(doc, path)
    digit = rng.choice(UNICODE_DIGITS)
    new = digit if rng.random() < 0.6 else f"{old}{digit}"
    return _dump(_set(doc, path, new), rng)


def path_like(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, str))
    return _dump(_set(doc, path, rng.choice(PATH_LIKE)), rng)


def drop_key(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, dict) and bool(v))
    obj = _get(doc, path)
    if isinstance(obj, dict) and obj:
        del obj[rng.choice(list(obj))]
    return _dump(doc, rng)


def extra_key(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, dict))
    obj = _get(doc, path)
    if isinstance(obj, dict):
        key = rng.choice(["extra", "", "__proto__", *obj.keys()]) if obj else "extra"
        obj[key + "\u0000" if rng.random() < 0.2 else key + "_"] = rng.choice(SCALARS)
    return _dump(doc, rng)


def duplicate_key(doc: Any, rng: random.Random) -> bytes:
    """The same key twice in one object (JSON parsers keep the last)."""
    text = _dump(doc, rng).decode("utf-8", "surrogatepass")
    keys = list(re.finditer(r'"([a-z_]+)": ?', text))
    if not keys:
        return text.encode("utf-8", "surrogatepass")
    m = rng.choice(keys)
    value = json.dumps(rng.choice(SCALARS))
    return (text[: m.start()] + f'"{m.group(1)}": {value}, ' + text[m.start() :]).encode(
        "utf-8", "surrogatepass"
    )


def long_string(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, str))
    return _dump(
        _set(doc, path, rng.choice(("x", "\u00e9", "\n", "\U0001f920")) * rng.choice((201, 10**5, 10**6))),
        rng,
    )


def long_list(doc: Any, rng: random.Random) -> bytes:
    path = _pick(doc, rng, lambda v: isinstance(v, list) and bool(v))
    items = _get(doc, path)
    if isinstance(items, list) and items:
        _set(doc, path, items * rng.choice((2, 100, 1000)))
    return _dump(doc, rng)


def lone_surrogate(doc: Any, rng: random.Random) -> bytes:
    return _with_hole(
        doc, rng, rng.choice(('"\\ud800"', '"a\\udfff"', '"\\udc80\\ud800"')), lambda v: isinstance(v, str)
    )


def swap_subtrees(doc: Any, rng: random.Random) -> bytes:
    a, b = _pick(doc, rng), _pick(doc, rng)
    if a[: len(b)] == b or b[: len(a)] == a:
        return _dump(doc, rng)
    va, vb = json.loads(json.dumps(_get(doc, a))), json.loads(json.dumps(_get(doc, b)))
    _set(doc, a, vb)
    _set(doc, b, va)
    return _dump(doc, rng)


JSON_MUTATORS: dict[str, Callable[[Any, random.Random], bytes]] = {
    "type_swap": type_swap,
    "deep_nesting": deep_nesting,
    "huge_number": huge_number,
    "unicode_digits": unicode_digits,
    "path_like": path_like,
    "drop_key": drop_key,
    "extra_key": extra_key,
    "duplicate_key": duplicate_key,
    "long_string": long_string,
    "long_list": long_list,
    "lone_surrogate": lone_surrogate,
    "swap_subtrees": swap_subtrees,
}


# -- XML ----------------------------------------------------------------------------------------------

_ATTR = re.compile(rb'([A-Za-z_:][-\w:.]*)="([^"]*)"')
ATTR_VALUES = (
    *HUGE_NUMBERS,
    "0",
    "-1",
    "-2147483648",
    "NaN",
    "inf",
    "-inf",
    "",
    " 5",
    "0x10",
    "1_000",
    *UNICODE_DIGITS,
    "true",
    "1.5",
    "3e3",
    "268435455",
    "268435456",
    "5e-324",
    "-1e-320",
    "1e308",
)


def attr_value(data: bytes, rng: random.Random) -> bytes:
    found = list(_ATTR.finditer(data))
    if not found:
        return data
    out = data
    for m in rng.sample(found, min(len(found), rng.choice((1, 1, 3)))):
        value = rng.choice(ATTR_VALUES).encode("utf-8")
        out = out.replace(m.group(0), m.group(1) + b'="' + value + b'"', 1)
    return out


def _tree(data: bytes) -> ElementTree.Element:
    return ElementTree.fromstring(data)


def _xml(root: ElementTree.Element) -> bytes:
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root)


def _elements(root: ElementTree.Element) -> list[tuple[ElementTree.Element, ElementTree.Element]]:
    """(parent, child) for every element but the root."""
    return [(parent, child) for parent in root.iter() for child in parent]


def drop_element(data: bytes, rng: random.Random) -> bytes:
    root = _tree(data)
    pairs = _elements(root)
    if pairs:
        parent, child = rng.choice(pairs)
        parent.remove(child)
    return _xml(root)


def repeat_element(data: bytes, rng: random.Random) -> bytes:
    root = _tree(data)
    pairs = _elements(root)
    if pairs:
        parent, child = rng.choice(pairs)
        index = list(parent).index(child)
        for _ in range(rng.choice((2, 32, 33, 300, 3000))):
            parent.insert(index, child)
    return _xml(root)


def nested_groups(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice((10, 64, 65, 1000, 50000))
    text = data.decode("utf-8", "replace")
    m = re.search(r"<(layer|objectgroup)\b", text)
    if not m:
        return data
    end = text.rfind("</map>")
    if end < m.start():
        return data
    return (
        text[: m.start()]
        + '<group name="g">' * depth
        + text[m.start() : end]
        + "</group>" * depth
        + text[end:]
    ).encode("utf-8")


def many_points(data: bytes, rng: random.Random) -> bytes:
    count = rng.choice((3, 1000, 100000, 300000))
    points = " ".join(f"{rng.randrange(-5000, 5000)},{rng.randrange(-5000, 5000)}" for _ in range(count))
    shape = (
        f'<object id="999" x="100" y="100"><properties><property name="deploy" value="side1"/></properties>'
        f'<polygon points="{points}"/></object>'
    )
    text = data.decode("utf-8", "replace")
    at = text.find("</objectgroup>")
    if at < 0:
        return data
    return (text[:at] + shape + text[at:]).encode("utf-8")


@functools.cache
def _bomb(kind: str, size: int) -> str:
    """Base64 of ``size`` zero bytes, zlib- or gzip-compressed, made in 1 MB pieces (never held whole)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 31 if kind == "gzip" else 15)
    chunk = bytes(1 << 20)
    parts = [packer.compress(chunk) for _ in range(size >> 20)]
    parts.append(packer.flush())
    return base64.b64encode(b"".join(parts)).decode()


def zip_bomb(data: bytes, rng: random.Random) -> bytes:
    kind = rng.choice(("zlib", "gzip"))
    size = rng.choice((1 << 20, 16 << 20, 256 << 20))
    text = data.decode("utf-8", "replace")
    layers = list(re.finditer(r"<data encoding=\"csv\">.*?</data>", text, re.DOTALL))
    if not layers:
        return data
    m = rng.choice(layers)
    bomb = f'<data encoding="base64" compression="{kind}">{_bomb(kind, size)}</data>'
    return (text[: m.start()] + bomb + text[m.end() :]).encode("utf-8")


ENTITY_TRICKS = (
    '<!DOCTYPE map [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">'
    '<!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>',
    '<!DOCTYPE map [<!ENTITY z SYSTEM "file:///dev/zero">]>',
    '<!DOCTYPE map [<!ENTITY z SYSTEM "/dev/stdin">]>',
    '<!DOCTYPE map SYSTEM "http://127.0.0.1:9/x.dtd">',
    "<!DOCTYPE map [<!ENTITY % p \"<!ENTITY q 'x'>\"> %p;]>",
)


def entity_trick(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    decl_end = text.find("?>") + 2 if text.startswith("<?xml") else 0
    trick = rng.choice(ENTITY_TRICKS)
    out = text[:decl_end] + trick + text[decl_end:]
    if "ENTITY f" in trick:
        out = out.replace('name="', 'name="&f;', 1)
    elif "ENTITY z" in trick:
        out = out.replace('name="', 'name="&z;', 1)
    encoding = rng.choice(("utf-8", "utf-8", "utf-16", "utf-16-le", "utf-32"))
    if encoding != "utf-8":
        out = out.replace('encoding="UTF-8"', f'encoding="{encoding.upper()}"', 1)
    return out.encode(encoding)


def recode(data: bytes, rng: random.Random) -> bytes:
    """The same document in UTF-16 or UTF-32 (with or without a BOM), or Latin-1 with a lie about it."""
    text = data.decode("utf-8", "replace")
    encoding = rng.choice(("utf-16", "utf-16-be", "utf-32", "latin-1"))
    if encoding == "latin-1":
        return (text.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"', 1) + "\u00e9").encode(
            "latin-1", "replace"
        )
    return text.replace('encoding="UTF-8"', f'encoding="{encoding.upper()}"', 1).encode(encoding)


def xml_path_like(data: bytes, rng: random.Random) -> bytes:
    found = list(re.finditer(rb'source="([^"]*)"', data))
    if not found:
        return data
    m = rng.choice(found)
    name = rng.choice(PATH_LIKE).replace('"', "").replace("&", "").replace("<", "")
    return data[: m.start()] + b'source="' + name.encode("utf-8", "replace") + b'"' + data[m.end() :]


XML_MUTATORS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "attr_value": attr_value,
    "drop_element": drop_element,
    "repeat_element": repeat_element,
    "nested_groups": nested_groups,
    "many_points": many_points,
    "zip_bomb": zip_bomb,
    "entity_trick": entity_trick,
    "recode": recode,
    "xml_path_like": xml_path_like,
}

SPECIALS = ("link:/dev/zero", "link:/dev/stdin", "link:/dev/urandom", "fifo", "dir", "link:dangling")


def mutate(data: bytes, kind: str, rng: random.Random) -> Mutation:
    """One damaged version of ``data``, a seed file of ``kind`` ``json`` or ``xml``."""
    roll = rng.random()
    if roll < 0.03:
        special = rng.choice(SPECIALS)
        return Mutation(f"special:{special}", Special(special))
    if roll < 0.35:
        name, byte_mutator = rng.choice(sorted(BYTE_MUTATORS.items()))
        return Mutation(name, byte_mutator(data, rng))
    if kind == "json":
        name, json_mutator = rng.choice(sorted(JSON_MUTATORS.items()))
        return Mutation(name, json_mutator(json.loads(data), rng))
    name, xml_mutator = rng.choice(sorted(XML_MUTATORS.items()))
    return Mutation(name, xml_mutator(data, rng))
