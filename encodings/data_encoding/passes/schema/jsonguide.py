"""What a JSON schema says beside the binary schema it was published with.

A node publishes each body's ``{json_schema, binary_schema}`` pair.
:func:`~.rebuild.rebuild` reads the binary schema, and this module reads
the JSON schema at the same places, for what the bytes do not say:

* a record's **zero-width members**, which no binary field states: a
  constant (the ``enum`` of one string: ``"kind": "transaction"``), an
  empty object, a ``null``; and the order of its members;
* which **optional** fields have no presence byte (a ``Variable`` field
  whose property is not required);
* a **union case's JSON** (its ``oneOf`` schema, matched by title, else by
  position);
* which places are **node primitives** (a ``$ref`` to a definition named as
  one: ``block_hash``, ``Signature.Public_key_hash``, ``timestamp.protocol``;
  or an enumeration of strings whose bytes are an integer: a ballot), which
  the caller supplies (the node's layer knows them);
* which records of **one member** ``describe`` shows as their member alone
  (an object of one required member that refers to the member's entry);
* the items of a sequence (a list of hashes, whose element size the binary
  schema does not state);
* which texts are JSON values in BSON (a framed string whose JSON is not a
  string).

A JSON schema is untrusted input: ``$ref`` chains are followed at most as
many steps as there are definitions, and anything not of the expected shape
is read as saying nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...errors import DefinitionError
from ...jsonvalue import JsonValue
from ...tree.core import Encoding
from ...tree.primitives import constant, empty, null, unit
from . import values as bs

__all__ = ["NO_PRIMITIVES", "Guide", "Js", "Primitives"]

Js = Mapping[str, Any] | None
"""A JSON schema at a place (``None``: nothing is known there)."""

_PREFIX = "#/definitions/"
_JSON_TYPES: dict[type, str] = {
    bs.Int: "integer",
    bs.RangedInt: "integer",
    bs.Float: "number",
    bs.RangedFloat: "number",
    bs.Bool: "boolean",
    bs.String: "string",
    bs.Bytes: "string",
    bs.Enum: "string",
    bs.Seq: "array",
}
"""The JSON type of a value of a layout, where it has one."""
_ANNOTATIONS = frozenset({"title", "description", "$schema"})
"""What a schema may say that does not restrict its values."""


class Guide:
    """A JSON schema, read at the places of its binary schema."""

    def __init__(self, schema: JsonValue) -> None:
        if not isinstance(schema, dict):
            raise DefinitionError("from_schema: a JSON schema is an object")
        definitions = schema.get("definitions", {})
        self.definitions: Mapping[str, Any] = definitions if isinstance(definitions, dict) else {}
        self.root: Mapping[str, Any] = {
            k: v for k, v in schema.items() if k not in ("definitions", "$schema")
        }

    def refs(self, js: Js) -> list[str]:
        """The definitions ``js`` refers to, one through the other (``$ref``
        chains), each once (a chain that comes back ends there)."""
        names: dict[str, None] = {}  # in order
        while js is not None:
            ref = js.get("$ref")
            if not isinstance(ref, str) or not ref.startswith(_PREFIX):
                break
            name = ref[len(_PREFIX) :]
            if name in names:
                break
            names[name] = None
            found = self.definitions.get(name)
            js = found if isinstance(found, dict) else None
        return list(names)

    def notes(self, name: str) -> tuple[str | None, str | None]:
        """The title and description of the definition ``name``, where it says them."""
        found = self.definitions.get(name)
        notes = found if isinstance(found, dict) else {}
        title, description = notes.get("title"), notes.get("description")
        return (
            title if isinstance(title, str) else None,
            description if isinstance(description, str) else None,
        )

    def titles(self, js: Js) -> list[str]:
        """The titles of ``js`` and of the definitions it refers to, in order."""
        found = [js, *(self.definitions.get(name) for name in self.refs(js))]
        return [t for d in found if isinstance(d, dict) and isinstance(t := d.get("title"), str)]

    def body(self, js: Js) -> Js:
        """``js`` with its ``$ref`` chain followed: the schema that says what it is."""
        names = self.refs(js)
        if not names:
            return js
        found = self.definitions.get(names[-1])
        return found if isinstance(found, dict) and "$ref" not in found else None

    def any_json(self, js: Js) -> bool:
        """Whether ``js`` is the schema of a JSON value that is not a text
        (its binary form is then BSON, described as a string)."""
        if js is None or "unistring" in self.refs(js):
            return False
        body = self.body(js)
        if body is None:
            return False
        typed = body.get("type") in ("object", "array", "number", "integer")
        return typed or not set(body) - _ANNOTATIONS  # a typed non-text, or any JSON value

    def non_null(self, js: Js) -> Js:
        """The other member of a ``oneOf`` of two whose one is ``null`` (an
        option's JSON), if ``js`` is one."""
        one_of = (self.body(js) or {}).get("oneOf")
        members = [m for m in one_of if isinstance(m, dict)] if isinstance(one_of, list) else []
        others = [m for m in members if self.json_type(m) != "null"]
        return others[0] if len(members) == 2 and len(others) == 1 else None

    def json_type(self, js: Js) -> str | None:
        """The JSON type of the values of ``js``, where it says one."""
        if "unistring" in self.refs(js):
            return "string"
        kind = (self.body(js) or {}).get("type")
        return kind if isinstance(kind, str) else None

    def property(self, js: Js, name: str) -> Js:
        """The schema of the member ``name``: of the object ``js``, or of
        the first of its ``oneOf`` objects that has it (a record merged
        with a union of records is published as the ``oneOf`` of each
        case's members beside the record's)."""
        body = self.body(js) or {}
        properties = body.get("properties")
        if isinstance(properties, dict):
            found = properties.get(name)
            return found if isinstance(found, dict) else None
        one_of = body.get("oneOf")
        for member in one_of if isinstance(one_of, list) else []:
            found = self.property(member if isinstance(member, dict) else None, name)
            if found is not None:
                return found
        return None

    def one_member(self, js: Js) -> tuple[str, Js] | None:
        """The name and schema of the one member of an object ``js`` that
        has one, required, if it is one."""
        names = self.properties(js)
        if len(names) != 1 or names[0] not in (self.required(js) or ()):
            return None
        return names[0], self.property(js, names[0])

    def properties(self, js: Js) -> list[str]:
        properties = (self.body(js) or {}).get("properties")
        return list(properties) if isinstance(properties, dict) else []

    def required(self, js: Js) -> frozenset[str] | None:
        """The required members, when ``js`` is an object's schema."""
        body = self.body(js) or {}
        required = body.get("required", [])
        if "properties" not in body or not isinstance(required, list):
            return None
        return frozenset(r for r in required if isinstance(r, str))

    def enumeration(self, js: Js) -> frozenset[str] | None:
        """The strings ``js`` allows, if it is an ``enum`` of two or more."""
        body = self.body(js) or {}
        enum = body.get("enum")
        if body.get("type") != "string" or not isinstance(enum, list) or len(enum) < 2:
            return None
        return frozenset(enum) if all(isinstance(s, str) for s in enum) else None

    def constant(self, js: Js) -> str | None:
        """The string ``js`` allows alone (an ``enum`` of one string), if so."""
        body = self.body(js) or {}
        enum = body.get("enum")
        one = enum[0] if isinstance(enum, list) and len(enum) == 1 else None
        return one if body.get("type") == "string" and isinstance(one, str) else None

    def zero_width(self, js: Js) -> Encoding[Any] | None:
        """The zero-width encoding whose JSON ``js`` is, if any: a constant
        (:meth:`constant`), ``empty`` (an object of no members) or ``null``."""
        value = self.constant(js)
        if value is not None:
            return constant(value)
        body = self.body(js)
        if body is not None and body.get("type") == "object" and not body.get("properties"):
            return empty
        if body is not None and body.get("type") == "null":
            return null
        if body is not None and not set(body) - _ANNOTATIONS and not self.refs(js):
            return unit  # any JSON value: the reference's unit says {}
        return None

    def zero_width_elements(self, js: Js) -> list[Encoding[Any]] | None:
        """The zero-width elements of a tuple ``js`` says all its elements are."""
        items = (self.body(js) or {}).get("items")
        if not isinstance(items, list) or not items:
            return None
        found = [self.zero_width(item if isinstance(item, dict) else None) for item in items]
        return None if None in found else [e for e in found if e is not None]

    def zero_width_members(self, js: Js) -> list[tuple[str, Encoding[Any]]]:
        """The members that are zero-width (:meth:`zero_width`), in order."""
        found = []
        for name in self.properties(js):
            value = self.zero_width(self.property(js, name))
            if value is not None:
                found.append((name, value))
        return found

    def items(self, js: Js) -> Js:
        """A sequence's element."""
        items = (self.body(js) or {}).get("items")
        return items if isinstance(items, dict) else None

    def elements(self, js: Js, count: int) -> list[Js]:
        """A tuple's ``count`` elements (``None`` each where the schema says otherwise)."""
        items = (self.body(js) or {}).get("items")
        if isinstance(items, list) and len(items) == count:
            return [item if isinstance(item, dict) else None for item in items]
        return [None] * count

    def cases(self, js: Js, cases: Sequence[bs.Case]) -> list[Js]:
        """The ``oneOf`` member of each of ``cases``: by title (as nodes
        publish them); else, where no member has a title (the legacy
        dialect's), by position, if there are as many and each may be its
        case's JSON (a binary schema lists its cases by tag, a JSON schema
        in the order they were declared: the check keeps what disagrees
        from being paired)."""
        one_of = (self.body(js) or {}).get("oneOf")
        members = [m for m in one_of if isinstance(m, dict)] if isinstance(one_of, list) else []
        titles = [m.get("title") for m in members]
        if any(t is not None for t in titles):
            return [
                members[titles.index(c.name)] if titles.count(c.name) == 1 else None for c in cases
            ]
        if len(members) == len(cases) and all(
            self.may_be(m, c.fields[1:]) for m, c in zip(members, cases, strict=True)
        ):
            return list(members)
        return [None] * len(cases)

    def may_be(self, js: Js, fields: Sequence[bs.FieldDescr]) -> bool:
        """Whether ``js`` may be the JSON of ``fields`` (a rough check: the
        members the fields name, the type of a value alone)."""
        body = self.body(js) or {}
        named = [f.name for f in fields if isinstance(f, bs.NamedField | bs.OptionalField)]
        if named:
            return body.get("type") == "object" and set(named) <= set(self.properties(js))
        values = [f for f in fields if isinstance(f, bs.AnonymousField)]
        if len(values) != 1:
            return True
        expected = _JSON_TYPES.get(type(values[0].layout))
        text = "unistring" in self.refs(js) or body.get("type") == "string"
        if expected == "string":
            return text
        return expected is None or body.get("type") == expected


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
    #: those whose JSON is an enumeration of strings (a JSON schema inlines
    #: it) while their bytes are no enumeration of those (a ballot: an
    #: ``Int8`` in binary), by their strings, in any order
    by_enum: Mapping[frozenset[str], tuple[Encoding[Any], ...]] = field(default_factory=dict)

    def __eq__(self, other: object) -> bool:  # a cache key: by what it holds
        return (
            isinstance(other, Primitives)
            and dict(self.by_name) == dict(other.by_name)
            and dict(self.by_title) == dict(other.by_title)
            and dict(self.by_enum) == dict(other.by_enum)
        )

    def __hash__(self) -> int:
        return hash(frozenset(self.by_name))


NO_PRIMITIVES = Primitives({})
