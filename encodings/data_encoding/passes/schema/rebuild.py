"""``rebuild`` (public as ``data_encoding.from_schema``): an encoding rebuilt
from a binary schema, the inverse of :mod:`.describe`.

A schema is a :class:`~.values.BinarySchema` or its JSON form as a node
publishes it, in any dialect (:data:`~.language.binary_schema_v1` reads every
spelling). The rebuilt encoding reads and writes the bytes the schema
states, and describes itself as that schema: ``from_schema(s).describe() ==
s`` for ``s`` that ``describe()`` made (in the dialect it was made in), but
for the kinds ``tests/rebuild_kinds.py`` lists (97 % of random encodings
rebuild exactly: ``tests/rebuild_share.py``): a ``mu``'s entry among others
comes out in another order, zero-width anonymous fields beside others (legacy's
merged empty records) are dropped. The schema itself leaves unstated an
optional field of a variable-size value (no presence byte: rebuilt as a
required field) and a size header around a zero-width field (dropped with it).
One schema pair is rebuilt once (the last :data:`REBUILT_KEPT` are kept),
and its encoding pickles as the pair.

The entries ``describe`` named from its counter (``X_<n>``) were anonymous:
they are rebuilt anonymous, so that ``describe`` numbers them again, where it
then numbers them alike in every dialect the schema is exact in; else they
are named by a ``def_`` of their name.

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
a ``padding`` field                      ``padded(what precedes it, n)``
no field                                 the value ``{}`` (JSON ``{}``)
an entry (``Ref``)                       ``def_(title, e)``
a recursive entry, or one with a         ``mu(title, ...)``
description
``N.t`` / ``Z.t``                        ``n`` / ``z``
``Cases``                                ``union`` of ``case(tag, name, ...)``
=======================================  ==========================================

What the binary schema does not say, the **JSON schema** published beside
it says, when it is given (:mod:`.jsonguide`): a record's zero-width members
(constants, empty objects, nulls) and their order; a union case's JSON, its
payload's own (matched by title, else by position); a ``Variable`` field
not required in JSON is a ``varopt``; a framed string whose JSON is not a
string is a JSON value in BSON (``json``); a ``oneOf`` of no binary case is
JSON only; its definitions' names and titles; and the places that are
*primitives* the caller knows by their definition's name or title
(:class:`Primitives`: the node's hashes, keys, timestamps...), used where the
binary schema describes them (their entries' names aside: :mod:`.shapes`;
where those differ, described as the published schema says). Without it:

* a **union case's value** is ``{name: payload}`` and its JSON
  ``{"name": payload}``: the binary schema drops what tells cases apart in
  JSON (a constant ``kind`` member is zero-width), so the case's name does;
  a case without a name is named by its tag (``"3"``);
* a **zero-width** layout is ``null`` (an ``option``'s ``None`` is then
  ``null``, as the reference's); a union of no case, a JSON-only union
  (any JSON value, whose bytes no tag starts);
* a top-level union (a lone anonymous field of a union, where ``describe``
  numbers the union itself) keeps its entry's name by being described
  through ``tup1`` (its bytes and JSON are the union's);
* an anonymous count field (``Uint8``, ``Uint16``, ``RangedInt 0..2^30-1``)
  right before an ``at-most`` ``Seq`` the count can state is the
  sequence's count (``list_with_length``), never a separate integer: the
  schema says the same of both.

Where the schema does not determine the bytes, or names what the library
cannot read, :class:`~data_encoding.DefinitionError` says what and where (the
path in the schema): a ``Dynamic`` field with no ``dyn`` header (a list of
hashes: a ``Seq`` does not state its elements' size), a ``Ref`` to no entry,
two entries of one name, a little-endian integer, a record that mixes named
and anonymous fields (a record merged with a union of records), a padding
of nothing beside fields, an ``N`` size header (the library has no ``N``
frames), entries nested more than :func:`~data_encoding.max_depth` deep.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...depth import max_depth
from ...errors import DefinitionError
from ...jsonvalue import JsonValue, dumps, loads
from ...tree import fixed, variable
from ...tree.anyjson import json as any_json
from ...tree.core import Encoding, made_by
from ...tree.framing import DynamicSize, HeaderKind, dynamic_size, padded
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
from ...tree.records import (
    Described,
    Field,
    Obj,
    Tup,
    merge_objs,
    merge_tups,
    obj,
    opt,
    req,
    tup,
    varopt,
)
from ...tree.sequences import ListEncoding, list_with_length
from ...tree.size import DYNAMIC, VARIABLE, Fixed, Size
from ...tree.unions import Union, case, option, string_enum, union
from ...tree.wrappers import Def, Mu, Splitted, conv, def_, mu, splitted
from ...tree.zarith import Zarith, n, z
from ..choosing import member
from ..transparent import unwrap
from . import values as bs
from .jsonguide import Guide, Js
from .jsonschema import BUILTIN_DEFINITIONS
from .language import binary_schema_v1
from .shapes import shape
from .values import Dialect

__all__ = ["NO_PRIMITIVES", "Primitives", "rebuild"]

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

_ANONYMOUS = re.compile(r"X_[0-9]+")
"""The names ``describe`` gives the entries of anonymous parts."""

REBUILT_KEPT = 4096
"""How many rebuilt encodings are kept, the most recently used (a node's
whole ``/describe`` answer has a few hundred schemas)."""


@dataclass(frozen=True, eq=False)
class Primitives:
    """Encodings known by the name of their JSON schema definition
    (``block_hash``), the candidates of each name: where a JSON schema
    refers to one, and the binary schema says what it describes (entries
    included), the rebuilt encoding is that one."""

    by_name: Mapping[str, tuple[Encoding[Any], ...]]
    #: the same, by their definitions' titles (a JSON schema may inline the
    #: definition of its root)
    by_title: Mapping[str, tuple[Encoding[Any], ...]] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:  # a cache key: by what it holds
        return (
            isinstance(other, Primitives)
            and dict(self.by_name) == dict(other.by_name)
            and dict(self.by_title) == dict(other.by_title)
        )

    def __hash__(self) -> int:
        return hash(frozenset(self.by_name))


NO_PRIMITIVES = Primitives({})


def rebuild(
    schema: bs.BinarySchema | JsonValue,
    json_schema: JsonValue | None = None,
    *,
    primitives: Primitives = NO_PRIMITIVES,
) -> Encoding[Any]:
    """The encoding ``schema`` describes (see the module docstring for the
    forms): a :class:`~data_encoding.BinarySchema` value, or its JSON form in
    any dialect, with the ``json_schema`` published beside it when given
    (:mod:`.jsonguide`: what it adds), the ``primitives`` known by name.
    Raises :class:`~data_encoding.DefinitionError` where the pair does not
    determine the bytes, naming the place in the schema."""
    if not isinstance(schema, bs.BinarySchema):
        schema = binary_schema_v1.from_json(schema)
    text = None if json_schema is None else dumps(json_schema)
    return _rebuilt(schema, text, primitives)


@functools.lru_cache(maxsize=REBUILT_KEPT)
def _rebuilt(
    schema: bs.BinarySchema, json_text: str | None, primitives: Primitives
) -> Encoding[Any]:
    # one encoding per schema pair (a pair met in two answers, or two
    # protocols, is compiled once); it pickles as the pair, and is rebuilt
    # (from this cache) on the other side
    guide = None if json_text is None else Guide(loads(json_text))
    # the first of the ways to rebuild that describes as the schema
    # (legacy's words first): the entries named ``X_<n>`` anonymous (describe
    # numbers them again) or named by a def_; the JSON schema's help taken,
    # or, where it would change the bytes' schema, left
    ways = [(True, True), (True, False)] if guide is not None else []
    ways += [(False, True), (False, False)]
    one_zero: Encoding[Any] | None = None  # exact in 1.0's words
    inexact: tuple[bool, Encoding[Any]] | None = None
    refused: DefinitionError | None = None
    for use_json, anonymous in ways:
        if one_zero is not None and not use_json:
            break  # the JSON's help kept
        rebuilder = _Rebuilder(schema, guide if use_json else None, primitives, anonymous)
        try:
            built = rebuilder.toplevel()
        except DefinitionError as error:  # the first way's error is the one said
            refused = refused or error
            continue
        if _describes(built, schema, "legacy"):
            return made_by(built, _unpickled, schema, json_text, primitives)
        if one_zero is None and _describes(built, schema, "1.0"):
            one_zero = built
        elif inexact is None or (inexact[0] and not use_json):
            inexact = (use_json, built)  # none exact: the binary schema alone is the safer guide
    best = one_zero or (inexact[1] if inexact is not None else None)
    if best is None:
        assert refused is not None
        raise refused
    return made_by(best, _unpickled, schema, json_text, primitives)


def _describes(e: Encoding[Any], schema: bs.BinarySchema, dialect: Dialect) -> bool:
    """Whether ``e`` describes as ``schema`` in ``dialect``'s words."""
    try:
        return e.describe(dialect) == schema
    except DefinitionError:
        return False


def _unpickled(
    schema: bs.BinarySchema, json_text: str | None, primitives: Primitives
) -> Encoding[Any]:
    return _rebuilt(schema, json_text, primitives)


class _Rebuilder:
    def __init__(
        self,
        schema: bs.BinarySchema,
        guide: Guide | None,
        primitives: Primitives,
        anonymous: bool,
    ) -> None:
        self.schema = schema
        #: whether the entries named ``X_<n>`` are rebuilt anonymous
        self.anonymous = anonymous
        self.guide = guide
        self.primitives = primitives
        self.entries: dict[str, bs.Entry] = {}
        for entry in schema.fields:
            title = entry.description.title
            if title in self.entries:
                raise DefinitionError(f"from_schema: two entries are named {title!r}")
            self.entries[title] = entry
        self.built: dict[str, Encoding[Any]] = {}
        self.selves: dict[str, Encoding[Any]] = {}  # the mus being built
        self.recursive = _recursive_entries(self.entries)
        self.depth = 0  # of the entries being built, one inside the other

    def toplevel(self) -> Encoding[Any]:
        top = self.schema.toplevel
        if not isinstance(top, bs.Obj):
            raise DefinitionError("from_schema: the toplevel of a binary schema is an Obj")
        root = None if self.guide is None else self.guide.root
        return self.json_named(self.fields(top.fields, "toplevel", js=root), root)

    # ------------------------------------------------------------ entries

    def entry(self, name: str, path: str, js: Js = None) -> Encoding[Any]:
        """The encoding of the entry ``name``, built once."""
        if name in self.selves:
            return self.selves[name]
        if name in self.built:
            return self.built[name]
        found = self.entries.get(name)
        if found is None:
            raise DefinitionError(f"from_schema: {path} refers to {name!r}, which no entry is")
        if self.depth >= max_depth():
            # untrusted input: a chain of entries nests encodings as deep
            raise DefinitionError(
                f"from_schema: {path}: entries refer to entries more than {max_depth()} deep "
                "(data_encoding.set_max_depth raises the limit)"
            )
        self.depth += 1
        try:
            return self.entry_body(name, found, js)
        finally:
            self.depth -= 1

    def entry_body(self, name: str, found: bs.Entry, js: Js) -> Encoding[Any]:
        where = f"fields[{name!r}]"
        zarith = _ZARITH.get(name)
        enc = found.encoding
        if zarith is not None and enc == bs.Obj((bs.NamedField(name, DYNAMIC, bs.Bytes()),)):
            built: Encoding[Any] = zarith
        elif isinstance(enc, bs.IntEnum):  # a string_enum in a field of its own
            return self.enum(bs.Enum(enc.size, name), where)
        elif name in self.recursive or found.description.description is not None:

            def fix(self_: Encoding[Any]) -> Encoding[Any]:
                self.selves[name] = self_
                try:
                    # named by a def_, so that describe names the body's
                    # entry after the mu, not from its counter
                    return def_(name, self.toplevel_encoding(enc, where, js))
                finally:
                    del self.selves[name]

            built = mu(name, fix, description=found.description.description)
        else:
            body = self.toplevel_encoding(enc, where, js)
            if isinstance(enc, bs.Obj) and len(enc.fields) == 1:
                body = _entry_of_one(body, enc.fields[0])
            elif isinstance(body, DynamicSize):
                # a record's field rule would peel the def_ and inline the frame
                body = _element(body)
            built = self.named(name, body)
        self.built[name] = built
        return built

    def named(self, name: str, body: Encoding[Any]) -> Encoding[Any]:
        """The entry ``name`` of ``body``: a ``def_``, but for an entry that
        ``describe`` named from its counter when rebuilt anonymous (a def_
        of a counter's name is another entry, whose name the counter may
        give another too: see :func:`_rebuilt`)."""
        return body if self.anonymous and _ANONYMOUS.fullmatch(name) else def_(name, body)

    def toplevel_encoding(self, enc: bs.Toplevel, path: str, js: Js) -> Encoding[Any]:
        if isinstance(enc, bs.Obj):
            return self.fields(enc.fields, path, js=js)
        if isinstance(enc, bs.Cases):
            return self.cases(enc, path, js)
        raise DefinitionError(f"from_schema: {path} is an Int_enum where a record is expected")

    def cases(self, enc: bs.Cases, path: str, js: Js) -> Encoding[Any]:
        tag = bs.NamedField("Tag", Fixed(1 if enc.tag_size == "Uint8" else 2), bs.Int(enc.tag_size))
        if not enc.cases:
            # JSON only (the node never sends its bytes): any JSON value,
            # which the bytes cannot hold
            return union([case(None, "JSON only", any_json)], enc.tag_size)
        payloads = []
        jsons = [None] * len(enc.cases) if self.guide is None else self.guide.cases(js, enc.cases)
        for c, js_case in zip(enc.cases, jsons, strict=True):
            where = f"{path}.cases[tag {c.tag}]"
            if not c.fields or c.fields[0] != tag:
                raise DefinitionError(f"from_schema: {where} does not begin with its Tag field")
            title = str(c.tag) if c.name is None else c.name
            payloads.append((c.tag, title, js_case, self.fields(c.fields[1:], where, js=js_case)))
        value = None if self.guide is None else self.guide.non_null(js)
        if value is not None and len(payloads) == 2:
            # an option: its None is null in JSON, its Some the value itself
            # (of the member that is not null: positions do not say which)
            cases = {(c.tag, c.name): c for c in enc.cases}
            some = cases.get((1, "Some"))
            if some is not None and (0, "None") in cases:
                payload = self.fields(some.fields[1:], f"{path}.cases[tag 1]", js=value)
                if not payload.nullable:
                    return option(payload)
        if self.guide is not None and all(js_case is not None for _, _, js_case, _ in payloads):
            # the JSON schema says each case's JSON: the payload's own, where
            # the values tell the cases apart (a constant member, or their
            # JSON types), as their bytes do
            try:
                direct = union([case(t, title, p) for t, title, _, p in payloads], enc.tag_size)
            except DefinitionError:
                direct = None  # cases whose JSON cannot be told apart: keyed below
            types = [self.guide.json_type(js_case) for _, _, js_case, _ in payloads]
            built = [_json_kind(p) for _, _, _, p in payloads]
            # told apart by type, or by a constant (a string enumeration's cases)
            kinds = [
                (kind, self.guide.constant(js_case))
                for kind, (_, _, js_case, _) in zip(types, payloads, strict=True)
            ]
            by_type = None not in types and len(set(kinds)) == len(kinds) and built == types
            if direct is not None and (len(payloads) == 1 or by_type or member(direct)):
                return direct
        return union(
            [case(t, title, _keyed(title, p)) for t, title, _, p in payloads], enc.tag_size
        )

    # ------------------------------------------------------------ fields

    def fields(
        self, fields: Sequence[bs.FieldDescr], path: str, start: int = 0, js: Js = None
    ) -> Encoding[Any]:
        """The encoding whose ``describe`` fields are ``fields``, the fields
        ``start``, ``start + 1``... of the list at ``path`` (``js``: its JSON schema)."""
        known = self.primitive(
            js,
            lambda top, entries: shape(top, entries) == self.shape(tuple(fields)),
            lambda: self.fields(fields, path, start),
        )
        if known is not None:
            return known
        alone = None if fields or self.guide is None else self.guide.zero_width(js)
        if alone is not None:  # a zero-width value alone (dropped in binary)
            return _element(alone)
        elements = None if fields or self.guide is None else self.guide.zero_width_elements(js)
        if elements:  # a tuple of zero-width elements (each dropped in binary)
            return tup(*elements) if len(elements) > 1 else _element(tup(*elements))
        items = self.items(fields, path, start, js)
        if self.one_element(js) and len(items) == 1 and items[0].kind == "anon":
            return tup(items[0].part)  # a tuple of one, as its JSON says (an array)
        return self.joined(self.with_constants(items, fields, js), path)

    def one_element(self, js: Js) -> bool:
        """Whether the JSON schema says a tuple of one element (``[x]``)."""
        return self.guide is not None and self.guide.elements(js, 1) != [None]

    def with_constants(
        self, items: list[_Item], fields: Sequence[bs.FieldDescr], js: Js
    ) -> list[_Item]:
        """``items`` with the record's constant members, which only its JSON
        schema states, in its members' order."""
        if self.guide is None or _kind_of(items, "") == "anon":
            return items
        named = {f.name for f in fields if isinstance(f, bs.NamedField | bs.OptionalField)}
        constants = [
            _Item("named", req(name, value))
            for name, value in self.guide.zero_width_members(js)
            if name not in named
        ]
        if not constants:
            return items
        if not all(isinstance(i.part, Field) for i in items):
            return constants + items  # merged records: their members' places are theirs
        order = {name: k for k, name in enumerate(self.guide.properties(js))}
        return sorted(items + constants, key=lambda i: order.get(i.part.name, len(order)))

    def items(
        self, fields: Sequence[bs.FieldDescr], path: str, start: int, js: Js = None
    ) -> list[_Item]:
        """``fields`` read left to right into the parts of a record or tuple:
        a size header takes the fields it counts, an option indicator its
        field, a count its sequence, and a padding everything before it."""
        items: list[_Item] = []
        anonymous = [k for k, f in enumerate(fields) if isinstance(f, bs.AnonymousField)]
        elements = dict(zip(anonymous, self.elements(js, len(anonymous)), strict=True))
        required = None if self.guide is None else self.guide.required(js)
        i = 0
        while i < len(fields):
            f = fields[i]
            where = f"{path}.fields[{start + i}]"
            following = fields[i + 1] if i + 1 < len(fields) else None
            member = (
                None
                if self.guide is None or isinstance(f, bs.AnonymousField)
                else (self.guide.property(js, f.name or ""))
            )
            if isinstance(f, bs.NamedField) and f.layout == bs.Padding():
                if not isinstance(f.kind, Fixed):
                    raise DefinitionError(f"from_schema: {where}: padding of no fixed size")
                kind = _kind_of(items, path)
                # what precedes the padding is one padded value, merged
                # with what follows as the parts of a tuple or a record are
                items = [_Item(kind, padded(self.joined(items, path), f.kind.n), splice=True)]
                i += 1
            elif isinstance(f, bs.OptionalField):
                if not isinstance(following, bs.NamedField) or following.name != f.name:
                    raise DefinitionError(
                        f"from_schema: {where}: the option indicator of {f.name!r} is not "
                        "followed by its field"
                    )
                # None means absent: a zero-width option is ``empty``
                e = (
                    empty
                    if following.layout == bs.ZeroWidth()
                    else self.layout(following.layout, following.kind, where, member)
                )
                items.append(_Item("named", opt(f.name, e)))
                i += 2
            elif isinstance(f, bs.DynamicSizeField):
                body = fields[i + 1 : i + 1 + f.num_fields]
                # a framed element's JSON is its own (a record's members, the record's)
                elements_only = all(isinstance(b, bs.AnonymousField) for b in body)
                at = (elements.get(i + 1) if len(body) == 1 else None) if elements_only else js
                items.append(self.framed(fields, i, path, start, at))
                i += 1 + f.num_fields
            elif isinstance(f, bs.NamedField):
                e = self.layout(f.layout, f.kind, where, member)
                # a variable-size field without presence byte is a varopt
                # where its member is optional (only the JSON schema says)
                optional = required is not None and f.name not in required
                if _is_varopt(f, e) or (f.kind is VARIABLE and optional):
                    field = varopt(f.name, empty if f.layout == bs.ZeroWidth() else e)
                else:
                    field = req(f.name, e)
                items.append(_Item("named", field))
                i += 1
            else:
                count = _count_of(f, following)
                if count is not None:
                    assert isinstance(following, bs.AnonymousField)
                    assert isinstance(following.layout, bs.Seq)
                    elt = self.layout(
                        following.layout.layout,
                        None,
                        f"{path}.fields[{start + i + 1}].layout",
                        None if self.guide is None else self.guide.items(elements[i + 1]),
                    )
                    items.append(
                        _Item("anon", list_with_length(count, elt, following.layout.limit))
                    )
                    i += 2
                else:
                    e = self.layout(f.layout, f.kind, where, elements[i])
                    items.append(_Item("anon", e, alone=self.alone(f.layout, e)))
                    i += 1
        return self.unions_merged(items, fields)

    def unions_merged(self, items: list[_Item], fields: Sequence[bs.FieldDescr]) -> list[_Item]:
        """``items``, where they mix named fields with anonymous unions of
        records, with those unions as records merged in (``merge_objs`` of
        a record and a union: each case's members beside the record's)."""
        kinds = {i.kind for i in items}
        if not {"named", "anon"} <= kinds:
            return items
        unions = {
            id(e)
            for f in fields
            if isinstance(f, bs.AnonymousField) and isinstance(f.layout, bs.Ref)
            for e in [self.built.get(f.layout.name)]
            if isinstance(self.entries[f.layout.name].encoding, bs.Cases)
        }
        if not all(i.kind != "anon" or _unwrapped_id(i.part) in unions for i in items):
            return items  # a tuple's elements beside fields: refused by the caller
        return [_Item("named", i.part, splice=True) if i.kind == "anon" else i for i in items]

    def elements(self, js: Js, count: int) -> list[Js]:
        """The JSON schemas of ``count`` anonymous fields: the value itself
        when it is alone, else a tuple's elements."""
        if self.guide is None:
            return [None] * count
        if count == 1 and not self.one_element(js):
            return [js]
        return self.guide.elements(js, count)

    def framed(
        self, fields: Sequence[bs.FieldDescr], i: int, path: str, start: int, js: Js
    ) -> _Item:
        """The size header ``fields[i]`` and the fields it frames."""
        f = fields[i]
        assert isinstance(f, bs.DynamicSizeField)
        where = f"{path}.fields[{start + i}]"
        body = fields[i + 1 : i + 1 + f.num_fields]
        if len(body) != f.num_fields:
            raise DefinitionError(f"from_schema: {where}: fewer fields than its header")
        header = _header(f, where)
        (one,) = body if len(body) == 1 else (None,)
        if (
            isinstance(one, bs.NamedField | bs.AnonymousField)
            and (header, one.kind, one.layout) == ("Uint30", VARIABLE, bs.String())
            and self.guide is not None
            and self.guide.any_json(
                js if isinstance(one, bs.AnonymousField) else self.guide.property(js, one.name)
            )
        ):
            # a JSON value, in BSON (the ``json`` encoding frames its text)
            value = any_json if f.name is None else def_(f.name, any_json)
            if isinstance(one, bs.NamedField):
                return _Item("named", req(one.name, value))
            return _Item("anon", value)
        known = self.primitive(
            js,
            lambda top, entries: shape(top, entries) == self.shape(tuple(body)),
            lambda: self.fields(body, path, start + i + 1),
        )
        if f.name is None and known is not None:  # a primitive framed alone
            return _Item(
                "named" if isinstance(one, bs.NamedField) else "anon",
                dynamic_size(known, header),
                splice=True,
            )
        if f.name is None:
            items = self.items(body, path, start + i + 1, js)
            kind = _kind_of(items, path)
            framed = dynamic_size(self.joined(items, path), header)
            return _Item(kind, framed, splice=kind == "named" or len(items) > 1)
        # a named header: a ``def_`` around the frame of one record field
        (inner,) = body if len(body) == 1 else (None,)
        if not isinstance(inner, bs.NamedField):
            raise DefinitionError(f"from_schema: {where}: a named size header frames one field")
        member = None if self.guide is None else self.guide.property(js, inner.name)
        layout = self.layout(inner.layout, inner.kind, f"{path}.fields[{start + i + 1}]", member)
        return _Item("named", req(inner.name, def_(f.name, dynamic_size(layout, header))))

    def joined(self, items: list[_Item], path: str) -> Encoding[Any]:
        """One encoding of ``items``: a tuple (one element alone: itself) or a record."""
        kind = _kind_of(items, path)
        if kind is None:
            if len(items) > 1:
                raise DefinitionError(
                    f"from_schema: {path}: parts of no field (paddings, empty frames) in a row"
                )
            return items[0].part if items else _NO_FIELDS
        if kind == "named":
            try:
                return _record([i.part for i in items])
            except DefinitionError as error:  # a union merged in whose values are not records
                raise DefinitionError(
                    f"from_schema: {path} mixes named and anonymous fields ({error})"
                ) from None
        if len(items) == 1 and not items[0].splice:
            return items[0].alone or items[0].part
        tuples: list[Encoding[Any]] = []
        run: list[Encoding[Any]] = []
        for item in items:
            if item.splice:
                if run:
                    tuples.append(tup(*run))
                    run = []
                tuples.append(item.part)
            else:
                run.append(item.part)
        if run:
            tuples.append(tup(*run))
        return functools.reduce(merge_tups, tuples)

    def alone(self, layout: bs.Layout, e: Encoding[Any]) -> Encoding[Any] | None:
        """How ``e``, of ``layout``, stands alone in a field list: through
        ``tup1``, which passes its name on, where ``describe`` would number
        a union from its counter, inline a record or refer to an enum (but
        to an enum's own entry, which it refers to alone); ``None``: as ``e``."""
        if isinstance(layout, bs.Enum) or (
            isinstance(layout, bs.Ref)
            and not isinstance(e, Mu | Zarith)  # described alone as a Ref already
            and not isinstance(self.entries[layout.name].encoding, bs.IntEnum)
        ):
            return _element(e)
        return None

    # ------------------------------------------------------------ layouts

    def layout(
        self, layout: bs.Layout, kind: Size | None, path: str, js: Js = None
    ) -> Encoding[Any]:
        """The encoding of ``layout`` in a field of size class ``kind``
        (``js``: its JSON schema)."""
        return self.json_named(self.layout_of(layout, kind, path, js), js)

    def json_named(self, e: Encoding[Any], js: Js) -> Encoding[Any]:
        """``e``, whose JSON schema names it as ``js`` does (a definition of
        its own, with its title and description), its binary form as it is."""
        if self.guide is None:
            return e
        names = self.guide.refs(js)
        if not names or names[0] in BUILTIN_DEFINITIONS:
            return e
        name = names[0]
        definition = self.guide.definitions.get(name)
        notes = definition if isinstance(definition, dict) else {}
        title, description = notes.get("title"), notes.get("description")
        title = title if isinstance(title, str) else None
        description = description if isinstance(description, str) else None
        if name in self.primitives.by_name or any(d.id == name for d in _json_defs(e)):
            return e  # named so already (a definition has one encoding)
        named = def_(name, e, title=title, description=description)
        return splitted(json=named, binary=e)

    def layout_of(self, layout: bs.Layout, kind: Size | None, path: str, js: Js) -> Encoding[Any]:
        known = self.primitive(
            js,
            lambda top, entries: _one_value(top, entries, self.shape(layout), kind),
            lambda: self.layout_of(layout, kind, path, None),
        )
        if known is not None:
            return known
        if isinstance(layout, bs.ZeroWidth):
            value = None if self.guide is None else self.guide.zero_width(js)
            return null if value is None else value
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
            named = [] if self.guide is None else self.guide.refs(js)
            raise DefinitionError(
                f"from_schema: {path}: {type(layout).__name__.lower()} of a dynamic size with no "
                "size header before it: where it ends is not stated"
                + (f" (its JSON schema names {named[0]!r}, not a known primitive)" if named else "")
            )
        if isinstance(layout, bs.Enum):
            return self.enum(layout, path)
        if isinstance(layout, bs.Seq):
            items = None if self.guide is None else self.guide.items(js)
            elt = self.layout(layout.layout, None, f"{path}.layout", items)
            if layout.exact:
                assert layout.limit is not None
                return fixed.list_(layout.limit, elt)
            return variable.list_(elt, layout.limit)
        if isinstance(layout, bs.Ref):
            return self.entry(layout.name, path, js)
        raise DefinitionError(f"from_schema: {path}: a padding where no list of fields is")

    def primitive(
        self,
        js: Js,
        place: Callable[[tuple[bs.FieldDescr, ...], Mapping[str, bs.Entry]], bool],
        generic: Callable[[], Encoding[Any]],
    ) -> Encoding[Any] | None:
        """The known primitive the JSON schema names at a place (by its
        definition's name or title), if the binary schema describes it
        there, its entries' names aside (its top fields and entries are at
        the ``place``). Where its entries are named otherwise (another
        protocol's prefix), its binary schema is the ``generic`` rebuild's,
        which keeps the published names."""
        if self.guide is None:
            return None
        names = self.guide.refs(js)
        titles = self.guide.titles(js)
        candidates = [
            *(k for name in names for k in self.primitives.by_name.get(name, ())),
            *(k for title in titles for k in self.primitives.by_title.get(title, ())),
        ]
        for known in candidates:
            described = known.describe()
            top = described.toplevel.fields if isinstance(described.toplevel, bs.Obj) else ()
            entries = {e.description.title: e for e in described.fields}
            if not place(tuple(top), entries):
                continue
            if all(self.entries.get(name) == e for name, e in entries.items()):
                return known  # named alike
            try:
                rebuilt = generic()
            except DefinitionError:  # a list of hashes: the primitive says their size
                return known
            return Described(known, rebuilt) if known.size == rebuilt.size else known
        return None

    def shape(self, value: Any) -> Any:
        return shape(value, self.entries)

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
            self.built[name] = self.named(name, string_enum([s for _, s in cases]))
        return self.built[name]


@dataclass(frozen=True)
class _Item:
    """A part of a record (``named``: a field, or a record merged in) or of a
    tuple (``anon``: an element, or with ``splice`` a tuple merged in); of
    no kind when it holds no field (a padding of nothing)."""

    kind: Literal["named", "anon"] | None
    part: Any  # a Field, or an encoding
    splice: bool = False
    #: the element when it is the list's only part, if not ``part``
    alone: Encoding[Any] | None = None


_NO_FIELDS: Encoding[Any] = splitted(
    json=obj(), binary=conv(lambda _: (None, None), lambda _: {}, tup(null, null))
)
"""A list of no fields: the value ``{}`` (JSON ``{}``), described with no
field, and in a field as an entry of its own (legacy; 1.0 says zero-width)."""


def _unwrapped_id(e: Encoding[Any]) -> int:
    """The identity of the encoding ``e`` stands for, its JSON names aside."""
    while isinstance(e, Splitted) and isinstance(e.json, Def):
        e = e.binary
    return id(e)


def _kind_of(items: list[_Item], path: str = "") -> Literal["named", "anon"] | None:
    kinds = {i.kind for i in items} - {None}
    if len(kinds) > 1:
        raise DefinitionError(f"from_schema: {path} mixes named and anonymous fields")
    if kinds and len(kinds) != len({i.kind for i in items}):
        raise DefinitionError(f"from_schema: {path}: a padding or an empty frame beside fields")
    return kinds.pop() if kinds else None


def _json_kind(e: Encoding[Any]) -> str | None:
    """The JSON type of ``e``'s values, where its node says it (a record's,
    a tuple's, a list's, a leaf's); ``None`` for a union or a recursion."""
    found: Encoding[Any] | None = e
    while found is not None and not isinstance(found, Obj | Tup | ListEncoding | Union | Mu):
        inner = unwrap(found, "json")
        if inner is None:  # a leaf: its JSON schema is small
            schema = found.json_schema()
            if not isinstance(schema, dict):
                return None
            if "unistring" in str(schema.get("$ref")):
                return "string"
            kind = schema.get("type")
            return kind if isinstance(kind, str) else None
        found = inner
    if isinstance(found, Obj):
        return "object"
    return "array" if isinstance(found, Tup | ListEncoding) else None


def _json_defs(e: Encoding[Any]) -> list[Def[Any]]:
    """The definitions ``e``'s JSON schema names it by, outermost first
    (through the wrappers transparent in JSON)."""
    found: list[Def[Any]] = []
    at: Encoding[Any] | None = e
    while at is not None:
        if isinstance(at, Def):
            found.append(at)
        at = unwrap(at, "json")
    return found


def _one_value(
    top: tuple[bs.FieldDescr, ...],
    entries: Mapping[str, bs.Entry],
    layout: Hashable,
    kind: Size | None,
) -> bool:
    """Whether ``top`` is one value of the shape ``layout`` (of size
    ``kind``, when stated), named or not (a hash is an ``obj1`` in binary)."""
    (one,) = top if len(top) == 1 else (None,)
    return isinstance(one, bs.NamedField | bs.AnonymousField) and (
        shape(one.layout, entries) == layout and kind in (None, one.kind)
    )


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


def _element(e: Encoding[Any]) -> Encoding[Any]:
    """``e``, described as the element of a ``tup1``: an entry of its own,
    never inlined in a record (its values and JSON are ``e``'s)."""
    return splitted(json=e, binary=conv(_one, _only, tup(e)))


def _entry_of_one(body: Encoding[Any], field: bs.FieldDescr) -> Encoding[Any]:
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
    """The entries that refer to themselves, directly or through others:
    those of a strongly connected component of more than one entry, or
    that refer to themselves (Tarjan's algorithm, iterative: linear in the
    references, whatever the schema's depth)."""
    refs = {name: sorted(_refs(entry.encoding) & entries.keys()) for name, entry in entries.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    recursive: set[str] = set()
    for root in refs:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            name, i = work.pop()
            if i == 0:
                index[name] = low[name] = len(index)
                stack.append(name)
                on_stack.add(name)
            if i < len(refs[name]):
                work.append((name, i + 1))
                child = refs[name][i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[name] = min(low[name], index[child])
                continue
            if work:  # the caller's low takes this entry's
                caller = work[-1][0]
                low[caller] = min(low[caller], low[name])
            if low[name] == index[name]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                if len(component) > 1 or name in refs[name]:
                    recursive.update(component)
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
