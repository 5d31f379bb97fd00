"""Void-like encodings, booleans, fixed-width integers and floats.

========================  ==============================  =================================
combinator                binary                          JSON
========================  ==============================  =================================
``null``                  nothing                         ``null`` (value ``None``)
``empty``                 nothing                         ``{}`` (value ``{}``)
``unit``                  nothing                         ``{}`` (value ``None``)
``constant(s)``           nothing                         the string ``s`` (value ``s``)
``bool_``                 1 byte, ``00`` / ``ff``         ``false`` / ``true``
``int8`` / ``uint8``      1 byte                          number
``int16`` / ``uint16``    2 bytes, big-endian             number
``int31``                 4 bytes, -2^30 .. 2^30-1        number
``int32``                 4 bytes                         number
``int64``                 8 bytes                         decimal **string**
``ranged_int(lo, hi)``    1, 2 or 4 bytes (see below)     number in ``[lo, hi]``
``float_``                8 bytes, IEEE-754 double        number
``ranged_float(lo, hi)``  8 bytes                         number in ``[lo, hi]``
========================  ==============================  =================================

Decoding is strict: a boolean byte other than ``00``/``ff`` and an integer
outside its range are errors.

>>> int16.encode(-300).hex(), uint16.decode(bytes.fromhex("012c"))
('fed4', 300)
>>> int64.to_json(2**63 - 1)
'9223372036854775807'
>>> ranged_int(100, 355).encode(355).hex()
'ff'
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Callable
from functools import partial
from typing import Any

from ..errors import DecodeError, DefinitionError, EncodeError, JsonError, describe_value
from ..jsonvalue import JsonValue
from .core import Atom, FromJson, Guard, Namer, _public, combinator, expect, publish
from .leaves import (
    AtomEncoding,
    checked,
    int_check,
    wrong_type,
    wrong_value_type,
)

INT31_MIN, INT31_MAX = -(2**30), 2**30 - 1
UINT30_MAX = 2**30 - 1


# ---------------------------------------------------------------- zero width


class ZeroWidth(AtomEncoding[Any]):
    """An encoding with no bytes and a single value."""

    #: the string of a ``constant``; ``None`` for ``null``, ``empty`` and ``unit``
    constant: str | None = None

    def __init__(
        self,
        kind: str,
        value: Any,
        json: JsonValue,
        matches: Any,
        json_matches: Any,
        expected: str,
    ) -> None:
        self.kind = kind
        self.value = value
        self.json_value = json
        self.matches = matches
        self.json_matches = json_matches
        self.expected = expected

        def check(v: Any) -> None:
            if not matches(v):
                raise wrong_value_type(expected, v)

        def make(_raw: Any) -> Any:
            # a fresh object each time: ``{}`` must not be shared between values
            return {} if isinstance(value, dict) else value

        guard: Guard | None = None
        if kind == "constant":
            guard = lambda x, _: f"{x} == {json!r}"  # noqa: E731
        elif value is None:
            guard = lambda x, _: f"{x} is None"  # noqa: E731
        super().__init__(Atom("", 0, check, unpack=make, pack_guard=guard), kind)
        self.nullable = json is None or kind == "unit"

    def _rebuild(self) -> tuple[Any, ...]:
        if self.kind == "constant":
            return (constant, (self.value,))
        return (_public, (__name__, self.kind))  # null, empty, unit


def _is_empty_object(v: Any) -> bool:
    return type(v) is dict and not v


null: ZeroWidth = ZeroWidth("null", None, None, lambda v: v is None, lambda j: j is None, "null")
"""No bytes; the value ``None``, JSON ``null``."""

empty: ZeroWidth = ZeroWidth("empty", {}, {}, _is_empty_object, _is_empty_object, "{}")
"""No bytes; the value ``{}`` (an object without fields), JSON ``{}``."""

unit: ZeroWidth = ZeroWidth("unit", None, {}, lambda v: v is None, _is_empty_object, "{}")
"""No bytes; the value ``None``, JSON ``{}`` (strict: no other JSON value)."""


@combinator
def constant(s: str) -> ZeroWidth:
    """No bytes; the value is the string ``s`` itself, JSON ``"s"``.

    >>> constant("baker").to_json("baker")
    'baker'
    """
    if not isinstance(s, str):
        raise DefinitionError(f"constant() takes a string, not {type(s).__name__}")
    enc = ZeroWidth("constant", s, s, lambda v: v == s, lambda j: j == s, repr(s))
    enc.constant = s
    return enc


# ---------------------------------------------------------------- booleans


def _bool_check(value: Any) -> None:
    if type(value) is not bool:
        raise wrong_value_type("a bool", value)


def _bool_pack(value: Any) -> int:
    if value is True:
        return 255
    if value is False:
        return 0
    raise wrong_value_type("a bool", value)


def _bool_unpack(raw: int) -> bool:
    if raw == 0:
        return False
    if raw == 255:
        return True
    raise DecodeError("invalid_bool", f"invalid boolean byte 0x{raw:02x} (only 0x00 and 0xff)")


class Bool(AtomEncoding[bool]):
    def __init__(self) -> None:
        super().__init__(Atom("B", 1, _bool_check, _bool_pack, _bool_unpack), "bool")

    def _rebuild(self) -> tuple[Any, ...]:
        return (Bool, ())


bool_: Bool = Bool()
"""One byte: ``0x00`` false, ``0xff`` true (any other byte is rejected)."""


# ---------------------------------------------------------------- integers


class Int(AtomEncoding[int]):
    """A fixed-width integer; ``kind`` names it (``int8``, ``uint16``, ``int31``...)."""

    def __init__(self, kind: str, fmt: str, lo: int, hi: int, *, json_string: bool = False):
        self.kind = kind
        self.lo = lo
        self.hi = hi
        self.json_string = json_string
        check = int_check(lo, hi, kind)
        width = struct.calcsize(">" + fmt)
        if width == 4 and (lo, hi) != (-(2**31), 2**31 - 1):
            # int31 and uint30 travel as 32-bit integers: struct alone would
            # accept values beyond their range, so both directions check it
            guard: Guard = lambda x, _: (  # noqa: E731
                f"(1 < {x} <= {hi} or type({x}) is int and {lo} <= {x} <= {hi})"
            )
            unpack_guard: Guard = lambda x, _: f"{lo} <= {x} <= {hi}"  # noqa: E731
            atom = Atom(
                fmt,
                width,
                check,
                _range_pack(check, lo, hi, 0),
                _range_unpack(lo, hi, 0),
                guard,
                unpack_guard,
            )
        else:  # struct checks the range; a bool (an int to struct) must not pass
            atom = Atom(fmt, width, check, checked(check, int), None, _is_int, exact=int)
        super().__init__(atom, kind)

    def _rebuild(self) -> tuple[Any, ...]:
        args = (self.kind, self.atom.fmt, self.lo, self.hi)
        return (partial(Int, json_string=self.json_string), args)


def _is_int(x: str, _: Namer) -> str:
    # a bool is 0 or 1: above 1, the value alone says it is no bool (one
    # comparison, where a type test costs a call); struct refuses the rest
    return f"({x} > 1 or type({x}) is int)"


def _is_float(x: str, _: Namer) -> str:
    return f"type({x}) is float"


def _range_unpack(lo: int, hi: int, shift: int) -> Any:
    def unpack(raw: int) -> int:
        value = raw + shift
        if not lo <= value <= hi:
            raise DecodeError("invalid_int", f"{value} is out of range [{lo}, {hi}]")
        return value

    return unpack


def _range_pack(check: Callable[[Any], None], lo: int, hi: int, shift: int) -> Any:
    def pack(value: Any) -> Any:
        if type(value) is not int or not lo <= value <= hi:
            check(value)  # raises the precise error (or accepts an int subclass)
        return value - shift

    return pack


_DECIMAL = re.compile(r"-?(?:0|[1-9][0-9]*)\Z")


def parse_decimal(json: JsonValue, what: str) -> int:
    """A canonical decimal string (no sign but ``-``, no leading zero, no ``-0``)."""
    if type(json) is not str:
        raise wrong_type(f"a decimal string ({what})", json)
    if not _DECIMAL.match(json) or json == "-0":
        raise JsonError(
            "invalid_decimal",
            f"{json[:40]!r} is not a canonical decimal integer ({what})",
        )
    try:
        return int(json)
    except ValueError:  # more digits than Python converts (sys.int_max_str_digits)
        raise JsonError("out_of_range", f"decimal string too long ({len(json)} digits)") from None


def decimal_from_json(lo: int | None, hi: int | None, what: str) -> FromJson:
    def from_json(json: JsonValue) -> int:
        value = parse_decimal(json, what)
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            bounds = f" [{lo}, {hi}]" if hi is not None else f" (at least {lo})"
            raise JsonError("out_of_range", f"{value} is out of range for {what}{bounds}")
        return value

    return from_json


int8 = Int("int8", "b", -128, 127)
uint8 = Int("uint8", "B", 0, 255)
int16 = Int("int16", "h", -(2**15), 2**15 - 1)
uint16 = Int("uint16", "H", 0, 2**16 - 1)
int31 = Int("int31", "i", INT31_MIN, INT31_MAX)
"""4 bytes, signed, -2^30 .. 2^30-1 (OCaml's native ``int`` on the wire)."""
uint30 = Int("uint30", "I", 0, UINT30_MAX)
"""4 bytes, unsigned, 0 .. 2^30-1 (the width of length headers)."""
int32 = Int("int32", "i", -(2**31), 2**31 - 1)
int64 = Int("int64", "q", -(2**63), 2**63 - 1, json_string=True)
"""8 bytes; JSON: a decimal string, because JSON numbers lose precision past 2^53."""


class RangedInt(Int):
    """``ranged_int(lo, hi)``: see :func:`ranged_int`."""

    def __init__(self, lo: int, hi: int) -> None:
        expect(lo, int, "ranged_int", "the bounds are ints")
        expect(hi, int, "ranged_int", "the bounds are ints")
        if not INT31_MIN <= lo <= hi <= INT31_MAX:
            raise DefinitionError(
                f"ranged_int({lo}, {hi}): bounds must satisfy "
                f"{INT31_MIN} <= lo <= hi <= {INT31_MAX}"
            )
        self.lo, self.hi = lo, hi
        if lo < 0:
            fmt = "b" if lo >= -128 and hi <= 127 else "h" if lo >= -32768 and hi <= 32767 else "i"
            shift = 0
        else:
            span = hi - lo
            fmt = "B" if span <= 255 else "H" if span <= 65535 else "I"
            shift = lo
        self.shift = shift
        self.kind = "ranged_int"
        self.json_string = False
        name = "ranged_int"
        check = int_check(lo, hi, name)
        pack = _range_pack(check, lo, hi, shift)
        atom = Atom(fmt, struct.calcsize(">" + fmt), check, pack, _range_unpack(lo, hi, shift))
        AtomEncoding.__init__(self, atom, name)

    def _rebuild(self) -> tuple[Any, ...]:
        return (RangedInt, (self.lo, self.hi))


@combinator
def ranged_int(lo: int, hi: int) -> RangedInt:
    """An integer in ``[lo, hi]`` (both within int31), stored in the smallest width.

    When ``lo >= 0`` the stored value is ``v - lo``, unsigned, in 1, 2 or 4 bytes
    depending on ``hi - lo``; otherwise ``v`` itself in int8, int16 or int31.
    JSON: a number.

    >>> ranged_int(1000, 60000).encode(1000).hex(), ranged_int(-200, 200).encode(-200).hex()
    ('0000', 'ff38')
    """
    return RangedInt(lo, hi)


# ---------------------------------------------------------------- floats


def _fits_double(value: Any) -> bool:
    """Whether ``float(value)`` works (an integer may be too large)."""
    try:
        float(value)
    except OverflowError:
        return False
    return True


class Float(AtomEncoding[float]):
    def __init__(self, lo: float | None = None, hi: float | None = None) -> None:
        self.lo, self.hi = lo, hi
        name = "float" if lo is None else f"ranged_float [{lo}, {hi}]"
        ranged = lo is not None and hi is not None

        def check(value: Any) -> None:
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise wrong_value_type("a float", value)
            if type(value) is not float and not _fits_double(value):
                raise EncodeError("out_of_range", f"{describe_value(value)} does not fit a double")
            if ranged and not lo <= value <= hi:  # type: ignore[operator]
                raise EncodeError(
                    "invalid_float", f"{describe_value(value)} is out of range for {name}"
                )

        unpack = None
        if ranged:

            def unpack(raw: float) -> float:
                if not lo <= raw <= hi:  # type: ignore[operator]
                    raise DecodeError("invalid_float", f"{raw} is out of range for {name}")
                return raw

        if ranged:
            atom = Atom("d", 8, check, checked(check, float), unpack)
        else:  # a bool is a number to struct: only a float goes to it unchecked
            atom = Atom("d", 8, check, checked(check, float), None, _is_float, exact=float)
        super().__init__(atom, name)

    def _rebuild(self) -> tuple[Any, ...]:
        return (Float, (self.lo, self.hi))


float_: Float = Float()
"""8 bytes, an IEEE-754 double, big-endian; JSON: a number (finite)."""


@combinator
def ranged_float(lo: float, hi: float) -> Float:
    """A double in ``[lo, hi]``: 8 bytes; checked when writing and when reading."""
    expect(lo, (int, float), "ranged_float", "the bounds are numbers")
    expect(hi, (int, float), "ranged_float", "the bounds are numbers")
    if not (math.isfinite(lo) and math.isfinite(hi) and lo <= hi):
        raise DefinitionError(f"ranged_float({lo}, {hi}): bounds must be finite with lo <= hi")
    return Float(float(lo), float(hi))


publish(__name__, globals())  # the encodings above pickle by reference
