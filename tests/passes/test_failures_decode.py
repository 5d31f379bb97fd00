"""Decode failure tables: every way ``decode`` and ``decode_prefix`` fail,
with the exact error class, code, offset and path.

A row names an encoding, a hex input, and the error it must raise:
``(class, code, offset, path)``. Binary decode errors carry the **absolute**
byte offset where the problem was found: each row is read again by
``decode_prefix`` after 3 bytes of junk (its offset shifts by 3), and the
``decode_prefix`` rows start inside the buffer. Paths list the record keys
and list/tuple indexes from the root to the failing value.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import (
    DataEncodingError,
    DecodeError,
    Encoding,
    array,
    bool_,
    bounded,
    case,
    check_size,
    conv,
    dynamic_size,
    fixed,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    json,
    list_,
    list_with_length,
    matching,
    n,
    obj,
    opt,
    option,
    padded,
    ranged_float,
    ranged_int,
    req,
    string,
    tup,
    uint8,
    uint16,
    uint30,
    union,
    variable,
    z,
)
from failing import BY_WIDTH, ENUM, NESTED, Path, assert_error, h, refuse, same

# The encodings of the decode tables (those the other tables share are in failing.py).
FIELDS = obj(req("a", uint16), req("b", int32), req("c", string))
OPT_B = obj(req("a", uint8), opt("b", uint8))
PAIRS = obj(req("x", uint8), req("y", uint16))
ONLY_TAG_0 = union([case(0, "a", uint8)])
WITH_JSON = obj(req("a", uint8), req("j", json))
PADDED_RECORD = obj(req("x", uint16), req("p", padded(obj(req("a", uint8), req("b", bool_)), 1)))
CONV_DECODE = conv(same, refuse, uint8)

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
    # a value read that the writer would not write with the case read: a
    # user's predicate (or a matching union's function) fails on it, as the
    # writer would (it says not_canonical where it is)
    pytest.param(
        union([case(0, "a", uint8, match=refuse), case(1, "b", string)]),
        "00 05",
        DecodeError,
        "not_canonical",
        0,
        (),
        id="match-raises",
    ),
    pytest.param(
        obj(req("a", uint8), req("m", matching(refuse, [case(0, "small", int31)]))),
        "01 00 00000005",
        DecodeError,
        "not_canonical",
        1,
        ("m",),
        id="matching-raises-in-obj",
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
