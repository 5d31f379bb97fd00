"""A JSON object that gives a member name twice (issue 28, item 1).

Real node answers hold such objects: the 2022 ``/describe`` answers give the
JSON schema of ``sc_rollup_originate`` the member ``"kind"`` twice. The
reference keeps an object as its list of members, so its ``json`` encoding
reads, prints and writes (BSON) such an object exactly; so does this library,
with :class:`~data_encoding.RepeatedMembers`. Typed records refuse it.
"""

from __future__ import annotations

import copy
import json as stdjson
import pickle
from collections.abc import Callable

import pytest

import data_encoding as de
from data_encoding import RepeatedMembers
from data_encoding.jsonvalue import dumps, json_object, loads
from data_encoding.tree.bson import decode_bson, encode_bson

TEXT = '{"kind":"operation","x":[1,{"k":null,"k":true}],"kind":"rollup"}'
"""Compact text with a member given twice at the root and in a nested object."""

BSON = (
    # document: length 0x4c, then three elements and its terminator
    "4c000000"
    "02" + b"kind\0".hex() + "0a000000" + b"operation\0".hex()
    # "x": an array of the double 1 and a document with "k" twice
    + "04" + b"x\0".hex() + "1f000000"
    + "01" + b"0\0".hex() + "000000000000f03f"
    + "03" + b"1\0".hex() + "0c000000" + "0a" + b"k\0".hex() + "08" + b"k\0".hex() + "01" + "00"
    + "00"
    + "02" + b"kind\0".hex() + "07000000" + b"rollup\0".hex()
    + "00"
)  # fmt: skip
"""Its BSON, element by element: every member, in order."""


def _value() -> RepeatedMembers:
    value = loads(TEXT)
    assert isinstance(value, RepeatedMembers)
    return value


def test_the_parser_keeps_every_member_in_order() -> None:
    value = _value()
    assert isinstance(value, RepeatedMembers)
    assert value.members == (
        ("kind", "operation"),
        ("x", [1, RepeatedMembers([("k", None), ("k", True)])]),
        ("kind", "rollup"),
    )
    assert list(value.items()) == list(value.members)
    # as a mapping, the last value of each name, as json.loads keeps it
    assert value["kind"] == "rollup"
    assert dict(value) == {"kind": "rollup", "x": value["x"]}
    assert (len(value), list(value)) == (2, ["kind", "x"])
    assert value.repeated == "kind"


def test_an_object_without_a_repeated_name_stays_a_plain_dict() -> None:
    value = loads('{"a": {"b": 1}, "c": [{}]}')
    assert value == {"a": {"b": 1}, "c": [{}]}
    assert type(value) is dict
    assert type(value["a"]) is dict
    assert type(json_object([("a", 1), ("b", 2)])) is dict
    assert json_object([("a", 1), ("a", 2)]) == RepeatedMembers([("a", 1), ("a", 2)])
    with pytest.raises(ValueError, match="no member name is repeated: a dict holds these members"):
        RepeatedMembers([("a", 1), ("b", 2)])


def test_it_prints_back_as_it_was_read() -> None:
    value = _value()
    assert dumps(value) == TEXT
    assert stdjson.dumps(value, separators=(",", ":")) == TEXT
    indented = dumps(value, indent=1)
    assert indented == (
        '{\n "kind": "operation",\n "x": [\n  1,\n  {\n   "k": null,\n   "k": true\n  }\n ],'
        '\n "kind": "rollup"\n}'
    )
    assert loads(indented) == value


def test_it_equals_only_an_object_with_the_same_members_in_order() -> None:
    value = _value()
    assert value == loads(TEXT)
    assert (value != loads(TEXT)) is False  # __ne__ of its own, not dict's
    assert value != dict(value)
    assert dict(value) != value
    assert value != RepeatedMembers([("x", [1, {"k": True}]), ("kind", "o"), ("kind", "r")])
    assert RepeatedMembers([("a", 1), ("a", 2)]) != RepeatedMembers([("a", 2), ("a", 1)])
    assert [value] == [loads(TEXT)]


def test_it_is_read_only_and_copies_and_pickles_whole() -> None:
    value = loads('{"a": 1, "a": 2}')
    assert isinstance(value, RepeatedMembers)
    changes: list[Callable[[], object]] = [
        lambda: value.__setitem__("a", 3),
        lambda: value.__delitem__("a"),
        lambda: value.update(b=1),
        lambda: value.setdefault("b", 1),
        lambda: value.pop("a"),
        lambda: value.popitem(),
        lambda: value.clear(),
    ]
    for change in changes:
        with pytest.raises(TypeError, match="a RepeatedMembers is read-only"):
            change()
    assert value.members == (("a", 1), ("a", 2))
    for again in (
        copy.copy(value),
        copy.deepcopy(value),
        value.copy(),
        pickle.loads(pickle.dumps(value)),
    ):
        assert type(again) is RepeatedMembers
        assert again.members == (("a", 1), ("a", 2))
    assert repr(value) == "RepeatedMembers([('a', 1), ('a', 2)])"


def test_the_json_encoding_reads_prints_writes_and_reads_back_every_member() -> None:
    value = _value()
    assert de.json.from_json(value) == value
    assert de.json.to_json(value) == value
    data = de.json.encode(value)
    assert data.hex() == f"{len(BSON) // 2:08x}" + BSON
    assert de.json.decode(data) == value
    assert de.json.length(value) == len(data)
    assert de.json.json_to_bytes(TEXT) == data
    assert de.json.bytes_to_json(data) == TEXT
    assert de.json.decode_json(data) == value
    assert de.json.encode_json(value) == data


def test_a_record_member_of_any_json_keeps_it_and_a_typed_record_refuses_it() -> None:
    e = de.obj(de.req("schema", de.json), de.req("n", de.uint8))
    text = '{"schema":' + TEXT + ',"n":7}'
    data = e.json_to_bytes(text)
    assert data == de.json.encode(_value()) + b"\x07"
    assert e.bytes_to_json(data) == text
    with pytest.raises(de.JsonError) as info:
        e.json_to_bytes('{"schema": {}, "n": 7, "n": 8}')
    assert (info.value.code, info.value.path, str(info.value)) == (
        "duplicate_field",
        ("n",),
        "duplicate member 'n' at $.n",
    )
    typed = de.obj(de.req("kind", de.string), de.req("x", de.json))
    for direction in (typed.encode, typed.length, typed.to_json):  # one error, every way
        with pytest.raises(de.EncodeError) as refused:
            direction(_value())
        assert (refused.value.code, str(refused.value)) == (
            "duplicate_field",
            "duplicate member 'kind' at $.kind",
        )
    with pytest.raises(de.JsonError) as read:
        typed.from_json(_value())
    assert (read.value.code, str(read.value)) == (
        "duplicate_field",
        "duplicate member 'kind' at $.kind",
    )


def test_bson_with_a_name_twice_reads_as_written() -> None:
    """The bytes hold one value: what they decode to encodes to them."""
    data = bytes.fromhex(BSON)
    value = decode_bson(data, 0, len(data))
    assert value == _value()
    assert encode_bson(value) == data
