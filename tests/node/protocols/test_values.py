"""The protocols' values and receipts (issue 29): every id of protocols
004-007 that is neither ``script*``, ``operation*`` nor ``block_header*``.

The node toolchain's own vectors of protocol 007 (``octez-codec-007.jsonl``)
read and write exactly, through both spellings of their ids.
"""

from __future__ import annotations

import json as json_text
from typing import Any

import pytest

from data_encoding import int32, int64, json, z
from data_encoding.node import registry
from data_encoding.node.fitness import fitness
from data_encoding.node.keys import output_family
from data_encoding.node.protocols import DELPHI, values
from data_encoding.node.timestamp import protocol
from golden import VECTORS

VALUE_NAMES = {
    "contract",
    "contract.big_map_diff",
    "cycle",
    "delegate.balance_updates",
    "delegate.frozen_balance",
    "delegate.frozen_balance_by_cycles",
    "fitness",
    "gas",
    "gas.cost",
    "level",
    "nonce",
    "period",
    "raw_level",
    "roll",
    "seed",
    "tez",
    "timestamp",
    "vote.ballot",
    "vote.ballots",
    "vote.listings",
    "voting_period",
    "voting_period.kind",
}
"""The names of this part's ids that the 007 vectors give values of."""


def _value_vectors() -> list[dict[str, Any]]:
    rows = [json_text.loads(line) for line in (VECTORS / "octez-codec-007.jsonl").open()]
    return [r for r in rows if r["encoding_name"].split(".", 1)[1] in VALUE_NAMES]


VALUE_VECTORS = _value_vectors()


def test_the_vectors_give_every_value_id_of_007() -> None:
    names = {r["encoding_name"].split(".", 1)[1] for r in VALUE_VECTORS}
    assert names == VALUE_NAMES
    assert len(VALUE_VECTORS) == 44


@pytest.mark.parametrize(
    "vector", VALUE_VECTORS, ids=[f"{r['encoding_name']}:{r['hex'][:16]}" for r in VALUE_VECTORS]
)
def test_a_007_vector_reads_and_writes_exactly_through_both_ids(vector: dict[str, Any]) -> None:
    name = vector["encoding_name"].split(".", 1)[1]
    found = registry.find(vector["encoding_name"])
    assert found.id == DELPHI.id(name)
    raw = bytes.fromhex(vector["hex"])
    for id in (vector["encoding_name"], DELPHI.id(name)):
        e = registry.find(id).encoding
        with output_family("tezos"):
            assert e.encode(e.from_json(vector["json"])) == raw
            assert e.to_json(e.decode(raw)) == vector["json"]


def test_an_encoding_the_shell_registers_too_keeps_the_shells_id() -> None:
    """A slice names a leaf by the id its encoding is registered under (the
    first): an int64 is ``int64``, not a protocol's ``period``, and no
    protocol's id names every ``int32`` of the catalogue."""
    assert [registry.id_of(e) for e in (int64, z, json, fitness, protocol)] == [
        "int64",
        "bignum",
        "rpc.error",
        "fitness",
        "timestamp.protocol",
    ]
    assert registry.id_of(int32) is None
    assert registry.id_of(values.CYCLE) == "proto.pt24m4xi.cycle"
    assert registry.id_of(values.ROLL) == "proto.pt24m4xi.roll"
