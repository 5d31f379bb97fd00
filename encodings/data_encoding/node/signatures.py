"""Public keys (``Signature.Public_key``) and signatures (``Signature``) of the three curves.

A public key is a :class:`PublicKey`: ``bytes``, the curve's tag (0
Ed25519, 1 Secp256k1, 2 P256) then the key, 32 bytes for Ed25519 and 33
(a compressed point) for the others; ``str()`` is its Base58Check text,
``edpk…``, ``sppk…`` or ``p2pk…``. Binary: a union on the tag, described as
a real node publishes it (``obj1 (req "Signature.Public_key" (def
"public_key" union))``, fields ``Ed25519.Public_key``...); JSON: the text.

A signature is a :class:`Signature`: 64 ``bytes``, whatever the curve; its
binary form is the bytes (``obj1 (req "Signature" (Fixed.bytes 64))``). Its
text has four spellings, as the protocols' environment (``signature.ml``
of 2019-2020, which protocols 004 to 007 use) has them: the generic
``sig…``, and the curve's ``edsig…``, ``spsig1…``, ``p2sig…`` (the same 64
bytes under another prefix). JSON reads all four; a signature keeps the
spelling it was read in (an :class:`Ed25519Signature` read from ``edsig…``
writes ``edsig…`` again, as the environment's does), and one read from
bytes, which say nothing of the curve, writes ``sig…``. A signer wants the
curve's spelling: :meth:`Signature.b58check` gives any of them.

The curve points are not checked: that is the cryptography's business. (The
environment refuses a Secp256k1 or P256 key that is no point of its curve,
where this module reads any 33 bytes after the tag.)

>>> k = public_key.from_json("edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav")
>>> public_key.encode(k).hex()[:10], k.curve
('004798d2cc', 'ed25519')
>>> s = signature.decode(bytes(64))
>>> str(s)[:3], s.b58check("ed25519")[:5], s.b58check("p256")[:5]
('sig', 'edsig', 'p2sig')
>>> signature.to_json(signature.from_json(s.b58check("p256")))[:5]
'p2sig'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from ..tree.core import Encoding, publish
from .base58 import check_decoder, check_encode
from .hashes import Base58Hash, hash_encoding
from .keys import CURVES, CurveTagged, curve_encoding
from .prefixes import PREFIXES

if TYPE_CHECKING:
    from typing import Self

__all__ = [
    "Ed25519Signature",
    "P256Signature",
    "PublicKey",
    "Secp256k1Signature",
    "Signature",
    "public_key",
    "signature",
]

_KEY_KINDS: Final = tuple(f"{curve}_public_key" for curve in CURVES)
_SIZES: Final = tuple(PREFIXES[kind].size for kind in _KEY_KINDS)
"""A key's size, by curve tag: 32, 33, 33."""

# the decoders by the text's first four characters (``edpk``, ``sppk``, ``p2pk``)
_KEY_DECODERS = {
    row.text: (tag, check_decoder(row.length, len(row.prefix) + row.size + 4, row.prefix))
    for tag, row in enumerate(PREFIXES[kind] for kind in _KEY_KINDS)
}


class PublicKey(CurveTagged):
    """A public key: the curve's tag byte then the key (32 bytes for
    Ed25519, 33 for Secp256k1 and P256); ``str()`` its text."""

    __slots__ = ()

    sizes = _SIZES
    what, spellings = "public key", "edpk, sppk or p2pk"

    @classmethod
    def _payload(cls, text: str) -> tuple[int, bytes] | None:
        found = _KEY_DECODERS.get(text[:4])
        payload = None if found is None else found[1](text)
        return None if found is None or payload is None else (found[0], payload)

    def __str__(self) -> str:
        return check_encode(PREFIXES[_KEY_KINDS[self[0]]].prefix + self[1:])


public_key: Encoding[PublicKey] = curve_encoding(
    PublicKey,
    "Signature.Public_key",
    "A Ed25519, Secp256k1, or P256 public key",
    "public_key",
    "Public_key",
)
"""``Signature.Public_key`` (see the module's notes)."""


class Signature(Base58Hash):
    """A signature: 64 bytes, of any curve. ``str()`` is ``sig…``; the
    subclasses, a signature known to be a curve's, print in the curve's
    spelling. ``Signature(text)`` reads any of the four spellings, and
    gives the subclass the text names."""

    __slots__ = ()

    kind = "generic_signature"
    #: the curve the spelling names (``None``: the generic ``sig…``)
    curve: ClassVar[str | None] = None

    @classmethod
    def from_b58check(cls, text: object) -> Self:
        """The signature a Base58Check text spells: of the curve its prefix
        names (``edsig``, ``spsig1``, ``p2sig``), or generic (``sig``)."""
        if cls is Signature and type(text) is str:
            for curve_type in _CURVE_SIGNATURES.values():
                # as the environment does: a curve's prefix is read as that curve's or not at all
                if text.startswith(curve_type.text_prefix):
                    return curve_type.from_b58check(text)  # type: ignore[return-value]
        return super().from_b58check(text)

    def b58check(self, curve: str | None = None) -> str:
        """The text in ``curve``'s spelling (``ed25519``, ``secp256k1`` or
        ``p256``; by default the generic ``sig…``)."""
        if curve is None:
            return Signature._text(self)
        if curve not in _CURVE_SIGNATURES:
            raise ValueError(f"unknown curve {curve!r}: one of {list(CURVES)}")
        return _CURVE_SIGNATURES[curve]._text(self)


class Ed25519Signature(Signature):
    """An Ed25519 signature: ``edsig…`` (99 characters)."""

    __slots__ = ()

    kind = "ed25519_signature"
    curve = "ed25519"


class Secp256k1Signature(Signature):
    """A Secp256k1 signature: ``spsig1…`` (99 characters)."""

    __slots__ = ()

    kind = "secp256k1_signature"
    curve = "secp256k1"


class P256Signature(Signature):
    """A P256 signature: ``p2sig…`` (98 characters)."""

    __slots__ = ()

    kind = "p256_signature"
    curve = "p256"


_CURVE_SIGNATURES: Final[dict[str, type[Signature]]] = {
    t.curve: t for t in (Ed25519Signature, Secp256k1Signature, P256Signature) if t.curve
}

signature: Encoding[Signature] = hash_encoding(Signature)
"""``Signature``: 64 bytes; JSON ``sig…``, ``edsig…``, ``spsig1…`` or ``p2sig…``."""


publish(__name__, globals())  # the encodings above pickle by reference
