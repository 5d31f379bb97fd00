"""Binary schemas, layout tables and JSON schemas against the reference.

* every ``describe_binary``, ``pp_binary_schema`` and ``json_schema`` record of
  ``legacy-conformance.jsonl``;
* the real node's ``/describe`` answer (``describe-mempool-2021.json``): every
  ``binary_schema`` in it reads and writes back unchanged;
* the schema language describes itself, and survives JSON and binary in both
  dialects;
* properties over every encoding of the property tests: every reference
  resolves, and the sizes a schema states agree with the encoding's own size
  class and with what ``encode`` produces.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from data_encoding import (
    DYNAMIC,
    VARIABLE,
    EncodeError,
    Encoding,
    Fixed,
    binary_schema,
    binary_schema_v1,
    int31,
    list_,
    n,
    obj,
    opt,
    req,
    string,
)
from data_encoding.passes import schema as bs
from data_encoding.passes.schema.table import render
from dsl import build
from golden import VECTORS as VECTOR_FILES
from golden import legacy_records, ordered_json
from hand import HAND, VECTORS, vector_settings

# --------------------------------------------------------------- helpers


def records(op: str) -> list[dict[str, Any]]:
    return [r for r in legacy_records() if r["op"] == op]


def name_of(record: dict[str, Any]) -> str:
    return str(record["id"]).split("-")[0]


# Legacy never rewrites the top level after deduplication, so these vectors
# refer to entries that were merged away (legacy-dialect.md §2.4). We emit the
# consistent form: the reference that the surviving entry took over.
DANGLING = {
    "obj_dup_refs": {"X_0": "X_1"},
    "obj_def_dedup": {"X_0": "point"},
    "tup_string_bytes_json": {"X_0": "X_2"},
}


def resolved(expected: dict[str, Any], renames: dict[str, str]) -> dict[str, Any]:
    """``expected`` with its dangling top-level references renamed."""
    titles = {entry["description"]["title"] for entry in expected["fields"]}
    fields = []
    for field in expected["toplevel"]["fields"]:
        layout = field.get("layout", {})
        if layout.get("kind") == "Ref" and layout["name"] in renames:
            assert layout["name"] not in titles, "the vector's reference does not dangle"
            field = {**field, "layout": {**layout, "name": renames[layout["name"]]}}
        fields.append(field)
    return {**expected, "toplevel": {**expected["toplevel"], "fields": fields}}


def layouts(s: bs.BinarySchema) -> Iterator[bs.Layout]:
    """Every layout of a schema, sequence elements included."""

    def of_layout(layout: bs.Layout) -> Iterator[bs.Layout]:
        yield layout
        if isinstance(layout, bs.Seq):
            yield from of_layout(layout.layout)

    for top in (s.toplevel, *(e.encoding for e in s.fields)):
        groups = [top.fields] if isinstance(top, bs.Obj) else []
        groups += [c.fields for c in top.cases] if isinstance(top, bs.Cases) else []
        for fields in groups:
            for f in fields:
                if isinstance(f, bs.NamedField | bs.AnonymousField):
                    yield from of_layout(f.layout)


def references(s: bs.BinarySchema) -> Iterator[str]:
    """Every entry name a schema refers to."""
    for layout in layouts(s):
        if isinstance(layout, bs.Ref):
            yield layout.name
        elif isinstance(layout, bs.Enum):
            yield layout.reference


# --------------------------------------------------------------- vectors


@pytest.mark.parametrize("record", records("describe_binary"), ids=name_of)
def test_describe_binary(record: dict[str, Any]) -> None:
    e = build(record["encoding"])
    expected = record["answer"]["ok"]
    name = name_of(record)
    if name in DANGLING:
        expected = resolved(expected, DANGLING[name])
    described = e.describe()
    assert ordered_json(binary_schema.to_json(described)) == ordered_json(expected)
    # and reading the published JSON gives the same value
    assert binary_schema.from_json(expected) == described


def test_describe_dangling_vectors_are_the_only_deviations() -> None:
    deviating = set()
    for record in records("describe_binary"):
        got = binary_schema.to_json(build(record["encoding"]).describe())
        if ordered_json(got) != ordered_json(record["answer"]["ok"]):
            deviating.add(name_of(record))
    assert deviating == set(DANGLING)


@pytest.mark.parametrize("record", records("pp_binary_schema"), ids=name_of)
def test_pp_binary_schema(record: dict[str, Any]) -> None:
    e = build(record["encoding"])
    name = name_of(record)
    if name not in DANGLING:
        assert e.table() == record["answer"]["ok"]
        return
    # the printer reproduces the reference's text from the reference's schema,
    # and prints our (resolved) schema the same way
    (described,) = [r for r in records("describe_binary") if name_of(r) == name]
    published = described["answer"]["ok"]
    assert render(binary_schema.from_json(published)) == record["answer"]["ok"]
    fixed = binary_schema.from_json(resolved(published, DANGLING[name]))
    assert e.table() == render(fixed)


def _enums_as_sets(value: Any) -> Any:
    """The reference lists more than 3 ``string_enum`` cases in hash-table order."""
    if isinstance(value, dict):
        out = {k: _enums_as_sets(v) for k, v in value.items()}
        if isinstance(value.get("enum"), list) and len(value["enum"]) > 3:
            out["enum"] = sorted(value["enum"])
        return out
    if isinstance(value, list):
        return [_enums_as_sets(v) for v in value]
    return value


@pytest.mark.parametrize("record", records("json_schema"), ids=name_of)
def test_json_schema(record: dict[str, Any]) -> None:
    found = build(record["encoding"]).json_schema()
    assert ordered_json(_enums_as_sets(found)) == ordered_json(
        _enums_as_sets(record["answer"]["ok"])
    )


def test_json_schema_small_enums_are_reversed() -> None:
    e = build({"kind": "string_enum", "cases": ["a", "b", "c", "d"]})
    assert e.json_schema() == {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "string",
        "enum": ["d", "c", "b", "a"],
    }


# --------------------------------------------------------------- a real node


def _published_schemas(tree: Any) -> Iterator[Any]:
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "binary_schema":
                yield value
            else:
                yield from _published_schemas(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _published_schemas(value)


def _mempool() -> list[Any]:
    with open(VECTOR_FILES / "describe-mempool-2021.json", encoding="utf-8") as f:
        return list(_published_schemas(json.load(f)))


MEMPOOL = _mempool()


def test_mempool_has_schemas() -> None:
    assert len(MEMPOOL) == 21  # grep -c "binary_schema" of the file


@pytest.mark.parametrize("published", MEMPOOL)
def test_node_schemas_read_and_write_back(published: Any) -> None:
    value = binary_schema.from_json(published)
    assert ordered_json(binary_schema.to_json(value)) == ordered_json(published)
    assert binary_schema.decode(binary_schema.encode(value)) == value
    assert binary_schema_v1.decode(binary_schema_v1.encode(value)) == value
    render(value)  # every published schema prints


# --------------------------------------------------------------- dialects


def test_both_dialects_read_both_spellings() -> None:
    legacy = {"layout": {"layout": {"kind": "Bool"}, "kind": "Seq", "max_length": 3}}
    modern = {
        "layout": {
            "layout": {"kind": "Bool"},
            "kind": "Seq",
            "length_limit": {"kind": "at-most", "at_most": 3},
        }
    }
    for spelling in (legacy, modern):
        field = {**spelling, "kind": "anon", "data_kind": {"kind": "Variable"}}
        doc: dict[str, Any] = {"toplevel": {"fields": [field]}, "fields": []}
        expected = bs.BinarySchema(bs.Obj((bs.AnonymousField(VARIABLE, bs.Seq(bs.Bool(), 3)),)), ())
        assert binary_schema.from_json(doc) == expected
        assert binary_schema_v1.from_json(doc) == expected
    fixed: dict[str, Any] = {"toplevel": {"fields": []}, "fields": []}
    for word in ("Float", "Fixed"):
        doc = {
            "toplevel": {"tag_size": "Uint8", "kind": {"size": 1, "kind": word}, "cases": []},
            "fields": [],
        }
        assert binary_schema.from_json(doc).toplevel == bs.Cases(Fixed(1), "Uint8", ())
    assert binary_schema.from_json(fixed) == bs.BinarySchema(bs.Obj(()), ())


def test_legacy_dialect_refuses_what_it_cannot_state() -> None:
    exact = bs.BinarySchema(
        bs.Obj((bs.AnonymousField(VARIABLE, bs.Seq(bs.Bool(), 3, exact=True)),)), ()
    )
    little = bs.BinarySchema(bs.Obj((bs.AnonymousField(Fixed(2), bs.Int("Uint16", "Little")),)), ())
    n_header = bs.BinarySchema(bs.Obj((bs.DynamicSizeField(None, 1, "N"),)), ())
    for value, what in (
        (exact, "an exact sequence length"),
        (little, "a little-endian integer"),
        (n_header, "an N size header"),
    ):
        assert binary_schema_v1.from_json(binary_schema_v1.to_json(value)) == value
        for write in (binary_schema.to_json, binary_schema.encode):
            with pytest.raises(EncodeError) as caught:
                write(value)
            assert caught.value.code == "not_in_dialect"
            assert caught.value.message == (
                f"the legacy schema dialect cannot state {what}: use binary_schema_v1"
            )
    published: Any = binary_schema_v1.to_json(exact)
    assert published["toplevel"]["fields"][0]["layout"] == {
        "layout": {"kind": "Bool"},
        "kind": "Seq",
        "length_limit": {"kind": "exactly", "exactly": 3},
    }


# --------------------------------------------------------------- self-description


def test_binary_schema_describes_itself() -> None:
    for encoding in (binary_schema, binary_schema_v1):
        described = encoding.describe()
        for dialect in (binary_schema, binary_schema_v1):
            assert dialect.decode(dialect.encode(described)) == described
            assert dialect.from_json(dialect.to_json(described)) == described
        titles = [e.description.title for e in described.fields]
        # "schema.field" names a union in a field-less position: the reference
        # drops such a name (the union is described through its list element)
        assert {"layout", "schema.kind", "union case"} <= set(titles)
        assert "schema.field" not in titles
        assert set(references(described)) <= set(titles)
    # the top level: the root union, then the list of entries
    top = binary_schema.describe().toplevel
    assert isinstance(top, bs.Obj)
    root, header, entries = top.fields
    assert isinstance(root, bs.NamedField) and isinstance(entries, bs.NamedField)
    assert (root.name, root.kind, type(root.layout)) == ("toplevel", DYNAMIC, bs.Ref)
    assert header == bs.DynamicSizeField(None, 1, "Uint30")
    assert (entries.name, entries.kind, type(entries.layout)) == ("fields", VARIABLE, bs.Seq)


def test_layout_entry_of_the_schema_language() -> None:
    described = binary_schema.describe()
    (layout,) = [e.encoding for e in described.fields if e.description.title == "layout"]
    assert isinstance(layout, bs.Cases)
    assert [(c.tag, c.name) for c in layout.cases] == [
        (0, "Zero_width"),
        (1, "Int"),
        (2, "Bool"),
        (3, "RangedInt"),
        (4, "RangedFloat"),
        (5, "Float"),
        (6, "Bytes"),
        (7, "String"),
        (8, "Enum"),
        (9, "Seq"),
        (10, "Ref"),
        (11, "Padding"),
    ]
    assert layout.kind is DYNAMIC


# --------------------------------------------------------------- properties

ALL = {**{f"hand:{k}": v for k, v in HAND.items()}, **VECTORS}


def _width(layout: bs.Layout) -> int | None:
    widths = {"Int8": 1, "Uint8": 1, "Int16": 2, "Uint16": 2, "Int32": 4, "Int64": 8}
    if isinstance(layout, bs.Int):
        return widths[layout.size]
    if isinstance(layout, bs.Bool):
        return 1
    if isinstance(layout, bs.Float | bs.RangedFloat):
        return 8
    if isinstance(layout, bs.ZeroWidth):
        return 0
    return None


def stated_size(fields: tuple[bs.FieldDescr, ...], entries: dict[str, bs.Toplevel]) -> int | None:
    """The fixed size the fields state (checked against each field's layout), or
    ``None`` when one of them is not fixed."""
    total = 0
    for f in fields:
        if isinstance(f, bs.OptionalField | bs.DynamicSizeField):
            return None
        if not isinstance(f.kind, Fixed):
            return None
        width = _width(f.layout)
        if isinstance(f.layout, bs.Ref) and f.layout.name in entries:
            width = entry_size(entries[f.layout.name], entries)
        if width is not None:
            assert width == f.kind.n, f"{f} states {f.kind.n} bytes for a {width}-byte layout"
        total += f.kind.n
    return total


def entry_size(top: bs.Toplevel, entries: dict[str, bs.Toplevel]) -> int | None:
    if isinstance(top, bs.Obj):
        return stated_size(top.fields, entries)
    if isinstance(top, bs.Cases):
        sizes = {stated_size(c.fields, entries) for c in top.cases}
        if isinstance(top.kind, Fixed):
            assert sizes <= {top.kind.n}, f"cases of {sizes} bytes in a {top.kind.n}-byte union"
            return top.kind.n
        return None
    return {"Int8": 1, "Uint8": 1, "Int16": 2, "Uint16": 2}[top.size]


def _exact_sequences(s: bs.BinarySchema) -> bool:
    # their data kind is Variable for a fixed size (a reference quirk), and
    # the legacy dialect cannot state them
    return any(isinstance(layout, bs.Seq) and layout.exact for layout in layouts(s))


@pytest.mark.parametrize("name", list(ALL))
@vector_settings
@given(data=st.data())
def test_property_schema_agrees_with_encoding(name: str, data: st.DataObject) -> None:
    e: Encoding[Any] = ALL[name]
    for dialect in ("legacy", "1.0"):
        s = e.describe(dialect)
        entries = {entry.description.title: entry.encoding for entry in s.fields}
        assert set(references(s)) <= set(entries), "a reference without an entry"
        assert len(entries) == len(s.fields), "two entries with one name"
        legacy_spelling = () if _exact_sequences(s) else (binary_schema,)
        for encoding in (binary_schema_v1, *legacy_spelling):
            assert encoding.decode(encoding.encode(s)) == s
            assert encoding.from_json(encoding.to_json(s)) == s
        assert isinstance(e.table(dialect), str)
        if _exact_sequences(s):
            continue
        size = entry_size(s.toplevel, entries)
        assert size == e.fixed_length
        if size is not None:
            assert len(e.encode(data.draw(e.strategy()))) == size
    assert isinstance(e.json_schema(), dict)


def test_property_covers_every_encoding() -> None:
    assert len(ALL) == len(HAND) + len(VECTORS) == 266


# --------------------------------------------------------------- seed records


def test_seed_daemon_status_schema() -> None:
    """A daemon record with a named process state, a list and a bignum, derived
    by hand with the reference's algorithm: the def names the union, the list
    of strings takes ``X_0`` for its element, and ``n`` brings the ``N.t``
    entry."""
    from data_encoding.node.catalogue.admin import PROCESS_STATE
    from data_encoding.passes.schema.describe import ZARITH_TEXTS

    daemon_status = obj(
        req("id", int31),
        req("state", PROCESS_STATE),
        req("delegates", list_(string)),
        opt("minimal_nanotez_per_gas_unit", n),
    )

    int31_layout = bs.RangedInt(-(2**30), 2**30 - 1)
    tag = bs.NamedField("Tag", Fixed(1), bs.Int("Uint8"))
    pid = bs.NamedField("pid", Fixed(4), int31_layout)
    code = bs.NamedField("code", Fixed(4), int31_layout)
    field = "minimal_nanotez_per_gas_unit"
    expected = bs.BinarySchema(
        bs.Obj(
            (
                bs.NamedField("id", Fixed(4), int31_layout),
                bs.NamedField("state", DYNAMIC, bs.Ref("process_state")),
                bs.DynamicSizeField(None, 1, "Uint30"),
                bs.NamedField("delegates", VARIABLE, bs.Seq(bs.Ref("X_0"))),
                bs.OptionalField(field),
                bs.NamedField(field, DYNAMIC, bs.Ref("N.t")),
            )
        ),
        (
            bs.Entry(
                bs.Description("process_state"),
                bs.Cases(
                    DYNAMIC,
                    "Uint8",
                    (
                        bs.Case(0, (tag, pid), "running"),
                        bs.Case(1, (tag, pid, bs.OptionalField("code"), code), "exited"),
                        bs.Case(2, (tag, pid, code), "stopped"),
                        bs.Case(3, (tag, pid, code), "signaled"),
                    ),
                ),
            ),
            bs.Entry(
                bs.Description("X_0"),
                bs.Obj(
                    (
                        bs.DynamicSizeField(None, 1, "Uint30"),
                        bs.AnonymousField(VARIABLE, bs.String()),
                    )
                ),
            ),
            bs.Entry(
                bs.Description("N.t", ZARITH_TEXTS["legacy"][0]),
                bs.Obj((bs.NamedField("N.t", DYNAMIC, bs.Bytes()),)),
            ),
        ),
    )
    assert daemon_status.describe() == expected
    top = daemon_status.table().split("\n\n\n")[0]
    assert top.splitlines()[-4:] == [
        '| ? presence of field "minimal_nanotez_per_gas_unit" | 1 byte               '
        "| boolean (0 for false, 255 for true)                          |",
        "+----------------------------------------------------+----------------------"
        "+--------------------------------------------------------------+",
        "| minimal_nanotez_per_gas_unit                       | Determined from data "
        "| $N.t                                                         |",
        "+----------------------------------------------------+----------------------"
        "+--------------------------------------------------------------+",
    ]


# --------------------------------------------------------------- random encodings

_LEAVES = [
    "null", "empty", "unit", "bool", "int8", "uint8", "int16", "uint16", "int31", "int32",
    "int64", "float", "n", "z", "string", "bytes", "json",
    {"kind": "constant", "value": "c"},
    {"kind": "string", "fixed": 3},
    {"kind": "bytes", "variable": True},
    {"kind": "string", "max_length": 300},
    {"kind": "ranged_int", "min": 10, "max": 400},
    {"kind": "ranged_float", "min": -1.5, "max": 2.0},
    {"kind": "string_enum", "cases": ["a", "b"]},
]  # fmt: skip


def _composite(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """One combinator over DSL trees drawn from ``inner``."""

    def one(make: Any) -> st.SearchStrategy[Any]:
        return st.builds(make, inner)

    def two(make: Any) -> st.SearchStrategy[Any]:
        return st.builds(make, inner, inner)

    field = st.builds(
        lambda mode, name, enc: {mode: name, "enc": enc},
        st.sampled_from(["req", "opt", "varopt"]),
        st.sampled_from(["a", "b", "c", "d"]),
        inner,
    )
    fields = st.lists(
        field, max_size=3, unique_by=lambda f: f.get("req", f.get("opt", f.get("varopt")))
    )
    case = st.builds(lambda t, e: {"tag": t, "title": f"T{t}", "enc": e}, st.integers(0, 3), inner)
    cases = st.lists(case, min_size=1, max_size=3, unique_by=lambda c: c["tag"])
    node = {"kind": "tup", "elts": [{"kind": "self", "name": "m"}, "uint8"]}
    return st.one_of(
        st.builds(lambda fs: {"kind": "obj", "fields": fs}, fields),
        st.builds(lambda es: {"kind": "tup", "elts": es}, st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda cs: {"kind": "union", "cases": cs}, cases),
        one(lambda e: {"kind": "list", "enc": e}),
        one(lambda e: {"kind": "list", "enc": e, "variable": True, "max_length": 4}),
        one(lambda e: {"kind": "option", "enc": e}),
        one(lambda e: {"kind": "dynamic_size", "enc": e}),
        one(lambda e: {"kind": "check_size", "limit": 100, "enc": e}),
        one(lambda e: {"kind": "padded", "padding": 2, "enc": e}),
        one(lambda e: {"kind": "def", "name": "d", "enc": e}),
        one(lambda e: {"kind": "def", "name": "e", "enc": e}),
        one(lambda e: {"kind": "delayed", "enc": e}),
        one(
            lambda e: {
                "kind": "mu",
                "name": "m",
                "enc": {
                    "kind": "union",
                    "cases": [
                        {"tag": 0, "title": "Leaf", "enc": e},
                        {"tag": 1, "title": "Node", "enc": node},
                    ],
                },
            }
        ),
        two(lambda a, b: {"kind": "splitted", "json": a, "binary": b}),
        two(lambda a, b: {"kind": "merge_objs", "left": a, "right": b}),
        two(lambda a, b: {"kind": "merge_tups", "left": a, "right": b}),
    )


RANDOM_DSL = st.recursive(st.sampled_from(_LEAVES), _composite, max_leaves=8)


@given(dsl=RANDOM_DSL)
def test_property_random_encodings_describe_consistently(dsl: Any) -> None:
    """Encodings nobody wrote down: whatever builds also describes itself, in
    both dialects, with every reference resolved and its schema surviving JSON
    and binary."""
    from data_encoding import DefinitionError

    try:
        e = build(dsl)
        e.size  # noqa: B018  (delayed encodings build on first use)
    except (DefinitionError, KeyError, TypeError, ValueError):
        return  # not a valid layout (or a DSL mismatch): refused when built
    for dialect in ("legacy", "1.0"):
        try:
            s = e.describe(dialect)
        except DefinitionError as err:
            assert err.code == "invalid_definition"
            continue
        entries = {entry.description.title for entry in s.fields}
        assert set(references(s)) <= entries
        assert binary_schema_v1.decode(binary_schema_v1.encode(s)) == s
        assert binary_schema.from_json(binary_schema.to_json(s)) == s
        e.table(dialect)
        try:
            e.json_schema(dialect)
        except DefinitionError as err:  # one def_ id for two different encodings
            assert err.code == "duplicate_definition"
