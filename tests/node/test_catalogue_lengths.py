"""Hostile length headers over every catalogue id (issue 15).

A length header, a list count or a BSON document size is a claim about the
bytes that follow. Here every four bytes of every id's valid encodings (its
samples and the values its strategy draws; once per encoding, under
whichever of its ids) are overwritten, in turn, with
a huge claim: 2^30 - 1 (the largest uint30, what a 1 GiB frame says),
2^32 - 1 and 2^31 - 1, big-endian as the node's headers are and
little-endian as BSON's are. So each kind of header is reached wherever it
sits: at the top, nested inside another frame, as a list's count, as a BSON
document's or string's size.

Each changed input either fails with a ``DecodeError`` (and nothing else),
or decodes to a value whose bytes it is (canonicity), and decoding it takes
memory proportional to the input, not to the claim: measured with
``tracemalloc``, the peak stays under ``PER_BYTE`` bytes per input byte
plus ``SLACK``, where honouring one claim would take a gigabyte.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from catalogue_ids import ENCODING_IDS, encoding_samples
from data_encoding import DecodeError, Encoding, conv, uint30
from data_encoding.node import registry
from data_encoding.node.protocols import PROTOCOLS
from hostile import values_of

CLAIMS = tuple(
    dict.fromkeys(
        n.to_bytes(4, order)
        for n in (2**30 - 1, 2**32 - 1, 2**31 - 1)
        for order in ("big", "little")
    )
)

LONGEST = 160
"""The longest valid encoding changed: every window of every input is
decoded under ``tracemalloc``, which is slow, and the longer encodings (a
kilobyte for a service tree's sample) hold the headers of the shorter ones."""

ANY_BYTES = {
    "block_hash",
    "chain_id",
    "context_hash",
    "ed25519.public_key_hash",
    "int64",
    "operation_list_list_hash",
    "protocol_hash",
    "signature",
    "timestamp.protocol",
    *(
        protocol.id(name)
        for protocol in PROTOCOLS
        for name in (
            "cycle",
            "nonce",
            "period",
            "raw_level",
            "roll",
            "seed",
            "timestamp",
            "vote.ballots",
            "voting_period",
            "operation.raw",
        )
    ),
}
"""The ids whose every value is any bytes of a fixed length (or, for an
operation as the shell sees it, of at least its branch's 32): no claim is
refused (the others refuse some)."""

PER_BYTE = 64
"""Bytes of memory an input byte may cost while it is decoded: a decoded
value is Python objects, several times the size of its bytes."""

SLACK = 256 * 1024
"""Memory any decode may take whatever its input (the codec's frames, a
first compilation is done before the measure)."""


def _valid_inputs(id: str) -> list[bytes]:
    e = registry.find(id).encoding
    samples = [bytes.fromhex(str(s["hex"])) for s in encoding_samples(id, "valid")]
    every = {*samples, *map(e.encode, values_of(id))}
    return sorted((raw for raw in every if len(raw) <= LONGEST), key=lambda b: (len(b), b))


def _changed(raw: bytes) -> Iterator[bytes]:
    """``raw`` with each of its four-byte windows replaced by each claim."""
    for at in range(len(raw) - 3):
        for claim in CLAIMS:
            if raw[at : at + 4] != claim:
                yield raw[:at] + claim + raw[at + 4 :]


def _decode_measured(e: Encoding[Any], data: bytes) -> tuple[Any, int]:
    """``("ok", value)`` or ``("error", DecodeError)``, and the peak of
    memory the decode took above what was in use before it."""
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    try:
        outcome: Any = ("ok", e.decode(data))
    except DecodeError as err:
        outcome = ("error", err)
    return outcome, tracemalloc.get_traced_memory()[1] - before


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_huge_claims_are_refused_in_memory_of_the_input(id: str) -> None:
    e = registry.find(id).encoding
    inputs = _valid_inputs(id)
    for raw in inputs:  # compiled before the measure
        e.decode(raw)
    refused = changed = 0
    tracemalloc.start()
    try:
        for raw in inputs:
            for data in _changed(raw):
                changed += 1
                (kind, result), peak = _decode_measured(e, data)
                assert peak <= PER_BYTE * len(data) + SLACK, (data.hex(), peak)
                if kind == "ok":
                    assert e.encode(result) == data, (
                        f"{data.hex()} decodes, but re-encodes otherwise"
                    )
                else:
                    refused += 1
    finally:
        tracemalloc.stop()
    # ids whose encodings are shorter than a header have nothing to change
    assert bool(refused) is (changed > 0 and id not in ANY_BYTES), (refused, changed)


HONOURED = 2**22
"""A claim a test decoder honours: 4 MiB, well past the bound for its four
bytes, and small enough to allocate anywhere."""


def test_the_measure_sees_a_claim_honoured() -> None:
    """A decoder that honoured a claim (here, bytes of the length read)
    would fail the bound above: the measure is of what decoding allocates."""
    honouring = conv(len, bytes, uint30)
    data = HONOURED.to_bytes(4, "big")
    tracemalloc.start()
    try:
        (kind, result), peak = _decode_measured(honouring, data)
    finally:
        tracemalloc.stop()
    assert kind == "ok" and len(result) == HONOURED
    assert peak > PER_BYTE * len(data) + SLACK, peak
