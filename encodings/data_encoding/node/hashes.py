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
are the same in the Tezos and the Dune families for these types.

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
from ..tree.strings import FixedBytes, string
from ..tree.wrappers import DirectJson, conv, def_
from .base58 import check_decoder, check_encode

if TYPE_CHECKING:
    from typing import Self


__all__ = [
    "PREFIXES",
    "Base58Hash",
    "BlockHash",
    "ChainId",
    "ContextHash",
    "OperationHash",
    "OperationListListHash",
    "ProtocolHash",
    "block_hash",
    "chain_id",
    "context_hash",
    "hash_encoding",
    "operation_hash",
    "operation_list_list_hash",
    "protocol_hash",
]

PREFIXES: dict[str, tuple[bytes, int]] = {
    "block_hash": (b"\x01\x34", 32),  # B
    "operation_hash": (b"\x05\x74", 32),  # o
    "operation_list_list_hash": (b"\x1d\x9f\x6d", 32),  # LLo
    "protocol_hash": (b"\x02\xaa", 32),  # P
    "context_hash": (b"\x4f\xc7", 32),  # Co
    "chain_id": (b"\x57\x52\x00", 4),  # Net
}
"""Base58Check prefix and payload size, by kind (the reference's ``Base58.Prefix``)."""


class Base58Hash(bytes):
    """Bytes of a fixed size whose text form is Base58Check with a prefix.

    ``Cls(raw)`` takes the raw bytes (``ValueError`` unless there are
    exactly :attr:`size`), ``Cls(text)`` the Base58Check text
    (:class:`JsonError` ``invalid_base58`` when it is not one of this type).
    """

    __slots__ = ()

    #: the encoding's name: its field name in binary schemas, its JSON definition
    name: ClassVar[str]
    #: the JSON definition's title, before " (Base58Check-encoded)"
    label: ClassVar[str]
    #: the key of :data:`PREFIXES`
    kind: ClassVar[str]
    size: ClassVar[int]
    prefix: ClassVar[bytes]
    _decode: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.prefix, cls.size = PREFIXES[cls.kind]
        total = len(cls.prefix) + cls.size + 4
        # every payload gives texts of one length (the reference checks it too)
        length = len(check_encode(cls.prefix + bytes(cls.size)))
        assert length == len(check_encode(cls.prefix + b"\xff" * cls.size))
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
        """The Base58Check text of ``value``: this type's bytes or plain bytes
        of its size (:class:`EncodeError` otherwise)."""
        if not isinstance(value, bytes | bytearray):
            raise wrong_value_type(f"a {cls.__name__} (bytes)", value)
        if len(value) != cls.size:
            raise EncodeError(
                "wrong_length", f"expected exactly {cls.size} bytes, got {len(value)}"
            )
        return check_encode(cls.prefix + value)

    def __str__(self) -> str:
        return check_encode(self.prefix + self)

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


class HashBytes(FixedBytes):
    """The binary form of a hash type: its bytes, read as an instance of it."""

    def __init__(self, hash_type: type[Base58Hash]) -> None:
        super().__init__(text=False, length=hash_type.size)
        self.hash_type = hash_type
        size = hash_type.size

        def exact(x: str, name: Namer) -> str:  # a hash, or plain bytes, of its size
            return f"(type({x}) is {name(hash_type)} or type({x}) is bytes) and len({x}) == {size}"

        # bytes.__new__ directly: the reader already took exactly ``size`` bytes
        self.atom = replace(self.atom, unpack=partial(bytes.__new__, hash_type), pack_guard=exact)

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


publish(__name__, globals())  # the encodings above pickle by reference
