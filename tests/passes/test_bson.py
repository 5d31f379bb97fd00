"""BSON, the binary form of the ``json`` combinator: vectors, round trips, strictness."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding.errors import DecodeError, EncodeError
from data_encoding.jsonvalue import JsonValue, RepeatedMembers, json_object
from data_encoding.tree.bson import decode_bson, encode_bson

# (value, hex of its BSON, what decoding that hex gives back), from the reference,
# but one: the reference reads an empty BSON array (type 0x04) as {}, which is
# also the reading of an empty document (0x03), so two byte strings would be
# one value; here it reads back as [] (README, "Strictness").
VECTORS: list[tuple[JsonValue, str, JsonValue]] = [
    (None, "060000008a00", None),
    (
        "ZxH8:\nSHQA\x7fh",
        "17000000820d0000005a7848383a0a534851417f680000",
        "ZxH8:\nSHQA\x7fh",
    ),
    ({}, "0500000000", {}),
    (
        {"a": [1, "x", None, True]},
        "2800000004610020000000013000000000000000f03f0231000200000078000a3200083300010000",
        {"a": [1, "x", None, True]},
    ),
    ([1, 2], "1b000000013000000000000000f03f013100000000000000004000", {"0": 1, "1": 2}),
    ([], "0500000000", {}),
    ("abc", "0e00000082040000006162630000", "abc"),
    (5, "0e00000081000000000000144000", 5),
    ({"k": {"e": []}}, "15000000036b000d00000004650005000000000000", {"k": {"e": []}}),
    ({"k": {"e": {}}}, "15000000036b000d00000003650005000000000000", {"k": {"e": {}}}),
    (-51, "0e0000008100000000008049c000", -51),
    (True, "070000008801" + "00", True),
    (False, "070000008800" + "00", False),
    (0.5, "0e00000081000000000000e03f00", 0.5),
    ("", "0b00000082010000000000", ""),
    # a key given twice: every member is written, and read back in order
    (
        RepeatedMembers([("a", None), ("a", None)]),
        "0b0000000a61000a610000",
        RepeatedMembers([("a", None), ("a", None)]),
    ),
    (
        {"k": RepeatedMembers([("a", None), ("b", 1), ("a", {})])},
        "23000000036b001b0000000a610001620000000000" + "0000f03f" + "03610005000000000000",
        {"k": RepeatedMembers([("a", None), ("b", 1), ("a", {})])},
    ),
]


def same(a: object, b: object) -> bool:
    """Equality that also tells 1 from 1.0 from True, and lists from dicts."""
    if type(a) is not type(b):
        return False
    if isinstance(a, RepeatedMembers) and isinstance(b, RepeatedMembers):
        return len(a.members) == len(b.members) and all(
            k == j and same(x, y) for (k, x), (j, y) in zip(a.members, b.members, strict=True)
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


@pytest.mark.parametrize(("value", "hexa", "back"), VECTORS)
def test_vectors(value: JsonValue, hexa: str, back: JsonValue) -> None:
    assert encode_bson(value).hex() == hexa
    data = bytes.fromhex(hexa)
    assert same(decode_bson(data, 0, len(data)), back)
    # Offsets are honoured: junk around the value changes nothing.
    framed = b"\xff\x01\x02" + data + b"\xee"
    assert same(decode_bson(framed, 3, 3 + len(data)), back)


def test_double_bytes() -> None:
    assert encode_bson({"n": -51}).hex() == "10000000016e0000000000008049c000"
    assert same(decode_bson(bytes.fromhex("10000000016e0000000000008049c000"), 0, 16), {"n": -51})


@pytest.mark.parametrize(
    ("value", "back"),
    [
        (2**53 - 1, 2**53 - 1),
        (-(2**53 - 1), -(2**53 - 1)),
        (2**53, 9007199254740992.0),
        (2**53 + 2, 9007199254740994.0),
        (-(2**53), -9007199254740992.0),
        (2**60, 1152921504606846976.0),
        (3.0, 3),
        (-0.0, 0),  # written as 0.0: one JSON number, one encoding
        (1e300, 1e300),
        (-2.5, -2.5),
        (5e-324, 5e-324),
    ],
)
def test_numbers(value: JsonValue, back: JsonValue) -> None:
    data = encode_bson(value)
    assert same(decode_bson(data, 0, len(data)), back)


def test_negative_zero_is_written_as_zero() -> None:
    assert encode_bson(-0.0) == encode_bson(0.0) == encode_bson(0)
    assert encode_bson({"a": [-0.0]}) == encode_bson({"a": [0]})


def test_strings_with_nul_and_unicode() -> None:
    value: JsonValue = {"é€𝄞": "a\x00b", "": "☃"}
    data = encode_bson(value)
    assert data.hex() == (
        "2200000002c3a9e282acf09d849e00" + "04000000610062000200" + "04000000e298830000"
    )
    assert same(decode_bson(data, 0, len(data)), value)


def normalise(value: JsonValue) -> JsonValue:
    """What decoding gives back for a value (a root array excepted): numbers
    are doubles, given back as ints when integral and exact (-0.0 as 0)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int | float):
        number = float(value)
        if number.is_integer() and abs(number) < 2**53:
            return int(number)
        return number
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return json_object([(k, normalise(v)) for k, v in value.items()])


def int32_le(data: bytes) -> int:
    return int.from_bytes(data[:4], "little", signed=True)


text = st.text(st.characters(codec="utf-8"), max_size=12)
keys = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=6)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)


def objects(members: st.SearchStrategy[JsonValue], max_size: int) -> st.SearchStrategy[JsonValue]:
    """Objects of these members, some giving a name twice (a RepeatedMembers)."""
    repeated = st.builds(
        lambda pairs, again: RepeatedMembers([*pairs, (pairs[0][0], again)]),
        st.lists(st.tuples(keys, members), min_size=1, max_size=max_size - 1),
        members,
    )
    return st.dictionaries(keys, members, max_size=max_size) | repeated


values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | objects(inner, 4),
    max_leaves=20,
)
roots = scalars | objects(values, 5)


@given(roots)
def test_round_trip(value: JsonValue) -> None:
    data = encode_bson(value)
    assert int32_le(data) == len(data)
    assert same(decode_bson(data, 0, len(data)), normalise(value))
    framed = b"abc" + data + b"xyz"
    assert same(decode_bson(framed, 3, 3 + len(data)), normalise(value))


@given(st.lists(values, min_size=1, max_size=5))
def test_root_array_reads_as_object(value: list[JsonValue]) -> None:
    data = encode_bson(value)
    expected = {str(i): normalise(v) for i, v in enumerate(value)}
    assert same(decode_bson(data, 0, len(data)), expected)


def doc(body: bytes) -> bytes:
    """A document around ``body`` (elements only; the terminator is added)."""
    return (len(body) + 5).to_bytes(4, "little") + body + b"\x00"


def deep(levels: int) -> bytes:
    inner = doc(b"")
    for _ in range(levels):
        inner = doc(b"\x03a\x00" + inner)
    return inner


# (BSON hex, expected code, expected offset relative to the BSON start)
FAILURES: list[tuple[str, str, int]] = [
    # the length field itself runs past the end
    ("", "not_enough_data", 0),
    ("050000", "not_enough_data", 0),
    # total length field != end - start
    ("0600000000", "invalid_bson", 0),
    ("0400000000", "invalid_bson", 0),
    ("0500000000ff", "invalid_bson", 0),
    ("ffffffff00", "invalid_bson", 0),
    ("04000000", "invalid_bson", 0),
    # missing final terminator
    ("0500000001", "invalid_bson", 4),
    ("080000000a610001", "invalid_bson", 7),
    ("060000008a01", "invalid_bson", 5),
    # bytes after a terminator
    ("07000000000000", "invalid_bson", 5),
    ("0a0000000a61000000ff", "invalid_bson", 8),
    ("0e00000003610006000000000000", "invalid_bson", 12),
    # unknown element types
    ("0800000007610000", "invalid_bson", 4),
    ("0b0000000a6100ff620000", "invalid_bson", 7),
    ("0800000010610000", "invalid_bson", 4),
    # key not terminated inside its document
    ("060000000a61", "invalid_bson", 5),
    ("070000000a6100", "invalid_bson", 5),
    # bool byte not 0x00 / 0x01
    ("090000000861000200", "invalid_bson", 7),
    ("0700000088ff00", "invalid_bson", 5),
    # NaN and infinities are not JSON
    ("10000000016100000000000000f87f00", "invalid_bson", 7),
    ("10000000016100000000000000f07f00", "invalid_bson", 7),
    ("0e00000081000000000000f0ff00", "invalid_bson", 5),
    # invalid UTF-8 in a key or a string (offset of the first bad byte)
    ("080000000aff0000", "invalid_bson", 5),
    ("0a0000000a61c3280000", "invalid_bson", 6),
    ("0c0000008202000000ff0000", "invalid_bson", 9),
    ("1000000082060000006162eda0800000", "invalid_bson", 11),
    ("0e000000820400000061c0af0000", "invalid_bson", 10),
    # string length < 1, or its last byte is not NUL
    ("0a000000820000000000", "invalid_bson", 5),
    ("0a00000082ffffffff00", "invalid_bson", 5),
    ("0c0000008202000000616200", "invalid_bson", 10),
    # string runs past its document, or past the end
    ("0b00000082020000006100", "invalid_bson", 5),
    ("0b00000082090000006100", "not_enough_data", 5),
    ("07000000820000", "not_enough_data", 5),
    ("0d000000026100100000006100", "not_enough_data", 7),
    # doubles and booleans running into the terminator or past the end
    ("0f0000000161000000000000000000", "invalid_bson", 7),
    ("0800000081000000", "not_enough_data", 5),
    ("060000008800", "invalid_bson", 5),
    # array keys must be "0", "1", ... in order
    ("10000000046100080000000a31000000", "invalid_bson", 12),
    ("130000000461000b0000000a30000a30000000", "invalid_bson", 15),
    ("11000000046100090000000a3030000000", "invalid_bson", 12),
    # embedded document length < 5, past its parent, or past the end
    ("0c0000000361000400000000", "invalid_bson", 7),
    ("0c0000000361000000008000", "invalid_bson", 7),
    ("0c0000000361000500000000", "invalid_bson", 7),
    ("0d000000036100200000000000", "not_enough_data", 7),
    ("0b00000003610005000000", "invalid_bson", 7),
    ("0a000000036100050000", "not_enough_data", 7),
    # scalar root marker followed by anything but the value and the terminator
    ("070000008a0000", "invalid_bson", 5),
    ("0f0000008204000000616263000000", "invalid_bson", 13),
    ("060000008300", "invalid_bson", 4),
    ("0a000000840500000000", "invalid_bson", 4),
    ("06000000ff00", "invalid_bson", 4),
    # -0.0: it is written 0.0 (one number, one encoding)
    ("0e000000810000000000000080" + "00", "negative_zero", 5),
    ("10000000016100000000000000008000", "negative_zero", 7),
    # deep nesting: the 101st document (7 bytes per level before it) is past
    # the depth limit, 100 levels
    (deep(20000).hex(), "too_deep", 700),
]


@pytest.mark.parametrize(("hexa", "code", "offset"), FAILURES, ids=[h[:40] for h, _, _ in FAILURES])
def test_decode_failures(hexa: str, code: str, offset: int) -> None:
    data = bytes.fromhex(hexa)
    framed = b"\x05\x00\x00" + data + b"\x00\x00"
    with pytest.raises(DecodeError) as info:
        decode_bson(framed, 3, 3 + len(data))
    assert info.value.code == code
    assert info.value.offset == 3 + offset
    assert info.value.path == ()
    assert info.value.message


def test_failure_messages() -> None:
    with pytest.raises(DecodeError) as info:
        decode_bson(bytes.fromhex("0c0000008202000000ff0000"), 0, 12)
    assert str(info.value) == "BSON string is not valid UTF-8 (byte 9)"


def test_nesting_up_to_the_depth_limit_decodes() -> None:
    data = deep(99)  # 100 documents: as deep as allowed
    value = decode_bson(data, 0, len(data))
    for _ in range(99):
        assert isinstance(value, dict)
        assert list(value) == ["a"]
        value = value["a"]
    assert value == {}


@pytest.mark.parametrize(("start", "end"), [(0, 6), (-1, 3), (3, 2)])
def test_bad_range(start: int, end: int) -> None:
    with pytest.raises(DecodeError) as info:
        decode_bson(b"\x05\x00\x00\x00\x00", start, end)
    assert info.value.code == "not_enough_data"


def _cyclic() -> JsonValue:
    loop: list[JsonValue] = []
    loop.append(loop)
    return loop


def _deep_list(levels: int) -> JsonValue:
    value: JsonValue = [1]
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "code", "path"),
    [
        ({1: 2}, "not_json", ()),
        ({"a": {None: 2}}, "not_json", ("a",)),
        ({"a": (1,)}, "not_json", ("a",)),
        ((1, 2), "not_json", ()),
        (b"x", "not_json", ()),
        ({1, 2}, "not_json", ()),
        ([object()], "not_json", (0,)),
        (math.nan, "not_json", ()),
        (math.inf, "not_json", ()),
        ({"x": [-math.inf]}, "not_json", ("x", 0)),
        (RepeatedMembers([("a", 1), ("a", math.nan)]), "not_json", ("a",)),
        ({"k": RepeatedMembers([("a", 1), ("\x00", 2), ("a", 3)])}, "invalid_bson", ("k",)),
        ({"a\x00b": 1}, "invalid_bson", ()),
        ({"x": {"\x00": None}}, "invalid_bson", ("x",)),
        (2**53 + 1, "out_of_range", ()),
        (-(2**53) - 1, "out_of_range", ()),
        ({"n": [2**64 + 1]}, "out_of_range", ("n", 0)),
        (10**400, "out_of_range", ()),
        (-(10**400), "out_of_range", ()),
        ("\ud800", "invalid_utf8", ()),
        ({"\udc00": 1}, "invalid_utf8", ()),
        (["ok", "a\udfffb"], "invalid_utf8", (1,)),
        (_cyclic(), "too_deep", (0,) * 100),
        (_deep_list(100000), "too_deep", (0,) * 100),
    ],
)
def test_encode_failures(value: object, code: str, path: tuple[str | int, ...]) -> None:
    """Refused with the error ``to_json`` gives, at the same place: the
    member or item that is wrong (a key's error is its object's)."""
    with pytest.raises(EncodeError) as info:
        encode_bson(value)  # type: ignore[arg-type]
    assert info.value.code == code
    assert info.value.offset is None
    assert info.value.path == path
    assert info.value.message
    if code not in ("invalid_bson", "out_of_range"):  # BSON's own limits: NUL, doubles
        with pytest.raises(EncodeError) as json_info:
            de.json.to_json(value)  # type: ignore[arg-type]
        assert (json_info.value.code, json_info.value.path) == (code, path)


@settings(max_examples=500)
@given(st.binary(max_size=64), st.integers(0, 3), st.integers(0, 3))
def test_fuzz_random_bytes(data: bytes, cut_front: int, cut_back: int) -> None:
    start = min(cut_front, len(data))
    end = max(start, len(data) - cut_back)
    try:
        decoded = decode_bson(data, start, end)
    except DecodeError as exc:
        assert exc.offset is not None
        assert start <= exc.offset <= end
    else:
        assert encode_bson(decoded) == data[start:end]  # canonical


@settings(max_examples=500)
@given(roots, st.data())
def test_fuzz_mutated_encodings(value: JsonValue, data: st.DataObject) -> None:
    raw = bytearray(encode_bson(value))
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(raw) - 1))
        raw[index] = data.draw(st.integers(0, 255))
    framed = b"\x00" + bytes(raw)
    try:
        decoded = decode_bson(framed, 1, len(framed))
    except DecodeError as exc:
        assert exc.offset is not None
        assert 1 <= exc.offset <= len(framed)
    else:
        # whatever decodes is canonical: it encodes back to the same bytes
        assert encode_bson(decoded) == bytes(raw)
