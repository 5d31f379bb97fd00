"""JSON values as Python objects, and a strict JSON text reader.

A JSON value is ``None``, ``bool``, ``int``, ``float``, ``str``, ``list`` or
``dict`` with ``str`` keys — exactly what :func:`json.loads` produces, of
exactly those types: ``from_json`` and ``encode_json`` refuse a subclass of
one (a ``str`` subclass, an ``IntEnum``, an ``OrderedDict``) with
``wrong_type``, naming its class; only the ``json`` encoding, whose values
are JSON, takes it.

:func:`loads` is stricter than :func:`json.loads`: it rejects ``NaN`` and
``Infinity`` (not JSON), reads bytes as UTF-8 only, and remembers duplicate
object keys. A duplicate is reported by ``from_json`` with the path where it
occurs, because the parser itself does not know paths: the object is
returned as a :class:`DuplicateKeys` dict, which no encoding accepts as an
object.

>>> loads('{"a": 1, "b": [true, null]}')
{'a': 1, 'b': [True, None]}
>>> type(loads('{"a": 1, "a": 2}')).__name__
'DuplicateKeys'
"""

from __future__ import annotations

import codecs
import json
import sys
from functools import cache
from typing import TypeAlias, TypeVar

from .errors import DataEncodingError, JsonError

E = TypeVar("E", bound=DataEncodingError)

JsonValue: TypeAlias = bool | int | float | str | list["JsonValue"] | dict[str, "JsonValue"] | None


def has_decimal_form(value: int) -> bool:
    """Whether Python can print the integer (``sys.get_int_max_str_digits()``)."""
    limit = sys.get_int_max_str_digits()
    return limit == 0 or abs(value) < _power_of_ten(limit)


@cache
def _power_of_ten(k: int) -> int:
    return int(10**k)  # k >= 0: an int (mypy types int ** int as Any)


class DuplicateKeys(dict[str, JsonValue]):
    """An object in which ``key`` appeared more than once (the last value is kept)."""

    duplicate: str

    def __init__(self, pairs: list[tuple[str, JsonValue]], duplicate: str) -> None:
        super().__init__(pairs)
        self.duplicate = duplicate

    def error(self, cls: type[E]) -> E:
        """The error for this object where an object is expected: at the
        member given twice."""
        err = cls("duplicate_field", f"duplicate member {self.duplicate!r}")
        err.within(self.duplicate)
        return err


def _object(pairs: list[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                return DuplicateKeys(pairs, key)
            seen.add(key)
    return result


def _reject_constant(name: str) -> JsonValue:
    raise JsonError("invalid_json", f"{name} is not a JSON number")


JsonText: TypeAlias = str | bytes | bytearray | memoryview
"""JSON text: a ``str``, or its UTF-8 bytes."""

_BOM = "JSON text begins with a byte order mark, which RFC 8259 forbids"


def loads(text: JsonText) -> JsonValue:
    """Parse JSON text strictly; raises :class:`JsonError`.

    ``text`` is a ``str``, or bytes (``bytes``, ``bytearray``,
    ``memoryview``) of UTF-8 with no byte order mark, as RFC 8259 (8.1) has
    JSON exchanged: ``json.loads`` would also read UTF-16 and UTF-32 and
    skip a byte order mark, so that one value had several spellings. The
    codes: ``wrong_type`` for anything else; ``invalid_utf8`` for bytes that
    are not such UTF-8, at the byte at fault (its ``offset``);
    ``invalid_json`` for text that does not parse (``NaN`` and
    ``Infinity`` included, and a ``str`` that begins with a byte order mark,
    U+FEFF).
    """
    if not isinstance(text, str):
        text = _utf8_text(text)
    elif text.startswith("\ufeff"):  # no JSON whitespace (json.loads advises utf-8-sig)
        raise JsonError("invalid_json", f"{_BOM}: U+FEFF")
    try:
        value: JsonValue = json.loads(
            text, object_pairs_hook=_object, parse_constant=_reject_constant
        )
    except JsonError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonError("invalid_json", f"not valid JSON: {exc}") from None
    return value


def _utf8_text(data: object) -> str:
    """The text of JSON bytes, strictly UTF-8 (see :func:`loads`)."""
    if isinstance(data, memoryview):  # its bytes, as ``decode`` reads them
        data = data.cast("B") if data.c_contiguous else bytes(data)
    elif not isinstance(data, bytes | bytearray):
        raise JsonError(
            "wrong_type",
            f"expected JSON text (str, bytes, bytearray or memoryview), got {type(data).__name__}",
        )
    if data[:3] == codecs.BOM_UTF8:
        raise JsonError("invalid_utf8", f"{_BOM}: EF BB BF", offset=0)
    # JSON text begins with ASCII (whitespace, or a value's first character):
    # a NUL there is UTF-16's or UTF-32's (the test json.loads makes)
    for i, byte in enumerate(data[:2]):
        if byte == 0:
            raise JsonError(
                "invalid_utf8",
                "JSON text is UTF-8, not UTF-16 or UTF-32: a NUL byte at its start",
                offset=i,
            )
        if byte >= 0x80:  # not ASCII: the decoder says what is wrong
            break
    try:
        return str(data, "utf-8")
    except UnicodeDecodeError as exc:
        raise JsonError(
            "invalid_utf8", f"JSON text is not UTF-8: {exc.reason}", offset=exc.start
        ) from None


def dumps(value: JsonValue, *, indent: int | None = None) -> str:
    """Print a JSON value (UTF-8 kept as is, no NaN: they are never produced)."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
