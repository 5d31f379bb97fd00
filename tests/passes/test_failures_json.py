"""``from_json`` failure tables: every way reading a JSON value fails, with
the exact error class, code and path (JSON errors carry no offset), and the
values next to the refused ones, accepted.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import (
    DataEncodingError,
    Encoding,
    JsonError,
    bool_,
    bounded,
    bytes_,
    case,
    constant,
    conv,
    empty,
    fixed,
    float_,
    int8,
    int31,
    int64,
    json,
    list_,
    n,
    null,
    obj,
    opt,
    option,
    ranged_float,
    ranged_int,
    req,
    string,
    tup,
    uint8,
    uint16,
    union,
    unit,
    z,
)
from data_encoding.jsonvalue import JsonValue, loads
from failing import BY_WIDTH, ENUM, INT_OR_STRING, NESTED, SAME_X, Path, assert_error, refuse, same

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
    pytest.param(
        union([case(None, "a", uint8, json_match=refuse), case(1, "b", string)]),
        3,
        JsonError,
        "user_function",
        (),
        id="json_match",
    ),
    pytest.param(
        obj(req("u", union([case(0, "a", uint8, match=same, json_match=refuse)]))),
        {"u": 3},
        JsonError,
        "user_function",
        ("u",),
        id="json_match-in-obj",
    ),
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
