"""Size wrappers: ``dynamic_size``, ``check_size`` and ``padded``.

* ``dynamic_size(e, kind="Uint30")``: a big-endian header holding the **byte**
  size of ``e``'s bytes (4, 2 or 1 bytes), then ``e``; the header bounds the
  frame ``e`` is read in, so a variable-size ``e`` becomes dynamic. JSON: ``e``'s.
* ``check_size(limit, e)``: ``e``'s bytes, at most ``limit`` of them (checked
  when writing and when reading). JSON: ``e``'s.
* ``padded(e, n)``: fixed-size ``e`` then ``n`` zero bytes (reading rejects
  non-zero padding). JSON: ``e``'s.

>>> from data_encoding import string, uint8
>>> dynamic_size(string, kind="Uint8").encode("abc").hex()
'0700000003616263'
>>> padded(uint8, 2).encode(7).hex()
'070000'
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from ..errors import DecodeError, DefinitionError
from .core import (
    Atom,
    Encoding,
    combinator,
    expect,
    expect_encoding,
)
from .leaves import AtomEncoding
from .size import DYNAMIC, Fixed
from .wrappers import Wrapper

T = TypeVar("T")

HeaderKind = Literal["Uint30", "Uint16", "Uint8"]

HEADERS: dict[str, tuple[str, int, int]] = {
    # kind: (struct code, width, largest size it can state)
    "Uint30": (">I", 4, 2**30 - 1),
    "Uint16": (">H", 2, 2**16 - 1),
    "Uint8": (">B", 1, 2**8 - 1),
}


def header_kind(kind: object, where: str) -> HeaderKind:
    """``kind``, when it names a header (else a :class:`DefinitionError`)."""
    if not isinstance(kind, str) or kind not in HEADERS:
        raise DefinitionError(f"{where}: kind must be one of {sorted(HEADERS)}, not {kind!r}")
    return kind  # type: ignore[return-value]


def header_for(limit: int) -> HeaderKind:
    """The narrowest header able to state sizes up to ``limit``."""
    return "Uint8" if limit <= 255 else "Uint16" if limit <= 65535 else "Uint30"


class DynamicSize(Wrapper[T]):
    def __init__(self, inner: Encoding[T], kind: HeaderKind = "Uint30") -> None:
        expect_encoding(inner, "dynamic_size")
        kind = header_kind(kind, "dynamic_size")
        largest = HEADERS[kind][2]
        if isinstance(inner.size, Fixed) and inner.size.n > largest:
            raise DefinitionError(
                f"dynamic_size: a {inner.size.n}-byte value never fits a {kind} header "
                f"(at most {largest}); use a wider kind"
            )
        self.inner = inner
        self.kind = kind
        self.size = DYNAMIC
        self.nullable = inner.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        return (DynamicSize, (self.inner, self.kind))


@combinator
def dynamic_size(e: Encoding[T], kind: HeaderKind = "Uint30") -> DynamicSize[T]:
    """Prefix ``e`` with a header stating its byte size (``Uint30``, ``Uint16``, ``Uint8``)."""
    return DynamicSize(e, kind)


class CheckSize(Wrapper[T]):
    def __init__(self, limit: int, inner: Encoding[T]) -> None:
        expect(limit, int, "check_size", "the limit is an int")
        expect_encoding(inner, "check_size")
        if limit < 0:
            raise DefinitionError(f"check_size: the limit must not be negative, not {limit}")
        self.limit = limit
        self.inner = inner
        self.size = inner.size
        self.nullable = inner.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        return (type(self), (self.limit, self.inner))


@combinator
def check_size(limit: int, e: Encoding[T]) -> CheckSize[T]:
    """``e``, refusing values whose binary form exceeds ``limit`` bytes."""
    return CheckSize(limit, e)


class Padded(Wrapper[T], AtomEncoding[T]):
    """A fixed-size encoding followed by zero bytes, as one fixed-width atom.

    Binary from :class:`AtomEncoding`, JSON and value checks from ``inner``.
    """

    def __init__(self, inner: Encoding[T], padding: int) -> None:
        expect_encoding(inner, "padded")
        expect(padding, int, "padded", "the padding is an int")
        if padding <= 0:
            raise DefinitionError(f"padded: the padding must be positive, not {padding}")
        if not isinstance(inner.size, Fixed):
            raise DefinitionError(
                f"padded: cannot pad an encoding of size {inner.size}; only fixed sizes can be"
            )
        self.inner = inner
        self.padding = padding
        self.nullable = inner.nullable
        width = inner.size.n + padding
        zeros = bytes(padding)
        inner_read, inner_write = inner._read, inner._write
        inner_width = inner.size.n

        # The padded value as one fixed-width atom: the whole span is a byte
        # string that the inner encoding reads and writes.
        def unpack(raw: bytes) -> Any:
            # offsets in ``raw`` are relative to the atom: the caller shifts them
            if raw[inner_width:] != zeros:
                first = next(i for i in range(inner_width, width) if raw[i])
                raise DecodeError(
                    "invalid_padding",
                    f"non-zero padding byte 0x{raw[first]:02x} (padding must be zeros)",
                    offset=first,
                )
            value, _ = inner_read(raw, 0, inner_width)
            return value

        def pack(value: Any) -> bytes:
            out = bytearray()
            inner_write(out, value)
            return bytes(out) + zeros

        def check(value: Any) -> None:
            inner_write(bytearray(), value)

        AtomEncoding.__init__(self, Atom(f"{width}s", width, check, pack, unpack), "padded value")

    def _rebuild(self) -> tuple[Any, ...]:
        return (Padded, (self.inner, self.padding))


@combinator
def padded(e: Encoding[T], n: int) -> Padded[T]:
    """Fixed-size ``e`` followed by ``n`` zero bytes (reading rejects non-zero padding)."""
    return Padded(e, n)
