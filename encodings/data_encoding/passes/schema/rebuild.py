"""``from_schema``: an encoding rebuilt from a binary schema, the inverse of
:mod:`.describe`.

A schema is a :class:`~.values.BinarySchema` or its JSON form as a node
publishes it, in any dialect (:data:`~.language.binary_schema_v1` reads every
spelling). The rebuilt encoding reads and writes the bytes the schema
states, and describes itself as that schema: ``from_schema(s).describe() ==
s`` for every ``s`` that ``describe()`` made (in the dialect it was made in).

Each part of the schema becomes the combinator the reference describes so:

=======================================  ==========================================
schema                                   combinator
=======================================  ==========================================
``Zero_width``                           ``null`` (JSON ``null``; see below)
``Int`` ``Int8`` .. ``Int64``            ``int8`` .. ``int64`` (``int64``: JSON a
                                         decimal string, as the reference's)
``RangedInt`` -2^30..2^30-1 / 0..2^30-1  ``int31`` / ``uint30``
other ``RangedInt``, ``RangedFloat``     ``ranged_int``, ``ranged_float``
``Float``, ``Bool``                      ``float_``, ``bool_``
``Bytes`` / ``String`` of ``Fixed n``    ``fixed.bytes_(n)`` / ``fixed.string(n)``
... of ``Variable``                      ``variable.bytes_`` / ``variable.string``
``dyn`` header + its fields              ``dynamic_size(..., kind)``
``Seq`` (no limit / ``at-most n``)       ``variable.list_(e, n)``
``Seq`` ``exactly n``                    ``fixed.list_(n, e)``
count field then ``Seq``                 ``list_with_length(kind, e, n)``
``Enum`` + its ``Int_enum`` entry        ``def_(entry, string_enum(strings))``
``option_indicator`` + named field       ``opt(name, e)``
``named`` field, ``Variable``, alone     ``req`` (or ``varopt``: no byte says it)
named fields                             ``obj`` (``merge_objs`` around ``dyn``)
anonymous fields                         ``tup`` (one alone: itself)
``padding`` field last                   ``padded(e, n)``
an entry (``Ref``)                       ``def_(title, e)``
a recursive entry, or one with a         ``mu(title, ...)``
description
``N.t`` / ``Z.t``                        ``n`` / ``z``
``Cases``                                ``union`` of ``case(tag, name, ...)``
=======================================  ==========================================

What the binary schema does not say, and is chosen here:

* a **union case's value** is ``{name: payload}`` and its JSON
  ``{"name": payload}``: the binary schema drops what tells cases apart in
  JSON (a constant ``kind`` member is zero-width), so the case's name does;
  a case without a name is named by its tag (``"3"``);
* a **zero-width** layout is ``null`` (an ``option``'s ``None`` is then
  ``null``, as the reference's);
* a top-level union (a lone anonymous field of a union, where ``describe``
  numbers the union itself) keeps its entry's name by being described
  through ``tup1`` (its bytes and JSON are the union's);
* an anonymous count field (``Uint8``, ``Uint16``, ``RangedInt 0..2^30-1``)
  right before an ``at-most`` ``Seq`` the count can state is the
  sequence's count (``list_with_length``), never a separate integer: the
  schema says the same of both.

Where the schema does not determine the bytes, or names what the library
cannot read, :class:`~data_encoding.DefinitionError` says what and where (the
path in the schema): a ``Dynamic`` field with no ``dyn`` header, a
``Padding`` not last, a ``Ref`` to no entry, a little-endian integer, a
record that mixes named and anonymous fields (a record merged with a union
of records), an ``N`` size header (the library has no ``N`` frames).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import DefinitionError
from ...jsonvalue import JsonValue
from ...tree import fixed, variable
from ...tree.core import Encoding
from ...tree.framing import HeaderKind, dynamic_size, padded
from ...tree.primitives import (
    bool_,
    empty,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    null,
    ranged_float,
    ranged_int,
    uint8,
    uint16,
    uint30,
)
from ...tree.records import Field, merge_objs, obj, opt, req, tup, varopt
from ...tree.sequences import list_with_length
from ...tree.size import DYNAMIC, VARIABLE, Fixed, Size
from ...tree.unions import case, string_enum, union
from ...tree.wrappers import Def, conv, def_, mu, splitted
from ...tree.zarith import n, z
from . import values as bs
from .language import binary_schema_v1

__all__ = ["from_schema"]

_INTS: dict[str, Encoding[int]] = {
    "Int8": int8,
    "Uint8": uint8,
    "Int16": int16,
    "Uint16": uint16,
    "Int32": int32,
    "Int64": int64,
}

_INT31 = (-(2**30), 2**30 - 1)
_UINT30 = (0, 2**30 - 1)

_COUNTS: dict[bs.Layout, tuple[HeaderKind, int]] = {
    bs.Int("Uint8"): ("Uint8", 255),
    bs.Int("Uint16"): ("Uint16", 65535),
    bs.RangedInt(*_UINT30): ("Uint30", 2**30 - 1),
}
"""An anonymous field that is a list's count: the header kind and its largest count."""

_ZARITH = {"N.t": n, "Z.t": z}


def from_schema(schema: bs.BinarySchema | JsonValue) -> Encoding[Any]:
    """The encoding ``schema`` describes (see the module docstring for the
    forms): a :class:`~data_encoding.BinarySchema` value, or its JSON form in
    any dialect. Raises :class:`~data_encoding.DefinitionError` where the
    schema does not determine the bytes, naming the place in the schema."""
    if not isinstance(schema, bs.BinarySchema):
        schema = binary_schema_v1.from_json(schema)
    return _Rebuilder(schema).toplevel()


class _Rebuilder:
    def __init__(self, schema: bs.BinarySchema) -> None:
        self.schema = schema
        self.entries = {entry.description.title: entry for entry in schema.fields}
        self.built: dict[str, Encoding[Any]] = {}
        self.selves: dict[str, Encoding[Any]] = {}  # the mus being built
        self.recursive = _recursive_entries(self.entries)

    def toplevel(self) -> Encoding[Any]:
        top = self.schema.toplevel
        if not isinstance(top, bs.Obj):
            raise DefinitionError("from_schema: the toplevel of a binary schema is an Obj")
        return self.fields(top.fields, "toplevel")

    # ------------------------------------------------------------ entries

    def entry(self, name: str, path: str) -> Encoding[Any]:
        """The encoding of the entry ``name``, built once."""
        if name in self.selves:
            return self.selves[name]
        if name in self.built:
            return self.built[name]
        found = self.entries.get(name)
        if found is None:
            raise DefinitionError(f"from_schema: {path} refers to {name!r}, which no entry is")
        where = f"fields[{name!r}]"
        zarith = _ZARITH.get(name)
        enc = found.encoding
        if zarith is not None and enc == bs.Obj((bs.NamedField(name, DYNAMIC, bs.Bytes()),)):
            built: Encoding[Any] = zarith
        elif isinstance(enc, bs.IntEnum):  # a string_enum in a field of its own
            return self.enum(bs.Enum(enc.size, name), path)
        elif name in self.recursive or found.description.description is not None:

            def body(self_: Encoding[Any]) -> Encoding[Any]:
                self.selves[name] = self_
                try:
                    # named by a def_, so that describe names the body's
                    # entry after the mu, not from its counter
                    return def_(name, self.toplevel_encoding(enc, where))
                finally:
                    del self.selves[name]

            built = mu(name, body, description=found.description.description)
        else:
            built = def_(name, self.toplevel_encoding(enc, where))
        self.built[name] = built
        return built

    def toplevel_encoding(self, enc: bs.Toplevel, path: str) -> Encoding[Any]:
        if isinstance(enc, bs.Obj):
            return self.fields(enc.fields, path)
        if isinstance(enc, bs.Cases):
            return self.cases(enc, path)
        raise DefinitionError(f"from_schema: {path} is an Int_enum where a record is expected")

    def cases(self, enc: bs.Cases, path: str) -> Encoding[Any]:
        tag = bs.NamedField("Tag", Fixed(1 if enc.tag_size == "Uint8" else 2), bs.Int(enc.tag_size))
        if not enc.cases:
            raise DefinitionError(f"from_schema: {path}: a union of no cases")
        built = []
        for c in enc.cases:
            where = f"{path}.cases[tag {c.tag}]"
            if not c.fields or c.fields[0] != tag:
                raise DefinitionError(f"from_schema: {where} does not begin with its Tag field")
            title = str(c.tag) if c.name is None else c.name
            built.append(case(c.tag, title, _keyed(title, self.fields(c.fields[1:], where))))
        return union(built, enc.tag_size)

    # ------------------------------------------------------------ fields

    def fields(self, fields: Sequence[bs.FieldDescr], path: str, start: int = 0) -> Encoding[Any]:
        """The encoding whose ``describe`` fields are ``fields``, the fields
        ``start``, ``start + 1``... of the list at ``path``."""
        if fields and isinstance(fields[-1], bs.NamedField) and fields[-1].layout == bs.Padding():
            last = fields[-1]
            assert isinstance(last, bs.NamedField)
            if not isinstance(last.kind, Fixed):
                raise DefinitionError(f"from_schema: {path}: padding of no fixed size")
            return padded(self.fields(fields[:-1], path, start), last.kind.n)
        if (
            len(fields) == 2
            and isinstance(fields[0], bs.DynamicSizeField)
            and (fields[0].name, fields[0].num_fields) == (None, 1)
            and isinstance(fields[1], bs.NamedField)
        ):
            # a framed record of one field: the record goes inside the frame,
            # where describe does not inline it as it would a lone ``req``
            return dynamic_size(
                self.fields(fields[1:], path, start + 1),
                _header(fields[0], f"{path}.fields[{start}]"),
            )
        if len(fields) == 1 and isinstance(fields[0], bs.AnonymousField):
            return self.lone(fields[0], f"{path}.fields[{start}]")
        if len(fields) == 1 and fields[0] == bs.AnonymousField(Fixed(0), bs.ZeroWidth()):
            return null  # a legacy zero-width body
        named: list[Field | Encoding[Any]] = []
        anonymous: list[Encoding[Any]] = []
        i = 0
        while i < len(fields):
            f = fields[i]
            where = f"{path}.fields[{start + i}]"
            if isinstance(f, bs.OptionalField):
                value = fields[i + 1] if i + 1 < len(fields) else None
                if not isinstance(value, bs.NamedField) or value.name != f.name:
                    raise DefinitionError(
                        f"from_schema: {where}: the option indicator of {f.name!r} is not "
                        "followed by its field"
                    )
                # None means absent: a zero-width option is ``empty``
                e = (
                    empty
                    if value.layout == bs.ZeroWidth()
                    else self.layout(value.layout, value.kind, where)
                )
                named.append(opt(f.name, e))
                i += 2
            elif isinstance(f, bs.DynamicSizeField):
                body = fields[i + 1 : i + 1 + f.num_fields]
                if len(body) != f.num_fields:
                    raise DefinitionError(f"from_schema: {where}: fewer fields than its header")
                inner = body[0] if len(body) == 1 else None
                if isinstance(inner, bs.NamedField):
                    layout = self.layout(
                        inner.layout, inner.kind, f"{path}.fields[{start + i + 1}]"
                    )
                    framed = dynamic_size(layout, _header(f, where))
                    named.append(
                        req(inner.name, framed if f.name is None else def_(f.name, framed))
                    )
                else:
                    framed = dynamic_size(self.fields(body, path, start + i + 1), _header(f, where))
                    all_named = all(isinstance(b, bs.NamedField | bs.OptionalField) for b in body)
                    (named if all_named else anonymous).append(framed)
                i += 1 + f.num_fields
            elif isinstance(f, bs.NamedField):
                e = self.layout(f.layout, f.kind, where)
                if _is_varopt(f, e):
                    named.append(varopt(f.name, empty if f.layout == bs.ZeroWidth() else e))
                else:
                    named.append(req(f.name, e))
                i += 1
            else:
                count = _count_of(f, fields[i + 1] if i + 1 < len(fields) else None)
                if count is not None:
                    seq = fields[i + 1]
                    assert isinstance(seq, bs.AnonymousField) and isinstance(seq.layout, bs.Seq)
                    elt = self.layout(
                        seq.layout.layout, None, f"{path}.fields[{start + i + 1}].layout"
                    )
                    anonymous.append(list_with_length(count, elt, seq.layout.limit))
                    i += 2
                else:
                    anonymous.append(self.layout(f.layout, f.kind, where))
                    i += 1
        if named and anonymous:
            raise DefinitionError(f"from_schema: {path} mixes named and anonymous fields")
        if anonymous:
            return anonymous[0] if len(anonymous) == 1 else tup(*anonymous)
        return _record(named)

    def lone(self, f: bs.AnonymousField, path: str) -> Encoding[Any]:
        """A lone anonymous field: the value itself. An entry is described
        through ``tup1``, which passes its name on, where ``describe`` would
        number a union from its counter or inline a record."""
        e = self.layout(f.layout, f.kind, path)
        if isinstance(f.layout, bs.Ref) and isinstance(e, Def):
            entry = self.entries[f.layout.name].encoding
            if isinstance(entry, bs.IntEnum):
                return e
            if isinstance(entry, bs.Cases):
                return splitted(json=e, binary=conv(_one, _only, tup(e)))
            return tup(e)
        return e

    # ------------------------------------------------------------ layouts

    def layout(self, layout: bs.Layout, kind: Size | None, path: str) -> Encoding[Any]:
        """The encoding of ``layout`` in a field of size class ``kind``."""
        if isinstance(layout, bs.ZeroWidth):
            return null
        if isinstance(layout, bs.Int | bs.RangedInt) and layout.endianness == "Little":
            raise DefinitionError(
                f"from_schema: {path} is a little-endian integer, which this library cannot read"
            )
        if isinstance(layout, bs.Int):
            return _INTS[layout.size]
        if isinstance(layout, bs.RangedInt):
            bounds = (layout.min, layout.max)
            return (
                int31 if bounds == _INT31 else uint30 if bounds == _UINT30 else ranged_int(*bounds)
            )
        if isinstance(layout, bs.Bool):
            return bool_
        if isinstance(layout, bs.Float):
            return float_
        if isinstance(layout, bs.RangedFloat):
            return ranged_float(layout.min, layout.max)
        if isinstance(layout, bs.Bytes | bs.String):
            text = isinstance(layout, bs.String)
            if isinstance(kind, Fixed):
                return fixed.string(kind.n) if text else fixed.bytes_(kind.n)
            if kind is VARIABLE:
                return variable.string if text else variable.bytes_
            raise DefinitionError(
                f"from_schema: {path}: {type(layout).__name__.lower()} of a dynamic size with no "
                "size header before it: where it ends is not stated"
            )
        if isinstance(layout, bs.Enum):
            return self.enum(layout, path)
        if isinstance(layout, bs.Seq):
            elt = self.layout(layout.layout, None, f"{path}.layout")
            if layout.exact:
                assert layout.limit is not None
                return fixed.list_(layout.limit, elt)
            return variable.list_(elt, layout.limit)
        if isinstance(layout, bs.Ref):
            return self.entry(layout.name, path)
        raise DefinitionError(f"from_schema: {path}: padding that is not a record's last field")

    def enum(self, layout: bs.Enum, path: str) -> Encoding[Any]:
        name = layout.reference
        if name not in self.built:
            found = self.entries.get(name)
            if found is None or not isinstance(found.encoding, bs.IntEnum):
                raise DefinitionError(f"from_schema: {path} refers to no Int_enum {name!r}")
            cases = found.encoding.cases
            if [i for i, _ in cases] != list(range(len(cases))):
                raise DefinitionError(
                    f"from_schema: fields[{name!r}]: an Int_enum's cases are numbered 0, 1, ..."
                )
            self.built[name] = def_(name, string_enum([s for _, s in cases]))
        return self.built[name]


def _header(f: bs.DynamicSizeField, path: str) -> HeaderKind:
    if f.size == "N":
        raise DefinitionError(
            f"from_schema: {path} is an N size header, which this library cannot read"
        )
    return f.size


def _keyed(title: str, payload: Encoding[Any]) -> Encoding[Any]:
    """A case's payload as the value ``{title: payload}``, JSON ``{"title": ...}``."""
    return splitted(
        json=obj(req(title, payload)),
        binary=conv(lambda v: v[title], lambda p: {title: p}, payload),
    )


def _one(v: Any) -> tuple[Any]:
    return (v,)


def _only(t: tuple[Any]) -> Any:
    return t[0]


def _record(parts: list[Field | Encoding[Any]]) -> Encoding[Any]:
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


def _is_varopt(f: bs.NamedField, e: Encoding[Any]) -> bool:
    """A named ``Variable`` field whose layout is not of variable size: only
    a ``varopt`` is described so."""
    return f.kind is VARIABLE and e.size is not VARIABLE


def _count_of(f: bs.FieldDescr, following: bs.FieldDescr | None) -> HeaderKind | None:
    """The header kind, if ``f`` is the count of the ``Seq`` that follows it."""
    count = _COUNTS.get(f.layout) if isinstance(f, bs.AnonymousField) else None
    if count is None or not isinstance(following, bs.AnonymousField):
        return None
    seq = following.layout
    if not isinstance(seq, bs.Seq) or seq.exact or seq.limit is None or seq.limit > count[1]:
        return None
    return count[0]


def _recursive_entries(entries: dict[str, bs.Entry]) -> frozenset[str]:
    """The entries that refer to themselves, directly or through others."""
    refs = {name: _refs(entry.encoding) for name, entry in entries.items()}
    recursive = set()
    for start in refs:
        seen: set[str] = set()
        stack = list(refs[start])
        while stack:
            name = stack.pop()
            if name == start:
                recursive.add(start)
                break
            if name not in seen and name in refs:
                seen.add(name)
                stack.extend(refs[name])
    return frozenset(recursive)


def _refs(enc: bs.Toplevel) -> set[str]:
    fields: list[bs.FieldDescr] = []
    if isinstance(enc, bs.Obj):
        fields = list(enc.fields)
    elif isinstance(enc, bs.Cases):
        fields = [f for c in enc.cases for f in c.fields]
    names: set[str] = set()
    for f in fields:
        layout = f.layout if isinstance(f, bs.NamedField | bs.AnonymousField) else None
        while isinstance(layout, bs.Seq):
            layout = layout.layout
        if isinstance(layout, bs.Ref):
            names.add(layout.name)
    return names
