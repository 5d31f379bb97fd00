"""Arbitrary-precision integers: ``n`` (naturals) and ``z`` (integers), Zarith style.

Binary: groups of 7 bits, least significant first; the top bit (``0x80``) of
every byte but the last says "more bytes follow". In ``z`` the first byte
carries only 6 bits of magnitude: its bit ``0x40`` is the sign (set when
negative). JSON: a decimal string.

Decoding is canonical: a number whose last byte is a redundant ``00``
(``8000`` for 0) is rejected (``trailing_zero``), and so is ``z``'s negative
zero ``40`` (``negative_zero``); so each number has exactly one encoding.

>>> n.encode(300).hex(), z.encode(-64).hex(), z.decode(bytes.fromhex("3f"))
('ac02', 'c001', 63)
>>> z.to_json(-1234567890123456789012)
'-1234567890123456789012'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .core import Encoding, FromJson, Reader, Sizer, ToJson, Writer
from .errors import DecodeError, EncodeError, not_enough_data
from .jsonvalue import JsonValue
from .leaves import wrong_value_type
from .primitives import decimal_from_json
from .size import DYNAMIC

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def _end_of_number(buf: bytes, pos: int, end: int, what: str) -> int:
    """Index just past the last byte (the first one below 0x80)."""
    i = pos
    while i < end:
        if buf[i] < 0x80:
            if buf[i] == 0 and i > pos:
                raise DecodeError(
                    "trailing_zero",
                    f"non-canonical {what}: its last byte is a redundant 0x00",
                    offset=i,
                )
            return i + 1
        i += 1
    raise DecodeError(
        "not_enough_data", f"not enough data: the {what} runs past the end", offset=pos
    )


def _groups(buf: bytes, start: int, stop: int) -> int:
    """The value of the 7-bit groups ``buf[start:stop]``, least significant first."""
    value = 0
    shift = 0
    for byte in buf[start:stop]:
        value |= (byte & 0x7F) << shift
        shift += 7
    return value


def read_n(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    if pos < end and buf[pos] < 0x80:  # one byte: 0 .. 127
        return buf[pos], pos + 1
    stop = _end_of_number(buf, pos, end, "natural number")
    return _groups(buf, pos, stop), stop


def read_z(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    if pos >= end:
        raise not_enough_data(pos, 1, end, "integer")
    first = buf[pos]
    if first < 0x80:  # one byte
        if first == 0x40:
            raise DecodeError(
                "negative_zero", "non-canonical integer: negative zero (0x40)", offset=pos
            )
        return (-(first & 0x3F) if first & 0x40 else first), pos + 1
    stop = _end_of_number(buf, pos, end, "integer")
    magnitude = (first & 0x3F) | (_groups(buf, pos + 1, stop) << 6)
    return (-magnitude if first & 0x40 else magnitude), stop


def write_n_bytes(value: int, out: bytearray) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _check_int(value: Any) -> None:
    if not isinstance(value, int):
        raise wrong_value_type("an integer", value)


def write_n(out: bytearray, value: Any) -> None:
    _check_int(value)
    if value < 0:
        raise EncodeError("negative_natural", f"{value} is negative: n holds naturals only")
    write_n_bytes(value, out)


def write_z(out: bytearray, value: Any) -> None:
    _check_int(value)
    magnitude = -value if value < 0 else value
    sign = 0x40 if value < 0 else 0
    if magnitude < 0x40:
        out.append(sign | magnitude)
        return
    out.append(0x80 | sign | (magnitude & 0x3F))
    write_n_bytes(magnitude >> 6, out)


def size_n(value: Any) -> int:
    _check_int(value)
    if value < 0:
        raise EncodeError("negative_natural", f"{value} is negative: n holds naturals only")
    return max(1, -(-int(value).bit_length() // 7))


def size_z(value: Any) -> int:
    _check_int(value)
    return -(-(abs(int(value)).bit_length() + 1) // 7)


class Zarith(Encoding[int]):
    def __init__(self, natural: bool) -> None:
        self.natural = natural
        self.size = DYNAMIC

    def accepts(self, value: Any) -> bool:
        return type(value) is int and (value >= 0 or not self.natural)

    def accepts_json(self, json: JsonValue) -> bool:
        return type(json) is str

    def _build_reader(self) -> Reader:
        return read_n if self.natural else read_z

    def _build_writer(self) -> Writer:
        return write_n if self.natural else write_z

    def _build_sizer(self) -> Sizer:
        return size_n if self.natural else size_z

    def _build_to_json(self) -> ToJson:
        natural = self.natural

        def to_json(value: Any) -> JsonValue:
            _check_int(value)
            if natural and value < 0:
                raise EncodeError("negative_natural", f"{value} is negative: n holds naturals only")
            try:
                return str(int(value))
            except ValueError:  # beyond sys.int_max_str_digits
                raise EncodeError("out_of_range", "number too large to print in decimal") from None

        return to_json

    def _build_from_json(self) -> FromJson:
        return decimal_from_json(0 if self.natural else None, None, "n" if self.natural else "z")

    def _build_strategy(self) -> SearchStrategy[int]:
        from hypothesis import strategies as st

        bound = 2**256
        if self.natural:
            return st.integers(0, 127) | st.integers(0, bound)
        return st.integers(-64, 63) | st.integers(-bound, bound)


n: Zarith = Zarith(natural=True)
"""A natural number of any size (Zarith ``N``); JSON: a decimal string."""

z: Zarith = Zarith(natural=False)
"""An integer of any size (Zarith ``Z``); JSON: a decimal string."""
