"""Contract ids (``Contract_repr.encoding``, the same in protocols 004 to 007).

A value is a :class:`ContractId`: 22 ``bytes``, exactly its binary form.
An *implicit* contract (an account) is tag 0 then a public key hash (21
bytes: the curve's tag, 20 bytes); an *originated* one (a smart contract)
is tag 1, the 20 bytes of its contract hash, and a padding byte, zero.
``str()`` is its text: the public key hash's (``dn1…`` in the node's
address family by default, ``tz1…`` in Tezos', see :mod:`..keys`) or the
contract hash's (``KT1…``).

Binary: a union on the tag, described as the node describes it
(``def "contract_id"``: case ``Implicit``, a field
``Signature.Public_key_hash``; case ``Originated``, a field
``Contract_hash`` then one byte of padding). Reading refuses a padding
byte that is not zero (``invalid_padding``): its bytes would name the same
contract, and a value has one binary form. JSON: the text, titled "A
contract handle".

>>> c = contract_id.from_json("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat")
>>> contract_id.encode(c).hex()
'0138560805b4c8d7b7fbbafad5c59dbfa3878ca70500'
>>> c.originated
ContractHash('KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat')
>>> contract_id.decode(bytes(22)).implicit
PublicKeyHash('dn1G8vdxwTcD7Nqf5ewF8FAj6bRG8iqtTgba')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...errors import EncodeError, ErrorCode, JsonError
from ...tree.core import Encoding, identity, publish
from ...tree.framing import padded
from ...tree.leaves import wrong_type, wrong_value_type
from ...tree.records import Named
from ...tree.strings import string
from ...tree.unions import Case, union
from ...tree.wrappers import DirectJson, conv, def_
from ..hashes import ContractHash, TaggedBytes
from ..keys import CURVES, Family, PublicKeyHash, address_payload, address_text, curve_union

if TYPE_CHECKING:
    from typing import Self

__all__ = ["ContractId", "contract_id"]

_IMPLICIT: Final = b"\x00"
_ORIGINATED: Final = b"\x01"
_PADDING: Final = b"\x00"
_SIZE: Final = 22


class ContractId(bytes):
    """A contract id: 22 bytes, implicit (tag 0, a public key hash) or
    originated (tag 1, a contract hash, a zero byte).

    ``ContractId(raw)`` takes the 22 raw bytes (``ValueError`` unless they
    are one of those), ``ContractId(text)`` a public key hash's text of
    either family or a ``KT1…`` text (:class:`JsonError` ``invalid_base58``
    otherwise).
    """

    __slots__ = ()

    def __new__(cls, value: bytes | bytearray | memoryview | str) -> Self:
        if isinstance(value, str):
            return cls.from_b58check(value)
        raw = bytes(value)
        problem = _problem(raw)
        if problem is not None:
            raise ValueError(f"not a contract id: {problem[1]}")
        return super().__new__(cls, raw)

    @property
    def implicit(self) -> PublicKeyHash | None:
        """The account's public key hash, for an implicit contract."""
        return bytes.__new__(PublicKeyHash, self[1:]) if self[:1] == _IMPLICIT else None

    @property
    def originated(self) -> ContractHash | None:
        """The contract hash, for an originated contract."""
        return bytes.__new__(ContractHash, self[1:21]) if self[:1] == _ORIGINATED else None

    @classmethod
    def from_b58check(cls, text: object) -> Self:
        """The contract a text names: a public key hash (``dn1``, ``tz1``...) or ``KT1…``."""
        if type(text) is not str:
            raise wrong_type("a Base58Check contract id", text)
        found = address_payload(text)
        if found is not None:
            return bytes.__new__(cls, _IMPLICIT + bytes((found[0],)) + found[1])
        originated = ContractHash._decode(text)
        if originated is None:
            raise JsonError(
                "invalid_base58",
                f"{text[:60]!r} is not a Base58Check contract id "
                "(a public key hash: dn1, dn2, dn3, tz1, tz2, tz3; or KT1)",
            )
        return bytes.__new__(cls, _ORIGINATED + originated + _PADDING)

    def b58check(self, family: Family | None = None) -> str:
        """The text; an implicit contract's in ``family`` (by default the
        current output family)."""
        return _text(self, family)

    def __str__(self) -> str:
        return _text(self)

    def __repr__(self) -> str:
        return f"ContractId({str(self)!r})"


def _problem(raw: bytes | bytearray) -> tuple[ErrorCode, str] | None:
    """Why ``raw`` is no contract id (an error code and a message), or ``None``."""
    if len(raw) != _SIZE:
        return "wrong_length", f"expected exactly {_SIZE} bytes, got {len(raw)}"
    if raw[:1] == _IMPLICIT:
        if raw[1] >= len(CURVES):
            return "out_of_range", f"curve tag {raw[1]} is not 0, 1 or 2"
    elif raw[:1] == _ORIGINATED:
        if raw[-1:] != _PADDING:
            return "invalid_padding", f"the padding byte is {raw[-1]:#04x}, not zero"
    else:
        return "out_of_range", f"tag {raw[0]} is not 0 (implicit) or 1 (originated)"
    return None


def _checked(value: Any) -> bytes:
    if type(value) is ContractId:  # made checked
        return value
    if not isinstance(value, bytes | bytearray):
        raise wrong_value_type("a ContractId (bytes)", value)
    problem = _problem(value)
    if problem is not None:
        raise EncodeError(*problem)
    return bytes(value)


def _text(raw: bytes, family: Family | None = None) -> str:
    """The text of a checked contract id ``raw``."""
    if raw[:1] == _IMPLICIT:
        return address_text(CURVES[raw[1]], raw[2:], family)
    return ContractHash._text(raw[1:21])


def _to_b58check(value: Any) -> str:
    return _text(_checked(value))


def _is_tagged(tag: bytes, value: Any) -> bool:
    return isinstance(value, bytes | bytearray) and value[:1] == tag


def _binary() -> Encoding[Any]:
    implicit = Named(
        "Signature.Public_key_hash",
        curve_union(ContractId, "public_key_hash", "Public_key_hash", (20,) * 3, _IMPLICIT),
    )
    # the padding inside the value too: the value is the 22 bytes, its leaf the 20 between
    hash_bytes = TaggedBytes(ContractId, ContractHash.size, "Contract_hash", _ORIGINATED, _PADDING)
    originated = padded(Named("Contract_hash", hash_bytes), len(_PADDING))
    # (Case: the library's own predicates, which do not raise, are not guarded)
    cases = [
        Case(0, "Implicit", implicit, match=lambda v: _is_tagged(_IMPLICIT, v)),
        Case(1, "Originated", originated, match=lambda v: _is_tagged(_ORIGINATED, v)),
    ]
    # the value checked first, as to_json checks it: one bad value, one error
    return conv(_checked, identity, union(cases))


contract_id: Encoding[ContractId] = def_(
    "contract_id",
    DirectJson(
        conv(_to_b58check, ContractId.from_b58check, string),
        _binary(),
        _to_b58check,
        ContractId.from_b58check,
    ),
    title="A contract handle",
    description=(
        "A contract notation as given to an RPC or inside scripts. Can be a base58 "
        "implicit contract hash or a base58 originated contract hash."
    ),
)
"""``Contract_repr.encoding`` (see the module's notes)."""


publish(__name__, globals())  # the encodings above pickle by reference
