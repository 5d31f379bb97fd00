"""The Arrow pass over every catalogue id (``data_encoding.arrow``).

* Every id's values (drawn from its strategy, a few per id, derandomized)
  survive ``values_of(table_of(...))`` exactly, type for type, and their
  bytes are unchanged.
  With the options that place every value (Zarith numbers and text that is
  not UTF-8 have no default cell for some values: ``test_arrow.py`` tests
  those refusals), and recursive encodings as JSON text.
* The samples (real values, as ``decode`` gives them) round-trip alike
  under the default options (recursive encodings as JSON text), but those
  listed, refused at the value.
* Under the default options the ids refused are exactly those listed, each
  with its message: recursive encodings, named where they are met.
* ``schema_of`` of a block header, an operation, a union, an option and a
  list, pinned.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_ids import ENCODING_IDS, OWN_SAMPLES
from data_encoding import DataEncodingError, DefinitionError, EncodeError
from data_encoding.arrow import Options, schema_of, table_of, values_of
from data_encoding.node import registry
from hand import assert_same

EVERY_VALUE = Options(zarith="string", text="binary", recursive="json")
"""The options under which every value of every id has a cell."""

RECURSIVE_AS_JSON = Options(recursive="json")
"""The default options, but for recursive encodings (refused: pinned below)."""

MICHELINE = "micheline.michelson_v1.expression"

REFUSED: dict[str, tuple[str, str]] = {
    "proto.psbabym1.contract.big_map_diff": (MICHELINE, "$[]<update>.key"),
    "proto.psbabym1.operation": (MICHELINE, "$.contents[]<Transaction>.parameters.value"),
    "proto.psbabym1.operation.contents": (MICHELINE, "$<Transaction>.parameters.value"),
    "proto.psbabym1.operation.contents_list": (MICHELINE, "$[]<Transaction>.parameters.value"),
    "proto.psbabym1.operation.data_and_metadata": (
        MICHELINE,
        "$<Operation_with_metadata>.contents[]<Reveal>.metadata"
        ".internal_operation_results[]<transaction>.parameters.value",
    ),
    "proto.psbabym1.operation.internal": (MICHELINE, "$<Transaction>.parameters.value"),
    "proto.psbabym1.operation.protocol_data": (
        MICHELINE,
        "$.contents[]<Transaction>.parameters.value",
    ),
    "proto.psbabym1.operation.unsigned": (MICHELINE, "$.contents[]<Transaction>.parameters.value"),
    "proto.psbabym1.parameters": (MICHELINE, "$.bootstrap_contracts[].script.code"),
    "proto.psbabym1.script": (MICHELINE, "$.code"),
    "proto.psbabym1.script.expr": (MICHELINE, "$"),
    "proto.psbabym1.script.lazy_expr": (MICHELINE, "$"),
    "proto.psbabym1.script.packed": (MICHELINE, "$<Packed data>"),
    "proto.pscartha.parameters": (MICHELINE, "$.bootstrap_contracts[].script.code"),
    "proto.psdelph1.contract.big_map_diff": (MICHELINE, "$[]<update>.key"),
    "proto.psdelph1.operation.data_and_metadata": (
        MICHELINE,
        "$<Operation_with_metadata>.contents[]<Reveal>.metadata"
        ".internal_operation_results[]<transaction>.parameters.value",
    ),
    "proto.pt24m4xi.contract.big_map_diff": (MICHELINE, "$[].key"),
    "proto.pt24m4xi.operation": (MICHELINE, "$.contents[]<Transaction>.parameters"),
    "proto.pt24m4xi.operation.contents": (MICHELINE, "$<Transaction>.parameters"),
    "proto.pt24m4xi.operation.contents_list": (MICHELINE, "$[]<Transaction>.parameters"),
    "proto.pt24m4xi.operation.data_and_metadata": (
        MICHELINE,
        "$<Operation_with_metadata>.contents[]<Reveal>.metadata"
        ".internal_operation_results[]<transaction>.parameters",
    ),
    "proto.pt24m4xi.operation.internal": (MICHELINE, "$<Transaction>.parameters"),
    "proto.pt24m4xi.operation.protocol_data": (MICHELINE, "$.contents[]<Transaction>.parameters"),
    "proto.pt24m4xi.operation.unsigned": (MICHELINE, "$.contents[]<Transaction>.parameters"),
    "proto.pt24m4xi.parameters": (MICHELINE, "$.bootstrap_contracts[].script.code"),
    "proto.pt24m4xi.script": (MICHELINE, "$.code"),
    "proto.pt24m4xi.script.expr": (MICHELINE, "$"),
    "proto.pt24m4xi.script.lazy_expr": (MICHELINE, "$"),
    "proto.pt24m4xi.script.packed": (MICHELINE, "$<Packed data>"),
    "rpc.binary_schema": ("layout", "$.toplevel<Obj>.fields[]<named>.layout"),
    "rpc.binary_schema_v1": ("layout", "$.toplevel<Obj>.fields[]<named>.layout"),
    "rpc.schemas": ("layout", "$.binary_schema.toplevel<Obj>.fields[]<named>.layout"),
    "rpc.schemas_v1": ("layout", "$.binary_schema.toplevel<Obj>.fields[]<named>.layout"),
    "rpc.service": ("layout", "$.input.binary_schema.toplevel<Obj>.fields[]<named>.layout"),
    "rpc.service_tree": ("service_tree", "$"),
    "rpc.service_tree_v1": ("service_tree", "$"),
    "rpc.service_v1": ("layout", "$.input.binary_schema.toplevel<Obj>.fields[]<named>.layout"),
}
"""The ids the default options refuse: the recursive encoding met first, and where."""

REFUSED_SAMPLES: dict[tuple[str, str, tuple[str | int, ...]], str] = {
    ("unistring", "invalid_utf8", (2,)): "text that is not UTF-8 has no string cell "
    "(Options(text='binary') places it)",
}
"""The samples the default options refuse (id, code, path), with the message."""


def _round_trip(e: Any, values: list[Any], options: Options) -> None:
    back = values_of(e, table_of(e, values, options), options)
    assert len(back) == len(values)
    for found, value in zip(back, values, strict=True):
        assert_same(found, value, "values_of(table_of(v))")
        assert e.encode(found) == e.encode(value)


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_every_ids_values_come_back_exactly(id: str) -> None:
    e = registry.find(id).encoding

    @settings(
        max_examples=2,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.lists(e.strategy(), min_size=1, max_size=3))
    def check(values: list[Any]) -> None:
        _round_trip(e, values, EVERY_VALUE)

    check()


@pytest.mark.parametrize("id", sorted(OWN_SAMPLES))
def test_every_ids_samples_come_back_exactly_with_the_default_options(id: str) -> None:
    e = registry.find(id).encoding
    # as decode gives them (a JSON sample may spell a value the bytes do not keep)
    read = [e.from_json(s["json"]) for s in OWN_SAMPLES[id]["valid"] if "json" in s]
    values = [e.decode(e.encode(v)) for v in read]
    try:
        _round_trip(e, values, RECURSIVE_AS_JSON)
    except EncodeError as err:
        assert REFUSED_SAMPLES.get((id, err.code, err.path)) == err.message, repr(err)


def test_the_default_options_refuse_the_recursive_ids_where_they_recurse() -> None:
    refused: dict[str, str] = {}
    for id in ENCODING_IDS:
        try:
            schema_of(registry.find(id).encoding)
        except DefinitionError as err:
            refused[id] = str(err)
    assert refused == {
        id: f"arrow: the recursive encoding {name!r} has no columns "
        f"(Options(recursive='json') places its values as JSON text) at {place}"
        for id, (name, place) in REFUSED.items()
    }


def _shown(e: Any) -> str:
    return str(schema_of(e))


def test_a_block_headers_schema() -> None:
    assert _shown(registry.find("shell.block_header").encoding) == "\n".join(
        [
            "level: int32 not null",
            "proto: uint8 not null",
            "predecessor: string not null",
            "timestamp: timestamp[s, tz=UTC] not null",
            "validation_pass: uint8 not null",
            "operations_hash: string not null",
            "fitness: list<item: binary not null> not null",
            "  child 0, item: binary not null",
            "context: string not null",
            "protocol_data: binary not null",
        ]
    )


def test_an_operations_schema() -> None:
    operation = registry.find("proto.psdelph1.operation").encoding
    schema = schema_of(operation, RECURSIVE_AS_JSON)
    assert isinstance(schema, pa.Schema)
    assert schema.names == ["branch", "contents", "signature"]
    contents = schema.field("contents").type
    assert isinstance(contents, pa.ListType)
    kinds = contents.value_type
    assert isinstance(kinds, pa.StructType)
    assert [kinds.field(i).name for i in range(kinds.num_fields)] == [
        "kind",
        "Endorsement",
        "Seed_nonce_revelation",
        "Double_endorsement_evidence",
        "Double_baking_evidence",
        "Activate_account",
        "Proposals",
        "Ballot",
        "Reveal",
        "Transaction",
        "Origination",
        "Delegation",
    ]
    assert str(kinds.field("Transaction").type) == (
        "struct<source: string not null, fee: decimal128(38, 0) not null, "
        "counter: decimal128(38, 0) not null, gas_limit: decimal128(38, 0) not null, "
        "storage_limit: decimal128(38, 0) not null, amount: decimal128(38, 0) not null, "
        "destination: string not null, parameters: struct<entrypoint: struct<kind: string "
        "not null, named: string> not null, value: string not null>>"
    )
    assert str(schema.field("signature").type) == "string"
    assert not schema.field("signature").nullable


def test_a_unions_schema() -> None:
    assert _shown(registry.find("admin.daemon_status").encoding) == "\n".join(
        [
            "id: int32 not null",
            "kind: string not null",
            "running: struct<pid: int32 not null>",
            "  child 0, pid: int32 not null",
            "exited: struct<pid: int32 not null, code: int32>",
            "  child 0, pid: int32 not null",
            "  child 1, code: int32",
            "stopped: struct<pid: int32 not null, code: int32 not null>",
            "  child 0, pid: int32 not null",
            "  child 1, code: int32 not null",
            "signaled: struct<pid: int32 not null, code: int32 not null>",
            "  child 0, pid: int32 not null",
            "  child 1, code: int32 not null",
        ]
    )


def test_an_options_schema() -> None:
    schema = schema_of(registry.find("admin.daemon").encoding)
    assert isinstance(schema, pa.Schema)
    baker = schema.field("baker")
    assert str(baker.type) == (
        "struct<delegates: list<item: string not null> not null, minimal_fees: string, "
        "minimal_nanotez_per_gas_unit: decimal128(38, 0), minimal_nanotez_per_byte: "
        "decimal128(38, 0), await_endorsements: bool, max_priority: int32>"
    )
    assert baker.nullable


def test_a_lists_schema() -> None:
    assert _shown(registry.find("chain.blocks").encoding) == (
        "list<item: list<item: string not null> not null>"
    )


def test_a_refusal_is_a_definition_error() -> None:
    with pytest.raises(DataEncodingError) as caught:
        table_of(registry.find("proto.psdelph1.script.expr").encoding, [])
    assert caught.value.code == "invalid_definition"
