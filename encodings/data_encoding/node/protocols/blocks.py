"""Block headers of protocols 004-007 (``block_header_repr.ml``), the same in all four.

A protocol's header is the shell's header
(:data:`~data_encoding.node.catalogue.chains.SHELL_HEADER`: level, proto,
predecessor, timestamp, validation_pass, operations_hash, fitness, context)
followed by the protocol's data: the baker's ``priority`` (``uint16``), the
``proof_of_work_nonce`` (8 bytes, hex in JSON), the optional
``seed_nonce_hash`` (the baker's commitment to a seed nonce, ``nce…``; a
presence byte first), then the baker's ``signature`` (64 bytes) of all
that comes before it.

================================  =======================================================
id ``proto.<p>.block_header…``    constant: what it is
================================  =======================================================
``block_header``                  :data:`BLOCK_HEADER`: the whole header, signed
``.unsigned``                     :data:`UNSIGNED`: the shell's fields and the contents
``.contents``                     :data:`CONTENTS`: priority, nonce, seed nonce hash
``.protocol_data``                :data:`PROTOCOL_DATA`: the contents and the signature
``.raw``                          the shell's header, its protocol data as bytes
                                  (:data:`~data_encoding.node.catalogue.chains.BLOCK_HEADER`)
``.shell_header``                 the shell's fields
                                  (:data:`~data_encoding.node.catalogue.chains.SHELL_HEADER`)
================================  =======================================================

>>> header = UNSIGNED.decode(bytes(114) + bytes.fromhex("0015" "101895ca00000000" "00"))
>>> header["priority"], header["proof_of_work_nonce"].hex(), header["seed_nonce_hash"]
(21, '101895ca00000000', None)
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from ...tree.core import publish
from ...tree.fixed import bytes_
from ...tree.primitives import uint16
from ...tree.records import merge_objs, obj, opt, req
from ...tree.typed import typed
from ...tree.wrappers import def_
from ..catalogue.chains import SHELL_HEADER, ShellHeader
from ..hashes import NonceHash, nonce_hash
from ..signatures import Signature, signature

__all__ = [
    "BLOCK_HEADER",
    "CONTENTS",
    "PROOF_OF_WORK_NONCE_SIZE",
    "PROTOCOL_DATA",
    "UNSIGNED",
    "BlockHeader",
    "BlockHeaderContents",
    "BlockHeaderProtocolData",
    "UnsignedBlockHeader",
]

PROOF_OF_WORK_NONCE_SIZE = 8
"""``Constants_repr.proof_of_work_nonce_size``, in all four protocols."""


class BlockHeaderContents(TypedDict):
    """What the baker states: ``block_header.alpha.unsigned_contents``."""

    priority: int
    proof_of_work_nonce: bytes
    seed_nonce_hash: NotRequired[NonceHash | None]


class BlockHeaderProtocolData(BlockHeaderContents):
    """The contents and the baker's signature: ``block_header.alpha.signed_contents``."""

    signature: Signature


class UnsignedBlockHeader(ShellHeader, BlockHeaderContents):
    """A header whose baker has not signed it yet."""


class BlockHeader(ShellHeader, BlockHeaderProtocolData):
    """A protocol's whole header: ``block_header.alpha.full_header``."""


CONTENTS = typed(
    BlockHeaderContents,
    def_(
        "block_header.alpha.unsigned_contents",
        obj(
            req("priority", uint16),
            req("proof_of_work_nonce", bytes_(PROOF_OF_WORK_NONCE_SIZE)),
            opt("seed_nonce_hash", nonce_hash),
        ),
    ),
)
PROTOCOL_DATA = typed(
    BlockHeaderProtocolData,
    def_(
        "block_header.alpha.signed_contents",
        merge_objs(CONTENTS, obj(req("signature", signature))),
    ),
)
UNSIGNED = typed(UnsignedBlockHeader, merge_objs(SHELL_HEADER, CONTENTS))
BLOCK_HEADER = typed(
    BlockHeader, def_("block_header.alpha.full_header", merge_objs(SHELL_HEADER, PROTOCOL_DATA))
)


publish(__name__, globals())  # the encodings above pickle by reference
