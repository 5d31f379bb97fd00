"""The node: its primitive types (the seed's part 2, "Primitive types"), and
its catalogue (:mod:`.catalogue`, indexed by :mod:`.registry`) and RPC
directory (:mod:`.rpc`).

* :mod:`~data_encoding.node.hashes`: block, operation, protocol, context and
  operation-list-list hashes and chain ids (fixed bytes, Base58Check in JSON),
  the protocols' nonce, script expression, contract and blinded key hashes,
  and every other hash kind of the era's nodes, made from the table of
  :mod:`.prefixes`;
* :mod:`.keys`: ``Signature.Public_key_hash``, ``Ed25519.Public_key_hash``
  and the two address families;
* :mod:`.signatures`: ``Signature.Public_key`` and ``Signature``;
* :mod:`~data_encoding.node.timestamp`: ``timestamp.rfc``, ``.system``, ``.protocol``;
* :mod:`.fitness`: block fitness and its order;
* ``unistring`` is the library's ``string``; ``bignum`` is ``z``.
"""

from __future__ import annotations

from ..tree.strings import string as unistring
from ..tree.zarith import z as bignum
from .fitness import compare_fitness, fitness, fitness_key
from .hashes import (
    block_hash,
    chain_id,
    context_hash,
    operation_hash,
    operation_list_list_hash,
    protocol_hash,
)
from .keys import (
    ADDRESS_FAMILIES,
    PublicKeyHash,
    current_output_family,
    output_family,
    public_key_hash,
    set_output_family,
)

__all__ = [
    "ADDRESS_FAMILIES",
    "PublicKeyHash",
    "bignum",
    "block_hash",
    "chain_id",
    "compare_fitness",
    "context_hash",
    "current_output_family",
    "fitness",
    "fitness_key",
    "operation_hash",
    "operation_list_list_hash",
    "output_family",
    "protocol_hash",
    "public_key_hash",
    "set_output_family",
    "unistring",
]
