"""Public key hashes (``Signature.Public_key_hash``) and their two address families.

A value is a :class:`PublicKeyHash`: 21 ``bytes``, the curve's tag (0
Ed25519, 1 Secp256k1, 2 P256) then the 20-byte hash; ``str()`` is its
Base58Check text. ``encode`` also takes plain ``bytes`` of that shape.

Binary (the seed's part 2, the reference's ``Signature.Public_key_hash``):
a union on a one-byte tag whose cases are the 20 hash bytes, described as
``obj1 (req "Signature.Public_key_hash" (def "public_key_hash" union))``
as a real node publishes it. 21 bytes, fixed.

JSON: the Base58Check text. The node is a fork of Tezos that kept Tezos'
binary layouts and changed only the text prefixes, so two *address
families* spell the same bytes:

=========  ==========  ==========  ==========
family     Ed25519     Secp256k1   P256
=========  ==========  ==========  ==========
``dune``   ``dn1…``    ``dn2…``    ``dn3…``
``tezos``  ``tz1…``    ``tz2…``    ``tz3…``
=========  ==========  ==========  ==========

Both are read on input; output uses the node's own family (``dune``) unless
told otherwise: globally with :func:`set_output_family`, or for a block of
code (one call, one thread or one task: it is a :class:`~contextvars.ContextVar`)
with ``with output_family("tezos"): ...``. The prefixes are data
(:data:`ADDRESS_FAMILIES`).

The same families spell :class:`Ed25519PublicKeyHash` (``dn1…``/``tz1…``,
20 bytes, no tag: ``Ed25519.Public_key_hash``, what an account activation
names), and the implicit contracts of :mod:`.protocols.contracts`.

A value that is a curve's tag then that curve's bytes is a
:class:`CurveTagged` (public key hashes, :mod:`.signatures`' public keys),
its encoding a :func:`curve_encoding`. Its binary form, :func:`curve_union`
(implicit contracts' too), is a union whose cases read the bytes into the
value directly, with no call per case.

>>> h = public_key_hash.from_json("tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU")
>>> public_key_hash.encode(h) == bytes(21)
True
>>> public_key_hash.to_json(h)
'dn1G8vdxwTcD7Nqf5ewF8FAj6bRG8iqtTgba'
>>> with output_family("tezos"):
...     public_key_hash.to_json(h)
'tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal, TypeVar

from ..errors import EncodeError, ErrorCode, JsonError
from ..tree.core import Encoding, identity, publish
from ..tree.leaves import wrong_type, wrong_value_type
from ..tree.records import Named
from ..tree.strings import string
from ..tree.unions import case, matching
from ..tree.wrappers import DirectJson, conv, def_
from .base58 import check_decoder, check_encode
from .hashes import Base58Hash, TaggedBytes, hash_encoding

if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "ADDRESS_FAMILIES",
    "CURVES",
    "CURVE_TITLES",
    "CurveTagged",
    "Ed25519PublicKeyHash",
    "Family",
    "PublicKeyHash",
    "address_payload",
    "address_text",
    "current_output_family",
    "curve_encoding",
    "curve_union",
    "ed25519_public_key_hash",
    "output_family",
    "public_key_hash",
    "set_output_family",
]

Family = Literal["dune", "tezos"]

CURVES: Final = ("ed25519", "secp256k1", "p256")
"""The curves, by binary tag (0, 1, 2)."""

CURVE_TITLES: Final = ("Ed25519", "Secp256k1", "P256")
"""The curves as the node names them (union cases, field names), by tag."""

ADDRESS_FAMILIES: Final[Mapping[str, Mapping[str, bytes]]] = MappingProxyType(
    {
        "dune": MappingProxyType(
            {
                "ed25519": bytes.fromhex("04b101"),  # dn1
                "secp256k1": bytes.fromhex("04b103"),  # dn2
                "p256": bytes.fromhex("04b106"),  # dn3
            }
        ),
        "tezos": MappingProxyType(
            {
                "ed25519": bytes.fromhex("06a19f"),  # tz1
                "secp256k1": bytes.fromhex("06a1a1"),  # tz2
                "p256": bytes.fromhex("06a1a4"),  # tz3
            }
        ),
    }
)
"""Base58Check prefix of a 20-byte public key hash, by family and curve."""

_HASH_SIZE = 20
_TEXT_LENGTH = 36  # every prefix above gives texts of 36 characters

# the decoders by the text's first three characters (``dn1``, ``tz2``...)
_DECODERS = {
    check_encode(prefix + bytes(_HASH_SIZE))[:3]: (
        tag,
        check_decoder(_TEXT_LENGTH, len(prefix) + _HASH_SIZE + 4, prefix),
    )
    for table in ADDRESS_FAMILIES.values()
    for tag, prefix in enumerate(table[curve] for curve in CURVES)
}

_default_family: list[Family] = ["dune"]
_context_family: ContextVar[Family | None] = ContextVar("output_family", default=None)


def address_text(curve: str, payload: bytes, family: Family | None = None) -> str:
    """The Base58Check text of a 20-byte hash ``payload`` of ``curve`` in
    ``family`` (by default the current output family)."""
    chosen = _checked_family(family or current_output_family())
    return check_encode(ADDRESS_FAMILIES[chosen][curve] + payload)


def address_payload(text: object, curves: Sequence[str] = CURVES) -> tuple[int, bytes] | None:
    """The curve's tag and the 20 bytes that a text of either family spells,
    if it is a hash of one of ``curves``; else ``None``."""
    if type(text) is not str:
        return None
    found = _DECODERS.get(text[:3])
    if found is None or CURVES[found[0]] not in curves:
        return None
    payload = found[1](text)
    return None if payload is None else (found[0], payload)


def _checked_family(family: object) -> Family:
    if family not in ADDRESS_FAMILIES:
        raise ValueError(f"unknown address family {family!r}: one of {sorted(ADDRESS_FAMILIES)}")
    return family  # type: ignore[return-value]


def current_output_family() -> Family:
    """The family ``to_json`` and ``str()`` write in, here and now."""
    return _context_family.get() or _default_family[0]


def set_output_family(family: Family) -> None:
    """Write public key hashes in ``family`` from now on, everywhere (a
    :func:`output_family` block still wins inside it)."""
    _default_family[0] = _checked_family(family)


@contextmanager
def output_family(family: Family) -> Iterator[None]:
    """Write public key hashes in ``family`` inside the ``with`` block (this
    thread or task only)."""
    token = _context_family.set(_checked_family(family))
    try:
        yield
    finally:
        _context_family.reset(token)


class CurveTagged(bytes):
    """A curve's tag byte (0 Ed25519, 1 Secp256k1, 2 P256) then the curve's
    :attr:`sizes` bytes, whose text is Base58Check: a public key hash, a
    :mod:`.signatures` public key.

    ``Cls(raw)`` takes the raw bytes (``ValueError`` unless they are such a
    value), ``Cls(text)`` a text (:class:`JsonError` ``invalid_base58``
    unless it is one of this type's).
    """

    __slots__ = ()

    #: the bytes after the tag, by tag
    sizes: ClassVar[tuple[int, ...]]
    #: what a value is, in messages (``public key hash``)
    what: ClassVar[str]
    #: how its texts start, in messages
    spellings: ClassVar[str]

    def __new__(cls, value: bytes | bytearray | memoryview | str) -> Self:
        if isinstance(value, str):
            return cls.from_b58check(value)
        raw = bytes(value)
        problem = cls._problem(raw)
        if problem is not None:
            raise ValueError(f"not a {cls.what}: {problem[1]}")
        return super().__new__(cls, raw)

    @property
    def curve(self) -> str:
        """``ed25519``, ``secp256k1`` or ``p256``."""
        return CURVES[self[0]]

    @classmethod
    def from_b58check(cls, text: object) -> Self:
        """The value a text spells."""
        if type(text) is not str:
            raise wrong_type(f"a Base58Check {cls.what}", text)
        found = cls._payload(text)
        if found is None:
            raise JsonError(
                "invalid_base58",
                f"{text[:60]!r} is not a Base58Check {cls.what} ({cls.spellings})",
            )
        return bytes.__new__(cls, bytes((found[0],)) + found[1])

    @classmethod
    def checked(cls, value: Any) -> bytes:
        """``value``'s bytes, if it is such a value (else the
        :class:`EncodeError` that ``encode`` and ``to_json`` raise)."""
        if type(value) is cls:  # made checked
            return value
        if not isinstance(value, bytes | bytearray):
            raise wrong_value_type(f"a {cls.__name__} (bytes)", value)
        problem = cls._problem(value)
        if problem is not None:
            raise EncodeError(*problem)
        return bytes(value)

    @classmethod
    def text_of(cls, value: Any) -> str:
        """The text of ``value``, checked (:meth:`checked`)."""
        return str(bytes.__new__(cls, cls.checked(value)))

    @classmethod
    def _problem(cls, raw: bytes | bytearray) -> tuple[ErrorCode, str] | None:
        """Why ``raw`` is no value (an error code and a message), or
        ``None``: with a curve's tag, a length not that curve's; with
        another tag, the tag when some curve has the length, else the length."""
        if raw and raw[0] < len(CURVES):
            expected = 1 + cls.sizes[raw[0]]
            if len(raw) == expected:
                return None
            return "wrong_length", f"expected exactly {expected} bytes, got {len(raw)}"
        lengths = sorted({1 + size for size in cls.sizes})
        if len(raw) in lengths:
            return "out_of_range", f"curve tag {raw[0]} is not 0, 1 or 2"
        expected_any = " or ".join(map(str, lengths))
        return "wrong_length", f"expected exactly {expected_any} bytes, got {len(raw)}"

    @classmethod
    def _payload(cls, text: str) -> tuple[int, bytes] | None:
        """The tag and the bytes a text spells, if it is one of this type's."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"


class PublicKeyHash(CurveTagged):
    """A public key hash: the curve's tag byte then 20 bytes; its text in
    either family is read, ``str()`` is in the current output family."""

    __slots__ = ()

    sizes = (_HASH_SIZE,) * 3
    what, spellings = "public key hash", "dn1, dn2, dn3, tz1, tz2 or tz3"

    @classmethod
    def _payload(cls, text: str) -> tuple[int, bytes] | None:
        return address_payload(text)

    def b58check(self, family: Family | None = None) -> str:
        """The Base58Check text in ``family`` (by default the current output family)."""
        return address_text(self.curve, self[1:], family)

    def __str__(self) -> str:
        return self.b58check()


def curve_union(
    value_type: type[bytes], name: str, field: str, sizes: Sequence[int], head: bytes = b""
) -> Encoding[Any]:
    """``def_(name, union)`` of a case per curve (``Ed25519``, tag 0;
    ``Secp256k1``, 1; ``P256``, 2): the tag, then the curve's ``sizes[tag]``
    bytes in a field named ``<Curve>.<field>``. A value is a ``value_type``
    holding ``head``, the tag and the bytes (``head``: the bytes the value
    has before the union's, an implicit contract's own tag)."""

    cases = [
        case(
            tag,
            title,
            Named(
                f"{title}.{field}",
                TaggedBytes(value_type, size, f"{title}.{field}", head + bytes((tag,))),
            ),
        )
        for tag, (title, size) in enumerate(zip(CURVE_TITLES, sizes, strict=True))
    ]
    # the curve is the value's own tag byte: one look, where a union would
    # try the cases; a case reads only values of its own curve
    select = partial(_curve_of, len(head), tuple(sizes))
    return def_(name, matching(select, cases, exact_reads=range(len(cases))))


def _curve_of(at: int, sizes: tuple[int, ...], v: Any) -> int | None:
    """The curve's tag of a :func:`curve_union` value that has the curve's
    size, the tag at ``at`` (``None`` for any other value; the leaf checks
    the bytes before it)."""
    if isinstance(v, bytes | bytearray) and len(v) > at:
        tag = v[at]
        if tag < len(sizes) and len(v) == at + 1 + sizes[tag]:
            return tag
    return None


C = TypeVar("C", bound=CurveTagged)


def curve_encoding(
    value_type: type[C], name: str, title: str, union_name: str, field: str
) -> Encoding[C]:
    """The node's encoding of a :class:`CurveTagged` type (``Helpers.
    MakeEncoder``): binary ``obj1 (req name (def union_name union))``
    (:func:`curve_union`), each value checked first as ``to_json`` checks
    it (one bad value, one error, where the union alone would say
    ``no_case_matched`` of whatever no case takes); JSON the text,
    ``def_(name)`` titled ``"<title> (Base58Check-encoded)"``."""
    union = curve_union(value_type, union_name, field, value_type.sizes)
    return DirectJson(
        def_(
            name,
            conv(value_type.text_of, value_type.from_b58check, string),
            title=f"{title} (Base58Check-encoded)",
        ),
        conv(value_type.checked, identity, Named(name, union)),
        value_type.text_of,
        value_type.from_b58check,
    )


public_key_hash: Encoding[PublicKeyHash] = curve_encoding(
    PublicKeyHash,
    "Signature.Public_key_hash",
    "A Ed25519, Secp256k1, or P256 public key hash",
    "public_key_hash",
    "Public_key_hash",
)
"""``Signature.Public_key_hash`` (see the module's notes)."""


def _ed25519_payload(text: object) -> bytes | None:
    found = address_payload(text, ("ed25519",))
    return None if found is None else found[1]


class Ed25519PublicKeyHash(Base58Hash):
    """An Ed25519 public key hash: 20 bytes, no tag, ``dn1…`` or ``tz1…``
    (the address families of the module's notes; ``str()`` in the current
    output family)."""

    __slots__ = ()

    name, label = "Ed25519.Public_key_hash", "An Ed25519 public key hash"
    kind = "ed25519_public_key_hash"  # its texts are the families', no one prefix's
    size = _HASH_SIZE
    _decode: ClassVar[Any] = staticmethod(_ed25519_payload)

    @classmethod
    def _text(cls, raw: bytes | bytearray) -> str:
        return address_text("ed25519", bytes(raw))

    def b58check(self, family: Family | None = None) -> str:
        """The Base58Check text in ``family`` (by default the current output family)."""
        return address_text("ed25519", self, family)


ed25519_public_key_hash: Encoding[Ed25519PublicKeyHash] = hash_encoding(Ed25519PublicKeyHash)
"""``Ed25519.Public_key_hash``: 20 bytes; JSON ``dn1…`` (``tz1…`` read too)."""


publish(__name__, globals())  # the encodings above pickle by reference
