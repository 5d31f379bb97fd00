"""The exact JSON converters: one printer and one reader per node, built
from closures; the one place JSON errors are built, with their paths.

A composite's converter reaches its parts' through a :class:`Via`: their
exact converters, or their fast ones (:mod:`.jsonform` builds the fast
variant of a composite that is not generated this way). A wrapper whose JSON
form and values are another node's takes that node's converters
(:func:`same_converters`, the ``converters`` column of
:data:`~data_encoding.passes.transparent.TABLE`): not a ``conv``, which
changes values, nor a :class:`~data_encoding.tree.wrappers.DirectJson`,
which brings its own.

How a union recognises its cases' JSON is :mod:`.choosing`'s.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial, singledispatch
from typing import Any

from ..depth import knot
from ..errors import DataEncodingError, EncodeError, JsonError, describe_value
from ..jsonvalue import JsonValue, RepeatedMembers
from ..tree.anyjson import Bson, check_json
from ..tree.core import Encoding, FromJson, Predicate, ToJson
from ..tree.leaves import checked, wrong_type, wrong_value_type
from ..tree.primitives import Bool, Float, Int, ZeroWidth, decimal_from_json
from ..tree.records import Obj, Tup
from ..tree.sequences import ListEncoding
from ..tree.strings import (
    RawBytes,
    hex_from_json,
    text_of,
    unistring_from_json,
    unistring_to_json,
    utf8_of_json,
    wrong_length,
)
from ..tree.unions import Case, Option, StringEnum, Union
from ..tree.wrappers import Conv, DirectJson, Mu, guard
from ..tree.zarith import Zarith, check_number
from .choosing import Member, first_case, json_member, json_selectors, member, value_selectors
from .dispatch import takes_default
from .leafjson import Bail
from .recordrule import bad_arity, key_error, record_value_error, spliced
from .transparent import seen_through

__all__ = ["Via", "exact_from", "exact_to", "json_checks", "same_converters"]


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
    (:func:`.choosing.first_case`): tried by it, the cases of a recursive
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


# ------------------------------------------------------------ records and tuples


def _check_keys(e: Obj, value: Any, cls: type[EncodeError] | type[JsonError]) -> None:
    err = key_error(e.parts, e.keys, value, cls)
    if err is not None:
        raise err


@exact_to.register
def _obj_to(e: Obj, via: Via) -> ToJson:
    parts = [(p, via.to(p.enc)) for p in e.parts]

    def to_json(value: Any) -> JsonValue:
        refused = record_value_error(value)
        if refused is not None:
            raise refused
        _check_keys(e, value, EncodeError)
        out: dict[str, JsonValue] = {}
        for p, convert in parts:
            key = p.key
            try:
                if p.mode == "splice":
                    sub = {k: x for k, x in value.items() if k in p.keys}
                    out.update(convert(sub))  # type: ignore[arg-type]
                elif p.mode == "req":
                    out[key] = convert(value[key])  # type: ignore[index]
                elif p.mode == "dft":
                    x = value.get(key, p.default)
                    json = convert(x)
                    if x != p.default:
                        out[key] = json  # type: ignore[index]
                else:
                    x = value.get(key)
                    if x is not None:
                        out[key] = convert(x)  # type: ignore[index]
            except DataEncodingError as err:
                raise (err if p.mode == "splice" else err.within(key)) from None
        return out

    return to_json


@exact_from.register
def _obj_from(e: Obj, via: Via) -> FromJson:
    parts = [(p, via.from_(p.enc)) for p in e.parts]

    def from_json(json: JsonValue) -> Any:
        if type(json) is not dict:
            if isinstance(json, RepeatedMembers):
                _check_keys(e, json, JsonError)
            raise wrong_type("an object", json)
        _check_keys(e, json, JsonError)
        out: dict[str, Any] = {}
        for p, convert in parts:
            key = p.key
            try:
                if p.mode == "splice":
                    sub = convert({k: x for k, x in json.items() if k in p.keys})
                    out.update(spliced(sub, p, True, JsonError))
                elif key in json:
                    out[key] = convert(json[key])
                else:
                    out[key] = p.default if p.mode == "dft" else None  # type: ignore[index]
            except DataEncodingError as err:
                raise (err if p.mode == "splice" else err.within(key)) from None
        return out

    return from_json


@exact_to.register
def _tup_to(e: Tup, via: Via) -> ToJson:
    parts = [(p, via.to(p.enc)) for p in e.parts]
    arity = e.arity

    def to_json(value: Any) -> JsonValue:
        if not isinstance(value, tuple | list):
            raise wrong_value_type("a tuple", value)
        if len(value) != arity:
            raise bad_arity(arity, value)
        out: list[JsonValue] = []
        for p, convert in parts:
            i = int(p.key)
            try:
                if p.mode == "splice":
                    out.extend(convert(tuple(value[i : i + p.arity])))  # type: ignore[arg-type]
                else:
                    out.append(convert(value[i]))
            except DataEncodingError as err:
                raise (err if p.mode == "splice" else err.within(i)) from None
        return out

    return to_json


@exact_from.register
def _tup_from(e: Tup, via: Via) -> FromJson:
    parts = [(p, via.from_(p.enc)) for p in e.parts]
    arity = e.arity

    def from_json(json: JsonValue) -> Any:
        if type(json) is not list:
            raise wrong_type(f"an array of {arity} elements", json)
        if len(json) != arity:
            raise JsonError(
                "wrong_length", f"expected an array of {arity} elements, got {len(json)}"
            )
        out: list[Any] = []
        for p, convert in parts:
            i = int(p.key)
            try:
                if p.mode == "splice":
                    out.extend(spliced(convert(json[i : i + p.arity]), p, False, JsonError))
                else:
                    out.append(convert(json[i]))
            except DataEncodingError as err:
                raise (err if p.mode == "splice" else err.within(i)) from None
        return tuple(out)

    return from_json


# ------------------------------------------------------------ lists


@exact_to.register
def _list_to(e: ListEncoding, via: Via) -> ToJson:
    convert = via.to(e.elt)
    kind = e.kind

    def to_json(value: Any) -> JsonValue:
        if not isinstance(value, list | tuple):
            raise wrong_value_type(f"a {kind} (list)", value)
        out = []
        for i, x in enumerate(value):
            try:
                out.append(convert(x))
            except DataEncodingError as err:
                raise err.within(i) from None
        return out

    return to_json


@exact_from.register
def _list_from(e: ListEncoding, via: Via) -> FromJson:
    convert = via.from_(e.elt)
    mode, arg = e.count_mode

    def from_json(json: JsonValue) -> Any:
        if type(json) is not list:
            raise wrong_type("an array", json)
        if mode == "exactly" and len(json) != arg:
            raise JsonError("wrong_length", f"expected exactly {arg} elements, got {len(json)}")
        out = []
        for i, x in enumerate(json):
            try:
                out.append(convert(x))
            except DataEncodingError as err:
                raise err.within(i) from None
        return out

    return from_json


# ------------------------------------------------------------ wrappers


@exact_to.register(Conv)
def _conv_to(e: Conv[Any], via: Via) -> ToJson:
    to_json_inner = via.to(e.inner)
    to_wire = guard(e.to_wire, EncodeError)
    return lambda value: to_json_inner(to_wire(value))


@exact_from.register(Conv)
def _conv_from(e: Conv[Any], via: Via) -> FromJson:
    from_json_inner = via.from_(e.inner)
    from_wire = guard(e.from_wire, JsonError)
    return lambda json: from_wire(from_json_inner(json))


@exact_to.register(DirectJson)
def _direct_to(e: DirectJson[Any], via: Via) -> ToJson:
    return e.direct_to_json


@exact_from.register(DirectJson)
def _direct_from(e: DirectJson[Any], via: Via) -> FromJson:
    return e.direct_from_json


@exact_to.register
def _mu_to(e: Mu, via: Via) -> ToJson:
    return knot(e, via.to_key, lambda: via.to(e.body), EncodeError)


@exact_from.register
def _mu_from(e: Mu, via: Via) -> FromJson:
    return knot(e, via.from_key, lambda: via.from_(e.body), JsonError)


# ------------------------------------------------------------ unions


@exact_to.register
def _union_to(u: Union, via: Via) -> ToJson:
    cases = [
        (matches, hard, (i, via.to(c.enc)), c.enc)
        for i, (c, (matches, hard)) in enumerate(zip(u.cases, value_selectors(u), strict=True))
    ]
    # every case, JSON-only ones too, may print a value
    told = member(u) if len(u.tagged) == len(u.cases) else None
    checks = json_checks(u)
    then = via.then

    def select(value: Any) -> Any:
        index, json = first_case(
            u, cases, value, _convert_indexed, None, EncodeError, told, then is None
        )
        if checks is not None:
            checks[index](json, value)
        return json

    if then is None:
        return _dispatch(select, via.to, told)
    return _dispatch(_or_else(select, lambda: then.to(u), EncodeError), via.to, told)


@exact_from.register
def _union_from(u: Union, via: Via) -> FromJson:
    cases = [
        (matches, hard, via.from_(c.enc), c.enc)
        for c, (matches, hard) in zip(u.cases, json_selectors(u), strict=True)
    ]
    told = json_member(u)
    then = via.then

    def select(json: Any) -> Any:
        return first_case(u, cases, json, _convert, None, JsonError, told, then is None)

    if then is None:
        return _dispatch(select, via.from_, told)
    return _dispatch(_or_else(select, lambda: then.from_(u), JsonError), via.from_, told)


def _or_else(
    select: Callable[[Any], Any],
    then: Callable[[], Callable[[Any], Any]],
    cls: type[EncodeError] | type[JsonError],
) -> Callable[[Any], Any]:
    """``select``, and when it fails with ``cls``, the converter ``then()``
    gives (looked up at that time: it may not be built yet) from the start.
    When that one fails too, the whole fast pass gives up (:class:`Bail`):
    the enclosing unions would otherwise each run their exact converter
    over this value again, a cost quadratic in the depth."""

    def select_or_else(value: Any) -> Any:
        try:
            return select(value)
        except cls:
            try:
                return then()(value)
            except cls:
                raise Bail from None

    return select_or_else


def _dispatch(
    select: Callable[[Any], Any],
    convert: Callable[[Encoding[Any]], Callable[[Any], Any]],
    member: Member | None,
) -> Callable[[Any], Any]:
    """``select`` (the selection loop), preceded, when every case is told
    apart by one constant ``member``, by a dict lookup of that member: the
    case the loop would pick. Anything unusual takes the loop."""
    if member is None:
        return select
    key, cases = member
    by_name = {name: convert(c.enc) for name, c in cases}

    def dispatch(value: Any) -> Any:
        if type(value) is dict:
            name = value.get(key)
            if type(name) is str:
                case_convert = by_name.get(name)
                if case_convert is not None:
                    return case_convert(value)
        return select(value)

    return dispatch


def _convert(convert: Callable[[Any], Any], value: Any, _context: Any) -> Any:
    return convert(value)


def _convert_indexed(
    payload: tuple[int, Callable[[Any], Any]], value: Any, _context: Any
) -> tuple[int, Any]:
    index, convert = payload
    return index, convert(value)


def json_checks(u: Union) -> list[Callable[[JsonValue, Any], None]] | None:
    """For each case of ``u``, a check that the JSON it printed for a value
    reads back as that value: no earlier case reads it otherwise
    (``from_json`` tries the cases in order). ``None`` when the cases' JSON
    cannot overlap (an option's, or told apart by a constant member)."""
    if isinstance(u, Option) or json_member(u) is not None:
        return None
    cases = [
        (matches, hard, c) for c, (matches, hard) in zip(u.cases, json_selectors(u), strict=True)
    ]
    return [partial(_reads_back, u, tuple(cases[:i])) for i in range(len(cases))]


def _reads_back(
    u: Union, earlier: Sequence[tuple[Predicate, bool, Case]], json: JsonValue, value: Any
) -> None:
    for matches, hard, c in earlier:
        if not matches(json):
            continue
        try:
            read = c.enc.from_json(json)
        except JsonError:
            if not hard:
                continue
        else:
            if _same(u, read, value):
                return
        raise EncodeError(
            "ambiguous_json",
            f"the JSON {describe_value(json)} of {describe_value(value)} would be read back "
            f"by case {c.title!r} of {u.what}: it has no JSON form of its own here",
        )


def _same(u: Union, a: Any, b: Any) -> bool:
    """Whether two values are one: equal with the same types, or written
    with the same bytes."""
    if _identical(a, b):
        return True
    try:
        return u.encode(a) == u.encode(b)
    except DataEncodingError:
        return False


def _identical(a: Any, b: Any) -> bool:
    """Equal, and of the same types throughout (``True`` is no ``1``)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return a.keys() == b.keys() and all(_identical(a[k], b[k]) for k in a)
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(map(_identical, a, b))
    try:
        return bool(a == b)
    except Exception:  # a user's type
        return False
