"""The kinds of schemas ``from_schema`` refuses or rebuilds otherwise, as
the tests (``passes/test_rebuild.py``) and the report (``rebuild_share.py``)
tell them apart."""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from typing import Any

from data_encoding import VARIABLE, Fixed, Size
from data_encoding.passes.schema import BinarySchema
from data_encoding.passes.schema import values as bs
from data_encoding.passes.schema.shapes import shape
from dsl import build


def field_lists(schema: BinarySchema) -> list[tuple[bs.FieldDescr, ...]]:
    """Every list of fields of ``schema`` (a case's after its tag)."""
    lists = [schema.toplevel.fields] if isinstance(schema.toplevel, bs.Obj) else []
    for entry in schema.fields:
        if isinstance(entry.encoding, bs.Obj):
            lists.append(entry.encoding.fields)
        elif isinstance(entry.encoding, bs.Cases):
            lists.extend(c.fields[1:] for c in entry.encoding.cases)  # after the Tag
    return lists


REFUSED_KINDS = (
    # a list of hashes: a Seq layout does not state its elements' size
    "of a dynamic size with no size header before it: where it ends is not stated",
    # a record merged with a union of records (a rebuilt case is keyed by its name)
    "mixes named and anonymous fields",
    # legacy names an enum and a mu alike: a Ref cannot say which it means
    "two entries are named",
    # a padding of nothing before fields: no tuple or record holds it
    "a padding or an empty frame beside fields",
    # a case whose JSON is null: keyed by its name, its key would vanish
    "could not be told apart",
)
"""Every kind of schema ``from_schema`` refuses among random encodings' (a
pattern of the message each): ``rebuild_share.py`` counts them."""


def difference(schema: BinarySchema, again: BinarySchema) -> str | None:
    """Why a rebuilt encoding re-describes as ``again``, not ``schema``:
    one of the kinds the library knows (``None``: identical)."""
    if again == schema:
        return None
    if again.toplevel == schema.toplevel and set(again.fields) == set(schema.fields):
        return "the same entries in another order (a mu's among others)"
    if _shape(again) == _shape(schema):
        return "the same entries, numbered otherwise (X_<n>, a mu's among others)"
    titles = [entry.description.title for entry in again.fields]
    if len(titles) != len(set(titles)):
        return "two entries named alike (a def_ named like describe's X_<n>)"
    zero_width = bs.AnonymousField(Fixed(0), bs.ZeroWidth())
    if any(zero_width in fields and len(fields) > 1 for fields in field_lists(schema)):
        return "zero-width fields beside others (legacy's empty records merged)"
    raise AssertionError(f"rebuilt otherwise:\n{schema}\n{again}")


def unstated(spec: Any) -> str | None:
    """What the schema of the random encoding ``spec`` (``random_dsl``'s)
    does not state, so that no encoding rebuilt from it reads the same
    bytes (``None``: it states them all):

    * a record field framed by a size header around a zero-width value: the
      reference's schema drops the field with its header
      (``binary_description.ml``), so the header's bytes are stated nowhere;
    * an optional field of a variable-size value (no presence byte: the
      value's absence is no bytes at all) is described as a required one;
    * two different ``mu`` of one name are described as one entry.
    """
    mus: dict[str, set[str]] = {}
    found = _unstated(spec, mus)
    if found is None and any(len(bodies) > 1 for bodies in mus.values()):
        return "two different mu of one name"
    return found


def _unstated(spec: Any, mus: dict[str, set[str]]) -> str | None:
    if isinstance(spec, list):
        return next((w for w in (_unstated(x, mus) for x in spec) if w), None)
    if not isinstance(spec, dict):
        return None
    if spec.get("kind") == "mu":
        mus.setdefault(spec["name"], set()).add(json.dumps(spec["enc"], sort_keys=True))
    if ("req" in spec or "dft" in spec) and _framed_zero_width(spec["enc"]):
        return "a framed zero-width field"
    if ("opt" in spec or "varopt" in spec) and _size(spec["enc"]) == VARIABLE:
        return "an optional field of a variable-size value"
    return next((w for w in (_unstated(x, mus) for x in spec.values()) if w), None)


def _size(spec: Any) -> Size | None:
    try:
        return build(spec).size
    except KeyError:  # refers to a mu around it
        return None


def _framed_zero_width(spec: Any) -> bool:
    while isinstance(spec, dict) and spec.get("kind") in ("def", "delayed", "splitted"):
        spec = spec["enc"] if "enc" in spec else spec["binary"]
    if not isinstance(spec, dict) or spec.get("kind") != "dynamic_size":
        return False
    return _size(spec["enc"]) == Fixed(0)


def expected_refusal(schema: BinarySchema) -> str | None:
    """Why ``schema`` does not rebuild, read from the schema alone (a pattern
    of the error's message)."""
    found = reasons(schema)
    return "|".join(re.escape(r) for r in found) if found else None


def reasons(schema: BinarySchema) -> list[str]:
    """Every reason ``from_schema`` refuses ``schema`` for, read from the schema alone."""
    reasons = []
    layouts = [
        f.layout
        for fields in field_lists(schema)
        for f in fields
        if isinstance(f, bs.NamedField | bs.AnonymousField)
    ]
    if any(isinstance(x, bs.Seq) and isinstance(x.layout, bs.Bytes | bs.String) for x in layouts):
        # a list of hashes: an element's size is in no field
        reasons.append(
            "of a dynamic size with no size header before it: where it ends is not stated"
        )
    for fields in field_lists(schema):
        kinds = {type(f) for f in fields} - {bs.DynamicSizeField}
        if bs.AnonymousField in kinds and kinds & {bs.NamedField, bs.OptionalField}:
            # a record merged with a union of records (not rebuilt yet: a
            # rebuilt union's values are keyed by case)
            reasons.append("mixes named and anonymous fields")
    return reasons


def _shape(schema: BinarySchema) -> Hashable:
    entries = {e.description.title: e for e in schema.fields}
    return shape(schema.toplevel, entries), len(entries)
