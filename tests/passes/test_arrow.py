"""The Arrow pass (``data_encoding.arrow``): each node type's column, the
exact round trip over random encodings, what it refuses and where, tables
read back from Parquet and Arrow IPC, and the package without pyarrow.

The catalogue's ids are ``tests/node/test_catalogue_arrow.py``'s.
"""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import hashes, timestamp
from data_encoding.arrow import Options, schema_of, table_of, values_of
from data_encoding.node import signatures
from data_encoding.node.registry import find
from dsl import Dsl
from hand import assert_same
from random_dsl import encodings

EVERY_VALUE = Options(zarith="string", text="binary", recursive="json")
"""The options under which every value has a cell."""


DEFAULT = Options()


def _round_trip(e: de.Encoding[Any], values: list[Any], options: Options = DEFAULT) -> pa.Table:
    table = table_of(e, values, options)
    back = values_of(e, table, options)
    assert len(back) == len(values)
    for found, value in zip(back, values, strict=True):
        assert_same(found, value, "values_of(table_of(v))")
    return table


# ------------------------------------------------------------------ rules


@pytest.mark.parametrize(
    ("e", "shown"),
    [
        (de.bool_, "bool"),
        (de.int8, "int8"),
        (de.uint8, "uint8"),
        (de.int16, "int16"),
        (de.uint16, "uint16"),
        (de.int31, "int32"),
        (de.uint30, "uint32"),
        (de.int32, "int32"),
        (de.int64, "int64"),
        (de.ranged_int(0, 1000), "uint16"),
        (de.ranged_int(-5, 5), "int8"),
        (de.ranged_int(-(2**30), 2**30 - 1), "int32"),
        (de.float_, "double"),
        (de.n, "decimal128(38, 0)"),
        (de.z, "decimal128(38, 0)"),
        (de.string, "string"),
        (de.bytes_, "binary"),
        (de.fixed.bytes_(3), "fixed_size_binary[3]"),
        (de.fixed.string(3), "string"),
        (de.bounded.string(9), "string"),
        (de.string_enum(["a", "b"]), "string"),
        (de.json, "string"),
        (hashes.block_hash, "string"),
        (signatures.signature, "string"),
        (timestamp.protocol, "timestamp[s, tz=UTC]"),
        (timestamp.system, "timestamp[s, tz=UTC]"),
        (timestamp.rfc, "string"),
        (de.list_(de.uint8), "list<item: uint8 not null>"),
        (de.option(de.uint8), "uint8"),
        (de.constant("x"), "bool"),
        (de.option(de.tup(de.uint8, de.string)), "struct<0: uint8 not null, 1: string not null>"),
        (de.dynamic_size(de.list_(de.z)), "list<item: decimal128(38, 0) not null>"),
    ],
)
def test_each_nodes_type(e: de.Encoding[Any], shown: str) -> None:
    assert str(schema_of(e)) == shown


def test_the_options_choose_the_types() -> None:
    large = Options(large=True)
    assert str(schema_of(de.list_(de.string), large)) == ("large_list<item: large_string not null>")
    assert str(schema_of(de.bytes_, large)) == "large_binary"
    assert str(schema_of(de.n, Options(zarith="string"))) == "string"
    assert str(schema_of(de.string, Options(text="binary"))) == "binary"
    assert str(schema_of(hashes.block_hash, Options(hashes="bytes"))) == "fixed_size_binary[32]"
    assert str(schema_of(signatures.signature, Options(hashes="bytes"))) == "fixed_size_binary[64]"
    assert str(schema_of(signatures.public_key, Options(hashes="bytes"))) == "binary"
    assert str(schema_of(timestamp.protocol, Options(hashes="bytes"))) == "timestamp[s, tz=UTC]"


def test_a_record_is_a_table_of_its_fields_and_a_union_a_struct_with_its_kind() -> None:
    state = de.union(
        [
            de.case(0, "running", de.obj(de.req("state", de.constant("running")))),
            de.case(
                1, "exited", de.obj(de.req("state", de.constant("exited")), de.req("code", de.int8))
            ),
        ]
    )
    e = de.obj(de.req("id", de.uint8), de.opt("name", de.string), de.req("state", state))
    assert str(schema_of(e)) == "\n".join(
        [
            "id: uint8 not null",
            "name: string",
            "state: struct<kind: string not null, exited: struct<code: int8 not null>> not null",
            "  child 0, kind: string not null",
            "  child 1, exited: struct<code: int8 not null>",
            "      child 0, code: int8 not null",
        ]
    )
    values = [
        {"id": 1, "name": None, "state": {"state": "running"}},
        {"id": 2, "name": "b", "state": {"state": "exited", "code": -1}},
    ]
    table = _round_trip(e, values)
    assert table.to_pylist() == [
        {"id": 1, "name": None, "state": {"kind": "running", "exited": None}},
        {"id": 2, "name": "b", "state": {"kind": "exited", "exited": {"code": -1}}},
    ]


def test_cells_hold_the_values_as_analysts_read_them() -> None:
    e = de.obj(
        de.req("block", hashes.block_hash),
        de.req("at", timestamp.protocol),
        de.req("fee", de.n),
        de.opt("present", de.constant("x")),
    )
    value: dict[str, Any] = {
        "block": hashes.block_hash.from_json("BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2"),
        "at": 1_600_000_000,
        "fee": 10**37,
        "present": "x",
    }
    table = _round_trip(e, [value, {**value, "present": None}])
    assert table.to_pylist()[0] == {
        "block": "BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2",
        "at": datetime(2020, 9, 13, 12, 26, 40, tzinfo=UTC),
        "fee": Decimal(10**37),
        "present": True,
    }
    assert table.column("at").cast(pa.int64()).to_pylist() == [1_600_000_000] * 2
    assert table.column("present").to_pylist() == [True, None]
    raw = _round_trip(e, [value], Options(hashes="bytes"))
    assert raw.column("block").to_pylist() == [bytes(value["block"])]


def test_a_signature_keeps_its_spelling() -> None:
    text = (
        "edsigtXomBKi5CTRf5cjATJWSyaRvhfYNHqSUGrn4SdbYRcGwQrUGjzEfQDTuqH"
        "huA8b2d8NarZjz8TRf65WkpQmo423BtomS8Q"
    )
    value = signatures.signature.from_json(text)
    table = _round_trip(signatures.signature, [value])
    assert table.column("value").to_pylist() == [text]


def test_zarith_numbers_past_38_digits_and_text_that_is_not_utf8_have_no_default_cell() -> None:
    e = de.obj(de.req("a", de.list_(de.z)), de.req("t", de.string))
    biggest = 10**38 - 1
    _round_trip(e, [{"a": [biggest, -biggest], "t": "é"}])
    with pytest.raises(de.EncodeError) as big:
        table_of(e, [{"a": [0], "t": ""}, {"a": [1, 10**38], "t": ""}])
    assert (big.value.code, big.value.path, big.value.message) == (
        "out_of_range",
        (1, "a", 1),
        "a number of more than 38 digits has no decimal128 cell "
        "(Options(zarith='string') places it as text)",
    )
    with pytest.raises(de.EncodeError) as text:
        table_of(e, [{"a": [], "t": b"\xff"}])
    assert (text.value.code, text.value.path, text.value.message) == (
        "invalid_utf8",
        (0, "t"),
        "text that is not UTF-8 has no string cell (Options(text='binary') places it)",
    )
    _round_trip(e, [{"a": [10**38, -(10**80)], "t": b"\xff"}], EVERY_VALUE)


def test_a_value_is_checked_as_length_checks_it() -> None:
    e = de.obj(de.req("a", de.uint8))
    with pytest.raises(de.EncodeError) as caught:
        table_of(e, [{"a": 1}, {"a": 256}])
    assert (caught.value.code, caught.value.path) == ("invalid_int", (1, "a"))


def test_a_recursive_encoding_is_refused_where_it_is_unless_asked_for_as_json() -> None:
    chain = de.mu("chain", lambda self: de.obj(de.req("v", de.uint8), de.opt("next", self)))
    e = de.obj(de.req("items", de.list_(de.obj(de.req("c", chain)))))
    with pytest.raises(de.DefinitionError) as caught:
        schema_of(e)
    assert str(caught.value) == (
        "arrow: the recursive encoding 'chain' has no columns "
        "(Options(recursive='json') places its values as JSON text) at $.items[].c"
    )
    value = {"items": [{"c": {"v": 1, "next": {"v": 2, "next": None}}}]}
    table = _round_trip(e, [value], Options(recursive="json"))
    assert table.column("items").to_pylist() == [[{"c": '{"v":1,"next":{"v":2}}'}]]


def test_names_a_struct_cannot_hold_twice_are_refused() -> None:
    u = de.union([de.case(0, "kind", de.uint8), de.case(1, "b", de.uint16)])
    with pytest.raises(de.DefinitionError) as caught:
        schema_of(de.obj(de.req("u", u)))
    assert str(caught.value) == (
        "arrow: union: two cases (or a case and 'kind') are named 'kind' at $.u"
    )
    cases = de.union([de.case(0, "a", de.obj(de.req("x", de.uint8)))])
    with pytest.raises(de.DefinitionError) as merged:
        schema_of(de.merge_objs(de.obj(de.req("kind", de.uint8)), cases))
    assert str(merged.value) == "arrow: two fields named 'kind' in one struct at $"


# ------------------------------------------------------------ round trips

RANDOM = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)

REFUSALS = (
    "arrow: union: two cases (or a case and 'kind') are named ",
    "arrow: two fields named ",
    "arrow: a merged tuple part whose elements are not a tuple's",
)
"""What the pass refuses of random encodings: names that a struct cannot
hold twice (a case named ``kind``), a merged union of tuples."""


@RANDOM
@given(encodings(), st.data())
def test_random_encodings_values_come_back_exactly(
    built: tuple[Dsl, de.Encoding[Any]], data: st.DataObject
) -> None:
    _, e = built
    try:
        schema_of(e, EVERY_VALUE)
    except de.DefinitionError as err:
        assert str(err).startswith(REFUSALS), err
        return
    values = data.draw(st.lists(e.strategy(), max_size=3))
    _round_trip(e, values, EVERY_VALUE)


# ------------------------------------------------------- tables read back


HEADER = find("shell.block_header")


def test_tables_read_back_from_parquet_give_the_values() -> None:
    # real headers: Parquet holds timestamps in milliseconds, so that one
    # past 292 million years from 1970 is refused when written (by pyarrow)
    values = [HEADER.encoding.from_json(s["json"]) for s in HEADER.samples["valid"]]
    assert values
    parquet = io.BytesIO()
    pq.write_table(table_of(HEADER.encoding, values), parquet)
    assert values_of(HEADER.encoding, pq.read_table(io.BytesIO(parquet.getvalue()))) == values


@given(st.lists(HEADER.encoding.strategy(), min_size=1, max_size=4))
@settings(max_examples=5, derandomize=True, deadline=None, database=None)
def test_tables_read_back_from_arrow_ipc_give_the_values(values: list[Any]) -> None:
    e = HEADER.encoding
    table = table_of(e, values)
    ipc = io.BytesIO()
    with pa.ipc.new_file(ipc, table.schema) as writer:
        writer.write_table(table)
    assert values_of(e, pa.ipc.open_file(io.BytesIO(ipc.getvalue())).read_all()) == values


def test_a_table_of_another_schema_is_refused() -> None:
    e = de.obj(de.req("a", de.uint8))
    with pytest.raises(de.DecodeError) as caught:
        values_of(e, pa.table({"b": pa.array([1], pa.uint8())}))
    assert caught.value.code == "wrong_type"
    assert caught.value.message.startswith("the table is not one of obj(req('a', uint8)) (")


def test_a_row_that_holds_no_value_is_refused_at_its_row() -> None:
    e = de.obj(de.req("a", de.int31), de.req("u", de.union([de.case(0, "x", de.uint8)])))
    kinds = pa.struct([pa.field("kind", pa.string(), nullable=False), pa.field("x", pa.uint8())])
    schema = pa.schema(
        [pa.field("a", pa.int32(), nullable=False), pa.field("u", kinds, nullable=False)]
    )
    rows = [{"a": 0, "u": {"kind": "x", "x": 1}}, {"a": 2**30, "u": {"kind": "x", "x": 1}}]
    with pytest.raises(de.DecodeError) as wide:
        values_of(e, pa.Table.from_pylist(rows, schema=schema))
    assert (wide.value.code, wide.value.path) == ("invalid_int", (1, "a"))
    with pytest.raises(de.DecodeError) as unknown:
        values_of(e, pa.Table.from_pylist([{"a": 0, "u": {"kind": "y"}}], schema=schema))
    assert (unknown.value.code, unknown.value.path, unknown.value.message) == (
        "unexpected_tag",
        (0, "u"),
        "kind 'y' is no case of union",
    )
    with pytest.raises(de.DecodeError) as null:
        values_of(e, pa.Table.from_pylist([{"a": 0, "u": {"kind": "x"}}], schema=schema))
    assert (null.value.code, null.value.path) == ("wrong_type", (0, "u"))


# ---------------------------------------------------------- without pyarrow


def test_the_package_works_without_pyarrow_and_the_arrow_module_says_what_to_install() -> None:
    script = "\n".join(
        [
            "import sys",
            "sys.modules['pyarrow'] = None  # as if it were not installed",
            "import data_encoding, data_encoding.cli.app, data_encoding.node.registry",
            "import data_encoding.passes.binary, data_encoding.signer",
            "assert data_encoding.uint8.encode(1) == b'\\x01'",
            "try:",
            "    import data_encoding.arrow",
            "except ModuleNotFoundError as err:",
            "    print(err, err.name)",
        ]
    )
    found = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert found.stdout == (
        "data_encoding.arrow needs pyarrow, which is not installed: "
        "pip install 'data-encoding[arrow]' pyarrow\n"
    )
