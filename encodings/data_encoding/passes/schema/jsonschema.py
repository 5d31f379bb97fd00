"""``json_schema()``: the JSON Schema (draft-04) of an encoding's JSON form.

The reference derives it from the JSON side of each combinator (``splitted``
uses its JSON encoding); :func:`json_schema` gives the same documents, with
the same key order:

====================================  =============================================
encoding                              schema
====================================  =============================================
``null`` / ``empty`` / ``unit``       ``{"type": "null"}`` / closed object / ``{}``
``constant(s)`` / ``string_enum``     ``{"type": "string", "enum": [...]}``
integers, ``ranged_int``              ``{"type": "integer", "minimum", "maximum"}``
``int64`` / ``n`` / ``z``             ``$ref`` to ``int64`` / ``positive_bignum`` / ``bignum``
``float_`` / ``ranged_float``         ``{"type": "number"}`` (with bounds)
``string`` / ``bytes_``               ``$ref`` to ``unistring`` / hex ``pattern``
``list_`` / ``array``                 ``{"type": "array", "items": S}``
``tup``                               ``items`` as a list, ``"additionalItems": false``
``obj`` / ``merge_objs``              ``properties``, ``required``, closed
``union`` / ``option``                ``{"oneOf": [...]}``
a merge of a union                    ``{"oneOf": [...]}`` of merges (see below)
``def_`` / ``mu``                     ``$ref`` to a definition under ``#/definitions/``
``json``                              ``{}``
====================================  =============================================

Definitions are listed in name order at the end of the root. Legacy (the
default dialect) and 1.0 differ: legacy's hex pattern is ``^[a-zA-Z0-9]+$``,
an empty object has ``"properties": {}``, a ``def_`` at the root stays a
``$ref``, and neither union cases nor fields carry titles; ``bounded.string``
is a plain string there. ``"required"`` lists the fields in reverse order and
``string_enum`` its strings in reverse order, as the reference (whose order
for more than three strings comes from a hash table and cannot be reproduced).
A ``def_`` id used for two different encodings is a :class:`DefinitionError`.

Merges of unions: before it derives a JSON form, the reference lifts unions
out of merges (``json.ml``'s ``lift_union``). A ``merge_objs`` or
``merge_tups`` one of whose operands is a union, seen through ``conv`` and
through nested merges (through no other wrapper), is a union of merges, one
case per case of that union, the right operand's union outermost: one
``oneOf`` level per union lifted, even for a union of one case, whose cases
carry their titles in 1.0. A union below any other wrapper (``def_``, ``mu``,
``delayed``, ...) stays in its merge, and the merge's shapes are listed flat,
as ocplib-json-typed's ``object_schema`` does: one object per combination of
cases (in the lifted form's order), one ``oneOf`` when more than one. A
``merge_tups`` of such a union has no JSON form in the reference
(ocplib-json-typed refuses it); its arrays are listed flat alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import DefinitionError
from ...jsonvalue import JsonValue
from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.primitives import Bool, Float, Int, ZeroWidth
from ...tree.records import MergeObjs, MergeTups, Obj, Tup
from ...tree.sequences import ListEncoding
from ...tree.strings import RawBytes
from ...tree.unions import Case, StringEnum, Union
from ...tree.wrappers import Conv, Def, Mu
from ...tree.zarith import Zarith
from ..transparent import unwrap
from .values import Dialect

SCHEMA_URI = "http://json-schema.org/draft-04/schema#"

Schema = dict[str, JsonValue]

_UNISTRING: Schema = {
    "title": "Universal string representation",
    "description": "Either a plain UTF8 string, or a sequence of bytes for strings that "
    "contain invalid byte sequences.",
    "oneOf": [
        {"type": "string"},
        {
            "type": "object",
            "properties": {
                "invalid_utf8_string": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 0, "maximum": 255},
                }
            },
            "required": ["invalid_utf8_string"],
            "additionalProperties": False,
        },
    ],
}
_BUILTINS: dict[str, Schema] = {
    "unistring": _UNISTRING,
    "int64": {
        "title": "64 bit integers",
        "description": "Decimal representation of 64 bit integers",
        "type": "string",
    },
    "positive_bignum": {
        "title": "Positive big number",
        "description": "Decimal representation of a positive big number",
        "type": "string",
    },
    "bignum": {
        "title": "Big number",
        "description": "Decimal representation of a big number",
        "type": "string",
    },
}

# an object's alternatives: (properties, required names) for each
_Alternatives = list[tuple[list[tuple[str, Schema]], list[str]]]

BUILTIN_DEFINITIONS = frozenset(_BUILTINS)
"""The definitions every JSON schema may hold, of the library's own leaves."""


@dataclass(frozen=True)
class _Choice:
    """A union, or one lifted out of a merge: a shape per case."""

    cases: tuple[tuple[Case, _Shape], ...]


@dataclass(frozen=True)
class _Merge:
    """A merge out of which no union is lifted: one record (``tuples``: one
    array) of its operands' members."""

    left: _Shape
    right: _Shape
    tuples: bool


# an encoding as the reference sees it once the unions are lifted out of its
# merges; the shapes of a choice made by lifting are lifted, a union's are not
_Shape = Encoding[Any] | _Choice | _Merge


def _lifted(shape: _Shape) -> _Shape:
    """``shape`` with the unions lifted out of its merges (``json.ml``'s
    ``lift_union``; see the module docstring): a union is a choice; so is a
    merge with a union operand, seen through ``conv`` and merges only."""
    e = shape
    while isinstance(e, Conv):
        e = e.inner
    if isinstance(e, Union):
        return _Choice(tuple((c, c.enc) for c in e.cases))
    if isinstance(e, MergeObjs | MergeTups):
        return _paired(_lifted(e.left), _lifted(e.right), isinstance(e, MergeTups))
    return e


def _paired(left: _Shape, right: _Shape, tuples: bool) -> _Shape:
    """The merge of two lifted operands, a union lifted out of it: the right
    one's first, so that its cases are the outer ones."""
    if isinstance(right, _Choice):
        return _Choice(tuple((c, _paired(left, _lifted(s), tuples)) for c, s in right.cases))
    if isinstance(left, _Choice):
        return _Choice(tuple((c, _paired(_lifted(s), right, tuples)) for c, s in left.cases))
    return _Merge(left, right, tuples)


def _ref(name: str) -> Schema:
    return {"$ref": f"#/definitions/{name}"}


def _titled(schema: Schema, title: str | None, description: str | None) -> Schema:
    head: Schema = {}
    if title is not None:
        head["title"] = title
    if description is not None:
        head["description"] = description
    return {**head, **schema}


class _Deriver:
    def __init__(self, dialect: Dialect) -> None:
        self.legacy = dialect == "legacy"
        self.definitions: dict[str, Schema] = {}
        self.pending: set[str] = set()

    def define(self, name: str, schema: Schema) -> Schema:
        known = self.definitions.get(name)
        if known is not None and known != schema:
            raise DefinitionError(
                f"json_schema: two different encodings are both defined as {name!r}",
                code="duplicate_definition",
            )
        self.definitions[name] = schema
        return _ref(name)

    def builtin(self, name: str) -> Schema:
        return self.define(name, _BUILTINS[name])

    # ----------------------------------------------------------- elements

    def element(self, e: Encoding[Any]) -> Schema:
        if isinstance(e, Def):
            if json_names(e.inner)[:1] == [e.id]:
                return self.element(e.inner)  # a def_ of what is defined so already: one
            return self.define(e.id, _titled(self.element(e.inner), e.title, e.description))
        inner = unwrap(e, "json")
        if inner is not None:
            return self.element(inner)
        if isinstance(e, Mu):
            return self.mu(e)
        if isinstance(e, ZeroWidth):
            return self.zero_width(e)
        if isinstance(e, Bool):
            return {"type": "boolean"}
        if isinstance(e, Int):
            if e.json_string:
                return self.builtin("int64")
            return {"type": "integer", "minimum": e.lo, "maximum": e.hi}
        if isinstance(e, Float):
            if e.lo is None or e.hi is None:
                return {"type": "number"}
            return {"type": "number", "minimum": e.lo, "maximum": e.hi}
        if isinstance(e, Zarith):
            return self.builtin("positive_bignum" if e.natural else "bignum")
        if isinstance(e, RawBytes):
            if not e.text:
                pattern = "^[a-zA-Z0-9]+$" if self.legacy else "^([a-zA-Z0-9][a-zA-Z0-9])*$"
                return {"type": "string", "pattern": pattern}
            if e.plain_json_limit is not None and self.legacy:
                return {"type": "string"}
            return self.builtin("unistring")
        if isinstance(e, Bson):
            return {}
        if isinstance(e, StringEnum):
            # the reference lists a small enumeration last case first (the vectors'
            # ["gamma", "beta", "alpha"]) and a large one in its hash table's
            # order; JSON Schema gives the order no meaning, so the tests compare
            # large ones as sets
            return {"type": "string", "enum": list(reversed(e.strings))}
        if isinstance(e, ListEncoding):
            return {"type": "array", "items": self.element(e.elt)}
        if isinstance(e, Union | MergeObjs | MergeTups):
            return self.shape(_lifted(e))
        if isinstance(e, Obj):
            return self.objects(self.alternatives(e))
        if isinstance(e, Tup):
            return self.arrays(self.items(e))
        raise DefinitionError(
            f"json_schema: cannot describe an encoding of type {type(e).__name__}"
        )

    def zero_width(self, e: ZeroWidth) -> Schema:
        if e.kind == "null":
            return {"type": "null"}
        if e.kind == "empty":
            return self.object([], [])
        if e.kind == "unit":
            return {}
        return {"type": "string", "enum": [e.constant]}

    def shape(self, s: _Shape) -> Schema:
        if isinstance(s, _Choice):
            return {"oneOf": [self.case(c, self.shape(sub)) for c, sub in s.cases]}
        if isinstance(s, _Merge):
            return self.arrays(self.items(s)) if s.tuples else self.objects(self.alternatives(s))
        return self.element(s)

    def case(self, c: Case, schema: Schema) -> Schema:
        return schema if self.legacy else _titled(schema, c.title, c.description)

    def mu(self, e: Mu) -> Schema:
        if e.name not in self.definitions and e.name not in self.pending:
            self.pending.add(e.name)
            inner = e.body
            if isinstance(inner, Def) and inner.id == e.name:
                inner = inner.inner  # a def_ of the mu's own name: one definition
            body = self.element(inner)
            self.pending.discard(e.name)
            self.define(e.name, body if self.legacy else _titled(body, e.title, e.description))
        return _ref(e.name)

    # ----------------------------------------------------------- records

    def object(self, properties: list[tuple[str, Schema]], required: list[str]) -> Schema:
        schema: Schema = {"type": "object"}
        if properties or self.legacy:
            schema["properties"] = dict(properties)
        if required:
            schema["required"] = list(reversed(required))
        schema["additionalProperties"] = False
        return schema

    def objects(self, alternatives: _Alternatives) -> Schema:
        if len(alternatives) == 1:
            return self.object(*alternatives[0])
        return {"oneOf": [self.object(*a) for a in alternatives]}

    def arrays(self, shapes: list[list[JsonValue]]) -> Schema:
        arrays: list[Schema] = [
            {"type": "array", "items": items, "additionalItems": False} for items in shapes
        ]
        return arrays[0] if len(arrays) == 1 else {"oneOf": list[JsonValue](arrays)}

    def alternatives(self, s: _Shape) -> _Alternatives:
        """The shapes of a record-like encoding's objects, listed flat (a union
        of records below a wrapper in a merge gives one shape per case)."""
        s = _lifted(s)
        if isinstance(s, _Choice):
            return [a for _, sub in s.cases for a in self.alternatives(sub)]
        if isinstance(s, _Merge):
            return [
                (lp + rp, lr + rr)
                for lp, lr in self.alternatives(s.left)
                for rp, rr in self.alternatives(s.right)
            ]
        inner = unwrap(s, "json")
        if inner is not None:  # a def_ in a merge is inlined, as the reference does
            return self.alternatives(inner)
        if isinstance(s, Mu):  # so is a recursive record (its fields refer to it)
            return self.alternatives(s.body)
        if isinstance(s, Obj):
            properties, required = [], []
            for p in s.parts:
                schema = self.element(p.enc)
                if not self.legacy:
                    schema = _titled(schema, p.title, p.description)
                properties.append((str(p.key), schema))
                if p.mode == "req":
                    required.append(str(p.key))
            return [(properties, required)]
        if isinstance(s, ZeroWidth):
            return [([], [])]
        raise DefinitionError(f"json_schema: cannot merge an encoding of type {type(s).__name__}")

    def items(self, s: _Shape) -> list[list[JsonValue]]:
        """The element schemas of a tuple-like encoding's arrays, one list per
        shape, listed flat as :meth:`alternatives` lists objects."""
        s = _lifted(s)
        if isinstance(s, _Choice):
            return [items for _, sub in s.cases for items in self.items(sub)]
        if isinstance(s, _Merge):
            return [a + b for a in self.items(s.left) for b in self.items(s.right)]
        inner = unwrap(s, "json")
        if inner is not None:
            return self.items(inner)
        if isinstance(s, Mu):
            return self.items(s.body)
        if isinstance(s, Tup):
            return [[self.element(p.enc) for p in s.parts]]
        raise DefinitionError(f"json_schema: cannot merge an encoding of type {type(s).__name__}")

    # ----------------------------------------------------------- root

    def root(self, e: Encoding[Any]) -> Schema:
        if isinstance(e, Def) and not self.legacy:  # 1.0 inlines a def at the root
            body = _titled(self.element(e.inner), e.title, e.description)
        else:
            body = self.element(e)
        schema: Schema = {"$schema": SCHEMA_URI, **body}
        if self.definitions:
            schema["definitions"] = dict(sorted(self.definitions.items()))
        return schema


def json_schema(e: Encoding[Any], dialect: Dialect = "legacy") -> JsonValue:
    """The JSON Schema of ``e``'s JSON form (see the module docstring)."""
    return _Deriver(dialect).root(e)


def json_names(e: Encoding[Any]) -> list[str]:
    """The definitions ``e``'s JSON schema names it by, outermost first
    (through the wrappers transparent in JSON): a ``def_``'s, a ``mu``'s."""
    found: list[str] = []
    at: Encoding[Any] | None = e
    while at is not None:
        if isinstance(at, Def | Mu):
            found.append(at.id if isinstance(at, Def) else at.name)
        at = unwrap(at, "json")
    return found
