"""JSON values as Python objects, and a strict JSON text reader.

A JSON value is ``None``, ``bool``, ``int``, ``float``, ``str``, ``list`` or
``dict`` with ``str`` keys — what :func:`json.loads` produces — except that
an object giving a member name twice is a :class:`RepeatedMembers`, which
keeps every member in order.

:func:`loads` is stricter than :func:`json.loads`: it rejects ``NaN`` and
``Infinity`` (not JSON), and it keeps repeated members where ``json.loads``
keeps the last. The ``json`` encoding (any JSON) takes such an object as it
is; a record refuses it with the path of the member given twice, which
``from_json`` knows and the parser does not.

>>> loads('{"a": 1, "b": [true, null]}')
{'a': 1, 'b': [True, None]}
>>> loads('{"a": 1, "a": 2}')
RepeatedMembers([('a', 1), ('a', 2)])
"""

from __future__ import annotations

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


def _reject_constant(name: str) -> JsonValue:
    raise JsonError("invalid_json", f"{name} is not a JSON number")


def loads(text: str | bytes) -> JsonValue:
    """Parse JSON text strictly; raises :class:`JsonError` (code ``invalid_json``)."""
    try:
        value: JsonValue = json.loads(
            text, object_pairs_hook=json_object, parse_constant=_reject_constant
        )
    except JsonError:
        raise
    except (ValueError, RecursionError) as exc:
        raise JsonError("invalid_json", f"not valid JSON: {exc}") from None
    return value


def dumps(value: JsonValue, *, indent: int | None = None) -> str:
    """Print a JSON value (UTF-8 kept as is, no NaN: they are never produced)."""
    if indent is None:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
