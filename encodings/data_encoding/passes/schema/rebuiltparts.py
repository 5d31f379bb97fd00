"""The parts a rebuilt encoding is made of (:mod:`.rebuilder`): the items of
a field list, and the combinators that give a part the bytes, the JSON and
the description its schema states."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from ...compiling import built
from ...errors import DefinitionError
from ...tree.core import Encoding
from ...tree.framing import DynamicSize, HeaderKind
from ...tree.primitives import (
    null,
)
from ...tree.records import (
    Field,
    merge_objs,
    obj,
    req,
    tup,
)
from ...tree.size import VARIABLE, Size
from ...tree.wrappers import Def, Splitted, conv, splitted
from . import values as bs
from .shapes import shape


@dataclass(frozen=True)
class Item:
    """A part of a record (``named``: a field, or a record merged in) or of a
    tuple (``anon``: an element, or with ``splice`` a tuple merged in); of
    no kind when it holds no field (a padding of nothing)."""

    kind: Literal["named", "anon"] | None
    part: Any  # a Field, or an encoding
    splice: bool = False
    #: the element when it is the list's only part, if not ``part``
    alone: Encoding[Any] | None = None


NO_FIELDS: Encoding[Any] = splitted(
    json=obj(), binary=conv(lambda _: (None, None), lambda _: {}, tup(null, null))
)
"""A list of no fields: the value ``{}`` (JSON ``{}``), described with no
field, and in a field as an entry of its own (legacy; 1.0 says zero-width)."""


def unwrapped_id(e: Encoding[Any]) -> int:
    """The identity of the encoding ``e`` stands for, its JSON names and
    its frame aside (a union of records framed alone merges as one)."""
    while (isinstance(e, Splitted) and isinstance(e.json, Def)) or isinstance(e, DynamicSize):
        e = e.binary if isinstance(e, Splitted) else e.inner
    return id(e)


def kind_of(items: list[Item], path: str = "") -> Literal["named", "anon"] | None:
    kinds = {i.kind for i in items} - {None}
    if len(kinds) > 1:
        raise DefinitionError(f"from_schema: {path} mixes named and anonymous fields")
    if kinds and len(kinds) != len({i.kind for i in items}):
        raise DefinitionError(f"from_schema: {path}: a padding or an empty frame beside fields")
    return kinds.pop() if kinds else None


@dataclass(frozen=True)
class KnownParts:
    """What a known primitive's binary schema says, its entries' names set
    aside: where the JSON schema names it, the place must say the same."""

    #: its entries, by name
    entries: Mapping[str, bs.Entry]
    #: the shape of its top fields
    whole: Hashable
    #: if its top is one value (a hash is an ``obj1`` in binary), perhaps in a
    #: frame of its own (a fitness): the frame's size header, the shape of
    #: the value's layout and its size
    one: tuple[HeaderKind | None, Hashable, Size] | None

    def one_value(self, layout: Hashable, kind: Size | None, header: HeaderKind | None) -> bool:
        """Whether it is one value of the shape ``layout`` (of size ``kind``,
        when stated: a ``Variable`` field may be a ``varopt`` of it, which
        is described so whatever its size), named or not, in a frame of
        ``header`` if given."""
        return (
            self.one is not None
            and self.one[:2] == (header, layout)
            and kind in (None, VARIABLE, self.one[2])
        )


def known_parts(known: Encoding[Any]) -> KnownParts:
    """``known``'s :class:`KnownParts`, kept on it (asked at each place its
    name is met)."""
    return built(known, "schema.rebuild.known", partial(_known_parts, known))


def _known_parts(known: Encoding[Any]) -> KnownParts:
    described = known.describe()
    top = tuple(described.toplevel.fields) if isinstance(described.toplevel, bs.Obj) else ()
    entries = {e.description.title: e for e in described.fields}
    header, one = None, top[0] if len(top) == 1 else None
    if len(top) == 2 and isinstance(top[0], bs.DynamicSizeField) and top[0].num_fields == 1:
        header, one = top[0].size, top[1]
    if not isinstance(one, bs.NamedField | bs.AnonymousField) or header == "N":
        return KnownParts(entries, shape(top, entries), None)
    value = (header, shape(one.layout, entries), one.kind)
    return KnownParts(entries, shape(top, entries), value)


def size_header(f: bs.DynamicSizeField, path: str) -> HeaderKind:
    if f.size == "N":
        raise DefinitionError(
            f"from_schema: {path} is an N size header, which this library cannot read"
        )
    return f.size


def keyed_case(title: str, payload: Encoding[Any]) -> Encoding[Any]:
    """A case's payload as the value ``{title: payload}``, JSON ``{"title": ...}``."""
    return splitted(
        json=obj(req(title, payload)),
        binary=conv(lambda v: v[title], lambda p: {title: p}, payload),
    )


def as_element(e: Encoding[Any]) -> Encoding[Any]:
    """``e``, described as the element of a ``tup1``: an entry of its own,
    never inlined in a record (its values and JSON are ``e``'s)."""
    return splitted(json=e, binary=conv(_one, _only, tup(e)))


def entry_of_one(body: Encoding[Any], field: bs.FieldDescr) -> Encoding[Any]:
    """``body``, of the one field ``field``, described as an entry of its
    own where ``describe`` would inline it: beside a zero-width part, which
    ``describe`` drops (a tuple's or record's zero-width parts gave the
    original its entry). Its values and JSON are ``body``'s."""
    if isinstance(field, bs.NamedField) and field.layout != bs.Padding():
        key, other = field.name, "" if field.name else "_"
        beside: Encoding[Any] = conv(
            lambda v: {key: v[key], other: None},
            lambda v: {key: v[key]},
            merge_objs(body, obj(req(other, null))),
        )
    elif isinstance(field, bs.AnonymousField):
        beside = conv(lambda v: (None, v), lambda t: t[1], tup(null, body))
    else:
        return body
    return splitted(json=body, binary=beside)


def _one(v: Any) -> tuple[Any]:
    return (v,)


def _only(t: tuple[Any]) -> Any:
    return t[0]


def merged_record(parts: list[Field | Encoding[Any]]) -> Encoding[Any]:
    """A record of ``parts``: fields, and framed records merged in their place."""
    result: Encoding[Any] | None = None
    run: list[Field] = []
    for p in parts:
        if isinstance(p, Field):
            run.append(p)
            continue
        left = obj(*run) if run else None
        result = p if result is None and left is None else _merged(result, left, p)
        run = []
    if result is None:
        return obj(*run)
    return merge_objs(result, obj(*run)) if run else result


def _merged(*encodings: Encoding[Any] | None) -> Encoding[Any]:
    present = [e for e in encodings if e is not None]
    result = present[0]
    for e in present[1:]:
        result = merge_objs(result, e)
    return result


def is_varopt(f: bs.NamedField, e: Encoding[Any]) -> bool:
    """A named ``Variable`` field whose layout is not of variable size: only
    a ``varopt`` is described so."""
    return f.kind is VARIABLE and e.size is not VARIABLE
