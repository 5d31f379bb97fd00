"""Fixed-size forms: ``fixed.string(n)``, ``fixed.bytes_(n)``, ``fixed.list_(n, e)``,
``fixed.array(n, e)`` — exactly ``n`` bytes (or elements), no header.

>>> bytes_(2).encode(b"ab").hex()
'6162'
"""

from __future__ import annotations

from typing import Any

from .core import Encoding, combinator
from .sequences import ListEncoding, fixed_array, fixed_list
from .strings import FixedBytes


@combinator
def string(n: int) -> FixedBytes:
    """Exactly ``n`` bytes of string (``str``, or ``bytes`` when not UTF-8)."""
    return FixedBytes(text=True, length=n)


@combinator
def bytes_(n: int) -> FixedBytes:
    """Exactly ``n`` bytes; JSON: hex."""
    return FixedBytes(text=False, length=n)


@combinator
def list_(n: int, e: Encoding[Any]) -> ListEncoding:
    """Exactly ``n`` elements, no header."""
    return fixed_list(n, e)


@combinator
def array(n: int, e: Encoding[Any]) -> ListEncoding:
    """Exactly ``n`` elements, no header (errors say "array")."""
    return fixed_array(n, e)
