"""Encode failure tables: every way ``encode``, ``length`` and ``to_json``
fail, with the exact error class, code and path (encode errors carry no
offset).

``length`` checks exactly like ``encode``; the binary-only limits do not
bound ``to_json``; a failed ``encode`` leaves no bytes and no state behind;
a bad record gives one error whichever the direction.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import (
    DataEncodingError,
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
    null,
    obj,
    opt,
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
from failing import (
    BY_WIDTH,
    ENUM,
    INT_OR_STRING,
    MATCHING,
    NESTED,
    SAME_X,
    Path,
    assert_error,
    h,
    refuse,
    same,
)

CONV_ENCODE = conv(refuse, same, uint8)
# a union whose first case's predicate raises, and a matching union whose function does
MATCH_RAISES = union([case(0, "a", uint8, match=refuse), case(1, "b", string)])
SELECT_RAISES = matching(refuse, [case(0, "small", int31), case(1, "big", int64)])

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
    pytest.param(MATCH_RAISES, 5, EncodeError, "user_function", (), id="match"),
    pytest.param(SELECT_RAISES, 5, EncodeError, "user_function", (), id="matching"),
    pytest.param(
        obj(req("a", uint8), req("m", MATCH_RAISES)),
        {"a": 1, "m": 2},
        EncodeError,
        "user_function",
        ("m",),
        id="match-in-obj",
    ),
    pytest.param(
        list_(SELECT_RAISES), [1], EncodeError, "user_function", (0,), id="select-in-list"
    ),
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
    pytest.param(MATCH_RAISES, 5, EncodeError, "user_function", (), id="match"),
    pytest.param(SELECT_RAISES, 5, EncodeError, "user_function", (), id="matching"),
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
