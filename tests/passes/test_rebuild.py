"""``from_schema``: encodings rebuilt from their binary schemas describe
themselves identically and read and write the same bytes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_ids import ENCODING_IDS, encoding_samples
from data_encoding import (
    DYNAMIC,
    VARIABLE,
    DecodeError,
    DefinitionError,
    Encoding,
    Fixed,
    binary_schema,
    binary_schema_v1,
    from_schema,
    int8,
    obj,
    opt,
    option,
    req,
    string,
    uint8,
)
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.passes.schema import BinarySchema, Dialect
from data_encoding.passes.schema import values as bs
from data_encoding.passes.schema.entrygraph import own_size, unfolded_size
from golden import DESCRIBE_ANSWERS, VECTORS
from random_dsl import encodings
from rebuild_kinds import REFUSED_KINDS, difference, expected_refusal, unstated

REORDERED = frozenset(
    {
        "rpc.binary_schema",
        "rpc.binary_schema_v1",
        "rpc.schemas",
        "rpc.schemas_v1",
        "rpc.service",
        "rpc.service_tree",
        "rpc.service_tree_v1",
        "rpc.service_v1",
    }
)
"""Encodings that rebuild but re-describe otherwise in the legacy dialect
(whose deduplication runs newest first): the schema language's mutually
recursive entries come out in another order."""

RENUMBERED = frozenset(
    {
        "proto.psbabym1.operation.data_and_metadata",
        "proto.psdelph1.operation.data_and_metadata",
        "proto.pt24m4xi.operation.data_and_metadata",
    }
)
"""Schema pairs that rebuild to the same bytes and entries, but for one
anonymous entry that ``describe`` numbers otherwise (a manager operation's
receipt, ``X_4``, first met at another place of the rebuilt encoding)."""

LANGUAGE = (
    "the schema language: its entries reordered, its unions with more JSON shapes than "
    "binary cases and untitled (legacy), so that the cases are keyed by their names"
)
DEFAULTS = (
    "members the node leaves out of JSON when they hold their default (dft): neither "
    "schema states the default, so that they are required, and written, when rebuilt"
)
ENTRYPOINT = (
    "a named entrypoint's text case: the JSON schema says a string, not which (a bounded "
    "string's JSON schema is a plain string, the rebuilt one the unistring definition)"
)
RECEIPTS = f"a receipt: {DEFAULTS}; {ENTRYPOINT}"
JSON_OTHERWISE = {
    **{
        f"proto.{p}.operation{part}": why
        for p, why in (("psbabym1", ENTRYPOINT), ("pt24m4xi", DEFAULTS))
        for part in ("", ".contents", ".contents_list", ".internal", ".protocol_data", ".unsigned")
    },
    **{id: LANGUAGE for id in REORDERED},
    **{id: RECEIPTS for id in RENUMBERED},
}
"""The catalogue ids whose schema pair rebuilds with another JSON schema, and why."""
VALUES_OTHERWISE = {
    id: why for id, why in JSON_OTHERWISE.items() if why in (DEFAULTS, LANGUAGE, RECEIPTS)
}
"""Those whose JSON values differ too: members with a default, written
when rebuilt, and the unions whose cases are keyed by their names."""


def _schema(id: str, dialect: Dialect = "legacy") -> BinarySchema:
    return registry.find(id).encoding.describe(dialect)


@pytest.mark.parametrize("id", ENCODING_IDS)
@pytest.mark.parametrize("dialect", ["legacy", "1.0"])
def test_catalogue_schemas_rebuild_to_a_fixed_point(id: str, dialect: Dialect) -> None:
    schema = _schema(id, dialect)
    language = binary_schema if dialect == "legacy" else binary_schema_v1
    published = json.loads(json.dumps(language.to_json(schema)))
    refused = expected_refusal(schema)
    if refused is not None:
        for form in (schema, published):
            with pytest.raises(DefinitionError, match=refused):
                from_schema(form)
        return
    for form in (schema, published):
        again = from_schema(form).describe(dialect)
        assert (again == schema) is (dialect == "1.0" or id not in REORDERED)


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_catalogue_schema_pairs_rebuild_to_a_fixed_point(id: str) -> None:
    e = registry.find(id).encoding
    schema, json_schema = e.describe(), e.json_schema()
    rebuilt = from_schema(schema, json_schema)
    assert from_schema(binary_schema.to_json(schema), json_schema) is rebuilt
    assert (rebuilt.describe() == schema) is (id not in REORDERED | RENUMBERED)
    assert (rebuilt.json_schema() == json_schema) is (id not in JSON_OTHERWISE)
    same_json = []
    for sample in encoding_samples(id, "valid"):
        if "hex" in sample:
            data = bytes.fromhex(str(sample["hex"]))
            value = rebuilt.decode(data)
            assert rebuilt.encode(value) == data
            node_json = e.to_json(e.decode(data))
            same_json.append(rebuilt.to_json(value) == node_json)
            if same_json[-1]:
                assert rebuilt.encode(rebuilt.from_json(node_json)) == data
    assert all(same_json) is (id not in VALUES_OTHERWISE)


def _mutations(data: bytes) -> list[bytes]:
    """Each byte flipped, the last byte dropped, a byte added: as the fuzz
    tests spoil inputs, deterministically."""
    spoiled = [data[:i] + bytes([data[i] ^ 0xFF]) + data[i + 1 :] for i in range(len(data))]
    return [*spoiled[:64], data[:-1], data + b"\x00"]


def _accepts(e: Encoding[Any], data: bytes) -> bool:
    try:
        e.decode(data)
    except DecodeError:
        return False
    return True


def _agree(e: Encoding[Any], rebuilt: Encoding[Any], data: bytes) -> None:
    assert rebuilt.encode(rebuilt.decode(data)) == data
    for spoiled in _mutations(data):
        # never stricter than ``e``: what the schema states, it checks; the
        # checks of ``e``'s values (a timestamp's range, BSON) it cannot know
        assert _accepts(rebuilt, spoiled) or not _accepts(e, spoiled), spoiled.hex()


SAMPLED = [
    (id, bytes.fromhex(str(sample["hex"])))
    for id in ENCODING_IDS
    if expected_refusal(_schema(id)) is None
    for sample in encoding_samples(id, "valid")
    if "hex" in sample
]


@pytest.mark.parametrize(
    ("id", "data"), SAMPLED, ids=[f"{id}-{i}" for i, (id, _) in enumerate(SAMPLED)]
)
def test_rebuilt_encodings_read_and_write_the_catalogue_samples(id: str, data: bytes) -> None:
    e = registry.find(id).encoding
    _agree(e, from_schema(e.describe()), data)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(encodings(), st.data())
def test_random_encodings_rebuild_exactly_or_as_a_known_kind(
    built: tuple[Any, Encoding[Any]], data: st.DataObject
) -> None:
    spec, e = built
    schema = e.describe()
    try:
        json_schema: JsonValue = e.json_schema()
    except DefinitionError:  # two definitions of one name: no JSON schema to publish
        json_schema = None
    value = data.draw(e.strategy())
    for pair in (None, json_schema):
        try:
            rebuilt = from_schema(schema, pair)
        except DefinitionError as error:
            message = str(error)
            assert message.startswith("from_schema: ")
            assert any(kind in message for kind in REFUSED_KINDS), message
            continue
        difference(schema, rebuilt.describe())  # raises on an unknown kind
        if unstated(spec) is None:  # else no rebuilt encoding reads the same bytes
            _agree(e, rebuilt, e.encode(value))


@pytest.mark.parametrize("name", sorted(DESCRIBE_ANSWERS))
def test_every_schema_of_a_real_describe_answer_rebuilds(name: str) -> None:
    with open(VECTORS / name, encoding="utf-8") as f:
        answer = json.load(f)
    schemas = list(_binary_schemas(answer))
    assert schemas
    for published in schemas:
        schema = binary_schema_v1.from_json(published)
        refused = expected_refusal(schema)
        if refused is not None:
            with pytest.raises(DefinitionError, match=refused):
                from_schema(published)
            continue
        rebuilt = from_schema(published)
        assert rebuilt.describe() == schema
        if _json_only(schema):
            # a JSON-only body (its binary schema a union of no cases):
            # any JSON value, whose bytes no tag can start
            assert rebuilt.to_json(rebuilt.from_json({"a": [1]})) == {"a": [1]}
            with pytest.raises(DecodeError, match="unexpected tag 0"):
                rebuilt.decode(b"\x00")
        else:
            _round_trips(rebuilt)


def _json_only(schema: BinarySchema) -> bool:
    fields = schema.toplevel.fields if isinstance(schema.toplevel, bs.Obj) else ()
    (top,) = fields if len(fields) == 1 else (None,)
    ref = top.layout if isinstance(top, bs.AnonymousField) else None
    entries = {e.description.title: e.encoding for e in schema.fields}
    found = entries.get(ref.name) if isinstance(ref, bs.Ref) else None
    return isinstance(found, bs.Cases) and not found.cases


def _binary_schemas(tree: JsonValue) -> Any:
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key == "binary_schema":
                yield value
            else:
                yield from _binary_schemas(value)
    elif isinstance(tree, list):
        for value in tree:
            yield from _binary_schemas(value)


def _round_trips(e: Encoding[Any]) -> None:
    @settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
    @given(e.strategy())
    def check(value: Any) -> None:
        data = e.encode(value)
        assert e.encode(e.decode(data)) == data
        assert e.from_json(e.to_json(value)) == e.decode(data)

    check()


# ---------------------------------------------------------------- the forms


def test_a_record_rebuilds_with_its_fields_and_json() -> None:
    e = from_schema(obj(req("a", uint8), opt("b", string)).describe())
    assert e.encode({"a": 1, "b": "x"}).hex() == "01ff0000000178"
    assert e.to_json({"a": 1, "b": None}) == {"a": 1}


def test_a_union_case_is_keyed_by_its_name() -> None:
    e = from_schema(option(int8).describe())
    assert e.decode(bytes.fromhex("01ff")) == {"Some": -1}
    assert e.decode(bytes.fromhex("00")) == {"None": None}
    assert e.to_json({"Some": -1}) == {"Some": -1}


def test_a_dynamic_field_without_its_header_is_undetermined() -> None:
    schema = BinarySchema(bs.Obj((bs.NamedField("x", DYNAMIC, bs.Bytes()),)), ())
    with pytest.raises(DefinitionError, match=r"toplevel.fields\[0\]: bytes of a dynamic size"):
        from_schema(schema)


def test_a_little_endian_integer_is_refused_where_it_stands() -> None:
    schema = BinarySchema(bs.Obj((bs.AnonymousField(Fixed(2), bs.Int("Uint16", "Little")),)), ())
    with pytest.raises(DefinitionError, match=r"toplevel.fields\[0\] is a little-endian integer"):
        from_schema(schema)


# ---------------------------------------------------------------- the cost


def _doubling(depth: int) -> BinarySchema:
    """Entries ``e0`` .. ``e<depth-1>``, each with two optional fields of the
    next (the last: of a ``Uint8``): a schema of ``5 * depth + 1`` fields
    and entries, whose codec unfolds to about ``2^depth`` of them, while its
    least value is two bytes."""
    entries = []
    for i in range(depth):
        last = i == depth - 1
        nxt: bs.Layout = bs.Int("Uint8") if last else bs.Ref(f"e{i + 1}")
        kind = Fixed(1) if last else DYNAMIC
        fields = (
            bs.OptionalField("a"),
            bs.NamedField("a", kind, nxt),
            bs.OptionalField("b"),
            bs.NamedField("b", kind, nxt),
        )
        entries.append(bs.Entry(bs.Description(f"e{i}"), bs.Obj(fields)))
    top = bs.Obj((bs.NamedField("x", DYNAMIC, bs.Ref("e0")),))
    return BinarySchema(top, tuple(entries))


def test_the_unfolded_size_counts_each_reference_but_a_mu_inside_itself() -> None:
    schema = _doubling(3)  # e0: 4 fields, two of them e1 (4 fields, two of them e2: 4)
    entries = {e.description.title: e for e in schema.fields}
    assert own_size(schema) == 1 + 3 * (4 + 1)
    assert unfolded_size(entries, schema.toplevel, 1000) == 1 + 4 + 2 * (4 + 2 * 4)
    assert unfolded_size(entries, schema.toplevel, 10) == 11  # counted up to the limit only
    # a list of itself: its one reference inside itself is not unfolded again
    lists = BinarySchema(
        bs.Obj((bs.AnonymousField(DYNAMIC, bs.Ref("l")),)),
        (
            bs.Entry(
                bs.Description("l"),
                bs.Obj((bs.AnonymousField(VARIABLE, bs.Seq(bs.Ref("l"))),)),
            ),
        ),
    )
    assert unfolded_size({"l": lists.fields[0]}, lists.toplevel, 1000) == 2


def test_a_schema_that_unfolds_out_of_proportion_to_its_size_is_refused() -> None:
    assert from_schema(_doubling(10)).decode(bytes.fromhex("0000")) == {"x": {"a": None, "b": None}}
    # 151 fields and entries, 2^30 once unfolded: refused before any is built
    with pytest.raises(
        DefinitionError,
        match=r"^from_schema: unfolded as its codec walks it, the schema has over 128 times its "
        r"own fields \(entries referred to several times by entries referred to several times\): "
        r"refused, its cost would be out of proportion to its size$",
    ):
        from_schema(_doubling(30))
