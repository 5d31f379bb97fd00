"""The JSON Schema of a merge of unions, as the reference derives it.

Before it derives a JSON form, the reference lifts unions out of merges
(``json.ml``, ``lift_union``): a ``merge_objs`` or ``merge_tups`` one of whose
operands is a union (seen through ``conv`` and through nested merges, through
no other wrapper) is a union of merges, one case per case of that union, the
right operand's union outermost. Each union lifted so is one ``oneOf`` level,
even with one case; in 1.0 its cases carry their titles. Below any other
wrapper (``def_``, ``mu``, ``delayed``, ...) nothing is lifted out, and
ocplib-json-typed lists the merge's object shapes flat, in the order of the
lifted form. The vector ``merge_objs_union`` (one two-case union) is the one
merge of a union among the reference vectors; every shape here agrees with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from data_encoding import (
    Encoding,
    bool_,
    case,
    check_size,
    constant,
    conv,
    def_,
    delayed,
    dynamic_size,
    empty,
    int8,
    int16,
    merge_objs,
    merge_tups,
    mu,
    obj,
    req,
    tup,
    uint8,
    uint16,
    union,
)
from data_encoding.jsonvalue import JsonValue

SCHEMA_URI = "http://json-schema.org/draft-04/schema#"
U8: JsonValue = {"type": "integer", "minimum": 0, "maximum": 255}
I8: JsonValue = {"type": "integer", "minimum": -128, "maximum": 127}
U16: JsonValue = {"type": "integer", "minimum": 0, "maximum": 65535}
I16: JsonValue = {"type": "integer", "minimum": -32768, "maximum": 32767}
BOOL: JsonValue = {"type": "boolean"}

# one-field records, by field name, with the schema of that field
FIELDS: dict[str, tuple[Encoding[Any], JsonValue]] = {
    "a": (uint8, U8),
    "b": (int8, I8),
    "c": (bool_, BOOL),
    "d": (uint16, U16),
    "e": (int16, I16),
}
A, B, C, D, E = (obj(req(name, enc)) for name, (enc, _) in FIELDS.items())
AB = union([case(0, "A", A), case(1, "B", B)])
CD = union([case(0, "C", C), case(1, "D", D)])


def record(*names: str) -> dict[str, JsonValue]:
    """The schema of a record of the named required fields (the reference
    lists ``required`` last field first)."""
    return {
        "type": "object",
        "properties": {name: FIELDS[name][1] for name in names},
        "required": list(reversed(names)),
        "additionalProperties": False,
    }


def array(*items: JsonValue) -> dict[str, JsonValue]:
    return {"type": "array", "items": list(items), "additionalItems": False}


def one_of(*alternatives: JsonValue) -> dict[str, JsonValue]:
    return {"oneOf": list(alternatives)}


def root(body: dict[str, JsonValue]) -> dict[str, JsonValue]:
    return {"$schema": SCHEMA_URI, **body}


def _same(value: Any) -> Any:
    return value


# ------------------------------------------------------------------ objects


def test_a_merged_union_of_one_case_is_a_one_of_of_one() -> None:
    e = merge_objs(union([case(1, "A", A)]), C)
    assert e.json_schema() == root(one_of(record("a", "c")))


def test_a_merged_union_of_two_cases_is_one_level() -> None:
    # the reference vector merge_objs_union's shape, union on either side
    assert merge_objs(AB, C).json_schema() == root(one_of(record("a", "c"), record("b", "c")))
    assert merge_objs(C, AB).json_schema() == root(one_of(record("c", "a"), record("c", "b")))


def test_two_merged_unions_are_two_levels_the_right_one_outermost() -> None:
    e = merge_objs(AB, CD)
    assert e.json_schema() == root(
        one_of(
            one_of(record("a", "c"), record("b", "c")),
            one_of(record("a", "d"), record("b", "d")),
        )
    )


def test_a_union_is_lifted_out_of_nested_merges() -> None:
    # one union, however deep in the merges: one level
    left = merge_objs(merge_objs(AB, C), D)
    assert left.json_schema() == root(one_of(record("a", "c", "d"), record("b", "c", "d")))
    # two unions in a merge on the right: two levels, under the outer record
    right = merge_objs(E, merge_objs(AB, CD))
    assert right.json_schema() == root(
        one_of(
            one_of(record("e", "a", "c"), record("e", "b", "c")),
            one_of(record("e", "a", "d"), record("e", "b", "d")),
        )
    )
    # a union merged with a merge that lifts one: the right one outermost
    both = merge_objs(AB, merge_objs(CD, E))
    assert both.json_schema() == root(
        one_of(
            one_of(record("a", "c", "e"), record("b", "c", "e")),
            one_of(record("a", "d", "e"), record("b", "d", "e")),
        )
    )


def test_a_union_case_that_is_a_union_is_its_own_level() -> None:
    e = merge_objs(union([case(0, "Inner", AB), case(1, "C", C)]), D)
    assert e.json_schema() == root(
        one_of(one_of(record("a", "d"), record("b", "d")), record("c", "d"))
    )


def test_a_union_merged_with_empty() -> None:
    assert merge_objs(AB, empty).json_schema() == root(one_of(record("a"), record("b")))


WRAPPERS: list[Any] = [
    pytest.param(lambda u: conv(_same, _same, u), True, id="conv"),
    pytest.param(lambda u: def_("u", u), False, id="def_"),
    pytest.param(lambda u: mu("u", lambda _self: u), False, id="mu"),
    pytest.param(lambda u: delayed(lambda: u), False, id="delayed"),
    pytest.param(lambda u: dynamic_size(u), False, id="dynamic_size"),
    pytest.param(lambda u: check_size(10, u), False, id="check_size"),
]


@pytest.mark.parametrize(("wrap", "lifted"), WRAPPERS)
def test_only_conv_lets_a_union_out_of_a_merge(
    wrap: Callable[[Encoding[Any]], Encoding[Any]], lifted: bool
) -> None:
    """Below any wrapper but ``conv``, a union of one case is one record, and
    the wrapper leaves no definition behind (a ``def_`` in a merge is inlined)."""
    e = merge_objs(wrap(union([case(0, "A", A)])), C)
    shape = record("a", "c")
    assert e.json_schema() == root(one_of(shape) if lifted else shape)


@pytest.mark.parametrize(
    "wrap",
    [
        pytest.param(lambda m: def_("m", m), id="def_"),
        pytest.param(lambda m: delayed(lambda: m), id="delayed"),
    ],
)
def test_merged_unions_below_a_wrapper_are_listed_flat_in_the_lifted_order(
    wrap: Callable[[Encoding[Any]], Encoding[Any]],
) -> None:
    e = merge_objs(wrap(merge_objs(AB, CD)), E)
    assert e.json_schema() == root(
        one_of(
            record("a", "c", "e"),
            record("b", "c", "e"),
            record("a", "d", "e"),
            record("b", "d", "e"),
        )
    )


def test_a_recursive_union_merged_is_listed_flat() -> None:
    lst = mu(
        "lst",
        lambda self: union(
            [
                case(0, "Nil", obj(req("kind", constant("nil")))),
                case(1, "Cons", obj(req("head", uint8), req("tail", self))),
            ]
        ),
    )
    nil: JsonValue = {
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": ["nil"]}},
        "required": ["kind"],
        "additionalProperties": False,
    }
    cons_properties: dict[str, JsonValue] = {"head": U8, "tail": {"$ref": "#/definitions/lst"}}
    cons: JsonValue = {
        "type": "object",
        "properties": cons_properties,
        "required": ["tail", "head"],
        "additionalProperties": False,
    }
    nil_c: JsonValue = {
        "type": "object",
        "properties": {"kind": {"type": "string", "enum": ["nil"]}, "c": BOOL},
        "required": ["c", "kind"],
        "additionalProperties": False,
    }
    cons_c: JsonValue = {
        "type": "object",
        "properties": {**cons_properties, "c": BOOL},
        "required": ["c", "tail", "head"],
        "additionalProperties": False,
    }
    assert merge_objs(lst, C).json_schema() == {
        "$schema": SCHEMA_URI,
        "oneOf": [nil_c, cons_c],
        "definitions": {"lst": {"oneOf": [nil, cons]}},
    }


# ------------------------------------------------------------------- tuples

PQ = union([case(0, "P", tup(uint8)), case(1, "Q", tup(int8))])
RS = union([case(0, "R", tup(bool_)), case(1, "S", tup(uint16))])


def test_merged_unions_of_tuples_are_lifted_alike() -> None:
    one = merge_tups(union([case(0, "P", tup(uint8))]), tup(bool_))
    assert one.json_schema() == root(one_of(array(U8, BOOL)))
    two = merge_tups(PQ, RS)
    assert two.json_schema() == root(
        one_of(
            one_of(array(U8, BOOL), array(I8, BOOL)),
            one_of(array(U8, U16), array(I8, U16)),
        )
    )
    nested = merge_tups(tup(int16), merge_tups(PQ, tup(bool_)))
    assert nested.json_schema() == root(one_of(array(I16, U8, BOOL), array(I16, I8, BOOL)))


def test_a_union_of_tuples_below_a_def_is_listed_flat() -> None:
    """The reference has no JSON form for it (ocplib-json-typed's
    ``merge_tups`` refuses a union); its values are these arrays."""
    e = merge_tups(def_("pq", PQ), tup(bool_))
    assert e.json_schema() == root(one_of(array(U8, BOOL), array(I8, BOOL)))


# --------------------------------------------------------------------- 1.0


def titled(title: str, schema: dict[str, JsonValue], description: str | None = None) -> JsonValue:
    head: dict[str, JsonValue] = {"title": title}
    if description is not None:
        head["description"] = description
    return {**head, **schema}


def test_one_zero_titles_each_lifted_case() -> None:
    ab = union([case(0, "A", A, description="The a case."), case(1, "B", B)])
    assert merge_objs(ab, C).json_schema("1.0") == root(
        one_of(titled("A", record("a", "c"), "The a case."), titled("B", record("b", "c")))
    )
    assert merge_objs(AB, CD).json_schema("1.0") == root(
        one_of(
            titled("C", one_of(titled("A", record("a", "c")), titled("B", record("b", "c")))),
            titled("D", one_of(titled("A", record("a", "d")), titled("B", record("b", "d")))),
        )
    )


def test_one_zero_lists_a_union_below_a_def_flat_and_untitled() -> None:
    e = merge_objs(def_("ab", AB), C)
    assert e.json_schema("1.0") == root(one_of(record("a", "c"), record("b", "c")))
