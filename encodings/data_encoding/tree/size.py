"""Size classes, and the rules that keep binary layouts unambiguous.

Every encoding has one of three size classes, computed when it is built:

* ``Fixed(n)``: always exactly ``n`` bytes;
* ``DYNAMIC``: the bytes say where the value ends (a length header, a tag,
  Zarith continuation bits, a presence flag);
* ``VARIABLE``: the value runs to the end of its frame (the whole input, or
  the payload of an enclosing length header); only the context knows its size.

>>> Fixed(2) + Fixed(3)
Fixed(5)
>>> merge_cases([Fixed(2), Fixed(2)], tag_size=1)
Fixed(3)
>>> merge_cases([Fixed(1), Fixed(2)], tag_size=1)
DYNAMIC
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..errors import DefinitionError


@dataclass(frozen=True, slots=True)
class Fixed:
    """Exactly ``n`` bytes."""

    n: int

    def __add__(self, other: Fixed) -> Fixed:
        return Fixed(self.n + other.n)

    def __repr__(self) -> str:
        return f"Fixed({self.n})"


class _Unsized:
    """``DYNAMIC`` or ``VARIABLE`` (two singletons)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> str:
        return self.name


DYNAMIC: Final = _Unsized("DYNAMIC")
VARIABLE: Final = _Unsized("VARIABLE")

Size = Fixed | _Unsized


def fixed_width(size: Size) -> int | None:
    """``n`` for ``Fixed(n)``, else ``None``."""
    return size.n if isinstance(size, Fixed) else None


def sequence_size(sizes: Iterable[Size], what: str) -> Size:
    """The size of parts laid out one after another (a record or a tuple).

    At most one part may be variable, and only fixed parts may follow it: they
    are then read from the end of the frame. ``what`` ("objects" or "tuples")
    names the construct in the error message.
    """
    total = 0
    dynamic = False
    variable = False
    for size in sizes:
        if isinstance(size, Fixed):
            total += size.n
        elif size is DYNAMIC:
            if variable:
                raise DefinitionError(
                    f"cannot merge {what}: a dynamic-size element follows a variable-size one, "
                    "so the reader could not tell where the first ends; put the dynamic element "
                    "first, or wrap the variable one in dynamic_size()"
                )
            dynamic = True
        else:
            if variable:
                raise DefinitionError(
                    f"cannot merge {what}: two variable-size elements in one layout; "
                    "wrap one of them in dynamic_size()"
                )
            variable = True
    if variable:
        return VARIABLE
    if dynamic:
        return DYNAMIC
    return Fixed(total)


def merge_cases(sizes: Sequence[Size], tag_size: int) -> Size:
    """The size of a union whose cases have ``sizes``, tag included."""
    if any(size is VARIABLE for size in sizes):
        return VARIABLE
    widths = {fixed_width(size) for size in sizes}
    if len(widths) == 1 and None not in widths:
        (width,) = widths
        assert width is not None
        return Fixed(width + tag_size)
    return DYNAMIC
