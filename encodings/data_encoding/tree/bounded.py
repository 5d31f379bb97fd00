"""Bounded forms: ``bounded.string(n)`` and ``bounded.bytes_(n)`` — at most ``n``
bytes, after a length header of the narrowest width that holds ``n``; JSON:
a plain string (or hex) of at most ``n`` bytes.

>>> string(22).encode("hi").hex()
'026869'
"""

from __future__ import annotations

from .core import combinator
from .strings import Bounded


@combinator
def string(n: int) -> Bounded:
    """A string of at most ``n`` bytes (1-byte header up to 255, 2 up to 65535, else 4)."""
    return Bounded(text=True, limit=n)


@combinator
def bytes_(n: int) -> Bounded:
    """Bytes, at most ``n`` of them; JSON: hex."""
    return Bounded(text=False, limit=n)
