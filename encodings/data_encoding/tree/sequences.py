"""Lists and arrays.

=====================================  =============================================  =========
combinator                             binary                                         JSON
=====================================  =============================================  =========
``list_(e, max_length=None)``          uint30 **byte** size, then the elements        array
``variable.list_(e, max_length=)``     the elements, to the end of the frame          array
``fixed.list_(n, e)``                  exactly ``n`` elements, no header              array
``list_with_length(kind, e, ...)``     element **count** (Uint8/Uint16/Uint30), elts   array
=====================================  =============================================  =========

``array`` and its variants are the same with "array" in error names (Python
has one list type: values are ``list`` either way). ``max_length`` bounds the
element count in binary (writing and reading), not in JSON, as in the
reference. Elements must not be variable-size (wrap them in
``dynamic_size``) nor zero-width (they could not be counted).

Lists of fixed-width leaves are read and written with one ``struct`` call.

>>> from data_encoding import uint16, string
>>> list_(uint16).encode([1, 2]).hex()
'0000000400010002'
>>> list_with_length("Uint8", uint16).encode([1, 2]).hex()
'0200010002'
"""

from __future__ import annotations

from typing import Any, Literal

from ..errors import (
    DefinitionError,
)
from .core import (
    Encoding,
    combinator,
    expect,
    expect_encoding,
)
from .framing import HEADERS, CheckSize, DynamicSize, HeaderKind, header_kind
from .size import DYNAMIC, VARIABLE, Fixed, Size

Kind = Literal["list", "array"]


class ListEncoding(Encoding[list[Any]]):
    """Elements one after the other; how many is said by ``length``:

    * ``("frame", None)``: as many as fill the frame (header-less);
    * ``("exactly", n)``: exactly ``n``;
    * ``("count", kind)``: a count header of that kind comes first.
    """

    def __init__(
        self,
        elt: Encoding[Any],
        max_length: int | None,
        kind: Kind,
        length: tuple[str, Any] = ("frame", None),
    ) -> None:
        mode, arg = length
        where = (
            f"{kind}_with_length" if mode == "count" else "array" if kind == "array" else "list_"
        )
        expect_encoding(elt, where)
        if max_length is not None:
            expect(max_length, int, where, "max_length is an int")
        if mode == "exactly":
            expect(arg, int, where, "the length is an int")
        what = f"an {kind}" if kind == "array" else f"a {kind}"
        if elt.size is VARIABLE:
            raise DefinitionError(
                f"cannot insert a variable-size element in {what}: its end could not be "
                "found; wrap the element in dynamic_size()"
            )
        if elt.size == Fixed(0):
            raise DefinitionError(
                f"cannot insert a zero-width element in {what}: the elements could not be counted"
            )
        if max_length is not None and max_length < 0:
            raise DefinitionError(f"{kind}: max_length must not be negative")
        self.elt = elt
        self.max_length = max_length
        self.kind = kind
        self.count_mode = length
        size: Size = VARIABLE
        if mode == "exactly":
            if arg <= 0:
                raise DefinitionError(f"fixed.{kind}_: the length must be positive, not {arg}")
            size = Fixed(arg * elt.size.n) if isinstance(elt.size, Fixed) else DYNAMIC
        elif mode == "count":
            largest = HEADERS[arg][2]
            if max_length is not None and max_length > largest:
                raise DefinitionError(
                    f"{kind}_with_length: max_length {max_length} exceeds what a {arg} "
                    f"count can state ({largest})"
                )
            self.max_length = largest if max_length is None else max_length
            size = DYNAMIC
        self.size = size

    def _rebuild(self) -> tuple[Any, ...]:
        return (ListEncoding, (self.elt, self.max_length, self.kind, self.count_mode))


def variable_list(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    """Header-less list: the elements fill the frame."""
    return _variable(e, max_length, "list")


def variable_array(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    return _variable(e, max_length, "array")


def _variable(e: Encoding[Any], max_length: int | None, kind: Kind) -> Encoding[list[Any]]:
    inner = ListEncoding(e, max_length, kind)
    if max_length is not None and isinstance(e.size, Fixed):
        # as the reference does: a byte limit equivalent to the element limit
        return CheckSize(e.size.n * max_length, inner)
    return inner


@combinator
def list_(e: Encoding[Any], max_length: int | None = None) -> DynamicSize[list[Any]]:
    """A list with a uint30 byte-size header (see the module documentation)."""
    return DynamicSize(_variable(e, max_length, "list"))


@combinator
def array(e: Encoding[Any], max_length: int | None = None) -> DynamicSize[list[Any]]:
    """Like :func:`list_`; errors say "array"."""
    return DynamicSize(_variable(e, max_length, "array"))


def fixed_list(n: int, e: Encoding[Any]) -> ListEncoding:
    """Exactly ``n`` elements, no header."""
    return ListEncoding(e, None, "list", ("exactly", n))


def fixed_array(n: int, e: Encoding[Any]) -> ListEncoding:
    return ListEncoding(e, None, "array", ("exactly", n))


@combinator
def list_with_length(
    kind: HeaderKind, e: Encoding[Any], max_length: int | None = None
) -> ListEncoding:
    """A list whose header is its element **count** (``Uint8``, ``Uint16`` or ``Uint30``)."""
    return ListEncoding(e, max_length, "list", ("count", header_kind(kind, "list_with_length")))


@combinator
def array_with_length(
    kind: HeaderKind, e: Encoding[Any], max_length: int | None = None
) -> ListEncoding:
    return ListEncoding(e, max_length, "array", ("count", header_kind(kind, "array_with_length")))
