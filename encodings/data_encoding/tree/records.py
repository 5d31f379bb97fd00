"""Records (``obj``) and tuples (``tup``), and their merges.

``obj(req("a", uint8), opt("b", uint16), ...)``: the fields one after the
other in binary; a JSON object with the members in field order. Values are
dicts holding every field (an absent optional field is ``None``).

=================  ==================================================  ======================
field              binary                                              JSON
=================  ==================================================  ======================
``req(name, e)``   ``e``                                               required member
``opt(name, e)``   presence byte ``00``/``ff``, then ``e``; when ``e``  omitted when ``None``
                   is variable-size, no byte: present iff bytes remain
``varopt(name,e)`` no presence byte: present iff bytes remain          omitted when ``None``
``dft(name,e,d)``  ``e`` (always written)                              omitted when ``== d``
=================  ==================================================  ======================

``tup(e1, e2, ...)``: the elements one after the other; a JSON array of
exactly that many elements; values are tuples (lists are accepted).

``merge_objs(a, b)`` / ``merge_tups(a, b)``: ``a`` then ``b`` in binary, one
object (one array) in JSON, one dict (one tuple) as a value.

Strictness: writing or reading JSON refuses unknown and missing members, and
duplicate members when the JSON text was parsed with
:func:`data_encoding.jsonvalue.loads`.

>>> from data_encoding import uint8, uint16, string
>>> e = obj(req("a", uint8), opt("b", uint16), req("c", string))
>>> e.encode({"a": 1, "b": 2, "c": "ab"}).hex()
'01ff0002000000026162'
>>> e.to_json({"a": 1, "b": None, "c": ""})
{'a': 1, 'c': ''}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from ..errors import DefinitionError
from .core import (
    Called,
    CallParts,
    Encoding,
    combinator,
    expect,
    expect_encoding,
)
from .primitives import ZeroWidth
from .size import DYNAMIC, VARIABLE, sequence_size
from .wrappers import Def, Transparent

T = TypeVar("T")


Mode = Literal["req", "opt", "varopt", "dft", "splice"]


@dataclass(frozen=True)
class Part:
    """One element of a sequence.

    ``key`` is the dict key of a record field or the index of a tuple element.
    ``mode``: ``req`` (always there), ``opt`` (a presence byte, then the value),
    ``varopt`` (present iff bytes remain in its frame), ``dft`` (always in
    binary, may be omitted in JSON) or ``splice`` (a nested record or tuple
    whose keys or elements are merged into this one's).
    """

    key: str | int
    enc: Encoding[Any]
    mode: Mode = "req"
    default: Any = None
    title: str | None = None
    description: str | None = None
    #: splices only: the keys (records) or the element count (tuples) it yields
    keys: frozenset[str] = frozenset()
    arity: int = 1

    @property
    def size(self) -> Any:
        if self.mode == "opt":
            return self.enc.size if self.enc.size is VARIABLE else DYNAMIC
        if self.mode == "varopt":
            return VARIABLE
        return self.enc.size


@dataclass(frozen=True, repr=False)  # its repr is the call (Called)
class Field(Called):
    """A record field: see :func:`req`, :func:`opt`, :func:`varopt`, :func:`dft`."""

    name: str
    enc: Encoding[Any]
    mode: Literal["req", "opt", "varopt", "dft"]
    default: Any = None
    title: str | None = None
    description: str | None = None

    def _call_parts(self) -> CallParts:
        """The call that made it: ``req('id', uint16)``, ``dft('n', uint8, 0)``."""
        args = (self.name, self.enc, self.default) if self.mode == "dft" else (self.name, self.enc)
        notes = {"title": self.title, "description": self.description}
        return (self.mode, args, {k: v for k, v in notes.items() if v is not None})


def _field(
    mode: Literal["req", "opt", "varopt", "dft"],
    name: str,
    e: Encoding[Any],
    default: Any = None,
    title: str | None = None,
    description: str | None = None,
) -> Field:
    expect(name, str, mode, "a field name is a str")
    expect_encoding(e, f"{mode}({name!r})")
    if mode in ("opt", "varopt") and e.nullable:
        raise DefinitionError(
            f"{mode}({name!r}): None is one of the values of its encoding, and None also "
            f"means that the field is absent: the two could not be told apart (JSON "
            f"{{{name!r}: null}} would vanish); use an encoding whose values are not None "
            "(empty rather than unit), or a required field"
        )
    if mode == "opt" and e.size is VARIABLE:
        mode = "varopt"  # a variable-size value says by its bytes whether it is there
    return Field(name, e, mode, default, title, description)


def req(
    name: str, e: Encoding[Any], *, title: str | None = None, description: str | None = None
) -> Field:
    """A required field."""
    return _field("req", name, e, None, title, description)


def opt(
    name: str, e: Encoding[Any], *, title: str | None = None, description: str | None = None
) -> Field:
    """An optional field: a presence byte then ``e`` (no byte when ``e`` is variable-size)."""
    return _field("opt", name, e, None, title, description)


def varopt(
    name: str, e: Encoding[Any], *, title: str | None = None, description: str | None = None
) -> Field:
    """An optional field without presence byte: present iff bytes remain in its frame."""
    return _field("varopt", name, e, None, title, description)


def dft(
    name: str,
    e: Encoding[Any],
    default: Any,
    *,
    title: str | None = None,
    description: str | None = None,
) -> Field:
    """A field with a default: always written in binary, omitted in JSON when equal to it."""
    return _field("dft", name, e, default, title, description)


def _field_part(f: Field) -> Part:
    return Part(f.name, f.enc, f.mode, f.default, f.title, f.description)


def _splice_parts(e: Encoding[Any], what: str) -> list[Part]:
    """The parts an operand of ``merge_objs`` contributes: a record's fields,
    also under ``def_`` (a name changes no byte and no value, and the
    reference's descriptions list the fields of a named record merged), so
    that the codecs read and write them as the merge's own."""
    named = e
    while isinstance(named, Def):
        named = named.inner
    if isinstance(named, Obj):
        return list(named.parts)
    if isinstance(e, ZeroWidth) and e.kind in ("empty", "unit"):
        return []  # no bytes and no members
    keys = e._object_fields()
    if keys is None:
        raise DefinitionError(
            f"merge_objs: {what} operand is not an object (its values are not dicts); "
            "only obj, merge_objs, empty, unit and unions of objects can be merged"
        )
    return [Part(f"<{what}>", e, "splice", keys=keys)]


class Parts(Encoding[T]):
    """What records and tuples share: a sequence of :class:`Part` s (read and
    written by generated code: :mod:`data_encoding.passes.binary.parts`)."""

    parts: tuple[Part, ...]
    #: the value is a dict (a record), else a tuple
    as_dict: bool
    #: the keys of a record's dicts (empty for a tuple)
    keys: frozenset[str] = frozenset()


class Obj(Parts[dict[str, Any]]):
    """A record: see :func:`obj`."""

    as_dict = True

    def __init__(self, parts: Sequence[Part]) -> None:
        names: set[str] = set()
        for p in parts:
            for key in p.keys if p.mode == "splice" else (p.key,):
                if key in names:
                    raise DefinitionError(f"duplicate field name {key!r} in a record")
                names.add(str(key))
        self.parts = tuple(parts)
        self.keys = frozenset(names)
        self.size = sequence_size((p.size for p in self.parts), "objects")

    def _object_fields(self) -> frozenset[str]:
        return self.keys

    def _rebuild(self) -> tuple[Any, ...]:
        return (Obj, (self.parts,))


class MergeObjs(Obj):
    """``merge_objs(left, right)``: one record with the fields of both."""

    def __init__(self, left: Encoding[Any], right: Encoding[Any]) -> None:
        self.left = left
        self.right = right
        super().__init__(_splice_parts(left, "left") + _splice_parts(right, "right"))

    def _rebuild(self) -> tuple[Any, ...]:
        return (MergeObjs, (self.left, self.right))


@combinator
def obj(*fields: Field) -> Obj:
    """A record of ``fields`` (see the module documentation)."""
    for f in fields:
        if not isinstance(f, Field):
            raise DefinitionError(f"obj() takes fields made by req/opt/varopt/dft, not {f!r}")
    return Obj([_field_part(f) for f in fields])


@combinator
def merge_objs(a: Encoding[Any], b: Encoding[Any]) -> Obj:
    """One record with the fields of ``a`` then those of ``b``."""
    return MergeObjs(expect_encoding(a, "merge_objs"), expect_encoding(b, "merge_objs"))


# ---------------------------------------------------------------- tuples


def _tuple_parts(e: Encoding[Any], what: str) -> list[Part]:
    if isinstance(e, Tup):
        return list(e.parts)
    arity = e._tuple_arity()
    if arity is None:
        raise DefinitionError(
            f"merge_tups: {what} operand is not a tuple; only tup and merge_tups can be merged"
        )
    return [Part(f"<{what}>", e, "splice", arity=arity)]


class Tup(Parts[tuple[Any, ...]]):
    """A tuple: see :func:`tup`."""

    as_dict = False

    def __init__(self, parts: Sequence[Part]) -> None:
        if not parts:
            raise DefinitionError("tup() needs at least one element (use unit for nothing)")
        index = 0
        renumbered = []
        for p in parts:  # keys are the positions in the flattened tuple
            renumbered.append(Part(index, p.enc, p.mode, arity=p.arity))
            index += p.arity if p.mode == "splice" else 1
        self.parts = tuple(renumbered)
        self.arity = index
        self.size = sequence_size((p.size for p in self.parts), "tuples")

    def _tuple_arity(self) -> int:
        return self.arity

    def _rebuild(self) -> tuple[Any, ...]:
        return (Tup, (self.parts,))


class MergeTups(Tup):
    """``merge_tups(left, right)``: one tuple with the elements of both."""

    def __init__(self, left: Encoding[Any], right: Encoding[Any]) -> None:
        self.left = left
        self.right = right
        super().__init__(_tuple_parts(left, "left") + _tuple_parts(right, "right"))

    def _rebuild(self) -> tuple[Any, ...]:
        return (MergeTups, (self.left, self.right))


@combinator
def tup(*elements: Encoding[Any]) -> Tup:
    """A tuple of ``elements`` (see the module documentation)."""
    return Tup([Part(i, expect_encoding(e, "tup")) for i, e in enumerate(elements)])


@combinator
def merge_tups(a: Encoding[Any], b: Encoding[Any]) -> Tup:
    """One tuple with the elements of ``a`` then those of ``b``."""
    return MergeTups(expect_encoding(a, "merge_tups"), expect_encoding(b, "merge_tups"))


class Described(Transparent[Any]):
    """``inner``, described in binary schemas and tables as ``record``, an
    encoding of the very same bytes that the reference writes with other
    values (``{"prim": p, "arg": a}`` where ``inner`` reads ``{"prim": p,
    "args": [a]}``): the codecs, strategies and slices are ``inner``'s."""

    def __init__(self, inner: Encoding[Any], record: Encoding[Any]) -> None:
        if inner.size != record.size:
            raise DefinitionError(
                f"a description of {inner!r} has its size class ({inner.size}): "
                f"{record!r} is {record.size}"
            )
        self.inner = inner
        self.size = inner.size
        self.record = record

    def _rebuild(self) -> tuple[Any, ...]:
        return (Described, (self.inner, self.record))


class Named(Described):
    """``inner``, described as the reference's ``obj1 (req name inner)``, whose
    value is the field's own (a one-field record in binary schemas only)."""

    def __init__(self, name: str, inner: Encoding[Any]) -> None:
        self.name = name
        super().__init__(inner, obj(req(name, inner)))

    def _rebuild(self) -> tuple[Any, ...]:
        return (Named, (self.name, self.inner))
