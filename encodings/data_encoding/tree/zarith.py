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

import re
from typing import Any

from ..errors import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    describe_value,
    index_of,
    not_enough_data,
)
from .core import Encoding, publish
from .leaves import is_integer, wrong_value_type
from .size import DYNAMIC

# Numbers of many 7-bit groups are converted whole, not one group at a time:
# up to 32 groups (7-bit *lanes*) are spread to one per byte, or packed back,
# with five mask-and-shift steps on one int, and the bytes come from a single
# ``int.to_bytes`` / ``int.from_bytes``. Longer numbers are cut into chunks of
# 32 lanes, joined (or split) by halves: linear in the chunks, n log n in bit
# operations, so an input of n bytes costs about n log n, never n^2 (masks
# as wide as the number, built and cached per size, once made a 1 MB number
# take minutes, and kept its memory). Short numbers take a loop, which is
# faster at that size.

_LOOP_GROUPS = 6
"""At most this many groups after the first byte: a per-group loop."""

_CHUNK = 32
"""Lanes converted by the five steps at once; longer numbers go by chunks."""


def _steps(lanes: int, spread: bool) -> tuple[tuple[int, int], ...]:
    """``(mask, shift)`` steps moving lane ``i`` from bit ``7i`` to ``8i`` (spread)
    or back (pack); ``lanes`` a power of two, fewer lanes work too (they are 0).

    Lane ``i`` moves by ``i`` bits, one bit of ``i`` per step: the highest bit
    first when spreading, the lowest first when packing, so that no lane
    ever runs into another.
    """
    bits = range((lanes - 1).bit_length())
    place = [(7 if spread else 8) * i for i in range(lanes)]
    steps = []
    for j in reversed(bits) if spread else bits:
        shift = 1 << j
        mask = 0
        for i in range(lanes):
            if i & shift:
                mask |= 0x7F << place[i]
                place[i] += shift if spread else -shift
        steps.append((mask, shift))
    return tuple(steps)


_S1, _S2, _S3, _S4, _S5 = (mask for mask, _ in _steps(_CHUNK, spread=True))
_P1, _P2, _P3, _P4, _P5 = (mask for mask, _ in _steps(_CHUNK, spread=False))
_MORE_BITS = [int.from_bytes(b"\x80" * (k - 1), "little") for k in range(_CHUNK + 1)]
"""``0x80`` in each of ``k`` bytes but the last (little-endian): continuation bits."""
_WITH_MORE = bytes(i | 0x80 for i in range(256))
"""``bytes.translate`` table setting continuation bits."""


def _spread32(h: int) -> int:
    """The (at most 32) 7-bit groups of ``h``, one per byte of the result."""
    t = h & _S1
    h += t * 65535
    t = h & _S2
    h += t * 255
    t = h & _S3
    h += t * 15
    t = h & _S4
    h += t * 3
    return h + (h & _S5)


def _pack32(lanes: bytes) -> int:
    """The value of (at most 32) 7-bit groups, one per byte, least significant first."""
    h = int.from_bytes(lanes, "little")
    h -= (h & _P1) >> 1
    t = h & _P2
    h -= t - (t >> 2)
    t = h & _P3
    h -= t - (t >> 4)
    t = h & _P4
    h -= t - (t >> 8)
    t = h & _P5
    return h - (t - (t >> 16))


def _lanes(h: int, k: int) -> bytes:
    """The ``k`` 7-bit groups of ``h``, one per byte, least significant first,
    without continuation bits: by halves down to chunks of :data:`_CHUNK`."""
    if k <= _CHUNK:
        return _spread32(h).to_bytes(k, "little")
    low = -(-k // 2 // _CHUNK) * _CHUNK  # a whole number of chunks, at least one
    return _lanes(h & ((1 << 7 * low) - 1), low) + _lanes(h >> 7 * low, k - low)


def _spread(h: int, k: int) -> bytes:
    """The ``k`` groups of ``h``, one per byte, least significant first, with
    continuation bits."""
    if k <= _CHUNK:
        return (_spread32(h) | _MORE_BITS[k]).to_bytes(k, "little")
    lanes = _lanes(h, k)
    return lanes[:-1].translate(_WITH_MORE) + lanes[-1:]


def _pack(lanes: bytes) -> int:
    """The value of 7-bit groups, one per byte (continuation bits cleared),
    least significant first: by chunks of :data:`_CHUNK`, joined by halves."""
    if len(lanes) <= _CHUNK:
        return _pack32(lanes)
    values = [_pack32(lanes[i : i + _CHUNK]) for i in range(0, len(lanes), _CHUNK)]
    width = 7 * _CHUNK
    while len(values) > 1:
        joined = [low | high << width for low, high in zip(values[::2], values[1::2], strict=False)]
        if len(values) % 2:
            joined.append(values[-1])
        values = joined
        width *= 2
    return values[0]


_LOW7 = bytes(i & 0x7F for i in range(256))
"""``bytes.translate`` table clearing continuation bits."""
_MORE = bytes(i >> 7 for i in range(256))
"""``bytes.translate`` table: 1 where a continuation bit is set, else 0."""


_LAST_BYTE = re.compile(b"[\x00-\x7f]")
"""A byte without continuation bit: the last of a number."""


def _end_of_number(buf: bytes, pos: int, end: int, what: str) -> int:
    """Index just past the last byte (the first one below 0x80)."""
    last = _LAST_BYTE.search(buf, pos, end)
    if last is None:
        raise DecodeError(
            "not_enough_data", f"not enough data: the {what} runs past the end", offset=pos
        )
    i = last.start()
    if buf[i] == 0 and i > pos:
        raise DecodeError(
            "trailing_zero", f"non-canonical {what}: its last byte is a redundant 0x00", offset=i
        )
    return i + 1


def _groups(buf: bytes, start: int, stop: int) -> int:
    """The value of the 7-bit groups ``buf[start:stop]``, least significant first."""
    if stop - start > _LOOP_GROUPS:
        return _pack(buf[start:stop].translate(_LOW7))
    value = 0
    shift = 0
    for byte in buf[start:stop]:
        value |= (byte & 0x7F) << shift
        shift += 7
    return value


_SHORT_BITS = 28
"""A number's 7-bit groups after its first byte are summed by a loop while
they hold fewer bits than this (the next three or four bytes: fees,
counters, gas, most amounts); a longer number's end is searched for."""


def _short_tail(buf: bytes, i: int, end: int, value: int, shift: int) -> tuple[int, int] | None:
    """``value`` (the first byte's bits, ``shift`` of them) with the groups
    from ``buf[i]`` on, and the index past the last, when the number ends
    within :data:`_SHORT_BITS` and its last byte is not a redundant 0x00
    (``None``: the caller's search says what the number is, or what is
    wrong with it)."""
    while i < end and shift < _SHORT_BITS:
        byte = buf[i]
        if byte < 0x80:
            return (value | (byte << shift), i + 1) if byte else None
        value |= (byte & 0x7F) << shift
        shift += 7
        i += 1
    return None


def read_n(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    if pos < end:
        byte = buf[pos]
        if byte < 0x80:  # one byte: 0 .. 127
            return byte, pos + 1
        short = _short_tail(buf, pos + 1, end, byte & 0x7F, 7)
        if short is not None:
            return short
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
    short = _short_tail(buf, pos + 1, end, first & 0x3F, 6)
    if short is not None:
        magnitude, stop = short
        return (-magnitude if first & 0x40 else magnitude), stop
    stop = _end_of_number(buf, pos, end, "integer")
    magnitude = (first & 0x3F) | (_groups(buf, pos + 1, stop) << 6)
    return (-magnitude if first & 0x40 else magnitude), stop


def write_n_bytes(value: int, out: bytearray) -> None:
    if value >= 1 << (7 * _LOOP_GROUPS):
        out += _spread(value, -(-value.bit_length() // 7))
        return
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def check_number(value: Any, natural: bool) -> None:
    """Raise the precise error for a value that is not a number of ``n`` (``natural``) or ``z``."""
    if not is_integer(value):
        raise wrong_value_type("an integer", value)
    if natural and value < 0:
        raise EncodeError(
            "negative_natural", f"{describe_value(value)} is negative: n holds naturals only"
        )


def write_n(out: bytearray, value: Any) -> None:
    check_number(value, True)
    write_n_bytes(value, out)


def write_z(out: bytearray, value: Any) -> None:
    check_number(value, False)
    magnitude = -value if value < 0 else value
    sign = 0x40 if value < 0 else 0
    if magnitude < 0x40:
        out.append(sign | magnitude)
        return
    out.append(0x80 | sign | (magnitude & 0x3F))
    write_n_bytes(magnitude >> 6, out)


def size_n(value: Any) -> int:
    check_number(value, True)
    return max(1, -(-int(value).bit_length() // 7))


def size_z(value: Any) -> int:
    check_number(value, False)
    return -(-(abs(int(value)).bit_length() + 1) // 7)


# ------------------------------------------------------------- whole lists


def write_many(out: bytearray, values: Any, natural: bool) -> None:
    """Append every number of ``values`` (a list of ``n`` or ``z``), as
    ``write_n``/``write_z`` would one by one (a loop of calls costs a third more)."""
    app = out.append
    low, shift0 = (127, 7) if natural else (63, 6)  # the first byte's magnitude bits
    looped = 1 << (7 * _LOOP_GROUPS)
    s1, s2, s3, s4, s5, more = _S1, _S2, _S3, _S4, _S5, _MORE_BITS
    for x in values:
        if type(x) is not int or (natural and x < 0):
            try:
                check_number(x, natural)
            except DataEncodingError as err:
                raise err.within(index_of(values, x)) from None
            x = int(x)  # an int subclass, a bool
        if x >= 0:
            m, s = x, 0
        else:
            m, s = -x, 64
        if m <= low:
            app(s | m)
            continue
        app(0x80 | s | (m & low))
        h = m >> shift0
        if h < 128:
            app(h)
        elif h < looped:
            while h >= 128:
                app(0x80 | (h & 127))
                h >>= 7
            app(h)
        else:
            k = -(-h.bit_length() // 7)
            if k <= 32:  # _spread, inlined: a call per number cost 3% of a list
                t = h & s1
                h += t * 65535
                t = h & s2
                h += t * 255
                t = h & s3
                h += t * 15
                t = h & s4
                h += t * 3
                h += h & s5
                out += (h | more[k]).to_bytes(k, "little")
            else:
                out += _spread(h, k)


def read_many(buf: bytes, pos: int, end: int, natural: bool) -> list[int]:
    """Every number of ``buf[pos:end]`` (``n`` or ``z``), as ``read_n``/``read_z``
    would one by one: the number boundaries are found for the whole frame at
    once, then each number is one slice."""
    segment = buf[pos:end]
    # len(run) = the bytes after each number's first byte
    runs = segment.translate(_MORE).split(b"\x00")
    leftover = runs.pop()  # what follows the last number's last byte
    lanes = segment.translate(_LOW7)
    # the first byte holds 7 bits of an n; 6 bits and the sign (0x40) of a z
    sign, low, shift0 = (0, 127, 7) if natural else (64, 63, 6)
    out: list[int] = []
    app = out.append
    from_bytes = int.from_bytes
    p1, p2, p3, p4, p5 = _P1, _P2, _P3, _P4, _P5
    i = 0
    try:
        for k in map(len, runs):
            c = segment[i]
            if k == 0:
                if c & sign:
                    if c == 0x40:
                        raise _Redo
                    app(-(c & 63))
                else:
                    app(c)
                i += 1
                continue
            stop = i + 1 + k
            last = segment[stop - 1]
            if not last:
                raise _Redo
            if k == 1:  # the commonest long form: no loop
                m = (c & low) | (last << shift0)
            elif k <= _LOOP_GROUPS:
                m = c & low
                shift = shift0
                for d in lanes[i + 1 : stop]:
                    m |= d << shift
                    shift += 7
            elif k <= 32:  # _pack, inlined: a call per number cost 5% of a list
                h = from_bytes(lanes[i + 1 : stop], "little")
                h -= (h & p1) >> 1
                t = h & p2
                h -= t - (t >> 2)
                t = h & p3
                h -= t - (t >> 4)
                t = h & p4
                h -= t - (t >> 8)
                t = h & p5
                m = (c & low) | ((h - (t - (t >> 16))) << shift0)
            else:
                m = (c & low) | (_pack(lanes[i + 1 : stop]) << shift0)
            app(-m if c & sign else m)
            i = stop
        if leftover:
            raise _Redo
    except _Redo:  # let the one-number reader say what is wrong, and where
        try:
            (read_n if natural else read_z)(buf, pos + i, end)
        except DataEncodingError as err:
            raise err.within(len(out)) from None
        raise AssertionError("a number read whole and alone disagree") from None
    return out


class _Redo(Exception):
    """A number is not canonical or runs past the end (read it alone to say how)."""


class Zarith(Encoding[int]):
    def __init__(self, natural: bool) -> None:
        self.natural = natural
        self.size = DYNAMIC

    def _rebuild(self) -> tuple[Any, ...]:
        return (Zarith, (self.natural,))


n: Zarith = Zarith(natural=True)
"""A natural number of any size (Zarith ``N``); JSON: a decimal string."""

z: Zarith = Zarith(natural=False)
"""An integer of any size (Zarith ``Z``); JSON: a decimal string."""


publish(__name__, globals())  # the encodings above pickle by reference
