"""The upstream expect tests (``base``, ``endianness``, ``stringbytes``) and the
integer / Zarith tables of the reference (§2.2-2.4), checked exactly both ways.

The OCaml expressions of the expect tests are not parsed generically: each one
is mapped to our encoding by an explicit table, and the tables are checked to
cover every test of their group, so a new upstream test cannot be skipped
silently.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from data_encoding import (
    Encoding,
    bytes_,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    n,
    ranged_int,
    string,
    uint8,
    uint16,
    z,
)
from golden import ZARITH_N, ZARITH_Z, expect_tests


def _group(name: str) -> list[dict[str, Any]]:
    return [t for t in expect_tests() if t["file"] == name]


# ---------------------------------------------------------------- base

# ``test_input_expr`` -> our encoding. ``uint_like_n`` / ``int_like_z`` have the
# bytes of ``n`` / ``z`` for these values (they only add a range check).
BASE_ENCODINGS: dict[str, Encoding[int]] = {
    "all_uint uint8 8": uint8,
    "all_int int8 8": int8,
    "all_uint uint16 16": uint16,
    "all_int int16 16": int16,
    "all_int int31 31": int31,
    "test_uint_like_n ()": n,
    "test_int_like_z ()": z,
    "test_n ()": n,
    "test_z ()": z,
}

# Quirk of the upstream file: in ``test_z`` the 34341234 line is
# ``binary n (string_z 12) (Z.of_int 34341234)``, i.e. it encodes with ``n``
# (hence ``f282b010``, where ``z`` gives ``b285e020``). Check that row with ``n``.
BASE_OVERRIDES: dict[tuple[str, int], Encoding[int]] = {("test_z ()", 34341234): n}

BASE_TESTS = _group("base")
BASE_ROWS: list[tuple[str, int, str]] = [
    (t["test_input_expr"], int(v), h) for t in BASE_TESTS for v, h in t["value_hex_pairs"]
]


def test_base_table_covers_every_base_test() -> None:
    exprs = [t["test_input_expr"] for t in BASE_TESTS]
    assert len(exprs) == len(set(exprs)) == 9
    assert set(exprs) == set(BASE_ENCODINGS)
    assert all(t["value_hex_pairs"] for t in BASE_TESTS)
    assert len(BASE_ROWS) == 4 + 5 + 4 + 5 + 5 + 10 + 21 + 10 + 21
    # the override names a row that exists and really is the quirky one
    assert ("test_z ()", 34341234, "f282b010") in BASE_ROWS


def _base_encoding(expr: str, value: int) -> Encoding[int]:
    return BASE_OVERRIDES.get((expr, value), BASE_ENCODINGS[expr])


@pytest.mark.parametrize(("expr", "value", "hex_"), BASE_ROWS)
def test_base_vector(expr: str, value: int, hex_: str) -> None:
    enc = _base_encoding(expr, value)
    assert enc.encode(value).hex() == hex_
    assert enc.decode(bytes.fromhex(hex_)) == value


def test_base_z_quirk_row_is_not_the_z_encoding() -> None:
    # the quirky row is n's bytes; z itself gives the int_like_z bytes
    assert z.encode(34341234).hex() == "b285e020"
    assert n.encode(34341234).hex() == "f282b010"
    # read as z, f2 is cont + sign + 0x32: -(0x32 + ((0x02 | 0x30 << 7 | 0x10 << 14) << 6))
    assert z.decode(bytes.fromhex("f282b010")) == -17170610


# ---------------------------------------------------------------- endianness

# Big-endian tests only: we do not implement ``Little_endian`` encodings, so the
# ``pp Little_endian.*`` tests are filtered out by their expression.
ENDIANNESS_VALUES: dict[str, tuple[Encoding[int], int]] = {
    "pp uint8 0": (uint8, 0),
    "pp uint16 300": (uint16, 300),
    "pp int16 300": (int16, 300),
    "pp int16 (-300)": (int16, -300),
    "pp int31 300300": (int31, 300300),
    "pp int31 (-300300)": (int31, -300300),
    "pp int32 300300l": (int32, 300300),
    "pp int32 (-300300l)": (int32, -300300),
    "pp int64 300300300300L": (int64, 300300300300),
    "pp int64 (-300300300300L)": (int64, -300300300300),
    "pp (ranged_int 33 333333) 300": (ranged_int(33, 333333), 300),
}

ENDIANNESS_TESTS = _group("endianness")
BIG_ENDIAN_TESTS = [t for t in ENDIANNESS_TESTS if "Little_endian." not in t["test_input_expr"]]
_ESCAPED = re.compile(r"(?:\\x[0-9a-f]{2})+")


def _escaped_bytes(output: str) -> bytes:
    """``\\x01\\x2c `` -> ``b"\\x01\\x2c"`` (the whole output must be escapes)."""
    text = output.strip()
    assert _ESCAPED.fullmatch(text), output
    return bytes(int(h, 16) for h in re.findall(r"\\x([0-9a-f]{2})", text))


def test_escaped_bytes_parser() -> None:
    assert _escaped_bytes("\\x01\\x2c ") == b"\x01\x2c"
    assert _escaped_bytes("\\x00\\x00\\x01\\x0b ") == b"\x00\x00\x01\x0b"


def test_endianness_table_covers_every_big_endian_test() -> None:
    assert len(ENDIANNESS_TESTS) == 21
    assert len(BIG_ENDIAN_TESTS) == 11  # the other 10 are ``pp Little_endian.*``
    exprs = [t["test_input_expr"] for t in BIG_ENDIAN_TESTS]
    assert len(set(exprs)) == len(exprs)
    assert set(exprs) == set(ENDIANNESS_VALUES)


@pytest.mark.parametrize(
    "test", BIG_ENDIAN_TESTS, ids=[t["test_input_expr"] for t in BIG_ENDIAN_TESTS]
)
def test_endianness_big_endian(test: dict[str, Any]) -> None:
    enc, value = ENDIANNESS_VALUES[test["test_input_expr"]]
    expected = _escaped_bytes(test["expect_output"])
    assert enc.encode(value) == expected
    assert enc.decode(expected) == value


# ---------------------------------------------------------------- stringbytes

S1 = b"\x00\x01\x02\x03\xf0\x9f\x90\xab"
S2 = b"\x00\x01\x02\xff\x01"

STRINGBYTES_TESTS = _group("stringbytes")


def _last_statement(expr: str) -> str:
    """The expression after the ``let ... in`` prelude (its last non-empty line)."""
    return [line.strip() for line in expr.splitlines() if line.strip()][-1]


def _stringbytes_output(statement: str) -> Any:
    found = [
        t["expect_output"]
        for t in STRINGBYTES_TESTS
        if _last_statement(t["test_input_expr"]) == statement
    ]
    assert len(found) == 1, statement
    return json.loads(found[0])


def test_stringbytes_outputs_found() -> None:
    statements = [_last_statement(t["test_input_expr"]) for t in STRINGBYTES_TESTS]
    plain = {"pp string s1", "pp string s2", "pp bytes s1", "pp bytes s2"}
    assert sorted(s for s in statements if s in plain) == sorted(plain)


def test_stringbytes_string_s1() -> None:
    expected = _stringbytes_output("pp string s1")
    assert expected == "\x00\x01\x02\x03\U0001f42b"
    text = S1.decode("utf-8")
    assert string.to_json(S1) == expected
    assert string.to_json(text) == expected
    assert string.from_json(expected) == text
    assert string.encode(string.from_json(expected)) == b"\x00\x00\x00\x08" + S1


def test_stringbytes_string_s2() -> None:
    expected = _stringbytes_output("pp string s2")
    assert expected == {"invalid_utf8_string": [0, 1, 2, 255, 1]}
    assert string.to_json(S2) == expected
    assert string.from_json(expected) == S2


def test_stringbytes_bytes_s1() -> None:
    expected = _stringbytes_output("pp bytes s1")
    assert expected == "00010203f09f90ab"
    assert bytes_.to_json(S1) == expected
    assert bytes_.from_json(expected) == S1


def test_stringbytes_bytes_s2() -> None:
    expected = _stringbytes_output("pp bytes s2")
    assert expected == "000102ff01"
    assert bytes_.to_json(S2) == expected
    assert bytes_.from_json(expected) == S2


# ---------------------------------------------------------------- reference §2.2-2.4


@pytest.mark.parametrize(("value", "hex_"), ZARITH_N)
def test_reference_n(value: int, hex_: str) -> None:
    assert n.encode(value).hex() == hex_
    assert n.decode(bytes.fromhex(hex_)) == value


@pytest.mark.parametrize(("value", "hex_"), ZARITH_Z)
def test_reference_z(value: int, hex_: str) -> None:
    assert z.encode(value).hex() == hex_
    assert z.decode(bytes.fromhex(hex_)) == value


INT_EXAMPLES: list[tuple[str, Encoding[int], int, str]] = [
    ("int31", int31, -1073741824, "c0000000"),
    ("int8", int8, -128, "80"),
    ("ranged_int 33 333333", ranged_int(33, 333333), 300, "0000010b"),
]


@pytest.mark.parametrize(
    ("enc", "value", "hex_"), [e[1:] for e in INT_EXAMPLES], ids=[e[0] for e in INT_EXAMPLES]
)
def test_reference_int_examples(enc: Encoding[int], value: int, hex_: str) -> None:
    assert enc.encode(value).hex() == hex_
    assert enc.decode(bytes.fromhex(hex_)) == value


def test_reference_float() -> None:
    assert float_.encode(1.5).hex() == "3ff8000000000000"
    assert float_.decode(bytes.fromhex("3ff8000000000000")) == 1.5
