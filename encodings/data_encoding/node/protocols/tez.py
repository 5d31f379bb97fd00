"""Amounts of tez (``Tez_repr.encoding``, the same in protocols 004 to 007).

A value is an ``int``: a number of mutez (10^-6 tez), which the protocols
keep in an ``int64`` and never let go negative. Binary: Zarith ``n``, at
most 10 bytes (the reference's ``check_size 10``: ``size_limit_exceeded``
beyond); a number of 10 bytes beyond the ``int64`` range reads as
``out_of_range`` (the reference's ``Z.to_int64`` fails). JSON: a decimal
string (``n``'s). Described as ``def "mutez"``.

>>> tez.encode(7322135).hex(), tez.to_json(7322135)
('97f4be03', '7322135')
>>> tez.decode(bytes.fromhex("80808080808080808001"))  # 2^63
Traceback (most recent call last):
...
data_encoding.errors.DecodeError: 9223372036854775808 mutez is beyond the int64 range of an...
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ...errors import DecodeError, EncodeError
from ...tree.core import Encoding, publish
from ...tree.framing import check_size
from ...tree.leaves import is_integer
from ...tree.wrappers import conv, def_
from ...tree.zarith import n

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["MAX_MUTEZ", "tez"]

MAX_MUTEZ: Final = 2**63 - 1
"""The largest amount: the protocols' ``int64`` of mutez."""

_MAX_BYTES: Final = 10
"""The reference's ``check_size`` bound on the Zarith bytes (70 bits)."""


def _beyond(amount: int) -> str:
    return f"{amount} mutez is beyond the int64 range of an amount"


def _to_wire(value: Any) -> Any:
    # n checks the rest (a type, a sign) with its own errors
    if is_integer(value) and value > MAX_MUTEZ:
        raise EncodeError("out_of_range", _beyond(value))
    return value


def _from_wire(amount: int) -> int:
    if amount > MAX_MUTEZ:
        raise DecodeError("out_of_range", _beyond(amount))
    return amount


def _amounts() -> SearchStrategy[int]:
    from hypothesis import strategies as st

    return st.integers(0, 127) | st.integers(0, MAX_MUTEZ)


# the size checked inside the conversion: a number of 11 bytes or more is
# ``size_limit_exceeded`` as in the reference (which stops reading at the
# limit), not the conversion's ``out_of_range``; the same bytes and values
tez: Encoding[int] = def_(
    "mutez", conv(_to_wire, _from_wire, check_size(_MAX_BYTES, n), values=_amounts)
)
"""``Tez_repr.encoding``: mutez, Zarith ``n`` in the ``int64`` range; JSON a decimal string."""


publish(__name__, globals())  # the encodings above pickle by reference
