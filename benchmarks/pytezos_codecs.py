"""pytezos as a peer: its Zarith codec, its block-header and operation
forgers, its Micheline codec.

:func:`codecs` maps the ``zarith_z`` workload to an ``(encode, decode)`` pair
built on ``pytezos.michelson.forge``: ``forge_int`` of each number, joined;
``unforge_int`` (which returns the value and its length) over a
``memoryview`` of the data, so that reading the next number does not copy the
rest; the list's 4-byte size header is written and read by hand. They give
the same bytes and values as ``list_(z)``.

:func:`block_header_forger` is ``pytezos.block.forge.forge_block_header``:
the node's JSON of a shell header (Base58Check hashes, an RFC 3339
timestamp, hex fitness and protocol data) to bytes. pytezos has no decoder
of block headers. It is lenient where we are strict: ``unforge_int`` reads
``80 00`` as 0 and ``40`` as -0, and ignores what follows the number.

:func:`operation_forger` is ``pytezos.operation.forge.forge_operation_group``
(an operation group's JSON, branch and contents, to bytes), with the
signature's bytes appended when the group has one, as pytezos'
``OperationGroup.binary_payload`` does. It forges one table of tags and
fields, its latest protocol's: no ballot, proposals, seed nonce revelation
or double baking or endorsement evidence (``NotImplementedError``); a
reveal with a later protocol's proof presence byte; 004's manager
operations with 005's tags. pytezos has no parser of operations.

:func:`micheline_codec` is ``forge_micheline`` / ``unforge_micheline``, on
Micheline's JSON form (``{"int": "42"}``, hex bytes), over pytezos' own
primitive table (its latest protocol's: the tables of 004 to 007 are its
prefixes, but for ``CREATE_ACCOUNT``, which it names ``__CREATE_ACCOUNT__``).
``unforge_micheline`` takes ``bytes`` (it decodes a string
with ``bytes.decode``, which a ``memoryview`` lacks) and slices the rest of
the input at every node, a copy each.

Importing it takes over a second (its package imports everything) and needs
libsodium at run time; every function here raises :class:`ImportError`
when it is missing.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]


def _import(name: str) -> Any:
    """A pytezos module, imported by name (so this file type-checks without it)."""
    limit = sys.getrecursionlimit()
    try:
        return importlib.import_module(name)
    finally:
        # importing pytezos raises the interpreter's recursion limit to 100000,
        # for the whole process: put it back (our too_deep errors depend on it)
        sys.setrecursionlimit(limit)


def block_header_forger() -> Callable[[dict[str, Any]], bytes]:
    """pytezos' ``forge_block_header``: the node's JSON of a shell header to bytes."""
    forge: Callable[[dict[str, Any]], bytes] = _import("pytezos.block.forge").forge_block_header
    return forge


def codecs() -> dict[str, dict[str, Codec]]:
    """Workload name -> {"pytezos": (encode, decode)}."""
    forge = _import("pytezos.michelson.forge")
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


def operation_forger() -> Callable[[dict[str, Any]], bytes]:
    """pytezos' ``forge_operation_group``, then the signature's bytes when
    the group has a ``signature`` (``OperationGroup.binary_payload``)."""
    forge_group: Callable[[dict[str, Any]], bytes] = _import(
        "pytezos.operation.forge"
    ).forge_operation_group
    forge_base58: Callable[[str], bytes] = _import("pytezos.michelson.forge").forge_base58

    def forge(group: dict[str, Any]) -> bytes:
        data = forge_group(group)
        signature = group.get("signature")
        return data if signature is None else data + forge_base58(signature)

    return forge


def micheline_codec() -> Codec:
    """pytezos' ``(forge_micheline, unforge_micheline)``: Micheline's JSON
    form to bytes, and back."""
    forge = _import("pytezos.michelson.forge")
    return forge.forge_micheline, forge.unforge_micheline
