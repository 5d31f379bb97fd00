"""Hashes and identifiers: fixed-size bytes whose JSON form is Base58Check.

A value is an instance of a :class:`Base58Hash` subclass: ``bytes`` of the
type's size whose ``str()`` is the Base58Check text (``repr()`` shows it too).
Binary forms are the raw bytes: decoding never computes base58, only JSON
does. ``encode`` also takes plain ``bytes`` of the right size; ``to_json``
prints them in the type's Base58Check form.

The encodings are the node's (``Helpers.MakeEncoder`` in the reference):
``splitted`` of a one-field record of fixed bytes named after the type (so
``/describe`` shows the field name, e.g. ``Operation_hash``) and, for JSON,
``def_(<name>, string)`` titled ``"<title> (Base58Check-encoded)"``.

The prefixes are data (:data:`PREFIXES`): the bytes Base58Check puts before
the payload, which make the text start with ``B``, ``P``, ``Net``... They
are the same in the Tezos and the Dune families for these types (the
public key hashes, whose prefixes differ, are :mod:`.keys`'s).

The protocols' own hash kinds are here too: nonce hashes (``nce…``, a block
header's ``seed_nonce_hash``), script expression hashes (``expr…``, a big
map key's hash), contract hashes (``KT1…``, an originated contract) and
blinded public key hashes (``btz1…``, a commitment's). The protocols'
random state hash (``rng…``) is not: no encoding shows it as text (a seed
is written as hex bytes).

>>> h = BlockHash(bytes(32))
>>> str(h)
'BKiHLREqU3JkXfzEDYAkmmfX48gBDtYhMrpA98s7Aq4SzbUAB6M'
>>> block_hash.to_json(h)
'BKiHLREqU3JkXfzEDYAkmmfX48gBDtYhMrpA98s7Aq4SzbUAB6M'
>>> block_hash.from_json(str(h)) == h, type(block_hash.decode(bytes(32))).__name__
(True, 'BlockHash')
>>> chain_id.to_json(bytes.fromhex("7a06a770"))
'NetXdQprcVkpaWU'
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from ..errors import EncodeError, JsonError
from ..tree.core import Encoding, Namer, combinator, publish
from ..tree.leaves import wrong_type, wrong_value_type
from ..tree.records import Named
from ..tree.strings import FixedBytes, RawBytes, string, wrong_length
from ..tree.wrappers import DirectJson, conv, def_
from .base58 import check_decoder, check_encode

if TYPE_CHECKING:
    from typing import Self


__all__ = [
    "PREFIXES",
    "Base58Hash",
    "BlindedPublicKeyHash",
    "BlockHash",
    "ChainId",
    "ContextHash",
    "ContractHash",
    "HashBytes",
    "NonceHash",
    "OperationHash",
    "OperationListListHash",
    "ProtocolHash",
    "ScriptExprHash",
    "TaggedBytes",
    "blinded_public_key_hash",
    "block_hash",
    "chain_id",
    "context_hash",
    "contract_hash",
    "hash_encoding",
    "nonce_hash",
    "operation_hash",
    "operation_list_list_hash",
    "protocol_hash",
    "script_expr_hash",
]

PREFIXES: dict[str, tuple[bytes, int]] = {
    "block_hash": (b"\x01\x34", 32),  # B
    "operation_hash": (b"\x05\x74", 32),  # o
    "operation_list_list_hash": (b"\x1d\x9f\x6d", 32),  # LLo
    "protocol_hash": (b"\x02\xaa", 32),  # P
    "context_hash": (b"\x4f\xc7", 32),  # Co
    "chain_id": (b"\x57\x52\x00", 4),  # Net
    # the protocols' (004 to 007: their ``*_hash.ml``)
    "nonce_hash": (b"\x45\xdc\xa9", 32),  # nce
    "script_expr_hash": (b"\x0d\x2c\x40\x1b", 32),  # expr
    "contract_hash": (b"\x02\x5a\x79", 20),  # KT1
    "blinded_public_key_hash": (b"\x01\x02\x31\xdf", 20),  # btz1
    # keys and signatures (:mod:`.signatures`)
    "ed25519_public_key": (b"\x0d\x0f\x25\xd9", 32),  # edpk
    "secp256k1_public_key": (b"\x03\xfe\xe2\x56", 33),  # sppk
    "p256_public_key": (b"\x03\xb2\x8b\x7f", 33),  # p2pk
    "generic_signature": (b"\x04\x82\x2b", 64),  # sig
    "ed25519_signature": (b"\x09\xf5\xcd\x86\x12", 64),  # edsig
    "secp256k1_signature": (b"\x0d\x73\x65\x13\x3f", 64),  # spsig1
    "p256_signature": (b"\x36\xf0\x2c\x34", 64),  # p2sig
}
"""Base58Check prefix and payload size, by kind (the reference's ``Base58.Prefix``)."""


def text_prefix(kind: str) -> str:
    """The characters every Base58Check text of ``kind`` starts with
    (``B``, ``edsig``...): those of its smallest and largest payloads."""
    prefix, size = PREFIXES[kind]
    low, high = check_encode(prefix + bytes(size)), check_encode(prefix + b"\xff" * size)
    assert len(low) == len(high)  # every payload gives texts of one length
    same = next((i for i, (a, b) in enumerate(zip(low, high, strict=True)) if a != b), len(low))
    return low[:same]


class Base58Hash(bytes):
    """Bytes of a fixed size whose text form is Base58Check with a prefix.

    ``Cls(raw)`` takes the raw bytes (``ValueError`` unless there are
    exactly :attr:`size`), ``Cls(text)`` the Base58Check text
    (:class:`JsonError` ``invalid_base58`` when it is not one of this type).
    A subclass's value prints as itself wherever its parent's is expected.
    """

    __slots__ = ()

    #: the encoding's name: its field name in binary schemas, its JSON definition
    name: ClassVar[str]
    #: the JSON definition's title, before " (Base58Check-encoded)"
    label: ClassVar[str]
    #: the key of :data:`PREFIXES` (a type whose texts are not one prefix's,
    #: :mod:`.keys`' Ed25519 public key hash, sets its size, ``_decode`` and
    #: ``_text`` itself)
    kind: ClassVar[str]
    size: ClassVar[int]
    prefix: ClassVar[bytes]
    #: the characters every text starts with (``B``, ``edsig``...)
    text_prefix: ClassVar[str]
    _decode: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.kind not in PREFIXES:
            return
        cls.prefix, cls.size = PREFIXES[cls.kind]
        cls.text_prefix = text_prefix(cls.kind)
        length = len(check_encode(cls.prefix + bytes(cls.size)))
        total = len(cls.prefix) + cls.size + 4
        cls._decode = staticmethod(check_decoder(length, total, cls.prefix))

    def __new__(cls, value: bytes | bytearray | memoryview | str) -> Self:
        if isinstance(value, str):
            return cls.from_b58check(value)
        raw = bytes(value)
        if len(raw) != cls.size:
            raise ValueError(f"a {cls.__name__} has {cls.size} bytes, not {len(raw)}")
        return super().__new__(cls, raw)

    @classmethod
    def from_b58check(cls, text: object) -> Self:
        """The hash a Base58Check text spells (:class:`JsonError` when none)."""
        payload = cls._decode(text)
        if payload is None:
            if type(text) is not str:
                raise wrong_type(f"a Base58Check {cls.name}", text)
            raise JsonError("invalid_base58", f"{text[:60]!r} is not a Base58Check {cls.name}")
        return bytes.__new__(cls, payload)

    @classmethod
    def b58check_of(cls, value: Any) -> str:
        """The Base58Check text of ``value``: this type's bytes (a subclass's
        in its own text) or plain bytes of its size (:class:`EncodeError`
        otherwise)."""
        if not isinstance(value, bytes | bytearray):
            raise wrong_value_type(f"a {cls.__name__} (bytes)", value)
        if len(value) != cls.size:
            raise EncodeError(
                "wrong_length", f"expected exactly {cls.size} bytes, got {len(value)}"
            )
        return (type(value) if isinstance(value, cls) else cls)._text(value)

    @classmethod
    def _text(cls, raw: bytes | bytearray) -> str:
        """The Base58Check text of ``raw``, checked to be of this type's size."""
        return check_encode(cls.prefix + raw)

    def __str__(self) -> str:
        return self._text(self)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class BlockHash(Base58Hash):
    """A block hash: 32 bytes, ``B…`` (51 characters)."""

    name, label, kind = "block_hash", "A block identifier", "block_hash"


class OperationHash(Base58Hash):
    """An operation hash: 32 bytes, ``o…`` (51 characters)."""

    name, label, kind = "Operation_hash", "A Tezos operation ID", "operation_hash"


class OperationListListHash(Base58Hash):
    """The hash of a block's operations: 32 bytes, ``LLo…`` (53 characters)."""

    name, label = "Operation_list_list_hash", "A list of list of operations"
    kind = "operation_list_list_hash"


class ProtocolHash(Base58Hash):
    """A protocol hash: 32 bytes, ``P…`` (51 characters)."""

    name, label, kind = "Protocol_hash", "A Tezos protocol ID", "protocol_hash"


class ContextHash(Base58Hash):
    """A context hash: 32 bytes, ``Co…`` (52 characters)."""

    name, label, kind = "Context_hash", "A hash of context", "context_hash"


class ChainId(Base58Hash):
    """A chain identifier: 4 bytes, ``Net…`` (15 characters)."""

    name, label, kind = "Chain_id", "Network identifier", "chain_id"


class NonceHash(Base58Hash):
    """The hash of a seed nonce: 32 bytes, ``nce…`` (53 characters)."""

    name, label, kind = "cycle_nonce", "A nonce hash", "nonce_hash"


class ScriptExprHash(Base58Hash):
    """The hash of a packed Micheline expression: 32 bytes, ``expr…`` (54 characters)."""

    name, label, kind = "script_expr", "A script expression ID", "script_expr_hash"


class ContractHash(Base58Hash):
    """An originated contract's hash: 20 bytes, ``KT1…`` (36 characters)."""

    name, label, kind = "Contract_hash", "A contract ID", "contract_hash"


class BlindedPublicKeyHash(Base58Hash):
    """A commitment's blinded Ed25519 public key hash: 20 bytes, ``btz1…`` (37 characters)."""

    name, label = "Blinded public key hash", "A blinded public key hash"
    kind = "blinded_public_key_hash"


class TaggedBytes(FixedBytes):
    """``length`` bytes read as a value of ``value_type`` (a ``bytes``
    subclass) that holds them between constant bytes: its ``head`` (a
    curve's tag) and its ``tail`` (a padding byte that the encoding around
    it reads and checks). A value is written as the bytes between, once its
    size and constant bytes are checked. With neither, the value is the
    bytes themselves, and plain ``bytes`` of the length are written too.

    A union of such leaves, one per tag, reads a tagged value with no call
    but the value's construction: the tag is peeked, the bytes taken with
    the fields around them (one ``struct`` run)."""

    def __init__(
        self,
        value_type: type[bytes],
        length: int,
        what: str,
        head: bytes = b"",
        tail: bytes = b"",
    ) -> None:
        super().__init__(text=False, length=length)
        self.value_type, self.head, self.tail = value_type, head, tail
        self.what = what  # in messages: "not enough data for block_hash"
        if not head and not tail:

            def exact(x: str, name: Namer) -> str:  # the type, or plain bytes, of the length
                t = name(value_type)
                return f"(type({x}) is {t} or type({x}) is bytes) and len({x}) == {length}"

            # bytes.__new__ directly: the reader already took exactly ``length`` bytes
            self.atom = replace(
                self.atom, unpack=partial(bytes.__new__, value_type), pack_guard=exact
            )
            return
        total, start, stop = len(head) + length + len(tail), len(head), len(head) + length
        check = partial(_check_tagged, value_type, head, tail, total)

        def pack(value: Any) -> bytes:
            if not (
                type(value) is value_type
                and len(value) == total
                and value.startswith(head)
                and value.endswith(tail)
            ):
                check(value)  # the error, or a value of another type that is one
            return bytes(value[start:stop])

        def unpack(raw: bytes) -> bytes:
            return bytes.__new__(value_type, head + raw + tail)

        self.atom = replace(self.atom, check=check, pack=pack, unpack=unpack, pack_guard=None)

    def _rebuild(self) -> tuple[Any, ...]:
        raw: RawBytes = self.inner  # type: ignore[assignment]
        args = (self.value_type, raw.exact_length, self.what, self.head, self.tail)
        return (TaggedBytes, args)


def _check_tagged(
    value_type: type[bytes], head: bytes, tail: bytes, total: int, value: Any
) -> None:
    """Raise the :class:`EncodeError` of a value that is not ``total`` bytes
    from ``head`` to ``tail``."""
    if not isinstance(value, bytes | bytearray):
        raise wrong_value_type(f"a {value_type.__name__} (bytes)", value)
    if len(value) != total:
        raise wrong_length(EncodeError, total, len(value))
    if not value.startswith(head):
        raise EncodeError("out_of_range", f"tag {value[: len(head)].hex()} is not {head.hex()}")
    if not value.endswith(tail):
        raise EncodeError(
            "invalid_padding", f"{value[-len(tail) :].hex()} is not the padding {tail.hex()}"
        )


class HashBytes(TaggedBytes):
    """The binary form of a hash type: its bytes, read as an instance of it."""

    def __init__(self, hash_type: type[Base58Hash]) -> None:
        super().__init__(hash_type, hash_type.size, hash_type.name)
        self.hash_type = hash_type

    def _rebuild(self) -> tuple[Any, ...]:
        return (HashBytes, (self.hash_type,))


H = TypeVar("H", bound=Base58Hash)


@combinator
def hash_encoding(hash_type: type[H]) -> Encoding[H]:
    """The node's encoding of ``hash_type`` (see the module's notes)."""
    json: Encoding[Any] = def_(
        hash_type.name,
        conv(hash_type.b58check_of, hash_type.from_b58check, string),
        title=f"{hash_type.label} (Base58Check-encoded)",
    )
    binary = Named(hash_type.name, HashBytes(hash_type))
    return DirectJson(json, binary, hash_type.b58check_of, hash_type.from_b58check)


block_hash = hash_encoding(BlockHash)
operation_hash = hash_encoding(OperationHash)
operation_list_list_hash = hash_encoding(OperationListListHash)
protocol_hash = hash_encoding(ProtocolHash)
context_hash = hash_encoding(ContextHash)
chain_id = hash_encoding(ChainId)
nonce_hash = hash_encoding(NonceHash)
script_expr_hash = hash_encoding(ScriptExprHash)
contract_hash = hash_encoding(ContractHash)
blinded_public_key_hash = hash_encoding(BlindedPublicKeyHash)


publish(__name__, globals())  # the encodings above pickle by reference
