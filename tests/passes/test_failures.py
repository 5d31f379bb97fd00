"""Failure tables: every way to fail, with its exact error class, code, offset and path.

Each table row names an encoding, an input, and the error it must raise:
``(class, code, offset, path)``. Binary decode errors carry the **absolute**
byte offset where the problem was found (``decode_prefix`` rows start inside
the buffer to show it); encode and JSON errors carry no offset. Paths list the
record keys and list/tuple indexes from the root to the failing value.

At the end, fuzz tests check that nothing but the right error class ever
escapes ``decode``/``from_json``/``encode``/``to_json``/``length``, and that
pathologically deep input fails with ``too_deep`` rather than ``RecursionError``.
"""

from __future__ import annotations

import contextlib
import gc
import pickle
import sys
import threading
import tracemalloc
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import find, given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    Encoding,
    JsonError,
    array,
    bool_,
    bounded,
    bytes_,
    case,
    check_size,
    constant,
    conv,
    dynamic_size,
    empty,
    fixed,
    float_,
    hashes,
    int8,
    int16,
    int31,
    int32,
    int64,
    json,
    list_,
    list_with_length,
    matching,
    mu,
    n,
    null,
    obj,
    opt,
    option,
    padded,
    ranged_float,
    ranged_int,
    req,
    string,
    string_enum,
    tup,
    uint8,
    uint16,
    uint30,
    union,
    unit,
    variable,
    z,
)
from data_encoding.errors import PathStep
from data_encoding.jsonvalue import JsonValue, RepeatedMembers, loads
from data_encoding.node import registry
from deep import at_depth
from rich import FUZZ, JSONISH, PYTHONISH, RICH, BadRepr, mutated

Path = tuple[PathStep, ...]


def h(text: str) -> bytes:
    """Bytes from hex written with spaces between the fields, for readability."""
    return bytes.fromhex(text.replace(" ", ""))


def refuse(value: object) -> Any:
    """A user conversion that always fails."""
    raise ValueError(f"refused {value!r}")


def same(value: Any) -> Any:
    return value


def assert_error(
    err: DataEncodingError,
    cls: type[DataEncodingError],
    code: str,
    offset: int | None,
    path: Path,
) -> None:
    assert type(err) is cls, repr(err)
    assert (err.code, err.offset, err.path) == (code, offset, path), repr(err)


# Shared encodings of the tables.
FIELDS = obj(req("a", uint16), req("b", int32), req("c", string))
OPT_B = obj(req("a", uint8), opt("b", uint8))
PAIRS = obj(req("x", uint8), req("y", uint16))
BY_WIDTH = union([case(0, "a", obj(req("x", uint8))), case(1, "b", obj(req("x", uint16)))])
ONLY_TAG_0 = union([case(0, "a", uint8)])
# two shapes that agree on "x": a bad "x" fails both the same way
SAME_X = union(
    [case(0, "a", obj(req("x", uint8), opt("y", uint8))), case(1, "b", obj(req("x", uint8)))]
)
INT_OR_STRING = union([case(0, "a", uint8), case(1, "b", string)])
NESTED = obj(req("a", list_(obj(req("b", bool_)))))
WITH_JSON = obj(req("a", uint8), req("j", json))
ENUM = string_enum(["a", "b", "c"])
PADDED_RECORD = obj(req("x", uint16), req("p", padded(obj(req("a", uint8), req("b", bool_)), 1)))
CONV_DECODE = conv(same, refuse, uint8)
CONV_ENCODE = conv(refuse, same, uint8)


def _by_size(value: Any) -> int | None:
    """The tag of the smallest of MATCHING's cases that holds ``value``."""
    if type(value) is not int:
        return None
    return 0 if -(2**30) <= value < 2**30 else 1 if -(2**63) <= value < 2**63 else 9


# a matching union: its function names the case; 9 is the tag of no case
MATCHING = matching(_by_size, [case(0, "small", int31), case(1, "big", int64)])

# --------------------------------------------------------------------- decode

# (encoding, hex input, error class, code, offset, path)
DECODE_ROWS = [
    # not_enough_data: each fixed width at top level (nothing or too little left)
    pytest.param(uint8, "", DecodeError, "not_enough_data", 0, (), id="uint8"),
    pytest.param(int8, "", DecodeError, "not_enough_data", 0, (), id="int8"),
    pytest.param(uint16, "01", DecodeError, "not_enough_data", 0, (), id="uint16"),
    pytest.param(int16, "ff", DecodeError, "not_enough_data", 0, (), id="int16"),
    pytest.param(int31, "000000", DecodeError, "not_enough_data", 0, (), id="int31"),
    pytest.param(uint30, "00", DecodeError, "not_enough_data", 0, (), id="uint30"),
    pytest.param(int32, "000000", DecodeError, "not_enough_data", 0, (), id="int32"),
    pytest.param(int64, "00" * 7, DecodeError, "not_enough_data", 0, (), id="int64"),
    pytest.param(float_, "00" * 7, DecodeError, "not_enough_data", 0, (), id="float"),
    pytest.param(bool_, "", DecodeError, "not_enough_data", 0, (), id="bool"),
    pytest.param(fixed.bytes_(4), "0102", DecodeError, "not_enough_data", 0, (), id="fixed.bytes"),
    pytest.param(fixed.string(3), "61", DecodeError, "not_enough_data", 0, (), id="fixed.string"),
    pytest.param(ENUM, "", DecodeError, "not_enough_data", 0, (), id="string_enum"),
    pytest.param(ranged_int(0, 1000), "00", DecodeError, "not_enough_data", 0, (), id="ranged16"),
    pytest.param(padded(uint8, 2), "0700", DecodeError, "not_enough_data", 0, (), id="padded"),
    pytest.param(n, "", DecodeError, "not_enough_data", 0, (), id="n-empty"),
    pytest.param(n, "80", DecodeError, "not_enough_data", 0, (), id="n-unfinished"),
    pytest.param(z, "", DecodeError, "not_enough_data", 0, (), id="z-empty"),
    pytest.param(z, "8080", DecodeError, "not_enough_data", 0, (), id="z-unfinished"),
    pytest.param(ONLY_TAG_0, "", DecodeError, "not_enough_data", 0, (), id="union-tag"),
    # ... inside records: the path is the field, the offset where the field starts
    pytest.param(FIELDS, "0001 00", DecodeError, "not_enough_data", 2, ("b",), id="obj-int32"),
    pytest.param(
        FIELDS, "0001 00000002 0000", DecodeError, "not_enough_data", 6, ("c",), id="obj-header"
    ),
    pytest.param(OPT_B, "01", DecodeError, "not_enough_data", 1, ("b",), id="obj-opt-flag"),
    pytest.param(
        obj(req("a", uint8), opt("b", uint16)),
        "01 ff 00",
        DecodeError,
        "not_enough_data",
        2,
        ("b",),
        id="obj-opt-value",
    ),
    pytest.param(
        obj(req("a", uint8), req("b", int64)),
        "01 000000",
        DecodeError,
        "not_enough_data",
        1,
        ("b",),
        id="obj-int64",
    ),
    pytest.param(tup(uint8, n, bool_), "01 01", DecodeError, "not_enough_data", 2, (2,), id="tup"),
    # ... in list elements: the path is the index
    pytest.param(
        list_(uint16), "00000003 0001 00", DecodeError, "not_enough_data", 6, (1,), id="list-atom"
    ),
    pytest.param(
        list_(float_),
        "0000000a" + "00" * 10,
        DecodeError,
        "not_enough_data",
        12,
        (1,),
        id="list-float",
    ),
    pytest.param(
        list_(n), "00000003 01 80ff", DecodeError, "not_enough_data", 5, (1,), id="list-n"
    ),
    pytest.param(
        list_(PAIRS),
        "00000005 010002 0300",
        DecodeError,
        "not_enough_data",
        8,
        (1, "y"),
        id="list-record",
    ),
    pytest.param(
        fixed.list_(3, uint16),
        "0001 0002",
        DecodeError,
        "not_enough_data",
        4,
        (2,),
        id="fixed.list",
    ),
    pytest.param(
        variable.list_(uint16), "0001 00", DecodeError, "not_enough_data", 2, (1,), id="var.list"
    ),
    # ... a length header claiming more bytes than remain: the offset is the header's
    pytest.param(string, "00000005 61", DecodeError, "not_enough_data", 0, (), id="string-header"),
    pytest.param(
        FIELDS,
        "0001 00000002 00000009 aa",
        DecodeError,
        "not_enough_data",
        6,
        ("c",),
        id="obj-string-header",
    ),
    pytest.param(
        dynamic_size(uint8, kind="Uint16"),
        "00",
        DecodeError,
        "not_enough_data",
        0,
        (),
        id="dynamic_size-short-header",
    ),
    pytest.param(
        list_with_length("Uint8", uint16),
        "05 0001",
        DecodeError,
        "not_enough_data",
        0,
        (),
        id="count-header",
    ),
    pytest.param(json, "000000", DecodeError, "not_enough_data", 0, (), id="json-header"),
    # extra_bytes inside a frame (top level: TOP_LEVEL_ROWS)
    pytest.param(
        dynamic_size(uint8), "00000002 01 02", DecodeError, "extra_bytes", 5, (), id="frame"
    ),
    pytest.param(
        obj(req("d", dynamic_size(uint8))),
        "00000002 01 02",
        DecodeError,
        "extra_bytes",
        5,
        ("d",),
        id="frame-in-obj",
    ),
    # invalid_bool
    pytest.param(bool_, "01", DecodeError, "invalid_bool", 0, (), id="bool-01"),
    pytest.param(bool_, "7f", DecodeError, "invalid_bool", 0, (), id="bool-7f"),
    pytest.param(list_(bool_), "00000002 ff 01", DecodeError, "invalid_bool", 5, (1,), id="list"),
    # invalid_presence_flag
    pytest.param(OPT_B, "00 01", DecodeError, "invalid_presence_flag", 1, ("b",), id="opt-01"),
    pytest.param(OPT_B, "00 7f 05", DecodeError, "invalid_presence_flag", 1, ("b",), id="opt-7f"),
    # unexpected_tag
    pytest.param(ONLY_TAG_0, "05 01", DecodeError, "unexpected_tag", 0, (), id="union"),
    pytest.param(option(uint8), "02 01", DecodeError, "unexpected_tag", 0, (), id="option"),
    pytest.param(
        obj(req("a", uint8), req("o", option(uint16))),
        "01 02 00",
        DecodeError,
        "unexpected_tag",
        1,
        ("o",),
        id="option-in-obj",
    ),
    pytest.param(
        union([case(0, "a", uint8)], tag_size="Uint16"),
        "0100 01",
        DecodeError,
        "unexpected_tag",
        0,
        (),
        id="union-uint16",
    ),
    # no_case_matched: an enumeration index beyond the cases
    pytest.param(ENUM, "03", DecodeError, "no_case_matched", 0, (), id="enum-index"),
    pytest.param(
        obj(req("a", uint8), req("e", ENUM)),
        "01 ff",
        DecodeError,
        "no_case_matched",
        1,
        ("e",),
        id="string_enum-in-obj",
    ),
    # invalid_int
    pytest.param(int31, "40000000", DecodeError, "invalid_int", 0, (), id="int31-high"),
    pytest.param(int31, "bfffffff", DecodeError, "invalid_int", 0, (), id="int31-low"),
    pytest.param(uint30, "40000000", DecodeError, "invalid_int", 0, (), id="uint30"),
    pytest.param(ranged_int(10, 20), "0b", DecodeError, "invalid_int", 0, (), id="ranged-shift"),
    pytest.param(ranged_int(-10, 20), "15", DecodeError, "invalid_int", 0, (), id="ranged-signed"),
    pytest.param(ranged_int(-10, 20), "f5", DecodeError, "invalid_int", 0, (), id="ranged-low"),
    pytest.param(
        obj(req("a", uint8), req("b", int31)),
        "01 40000000",
        DecodeError,
        "invalid_int",
        1,
        ("b",),
        id="int31-in-obj",
    ),
    pytest.param(
        list_(int31),
        "00000008 00000001 40000000",
        DecodeError,
        "invalid_int",
        8,
        (1,),
        id="int31-in-list",
    ),
    # invalid_float
    pytest.param(
        ranged_float(0.0, 1.0), "4000000000000000", DecodeError, "invalid_float", 0, (), id="2.0"
    ),
    pytest.param(
        ranged_float(0.0, 1.0), "7ff8000000000000", DecodeError, "invalid_float", 0, (), id="nan"
    ),
    # trailing_zero and negative_zero (Zarith canonicity); the offset is the bad byte
    pytest.param(n, "8000", DecodeError, "trailing_zero", 1, (), id="n-8000"),
    pytest.param(n, "ff8000", DecodeError, "trailing_zero", 2, (), id="n-ff8000"),
    pytest.param(z, "8000", DecodeError, "trailing_zero", 1, (), id="z-8000"),
    pytest.param(z, "838000", DecodeError, "trailing_zero", 2, (), id="z-838000"),
    # past the bytes read by a loop (four), the end is searched for
    pytest.param(n, "8080808000", DecodeError, "trailing_zero", 4, (), id="n-5-bytes"),
    pytest.param(z, "c080808000", DecodeError, "trailing_zero", 4, (), id="z-5-bytes"),
    pytest.param(n, "80808080", DecodeError, "not_enough_data", 0, (), id="n-4-unfinished"),
    pytest.param(z, "40", DecodeError, "negative_zero", 0, (), id="z-40"),
    pytest.param(list_(z), "00000002 01 40", DecodeError, "negative_zero", 5, (1,), id="z-list"),
    # a whole list is read at once, with one path per length: two bytes, a
    # per-group loop, and the mask-and-shift steps past six groups
    pytest.param(
        list_(z), "00000003 01 8000", DecodeError, "trailing_zero", 6, (1,), id="z-list-2"
    ),
    pytest.param(
        list_(n), "00000004 01 818000", DecodeError, "trailing_zero", 7, (1,), id="n-list-loop"
    ),
    pytest.param(
        list_(z),
        "00000009 01 8181818181818100",
        DecodeError,
        "trailing_zero",
        12,
        (1,),
        id="z-list-long",
    ),
    # invalid_padding: the offset is the (first non-zero) padding byte
    pytest.param(padded(uint8, 2), "07 0100", DecodeError, "invalid_padding", 1, (), id="padding"),
    pytest.param(
        obj(req("a", uint8), req("p", padded(uint8, 2))),
        "01 07 0100",
        DecodeError,
        "invalid_padding",
        2,
        ("p",),
        id="padding-in-obj",
    ),
    # ... and an error inside the padded value keeps its own absolute offset
    pytest.param(
        PADDED_RECORD, "0000 01 07 00", DecodeError, "invalid_bool", 3, ("p", "b"), id="inner"
    ),
    # size_limit_exceeded: the offset is the first byte past the limit
    pytest.param(
        check_size(2, string), "00000001 61", DecodeError, "size_limit_exceeded", 2, (), id="check"
    ),
    pytest.param(
        bounded.string(2), "03 616263", DecodeError, "size_limit_exceeded", 3, (), id="bounded"
    ),
    pytest.param(
        obj(req("a", uint8), req("s", bounded.bytes_(1))),
        "00 02 6162",
        DecodeError,
        "size_limit_exceeded",
        3,
        ("s",),
        id="bounded-in-obj",
    ),
    # list_too_long / array_too_long: the offset is the first element too many
    pytest.param(
        list_(uint8, max_length=2),
        "00000003 010203",
        DecodeError,
        "list_too_long",
        6,
        (),
        id="list-atoms",
    ),
    pytest.param(
        list_(n, max_length=2),
        "00000003 010203",
        DecodeError,
        "list_too_long",
        6,
        (),
        id="too-long-n",
    ),
    pytest.param(
        array(uint8, max_length=2),
        "00000003 010203",
        DecodeError,
        "array_too_long",
        6,
        (),
        id="array",
    ),
    pytest.param(
        variable.list_(uint16, max_length=1),
        "0001 0002",
        DecodeError,
        "list_too_long",
        2,
        (),
        id="variable.list",
    ),
    pytest.param(
        list_with_length("Uint8", uint8, max_length=2),
        "03 010203",
        DecodeError,
        "list_too_long",
        0,
        (),
        id="too-long-count",
    ),
    # user_function: a conversion that raises
    pytest.param(CONV_DECODE, "05", DecodeError, "user_function", 0, (), id="conv"),
    pytest.param(
        obj(req("a", uint8), req("b", CONV_DECODE)),
        "01 05",
        DecodeError,
        "user_function",
        1,
        ("b",),
        id="conv-in-obj",
    ),
    pytest.param(
        list_(conv(same, refuse, n)),
        "00000002 01 02",
        DecodeError,
        "user_function",
        4,
        (0,),
        id="conv-n-in-list",
    ),
    # invalid_bson: a corrupted document inside the json frame
    pytest.param(
        json, "00000005 0500000001", DecodeError, "invalid_bson", 8, (), id="bad-terminator"
    ),
    pytest.param(json, "00000005 0600000000", DecodeError, "invalid_bson", 4, (), id="bad-length"),
    pytest.param(
        WITH_JSON,
        "01 00000005 0500000001",
        DecodeError,
        "invalid_bson",
        9,
        ("j",),
        id="json-in-obj",
    ),
    # nested paths: a bad boolean in the second element of a list in a record
    pytest.param(
        NESTED, "00000002 ff 07", DecodeError, "invalid_bool", 5, ("a", 1, "b"), id="nested"
    ),
    pytest.param(
        obj(req("u", BY_WIDTH)),
        "01 01",
        DecodeError,
        "not_enough_data",
        1,
        ("u", "x"),
        id="union-case-field",
    ),
]

# extra_bytes at top level: the offset is where the value ends
TOP_LEVEL_ROWS = [
    pytest.param(uint8, "01 02", DecodeError, "extra_bytes", 1, (), id="extra-uint8"),
    pytest.param(obj(req("a", uint8)), "01 02", DecodeError, "extra_bytes", 1, (), id="extra-obj"),
    pytest.param(string, "00000001 61 00", DecodeError, "extra_bytes", 5, (), id="extra-string"),
    pytest.param(n, "ff01 02 03", DecodeError, "extra_bytes", 2, (), id="extra-n"),
]


@pytest.mark.parametrize(
    ("enc", "data", "cls", "code", "offset", "path"), DECODE_ROWS + TOP_LEVEL_ROWS
)
def test_decode_failure(
    enc: Encoding[Any],
    data: str,
    cls: type[DataEncodingError],
    code: str,
    offset: int,
    path: Path,
) -> None:
    with pytest.raises(cls) as info:
        enc.decode(h(data))
    assert_error(info.value, cls, code, offset, path)


@pytest.mark.parametrize(("enc", "data", "cls", "code", "offset", "path"), DECODE_ROWS)
def test_decode_prefix_offsets_are_absolute(
    enc: Encoding[Any],
    data: str,
    cls: type[DataEncodingError],
    code: str,
    offset: int,
    path: Path,
) -> None:
    """The same bytes after 3 bytes of junk, read from offset 3: offsets shift by 3."""
    with pytest.raises(cls) as info:
        enc.decode_prefix(b"\xa5\x5a\xa5" + h(data), 3)
    assert_error(info.value, cls, code, offset + 3, path)


@pytest.mark.parametrize(("enc", "data", "cls", "code", "offset", "path"), TOP_LEVEL_ROWS)
def test_decode_prefix_stops_where_decode_finds_extra_bytes(
    enc: Encoding[Any],
    data: str,
    cls: type[DataEncodingError],
    code: str,
    offset: int,
    path: Path,
) -> None:
    """Leftover bytes are decode's error only: decode_prefix returns where the value ends."""
    assert (cls, code, path) == (DecodeError, "extra_bytes", ())
    value, end = enc.decode_prefix(b"\xa5\x5a\xa5" + h(data), 3)
    assert end == 3 + offset
    assert value == enc.decode(h(data)[:offset])


# (encoding, hex input, start, error class, code, offset, path): explicit decode_prefix rows
PREFIX_ROWS = [
    pytest.param(uint16, "aabbcc", 2, DecodeError, "not_enough_data", 2, (), id="uint16"),
    pytest.param(bool_, "0000 7f", 2, DecodeError, "invalid_bool", 2, (), id="bool-7f"),
    pytest.param(string, "ffff 00000005 61", 2, DecodeError, "not_enough_data", 2, (), id="header"),
    pytest.param(
        NESTED,
        "abcd 00000002 ff 07",
        2,
        DecodeError,
        "invalid_bool",
        7,
        ("a", 1, "b"),
        id="nested",
    ),
    pytest.param(
        obj(req("u", BY_WIDTH)), "ffff 07", 2, DecodeError, "unexpected_tag", 2, ("u",), id="tag"
    ),
    pytest.param(
        check_size(2, list_(uint8)),
        "aa 00000001 61",
        1,
        DecodeError,
        "size_limit_exceeded",
        3,
        (),
        id="check_size",
    ),
    pytest.param(conv(same, refuse, n), "aa 05", 1, DecodeError, "user_function", 1, (), id="conv"),
    pytest.param(
        WITH_JSON,
        "eeee 01 00000005 0500000001",
        2,
        DecodeError,
        "invalid_bson",
        11,
        ("j",),
        id="bson",
    ),
    pytest.param(uint8, "01", 2, DecodeError, "invalid_offset", None, (), id="offset-past-end"),
    pytest.param(uint8, "01", -1, DecodeError, "invalid_offset", None, (), id="negative-offset"),
]


@pytest.mark.parametrize(("enc", "data", "start", "cls", "code", "offset", "path"), PREFIX_ROWS)
def test_decode_prefix_failure(
    enc: Encoding[Any],
    data: str,
    start: int,
    cls: type[DataEncodingError],
    code: str,
    offset: int | None,
    path: Path,
) -> None:
    with pytest.raises(cls) as info:
        enc.decode_prefix(h(data), start)
    assert_error(info.value, cls, code, offset, path)


# --------------------------------------------------------------------- encode

# (encoding, value, error class, code, path); offset is always None
ENCODE_ROWS = [
    # invalid_int: every fixed width, just outside its range
    pytest.param(uint8, 256, EncodeError, "invalid_int", (), id="uint8-256"),
    pytest.param(uint8, -1, EncodeError, "invalid_int", (), id="uint8--1"),
    pytest.param(int8, 128, EncodeError, "invalid_int", (), id="int8"),
    pytest.param(uint16, 65536, EncodeError, "invalid_int", (), id="uint16"),
    pytest.param(int16, -32769, EncodeError, "invalid_int", (), id="int16"),
    pytest.param(int31, 2**30, EncodeError, "invalid_int", (), id="int31-high"),
    pytest.param(int31, -(2**30) - 1, EncodeError, "invalid_int", (), id="int31-low"),
    pytest.param(uint30, 2**30, EncodeError, "invalid_int", (), id="uint30"),
    pytest.param(int32, 2**31, EncodeError, "invalid_int", (), id="int32"),
    pytest.param(int64, 2**63, EncodeError, "invalid_int", (), id="int64"),
    pytest.param(ranged_int(10, 20), 9, EncodeError, "invalid_int", (), id="ranged-low"),
    pytest.param(ranged_int(10, 20), 21, EncodeError, "invalid_int", (), id="ranged-high"),
    pytest.param(ranged_int(0, 5), 6, EncodeError, "invalid_int", (), id="ranged-0-5"),
    pytest.param(ranged_int(-10, 20), 21, EncodeError, "invalid_int", (), id="ranged-signed"),
    pytest.param(
        obj(req("a", uint8), req("b", int31)),
        {"a": 1, "b": 2**30},
        EncodeError,
        "invalid_int",
        ("b",),
        id="int31-in-obj",
    ),
    pytest.param(list_(int31), [1, 2**30], EncodeError, "invalid_int", (1,), id="int31-in-list"),
    pytest.param(list_(uint8), [1, 300], EncodeError, "invalid_int", (1,), id="uint8-in-list"),
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"a": 300},
        EncodeError,
        "invalid_int",
        ("a",),
        id="uint8-in-obj",
    ),
    # negative_natural
    pytest.param(n, -1, EncodeError, "negative_natural", (), id="n"),
    pytest.param(list_(n), [1, -3], EncodeError, "negative_natural", (1,), id="n-in-list"),
    # wrong_type: a bool is no number, as in JSON (Python counts it as an int)
    *(
        pytest.param(e, True, EncodeError, "wrong_type", (), id=f"{name}-bool")
        for name, e in [
            ("uint8", uint8),
            ("int8", int8),
            ("uint16", uint16),
            ("int16", int16),
            ("int31", int31),
            ("uint30", uint30),
            ("int32", int32),
            ("int64", int64),
            ("ranged", ranged_int(0, 5)),
            ("ranged-signed", ranged_int(-5, 5)),
            ("float", float_),
            ("ranged-float", ranged_float(0.0, 2.0)),
            ("n", n),
            ("z", z),
        ]
    ),
    pytest.param(
        obj(req("a", uint8), req("b", int31), req("c", float_)),
        {"a": 1, "b": 2, "c": False},
        EncodeError,
        "wrong_type",
        ("c",),
        id="bool-in-fused-run",
    ),
    pytest.param(
        obj(req("a", uint16), req("b", int31)),
        {"a": False, "b": 2},
        EncodeError,
        "wrong_type",
        ("a",),
        id="bool-first-in-run",
    ),
    pytest.param(list_(uint8), [1, True], EncodeError, "wrong_type", (1,), id="bool-in-list"),
    pytest.param(list_(int31), [True], EncodeError, "wrong_type", (0,), id="bool-in-int31-list"),
    pytest.param(list_(z), [1, False], EncodeError, "wrong_type", (1,), id="bool-in-z-list"),
    pytest.param(list_(float_), [1.0, True], EncodeError, "wrong_type", (1,), id="bool-floats"),
    pytest.param(
        string_enum({"one": 1, "two": 2}), True, EncodeError, "no_case_matched", (), id="enum-bool"
    ),
    pytest.param(uint8, "1", EncodeError, "wrong_type", (), id="uint8-str"),
    pytest.param(uint8, 1.0, EncodeError, "wrong_type", (), id="uint8-float"),
    pytest.param(z, "1", EncodeError, "wrong_type", (), id="z-str"),
    pytest.param(bool_, 1, EncodeError, "wrong_type", (), id="bool-int"),
    pytest.param(string, 5, EncodeError, "wrong_type", (), id="string-int"),
    pytest.param(bytes_, "ab", EncodeError, "wrong_type", (), id="bytes-str"),
    pytest.param(obj(req("a", uint8)), [1], EncodeError, "wrong_type", (), id="obj-list"),
    pytest.param(list_(uint8), {"a": 1}, EncodeError, "wrong_type", (), id="list-dict"),
    pytest.param(tup(uint8, uint8), 5, EncodeError, "wrong_type", (), id="tup-int"),
    pytest.param(unit, 5, EncodeError, "wrong_type", (), id="unit"),
    pytest.param(empty, {"a": 1}, EncodeError, "wrong_type", (), id="empty"),
    pytest.param(null, 0, EncodeError, "wrong_type", (), id="null"),
    pytest.param(constant("k"), "j", EncodeError, "wrong_type", (), id="constant"),
    pytest.param(
        NESTED,
        {"a": [{"b": True}, {"b": 2}]},
        EncodeError,
        "wrong_type",
        ("a", 1, "b"),
        id="nested",
    ),
    # wrong_length
    pytest.param(fixed.bytes_(32), b"x" * 31, EncodeError, "wrong_length", (), id="bytes32-31"),
    pytest.param(fixed.bytes_(32), b"x" * 33, EncodeError, "wrong_length", (), id="bytes32-33"),
    pytest.param(fixed.string(3), "ab", EncodeError, "wrong_length", (), id="string3"),
    pytest.param(tup(uint8, uint8), (1,), EncodeError, "wrong_length", (), id="tup"),
    pytest.param(fixed.list_(2, uint8), [1], EncodeError, "wrong_length", (), id="fixed.list"),
    # size_limit_exceeded
    pytest.param(check_size(2, string), "a", EncodeError, "size_limit_exceeded", (), id="check"),
    pytest.param(bounded.string(2), "abc", EncodeError, "size_limit_exceeded", (), id="bounded"),
    pytest.param(
        dynamic_size(variable.bytes_, kind="Uint8"),
        b"x" * 300,
        EncodeError,
        "size_limit_exceeded",
        (),
        id="dynamic_size-uint8",
    ),
    # list_too_long / array_too_long
    pytest.param(list_(uint8, max_length=2), [1, 2, 3], EncodeError, "list_too_long", (), id="l"),
    pytest.param(list_(n, max_length=2), [1, 2, 3], EncodeError, "list_too_long", (), id="l-n"),
    pytest.param(array(uint8, max_length=2), [1, 2, 3], EncodeError, "array_too_long", (), id="a"),
    pytest.param(
        list_with_length("Uint8", uint8), [0] * 256, EncodeError, "list_too_long", (), id="count"
    ),
    # missing_field / unexpected_field (the key is in the path)
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"b": "x"},
        EncodeError,
        "missing_field",
        ("a",),
        id="missing",
    ),
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"a": 1, "zz": 2},
        EncodeError,
        "unexpected_field",
        ("zz",),
        id="unexpected",
    ),
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"a": 1, "b": None, "zz": 2},
        EncodeError,
        "unexpected_field",
        ("zz",),
        id="unexpected-with-opt",
    ),
    # no_case_matched
    pytest.param(INT_OR_STRING, [1], EncodeError, "no_case_matched", (), id="union"),
    pytest.param(BY_WIDTH, {"x": 70000}, EncodeError, "no_case_matched", (), id="union-both-fail"),
    pytest.param(MATCHING, "5", EncodeError, "no_case_matched", (), id="matching-none"),
    pytest.param(MATCHING, 2**70, EncodeError, "no_case_matched", (), id="matching-no-such-tag"),
    pytest.param(
        list_(MATCHING), [1, None], EncodeError, "no_case_matched", (1,), id="matching-in-list"
    ),
    pytest.param(SAME_X, {"x": 256}, EncodeError, "invalid_int", ("x",), id="union-same-fail"),
    pytest.param(
        list_(BY_WIDTH),
        [{"x": 1}, {"x": 70000}],
        EncodeError,
        "no_case_matched",
        (1,),
        id="union-in-list",
    ),
    pytest.param(ENUM, "d", EncodeError, "no_case_matched", (), id="string_enum"),
    # user_function
    pytest.param(CONV_ENCODE, 5, EncodeError, "user_function", (), id="conv"),
    pytest.param(conv(refuse, same, n), 5, EncodeError, "user_function", (), id="conv-n"),
    pytest.param(
        obj(req("a", uint8), req("c", CONV_ENCODE)),
        {"a": 1, "c": 2},
        EncodeError,
        "user_function",
        ("c",),
        id="conv-in-obj",
    ),
    # invalid_utf8: a lone surrogate has no UTF-8 form
    pytest.param(string, "\ud800", EncodeError, "invalid_utf8", (), id="string"),
    pytest.param(variable.string, "\ud800", EncodeError, "invalid_utf8", (), id="variable.string"),
    pytest.param(fixed.string(3), "\ud800", EncodeError, "invalid_utf8", (), id="fixed.string"),
    pytest.param(
        obj(req("s", string)), {"s": "a\udfff"}, EncodeError, "invalid_utf8", ("s",), id="in-obj"
    ),
    # invalid_float
    pytest.param(ranged_float(0.0, 1.0), 2.0, EncodeError, "invalid_float", (), id="ranged_float"),
    # not_json: json's binary form is BSON of a JSON value
    pytest.param(json, float("nan"), EncodeError, "not_json", (), id="json-nan"),
]


@pytest.mark.parametrize(("enc", "value", "cls", "code", "path"), ENCODE_ROWS)
def test_encode_failure(
    enc: Encoding[Any], value: Any, cls: type[DataEncodingError], code: str, path: Path
) -> None:
    with pytest.raises(cls) as info:
        enc.encode(value)
    assert_error(info.value, cls, code, None, path)


@pytest.mark.parametrize(("enc", "value", "cls", "code", "path"), ENCODE_ROWS)
def test_length_fails_like_encode(
    enc: Encoding[Any], value: Any, cls: type[DataEncodingError], code: str, path: Path
) -> None:
    """``length`` checks exactly like ``encode``: same class, code and path."""
    with pytest.raises(cls) as info:
        enc.length(value)
    assert_error(info.value, cls, code, None, path)


# (encoding, value, error class, code, path): to_json
TO_JSON_ROWS = [
    pytest.param(float_, float("nan"), EncodeError, "not_json", (), id="float-nan"),
    pytest.param(float_, float("inf"), EncodeError, "not_json", (), id="float-inf"),
    pytest.param(json, {"a": [1, float("nan")]}, EncodeError, "not_json", ("a", 1), id="json-nan"),
    pytest.param(json, {1: 2}, EncodeError, "not_json", (), id="json-int-key"),
    pytest.param(json, {1, 2}, EncodeError, "not_json", (), id="json-set"),
    pytest.param(bounded.string(2), "abc", EncodeError, "too_long", (), id="bounded.string"),
    pytest.param(bounded.bytes_(2), b"abc", EncodeError, "too_long", (), id="bounded.bytes"),
    pytest.param(bounded.string(5), b"\xff", EncodeError, "not_json", (), id="bounded-not-utf8"),
    pytest.param(fixed.bytes_(32), b"x" * 31, EncodeError, "wrong_length", (), id="fixed"),
    pytest.param(tup(uint8, uint8), [1, 2, 3], EncodeError, "wrong_length", (), id="tup"),
    pytest.param(uint8, 256, EncodeError, "invalid_int", (), id="uint8"),
    pytest.param(int31, 2**30, EncodeError, "invalid_int", (), id="int31"),
    pytest.param(ranged_int(10, 20), 21, EncodeError, "invalid_int", (), id="ranged"),
    pytest.param(int64, 2**63, EncodeError, "invalid_int", (), id="int64"),
    pytest.param(n, -1, EncodeError, "negative_natural", (), id="n"),
    pytest.param(uint8, "1", EncodeError, "wrong_type", (), id="uint8-str"),
    pytest.param(unit, 5, EncodeError, "wrong_type", (), id="unit"),
    pytest.param(
        obj(req("a", uint8)), {"a": 1, "zz": 2}, EncodeError, "unexpected_field", ("zz",), id="u"
    ),
    pytest.param(obj(req("a", uint8)), {}, EncodeError, "missing_field", ("a",), id="missing"),
    pytest.param(INT_OR_STRING, [1], EncodeError, "no_case_matched", (), id="union"),
    pytest.param(ENUM, "d", EncodeError, "no_case_matched", (), id="string_enum"),
    pytest.param(CONV_ENCODE, 5, EncodeError, "user_function", (), id="conv"),
    pytest.param(string, "\ud800", EncodeError, "invalid_utf8", (), id="surrogate"),
    pytest.param(ranged_float(0.0, 1.0), 2.0, EncodeError, "invalid_float", (), id="ranged_float"),
    pytest.param(
        NESTED,
        {"a": [{"b": True}, {"b": 2}]},
        EncodeError,
        "wrong_type",
        ("a", 1, "b"),
        id="nested",
    ),
]


@pytest.mark.parametrize("enc", [uint8, int31, int64, float_, n, z, ranged_int(0, 5)])
def test_to_json_refuses_a_bool_for_a_number(enc: Encoding[Any]) -> None:
    with pytest.raises(EncodeError) as info:
        enc.to_json(True)
    assert_error(info.value, EncodeError, "wrong_type", None, ())


@pytest.mark.parametrize(("enc", "value", "cls", "code", "path"), TO_JSON_ROWS)
def test_to_json_failure(
    enc: Encoding[Any], value: Any, cls: type[DataEncodingError], code: str, path: Path
) -> None:
    with pytest.raises(cls) as info:
        enc.to_json(value)
    assert_error(info.value, cls, code, None, path)


def test_binary_only_limits_do_not_apply_to_json() -> None:
    """Size limits, length headers and max_length bound the binary form only."""
    assert check_size(2, string).to_json("a") == "a"
    assert dynamic_size(variable.bytes_, kind="Uint8").to_json(b"\x01" * 300) == "01" * 300
    assert list_(uint8, max_length=2).to_json([1, 2, 3]) == [1, 2, 3]
    assert list_(uint8, max_length=2).from_json([1, 2, 3]) == [1, 2, 3]


def test_failed_union_case_leaves_no_bytes() -> None:
    """A case that is tried and fails is rolled back before the next one is written."""
    assert BY_WIDTH.encode({"x": 300}) == h("01 012c")
    assert BY_WIDTH.encode({"x": 3}) == h("00 03")
    assert BY_WIDTH.length({"x": 300}) == 3
    inside = obj(req("p", uint8), req("u", BY_WIDTH), req("q", uint8))
    assert inside.encode({"p": 1, "u": {"x": 300}, "q": 2}) == h("01 01012c 02")
    assert list_(BY_WIDTH).encode([{"x": 1}, {"x": 300}]) == h("00000005 0001 01012c")
    # a case whose header or size check fails after its payload was written
    small_or_big = union(
        [
            case(0, "small", dynamic_size(variable.bytes_, kind="Uint8")),
            case(1, "big", bytes_),
        ]
    )
    assert small_or_big.encode(b"ab") == h("00 02 6162")
    assert small_or_big.encode(b"\x07" * 300) == h("01 0000012c") + b"\x07" * 300
    limited = union([case(0, "s", check_size(6, bytes_)), case(1, "l", bytes_)])
    assert limited.encode(b"ab") == h("00 00000002 6162")
    assert limited.encode(b"abc") == h("01 00000003 616263")


def test_failed_encode_returns_nothing_and_leaves_no_state() -> None:
    """``encode`` raises (no partial bytes escape), and the next call starts afresh."""
    enc = obj(req("a", uint8), req("l", list_(BY_WIDTH)), req("z", uint8))
    bad = {"a": 7, "l": [{"x": 1}, {"x": 70000}], "z": 1}
    with pytest.raises(EncodeError) as info:
        enc.encode(bad)
    assert_error(info.value, EncodeError, "no_case_matched", None, ("l", 1))
    assert enc.encode({"a": 7, "l": [{"x": 1}], "z": 1}) == h("07 00000002 0001 01")
    with pytest.raises(EncodeError):
        enc.length(bad)
    assert enc.length({"a": 7, "l": [{"x": 1}], "z": 1}) == 8


# ----------------------------------------------------------------------- JSON

# (encoding, JSON value, error class, code, path); offset is always None
JSON_ROWS = [
    # not_json: no JSON number is infinite or NaN (json.loads makes them of "NaN")
    *(
        pytest.param(e, x, JsonError, "not_json", (), id=f"{name}-{x}")
        for name, e in [("float", float_), ("ranged", ranged_float(-1.0, 1.0))]
        for x in [float("nan"), float("inf"), float("-inf")]
    ),
    # not_canonical: one value, one spelling
    pytest.param(
        string, {"invalid_utf8_string": [97]}, JsonError, "not_canonical", (), id="utf8-as-bytes"
    ),
    pytest.param(
        string, {"invalid_utf8_string": []}, JsonError, "not_canonical", (), id="empty-as-bytes"
    ),
    pytest.param(
        fixed.string(2),
        {"invalid_utf8_string": [104, 105]},
        JsonError,
        "not_canonical",
        (),
        id="fixed-utf8-as-bytes",
    ),
    # wrong_type
    pytest.param(uint8, "1", JsonError, "wrong_type", (), id="uint8-str"),
    pytest.param(uint8, True, JsonError, "wrong_type", (), id="uint8-bool"),
    pytest.param(uint8, 5.0, JsonError, "wrong_type", (), id="uint8-float-5.0"),
    pytest.param(int31, 5.0, JsonError, "wrong_type", (), id="int31-float-5.0"),
    pytest.param(int64, 5, JsonError, "wrong_type", (), id="int64-number"),
    pytest.param(n, 5, JsonError, "wrong_type", (), id="n-number"),
    pytest.param(bool_, 0, JsonError, "wrong_type", (), id="bool-0"),
    pytest.param(float_, "1.0", JsonError, "wrong_type", (), id="float-str"),
    pytest.param(float_, True, JsonError, "wrong_type", (), id="float-bool"),
    pytest.param(string, 5, JsonError, "wrong_type", (), id="string-int"),
    pytest.param(bytes_, 5, JsonError, "wrong_type", (), id="bytes-int"),
    pytest.param(obj(req("a", uint8)), [], JsonError, "wrong_type", (), id="obj-list"),
    pytest.param(list_(uint8), {}, JsonError, "wrong_type", (), id="list-{}"),
    pytest.param(list_(uint8), [1, "x"], JsonError, "wrong_type", (1,), id="list-element"),
    pytest.param(tup(uint8, uint8), {}, JsonError, "wrong_type", (), id="tup-object"),
    pytest.param(ENUM, 0, JsonError, "wrong_type", (), id="string_enum-int"),
    pytest.param(unit, 5, JsonError, "wrong_type", (), id="unit-5"),
    pytest.param(unit, [], JsonError, "wrong_type", (), id="unit-[]"),
    pytest.param(unit, None, JsonError, "wrong_type", (), id="unit-null"),
    pytest.param(empty, {"a": 1}, JsonError, "wrong_type", (), id="empty-member"),
    pytest.param(null, 0, JsonError, "wrong_type", (), id="null-0"),
    pytest.param(constant("k"), "j", JsonError, "wrong_type", (), id="constant"),
    pytest.param(option(uint8), "x", JsonError, "wrong_type", (), id="option"),
    pytest.param(
        NESTED, {"a": [{"b": True}, {"b": 0}]}, JsonError, "wrong_type", ("a", 1, "b"), id="nested"
    ),
    # out_of_range
    pytest.param(int8, 128, JsonError, "out_of_range", (), id="int8-128"),
    pytest.param(int8, -129, JsonError, "out_of_range", (), id="int8--129"),
    pytest.param(uint16, 65536, JsonError, "out_of_range", (), id="uint16"),
    pytest.param(int31, 2**30, JsonError, "out_of_range", (), id="int31"),
    pytest.param(int64, "9223372036854775808", JsonError, "out_of_range", (), id="int64-high"),
    pytest.param(int64, "-9223372036854775809", JsonError, "out_of_range", (), id="int64-low"),
    pytest.param(n, "-1", JsonError, "out_of_range", (), id="n--1"),
    pytest.param(z, "1" * 5000, JsonError, "out_of_range", (), id="z-too-many-digits"),
    pytest.param(ranged_int(10, 20), 21, JsonError, "out_of_range", (), id="ranged_int"),
    pytest.param(ranged_float(0.0, 1.0), 2, JsonError, "out_of_range", (), id="ranged_float"),
    pytest.param(float_, 10**400, JsonError, "out_of_range", (), id="float-huge-int"),
    pytest.param(INT_OR_STRING, 300, JsonError, "out_of_range", (), id="union-one-candidate"),
    # invalid_hex
    pytest.param(bytes_, "abc", JsonError, "invalid_hex", (), id="odd"),
    pytest.param(bytes_, "ABCD", JsonError, "invalid_hex", (), id="uppercase"),
    pytest.param(bytes_, "zz", JsonError, "invalid_hex", (), id="non-hex"),
    pytest.param(bytes_, "0x00", JsonError, "invalid_hex", (), id="0x"),
    pytest.param(bytes_, "ab cd", JsonError, "invalid_hex", (), id="space"),
    pytest.param(fixed.bytes_(2), "AABB", JsonError, "invalid_hex", (), id="fixed-uppercase"),
    # wrong_length
    pytest.param(fixed.bytes_(2), "aabbcc", JsonError, "wrong_length", (), id="fixed.bytes"),
    pytest.param(fixed.string(2), "abc", JsonError, "wrong_length", (), id="fixed.string"),
    pytest.param(tup(uint8, uint8), [1], JsonError, "wrong_length", (), id="tup"),
    pytest.param(fixed.list_(2, uint8), [1], JsonError, "wrong_length", (), id="fixed.list"),
    # too_long
    pytest.param(bounded.string(2), "abc", JsonError, "too_long", (), id="bounded.string"),
    pytest.param(bounded.bytes_(2), "aabbcc", JsonError, "too_long", (), id="bounded.bytes"),
    # fields
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"b": "x"},
        JsonError,
        "missing_field",
        ("a",),
        id="missing",
    ),
    pytest.param(
        obj(req("a", uint8), opt("b", string)),
        {"a": 1, "zz": 2},
        JsonError,
        "unexpected_field",
        ("zz",),
        id="unexpected",
    ),
    pytest.param(
        obj(req("a", uint8)), loads('{"a":1,"a":2}'), JsonError, "duplicate_field", ("a",), id="d"
    ),
    pytest.param(
        obj(req("x", list_(obj(req("a", uint8))))),
        loads('{"x":[{"a":1},{"a":1,"a":2}]}'),
        JsonError,
        "duplicate_field",
        ("x", 1, "a"),
        id="duplicate-nested",
    ),
    # no_case_matched
    pytest.param(ENUM, "d", JsonError, "no_case_matched", (), id="string_enum"),
    pytest.param(INT_OR_STRING, [1], JsonError, "no_case_matched", (), id="union"),
    pytest.param(BY_WIDTH, {"x": 70000}, JsonError, "no_case_matched", (), id="union-both-fail"),
    pytest.param(SAME_X, {"x": 256}, JsonError, "out_of_range", ("x",), id="union-same-fail"),
    # not_json (the json encoding checks what it is given)
    pytest.param(json, float("nan"), JsonError, "not_json", (), id="json-nan"),
    pytest.param(json, {1: 2}, JsonError, "not_json", (), id="json-int-key"),
    # user_function
    pytest.param(conv(same, refuse, uint8), 3, JsonError, "user_function", (), id="conv"),
    # a lone surrogate (json.loads can produce one from "\\ud800") is a JSON error
    pytest.param(string, "\ud800", JsonError, "invalid_utf8", (), id="string-surrogate"),
    pytest.param(
        obj(req("s", bounded.string(4))),
        {"s": "\ud800"},
        JsonError,
        "invalid_utf8",
        ("s",),
        id="bounded-surrogate",
    ),
]

# invalid_decimal: int64, n and z are canonical decimal strings
NOT_DECIMAL = ["0x10", "+1", "1_000", "007", "00", "-0", "", " 1", "1 ", "1e3", "-", "\u0661"]


@pytest.mark.parametrize(("enc", "json_value", "cls", "code", "path"), JSON_ROWS)
def test_from_json_failure(
    enc: Encoding[Any], json_value: JsonValue, cls: type[DataEncodingError], code: str, path: Path
) -> None:
    with pytest.raises(cls) as info:
        enc.from_json(json_value)
    assert_error(info.value, cls, code, None, path)


@pytest.mark.parametrize("text", NOT_DECIMAL)
@pytest.mark.parametrize("enc", [int64, n, z], ids=["int64", "n", "z"])
def test_from_json_invalid_decimal(enc: Encoding[int], text: str) -> None:
    with pytest.raises(JsonError) as info:
        enc.from_json(text)
    assert_error(info.value, JsonError, "invalid_decimal", None, ())


def test_json_strictness_on_the_accepting_side() -> None:
    """The values next to the refused ones are accepted (the rows above are not vacuous)."""
    assert unit.from_json({}) is None
    assert empty.from_json({}) == {}
    assert int64.from_json("-9223372036854775808") == -(2**63)
    assert n.from_json("0") == 0
    assert z.from_json("-1") == -1
    assert bytes_.from_json("abcd") == b"\xab\xcd"
    assert obj(req("a", uint8)).from_json(loads('{"a":1}')) == {"a": 1}
    assert float_.from_json(5) == 5.0


# ---------------------------------------------------------- error rendering


def catch(action: Callable[[], object]) -> DataEncodingError:
    with pytest.raises(DataEncodingError) as info:
        action()
    return info.value


STR_ROWS = [
    pytest.param(
        lambda: NESTED.decode(h("00000002 ff 07")),
        "invalid boolean byte 0x07 (only 0x00 and 0xff) at $.a[1].b (byte 5)",
        id="decode-nested",
    ),
    pytest.param(
        lambda: NESTED.decode_prefix(h("abcd 00000002 ff 07"), 2),
        "invalid boolean byte 0x07 (only 0x00 and 0xff) at $.a[1].b (byte 7)",
        id="decode_prefix-nested",
    ),
    pytest.param(
        lambda: bool_.decode(h("01")),
        "invalid boolean byte 0x01 (only 0x00 and 0xff) (byte 0)",
        id="decode-top",
    ),
    pytest.param(
        lambda: NESTED.from_json({"a": [{"b": True}, {"b": 0}]}),
        "expected a boolean, got integer at $.a[1].b",
        id="json-nested",
    ),
    pytest.param(
        lambda: obj(req("my key", uint8)).from_json({"my key": 300}),
        "300 is out of range for uint8 [0, 255] at $['my key']",
        id="json-quoted-key",
    ),
    pytest.param(
        lambda: uint8.encode(256),
        "256 is out of range for uint8 [0, 255]",
        id="encode-top",
    ),
    # a fixed-length leaf is named as it is written ("a 32-byte bytes" read badly)
    pytest.param(
        lambda: obj(req("h", fixed.bytes_(32))).decode(h("00")),
        "not enough data for fixed.bytes_(32): need 32 bytes, 1 left at $.h (byte 0)",
        id="fixed.bytes-short",
    ),
    pytest.param(
        lambda: fixed.string(3).decode(h("6162")),
        "not enough data for fixed.string(3): need 3 bytes, 2 left (byte 0)",
        id="fixed.string-short",
    ),
    pytest.param(
        lambda: hashes.block_hash.decode(h("00")),
        "not enough data for block_hash: need 32 bytes, 1 left (byte 0)",
        id="hash-short",
    ),
]


@pytest.mark.parametrize(("action", "text"), STR_ROWS)
def test_error_str(action: Callable[[], object], text: str) -> None:
    assert str(catch(action)) == text


def test_error_pickles_with_its_location() -> None:
    err = catch(lambda: NESTED.decode(h("00000002 ff 07")))
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is DecodeError
    assert (back.code, back.message, back.offset, back.path) == (
        "invalid_bool",
        "invalid boolean byte 0x07 (only 0x00 and 0xff)",
        5,
        ("a", 1, "b"),
    )
    assert isinstance(back, ValueError)


def test_a_definition_error_pickles_too() -> None:
    """``DefinitionError`` takes ``(message, code)``: it pickles as its class
    with its fields, like the others (it failed with a ``TypeError``)."""
    err = catch(lambda: obj(req("a", uint8), req("a", uint8)))
    assert type(err) is de.DefinitionError
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is de.DefinitionError
    assert (back.code, back.message, back.offset, back.path) == (
        err.code,
        err.message,
        None,
        (),
    )
    assert back.message == "duplicate field name 'a' in a record"


# ------------------------------------------------------------------- fuzzing


NAMES = st.sampled_from(sorted(RICH))


@FUZZ
@given(NAMES.flatmap(lambda name: st.tuples(st.just(name), mutated(RICH[name]))), st.integers(0, 3))
def test_fuzz_decode_raises_only_decode_error(case_: tuple[str, bytes], start: int) -> None:
    name, data = case_
    enc = RICH[name]
    try:
        enc.decode(data)
    except DecodeError as err:
        assert err.offset is None or 0 <= err.offset <= len(data)
    with contextlib.suppress(DecodeError):
        enc.decode_prefix(b"\x00" * start + data, start)


@FUZZ
@given(NAMES, JSONISH)
def test_fuzz_from_json_raises_only_json_error(name: str, value: JsonValue) -> None:
    try:
        RICH[name].from_json(value)
    except JsonError as err:
        assert err.offset is None


@FUZZ
@given(NAMES, PYTHONISH)
def test_fuzz_encode_raises_only_encode_error(name: str, value: Any) -> None:
    enc = RICH[name]
    for action in (enc.encode, enc.to_json, enc.length):
        try:
            action(value)
        except EncodeError as err:
            assert err.offset is None


# ---------------------------------------------------------------- deep input

DEPTH = 100_000
LISTS = mu("lists", lambda self: list_(self))


def deep_list_bytes(depth: int) -> bytes:
    """``depth`` nested list_ headers around an empty list: each says 4 more bytes."""
    return b"".join((4 * k).to_bytes(4, "big") for k in range(depth, 0, -1)) + bytes(4)


def deep_json_list(depth: int) -> list[Any]:
    root: list[Any] = []
    inner = root
    for _ in range(depth):
        nested: list[Any] = []
        inner.append(nested)
        inner = nested
    return root


def test_shallow_nesting_works() -> None:
    """The deep inputs below are well-formed: at small depth they decode."""
    assert LISTS.decode(deep_list_bytes(3)) == [[[[]]]]
    assert LISTS.from_json(deep_json_list(3)) == [[[[]]]]
    assert LISTS.encode([[[[]]]]) == deep_list_bytes(3)


def test_deep_binary_input_is_too_deep() -> None:
    with pytest.raises(DecodeError) as info:
        LISTS.decode(deep_list_bytes(DEPTH))
    assert info.value.code == "too_deep"
    chain = mu("chain", lambda self: obj(req("v", uint8), opt("next", self)))
    with pytest.raises(DecodeError) as info:
        chain.decode(b"\x01\xff" * DEPTH + b"\x01\x00")
    assert info.value.code == "too_deep"


def test_deep_bson_is_too_deep() -> None:
    # each level: a document holding one embedded document under the key "a"
    levels = b"".join((5 + 8 * k).to_bytes(4, "little") + b"\x03a\x00" for k in range(DEPTH, 0, -1))
    document = levels + b"\x05\x00\x00\x00\x00" + bytes(DEPTH)
    with pytest.raises(DecodeError) as info:
        json.decode(len(document).to_bytes(4, "big") + document)
    # the first document past the limit: after the 4-byte frame, 7 bytes a level
    offset = 4 + 7 * de.max_depth()
    assert (info.value.code, info.value.offset, info.value.path) == ("too_deep", offset, ())


def test_deep_json_and_values_are_too_deep() -> None:
    deep = deep_json_list(DEPTH)
    with pytest.raises(JsonError) as json_info:
        LISTS.from_json(deep)
    assert json_info.value.code == "too_deep"
    with pytest.raises(JsonError) as json_info:
        json.from_json(deep)
    assert json_info.value.code == "too_deep"
    for action in (LISTS.encode, LISTS.to_json, LISTS.length, json.encode, json.to_json):
        with pytest.raises(EncodeError) as encode_info:
            action(deep)
        assert encode_info.value.code == "too_deep"


def test_union_dispatch_on_constants_keeps_the_loops_errors() -> None:
    """A union told apart by a constant member picks its case by one lookup;
    the errors are those of the case-selection loop."""
    running = de.obj(de.req("state", de.constant("running")), de.req("pid", de.int31))
    exited = de.obj(de.req("state", de.constant("exited")), de.req("pid", de.int31))
    e = de.list_(de.union([de.case(0, "running", running), de.case(1, "exited", exited)]))
    assert e.encode([{"state": "exited", "pid": 7}]).hex() == "000000050100000007"
    with pytest.raises(de.EncodeError) as wrong_pid:
        e.encode([{"state": "running", "pid": 1}, {"state": "exited", "pid": "7"}])
    assert (wrong_pid.value.code, wrong_pid.value.path) == ("wrong_type", (1, "pid"))
    for value, code, path in [
        ({"state": "stopped", "pid": 1}, "no_case_matched", (0, "state")),
        ({"state": ["exited"], "pid": 1}, "no_case_matched", (0, "state")),
        (("exited", 1), "wrong_type", (0,)),
    ]:
        with pytest.raises(de.EncodeError) as unknown:
            e.encode([value])
        assert (unknown.value.code, unknown.value.path) == (code, path)
    with pytest.raises(de.EncodeError) as too_big:
        de.option(exited).encode({"state": "exited", "pid": 2**31})
    assert (too_big.value.code, too_big.value.path) == ("invalid_int", ("pid",))


def _raising(cls: type[de.DataEncodingError]) -> Callable[[Any], Any]:
    """A conversion that refuses its value with one of the library's errors."""

    def convert(value: Any) -> Any:
        raise cls("invalid_timestamp", f"{value!r} is not a date", offset=3)

    return convert


@pytest.mark.parametrize("raised", [de.JsonError, de.EncodeError, de.DecodeError])
def test_a_conversion_raising_another_entry_points_error_raises_this_ones(
    raised: type[de.DataEncodingError],
) -> None:
    """A conversion may parse with the library (a JSON parser inside a
    binary decode): whatever class it raises, each entry point raises its
    own, with the conversion's code and message; ``decode`` locates it at
    the wire value (an offset the conversion gives counts within what it
    parsed, not the input), and JSON errors have no offset."""
    reading = conv(same, _raising(raised), uint8)
    writing = conv(_raising(raised), same, uint8)
    actions: list[tuple[Callable[[], object], type[DataEncodingError]]] = [
        (lambda: obj(req("a", uint8), req("b", reading)).decode(b"\x01\x05"), DecodeError),
        (lambda: reading.from_json(5), JsonError),
        (lambda: writing.encode(5), EncodeError),
        (lambda: writing.length(5), EncodeError),
        (lambda: writing.to_json(5), EncodeError),
    ]
    for action, cls in actions:
        with pytest.raises(cls) as caught:
            action()
        assert type(caught.value) is cls
        assert (caught.value.code, caught.value.message) == ("invalid_timestamp", "5 is not a date")
    with pytest.raises(DecodeError) as located:
        obj(req("a", uint16), req("b", conv(same, _raising(raised), string))).decode(
            bytes.fromhex("0001 00000001 61")
        )
    assert (located.value.offset, located.value.path) == (2, ("b",))
    with pytest.raises(DecodeError) as fused:  # a conversion of a fixed-width leaf
        obj(req("a", uint16), req("b", reading)).decode(b"\x00\x01\x05")
    assert (fused.value.offset, fused.value.path) == (2, ("b",))
    with pytest.raises(JsonError) as in_json:
        obj(req("b", reading)).from_json({"b": 5})
    assert (in_json.value.offset, in_json.value.path) == (None, ("b",))


def test_a_bad_rfc3339_text_in_bytes_is_a_decode_error() -> None:
    """Found by the catalogue's properties: an empty string where an RFC 3339
    date-time was expected raised a ``JsonError`` out of ``decode``."""
    rfc = registry.find("timestamp.rfc").encoding
    with pytest.raises(DecodeError) as caught:
        rfc.decode(bytes(4))
    assert (caught.value.code, caught.value.offset) == ("invalid_timestamp", 0)


# ------------------------------------------------- generated code and user text

BRANCHING_VAROPT = de.obj(
    de.varopt("a", de.union([de.case(0, "a", de.uint8), de.case(1, "b", de.bool_)])),
    de.req("b", de.uint16),
)


def test_fields_after_a_branching_varopt_are_written_and_read() -> None:
    """A varopt field whose encoding branches (a union) used to hand the rest
    of the record to branches it never emitted: the fields after it were
    dropped when writing, and reading raised ``NameError``."""
    assert BRANCHING_VAROPT.encode({"a": 5, "b": 7}).hex() == "00050007"
    assert BRANCHING_VAROPT.encode({"a": None, "b": 7}).hex() == "0007"
    assert BRANCHING_VAROPT.decode(h("00050007")) == {"a": 5, "b": 7}
    assert BRANCHING_VAROPT.decode(h("0007")) == {"a": None, "b": 7}
    with pytest.raises(DecodeError) as info:
        BRANCHING_VAROPT.decode(b"")
    assert_error(info.value, DecodeError, "not_enough_data", 0, ("a",))


@pytest.mark.parametrize(
    ("e", "data"),
    [
        (tup(union([case(0, "a", variable.list_(uint8))]), uint16), "00 0102 0007"),
        (tup(option(variable.bytes_), uint16), "01 0102 0007"),
        (
            obj(req("a", obj(req("u", union([case(0, "b", variable.string)])))), req("t", uint16)),
            "00 0102 0007",
        ),
    ],
    ids=["union", "option", "nested"],
)
def test_a_fixed_tail_after_a_branching_variable_part_is_read_in_the_whole_frame(
    e: Encoding[Any], data: str
) -> None:
    """The fields after a variable part are read from the end of the frame;
    they must not be read in the variable part's own, shorter frame."""
    value = e.decode(h(data))
    assert e.encode(e.from_json(e.to_json(value))) == h(data)


@pytest.mark.parametrize("text", ["x{}y", "{}", "{0}", "'", '"', "\\", "\n", "None", "x"])
def test_user_strings_are_data_in_generated_code(text: str) -> None:
    """Constants, keys and titles reach generated code as values, never as code."""
    e = obj(req("k", constant(text)), req(text or "_", uint8), opt("o", constant(text)))
    value = {"k": text, text or "_": 1, "o": text}
    data = e.encode(value)
    assert data.hex() == "01ff"
    assert e.decode(data) == value
    assert e.from_json(e.to_json(value)) == value
    named = union([case(0, text, obj(req("kind", constant(text)), req("v", uint8)))])
    assert named.decode(named.encode({"kind": text, "v": 2})) == {"kind": text, "v": 2}


# ------------------------------------------------- only the library's errors

BIG = 10**5000  # no decimal form: str() and repr() of it raise ValueError
UNTYPED: Any = de  # the package as an untyped caller sees it

# (action, error class, code): every public entry point raises only its own errors
FOREIGN_ROWS = [
    pytest.param(lambda: int31.from_json(BIG), JsonError, "out_of_range", id="int31-from-json"),
    pytest.param(lambda: float_.from_json(BIG), JsonError, "out_of_range", id="float-from-json"),
    pytest.param(lambda: uint8.encode(BIG), EncodeError, "invalid_int", id="uint8-encode"),
    pytest.param(lambda: uint8.to_json(-BIG), EncodeError, "invalid_int", id="uint8-to-json"),
    pytest.param(lambda: int64.encode(BIG), EncodeError, "invalid_int", id="int64-encode"),
    pytest.param(lambda: n.encode(-BIG), EncodeError, "negative_natural", id="n-negative"),
    pytest.param(lambda: z.to_json(BIG), EncodeError, "out_of_range", id="z-to-json"),
    pytest.param(lambda: json.encode(BIG), EncodeError, "out_of_range", id="json-encode"),
    pytest.param(lambda: json.to_json(BIG), EncodeError, "out_of_range", id="json-to-json"),
    pytest.param(
        # int64's error, as encode gives it
        lambda: de.timestamp.protocol.to_json(BIG),
        EncodeError,
        "invalid_int",
        id="timestamp",
    ),
    pytest.param(lambda: float_.to_json(10**400), EncodeError, "out_of_range", id="float-to-json"),
    pytest.param(lambda: float_.encode(10**400), EncodeError, "out_of_range", id="float-encode"),
    pytest.param(lambda: float_.length(10**400), EncodeError, "out_of_range", id="float-length"),
    pytest.param(lambda: ENUM.encode(BadRepr()), EncodeError, "no_case_matched", id="bad-repr"),
    pytest.param(
        lambda: UNTYPED.uint8.encode(BadRepr()), EncodeError, "wrong_type", id="bad-repr-int"
    ),
    pytest.param(lambda: UNTYPED.uint16.decode("0001"), DecodeError, "wrong_type", id="decode-str"),
    pytest.param(lambda: UNTYPED.uint16.decode(None), DecodeError, "wrong_type", id="decode-none"),
    pytest.param(
        lambda: UNTYPED.uint16.decode_prefix([0, 1]),
        DecodeError,
        "wrong_type",
        id="decode-prefix-list",
    ),
]


@pytest.mark.parametrize(("action", "cls", "code"), FOREIGN_ROWS)
def test_only_library_errors_leave(action: Callable[[], object], cls: type, code: str) -> None:
    with pytest.raises(DataEncodingError) as info:
        action()
    assert (type(info.value), info.value.code) == (cls, code), repr(info.value)
    assert info.value.message in str(info.value)  # the message itself can be printed


def test_decode_takes_any_bytes_like_input() -> None:
    assert uint16.decode(bytearray(b"\x00\x01")) == 1
    assert uint16.decode(memoryview(b"\x00\x01")) == 1
    assert uint16.decode_prefix(memoryview(b"\x07\x00\x01"), 1) == (1, 3)


def test_schema_float_bounds_are_finite() -> None:
    """A RangedFloat layout's bounds are read as numbers that ``to_json`` can print."""
    published = de.binary_schema.to_json(ranged_float(-1.0, 1.0).describe())
    assert isinstance(published, dict)
    assert de.binary_schema.to_json(de.binary_schema.from_json(published)) == published
    layout = published["toplevel"]["fields"][0]["layout"]  # type: ignore[call-overload,index]
    assert layout == {"min": -1.0, "max": 1.0, "kind": "RangedFloat"}
    layout["min"] = float("nan")
    with pytest.raises(JsonError) as info:
        de.binary_schema.from_json(published)
    assert_error(
        info.value, JsonError, "not_json", None, ("toplevel", "fields", 0, "layout", "min")
    )


# ------------------------------------------ unions told apart by a constant member


def _kinds(names: list[str]) -> Encoding[Any]:
    return union(
        [
            case(i, name, obj(req("kind", constant(name)), req("id", uint8)))
            for i, name in enumerate(names)
        ]
    )


KINDS = _kinds(["baker", "endorser", "accuser"])
MANY_KINDS = _kinds([f"k{i}" for i in range(12)])  # more cases than are inlined
CONV_KINDS = union(
    [
        case(i, name, conv(same, same, obj(req("kind", constant(name)), req("id", uint8))))
        for i, name in enumerate(["baker", "endorser", "accuser"])
    ]
)


@pytest.mark.parametrize("e", [KINDS, list_(KINDS)], ids=["union", "in-list"])
@pytest.mark.parametrize(
    ("value", "code", "path", "message"),
    [
        (
            {"kind": "sleeper", "id": 1},
            "no_case_matched",
            ("kind",),
            "'sleeper' is not one of 'baker', 'endorser', 'accuser'",
        ),
        ({"id": 1}, "missing_field", ("kind",), "missing field 'kind'"),
        ({"kind": 7, "id": 1}, "no_case_matched", ("kind",), "7 is not one of 'baker', "),
        ([1], "wrong_type", (), "expected an object"),
    ],
    ids=["unknown", "missing", "not-a-string", "not-an-object"],
)
def test_a_union_told_apart_by_a_member_names_it(
    e: Encoding[Any], value: Any, code: str, path: Path, message: str
) -> None:
    inside = (0,) if e is not KINDS else ()
    wrapped = [value] if inside else value
    for action, cls in (
        (e.from_json, JsonError),
        (e.encode, EncodeError),
        (e.to_json, EncodeError),
    ):
        with pytest.raises(DataEncodingError) as info:
            action(wrapped)
        assert_error(info.value, cls, code, None, (*inside, *path))
        assert info.value.message.startswith(message), info.value.message


@pytest.mark.parametrize("e", [KINDS, MANY_KINDS, CONV_KINDS], ids=["inlined", "many", "conv"])
@pytest.mark.parametrize("twice", ["kind", "id"])
def test_a_union_told_apart_by_a_member_refuses_a_member_given_twice(
    e: Encoding[Any], twice: str
) -> None:
    """JSON text with a member twice is refused at that member, as a record
    refuses it (the union said no_case_matched of its 'kind')."""
    members = [("kind", "k0" if e is MANY_KINDS else "baker"), ("id", 1)]
    doubled = RepeatedMembers([*members, (twice, dict(members)[twice])])
    with pytest.raises(JsonError) as info:
        e.from_json(doubled)
    assert_error(info.value, JsonError, "duplicate_field", None, (twice,))
    assert info.value.message == f"duplicate member {twice!r}"


TWINS_DEEP = 12

EITHER = union([case(0, "p", obj(req("p", int8))), case(1, "q", obj(req("q", int8)))])
"""A union of two shapes, whose error is raised by its exact reader even
in the fast pass (a record would bail there)."""


def _twins() -> tuple[Encoding[Any], list[int]]:
    """A recursive union whose first two cases are told apart by shape only
    (both take ``{"next": ...}``) and read ``next`` alike, and how many
    times its leaf has been read or written."""
    count = [0]

    def counted(n: int) -> int:
        count[0] += 1
        return n

    leaf = obj(req("leaf", conv(counted, counted, int8)))
    twins = mu(
        "twins",
        lambda t: union(
            [
                case(0, "plain", obj(req("next", t), opt("x", EITHER))),
                case(1, "marked", obj(req("next", t), opt("x", EITHER), opt("mark", bool_))),
                case(2, "leaf", leaf),
            ]
        ),
    )
    return twins, count


@pytest.mark.parametrize(
    ("x", "at", "codes", "reads"),
    [
        # inside member x, which both cases read alike: one reading
        ({"p": 1000}, ("x", "p"), ("out_of_range", "invalid_int"), 1),
        # at member x itself: the innermost level tries both cases
        ({"r": 1}, ("x",), ("no_case_matched", "no_case_matched"), 2),
    ],
    ids=["inside-x", "at-x"],
)
def test_cases_that_read_a_member_alike_read_it_once(
    x: dict[str, int], at: Path, codes: tuple[str, str], reads: int
) -> None:
    """A case that failed inside a member is not followed by the cases that
    read that member with the same encoding: they would fail there too, and
    trying each of them at each level of a recursion is exponential in the
    depth (the two dialects of a binary schema's ``Seq`` did that: a bad
    layout 14 levels deep took 25 s). The leaf, read once per attempt of
    the innermost level, counts the attempts: as many at 12 levels as at one.
    The fast JSON converters, which do not know where a case failed, try
    one case and leave the rest to the exact ones (``to_json``'s fast pass
    reads the leaf once more; ``from_json``'s fails at ``x`` before it)."""
    value: Any = {"next": {"leaf": 1}, "x": x}
    for _ in range(TWINS_DEEP):
        value = {"next": value}
    where = ("next",) * TWINS_DEEP + at
    json_code, value_code = codes
    for action, cls, code, more in (
        ("from_json", JsonError, json_code, 0),
        ("encode", EncodeError, value_code, 0),
        ("to_json", EncodeError, value_code, 1),
        ("length", EncodeError, value_code, 0),
    ):
        twins, count = _twins()
        with pytest.raises(DataEncodingError) as info:
            getattr(twins, action)(value)
        assert_error(info.value, cls, code, None, where)
        assert count == [reads + more], action


@pytest.mark.parametrize("e", [MANY_KINDS, CONV_KINDS], ids=["many-cases", "conv-cases"])
def test_unions_beyond_the_inlined_ones_name_the_member_too(e: Encoding[Any]) -> None:
    with pytest.raises(JsonError) as info:
        e.from_json({"kind": "sleeper", "id": 1})
    assert_error(info.value, JsonError, "no_case_matched", None, ("kind",))
    # the case named by the member reports its own error
    first = "k0" if e is MANY_KINDS else "baker"
    with pytest.raises(JsonError) as info:
        e.from_json({"kind": first, "id": 300})
    assert_error(info.value, JsonError, "out_of_range", None, ("id",))


# ------------------------------------------------------- long Zarith numbers


LONG = 40_000
"""Groups of a long number: ``ff`` that many times, then ``01``."""
LONG_BODY = b"\xff" * LONG + b"\x01"
# n: LONG groups of ones, then a 1; z: the same magnitude less the first byte's
# sign bit (0x40: negative)
LONG_N, LONG_Z = 2 ** (7 * LONG + 1) - 1, 1 - 2 ** (7 * LONG)


@pytest.mark.parametrize(
    ("enc", "data", "expected"),
    [
        (n, LONG_BODY, LONG_N),
        (z, LONG_BODY, LONG_Z),
        (list_(z), len(LONG_BODY).to_bytes(4, "big") + LONG_BODY, [LONG_Z]),
    ],
    ids=["n", "z", "list-z"],
)
def test_a_long_number_leaves_no_memory_behind(
    enc: Encoding[Any], data: bytes, expected: Any
) -> None:
    """Decoding a long number keeps nothing that grows with it (a cache per
    size once kept 17 bytes per input byte, forever). How its time grows is
    measured by the benchmarks' Zarith series (benchmarks/scaling.py)."""
    small = [5] if isinstance(expected, list) else 5
    enc.decode(enc.encode(small))  # compiled on first use: not what is measured
    gc.collect()
    tracemalloc.start()
    try:
        value = enc.decode(data)
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert value == expected
    assert retained < LONG + 4096  # the value itself (7/8 byte per group), little else


def test_one_bad_record_one_error_whichever_direction() -> None:
    """Unknown members first, in the value's order, then missing ones, in the
    record's order: encode, length, to_json and from_json alike."""
    e = obj(req("a", uint8), req("b", uint8))
    cases: list[tuple[Any, str, Path]] = [
        ({"a": 1, "b": 2, "zz": 2, "bb": 3}, "unexpected_field", ("zz",)),
        ({"zz": 2, "bb": 3}, "unexpected_field", ("zz",)),
        ({"b": 2}, "missing_field", ("a",)),
    ]
    for value, code, path in cases:
        for action in (e.encode, e.length, e.to_json):
            with pytest.raises(EncodeError) as info:
                action(value)
            assert_error(info.value, EncodeError, code, None, path)
        with pytest.raises(JsonError) as json_info:
            e.from_json(value)
        assert_error(json_info.value, JsonError, code, None, path)


# ------------------------------------------------ unions: one value, one case

SMALL_BIG = union([case(0, "small", int31), case(1, "big", int64)])
TAG_GAPS = union([case(3, "Three", uint8), case(7, "Seven", string), case(200, "Big", z)])
FEW_FIRST = union([case(0, "few", uint8, lambda v: v < 10), case(1, "many", uint16)])


# (encoding, bytes, offset of the offending tag, path)
@pytest.mark.parametrize(
    ("e", "data", "offset", "path"),
    [
        (SMALL_BIG, "01 0000000000000005", 0, ()),  # 5 is written as a small one
        (BY_WIDTH, "01 0005", 0, ()),
        (FEW_FIRST, "01 0005", 0, ()),  # the first case's predicate claims 5
        (TAG_GAPS, "c8 05", 0, ()),
        (list_(SMALL_BIG), "0000000e 00 00000001 01 ffffffffffffffff", 9, (1,)),
        (MATCHING, "01 0000000000000005", 0, ()),  # the function gives 0 for 5
        (list_(MATCHING), "0000000e 00 00000001 01 ffffffffffffffff", 9, (1,)),
    ],
    ids=["int31-int64", "by-width", "predicate", "uint8-z", "in-list", "matching", "matching-in"],
)
def test_a_value_read_with_a_case_the_writer_would_not_use_is_refused(
    e: Encoding[Any], data: str, offset: int, path: Path
) -> None:
    with pytest.raises(DecodeError) as info:
        e.decode(h(data))
    assert_error(info.value, DecodeError, "not_canonical", offset, path)


@pytest.mark.parametrize(
    ("e", "value", "data"),
    [
        (SMALL_BIG, 2**40, "01 0000010000000000"),
        (SMALL_BIG, -5, "00 fffffffb"),
        (BY_WIDTH, {"x": 300}, "01 012c"),
        (FEW_FIRST, 5, "00 05"),
        (FEW_FIRST, 50, "01 0032"),
        (union([case(0, "i", int31), case(1, "b", bool_)]), True, "01 ff"),
        (MATCHING, 2**40, "01 0000010000000000"),
        (MATCHING, -5, "00 fffffffb"),
    ],
)
def test_every_value_of_an_overlapping_union_keeps_its_case(
    e: Encoding[Any], value: Any, data: str
) -> None:
    assert e.encode(value) == h(data)
    assert e.decode(h(data)) == value
    assert e.encode(e.from_json(e.to_json(value))) == h(data)


def test_a_json_form_that_reads_back_as_another_value_is_refused() -> None:
    """z's JSON "12345" reads back as the string case's "12345": printing it
    would lose the case; the value has no JSON form in this union."""
    for value, data in ((12345, "c8b9c001"), (300, "c8ac04")):
        assert TAG_GAPS.encode(value) == h(data)
        assert TAG_GAPS.decode(h(data)) == value
        with pytest.raises(EncodeError) as info:
            TAG_GAPS.to_json(value)
        assert_error(info.value, EncodeError, "ambiguous_json", None, ())
        assert "'Seven'" in info.value.message
    with pytest.raises(EncodeError) as info:
        list_(TAG_GAPS).to_json([5, 12345])
    assert_error(info.value, EncodeError, "ambiguous_json", None, (1,))
    # a JSON form read back by an earlier case as the same value is fine
    assert FEW_FIRST.from_json(FEW_FIRST.to_json(50)) == 50


# ------------------------------------------------------------- one depth limit


def _chain(self: Encoding[Any]) -> Encoding[Any]:
    return obj(req("v", uint8), opt("next", self))


def _tried_union(self: Encoding[Any]) -> Encoding[Any]:
    # no constant member: writing selects the case by trying (more frames per level)
    return union([case(0, "leaf", uint8), case(1, "node", tup(self, uint8))])


def _converted_chain(self: Encoding[Any]) -> Encoding[Any]:
    return conv(same, same, de.def_("link", obj(req("v", uint8), opt("next", self))))


def _nested_chain(levels: int) -> Any:
    value: Any = {"v": 1, "next": None}
    for _ in range(levels - 1):
        value = {"v": 1, "next": value}
    return value


def _nested_lists(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def _nested_pairs(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels - 1):
        value = (value, 2)
    return value


def _around_chain(data: bytes) -> bytes:
    return b"\x01\xff" + data  # v = 1, next present: the value before


def _around_pair(data: bytes) -> bytes:
    return b"\x01" + data + b"\x02"  # the node case, the pair, then 2


def _around_list(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data  # a list holding the value


def _around_bson(data: bytes) -> bytes:
    """A json value one level deeper: {"k": the value} (a root array)."""
    body = b"\x04k\x00" + data[4:]  # the root document, as an array under "k"
    document = (len(body) + 5).to_bytes(4, "little") + body + b"\x00"
    return len(document).to_bytes(4, "big") + document


# (encoding, a value nested ``levels`` deep, its bytes one level deeper): each
# pass through a recursive encoding, and each array or object of a json value,
# is one level
NESTINGS = [
    pytest.param(mu("chain", _chain), _nested_chain, _around_chain, id="mu-record"),
    pytest.param(mu("lists", lambda self: list_(self)), _nested_lists, _around_list, id="mu-list"),
    pytest.param(mu("tried", _tried_union), _nested_pairs, _around_pair, id="mu-tried-union"),
    pytest.param(mu("conv", _converted_chain), _nested_chain, _around_chain, id="mu-conv"),
    pytest.param(json, _nested_lists, _around_bson, id="json"),
]


@pytest.mark.parametrize("limit", [None, 30, 600])
@pytest.mark.parametrize(("e", "nested", "around"), NESTINGS)
def test_one_depth_limit_for_every_direction(
    e: Encoding[Any],
    nested: Callable[[int], Any],
    around: Callable[[bytes], bytes],
    limit: int | None,
) -> None:
    """A value nested max_depth() levels deep goes every way; one level more
    is too_deep every way: decode, encode, length, to_json and from_json."""
    previous = de.max_depth()
    try:
        if limit is not None:
            de.set_max_depth(limit)
        levels = de.max_depth()
        value = nested(levels)
        data = e.encode(value)
        assert e.length(value) == len(data)
        assert e.encode(e.decode(data)) == data
        assert e.encode(e.from_json(e.to_json(value))) == data
        deeper = nested(levels + 1)
        attempts: list[tuple[Callable[[Any], object], Any]] = [
            (e.decode, around(data)),
            (e.encode, deeper),
            (e.length, deeper),
            (e.to_json, deeper),
            (e.from_json, _json_of(deeper)),
        ]
        for action, arg in attempts:
            with pytest.raises(DataEncodingError) as info:
                action(arg)
            assert info.value.code == "too_deep", (action, info.value)
            assert f"more than {levels} levels" in info.value.message
    finally:
        de.set_max_depth(previous)


def _json_of(value: Any) -> Any:
    """The JSON of a value of these shapes (tuples as arrays), built without
    the library (the library would refuse it)."""
    if isinstance(value, dict):
        return {k: _json_of(v) for k, v in value.items() if v is not None}
    if isinstance(value, tuple | list):
        return [_json_of(v) for v in value]
    return value


def test_the_depth_limit_is_checked() -> None:
    previous = de.max_depth()
    try:
        for bad in (0, -1, True, 2.5, "10"):
            with pytest.raises(de.DefinitionError):
                de.set_max_depth(bad)  # type: ignore[arg-type]
        assert de.max_depth() == previous
    finally:
        de.set_max_depth(previous)


def test_each_thread_counts_its_own_levels() -> None:
    """Threads decoding at the limit at once all succeed: the level is per
    thread. The reader is compiled by the first of them, on first use: the
    others wait for it (a recursive encoding's function is published before
    its body is compiled)."""
    chain = mu("chain", _chain)
    data = chain.encode(_nested_chain(de.max_depth()))
    barrier = threading.Barrier(4)

    def work() -> int:
        barrier.wait()
        return sum(chain.decode(data)["v"] for _ in range(200))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: in the middle of decodes
    try:
        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(lambda _: work(), range(4))) == [200] * 4
    finally:
        sys.setswitchinterval(interval)


LEGAL_DEEP = 100_000


def test_a_hundred_thousand_legal_levels_in_a_thread_with_a_large_stack() -> None:
    """Deep but legal input is a matter of the limit and of the stack: with
    the limit raised, 100 000 levels of lists go both ways in a thread whose
    stack holds them (the main thread's 8 MB crash CPython at 25 000 levels:
    the README says so)."""
    lists = mu("lists", lambda self: list_(self))
    value: list[Any] = []
    for _ in range(LEGAL_DEEP - 1):
        value = [value]

    def both_ways() -> tuple[int, int, bool]:
        data = lists.encode(value)
        return len(data), lists.length(value), lists.decode(data) == value

    assert at_depth(LEGAL_DEEP, both_ways) == (4 * LEGAL_DEEP, 4 * LEGAL_DEEP, True)


def test_strategy_without_hypothesis_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in [m for m in sys.modules if m == "hypothesis" or m.startswith("hypothesis.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    # and the strategies pass not imported yet, as in a process without Hypothesis
    monkeypatch.delitem(sys.modules, "data_encoding.passes.strategies", raising=False)
    fresh = obj(req("a", uint8), req("b", list_(string)))
    with pytest.raises(ImportError) as info:
        fresh.strategy()
    assert "pip install 'data-encoding[hypothesis]'" in str(info.value)
    assert info.value.name == "hypothesis"
    monkeypatch.undo()
    value = find(fresh.strategy(), lambda v: len(v["b"]) == 1)  # nothing half-built was kept
    assert fresh.decode(fresh.encode(value)) == value


def test_every_error_code_is_raised_somewhere() -> None:
    """The closed set has no dead word: each code appears in the package
    outside ``errors.py`` (``invalid_definition`` is ``DefinitionError``'s own)."""
    from pathlib import Path

    from data_encoding.errors import ERROR_CODES

    package = Path(de.__file__).parent
    source = "\n".join(p.read_text() for p in package.rglob("*.py") if p.name != "errors.py")
    unused = {c for c in ERROR_CODES if f'"{c}"' not in source}
    assert unused == {"invalid_definition"}
    with pytest.raises(AssertionError):
        de.DecodeError("not_a_code", "x")  # type: ignore[arg-type]
