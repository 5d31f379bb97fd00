"""BSON, the binary form of the ``json`` combinator (ocplib-json-typed ``Json_repr_bson``).

Integers are little-endian int32 and numbers little-endian float64.

* An object is a document: an int32 total length (counting itself and the
  final ``0x00``), its elements, then ``0x00``. An element is a type byte, the
  key as a NUL-terminated string, then the value: ``0x01`` double (8 bytes),
  ``0x02`` string (int32 UTF-8 byte count + 1, the bytes, ``0x00``), ``0x03``
  embedded document, ``0x04`` array (a document keyed ``"0"``, ``"1"``, ...),
  ``0x08`` bool (one byte ``0x00``/``0x01``) and ``0x0A`` null (no bytes).
  A key given twice is kept, with every member in order: the document reads
  back as the :class:`~data_encoding.jsonvalue.RepeatedMembers` it was
  written from, as in the reference.
* An array at the root is written as the document keyed ``"0"``, ``"1"``, ...
  Nothing marks it, so it reads back as an object, like in the reference.
* A scalar at the root is an int32 total length, its type byte ``| 0x80``, the
  value bytes (no key) and ``0x00``.
* Every number is a double. A decoded double that is integral and below
  ``2**53`` in magnitude comes back as an ``int``, any other as a ``float``.
  ``-0.0`` is the JSON number 0: it is written as ``0.0``.

Decoding is canonical: anything the encoder would not produce is rejected
(the double ``-0.0`` included), so bytes that decode are the encoding of
what they decode to. Given a list ``lenient``, it reads what the
reference (ocplib-json-typed) reads too, and sets ``lenient[0]`` when it
did: a double ``-0.0`` (read as 0), NaN or an infinity (read as such),
and strings and keys that are not UTF-8 (read with ``surrogateescape``,
the bytes kept as lone surrogates). Where the reference reads an empty
array (type ``0x04``) below the root as ``{}``, the type byte is kept: it
reads back as ``[]`` (an empty document, ``0x03``, reads as ``{}``).

>>> encode_bson({}).hex()
'0500000000'
>>> encode_bson("abc").hex()
'0e00000082040000006162630000'
>>> decode_bson(bytes.fromhex("1b000000013000000000000000f03f013100000000000000004000"), 0, 27)
{'0': 1, '1': 2}
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable
from typing import Any, NoReturn

from .. import depth
from ..errors import DataEncodingError, DecodeError, EncodeError, describe_value
from ..jsonvalue import JsonValue, RepeatedMembers, type_name

__all__ = ["decode_bson", "encode_bson"]

_INT32 = struct.Struct("<i")
_DOUBLE = struct.Struct("<d")
_MAX_INT32 = 2**31 - 1
# Beyond 2**53 a double no longer holds every integer, so it stays a float.
_EXACT = 2.0**53

_DOUBLE_TYPE = 0x01
_STRING_TYPE = 0x02
_DOCUMENT_TYPE = 0x03
_ARRAY_TYPE = 0x04
_BOOL_TYPE = 0x08
_NULL_TYPE = 0x0A
_ROOT_SCALAR = 0x80
_SCALAR_MARKERS = frozenset(
    t | _ROOT_SCALAR for t in (_DOUBLE_TYPE, _STRING_TYPE, _BOOL_TYPE, _NULL_TYPE)
)


# ---------------------------------------------------------------- encoding


def encode_bson(value: JsonValue) -> bytes:
    """The BSON bytes of a JSON value; raises :class:`EncodeError`."""
    out = bytearray()
    level = depth.level()
    try:
        if isinstance(value, dict | list):
            _write_value(out, value, level)
        else:
            # A scalar root: length, marker, bare value, terminator.
            out += b"\x00\x00\x00\x00\x00"
            out[4] = _write_value(out, value, level) | _ROOT_SCALAR
            out.append(0)
            _INT32.pack_into(out, 0, len(out))
    except RecursionError:
        raise EncodeError("too_deep", "JSON value is nested too deeply (or cyclic)") from None
    return bytes(out)


def _not_utf8(text: str, exc: UnicodeEncodeError, what: str) -> EncodeError:
    return EncodeError(
        "invalid_utf8",
        f"{what} {describe_value(text)} has a lone surrogate at index {exc.start} "
        "and cannot be written as UTF-8",
    )


def _past_int32(length: int, what: str) -> EncodeError:
    return EncodeError(
        "out_of_range", f"BSON {what} of {length} bytes does not fit an int32 length"
    )


def _write_value(out: bytearray, value: object, level: int) -> int:
    """Append the bytes of ``value`` (without type or key), an array or an
    object being ``level`` deep; return its BSON type."""
    if value is None:
        return _NULL_TYPE
    if isinstance(value, str):
        try:
            data = value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise _not_utf8(value, exc, "string") from None
        if len(data) >= _MAX_INT32:
            raise _past_int32(len(data) + 1, "string")
        out += _INT32.pack(len(data) + 1)
        out += data
        out.append(0)
        return _STRING_TYPE
    # bool before int: bool is an int subclass but has its own BSON type.
    if isinstance(value, bool):
        out.append(1 if value else 0)
        return _BOOL_TYPE
    if isinstance(value, int):
        try:
            exact = float(value) == value
        except OverflowError:
            exact = False
        if not exact:
            raise EncodeError(
                "out_of_range",
                f"integer {describe_value(value)} cannot be represented exactly as a double",
            )
        out += _DOUBLE.pack(float(value))
        return _DOUBLE_TYPE
    if isinstance(value, float):
        if not math.isfinite(value):
            raise EncodeError("not_json", f"number {describe_value(value)} is not a JSON value")
        out += _DOUBLE.pack(value or 0.0)  # -0.0 is the number 0: one encoding
        return _DOUBLE_TYPE
    if isinstance(value, dict):
        _write_document(out, value.items(), level, keyed=True)  # a RepeatedMembers: all
        return _DOCUMENT_TYPE
    if isinstance(value, list):
        _write_document(out, enumerate(value), level, keyed=False)
        return _ARRAY_TYPE
    raise EncodeError(
        "not_json", f"a {type_name(value)} is not a JSON value: {describe_value(value)}"
    )


def _write_document(
    out: bytearray, items: Iterable[tuple[Any, object]], level: int, *, keyed: bool
) -> None:
    if level >= depth.max_depth():
        raise depth.past_depth_limit(EncodeError)
    start = len(out)
    out += b"\x00\x00\x00\x00"
    for key, item in items:
        if not keyed:
            key_bytes = str(key).encode("ascii")
        elif not isinstance(key, str):
            raise EncodeError(
                "not_json",
                f"object key {describe_value(key)} is a {type_name(key)}, not a string",
            )
        elif "\x00" in key:
            raise EncodeError(
                "invalid_bson",
                f"object key {describe_value(key)} contains NUL, which a BSON key cannot hold",
            )
        else:
            try:
                key_bytes = key.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise _not_utf8(key, exc, "object key") from None
        type_pos = len(out)
        out.append(0)  # type byte, patched once the value is written
        out += key_bytes
        out.append(0)
        try:
            out[type_pos] = _write_value(out, item, level + 1)
        except DataEncodingError as err:  # placed at the member, as to_json places it
            raise err.within(key) from None
    out.append(0)
    length = len(out) - start
    if length > _MAX_INT32:
        raise _past_int32(length, "document")
    _INT32.pack_into(out, start, length)


# ---------------------------------------------------------------- decoding


def decode_bson(buf: bytes, start: int, end: int, lenient: list[bool] | None = None) -> JsonValue:
    """Decode the BSON value that fills exactly ``buf[start:end]``; with
    ``lenient``, as the reference reads it (see the module documentation).

    Raises :class:`DecodeError` whose ``offset`` is an index into ``buf``.
    """
    if not 0 <= start <= end <= len(buf):
        raise DecodeError(
            "not_enough_data",
            f"BSON range {start}..{end} is outside the {len(buf)}-byte input",
            offset=min(max(start, 0), len(buf)),
        )
    if end - start < 4:
        raise DecodeError(
            "not_enough_data",
            f"BSON value needs a 4-byte length, only {end - start} bytes left",
            offset=start,
        )
    total: int = _INT32.unpack_from(buf, start)[0]
    if total != end - start:
        raise DecodeError(
            "invalid_bson",
            f"BSON length field says {total} bytes but the value has {end - start}",
            offset=start,
        )
    if total < 5:
        raise DecodeError(
            "invalid_bson", f"BSON length {total} is less than the minimum of 5", offset=start
        )
    try:
        marker = buf[start + 4]
        # Element types are below 0x80, so a set high bit can only start a scalar root.
        level = depth.level()
        if marker & _ROOT_SCALAR:
            return _read_root_scalar(buf, marker, start + 4, end, level, lenient)
        return _read_document(buf, start, end, end, level, lenient, array=False)[0]
    except RecursionError:
        raise DecodeError(
            "too_deep", "BSON documents are nested too deeply to decode", offset=start
        ) from None


def _read_root_scalar(
    buf: bytes, marker: int, pos: int, end: int, level: int, lenient: list[bool] | None
) -> JsonValue:
    if marker not in _SCALAR_MARKERS:
        raise DecodeError(
            "invalid_bson", f"unknown BSON root scalar marker 0x{marker:02x}", offset=pos
        )
    last = end - 1
    value, after = _read_value(buf, marker & ~_ROOT_SCALAR, pos, pos + 1, last, end, level, lenient)
    if after != last:
        raise DecodeError(
            "invalid_bson",
            f"{_count(last - after)} after the BSON root scalar",
            offset=after,
        )
    if buf[last] != 0:
        raise DecodeError("invalid_bson", "BSON value does not end with a 0x00 byte", offset=last)
    return value


def _count(n: int) -> str:
    return f"{n} unexpected {'byte' if n == 1 else 'bytes'}"


def _overrun(field: int, need: int, limit: int, end: int, what: str) -> NoReturn:
    """Raise for ``what`` (starting at ``field``) needing bytes up to ``need`` > ``limit``."""
    if need > end:
        raise DecodeError("not_enough_data", f"{what} runs past the end of the input", offset=field)
    raise DecodeError(
        "invalid_bson", f"{what} runs past the end of its enclosing document", offset=field
    )


def _read_document(
    buf: bytes,
    pos: int,
    limit: int,
    end: int,
    level: int,
    lenient: list[bool] | None,
    *,
    array: bool,
) -> tuple[JsonValue, int]:
    """Read the document at ``pos`` (``level`` deep), which must end by
    ``limit``; return it and its end."""
    if level >= depth.max_depth():
        raise depth.past_depth_limit(DecodeError, pos)
    if pos + 4 > limit:
        _overrun(pos, pos + 4, limit, end, "BSON document length")
    length: int = _INT32.unpack_from(buf, pos)[0]
    if length < 5:
        raise DecodeError(
            "invalid_bson",
            f"embedded BSON document length {length} is less than the minimum of 5",
            offset=pos,
        )
    stop = pos + length
    if stop > limit:
        _overrun(pos, stop, limit, end, "embedded BSON document")
    last = stop - 1  # where the terminator must be
    obj: dict[str, JsonValue] = {}
    items: list[JsonValue] = []
    members: list[tuple[str, JsonValue]] | None = None  # from the first name given twice
    p = pos + 4
    while p < last:
        kind = buf[p]
        if kind == 0:
            raise DecodeError(
                "invalid_bson",
                f"{_count(last - p)} after the terminator of a BSON document",
                offset=p + 1,
            )
        nul = buf.find(b"\x00", p + 1, last)
        if nul < 0:
            raise DecodeError(
                "invalid_bson", "BSON key is not terminated inside its document", offset=p + 1
            )
        try:
            key = buf[p + 1 : nul].decode("utf-8")
        except UnicodeDecodeError as exc:
            key = _read_not_utf8(buf, p + 1, nul, exc, "key", lenient)
        if array and key != str(len(items)):
            raise DecodeError(
                "invalid_bson",
                f"BSON array key {key!r} should be {str(len(items))!r}",
                offset=p + 1,
            )
        value, p = _read_value(buf, kind, p, nul + 1, last, end, level + 1, lenient)
        if array:
            items.append(value)
        elif members is not None:
            members.append((key, value))
        elif key in obj:
            members = [*obj.items(), (key, value)]
        else:
            obj[key] = value
    if buf[last] != 0:
        raise DecodeError(
            "invalid_bson", "BSON document does not end with a 0x00 byte", offset=last
        )
    if array:
        return items, stop
    return (obj if members is None else RepeatedMembers(members)), stop


def _read_value(
    buf: bytes,
    kind: int,
    type_pos: int,
    pos: int,
    limit: int,
    end: int,
    level: int,
    lenient: list[bool] | None,
) -> tuple[JsonValue, int]:
    """Read a value of BSON type ``kind`` at ``pos`` that must end by ``limit``."""
    if kind == _DOUBLE_TYPE:
        if pos + 8 > limit:
            _overrun(pos, pos + 8, limit, end, "BSON double")
        number: float = _DOUBLE.unpack_from(buf, pos)[0]
        if not math.isfinite(number):
            if lenient is None:
                raise DecodeError(
                    "invalid_bson", f"BSON double {number} is not a JSON number", offset=pos
                )
            lenient[0] = True
            return number, pos + 8
        if not number and math.copysign(1.0, number) < 0:
            if lenient is None:
                raise DecodeError(
                    "negative_zero",
                    "non-canonical BSON double: -0.0 (0 is written 0.0)",
                    offset=pos,
                )
            lenient[0] = True
            return 0, pos + 8
        if number.is_integer() and -_EXACT < number < _EXACT:
            return int(number), pos + 8
        return number, pos + 8
    if kind == _STRING_TYPE:
        if pos + 4 > limit:
            _overrun(pos, pos + 4, limit, end, "BSON string length")
        size: int = _INT32.unpack_from(buf, pos)[0]
        if size < 1:
            raise DecodeError(
                "invalid_bson", f"BSON string length {size} is less than 1", offset=pos
            )
        stop = pos + 4 + size
        if stop > limit:
            _overrun(pos, stop, limit, end, "BSON string")
        if buf[stop - 1] != 0:
            raise DecodeError(
                "invalid_bson", "BSON string does not end with a 0x00 byte", offset=stop - 1
            )
        try:
            return buf[pos + 4 : stop - 1].decode("utf-8"), stop
        except UnicodeDecodeError as exc:
            return _read_not_utf8(buf, pos + 4, stop - 1, exc, "string", lenient), stop
    if kind == _BOOL_TYPE:
        if pos + 1 > limit:
            _overrun(pos, pos + 1, limit, end, "BSON boolean")
        byte = buf[pos]
        if byte > 1:
            raise DecodeError(
                "invalid_bson", f"BSON boolean byte 0x{byte:02x} is not 0x00 or 0x01", offset=pos
            )
        return byte == 1, pos + 1
    if kind == _NULL_TYPE:
        return None, pos
    if kind == _DOCUMENT_TYPE:
        return _read_document(buf, pos, limit, end, level, lenient, array=False)
    if kind == _ARRAY_TYPE:
        return _read_document(buf, pos, limit, end, level, lenient, array=True)
    raise DecodeError(
        "invalid_bson", f"unknown or unsupported BSON element type 0x{kind:02x}", offset=type_pos
    )


def _read_not_utf8(
    buf: bytes,
    start: int,
    stop: int,
    exc: UnicodeDecodeError,
    what: str,
    lenient: list[bool] | None,
) -> str:
    """``buf[start:stop]`` (a key or a string), which ``exc`` says is not
    UTF-8: refused; leniently, its text with the bytes kept as lone surrogates."""
    if lenient is None:
        raise DecodeError(
            "invalid_bson", f"BSON {what} is not valid UTF-8", offset=start + exc.start
        ) from None
    lenient[0] = True
    return buf[start:stop].decode("utf-8", "surrogateescape")
