"""pytezos as a peer: its Zarith codec, ``forge_int`` / ``unforge_int``.

:func:`codecs` maps the ``zarith_z`` workload to an ``(encode, decode)`` pair
built on ``pytezos.michelson.forge``: ``forge_int`` of each number, joined;
``unforge_int`` (which returns the value and its length) over a
``memoryview`` of the data, so that reading the next number does not copy the
rest; the list's 4-byte size header is written and read by hand. They give
the same bytes and values as ``list_(z)``.

pytezos has no decoder of block headers (``forge_block_header`` only
encodes, from the node's JSON with Base58Check hashes and RFC 3339
timestamps), so the header row against it waits for those JSON forms in this
library. pytezos is lenient where we are strict: ``unforge_int`` reads
``80 00`` as 0 and ``40`` as -0, and ignores what follows the number.

Importing it takes over a second (its package imports everything) and needs
libsodium at run time; :func:`codecs` raises :class:`ImportError` when it is
missing.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]


def codecs() -> dict[str, dict[str, Codec]]:
    """Workload name -> {"pytezos": (encode, decode)}."""
    limit = sys.getrecursionlimit()
    try:
        forge = importlib.import_module("pytezos.michelson.forge")  # by name: typed without it
    finally:
        # importing pytezos raises the interpreter's recursion limit to 100000,
        # for the whole process: put it back (our too_deep errors depend on it)
        sys.setrecursionlimit(limit)
    forge_int: Callable[[int], bytes] = forge.forge_int
    unforge_int: Callable[[memoryview], tuple[int, int]] = forge.unforge_int

    def encode(values: list[int]) -> bytes:
        body = b"".join([forge_int(v) for v in values])
        return len(body).to_bytes(4, "big") + body

    def decode(data: bytes) -> list[int]:
        view = memoryview(data)
        out = []
        pos, end = 4, 4 + int.from_bytes(data[:4], "big")
        while pos < end:
            value, length = unforge_int(view[pos:])
            out.append(value)
            pos += length
        return out

    return {"zarith_z": {"pytezos": (encode, decode)}}
