"""Shared machinery of the leaf encodings: fixed-width atoms and error helpers.

A leaf that is an :class:`~data_encoding.tree.core.Atom` is an
:class:`AtomEncoding`: it states its struct code and its checks, and the
binary pass reads and writes every atom alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..errors import (
    EncodeError,
    JsonError,
    describe_value,
)
from ..jsonvalue import type_name
from .core import Atom, Encoding
from .size import Fixed

T = TypeVar("T")


def wrong_type(expected: str, got: object) -> JsonError:
    return JsonError("wrong_type", f"expected {expected}, got {type_name(got)}")


def wrong_value_type(expected: str, got: object) -> EncodeError:
    return EncodeError(
        "wrong_type", f"expected {expected}, got {type(got).__name__} {describe_value(got)}"
    )


class AtomEncoding(Encoding[T]):
    """A fixed-width leaf: everything derives from its :class:`Atom`."""

    #: its ``struct`` code, checks and conversions
    atom: Atom
    #: what it is, in error messages (``"bool"``, ``"fixed.string(4)"``)
    what: str

    def __init__(self, atom: Atom, what: str) -> None:
        self.atom = atom
        self.what = what
        self.size = Fixed(atom.width)


def is_integer(value: object) -> bool:
    """An ``int`` (a subclass too), but not a ``bool``: JSON tells them apart,
    and so does every encoding (``True`` is no 1)."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def int_check(lo: int, hi: int, name: str) -> Callable[[Any], None]:
    """A check that a value is an integer (not a ``bool``) within ``[lo, hi]``."""

    def check(value: Any) -> None:
        if not is_integer(value):
            raise wrong_value_type(f"an integer ({name})", value)
        if not lo <= value <= hi:
            raise EncodeError(
                "invalid_int", f"{describe_value(value)} is out of range for {name} [{lo}, {hi}]"
            )

    return check


def checked(check: Callable[[Any], None], convert: Callable[[Any], T]) -> Callable[[Any], T]:
    """``convert`` of a value that passes ``check``: the ``pack`` of a number,
    whose exact type is the common case (an ``int`` subclass is converted)."""

    def checked_convert(value: Any) -> T:
        check(value)
        return convert(value)

    return checked_convert
