"""The exact JSON converters of the composites: records and tuples, lists,
wrappers and unions, registered on :func:`.exact.exact_to` and
:func:`.exact.exact_from` (see :mod:`.exact`), each reaching its parts'
converters through the :class:`.exact.Via` it is given.

How a union recognises its cases' JSON is :mod:`..choosing`'s; a union
that tries its cases hands a value to the variant its ``Via`` names when the
case it tried fails (:func:`_or_else`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ...depth import knot
from ...errors import DataEncodingError, EncodeError, JsonError, describe_value
from ...jsonvalue import JsonValue, RepeatedMembers
from ...tree.core import Encoding, FromJson, Predicate, ToJson
from ...tree.leaves import wrong_type, wrong_value_type
from ...tree.records import Obj, Tup
from ...tree.sequences import ListEncoding
from ...tree.unions import Case, Option, Union
from ...tree.wrappers import Conv, DirectJson, Mu, guard
from ..choosing import Member, first_case, json_member, json_selectors, member, value_selectors
from ..leafjson import Bail
from ..recordrule import bad_arity, key_error, record_value_error, spliced
from .exact import Via, exact_from, exact_to

__all__ = ["json_checks"]


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
