"""``decode_json``: the reader in JSON mode against ``to_json(decode(data))``.

The JSON form is built as the bytes are read (``passes/jsonread.py``); the
rule that keeps it right: on any input, it returns exactly what the
composition returns (the same JSON, of the same types, its objects' members
in the same order) or raises exactly its error. Checked on every encoding
of the reference vectors, the rich encodings and the catalogue (in
``tests/node``), with valid bytes and with mutated ones.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import Encoding
from pairs import NAMES as BINARY_NAMES
from pairs import PAIRS, outcome
from rich import FUZZ, mutated, rich_encodings

ENCODINGS: dict[str, Encoding[Any]] = {
    **{name: PAIRS[name][0] for name in BINARY_NAMES},
    **{f"rich.{name}": e for name, e in rich_encodings().items()},
}
NAMES = sorted(ENCODINGS)


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


def test_a_record_builds_its_json_as_it_reads() -> None:
    """Members in the order of the parts, an absent optional one left out;
    an int64 as a string, bytes in hex; a string (not read in JSON mode) by
    its own ``to_json``."""
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
