"""The exact JSON converters: one printer and one reader per node, built
from closures; the one place JSON errors are built, with their paths. The
dispatching functions and the leaves' converters are here; the composites'
are :mod:`.composites`'.

A composite's converter reaches its parts' through a :class:`Via`: their
exact converters, or their fast ones (:mod:`.fast` builds the fast
variant of a composite that is not generated this way). A wrapper whose JSON
form and values are another node's takes that node's converters
(:func:`same_converters`, the ``converters`` column of
:data:`~data_encoding.passes.transparent.TABLE`): not a ``conv``, which
changes values, nor a :class:`~data_encoding.tree.wrappers.DirectJson`,
which brings its own.

How a union recognises its cases' JSON is :mod:`..choosing`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

from ...errors import EncodeError, JsonError, describe_value
from ...jsonvalue import JsonValue
from ...tree.anyjson import Bson, check_json
from ...tree.core import Encoding, FromJson, ToJson
from ...tree.leaves import checked, wrong_type
from ...tree.primitives import Bool, Float, Int, ZeroWidth, decimal_from_json
from ...tree.strings import (
    RawBytes,
    hex_from_json,
    text_of,
    unistring_from_json,
    unistring_to_json,
    utf8_of_json,
    wrong_length,
)
from ...tree.unions import StringEnum
from ...tree.zarith import Zarith, check_number
from ..dispatch import takes_default
from ..transparent import seen_through

__all__ = ["Via", "exact_from", "exact_to", "same_converters"]


@dataclass(frozen=True)
class Via:
    """How a composite's converter reaches its parts' converters, and the
    keys its own are kept under (a recursive encoding publishes its function
    there before its body is built)."""

    to_key: str
    from_key: str
    to: Callable[[Encoding[Any]], ToJson]
    from_: Callable[[Encoding[Any]], FromJson]
    then: Via | None
    """The variant a union hands a value to when the case it tried fails
    (``None`` for the exact variant, which tries the next cases itself).
    The fast variant's errors do not say where a case failed, which a union
    needs to skip the cases that would fail alike
    (:func:`..choosing.first_case`): tried by it, the cases of a recursive
    union would take time exponential in the depth."""


def same_converters(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose converters ``e`` uses as its own, when it is a wrapper
    of the same JSON form and the same values: the ``converters`` column of
    :data:`~data_encoding.passes.transparent.TABLE`."""
    return seen_through(e, "converters")


@takes_default({}, through="converters")
@singledispatch
def exact_to(e: Encoding[Any], via: Via) -> ToJson:
    """The exact printer of ``e``, reaching its parts' through ``via``."""
    inner = same_converters(e)
    if inner is None:
        raise NotImplementedError(f"no JSON printer for {type(e).__name__}")
    return via.to(inner)


@takes_default({}, through="converters")
@singledispatch
def exact_from(e: Encoding[Any], via: Via) -> FromJson:
    """The exact reader of ``e``, reaching its parts' through ``via``."""
    inner = same_converters(e)
    if inner is None:
        raise NotImplementedError(f"no JSON reader for {type(e).__name__}")
    return via.from_(inner)


@exact_to.register
def _zero_width_to(e: ZeroWidth, via: Via) -> ToJson:
    check = e.atom.check
    json = e.json_value

    def to_json(value: Any) -> JsonValue:
        check(value)
        return {} if isinstance(json, dict) else json  # a fresh {} each time

    return to_json


@exact_from.register
def _zero_width_from(e: ZeroWidth, via: Via) -> FromJson:
    json_matches, make, expected = e.json_matches, e.atom.unpack, e.expected
    assert make is not None

    def from_json(json: JsonValue) -> Any:
        if not json_matches(json):
            raise wrong_type(expected, json)
        return make(None)

    return from_json


@exact_to.register
def _bool_to(e: Bool, via: Via) -> ToJson:
    check = e.atom.check

    def to_json(value: Any) -> JsonValue:
        check(value)
        return bool(value)

    return to_json


@exact_from.register
def _bool_from(e: Bool, via: Via) -> FromJson:
    def from_json(json: JsonValue) -> bool:
        if type(json) is not bool:
            raise wrong_type("a boolean", json)
        return json

    return from_json


@exact_to.register
def _int_to(e: Int, via: Via) -> ToJson:
    check = e.atom.check
    if not e.json_string:
        return checked(check, int)

    def to_json(value: Any) -> JsonValue:
        check(value)
        return str(int(value))

    return to_json


@exact_from.register
def _int_from(e: Int, via: Via) -> FromJson:
    if e.json_string:
        return decimal_from_json(e.lo, e.hi, e.kind)
    return _int_from_json(e.lo, e.hi, e.kind)


def _int_from_json(lo: int, hi: int, name: str) -> Callable[[JsonValue], int]:
    def from_json(json: JsonValue) -> int:
        if type(json) is not int:
            raise wrong_type(f"an integer ({name})", json)
        if not lo <= json <= hi:
            raise JsonError(
                "out_of_range", f"{describe_value(json)} is out of range for {name} [{lo}, {hi}]"
            )
        return json

    return from_json


@exact_to.register
def _float_to(e: Float, via: Via) -> ToJson:
    check = e.atom.check

    def to_json(value: Any) -> JsonValue:
        check(value)
        result = float(value)
        if not math.isfinite(result):
            raise EncodeError("not_json", f"{result} has no JSON form (not a finite number)")
        return result

    return to_json


@exact_from.register
def _float_from(e: Float, via: Via) -> FromJson:
    lo, hi, name = e.lo, e.hi, e.what

    def from_json(json: JsonValue) -> float:
        if type(json) is not float and type(json) is not int:
            raise wrong_type("a number", json)
        try:
            value = float(json)
        except OverflowError:
            raise JsonError(
                "out_of_range", f"{describe_value(json)} does not fit a double"
            ) from None
        if not math.isfinite(value):  # no JSON number is; to_json would refuse it
            raise JsonError("not_json", f"{value} is not a JSON number")
        if lo is not None and hi is not None and not lo <= value <= hi:
            raise JsonError("out_of_range", f"{describe_value(json)} is out of range for {name}")
        return value

    return from_json


@exact_to.register
def _zarith_to(e: Zarith, via: Via) -> ToJson:
    natural = e.natural

    def to_json(value: Any) -> JsonValue:
        check_number(value, natural)
        try:
            return str(int(value))
        except ValueError:  # beyond sys.int_max_str_digits
            raise EncodeError("out_of_range", "number too large to print in decimal") from None

    return to_json


@exact_from.register
def _zarith_from(e: Zarith, via: Via) -> FromJson:
    return decimal_from_json(0 if e.natural else None, None, "n" if e.natural else "z")


def _too_long(cls: type[EncodeError] | type[JsonError], limit: int, found: int) -> Any:
    return cls("too_long", f"{found} bytes where at most {limit} are allowed")


@exact_to.register
def _raw_bytes_to(e: RawBytes, via: Via) -> ToJson:
    to_bytes, limit, text, length = e.to_bytes, e.plain_json_limit, e.text, e.exact_length

    def to_json(value: Any) -> JsonValue:
        raw = to_bytes(value)
        if length is not None and len(raw) != length:
            raise wrong_length(EncodeError, length, len(raw))
        if limit is not None and len(raw) > limit:
            raise _too_long(EncodeError, limit, len(raw))
        if not text:
            return raw.hex()
        if limit is not None and type(text_of(raw)) is not str:
            raise EncodeError("not_json", "a bounded string's JSON form must be UTF-8")
        return unistring_to_json(raw)

    return to_json


@exact_from.register
def _raw_bytes_from(e: RawBytes, via: Via) -> FromJson:
    text, limit, length = e.text, e.plain_json_limit, e.exact_length

    def from_json(json: JsonValue) -> Any:
        if not text:
            value: Any = hex_from_json(json)
            raw = value
        elif limit is not None:
            if type(json) is not str:
                raise wrong_type("a string", json)
            value, raw = json, utf8_of_json(json)
        else:
            value = unistring_from_json(json)
            raw = value if type(value) is bytes else utf8_of_json(value)
        if length is not None and len(raw) != length:
            raise wrong_length(JsonError, length, len(raw))
        if limit is not None and len(raw) > limit:
            raise _too_long(JsonError, limit, len(raw))
        return value

    return from_json


@exact_to.register
def _bson_to(e: Bson, via: Via) -> ToJson:
    def to_json(value: Any) -> JsonValue:
        check_json(value, EncodeError)
        return value  # type: ignore[no-any-return]

    return to_json


@exact_from.register
def _bson_from(e: Bson, via: Via) -> FromJson:
    def from_json(json: JsonValue) -> Any:
        check_json(json, JsonError)
        return json

    return from_json


@exact_to.register
def _string_enum_to(e: StringEnum, via: Via) -> ToJson:
    strings, pack = e.strings, e.atom.pack
    assert pack is not None

    def to_json(value: Any) -> JsonValue:
        index: int = pack(value)
        return strings[index]

    return to_json


@exact_from.register
def _string_enum_from(e: StringEnum, via: Via) -> FromJson:
    by_name = e.by_name
    expected = ", ".join(repr(s) for s in e.strings[:8])

    def from_json(json: JsonValue) -> Any:
        if type(json) is not str:
            raise wrong_type("a string", json)
        try:
            return by_name[json]
        except KeyError:
            raise JsonError("no_case_matched", f"{json[:40]!r} is not one of {expected}") from None

    return from_json
