"""The seed's primitive types (part 2, "Primitive types"), registered by id.

The encodings themselves live in :mod:`data_encoding.node`; this module
gives them their catalogue ids. Beside the seed's, the keys and signatures
every protocol uses (the environment's ``Signature.Public_key``,
``Signature``, ``Ed25519.Public_key_hash``), named as the seed names
``Signature.Public_key_hash``.
"""

from __future__ import annotations

from ...tree.primitives import int64
from ...tree.strings import string
from ...tree.zarith import z
from ..fitness import fitness
from ..hashes import block_hash, chain_id, context_hash, operation_list_list_hash, protocol_hash
from ..keys import ed25519_public_key_hash, public_key_hash
from ..registry import register
from ..signatures import public_key, signature
from ..timestamp import protocol, rfc, system

_PRIMITIVES = "2 Primitive types"

register("unistring", string, "a string (JSON: text, or its bytes when not UTF-8)", _PRIMITIVES)
register(
    "signature.public_key_hash",
    public_key_hash,
    "an Ed25519, Secp256k1 or P256 public key hash (dn1/dn2/dn3 or tz1/tz2/tz3)",
    _PRIMITIVES,
)
register(
    "signature.public_key",
    public_key,
    "an Ed25519, Secp256k1 or P256 public key (edpk, sppk or p2pk)",
    _PRIMITIVES,
)
register(
    "signature",
    signature,
    "a signature: 64 bytes (sig, or a curve's edsig, spsig1 or p2sig)",
    _PRIMITIVES,
)
register(
    "ed25519.public_key_hash",
    ed25519_public_key_hash,
    "an Ed25519 public key hash, no curve tag (dn1, or tz1)",
    _PRIMITIVES,
)
register("bignum", z, "an arbitrary-precision integer (Zarith)", _PRIMITIVES)
register("int64", int64, "a signed 64-bit integer (JSON: a decimal string)", _PRIMITIVES)
register("timestamp.rfc", rfc, "an RFC 3339 date-time (JSON only)", _PRIMITIVES)
register("timestamp.system", system, "a local clock's time, sub-second precision", _PRIMITIVES)
register("timestamp.protocol", protocol, "a protocol timestamp, second precision", _PRIMITIVES)
register("protocol_hash", protocol_hash, "a protocol hash (P...)", _PRIMITIVES)
register("block_hash", block_hash, "a block hash (B...)", _PRIMITIVES)
register("chain_id", chain_id, "a chain id (Net...)", _PRIMITIVES)
register("context_hash", context_hash, "a context hash (Co...)", _PRIMITIVES)
register(
    "operation_list_list_hash",
    operation_list_list_hash,
    "the hash of a block's operations (LLo...)",
    _PRIMITIVES,
)
register("fitness", fitness, "a block's fitness: a list of byte strings", _PRIMITIVES)
