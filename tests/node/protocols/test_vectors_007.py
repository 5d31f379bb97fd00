"""Every real 007 vector (``tests/vectors/octez-codec-007.jsonl``, the node
toolchain's codec regression tests) reads and writes exactly, both ways and
in JSON mode, through the toolchain's spelling of its id and the catalogue's.

The vectors are Tezos': their addresses are compared in the Tezos family.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding.node import registry
from data_encoding.node.keys import output_family
from data_encoding.node.protocols import DELPHI
from golden import codec_vectors

VECTORS_007 = codec_vectors()


def test_the_file_gives_80_vectors_of_29_ids() -> None:
    assert len(VECTORS_007) == 80
    assert len({r["encoding_name"] for r in VECTORS_007}) == 29


@pytest.mark.parametrize(
    "vector", VECTORS_007, ids=[f"{r['encoding_name']}:{r['hex'][:16]}" for r in VECTORS_007]
)
def test_a_vector_reads_and_writes_exactly_through_both_ids(vector: dict[str, Any]) -> None:
    name = vector["encoding_name"].split(".", 1)[1]
    assert registry.find(vector["encoding_name"]).id == DELPHI.id(name)
    raw = bytes.fromhex(vector["hex"])
    for id in (vector["encoding_name"], DELPHI.id(name)):
        e = registry.find(id).encoding
        with output_family("tezos"):
            assert e.encode(e.from_json(vector["json"])) == raw
            assert e.to_json(e.decode(raw)) == vector["json"]
            assert e.decode_json(raw) == vector["json"]
            assert e.encode_json(vector["json"]) == raw
