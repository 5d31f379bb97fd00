"""The codec in JSON mode (``passes/jsonmode.py``) against the composition.

``decode_json(data)`` builds the JSON form as the bytes are read, and
``encode_json(json)`` writes the bytes from the JSON form; the rule that
keeps them right: on any input, each returns exactly what the composition
(``to_json(decode(data))``, ``encode(from_json(json))``) returns (the same
JSON, of the same types, its objects' members in the same order; the same
bytes) or raises exactly its error. Checked on every encoding of the
reference vectors and the rich encodings, with valid input and with
mutated bytes and spoiled JSON, and on the catalogue (in ``tests/node``).
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import Encoding
from data_encoding.errors import DataEncodingError
from data_encoding.jsonvalue import RepeatedMembers
from data_encoding.node import registry
from pairs import NAMES as BINARY_NAMES
from pairs import PAIRS, retyped, spoiled
from rich import FUZZ, PYTHONISH, JsonDict, JsonInt, JsonStr, mutated, rich_encodings


class _Small(enum.IntEnum):
    ONE = 1


ENCODINGS: dict[str, Encoding[Any]] = {
    **{name: PAIRS[name][0] for name in BINARY_NAMES},
    **{f"rich.{name}": e for name, e in rich_encodings().items()},
}
NAMES = sorted(ENCODINGS)


def outcome(action: Callable[[], Any]) -> Any:
    """``("ok", result)``, or the error: its type, code, offset, path and message."""
    try:
        return ("ok", action())
    except DataEncodingError as err:
        return (type(err).__name__, err.code, err.offset, err.path, str(err))


def _composed_json(e: Encoding[Any], json: Any) -> bytes:
    return e.encode(e.from_json(json))


def _composed(e: Encoding[Any], data: bytes) -> Any:
    return outcome(lambda: e.to_json(e.decode(data)))


def _same(e: Encoding[Any], data: bytes) -> None:
    expected = _composed(e, data)
    got = outcome(lambda: e.decode_json(data))
    assert got == expected
    if got[0] == "ok":  # the same text: types and the order of members too
        assert json.dumps(got[1]) == json.dumps(expected[1])


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_decode_json_is_to_json_of_decode(name: str, data: st.DataObject) -> None:
    e = ENCODINGS[name]
    value = data.draw(e.strategy())
    raw = e.encode(value)
    assert outcome(lambda: e.decode_json(raw)) == outcome(lambda: e.to_json(value))
    _same(e, raw)
    _same(e, data.draw(mutated(e)))


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_encode_json_is_encode_of_from_json(name: str, data: st.DataObject) -> None:
    e = ENCODINGS[name]
    json_value = e.to_json(data.draw(e.strategy()))
    changed = (spoiled(json_value, data), retyped(json_value, data), data.draw(PYTHONISH))
    for j in (json_value, *changed):
        assert outcome(partial(e.encode_json, j)) == outcome(partial(_composed_json, e, j))


def test_json_that_the_composition_refuses_is_refused() -> None:
    """What the generated writer would take but ``from_json`` refuses: an
    optional member given as ``null``, a member given twice, a tuple for an
    array, a bool, a float or an ``int`` subclass for an integer, hex in
    capitals or with spaces."""
    e = de.obj(
        de.req("a", de.uint16),
        de.opt("b", de.int31),
        de.req("c", de.list_(de.uint8)),
        de.req("d", de.fixed.bytes_(2)),
    )
    good: dict[str, Any] = {"a": 1, "c": [1, 2], "d": "beef"}
    assert e.encode_json(good) == bytes.fromhex("000100000000020102beef")
    for bad in (
        {**good, "b": None},
        RepeatedMembers([("a", 1), ("a", 1), ("c", [1, 2]), ("d", "beef")]),
        {**good, "c": (1, 2)},
        {**good, "a": True},
        {**good, "a": 1.0},
        {**good, "c": [1, True]},
        {**good, "c": [1, _Small.ONE]},  # an int subclass, in a list written whole
        {**good, "a": _Small.ONE},
        {**good, "d": "BEEF"},
        {**good, "d": "be ef"},
    ):
        expected = outcome(partial(_composed_json, e, bad))
        assert expected[0] == "JsonError"
        assert outcome(partial(e.encode_json, bad)) == expected


_TRIED = de.union([de.case(0, "a", de.uint8), de.case(1, "b", de.string)])
"""A union whose cases are tried."""
_TOLD = de.union(
    [
        de.case(0, "a", de.obj(de.req("kind", de.constant("a")))),
        de.case(1, "b", de.obj(de.req("kind", de.constant("b")), de.req("n", de.uint8))),
    ]
)
"""A union whose cases are told apart by a constant member."""


def test_a_subclass_of_a_json_type_is_refused_both_ways() -> None:
    """JSON is what ``json.loads`` makes: a ``str`` subclass is no hex
    string, an ``int`` subclass no integer, a ``dict`` subclass no object.
    ``encode_json`` refuses them as ``from_json`` does (bytes in JSON mode
    took a ``str`` subclass, issue 28), and the error names the class."""
    cases: list[tuple[Encoding[Any], Any, str]] = [
        (de.bytes_, JsonStr("beef"), "expected a hex string, got JsonStr"),
        (de.variable.bytes_, JsonStr("beef"), "expected a hex string, got JsonStr"),
        (de.fixed.bytes_(2), JsonStr("beef"), "expected a hex string, got JsonStr"),
        (
            de.string,
            JsonStr("beef"),
            'expected a string or {"invalid_utf8_string": [bytes]}, got JsonStr',
        ),
        (de.uint8, JsonInt(7), "expected an integer (uint8), got JsonInt"),
        (de.obj(de.req("a", de.uint8)), JsonDict(a=7), "expected an object, got JsonDict"),
        (_TRIED, JsonStr("x"), "expected JSON (union), got JsonStr"),
        (_TOLD, JsonDict(kind="a"), "expected an object (union), got JsonDict"),
    ]
    for e, json_value, message in cases:
        refused = outcome(partial(e.encode_json, json_value))
        assert refused == outcome(partial(e.from_json, json_value))
        assert refused == ("JsonError", "wrong_type", None, (), message)
    # the catalogue's records that hold bytes in JSON mode
    header = registry.find("shell.block_header")
    checkpoint = registry.find("chain.checkpoint").encoding
    spoilt: dict[str, Any] = dict(header.samples["valid"][0]["json"])  # type: ignore[arg-type]
    spoilt["protocol_data"] = JsonStr(spoilt["protocol_data"])
    in_checkpoint: dict[str, Any] = {
        "block": spoilt,
        "save_point": 1,
        "caboose": 0,
        "history_mode": "full",
    }
    for e, j, where in (
        (header.encoding, spoilt, "$.protocol_data"),
        (checkpoint, in_checkpoint, "$.block.protocol_data"),
    ):
        refused = outcome(partial(e.encode_json, j))
        assert refused == outcome(partial(_composed_json, e, j))
        assert refused[:2] == ("JsonError", "wrong_type")
        assert refused[4] == f"expected a hex string, got JsonStr at {where}"


def test_a_record_builds_its_json_as_it_reads() -> None:
    """Members in the order of the parts, an absent optional one left out;
    an int64 as a string, bytes in hex, a string as it is."""
    e = de.obj(
        de.req("a", de.uint8),
        de.opt("b", de.int64),
        de.req("c", de.bytes_),
        de.req("d", de.tup(de.bool_, de.string)),
        de.opt("e", de.fixed.bytes_(2)),
    )
    value = {"a": 1, "b": None, "c": b"\xbe\xef", "d": (True, "x"), "e": b"\x01\x02"}
    read = e.decode_json(e.encode(value))
    assert isinstance(read, dict)
    assert list(read.items()) == [
        ("a", 1),
        ("c", "beef"),
        ("d", [True, "x"]),
        ("e", "0102"),
    ]
    value["b"] = -(2**63)
    read = e.decode_json(e.encode(value))
    assert isinstance(read, dict)
    assert list(read) == ["a", "b", "c", "d", "e"]
    assert read["b"] == str(-(2**63))
    source = e.decode_json.__source__  # type: ignore[attr-defined]
    assert "if b_2 is not None: x['b'] = b_2" in source
    assert ".hex()" in source and "str(" in source
    # the tuple's string, in each branch of the optional before it (a copy
    # of the same ops: the same names in both)
    assert source.count("item_10 = item_10 if type(item_10) is str else _to_json(item_10)") == 2


def test_strings_that_are_not_utf8_and_strings_that_have_no_utf8() -> None:
    """Bytes that are not UTF-8 read as a string have their own JSON form
    (``{"invalid_utf8_string": [...]}``); a JSON string with a lone
    surrogate has no bytes: both as the composition says."""
    e = de.obj(de.req("s", de.string), de.req("n", de.uint8))
    raw = bytes.fromhex("00000002ff4107")
    assert e.decode_json(raw) == {"s": {"invalid_utf8_string": [255, 65]}, "n": 7}
    assert e.encode_json(e.decode_json(raw)) == raw
    assert e.encode_json({"s": "caf\u00e9", "n": 7}) == b"\x00\x00\x00\x05caf\xc3\xa9\x07"
    refused = outcome(partial(e.encode_json, {"s": "\udc00", "n": 7}))
    assert refused == outcome(partial(_composed_json, e, {"s": "\udc00", "n": 7}))
    assert refused[:2] == ("JsonError", "invalid_utf8")


def test_a_refused_conversion_gives_the_composition_s_error() -> None:
    """``to_json`` refuses a non-finite float (``not_json``): read in JSON
    mode, that refusal comes before the bytes are all checked, and the
    composition's error (here the bytes', which ``decode`` finds first)
    is what is raised."""
    e = de.tup(de.float_, de.uint8)
    nan = e.encode((math.nan, 1))
    with pytest.raises(de.EncodeError) as caught:
        e.decode_json(nan)
    assert caught.value.code == "not_json"
    with pytest.raises(de.DecodeError) as short:
        e.decode_json(nan[:-1])  # NaN, then not enough bytes: decode's error
    assert (short.value.code, short.value.offset) == ("not_enough_data", 8)
