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

The kinds are data (:data:`~.prefixes.HASH_KINDS`, with their origin): each
row's prefix (the bytes Base58Check puts before the payload, which make the
text start with ``B``, ``P``, ``Net``...), size, name and title. They are
the same in the Tezos and the Dune families (the public key hashes, whose
prefixes differ, are :mod:`.keys`'s). Every kind a node of the era
publishes has its type and its encoding here, under the row's key:
:data:`HASH_TYPES` and :data:`HASH_ENCODINGS` (``hashes.block_hash``,
``hashes.tx_rollup_message_result_hash``...), so that an encoding rebuilt
from a node's schemas knows each by its definition's name
(:mod:`.rebuilt`). The types of the shell's hashes and of the protocols'
contract, nonce, script expression and blinded key hashes are written
below, for the catalogue's records to name them; the others are made from
their rows (``TxRollupMessageResultHash``...).

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

from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from ..errors import EncodeError, JsonError
from ..tree.core import Encoding, Namer, combinator, publish
from ..tree.leaves import wrong_type, wrong_value_type
from ..tree.records import Named
from ..tree.strings import FixedBytes, RawBytes, string, wrong_length
from ..tree.wrappers import DirectJson, conv, def_
from .base58 import check_decoder, check_encode
from .prefixes import HASH_KINDS, PREFIXES

if TYPE_CHECKING:
    from typing import Self


__all__ = [
    "HASH_ENCODINGS",
    "HASH_TYPES",
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


class Base58Hash(bytes):
    """Bytes of a fixed size whose text form is Base58Check with a prefix.

    ``Cls(raw)`` takes the raw bytes (``ValueError`` unless there are
    exactly :attr:`size`), ``Cls(text)`` the Base58Check text
    (:class:`JsonError` ``invalid_base58`` when it is not one of this type).
    A subclass's value prints as itself wherever its parent's is expected.
    """

    __slots__ = ()

    #: the key of its row in :data:`PREFIXES`, which gives the rest (a type
    #: whose texts are not one prefix's, :mod:`.keys`' Ed25519 public key
    #: hash, sets its name, label, size, ``_decode`` and ``_text`` itself)
    kind: ClassVar[str]
    #: the encoding's name: its field name in binary schemas, its JSON definition
    name: ClassVar[str]
    #: the JSON definition's title, before " (Base58Check-encoded)"
    label: ClassVar[str]
    size: ClassVar[int]
    prefix: ClassVar[bytes]
    #: the characters every text starts with (``B``, ``edsig``...)
    text_prefix: ClassVar[str]
    _decode: ClassVar[Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        row = PREFIXES.get(cls.kind)
        if row is None:
            return
        cls.name, cls.label, cls.text_prefix = row.name, row.title, row.text
        cls.prefix, cls.size = row.prefix, row.size
        total = len(cls.prefix) + cls.size + 4
        cls._decode = staticmethod(check_decoder(row.length, total, cls.prefix))

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

    kind = "block_hash"


class OperationHash(Base58Hash):
    """An operation hash: 32 bytes, ``o…`` (51 characters)."""

    kind = "operation_hash"


class OperationListListHash(Base58Hash):
    """The hash of a block's operations: 32 bytes, ``LLo…`` (53 characters)."""

    kind = "operation_list_list_hash"


class ProtocolHash(Base58Hash):
    """A protocol hash: 32 bytes, ``P…`` (51 characters)."""

    kind = "protocol_hash"


class ContextHash(Base58Hash):
    """A context hash: 32 bytes, ``Co…`` (52 characters)."""

    kind = "context_hash"


class ChainId(Base58Hash):
    """A chain identifier: 4 bytes, ``Net…`` (15 characters)."""

    kind = "chain_id"


class NonceHash(Base58Hash):
    """The hash of a seed nonce: 32 bytes, ``nce…`` (53 characters)."""

    kind = "nonce_hash"


class ScriptExprHash(Base58Hash):
    """The hash of a packed Micheline expression: 32 bytes, ``expr…`` (54 characters)."""

    kind = "script_expr_hash"


class ContractHash(Base58Hash):
    """An originated contract's hash: 20 bytes, ``KT1…`` (36 characters)."""

    kind = "contract_hash"


class BlindedPublicKeyHash(Base58Hash):
    """A commitment's blinded Ed25519 public key hash: 20 bytes, ``btz1…`` (37 characters)."""

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


def _made(kind: str) -> type[Base58Hash]:
    """The type of the hash kind ``kind`` (a key of :data:`HASH_KINDS`),
    made from its row, named after it (``tx_rollup_hash``: ``TxRollupHash``)."""
    row = HASH_KINDS[kind]
    name = "".join(word.capitalize() for word in kind.split("_"))
    doc = f"{row.title}: {row.size} bytes, ``{row.text}…`` ({row.length} characters)."
    namespace = {"__slots__": (), "__module__": __name__, "__doc__": doc, "kind": kind}
    return type(name, (Base58Hash,), namespace)


_WRITTEN = {cls.kind: cls for cls in Base58Hash.__subclasses__()}  # the types above

HASH_TYPES: Final[Mapping[str, type[Base58Hash]]] = MappingProxyType(
    {kind: _WRITTEN.get(kind) or _made(kind) for kind in HASH_KINDS}
)
"""The type of every hash kind, by its key in :data:`HASH_KINDS`."""

# the made types and their encodings under their names: they pickle by them
globals().update({t.__name__: t for kind, t in HASH_TYPES.items() if kind not in _WRITTEN})
globals().update({k: hash_encoding(t) for k, t in HASH_TYPES.items() if k not in _WRITTEN})

HASH_ENCODINGS: Final[Mapping[str, Encoding[Base58Hash]]] = MappingProxyType(
    {kind: globals()[kind] for kind in HASH_KINDS}
)
"""The node's encoding of every hash kind, by its key in :data:`HASH_KINDS`,
which is also its name here (``hashes.tx_rollup_message_result_hash``)."""

tx_rollup_id: Final[Encoding[Base58Hash]] = def_(
    "tx_rollup_id",
    HASH_ENCODINGS["tx_rollup_hash"],
    title="A tx rollup handle",
    description="A tx rollup notation as given to an RPC or inside scripts, is a base58 tx "
    "rollup hash",
)
"""A protocol's handle of a tx rollup (Jakarta's ``tx_rollup_id``, in an
operation's ``rollup``): its hash (``txr1…``), under the name and title the
protocols give it, by which a schema published beside it names it."""

publish(__name__, globals())  # the encodings above pickle by reference
