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

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, Literal

from ..errors import EncodeError, JsonError
from ..tree.core import Encoding, identity, publish
from ..tree.fixed import bytes_
from ..tree.leaves import wrong_type, wrong_value_type
from ..tree.records import Named
from ..tree.strings import string
from ..tree.unions import case, union
from ..tree.wrappers import DirectJson, conv, def_
from .base58 import check_decoder, check_encode

if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "ADDRESS_FAMILIES",
    "CURVES",
    "Family",
    "PublicKeyHash",
    "current_output_family",
    "output_family",
    "public_key_hash",
    "set_output_family",
]

Family = Literal["dune", "tezos"]

CURVES: Final = ("ed25519", "secp256k1", "p256")
"""The curves, by binary tag (0, 1, 2)."""

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


class PublicKeyHash(bytes):
    """A public key hash: the curve's tag byte then 20 bytes.

    ``PublicKeyHash(raw)`` takes the 21 raw bytes (``ValueError`` unless the
    tag is 0, 1 or 2), ``PublicKeyHash(text)`` a Base58Check text of either
    family (:class:`JsonError` ``invalid_base58`` otherwise).
    """

    __slots__ = ()

    def __new__(cls, value: bytes | bytearray | memoryview | str) -> Self:
        if isinstance(value, str):
            return cls.from_b58check(value)
        raw = bytes(value)
        if len(raw) != 1 + _HASH_SIZE or raw[0] >= len(CURVES):
            raise ValueError(
                "a public key hash is a curve tag (0, 1 or 2) then 20 bytes, "
                f"not {raw[:8].hex()}… ({len(raw)} bytes)"
            )
        return super().__new__(cls, raw)

    @property
    def curve(self) -> str:
        """``ed25519``, ``secp256k1`` or ``p256``."""
        return CURVES[self[0]]

    @classmethod
    def from_b58check(cls, text: object) -> Self:
        """The hash a Base58Check text of either family spells."""
        if type(text) is not str:
            raise wrong_type("a Base58Check public key hash", text)
        found = _DECODERS.get(text[:3])
        payload = None if found is None else found[1](text)
        if found is None or payload is None:
            raise JsonError(
                "invalid_base58",
                f"{text[:60]!r} is not a Base58Check public key hash "
                "(dn1, dn2, dn3, tz1, tz2 or tz3)",
            )
        return bytes.__new__(cls, bytes((found[0],)) + payload)

    def b58check(self, family: Family | None = None) -> str:
        """The Base58Check text in ``family`` (by default the current output family)."""
        return _text(self, _checked_family(family or current_output_family()))

    def __str__(self) -> str:
        return self.b58check()

    def __repr__(self) -> str:
        return f"PublicKeyHash({self.b58check()!r})"


def _checked(value: Any) -> bytes:
    if not isinstance(value, bytes | bytearray):
        raise wrong_value_type("a PublicKeyHash (bytes)", value)
    if len(value) != 1 + _HASH_SIZE:
        raise EncodeError("wrong_length", f"expected exactly 21 bytes, got {len(value)}")
    if value[0] >= len(CURVES):
        raise EncodeError("out_of_range", f"curve tag {value[0]} is not 0, 1 or 2")
    return bytes(value)


def _text(raw: bytes, family: Family) -> str:
    """The Base58Check text of a checked hash ``raw`` in ``family``."""
    return check_encode(ADDRESS_FAMILIES[family][CURVES[raw[0]]] + raw[1:])


def _to_b58check(value: Any) -> str:
    return _text(_checked(value), current_output_family())


def _curve_case(tag: int, title: str) -> Any:
    def is_curve(v: Any) -> bool:
        return isinstance(v, bytes | bytearray) and len(v) == 21 and v[0] == tag

    prefix = bytes((tag,))
    return case(
        tag,
        title,
        Named(
            f"{title}.Public_key_hash",
            conv(
                lambda v: bytes(v[1:]),
                lambda raw: bytes.__new__(PublicKeyHash, prefix + raw),
                bytes_(_HASH_SIZE),
            ),
        ),
        match=is_curve,
    )


def _binary() -> Encoding[Any]:
    titles = ("Ed25519", "Secp256k1", "P256")  # by tag, as CURVES
    curves = Named(
        "Signature.Public_key_hash",
        def_("public_key_hash", union([_curve_case(t, n) for t, n in enumerate(titles)])),
    )
    # the value is checked as to_json checks it: one bad value, one error
    # (the union alone would say no_case_matched of whatever is not a hash)
    return conv(_checked, identity, curves)


public_key_hash: Encoding[PublicKeyHash] = DirectJson(
    def_(
        "Signature.Public_key_hash",
        conv(_to_b58check, PublicKeyHash.from_b58check, string),
        title="A Ed25519, Secp256k1, or P256 public key hash (Base58Check-encoded)",
    ),
    _binary(),
    _to_b58check,
    PublicKeyHash.from_b58check,
)
"""``Signature.Public_key_hash`` (see the module's notes)."""


publish(__name__, globals())  # the encodings above pickle by reference
