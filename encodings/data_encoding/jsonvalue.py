"""JSON values as Python objects, and a strict JSON text reader.

A JSON value is ``None``, ``bool``, ``int``, ``float``, ``str``, ``list`` or
``dict`` with ``str`` keys — what :func:`json.loads` produces, of exactly
those types — except that an object giving a member name twice is a
:class:`RepeatedMembers`, which keeps every member in order. ``from_json``
and ``encode_json`` refuse a subclass of a JSON type (a ``str`` subclass, an
``IntEnum``, an ``OrderedDict``) with ``wrong_type``, naming its class; only
the ``json`` encoding, whose values are JSON, takes it.

:func:`loads` is stricter than :func:`json.loads`: it rejects ``NaN`` and
``Infinity`` (not JSON), reads bytes as UTF-8 only, and keeps repeated
members where ``json.loads`` keeps the last. The ``json`` encoding (any
JSON) takes such an object as it is; a record refuses it with the path of
the member given twice, which ``from_json`` knows and the parser does not.

>>> loads('{"a": 1, "b": [true, null]}')
{'a': 1, 'b': [True, None]}
>>> loads('{"a": 1, "a": 2}')
RepeatedMembers([('a', 1), ('a', 2)])
"""

from __future__ import annotations

import codecs
import json
import sys
from collections.abc import Iterable, Sequence
from functools import cache
from typing import NoReturn, TypeAlias, TypeVar

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


class RepeatedMembers(dict[str, JsonValue]):
    """A JSON object that gives a member name more than once, kept as it was read.

    JSON (RFC 8259, section 4) allows an object to repeat a name, and real
    node answers do (the 2022 ``/describe`` answers give one object the member
    ``"kind"`` twice). The reference keeps an object as its list of members,
    so it reads, prints and writes such an object exactly; so does this type,
    the one representation of such an object (every other object is a plain
    ``dict``, see :func:`json_object`):

    * ``members`` is every member, in order, and so is ``items()``: that is
      what :func:`json.dumps` (and :func:`dumps`) print, so the object prints
      back as it was read;
    * as a mapping (``value[name]``, ``in``, ``len``, iteration) it holds the
      last value of each name, as :func:`json.loads` does;
    * it equals only an object with the same members in the same order, never
      a ``dict`` (the two have different texts and bytes);
    * it is read-only (``copy()`` and pickling keep every member).

    The ``json`` encoding (any JSON) takes it and writes every member to BSON,
    which reads back to it; a record (``obj``) refuses it, with the error
    :meth:`error` builds.

    >>> value = loads('{"kind": "a", "n": 1, "kind": "b"}')
    >>> value
    RepeatedMembers([('kind', 'a'), ('n', 1), ('kind', 'b')])
    >>> value["kind"], dumps(value)
    ('b', '{"kind":"a","n":1,"kind":"b"}')
    """

    members: tuple[tuple[str, JsonValue], ...]
    repeated: str
    """The first name given twice."""

    def __init__(self, members: Iterable[tuple[str, JsonValue]]) -> None:
        pairs = tuple(members)
        super().__init__(pairs)
        if len(self) == len(pairs):
            raise ValueError("no member name is repeated: a dict holds these members")
        seen: set[str] = set()
        for name, _ in pairs:
            if name in seen:
                break
            seen.add(name)
        self.members = pairs
        self.repeated = name

    def items(self) -> Iterable[tuple[str, JsonValue]]:  # type: ignore[override]
        """Every member, in order (what ``json.dumps`` prints)."""
        return self.members

    def error(self, cls: type[E]) -> E:
        """The error for this object where a record is expected: at the
        member given twice."""
        err = cls("duplicate_field", f"duplicate member {self.repeated!r}")
        err.within(self.repeated)
        return err

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RepeatedMembers):
            return self.members == other.members
        return False if isinstance(other, dict) else NotImplemented

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self.members)!r})"

    def __reduce__(self) -> tuple[type[RepeatedMembers], tuple[list[tuple[str, JsonValue]]]]:
        return (RepeatedMembers, (list(self.members),))

    def copy(self) -> RepeatedMembers:
        return self  # read-only: a copy would be the same object

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a RepeatedMembers is read-only: build another from its members")

    __setitem__ = __delitem__ = __ior__ = _read_only
    update = setdefault = pop = popitem = clear = _read_only


def json_object(members: Sequence[tuple[str, JsonValue]]) -> dict[str, JsonValue]:
    """The JSON object of ``members``: a ``dict``, or a
    :class:`RepeatedMembers` when a name is given twice."""
    result = dict(members)
    return result if len(result) == len(members) else RepeatedMembers(members)


_JSON_TYPE_NAMES: dict[type, str] = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    dict: "object",
    list: "array",
}


def json_type_name(value: object) -> str | None:
    """The JSON name of ``value``'s type (``"string"``, ``"object"``, ...)
    when it is exactly a type :func:`json.loads` makes, else ``None``.

    The library's JSON readers take exactly those types: a subclass of one
    (an ``OrderedDict``, an ``IntEnum``) is not JSON to them. An object the
    strict parser read with a member given twice is an object.
    """
    name = _JSON_TYPE_NAMES.get(type(value))
    return "object" if name is None and type(value) is RepeatedMembers else name


def type_name(value: object) -> str:
    """The name of a value's type, for messages: its JSON name
    (:func:`json_type_name`), else its class's (``"bytes"``,
    ``"OrderedDict"``: "expected a hex string, got string" would contradict
    itself).

    >>> type_name("beef"), type_name(b"beef"), type_name(True)
    ('string', 'bytes', 'boolean')
    """
    return json_type_name(value) or type(value).__name__


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
            text, object_pairs_hook=json_object, parse_constant=_reject_constant
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
