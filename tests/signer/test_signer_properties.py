"""Properties of ``signer``, over the values the catalogue's strategies draw
for each protocol's ``operation.unsigned`` and ``block_header.unsigned``:

* ``inspect(watermark(kind, chain_id, payload))`` gives back the kind, the
  chain id and the payload's value (a lone endorsement under its own
  watermark, any other contents under the generic one);
* whatever ``inspect`` accepts, the simple signers' fixed-offset reads
  (written here as ``tezos-signer`` and the Ledger baking app do them) give
  its level: two signers never keep different levels for it.
"""

from __future__ import annotations

import struct
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from data_encoding import DecodeError
from data_encoding.node import registry
from data_encoding.node.hashes import ChainId
from data_encoding.node.protocols import PROTOCOLS, Protocol
from data_encoding.signer import Inspected, Kind, inspect, watermark
from golden import codec_vectors

CHAIN_IDS = st.binary(min_size=4, max_size=4).map(ChainId)


def tezos_signer_level(message: bytes) -> int | None:
    """The level ``tezos-signer``'s high watermark keeps (``handler.ml``,
    2020): a signed 32-bit integer at byte 5 of a block header, in the last
    4 bytes of an endorsement; ``None`` where it keeps none."""
    if len(message) < 9 or message[0] not in (1, 2):
        return None
    at = 5 if message[0] == 1 else len(message) - 4
    level: int = struct.unpack_from(">i", message, at)[0]
    return level


def ledger_level(message: bytes) -> int | None:
    """The level the Ledger baking app keeps (``parse_baking_data``): an
    unsigned 32-bit integer at byte 5 of a block header, at byte 38 of an
    endorsement of exactly 42 bytes; ``None`` where it refuses the message."""
    if message[:1] == b"\x01" and len(message) >= 10:
        at = 5
    elif message[:1] == b"\x02" and len(message) == 42:
        at = 38
    else:
        return None
    level: int = struct.unpack_from(">I", message, at)[0]
    return level


def _checked(message: bytes, protocol: Protocol) -> Inspected:
    """``inspect``'s reading of ``message``, whose level every signer reads."""
    found = inspect(message, protocol)
    if found.kind == "generic_operation":
        assert found.level is None
    else:
        assert found.chain_id == message[1:5]
        assert tezos_signer_level(message) == ledger_level(message) == found.level
    return found


def _encoding(protocol: Protocol, name: str) -> Any:
    return registry.find(protocol.id(name)).encoding


def _round_trip(
    protocol: Protocol, kind: Kind, chain_id: ChainId | None, payload: bytes, value: Any
) -> None:
    message = watermark(kind, chain_id, payload)
    level = value["level"] if kind == "block_header" else None
    if kind == "endorsement":
        level = value["contents"][0]["level"]
    if level is not None and level < 0:  # read as another level, unsigned
        with pytest.raises(DecodeError) as caught:
            inspect(message, protocol)
        at = 5 if kind == "block_header" else 38
        assert (caught.value.code, caught.value.offset) == ("out_of_range", at)
        return
    found = _checked(message, protocol)
    assert (found.kind, found.chain_id, found.protocol) == (kind, chain_id, protocol)
    assert found.value == value
    assert found.level == level
    assert [c.kind for c in found.contents] == [
        c["kind"] for c in (value["contents"] if kind != "block_header" else [])
    ]


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.short)
@given(data=st.data())
def test_inspect_reads_back_what_watermark_wrote_an_operation(
    protocol: Protocol, data: st.DataObject
) -> None:
    e = _encoding(protocol, "operation.unsigned")
    value = data.draw(e.strategy(), label="operation")
    contents = value["contents"]
    if len(contents) == 1 and contents[0]["kind"] == "endorsement":
        kind: Kind = "endorsement"
        chain_id: ChainId | None = data.draw(CHAIN_IDS, label="chain_id")
    else:
        kind, chain_id = "generic_operation", None
    _round_trip(protocol, kind, chain_id, e.encode(value), value)


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.short)
@given(data=st.data())
def test_inspect_reads_back_what_watermark_wrote_a_block_header(
    protocol: Protocol, data: st.DataObject
) -> None:
    e = _encoding(protocol, "block_header.unsigned")
    value = data.draw(e.strategy(), label="block header")
    chain_id = data.draw(CHAIN_IDS, label="chain_id")
    _round_trip(protocol, "block_header", chain_id, e.encode(value), value)


def test_the_signers_read_the_vectors_level_as_inspect_does() -> None:
    chain_id = ChainId("NetXdQprcVkpaWU")
    (header,) = codec_vectors("007-PsDELPH1.block_header.unsigned")
    messages = [watermark("block_header", chain_id, bytes.fromhex(header["hex"]))]
    for vector in codec_vectors("007-PsDELPH1.operation.unsigned"):
        alone = vector["json"]["contents"][0]["kind"] == "endorsement"
        kind: Kind = "endorsement" if alone else "generic_operation"
        messages.append(watermark(kind, chain_id if alone else None, bytes.fromhex(vector["hex"])))
    levels = [_checked(m, PROTOCOLS[-1]).level for m in messages]
    assert levels == [1331] + [1331 if m[0] == 2 else None for m in messages[1:]]
    assert levels.count(1331) == 2
