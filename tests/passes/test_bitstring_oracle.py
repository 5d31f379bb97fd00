"""Differential tests against an independent bit-level oracle built on ``bitstring``.

The oracle writes and reads the binary formats from their definitions, bit by
bit, without any of the library's shifting and masking:

* ``n``: the number's bits, MSB-first, padded to a multiple of 7 and cut into
  7-bit groups; the groups go out least significant first, each behind a
  continuation bit (1 when another byte follows).
* ``z``: the first byte is a continuation bit, a sign bit (1 when negative)
  and the low 6 bits of the magnitude; the rest of the magnitude follows as
  in ``n``.
* fixed-width integers: two's complement (or unsigned) big-endian; ``int31``
  is an int32 restricted to [-2^30, 2^30 - 1].
* ``bool``: the byte of eight equal bits (``ff`` true, ``00`` false).
* ``float``: an IEEE-754 double, big-endian.

The decoders enforce the library's documented canonical rules (no redundant
trailing ``00`` in a multi-byte number, no ``z`` negative zero ``40``, no
extra bytes, bool only ``00``/``ff``), so arbitrary bytes can be compared too.

bitstring 5 has no ``ConstBitStream`` (removed in 5.0); sequential reading is
done with ``bitstring.Reader``, its replacement.
"""

from __future__ import annotations

import math
import random
from typing import Any

import bitstring
import pytest
from hypothesis import given
from hypothesis import strategies as st

from data_encoding import (
    DecodeError,
    EncodeError,
    Encoding,
    bool_,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    list_,
    n,
    uint8,
    uint16,
    uint30,
    z,
)
from golden import ZARITH_N, ZARITH_Z

BIG = 2**300


class OracleError(ValueError):
    """The oracle refuses a value or a byte string."""


# ---------------------------------------------------------------- oracle: Zarith


def _bit(flag: bool) -> Any:
    return bitstring.Bits(bool=flag)


def _groups_lsb_first(payload: Any) -> list[Any]:
    """The 7-bit groups of ``payload`` (MSB-first bits), least significant first."""
    return list(payload.cut(7))[::-1]


def _continued(groups: list[Any]) -> list[Any]:
    """Each group behind its continuation bit: 1 unless it is the last one."""
    return [_bit(i < len(groups) - 1) + g for i, g in enumerate(groups)]


def oracle_n(value: int) -> bytes:
    if value < 0:
        raise OracleError("negative natural")
    count = max(1, -(-value.bit_length() // 7))
    payload = bitstring.Bits(uint=value, length=7 * count)
    bits = bitstring.Bits.from_joined(_continued(_groups_lsb_first(payload)))
    assert len(bits) == 8 * count
    return bytes(bits.bytes)


def oracle_z(value: int) -> bytes:
    magnitude = abs(value)
    rest = max(0, -(-(magnitude.bit_length() - 6) // 7))  # 7-bit groups after byte 1
    payload = bitstring.Bits(uint=magnitude, length=6 + 7 * rest)
    low6 = payload[-6:]
    groups = _groups_lsb_first(payload[:-6])
    first = _bit(rest > 0) + _bit(value < 0) + low6
    bits = bitstring.Bits.from_joined([first, *_continued(groups)])
    assert len(bits) == 8 * (1 + rest)
    return bytes(bits.bytes)


def _reader(data: bytes) -> Any:
    return bitstring.Reader(bitstring.Bits.from_bytes(data))


def _remaining(reader: Any) -> int:
    return int(len(reader.bits) - reader.pos)


def _read_flag(reader: Any) -> bool:
    if _remaining(reader) < 1:
        raise OracleError("not enough data")
    return bool(reader.read_value("bool"))


def _read_group(reader: Any, width: int) -> Any:
    if _remaining(reader) < width:
        raise OracleError("not enough data")
    return reader.read_bits(width)


def _read_continued_groups(reader: Any, more: bool) -> list[Any]:
    groups: list[Any] = []
    while more:
        more = _read_flag(reader)
        groups.append(_read_group(reader, 7))
    return groups


def _finish(reader: Any) -> None:
    if _remaining(reader) != 0:
        raise OracleError("extra bytes")


def oracle_decode_n(data: bytes) -> int:
    reader = _reader(data)
    groups = _read_continued_groups(reader, True)
    _finish(reader)
    if len(groups) > 1 and groups[-1].uint == 0:
        raise OracleError("trailing zero")
    return int(bitstring.Bits.from_joined(groups[::-1]).uint)


def oracle_decode_z(data: bytes) -> int:
    reader = _reader(data)
    more = _read_flag(reader)
    negative = _read_flag(reader)
    low6 = _read_group(reader, 6)
    groups = _read_continued_groups(reader, more)
    _finish(reader)
    if groups and groups[-1].uint == 0:
        raise OracleError("trailing zero")
    magnitude = int(bitstring.Bits.from_joined([*groups[::-1], low6]).uint)
    if negative and magnitude == 0:
        raise OracleError("negative zero")
    return -magnitude if negative else magnitude


# ---------------------------------------------------------------- oracle: fixed width

# name -> (our encoding, bit width, signed, lo, hi)
FIXED: dict[str, tuple[Encoding[int], int, bool, int, int]] = {
    "int8": (int8, 8, True, -(2**7), 2**7 - 1),
    "uint8": (uint8, 8, False, 0, 2**8 - 1),
    "int16": (int16, 16, True, -(2**15), 2**15 - 1),
    "uint16": (uint16, 16, False, 0, 2**16 - 1),
    "int31": (int31, 32, True, -(2**30), 2**30 - 1),
    "uint30": (uint30, 32, False, 0, 2**30 - 1),
    "int32": (int32, 32, True, -(2**31), 2**31 - 1),
    "int64": (int64, 64, True, -(2**63), 2**63 - 1),
}


def oracle_fixed(name: str, value: int) -> bytes:
    _, width, signed, lo, hi = FIXED[name]
    if not lo <= value <= hi:
        raise OracleError("out of range")
    bits = (
        bitstring.BitArray(int=value, length=width)
        if signed
        else bitstring.BitArray(uint=value, length=width)
    )
    return bytes(bits.bytes)


def oracle_decode_fixed(name: str, data: bytes) -> int:
    _, width, signed, lo, hi = FIXED[name]
    if len(data) * 8 != width:
        raise OracleError("wrong length")
    value = int(_reader(data).read_value(f"{'ibe' if signed else 'ube'}{width}"))
    if not lo <= value <= hi:
        raise OracleError("out of range")
    return value


def oracle_bool(value: bool) -> bytes:
    return bytes((_bit(value) * 8).bytes)


def oracle_decode_bool(data: bytes) -> bool:
    reader = _reader(data)
    bits = [_read_flag(reader) for _ in range(8)]
    _finish(reader)
    if len(set(bits)) != 1:
        raise OracleError("invalid bool")
    return bits[0]


def oracle_float(value: float) -> bytes:
    return bytes(bitstring.Bits(float=value, length=64).bytes)


def oracle_decode_float(data: bytes) -> float:
    if len(data) != 8:
        raise OracleError("wrong length")
    return float(_reader(data).read_value("fbe64"))


# ---------------------------------------------------------------- the oracle itself


# the reference tables, plus rows around the group boundaries
ORACLE_N = [*ZARITH_N, (300, "ac02")]
ORACLE_Z = [*ZARITH_Z, (-341234, "f2d329"), (34341234, "b285e020")]
ORACLE_FIXED = [
    ("uint8", 0, "00"),
    ("uint8", 255, "ff"),
    ("int8", -128, "80"),
    ("uint16", 300, "012c"),
    ("int16", -300, "fed4"),
    ("int31", 300300, "0004950c"),
    ("int31", -300300, "fffb6af4"),
    ("int31", -1073741824, "c0000000"),
    ("int32", -300300, "fffb6af4"),
    ("int64", 300300300300, "00000045eb4af00c"),
    ("int64", -300300300300, "ffffffba14b50ff4"),
]


@pytest.mark.parametrize(("value", "hex_"), ORACLE_N)
def test_oracle_n_known_vectors(value: int, hex_: str) -> None:
    assert oracle_n(value).hex() == hex_
    assert oracle_decode_n(bytes.fromhex(hex_)) == value


@pytest.mark.parametrize(("value", "hex_"), ORACLE_Z)
def test_oracle_z_known_vectors(value: int, hex_: str) -> None:
    assert oracle_z(value).hex() == hex_
    assert oracle_decode_z(bytes.fromhex(hex_)) == value


@pytest.mark.parametrize(("name", "value", "hex_"), ORACLE_FIXED)
def test_oracle_fixed_known_vectors(name: str, value: int, hex_: str) -> None:
    assert oracle_fixed(name, value).hex() == hex_
    assert oracle_decode_fixed(name, bytes.fromhex(hex_)) == value


def test_oracle_bool_and_float_known_vectors() -> None:
    assert oracle_bool(True).hex() == "ff"
    assert oracle_bool(False).hex() == "00"
    assert oracle_decode_bool(b"\xff") is True
    assert oracle_decode_bool(b"\x00") is False
    assert oracle_float(1.5).hex() == "3ff8000000000000"
    assert oracle_float(-0.0).hex() == "8000000000000000"
    assert oracle_decode_float(bytes.fromhex("3ff8000000000000")) == 1.5
    assert oracle_decode_float(bytes.fromhex("c000000000000000")) == -2.0


@pytest.mark.parametrize(
    ("decoder", "hex_", "reason"),
    [
        (oracle_decode_n, "8300", "trailing zero"),
        (oracle_decode_n, "8000", "trailing zero"),
        (oracle_decode_n, "83", "not enough data"),
        (oracle_decode_n, "", "not enough data"),
        (oracle_decode_n, "0000", "extra bytes"),
        (oracle_decode_z, "8300", "trailing zero"),
        (oracle_decode_z, "838000", "trailing zero"),
        (oracle_decode_z, "c000", "trailing zero"),
        (oracle_decode_z, "40", "negative zero"),
        (oracle_decode_z, "83", "not enough data"),
        (oracle_decode_z, "0101", "extra bytes"),
        (oracle_decode_bool, "01", "invalid bool"),
        (oracle_decode_bool, "7f", "invalid bool"),
    ],
)
def test_oracle_decoders_reject(decoder: Any, hex_: str, reason: str) -> None:
    with pytest.raises(OracleError) as info:
        decoder(bytes.fromhex(hex_))
    assert str(info.value) == reason


def test_oracle_fixed_ranges() -> None:
    with pytest.raises(OracleError):
        oracle_fixed("int31", 2**30)
    with pytest.raises(OracleError):
        oracle_decode_fixed("int31", bytes.fromhex("40000000"))
    with pytest.raises(OracleError):
        oracle_fixed("uint8", -1)
    with pytest.raises(OracleError):
        oracle_n(-1)


# ---------------------------------------------------------------- Zarith vs the oracle

N_VALUES = st.integers(0, 300) | st.integers(0, BIG)
Z_VALUES = st.integers(-300, 300) | st.integers(-BIG, BIG)


@given(N_VALUES)
def test_n_matches_oracle(value: int) -> None:
    expected = oracle_n(value)
    assert n.encode(value) == expected
    assert n.length(value) == len(expected)
    assert n.decode(expected) == value


@given(Z_VALUES)
def test_z_matches_oracle(value: int) -> None:
    expected = oracle_z(value)
    assert z.encode(value) == expected
    assert z.length(value) == len(expected)
    assert z.decode(expected) == value


# the values around every change of length (2^(7k) for n, 2^(6+7k) for z)
N_EDGES = sorted({v for k in range(44) for v in (2 ** (7 * k) - 1, 2 ** (7 * k))})
Z_EDGES = sorted(
    {s * v for k in range(44) for v in (2 ** (6 + 7 * k) - 1, 2 ** (6 + 7 * k)) for s in (1, -1)}
)


def test_n_length_edges_match_oracle() -> None:
    assert len(N_EDGES) == 88  # 0, 1, 127, 128, ..., 2^301 - 1, 2^301
    for value in N_EDGES:
        expected = oracle_n(value)
        assert n.encode(value) == expected, value
        assert n.decode(expected) == value


def test_z_length_edges_match_oracle() -> None:
    assert len(Z_EDGES) == 176
    for value in Z_EDGES:
        expected = oracle_z(value)
        assert z.encode(value) == expected, value
        assert z.decode(expected) == value


def _ours(enc: Encoding[Any], data: bytes) -> tuple[bool, Any]:
    try:
        return True, enc.decode(data)
    except DecodeError:
        return False, None


def _theirs(decoder: Any, data: bytes) -> tuple[bool, Any]:
    try:
        return True, decoder(data)
    except OracleError:
        return False, None


def _zarith_like(groups: list[int]) -> bytes:
    """7-bit groups behind continuation bits (every byte but the last has 0x80)."""
    return bytes(g | 0x80 for g in groups[:-1]) + bytes(groups[-1:])


ZARITH_BYTES = st.binary(max_size=12) | st.lists(st.integers(0, 127), max_size=10).map(_zarith_like)


@given(ZARITH_BYTES)
def test_n_decode_arbitrary_bytes_agrees_with_oracle(data: bytes) -> None:
    assert _ours(n, data) == _theirs(oracle_decode_n, data)


@given(ZARITH_BYTES)
def test_z_decode_arbitrary_bytes_agrees_with_oracle(data: bytes) -> None:
    assert _ours(z, data) == _theirs(oracle_decode_z, data)


# Lists are read and written whole (boundaries found for the frame at once,
# long numbers converted whole): element by element, the oracle must agree.

BIG_INTS = st.integers(-(2**600), 2**600) | st.integers(-(2**50), 2**50) | st.integers(-70, 70)


@given(st.lists(BIG_INTS, max_size=12))
def test_z_list_matches_oracle(values: list[int]) -> None:
    data = list_(z).encode(values)
    assert data[4:] == b"".join(oracle_z(v) for v in values)
    assert list_(z).decode(data) == values


@given(st.lists(BIG_INTS.map(abs), max_size=12))
def test_n_list_matches_oracle(values: list[int]) -> None:
    data = list_(n).encode(values)
    assert data[4:] == b"".join(oracle_n(v) for v in values)
    assert list_(n).decode(data) == values


def _oracle_list(decoder: Any, data: bytes) -> tuple[bool, Any]:
    """Read numbers one after the other with the oracle until the data ends."""
    out = []
    while data:
        for cut in range(1, len(data) + 1):  # the first prefix that decodes
            ok, value = _theirs(decoder, data[:cut])
            if ok:
                out.append(value)
                data = data[cut:]
                break
        else:
            return False, None
    return True, out


@given(st.lists(ZARITH_BYTES, max_size=4).map(b"".join))
def test_zarith_list_decode_arbitrary_bytes_agrees_with_oracle(body: bytes) -> None:
    framed = len(body).to_bytes(4, "big") + body
    assert _ours(list_(z), framed) == _oracle_list(oracle_decode_z, body)
    assert _ours(list_(n), framed) == _oracle_list(oracle_decode_n, body)


def test_zarith_negative_values_refused_by_n() -> None:
    with pytest.raises(EncodeError):
        n.encode(-1)


# ---------------------------------------------------------------- fixed width vs the oracle


@pytest.mark.parametrize("name", list(FIXED))
@given(data=st.data())
def test_fixed_matches_oracle(name: str, data: st.DataObject) -> None:
    enc, _, _, lo, hi = FIXED[name]
    value = data.draw(st.integers(lo, hi))
    expected = oracle_fixed(name, value)
    assert enc.encode(value) == expected
    assert enc.decode(expected) == value
    assert oracle_decode_fixed(name, enc.encode(value)) == value


@pytest.mark.parametrize("name", list(FIXED))
@given(value=st.integers(-(2**70), 2**70))
def test_fixed_range_agrees_with_oracle(name: str, value: int) -> None:
    enc = FIXED[name][0]
    try:
        expected: bytes | None = oracle_fixed(name, value)
    except OracleError:
        expected = None
    if expected is None:
        with pytest.raises(EncodeError):
            enc.encode(value)
    else:
        assert enc.encode(value) == expected


@pytest.mark.parametrize("name", list(FIXED))
@given(data=st.data())
def test_fixed_decode_arbitrary_bytes_agrees_with_oracle(name: str, data: st.DataObject) -> None:
    width = FIXED[name][1] // 8
    raw = data.draw(st.binary(min_size=width - 1, max_size=width + 1))
    assert _ours(FIXED[name][0], raw) == _theirs(lambda b: oracle_decode_fixed(name, b), raw)


# ---------------------------------------------------------------- bool and float vs the oracle


@given(st.booleans())
def test_bool_matches_oracle(value: bool) -> None:
    expected = oracle_bool(value)
    assert bool_.encode(value) == expected
    assert bool_.decode(expected) is value


@given(st.binary(min_size=1, max_size=1))
def test_bool_decode_arbitrary_byte_agrees_with_oracle(data: bytes) -> None:
    assert _ours(bool_, data) == _theirs(oracle_decode_bool, data)


@given(st.floats(allow_nan=False))
def test_float_matches_oracle(value: float) -> None:
    expected = oracle_float(value)
    assert float_.encode(value) == expected
    decoded = float_.decode(expected)
    assert oracle_float(decoded) == expected  # bit-exact: keeps -0.0 apart from 0.0
    assert decoded == value


@given(st.binary(min_size=8, max_size=8))
def test_float_decode_arbitrary_bytes_agrees_with_oracle(data: bytes) -> None:
    ours = float_.decode(data)
    theirs = oracle_decode_float(data)
    if math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert oracle_float(ours) == oracle_float(theirs) == data


# Numbers of more than 32 groups are converted in chunks of 32 groups, joined
# by halves: the group counts around each chunk boundary, and long ones.
LONG_GROUPS = [33, 63, 64, 65, 96, 127, 128, 129, 1000, 4099]


@pytest.mark.parametrize("groups", LONG_GROUPS)
def test_long_numbers_match_oracle(groups: int) -> None:
    rng = random.Random(groups)
    for value in (2 ** (7 * groups) - 1, rng.getrandbits(7 * groups - 3) | 1 << (7 * groups - 4)):
        assert n.encode(value) == oracle_n(value)
        assert n.decode(oracle_n(value)) == value
        for signed in (value, -value):
            assert z.encode(signed) == oracle_z(signed)
            assert z.decode(oracle_z(signed)) == signed
        values = [value, 5, -value, value >> 7]
        data = list_(z).encode(values)
        assert data[4:] == b"".join(oracle_z(v) for v in values)
        assert list_(z).decode(data) == values


@pytest.mark.parametrize("groups", LONG_GROUPS)
def test_long_malformed_numbers_fail_where_the_oracle_does(groups: int) -> None:
    unfinished = b"\xff" * groups
    trailing = unfinished + b"\x00"
    for data, code, offset in (
        (unfinished, "not_enough_data", 0),
        (trailing, "trailing_zero", groups),
    ):
        for enc in (n, z):
            assert _theirs(oracle_decode_n if enc is n else oracle_decode_z, data) == (False, None)
            with pytest.raises(DecodeError) as info:
                enc.decode(data)
            assert (info.value.code, info.value.offset) == (code, offset)
