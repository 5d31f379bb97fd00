"""What a signer is asked to sign, read strictly: :func:`inspect`, and its
inverse :func:`watermark`.

A Tezos-family signer (a baker's remote signer, a hardware wallet, a
wallet's key) is sent bytes to sign: a *watermark* that says what they
are, then the *payload*, the binary form of an encoding of the protocol
(the era's ``Signature.bytes_of_watermark``, ``src/lib_crypto/signature.ml``):

=========  ==========================  =====================================================
watermark  kind                        then
=========  ==========================  =====================================================
``01``     ``block_header``            the chain id (4 bytes), a ``block_header.unsigned``
``02``     ``endorsement``             the chain id (4 bytes), an ``operation.unsigned`` of
                                       exactly one endorsement (the protocol checks a lone
                                       endorsement's signature under this watermark)
``03``     ``generic_operation``       an ``operation.unsigned`` of any other contents
=========  ==========================  =====================================================

:func:`inspect` reads them with the protocol given (there is no "current
protocol": 004's manager operations have other tags and fields than
005's) and returns an :class:`Inspected`: the kind, the chain id, the
decoded payload, the level a high watermark keeps and a :class:`Content`
summary of each operation content, enough for a signer's policy. It refuses,
with a :class:`~data_encoding.errors.DecodeError` whose offset counts in the
whole input: any other watermark (``unexpected_tag`` at byte 0); a payload
that the protocol's decoder refuses (strictly: trailing bytes, unknown tags,
non-canonical forms); and the bytes that the simple signers below would read
otherwise than the decoded value says.

**Simple signers read fixed offsets.** The era's ``tezos-signer``
(``src/bin_signer/handler.ml``, its high watermark) reads the chain id at
bytes 1 to 4 and the level as a signed 32-bit integer at byte 5 of a block
header, and at the *last four bytes* of an endorsement; it never checks that
the message is an endorsement at all, nor where it ends. The Ledger baking
app reads the level unsigned, at byte 5 of a block header and at byte 38 of
an endorsement, which must be 42 bytes (1 watermark, 4 chain id, 32 branch,
1 tag, 4 level); it does not check the tag. The two agree, and agree with
the decoded value, exactly when

* an endorsement's payload is exactly one endorsement: 42 bytes, the level at
  byte 38, which is also the last four (anything appended, a second content
  or a single byte, moves ``tezos-signer``'s read and the Ledger refuses the
  message: refused here with ``extra_bytes`` where the endorsement ends; any
  other content, say a seed nonce revelation whose nonce ends where
  ``tezos-signer`` reads a level, is refused with ``unexpected_tag`` at its
  tag, byte 37);
* the level is from 0 to 2^31 - 1: a level (a shell header's, an
  endorsement's) is an ``int32``, and a negative one is read as a level
  above 2^31 by an unsigned read (``out_of_range`` at the level).

So two signers never keep different levels for bytes that ``inspect``
accepts. A generic operation (``03``) has no level a high watermark keeps;
a lone endorsement under it is refused (``unexpected_tag`` at byte 0): the
protocol would not accept that signature, and a signer's high watermark
would not see the level.

The endorsement of the node toolchain's 007 regression vectors, on the main
chain:

>>> from data_encoding import DecodeError, signer
>>> payload = bytes.fromhex(
...     "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8" "00" "00000533"
... )
>>> message = signer.watermark("endorsement", bytes.fromhex("7a06a770"), payload)
>>> found = signer.inspect(message, "007-PsDELPH1")
>>> found.kind, str(found.chain_id), found.level
('endorsement', 'NetXdQprcVkpaWU', 1331)
>>> found.contents
(Content(kind='endorsement', level=1331),)
>>> try:
...     signer.inspect(message + bytes(4), "delphi")
... except DecodeError as err:
...     print(err.code, err.offset)
extra_bytes 42
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, Final, Literal, cast, get_args

from .errors import DecodeError, EncodeError, extra_bytes
from .node import registry
from .node.hashes import BlockHash, ChainId, block_hash, chain_id
from .node.keys import PublicKeyHash
from .node.protocols.contracts import ContractId
from .node.protocols.versions import Protocol, find_protocol
from .node.signatures import PublicKey
from .tree import fixed
from .tree.core import BytesLike, Encoding, input_bytes
from .tree.leaves import wrong_value_type
from .tree.records import obj, req

__all__ = [
    "KINDS",
    "PAYLOADS",
    "WATERMARKS",
    "Content",
    "Inspected",
    "Kind",
    "inspect",
    "watermark",
]

Kind = Literal["block_header", "endorsement", "generic_operation"]
"""What a watermark says the payload is (the reference's ``Signature.watermark``
cases but ``Custom``)."""

KINDS: Final[tuple[Kind, ...]] = get_args(Kind)

WATERMARKS: Final[Mapping[Kind, int]] = {
    "block_header": 0x01,
    "endorsement": 0x02,
    "generic_operation": 0x03,
}
"""Each kind's watermark byte."""

_KIND_OF_BYTE: Final[Mapping[int, Kind]] = {byte: kind for kind, byte in WATERMARKS.items()}

PAYLOADS: Final[Mapping[Kind, str]] = {
    "block_header": "block_header.unsigned",
    "endorsement": "operation.unsigned",
    "generic_operation": "operation.unsigned",
}
"""The name of each kind's payload encoding among a protocol's ids."""

_CHAIN_ID_END: Final = 5
"""Where a block header's or an endorsement's payload starts: after the
watermark byte and the 4-byte chain id."""

_ENDORSEMENT_LENGTH: Final = 42
"""An endorsement's message as the Ledger baking app reads it: watermark,
chain id, branch (32), tag, level (4)."""

_LEVEL_READS: Final[Mapping[Kind, tuple[int, int]]] = {
    "block_header": (_CHAIN_ID_END, _CHAIN_ID_END),
    "endorsement": (-4, _ENDORSEMENT_LENGTH - 4),
}
"""Where the simple signers read the level a high watermark keeps: the
offset of ``tezos-signer``'s signed read (negative: from the end) and of
the Ledger baking app's unsigned one."""


@dataclass(frozen=True, repr=False)
class Content:
    """One content of an operation, as a policy looks at it: its kind and,
    where the kind has them, who pays, to whom, how much. Amounts are in
    mutez; a field the kind does not have is ``None`` (and its ``repr``
    leaves it out)."""

    kind: str
    #: who signs and pays: a manager operation's source (an account; in 004
    #: a contract id, which may be originated), a ballot's or proposals' source
    source: PublicKeyHash | ContractId | None = None
    #: a transaction's destination
    destination: ContractId | None = None
    #: the tez the content takes from its source: a transaction's amount,
    #: an origination's balance
    amount: int | None = None
    fee: int | None = None
    counter: int | None = None
    gas_limit: int | None = None
    storage_limit: int | None = None
    #: a delegation's or an origination's delegate
    delegate: PublicKeyHash | None = None
    #: a reveal's public key
    public_key: PublicKey | None = None
    #: an endorsement's or a seed nonce revelation's level
    level: int | None = None

    def present(self) -> list[tuple[str, object]]:
        """The fields the content has (those not ``None``), ``kind`` first."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return [(name, value) for name, value in values if value is not None]

    def __repr__(self) -> str:
        return f"Content({', '.join(f'{name}={value!r}' for name, value in self.present())})"


@dataclass(frozen=True)
class Inspected:
    """What :func:`inspect` read: frozen, its fields typed."""

    kind: Kind
    #: the chain the watermark names (``None`` for a generic operation, whose has none)
    chain_id: ChainId | None
    #: the protocol the payload was read with
    protocol: Protocol
    #: the payload's value: a ``block_header.unsigned`` or an ``operation.unsigned``
    #: of :attr:`protocol` (:attr:`payload_id`)
    value: Mapping[str, object]
    #: the level a high watermark keeps (a block header's, an endorsement's),
    #: which every simple signer reads alike; ``None`` for a generic operation
    level: int | None
    #: an operation's contents, summarised (none for a block header)
    contents: tuple[Content, ...]

    @property
    def payload_id(self) -> str:
        """The catalogue id of the payload's encoding, whose value :attr:`value`
        is (``proto.psdelph1.operation.unsigned``)."""
        return self.protocol.id(PAYLOADS[self.kind])


def watermark(kind: Kind, chain_id: bytes | None, payload: BytesLike) -> bytes:
    """The bytes a signer signs: ``kind``'s watermark byte, the chain id
    (a block header's or an endorsement's, ``None`` for a generic
    operation: a :class:`~data_encoding.node.hashes.ChainId` or its 4
    bytes) and ``payload`` (the inverse of :func:`inspect`, for the
    payloads it accepts). :class:`~data_encoding.errors.EncodeError`:
    ``no_case_matched`` for another kind, ``missing_field`` for a chain id
    missing, ``unexpected_field`` for one a generic operation cannot have,
    the chain id encoding's own errors for one that is not 4 bytes.

    >>> watermark("generic_operation", None, b"\\xff").hex()
    '03ff'
    """
    byte = WATERMARKS.get(kind) if isinstance(kind, str) else None
    if byte is None:
        raise EncodeError(
            "no_case_matched", f"unknown watermark kind {kind!r}: one of {', '.join(KINDS)}"
        )
    header = bytes((byte,))
    if kind == "generic_operation":
        if chain_id is not None:
            raise EncodeError(
                "unexpected_field", "a generic operation's watermark (03) has no chain id"
            )
    elif chain_id is None:
        raise EncodeError(
            "missing_field", f"the {kind} watermark ({byte:02x}) is followed by a chain id"
        )
    else:
        header += _chain_id_bytes(chain_id)
    if not isinstance(payload, bytes | bytearray | memoryview):
        raise wrong_value_type("the payload's bytes", payload).within("payload")
    return header + payload


def _chain_id_bytes(value: bytes) -> bytes:
    try:  # the encoding takes a ChainId's plain bytes too
        return chain_id.encode(cast(ChainId, value))
    except EncodeError as err:
        raise err.within("chain_id") from None


def inspect(data: BytesLike, protocol: Protocol | str) -> Inspected:
    """Read ``data``, the bytes a signer is asked to sign, with ``protocol``
    (a :class:`~data_encoding.node.protocols.Protocol`, or its name, hash or
    toolchain name: :func:`~data_encoding.node.protocols.find_protocol`,
    whose :class:`~data_encoding.node.protocols.UnknownProtocol` it raises).

    :class:`~data_encoding.errors.DecodeError`, its offset counted in
    ``data``, for anything but a block header, an endorsement or an
    operation that the protocol reads exactly and the simple signers read
    alike (the module's documentation says which offsets, and why)."""
    proto = find_protocol(protocol)
    buf = data if type(data) is bytes else input_bytes(data)
    if not buf:
        raise DecodeError("not_enough_data", "an empty message has no watermark", offset=0)
    kind = _KIND_OF_BYTE.get(buf[0])
    if kind is None:
        raise _unknown_watermark(buf[0])
    if kind == "generic_operation":
        return _generic_operation(buf, proto)
    chain, start = chain_id.decode_prefix(buf, 1)
    if kind == "block_header":
        value = _whole(_payload(proto, PAYLOADS[kind]), buf, start)
        level: int = value["level"]
        contents: tuple[Content, ...] = ()
    else:
        value, level = _endorsement(buf, proto)
        contents = _summaries(value)
    _check_level_reads(kind, buf, level)
    return Inspected(kind, chain, proto, value, level, contents)


def _unknown_watermark(byte: int) -> DecodeError:
    known = ", ".join(f"{b:02x} ({kind})" for kind, b in WATERMARKS.items())
    # 05 is what PACK writes: Michelson data, signed by some contracts' users
    what = " (Michelson data, packed)" if byte == 0x05 else ""
    return DecodeError(
        "unexpected_tag",
        f"unknown watermark {byte:02x}{what}: a signer signs {known}",
        offset=0,
    )


def _generic_operation(buf: bytes, proto: Protocol) -> Inspected:
    value = _whole(_payload(proto, PAYLOADS["generic_operation"]), buf, 1)
    contents = _summaries(value)
    if len(contents) == 1 and contents[0].kind == "endorsement":
        raise DecodeError(
            "unexpected_tag",
            "an endorsement alone is signed under the endorsement watermark (02) and its "
            "chain id: the protocol would refuse this signature, and a signer's high "
            "watermark would not see its level",
            offset=0,
        )
    return Inspected("generic_operation", None, proto, value, None, contents)


def _endorsement(buf: bytes, proto: Protocol) -> tuple[Mapping[str, Any], int]:
    """An endorsement's payload, read as exactly one content, and its level."""
    value, end = _one_content(proto).decode_prefix(buf, _CHAIN_ID_END)
    (content,) = value["contents"]
    if content["kind"] != "endorsement":
        raise DecodeError(
            "unexpected_tag",
            f"the endorsement watermark (02) signs an endorsement, not a {content['kind']}",
            offset=_CHAIN_ID_END + BlockHash.size,  # its tag, after the branch
        )
    if end != len(buf):
        tezos_signer = _read(buf, -4, signed=True)
        raise DecodeError(
            "extra_bytes",
            f"the endorsement watermark signs one endorsement, which ends at byte {end} of "
            f"{len(buf)} (tezos-signer would keep the level {tezos_signer}, read from the "
            f"last 4 bytes; the Ledger baking app refuses a message that is not "
            f"{_ENDORSEMENT_LENGTH} bytes)",
            offset=end,
        )
    return value, content["level"]


@cache
def _payload(proto: Protocol, name: str) -> Encoding[Any]:
    """The encoding of ``proto``'s catalogue id ``name``."""
    return registry.find(proto.id(name)).encoding


@cache
def _one_content(proto: Protocol) -> Encoding[Any]:
    """An ``operation.unsigned`` of ``proto`` with exactly one content: its
    value is the same, and it ends where that content ends."""
    return obj(
        req("branch", block_hash),  # the shell's operation header
        req("contents", fixed.list_(1, _payload(proto, "operation.contents"))),
    )


def _whole(encoding: Encoding[Any], buf: bytes, start: int) -> Mapping[str, Any]:
    """``encoding``'s value of ``buf`` from ``start`` to its end."""
    value, end = encoding.decode_prefix(buf, start)
    if end != len(buf):
        raise extra_bytes(end, len(buf))
    result: Mapping[str, Any] = value
    return result


def _check_level_reads(kind: Kind, buf: bytes, level: int) -> None:
    """Refuse ``buf`` unless the simple signers read ``level`` where they
    read it (``_LEVEL_READS``)."""
    signed_at, unsigned_at = _LEVEL_READS[kind]
    reads = {
        "tezos-signer": _read(buf, signed_at, signed=True),
        "the Ledger baking app": _read(buf, unsigned_at, signed=False),
    }
    others = [f"{who} reads {read}" for who, read in reads.items() if read != level]
    if others:
        raise DecodeError(
            "out_of_range",
            f"the level is {level}, but {' and '.join(others)}: a level a high watermark "
            "keeps is from 0 to 2^31 - 1",
            offset=unsigned_at,
        )


def _read(buf: bytes, offset: int, *, signed: bool) -> int:
    """The 32-bit big-endian integer at ``offset`` of ``buf`` (from the end
    when negative), as a simple signer reads it (``buf`` has the bytes: its
    payload decoded)."""
    value: int = struct.unpack_from(">i" if signed else ">I", buf, offset)[0]
    return value


def _summaries(value: Mapping[str, Any]) -> tuple[Content, ...]:
    """The summary of each content of an ``operation.unsigned`` value."""
    return tuple(_summary(content) for content in value["contents"])


def _summary(content: Mapping[str, Any]) -> Content:
    """A content's summary: its members of the same names (a value the
    protocol's decoder made, of the types they have there)."""
    get = content.get
    return Content(
        kind=content["kind"],
        source=get("source"),
        destination=get("destination"),
        amount=get("amount", get("balance")),
        fee=get("fee"),
        counter=get("counter"),
        gas_limit=get("gas_limit"),
        storage_limit=get("storage_limit"),
        delegate=get("delegate"),
        public_key=get("public_key"),
        level=get("level"),
    )
