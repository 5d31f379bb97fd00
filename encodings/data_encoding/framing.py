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

import struct
from typing import Any, Literal, TypeVar

from .core import (
    Atom,
    Encoding,
    Reader,
    Sizer,
    Writer,
    combinator,
    expect,
    expect_encoding,
)
from .emit import Gen, Path, Put, Take, compile_reader, compile_writer
from .errors import DecodeError, DefinitionError, EncodeError
from .leaves import AtomEncoding
from .size import DYNAMIC, Fixed

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


class Wrapper(Encoding[T]):
    """An encoding that delegates its JSON form and cheap checks to ``inner``."""

    inner: Encoding[T]

    def _accepts(self, value: Any) -> bool:
        return self.inner._accepts(value)

    def _discriminants(self) -> dict[str, str]:
        return self.inner._discriminants()

    def _object_fields(self) -> frozenset[str] | None:
        return self.inner._object_fields()

    def _tuple_arity(self) -> int | None:
        return self.inner._tuple_arity()


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

    _inlines = True

    def _inline_read(self, g: Gen, target: str, end: str, path: Path) -> None:
        code, width, largest = HEADERS[self.kind]
        size, stop = g.var("size"), g.var("stop")
        g.take(Take(code[1:], width, size, path=path, what="a length header"))
        g.flush_read(end)
        g.line(f"{stop} = pos + {size}")
        with g.block(f"if {stop} > {end} or {size} > {largest}:"):
            g.raise_at(f"{g.ref(self._bad_frame)}({size}, pos - {width}, {end})", path)
        g.moved()
        self.inner._emit_read(g, target, stop, path)
        g.flush_read(stop)
        if g.ended != stop:
            with g.block(f"if pos != {stop}:"):
                g.raise_at(f"{g.ref(_unread)}(pos, {stop}, {size})", path)
        g.moved()

    def _bad_frame(self, size: int, pos: int, end: int) -> DecodeError:
        start = pos + HEADERS[self.kind][1]
        if start + size > end:
            return DecodeError(
                "not_enough_data",
                f"length header says {size} bytes but only {end - start} remain",
                offset=pos,
            )
        largest = HEADERS[self.kind][2]
        return DecodeError("invalid_size", f"length header {size} exceeds {largest}", offset=pos)

    def _too_big(self, size: int) -> EncodeError:
        largest = HEADERS[self.kind][2]
        return EncodeError(
            "size_limit_exceeded",
            f"{size} bytes do not fit a {self.kind} length header (at most {largest})",
        )

    def _inline_write(self, g: Gen, v: str, path: Path) -> None:
        code, width, largest = HEADERS[self.kind]
        g.flush_write()  # earlier fields fail first
        raw = self.inner._emit_bytes(g, v, path)
        if raw is not None:  # the size is known before writing: no placeholder
            with g.block(f"if len({raw}) > {largest}:"):
                g.raise_at(f"{g.ref(self._too_big)}(len({raw}))", path)
            g.put(Put(code[1:], f"len({raw})"))
            g.flush_write()
            g.line(f"out += {raw}")
            return
        mark, size = g.var("mark"), g.var("size")
        g.line(f"{mark} = len(out)")
        g.line(f"out += {bytes(width)!r}")
        self.inner._emit_write(g, v, path)
        g.flush_write()
        g.line(f"{size} = len(out) - {mark} - {width}")
        with g.block(f"if {size} > {largest}:"):
            g.line(f"del out[{mark}:]")
            g.raise_at(f"{g.ref(self._too_big)}({size})", path)
        g.line(f"{g.ref(struct.Struct(code).pack_into)}(out, {mark}, {size})")

    def _build_reader(self) -> Reader:
        return compile_reader(self)

    def _build_writer(self) -> Writer:
        return compile_writer(self)

    def _build_sizer(self) -> Sizer:
        width, largest = HEADERS[self.kind][1:]
        size_inner = self.inner._size_of
        too_big = self._too_big

        def size_of(value: Any) -> int:
            size = size_inner(value)
            if size > largest:
                raise too_big(size)
            return width + size

        return size_of


def _unread(pos: int, stop: int, size: int) -> DecodeError:
    return DecodeError(
        "extra_bytes", f"extra bytes: {stop - pos} unread in a {size}-byte frame", offset=pos
    )


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

    def _build_reader(self) -> Reader:
        # The inner value is read in its full frame and its size checked after:
        # every read is bounded by the input anyway, and an inner limit (a
        # list's max_length) then reports its own, more precise error first.
        limit = self.limit
        read_inner = self.inner._read

        def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            value, after = read_inner(buf, pos, end)
            if after - pos > limit:
                raise DecodeError(
                    "size_limit_exceeded",
                    f"size limit exceeded: {after - pos} bytes where at most {limit} are allowed",
                    offset=pos + limit,
                )
            return value, after

        return read

    def _build_writer(self) -> Writer:
        limit = self.limit
        write_inner = self.inner._write

        def write(out: bytearray, value: Any) -> None:
            mark = len(out)
            write_inner(out, value)
            if len(out) - mark > limit:
                size = len(out) - mark
                del out[mark:]
                raise EncodeError(
                    "size_limit_exceeded",
                    f"size limit exceeded: {size} bytes where at most {limit} are allowed",
                )

        return write

    def _build_sizer(self) -> Sizer:
        limit = self.limit
        size_inner = self.inner._size_of

        def size_of(value: Any) -> int:
            size = size_inner(value)
            if size > limit:
                raise EncodeError(
                    "size_limit_exceeded",
                    f"size limit exceeded: {size} bytes where at most {limit} are allowed",
                )
            return size

        return size_of


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
