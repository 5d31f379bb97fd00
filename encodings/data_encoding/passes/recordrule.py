"""The record rule both codecs share: what is wrong with a record's value
or a tuple's, by its type and keys alone, whichever direction finds it.

``encode``, ``length`` and ``to_json`` refuse a record's dict by one rule
(:func:`key_error`), so that the binary and JSON codecs never disagree on
which error a wrong dict gets; a ``merge_objs`` or ``merge_tups`` operand
given by a ``conv`` is checked by :func:`spliced` on both reading sides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import DataEncodingError, DecodeError, EncodeError, JsonError, describe_value
from ..jsonvalue import RepeatedMembers
from ..tree.leaves import wrong_value_type
from ..tree.records import Part

__all__ = ["bad_arity", "key_error", "record_value_error", "spliced"]


def record_value_error(value: Any) -> EncodeError | None:
    """What is wrong with ``value``, by its type alone, as the value of a
    record: not a dict, or an object that gives a member twice (a
    :class:`RepeatedMembers`, whose mapping would lose a member); ``None``
    for a dict (its keys are :func:`key_error`'s)."""
    if isinstance(value, RepeatedMembers):
        return value.error(EncodeError)
    if not isinstance(value, dict):
        return wrong_value_type("a dict", value)
    return None


def key_error(
    parts: Sequence[Part],
    keys: frozenset[str],
    value: dict[Any, Any],
    cls: type[EncodeError] | type[JsonError] = EncodeError,
) -> DataEncodingError | None:
    """The one error for a record's dict (or JSON object) whose keys are not
    the record's, whichever direction finds it: the first key, in the value's
    order, that is no field; else the first required field, in field order,
    that is missing; ``None`` when the keys are right."""
    if isinstance(value, RepeatedMembers):
        return value.error(cls)
    for key in value:
        if key not in keys:
            return cls("unexpected_field", f"unexpected field {describe_value(key)}").within(key)
    for part in parts:
        if part.mode == "req" and part.key not in value:
            return cls("missing_field", f"missing field {part.key!r}").within(part.key)
    return None


def spliced(
    value: Any,
    part: Part,
    as_dict: bool,
    cls: type[DecodeError] | type[JsonError] = DecodeError,
) -> Any:
    """The value read for a spliced operand of ``merge_objs`` (``as_dict``: a
    dict of its fields) or ``merge_tups`` (a tuple of its elements), checked:
    a ``conv`` operand's function gives it, and nothing else may be merged."""
    if as_dict:
        if isinstance(value, dict) and value.keys() <= part.keys:
            return value
        what = "a dict of its fields"
    elif isinstance(value, tuple | list) and len(value) == part.arity:
        return value
    else:
        what = f"a tuple of its {part.arity} elements"
    into = "a record" if as_dict else "a tuple"
    raise cls(
        "user_function", f"a conversion merged into {into} gave {describe_value(value)}, not {what}"
    )


def bad_arity(
    expected: int, value: Any, cls: type[EncodeError] | type[JsonError] = EncodeError
) -> DataEncodingError:
    return cls(
        "wrong_length",
        f"expected a tuple of {expected} elements, got {len(value)}: {describe_value(value)}",
    )
