"""Long Zarith numbers: decoding one keeps nothing that grows with it."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

import pytest

from data_encoding import Encoding, list_, n, z

LONG = 40_000
"""Groups of a long number: ``ff`` that many times, then ``01``."""
LONG_BODY = b"\xff" * LONG + b"\x01"
# n: LONG groups of ones, then a 1; z: the same magnitude less the first byte's
# sign bit (0x40: negative)
LONG_N, LONG_Z = 2 ** (7 * LONG + 1) - 1, 1 - 2 ** (7 * LONG)


@pytest.mark.parametrize(
    ("enc", "data", "expected"),
    [
        (n, LONG_BODY, LONG_N),
        (z, LONG_BODY, LONG_Z),
        (list_(z), len(LONG_BODY).to_bytes(4, "big") + LONG_BODY, [LONG_Z]),
    ],
    ids=["n", "z", "list-z"],
)
def test_a_long_number_leaves_no_memory_behind(
    enc: Encoding[Any], data: bytes, expected: Any
) -> None:
    """Decoding a long number keeps nothing that grows with it (a cache per
    size once kept 17 bytes per input byte, forever). How its time grows is
    measured by the benchmarks' Zarith series (benchmarks/scaling.py)."""
    small = [5] if isinstance(expected, list) else 5
    enc.decode(enc.encode(small))  # compiled on first use: not what is measured
    gc.collect()
    tracemalloc.start()
    try:
        value = enc.decode(data)
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert value == expected
    assert retained < LONG + 4096  # the value itself (7/8 byte per group), little else
