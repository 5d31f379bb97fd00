"""Tagged unions, ``option`` and ``string_enum``.

``union(cases, tag_size="Uint8")``: binary, the case's tag (1 or 2 bytes,
big-endian) then the case's encoding; JSON, the case's JSON with no
discriminant. A ``case(tag, title, e, match=None)`` with ``tag=None`` exists
in JSON only (it is never written in binary).

``matching(select, cases, tag_size="Uint8")``: the same forms; the case of
a value is the one whose tag ``select(value)`` names, one call.

Values pass through a case unchanged. Which case encodes a value:

1. the case's ``match`` predicate, when given;
2. otherwise, for a case that is a record with constant fields (the common
   ``{"kind": "baker", ...}`` shape), those fields;
3. otherwise the first case, in order, whose encoding accepts the value.

When reading JSON, cases are tried in order and the first that accepts the
JSON wins (as in the reference).

``option(e)``: ``00`` for ``None``, ``01`` then ``e``; JSON ``null`` or ``e``'s.

``string_enum(cases)``: the index of the case (1 byte up to 255 cases, 2 up to
65535, else 4); JSON, the case's string.

>>> from data_encoding import obj, req, constant, int31, uint8, string
>>> state = union([
...     case(0, "running", obj(req("state", constant("running")), req("pid", int31))),
...     case(1, "exited", obj(req("state", constant("exited")), req("pid", int31))),
... ])
>>> state.encode({"state": "exited", "pid": 7}).hex()
'0100000007'
>>> option(uint8).encode(None).hex(), option(uint8).encode(7).hex()
('00', '0107')
>>> string_enum(["archive", "full", "rolling"]).encode("full").hex()
'01'
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from ..errors import (
    DecodeError,
    DefinitionError,
    EncodeError,
    JsonError,
    describe_value,
)
from ..jsonvalue import JsonValue
from .core import (
    Atom,
    Called,
    CallParts,
    Encoding,
    Predicate,
    combinator,
    expect,
    expect_callable,
    expect_encoding,
    identity,
)
from .leaves import AtomEncoding
from .primitives import null
from .size import merge_cases
from .wrappers import guarded

TagSize = Literal["Uint8", "Uint16"]

_TAG_WIDTH = {"Uint8": 1, "Uint16": 2}


@dataclass(frozen=True, repr=False)  # its repr is the call (Called)
class Case(Called):
    """One case of a union: see :func:`case`."""

    tag: int | None
    title: str
    enc: Encoding[Any]
    match: Predicate | None = None
    description: str | None = None
    #: the JSON-side counterpart of ``match``
    json_match: Callable[[JsonValue], bool] | None = None

    def _call_parts(self) -> CallParts:
        """The call that made it: ``case(0, 'running', obj(...))``."""
        args = (self.tag, self.title, self.enc) + ((self.match,) if self.match else ())
        notes: dict[str, object] = {}
        if self.description is not None:
            notes["description"] = self.description
        if self.json_match is not None:
            notes["json_match"] = self.json_match
        return ("case", args, notes)


def case(
    tag: int | None,
    title: str,
    e: Encoding[Any],
    match: Predicate | None = None,
    *,
    description: str | None = None,
    json_match: Predicate | None = None,
) -> Case:
    """A union case; ``tag=None`` makes it JSON-only; ``match`` selects its
    values, and ``json_match`` its JSON: without it, a JSON value goes to
    the first case it has the shape of that reads it; with it, to the first
    case whose ``json_match`` holds, whose reader then says what is wrong
    with the rest (one test, where a shape's is several, and a precise
    error). If either raises, the error is ``user_function`` (an
    :class:`EncodeError` of ``match``, a :class:`JsonError` of
    ``json_match``); where the reader checks that the writer would write a
    value read with the case read, a value ``match`` fails on is not the
    writer's (``not_canonical``)."""
    if tag is not None:
        expect(tag, int, "case", "a tag is an int or None")
    expect(title, str, "case", "a case title is a str")
    expect_encoding(e, f"case({title!r})")
    for name, fn in (("match", match), ("json_match", json_match)):
        if fn is not None:
            expect_callable(fn, f"case({title!r})", name)
    if tag is not None and tag < 0:
        raise DefinitionError(f"case {title!r}: a tag must not be negative, not {tag}")
    return Case(
        tag,
        title,
        e,
        None if match is None else guarded(match, EncodeError, "a match predicate"),
        description,
        None if json_match is None else guarded(json_match, JsonError, "a json_match predicate"),
    )


class Union(Encoding[Any]):
    """A tagged union: see :func:`union`."""

    def __init__(
        self, cases: Sequence[Case], tag_size: TagSize = "Uint8", label: str | None = None
    ) -> None:
        if not isinstance(cases, Sequence) or isinstance(cases, str):
            raise DefinitionError(f"union takes a list of cases, not {type(cases).__name__}")
        if not cases:
            raise DefinitionError("union: empty list of cases")
        if not isinstance(tag_size, str) or tag_size not in _TAG_WIDTH:
            raise DefinitionError(f"union: tag_size must be 'Uint8' or 'Uint16', not {tag_size!r}")
        largest = 255 if tag_size == "Uint8" else 65535
        seen: set[int] = set()
        for c in cases:
            if not isinstance(c, Case):
                raise DefinitionError(f"union takes cases made by case(), not {c!r}")
            if c.tag is None:
                continue
            if c.tag in seen:
                raise DefinitionError(f"union: the tag {c.tag} appears twice")
            if not 0 <= c.tag <= largest:
                raise DefinitionError(
                    f"union: the tag {c.tag} does not fit a {tag_size} tag (0 .. {largest})"
                )
            seen.add(c.tag)
        self.cases = tuple(cases)
        self.tag_size = tag_size
        self.tag_width = _TAG_WIDTH[tag_size]
        self.label = label
        self.size = merge_cases([c.enc.size for c in cases], self.tag_width)
        self.nullable = any(c.enc.nullable for c in cases)

    @property
    def what(self) -> str:
        """What it is, in error messages: ``union`` (``union <id>`` under a ``def_``)."""
        return f"union {self.label}" if self.label else "union"

    def _rebuild(self) -> tuple[Any, ...]:
        return (Union, (self.cases, self.tag_size, self.label))

    def _labelled(self, name: str) -> Union:
        return Union(self.cases, self.tag_size, name)

    def _object_fields(self) -> frozenset[str] | None:
        fields = [c.enc._object_fields() for c in self.cases]
        if any(f is None for f in fields):
            return None
        return frozenset().union(*fields)  # type: ignore[arg-type]

    def _tuple_arity(self) -> int | None:
        arities = {c.enc._tuple_arity() for c in self.cases}
        return arities.pop() if len(arities) == 1 else None

    @cached_property
    def tagged(self) -> list[Case]:
        """The cases with a tag (the others exist in JSON only)."""
        return [c for c in self.cases if c.tag is not None]


@combinator
def union(cases: Sequence[Case], tag_size: TagSize = "Uint8") -> Union:
    """A tagged union of ``cases`` (see the module documentation)."""
    return Union(cases, tag_size)


class Matching(Union):
    """A union whose writer's case is named by a function of the value: see
    :func:`matching`."""

    def __init__(
        self,
        select: Callable[[Any], int | None],
        cases: Sequence[Case],
        tag_size: TagSize = "Uint8",
        label: str | None = None,
        exact_reads: Collection[int] = (),
    ) -> None:
        super().__init__(cases, tag_size, label)
        self.select = expect_callable(select, "matching", "select")
        tags = {c.tag for c in self.cases}
        self.exact_reads = frozenset(exact_reads)
        if not self.exact_reads <= tags:
            raise DefinitionError(
                f"matching: exact_reads names no case's tag: {sorted(self.exact_reads - tags)}"
            )
        untagged = [c.title for c in self.cases if c.tag is None]
        if untagged:
            raise DefinitionError(
                f"matching: its function names a case by its tag: the case {untagged[0]!r} "
                "has none (a JSON-only case belongs in a union)"
            )
        if any(c.match is not None for c in self.cases):
            raise DefinitionError(
                "matching: its function chooses every case: a case takes no match predicate"
            )

    def _rebuild(self) -> tuple[Any, ...]:
        return (
            Matching,
            (self.select, self.cases, self.tag_size, self.label, sorted(self.exact_reads)),
        )

    def _labelled(self, name: str) -> Matching:
        return Matching(self.select, self.cases, self.tag_size, name, self.exact_reads)


@combinator
def matching(
    select: Callable[[Any], int | None],
    cases: Sequence[Case],
    tag_size: TagSize = "Uint8",
    *,
    exact_reads: Collection[int] = (),
) -> Matching:
    """A tagged union of ``cases`` whose writer writes a value with the case
    whose tag ``select(value)`` gives (the reference's ``matching``): one
    call, where a ``union`` tries its cases in order. ``select`` returns
    ``None`` for a value no case takes (``no_case_matched``); if it raises,
    the error is ``user_function`` (the reader: ``not_canonical``). Every
    case has a tag and no ``match`` predicate.

    Its binary form and JSON form are a ``union``'s. The reader refuses a
    case that ``select`` does not give for the value read
    (``not_canonical``), as a union refuses one its writer would not pick:

    >>> from data_encoding import int31, int64
    >>> def smallest(v): return 0 if -2**30 <= v < 2**30 else 1
    >>> u = matching(smallest, [case(0, "small", int31), case(1, "large", int64)])
    >>> u.encode(5).hex(), u.encode(2**40).hex()
    ('0000000005', '010000010000000000')
    >>> u.decode(bytes.fromhex("010000000000000005"))
    Traceback (most recent call last):
    ...
    data_encoding.errors.DecodeError: not canonical: the value read with case 'large' ...

    ``exact_reads`` are the tags of the cases whose every value read is one
    that ``select`` gives that same tag: their reader leaves out the call
    (a Micheline integer, or a primitive without annotations, is written
    with the case it was read with: one call per node saved). A tag listed
    wrongly lets the reader accept bytes the writer would not write, which
    the catalogue's round trip (bytes -> value -> the same bytes, over
    hostile bytes too) catches.
    """
    select = guarded(
        expect_callable(select, "matching", "select"), EncodeError, "a matching function"
    )
    return Matching(select, cases, tag_size, exact_reads=exact_reads)


@combinator
def option(e: Encoding[Any]) -> Option:
    """``None`` or a value of ``e``: ``00``, or ``01`` then ``e``; JSON ``null`` or ``e``'s."""
    if expect_encoding(e, "option").nullable:
        raise DefinitionError(
            "option: cannot nest nullable encodings (None would be ambiguous); "
            "use a union with explicit cases instead"
        )
    return Option(
        [
            Case(1, "Some", e, _is_some, json_match=_is_some),
            Case(0, "None", null, _is_none, json_match=_is_none),
        ]
    )


def _is_some(value: Any) -> bool:
    return value is not None


def _is_none(value: Any) -> bool:
    return value is None


class Option(Union):
    """``option(e)``: a union whose writer needs no case selection (and whose
    two cases never overlap: ``e`` has no ``None`` among its values)."""

    def _rebuild(self) -> tuple[Any, ...]:
        return (option, (self.cases[0].enc,))


def _typed_key(value: Any) -> tuple[type, Any]:
    return type(value), value


class StringEnum(AtomEncoding[Any]):
    """An enumeration: see :func:`string_enum`."""

    def __init__(self, cases: Sequence[str] | Mapping[str, Any]) -> None:
        if isinstance(cases, Mapping):
            pairs = list(cases.items())
        elif isinstance(cases, Sequence) and not isinstance(cases, str):
            pairs = [(s, s) for s in cases]
        else:
            raise DefinitionError(
                f"string_enum takes a list of strings or a mapping, not {type(cases).__name__}"
            )
        for s, v in pairs:
            expect(s, str, "string_enum", "the cases are strings")
            try:
                hash(v)
            except TypeError:
                raise DefinitionError(
                    f"string_enum: the value of {s!r} is not hashable ({type(v).__name__})"
                ) from None
        if len(pairs) < 2:
            raise DefinitionError(
                "string_enum: needs at least two cases (use constant for a single one)"
            )
        names = [s for s, _ in pairs]
        if len(set(names)) != len(names):
            raise DefinitionError("string_enum: duplicate case strings")
        self.pairs = tuple(pairs)
        self.strings = tuple(names)
        values = [v for _, v in pairs]
        count = len(pairs)
        fmt = "B" if count <= 255 else "H" if count <= 65535 else "I"
        if len({v: None for v in values}) != count:  # one value, two indexes
            raise DefinitionError("string_enum: two cases have equal values")
        # values of other types than str are told apart by type too: True
        # is no 1 (a str subclass is a str: plain lookups suffice for strings)
        typed = any(type(v) is not str for v in values)
        key: Callable[[Any], Any] = _typed_key if typed else identity
        index_of = {key(v): i for i, v in enumerate(values)}
        by_name = dict(pairs)
        self.by_name = by_name
        #: the values, by index
        self.values = values

        def lookup(value: Any) -> int | None:
            try:
                return index_of.get(key(value))
            except TypeError:  # unhashable
                return None

        #: the index of a value, or ``None``
        self.index_of = lookup

        def check(value: Any) -> None:
            if lookup(value) is None:
                raise EncodeError(
                    "no_case_matched",
                    f"{describe_value(value)} is not one of the enumeration's cases",
                )

        def pack(value: Any) -> int:
            index = lookup(value)
            if index is None:
                check(value)
            return index  # type: ignore[return-value]

        def unpack(index: int) -> Any:
            if index >= count:
                raise DecodeError(
                    "no_case_matched", f"enumeration index {index} beyond its {count} cases"
                )
            return values[index]

        # (a table of values of other types than str would tell 1 from True)
        table = None if typed else index_of
        width = struct.calcsize(fmt)
        atom = Atom(fmt, width, check, pack, unpack, unpack_table=tuple(values), pack_table=table)
        super().__init__(atom, "enumeration")

    def _rebuild(self) -> tuple[Any, ...]:
        if all(s == v for s, v in self.pairs):
            return (StringEnum, (list(self.strings),))
        return (StringEnum, (dict(self.pairs),))


@combinator
def string_enum(cases: Sequence[str] | Mapping[str, Any]) -> StringEnum:
    """An enumeration of strings (values: the strings, or a mapping's values)."""
    return StringEnum(cases)
