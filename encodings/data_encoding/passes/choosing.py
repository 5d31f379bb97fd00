"""How a union chooses its case: for a value (to write it, or print its
JSON), and for a JSON value (to read it).

A case recognises what is its own by a *selector* (:func:`selectors`): its
``match`` predicate; else its constant members, when no other case's
constants could hold at the same time; else a cheap test of the shape, after
which the case is tried. The shape tests and constant members are one
function per node type: :func:`accepts` and :func:`constants` for values,
:func:`accepts_json` and :func:`json_constants` for JSON. Cases tried in
order give the first that takes the value (:func:`first_case`), or the
error that says best why none does (:func:`miss`).

The binary and JSON passes share all of this, so that a value is written and
printed with the same case.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial, singledispatch
from typing import Any

from ..compiling import built
from ..errors import (
    DataEncodingError,
    EncodeError,
    JsonError,
    describe_value,
)
from ..jsonvalue import RepeatedMembers, json_type_name, type_name
from ..tree.anyjson import Bson
from ..tree.core import Encoding, Predicate
from ..tree.leaves import is_integer
from ..tree.primitives import Bool, Float, Int, ZeroWidth
from ..tree.records import Obj, Tup
from ..tree.sequences import ListEncoding
from ..tree.strings import RawBytes
from ..tree.unions import Case, Matching, StringEnum, Union
from ..tree.wrappers import Conv, Mu
from ..tree.zarith import Zarith
from .dispatch import takes_default
from .transparent import last_seen, seen_through, unwrap

__all__ = [
    "INLINE_CASES",
    "Member",
    "accepts",
    "accepts_json",
    "by_constant",
    "constants",
    "first_case",
    "json_constants",
    "json_member",
    "json_selectors",
    "member",
    "selects",
    "value_selectors",
]

Member = tuple[str, list[tuple[str, Case]]]
"""The member that tells the cases of a union apart, and each case's constant."""

INLINE_CASES = 8
"""At most this many cases are chosen by generated code (an ``if`` chain)."""


def selectors(
    cases: Sequence[Case],
    match_of: Callable[[Case], Predicate | None],
    constants_of: Callable[[Case], dict[str, str]],
    accepts_of: Callable[[Case], Predicate],
    is_object: Predicate,
) -> list[tuple[Predicate, bool]]:
    """How each case recognises its values (or its JSON), and whether that is
    decisive ("hard"): its ``match`` predicate; else its constant members,
    when no other case's constants could hold at the same time; else a cheap
    check, after which the case is tried."""
    constants = [constants_of(c) for c in cases]
    selectors: list[tuple[Predicate, bool]] = []
    for c, own in zip(cases, constants, strict=True):
        match = match_of(c)
        if match is not None:
            selectors.append((match, True))
        elif own and all(
            any(k in other and other[k] != s for k, s in own.items())
            for other in constants
            if other and other is not own
        ):
            selectors.append((partial(_has_constants, tuple(own.items()), is_object), True))
        else:
            selectors.append((accepts_of(c), False))
    return selectors


def _has_constants(items: tuple[tuple[str, str], ...], is_object: Predicate, v: Any) -> bool:
    return bool(is_object(v)) and all(v.get(k) == s for k, s in items)


def told_apart(
    cases: Sequence[Case], constants_of: Callable[[Case], dict[str, str]]
) -> Member | None:
    """The one member whose constants tell ``cases`` apart, if there is one."""
    constants = [constants_of(c) for c in cases]
    keys = {k for d in constants for k in d}
    if len(keys) != 1 or any(len(d) != 1 for d in constants):
        return None
    (key,) = keys
    names = [d[key] for d in constants]
    if len(set(names)) != len(names):
        return None
    return key, list(zip(names, cases, strict=True))


def value_selectors(u: Union) -> list[tuple[Predicate, bool]]:
    """How each case of ``u`` recognises its values, built once per union
    (a ``matching`` union's: the case whose tag its function gives)."""
    if isinstance(u, Matching):
        return built(
            u,
            "choosing.selectors",
            # (every case of a matching union has a tag)
            lambda: [(partial(selects, u.select, c.tag or 0), True) for c in u.cases],
        )
    return built(
        u,
        "choosing.selectors",
        lambda: selectors(u.cases, _match, _constants, lambda c: accepts(c.enc), _is_dict),
    )


def selects(select: Callable[[Any], int | None], tag: int, value: Any) -> bool:
    """Whether a ``matching`` union's function ``select`` gives ``tag`` for ``value``."""
    return select(value) == tag


def member(u: Union) -> Member | None:
    """The member whose constant tells the values of every tagged case of
    ``u`` apart (the common ``{"kind": "baker", ...}`` shape), and each case's
    constant; ``None`` when the cases are not all told apart that way (or a
    ``matching`` union's function tells them)."""
    if isinstance(u, Matching):
        return None
    return built(u, "choosing.member", lambda: told_apart(u.tagged, _constants))


def by_constant(u: Union) -> Member | None:
    """:func:`member`, when the cases are few enough to be chosen by
    generated code (:data:`INLINE_CASES`)."""
    found = member(u)
    return found if found is not None and len(found[1]) <= INLINE_CASES else None


def first_case(
    u: Union,
    cases: Sequence[tuple[Callable[[Any], bool], bool, Any, Encoding[Any]]],
    value: Any,
    attempt: Callable[[Any, Any, Any], Any],
    context: Any,
    cls: type[EncodeError] | type[JsonError],
    told: Member | None,
    every_case: bool,
) -> Any:
    """``attempt(payload, value, context)`` with the first case that takes ``value``
    (``cases``: each case's selector, whether it is decisive, payload and encoding).

    A case chosen by a decisive selector reports its own failure; the others
    are skipped when they fail, and so are the cases after them that would
    fail alike (:func:`_failed_inside`). Without ``every_case`` (attempts
    whose errors do not say where they are), the first failure is final: the
    caller hands the value to a variant whose errors do.

    With no case left, the error that says best what is wrong is the only
    plausible case's, or that of the case that read furthest into the value
    (:func:`progress`), when the cases that got that far all say the same
    (alternative spellings of one shape fail at one place); else
    :func:`miss` (using the member ``told`` that tells the cases apart, if
    any).
    """
    # on errors only: a union's success pays for none of this bookkeeping
    failures: list[tuple[Encoding[Any], DataEncodingError]] | None = None
    failed_inside: list[tuple[str, Encoding[Any]]] | None = None
    for matches, hard, payload, enc in cases:
        if not matches(value):
            continue
        if failed_inside and any(
            _record_member(enc, key, cls is JsonError) is read for key, read in failed_inside
        ):
            continue
        try:
            return attempt(payload, value, context)
        except cls as err:
            if hard or not every_case:
                raise
            failures = [*(failures or ()), (enc, err)]
            inside = _failed_inside(enc, err.outermost(2), value, cls is JsonError)
            if inside is not None:
                failed_inside = [*(failed_inside or ()), inside]
    if failures is not None:
        if len(failures) == 1:  # raised as it is, its path not read: at each
            raise failures[0][1]  # level of a recursive union, a read costs the depth
        reached = [(progress(enc, err.path), err) for enc, err in failures]
        furthest = max(far for far, _ in reached)
        best = [err for far, err in reached if far == furthest]
        if furthest and len({(err.code, err.message, err.path) for err in best}) == 1:
            raise best[0]
    raise miss(u, value, cls, told)


def _failed_inside(
    e: Encoding[Any], path: tuple[str | int, ...], value: Any, reading_json: bool
) -> tuple[str, Encoding[Any]] | None:
    """The member of ``value`` inside which case ``e`` failed (at ``path``,
    of which the first two steps are enough), and the encoding that read
    it, when the failure is the member's own.

    A later case that reads that member with that very encoding would fail
    there too (reading depends on the encoding and the input only): the
    union skips it. Trying it anyway costs a second reading of the member,
    and, when the member holds the union again (a recursion), two at each
    level: time exponential in the depth. The failure must be deeper than
    the member itself (``path`` of two steps or more), since a record may
    place its own checks at a member (a missing or unexpected member, a
    case's conv refusing it), which another case need not share."""
    if len(path) < 2 or type(value) is not dict:
        return None
    key = path[0]
    if type(key) is not str or key not in value:
        return None
    read = _record_member(e, key, reading_json)
    return None if read is None else (key, read)


def _record_member(e: Encoding[Any], key: str, reading_json: bool) -> Encoding[Any] | None:
    """The encoding that reads member ``key`` of a case ``e``'s JSON
    (``reading_json``) or writes it from the case's value: only through the
    wrappers that pass the value on unchanged (not a ``conv``'s, when
    writing a value)."""
    record = _readable(e) if reading_json else _written(e)
    return _member(record, key) if isinstance(record, Obj) else None


def _written(e: Encoding[Any]) -> Encoding[Any]:
    """The node that writes ``e``'s values, through recursion and the
    wrappers that write their values unchanged (``writes``)."""
    return last_seen(e, "writes")


def progress(e: Encoding[Any], path: tuple[str | int, ...]) -> tuple[int, ...]:
    """How far reading ``e`` got when it failed at ``path``: at each step, the
    member's place in its record's reading order, or the item's index (0
    where the step is not known: inside a union or a tuple). Compared as tuples, the
    case that read more members before failing is further, and, among those
    that failed in one member, the one that got deeper into it: the two
    dialects of a schema differ in a member's form, and the one that fails
    in a member read before the real mistake is not the one meant."""
    reached = []
    node: Encoding[Any] | None = e
    for step in path:
        node = None if node is None else _readable(node)
        if isinstance(node, Obj) and type(step) is str:
            order = member_order(node)
            reached.append(order.index(step) if step in order else len(order))
            node = _member(node, step)
        elif isinstance(node, ListEncoding) and type(step) is int:
            reached.append(step)
            node = node.elt
        else:
            reached.append(0)
            node = None
    return tuple(reached)


def _readable(e: Encoding[Any]) -> Encoding[Any]:
    """The node that reads ``e``'s JSON, through wrappers and recursion
    (``reads``)."""
    return last_seen(e, "reads")


def member_order(e: Obj) -> list[str]:
    """The members of ``e`` in the order its reader reads them (spliced
    records' in their place)."""
    order: list[str] = []
    for p in e.parts:
        if p.mode != "splice":
            order.append(str(p.key))
            continue
        inner = _readable(p.enc)
        order.extend(member_order(inner) if isinstance(inner, Obj) else sorted(p.keys))
    return order


def _member(e: Obj, key: str) -> Encoding[Any] | None:
    for p in e.parts:
        if p.mode != "splice" and p.key == key:
            return p.enc
        if p.mode == "splice" and key in p.keys:
            inner = _readable(p.enc)
            return _member(inner, key) if isinstance(inner, Obj) else None
    return None


def miss(
    u: Union, value: Any, cls: type[EncodeError] | type[JsonError], told: Member | None
) -> DataEncodingError:
    """The error for a value no case of ``u`` takes: an object given a member
    twice (no record case takes one) is refused at that member, JSON not of a
    JSON type (a subclass of one, say) as ``wrong_type``; else, when the cases
    are told apart by a member, what is wrong with that member."""
    if isinstance(value, RepeatedMembers):
        return value.error(cls)
    reading_json = cls is JsonError
    if told is None:
        if reading_json and json_type_name(value) is None:
            return cls("wrong_type", f"expected JSON ({u.what}), got {type_name(value)}")
        return cls("no_case_matched", f"no case of the {u.what} matches {describe_value(value)}")
    key, cases = told
    if not (_is_json_object if reading_json else _is_dict)(value):
        return cls("wrong_type", f"expected an object ({u.what}), got {type_name(value)}")
    if key not in value:
        return cls("missing_field", f"missing field {key!r}").within(key)
    names = ", ".join(repr(name) for name, _ in cases[:10])
    more = ", ..." if len(cases) > 10 else ""
    return cls(
        "no_case_matched", f"{describe_value(value[key])} is not one of {names}{more}"
    ).within(key)


# ------------------------------------------------------------ values


def _same_values(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose values are ``e``'s (``values``): a wrapper's inner
    node, the binary side of ``splitted``; ``None`` for others (a ``conv``'s
    are the user's)."""
    return seen_through(e, "values")


@takes_default(
    {
        "any JSON value may be one": (Bson,),
        "its values are the user's: any may be one": (Conv,),
        "recursive: tried, not tested by shape": (Mu,),
    },
    through="values",
)
@singledispatch
def accepts(e: Encoding[Any]) -> Predicate:
    """A cheap test that a value has the shape of ``e``'s: a union skips the
    cases it refuses without trying them. It may hold for a value that then
    fails, never fail for a value that ``e`` writes."""
    inner = _same_values(e)
    return _anything if inner is None else accepts(inner)


def _anything(_value: Any) -> bool:
    return True


def _is_type(kind: type, value: Any) -> bool:
    return type(value) is kind


@accepts.register
def _zero_width_accepts(e: ZeroWidth) -> Predicate:
    matches = e.matches
    return lambda value: bool(matches(value))


@accepts.register
def _bool_accepts(e: Bool) -> Predicate:
    return partial(_is_type, bool)


@accepts.register
def _int_accepts(e: Int) -> Predicate:
    lo, hi = e.lo, e.hi
    return lambda value: is_integer(value) and lo <= value <= hi


@accepts.register
def _float_accepts(e: Float) -> Predicate:
    return lambda value: type(value) is float or is_integer(value)


@accepts.register
def _zarith_accepts(e: Zarith) -> Predicate:
    natural = e.natural
    return lambda value: is_integer(value) and (value >= 0 or not natural)


@accepts.register
def _raw_bytes_accepts(e: RawBytes) -> Predicate:
    text = e.text
    return lambda value: isinstance(value, bytes | bytearray) or (text and type(value) is str)


@accepts.register
def _string_enum_accepts(e: StringEnum) -> Predicate:
    lookup = e.index_of
    return lambda value: lookup(value) is not None


@accepts.register
def _obj_accepts(e: Obj) -> Predicate:
    return partial(_has_fields, e, tuple(constants(e).items()), _is_dict)


@accepts.register
def _tup_accepts(e: Tup) -> Predicate:
    arity = e.arity
    return lambda value: isinstance(value, tuple | list) and len(value) == arity


@accepts.register
def _list_accepts(e: ListEncoding) -> Predicate:
    return partial(_is_type, list)


@accepts.register
def _union_accepts(u: Union) -> Predicate:
    if isinstance(u, Matching):
        return partial(_selects_one, u.select)
    return partial(_any_case, [matches for matches, _ in value_selectors(u)])


def _selects_one(select: Callable[[Any], int | None], value: Any) -> bool:
    return select(value) is not None


def _any_case(tests: list[Predicate], value: Any) -> bool:
    return any(matches(value) for matches in tests)


def _has_fields(
    e: Obj, constants: tuple[tuple[str, str], ...], is_object: Predicate, value: Any
) -> bool:
    """``value`` is an object (``is_object``) with ``e``'s required fields, no
    other than ``e``'s, and its ``constants`` (a case whose constant member
    does not hold is not the one meant: its error would blame that member)."""
    return (
        bool(is_object(value))
        and value.keys() <= e.keys
        and all(p.key in value for p in e.parts if p.mode == "req")
        and all(value[k] == c for k, c in constants)
    )


def constants(e: Encoding[Any]) -> dict[str, str]:
    """The required members of ``e``'s dict values that hold a constant
    (``{"kind": "baker"}``): a union recognises the case's values by them."""
    inner = _same_values(e)
    if inner is not None:
        return constants(inner)
    if not isinstance(e, Obj):
        return {}
    return {
        str(p.key): p.enc.constant
        for p in e.parts
        if p.mode == "req" and isinstance(p.enc, ZeroWidth) and p.enc.constant is not None
    }


def _match(c: Case) -> Predicate | None:
    return c.match


def _constants(c: Case) -> dict[str, str]:
    """The constant members of a case's values (none when a predicate selects them)."""
    return {} if c.match is not None else constants(c.enc)


def _is_dict(v: Any) -> bool:
    return isinstance(v, dict)


# ------------------------------------------------------------ JSON


def _json_match(c: Case) -> Predicate | None:
    return c.json_match


def _json_case_constants(c: Case) -> dict[str, str]:
    """The constant members of a case's JSON (none when a predicate selects it)."""
    return {} if c.json_match is not None else json_constants(c.enc)


def _is_json_object(j: Any) -> bool:
    return type(j) is dict  # not a RepeatedMembers: no record takes one


def json_selectors(u: Union) -> list[tuple[Predicate, bool]]:
    """How each case of ``u`` recognises its JSON (see :func:`selectors`),
    built once per union."""
    return built(
        u,
        "choosing.json_selectors",
        lambda: selectors(
            u.cases,
            _json_match,
            _json_case_constants,
            lambda c: accepts_json(c.enc),
            _is_json_object,
        ),
    )


def json_member(u: Union) -> Member | None:
    """The member whose constant tells apart the JSON of every case of
    ``u``, JSON-only cases included."""
    return built(u, "choosing.json_member", lambda: told_apart(u.cases, _json_case_constants))


@takes_default(
    {"any JSON value may be one": (Bson,), "recursive: tried, not tested by shape": (Mu,)},
    through="json",
)
@singledispatch
def accepts_json(e: Encoding[Any]) -> Predicate:
    """A cheap test that a JSON value has the shape of ``e``'s: a union skips
    the cases it refuses without trying them. It may hold for JSON that then
    fails, never fail for JSON that ``e`` reads."""
    inner = unwrap(e, "json")
    return _anything if inner is None else accepts_json(inner)


@accepts_json.register
def _zero_width_accepts_json(e: ZeroWidth) -> Predicate:
    matches = e.json_matches
    return lambda json: bool(matches(json))


@accepts_json.register
def _bool_accepts_json(e: Bool) -> Predicate:
    return partial(_is_type, bool)


@accepts_json.register
def _int_accepts_json(e: Int) -> Predicate:
    return partial(_is_type, str if e.json_string else int)


@accepts_json.register
def _float_accepts_json(e: Float) -> Predicate:
    return lambda json: type(json) is float or type(json) is int


@accepts_json.register
def _zarith_accepts_json(e: Zarith) -> Predicate:
    return partial(_is_type, str)


@accepts_json.register
def _raw_bytes_accepts_json(e: RawBytes) -> Predicate:
    if e.text:  # a string, or the {"invalid_utf8_string": ...} object
        return lambda json: type(json) is str or type(json) is dict
    return partial(_is_type, str)


@accepts_json.register
def _string_enum_accepts_json(e: StringEnum) -> Predicate:
    by_name = e.by_name
    return lambda json: type(json) is str and json in by_name


@accepts_json.register
def _obj_accepts_json(e: Obj) -> Predicate:
    return partial(_has_fields, e, tuple(json_constants(e).items()), _is_json_object)


@accepts_json.register
def _tup_accepts_json(e: Tup) -> Predicate:
    arity = e.arity
    return lambda json: type(json) is list and len(json) == arity


@accepts_json.register
def _list_accepts_json(e: ListEncoding) -> Predicate:
    return partial(_is_type, list)


@accepts_json.register
def _union_accepts_json(u: Union) -> Predicate:
    return partial(_any_case, [matches for matches, _ in json_selectors(u)])


def json_constants(e: Encoding[Any]) -> dict[str, str]:
    """The members of ``e``'s JSON objects that hold a constant
    (``{"kind": "baker"}``): a union recognises the case's JSON by them."""
    inner = unwrap(e, "json")
    if inner is not None:
        return json_constants(inner)
    return constants(e)  # a record's constant fields are its JSON's
