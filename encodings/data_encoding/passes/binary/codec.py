"""The binary pass: every node's reader, writer and sizer.

* a reader ``read(buf, pos, end) -> (value, new_pos)`` over a ``bytes``
  buffer, with an absolute position and the end of the current frame;
* a writer ``write(out, value)`` that appends to one ``bytearray`` (and, on
  failure, leaves nothing of its value in it);
* a sizer ``size_of(value) -> int``, checked like the writer.

The entry points ``encode(value) -> bytes`` and ``decode(data)`` (the whole
input) are :mod:`.compiled`'s: the generated codec's ops rendered once more,
or a call of the writer and reader.

Composites are compiled into one generated function each (lowered to the
op IR of :mod:`.ops` by :mod:`.lowering`, then rendered); leaves,
and composites with faster whole-value code (a list of numbers in one
``struct`` call), get closures here. One function per
node type and piece, chosen by :func:`functools.singledispatch`; a node
whose binary form and values are another's (a ``def_``, ``delayed``, the
binary side of ``splitted``) takes that node's pieces
(:func:`same_binary`). Each piece is built once per node and kept on it: the
pieces are the node's ``_read``, ``_write`` and ``_size_of``
(:class:`~data_encoding.tree.core.Encoding` builds them here, on first use).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import singledispatch
from typing import Any, NoReturn

from ...depth import knot, tied
from ...errors import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    describe_value,
    not_enough_data,
)
from ...tree.anyjson import Bson
from ...tree.bson import decode_bson, encode_bson
from ...tree.core import Encoding, Reader, Sizer, Writer
from ...tree.framing import HEADERS, CheckSize, DynamicSize
from ...tree.leaves import AtomEncoding
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.size import Fixed
from ...tree.strings import RawBytes, text_of
from ...tree.unions import Union
from ...tree.wrappers import Conv, Mu, converted_at, guard, refusal
from ...tree.zarith import Zarith, read_n, read_z, size_n, size_z, write_n, write_z
from ..choosing import member
from ..dispatch import takes_default
from ..transparent import emitted_for
from .compiled import (
    compile_nested,
    compile_reader,
    compile_writer,
)
from .inline import inline_ops
from .rules import (
    canonical,
    check_length,
    fixed_atom,
    not_canonical,
    read_count,
    reads_inline,
    reads_whole,
    same_binary,
    select_write,
    size_limit_exceeded,
    table_write,
    too_big,
    too_long,
    unexpected_tag,
    writes_inline,
    writes_whole,
)

__all__ = [
    "atom_reader",
    "build_reader",
    "build_sizer",
    "build_writer",
    "check_size_reader",
    "check_size_writer",
    "whole_list_reader",
]


# ------------------------------------------------------------ readers


@takes_default(
    {"its reader is its inline code, compiled (inline.inline_ops)": (Parts, DynamicSize)},
    through="binary",
)
@singledispatch
def build_reader(e: Encoding[Any]) -> Reader:
    """``e``'s reader. By default: the reader of the node whose bytes and
    values ``e``'s are, else ``e``'s inline code as a function of its own."""
    inner = same_binary(e)
    if inner is not None:
        return inner._read
    if inline_ops(e).read is None:
        raise NotImplementedError(f"no binary reader for {type(e).__name__}")
    return compile_reader(e)


@takes_default(
    {"its writer is its inline code, compiled (inline.inline_ops)": (Parts, DynamicSize)},
    through="binary",
)
@singledispatch
def build_writer(e: Encoding[Any]) -> Writer:
    """``e``'s writer (by default, as :func:`build_reader`)."""
    inner = same_binary(e)
    if inner is not None:
        return inner._write
    if inline_ops(e).write is None:
        raise NotImplementedError(f"no binary writer for {type(e).__name__}")
    return compile_writer(e)


@takes_default(
    {"measured by writing: no faster way is known": (Parts, ListEncoding, Union, Bson)},
    through="binary",
)
@singledispatch
def build_sizer(e: Encoding[Any]) -> Sizer:
    """``e``'s sizer. By default: a fixed-size encoding knows its size (after
    checking the value as the writer would), others measure by writing."""
    inner = same_binary(e)
    if inner is not None:
        return inner._size_of
    write = e._write
    if isinstance(e.size, Fixed):
        width = e.size.n

        def size_of(value: Any) -> int:
            write(bytearray(), value)  # validates exactly as encode would
            return width

        return size_of

    def measure(value: Any) -> int:
        out = bytearray()
        write(out, value)
        return len(out)

    return measure


# ------------------------------------------------------------ leaves


@build_reader.register(AtomEncoding)
def _leaf_reader(e: AtomEncoding[Any]) -> Reader:
    return atom_reader(e, e.atom.unpack)


def atom_reader(e: AtomEncoding[Any], unpack: Callable[[Any], Any] | None) -> Reader:
    """The reader of atom ``e`` whose raw ``struct`` value ``unpack`` reads."""
    atom = e.atom
    width, what = atom.width, e.what
    if not atom.fmt:
        assert unpack is not None

        def read_zero(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            return unpack(None), pos

        return read_zero
    unpack_from = struct.Struct(">" + atom.fmt).unpack_from

    if unpack is None:

        def read_plain(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            if end - pos < width:
                raise not_enough_data(pos, width, end, what)
            return unpack_from(buf, pos)[0], pos + width

        return read_plain

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        if end - pos < width:
            raise not_enough_data(pos, width, end, what)
        (raw,) = unpack_from(buf, pos)
        try:
            return unpack(raw), pos + width
        except DecodeError as err:
            raise err.shift(pos) from None

    return read


@build_writer.register(AtomEncoding)
def _leaf_writer(e: AtomEncoding[Any]) -> Writer:
    atom = e.atom
    check, pack_value, exact = atom.check, atom.pack, atom.exact
    if not atom.fmt:

        def write_zero(out: bytearray, value: Any) -> None:
            check(value)

        return write_zero
    pack = struct.Struct(">" + atom.fmt).pack

    def write(out: bytearray, value: Any) -> None:
        try:
            if pack_value is not None and type(value) is not exact:
                value = pack_value(value)
            out += pack(value)
        except Exception as exc:  # struct.error, TypeError, a pack function's refusal
            _refuse(check, value, exc)

    return write


def _refuse(check: Callable[[Any], None], value: Any, exc: Exception) -> NoReturn:
    """Turn a low-level failure to write ``value`` into the precise :class:`EncodeError`.

    Runs only after the fast path failed: ``check`` raises the error that names
    the problem; if it finds none, the original failure is reported as is.
    """
    check(value)
    if isinstance(exc, EncodeError):
        raise exc
    raise EncodeError("invalid_value", f"cannot write {describe_value(value)}: {exc}") from None


@build_sizer.register(AtomEncoding)
def _leaf_sizer(e: AtomEncoding[Any]) -> Sizer:
    check, width = e.atom.check, e.atom.width

    def size_of(value: Any) -> int:
        check(value)
        return width

    return size_of


@build_reader.register
def _zarith_reader(e: Zarith) -> Reader:
    return read_n if e.natural else read_z


@build_writer.register
def _zarith_writer(e: Zarith) -> Writer:
    return write_n if e.natural else write_z


@build_sizer.register
def _zarith_sizer(e: Zarith) -> Sizer:
    return size_n if e.natural else size_z


@build_reader.register
def _raw_bytes_reader(e: RawBytes) -> Reader:
    if e.text:

        def read_text(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            return text_of(buf[pos:end]), end

        return read_text

    def read_bytes(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        return buf[pos:end], end

    return read_bytes


@build_writer.register
def _raw_bytes_writer(e: RawBytes) -> Writer:
    to_bytes = e.to_bytes

    def write(out: bytearray, value: Any) -> None:
        out += to_bytes(value)

    return write


@build_sizer.register
def _raw_bytes_sizer(e: RawBytes) -> Sizer:
    to_bytes = e.to_bytes
    if e.text:
        return lambda value: len(to_bytes(value))

    def size_of(value: Any) -> int:
        to_bytes(value)
        return len(value)

    return size_of


@build_reader.register
def _bson_reader(e: Bson) -> Reader:
    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        return decode_bson(buf, pos, end), end

    return read


@build_writer.register
def _bson_writer(e: Bson) -> Writer:
    def write(out: bytearray, value: Any) -> None:
        out += encode_bson(value)

    return write


# ------------------------------------------------------------ frames


@build_sizer.register(DynamicSize)
def _dynamic_size_sizer(e: DynamicSize[Any]) -> Sizer:
    width, largest = HEADERS[e.kind][1:]
    size_inner = e.inner._size_of

    def size_of(value: Any) -> int:
        size = size_inner(value)
        if size > largest:
            raise too_big(e, size)
        return width + size

    return size_of


@build_reader.register(CheckSize)
def _check_size_reader(e: CheckSize[Any]) -> Reader:
    return check_size_reader(e, e.inner._read)


def check_size_reader(e: CheckSize[Any], read_inner: Reader) -> Reader:
    """``e``'s reader, its inner value read by ``read_inner``."""
    # The inner value is read in its full frame and its size checked after:
    # every read is bounded by the input anyway, and an inner limit (a list's
    # max_length) then reports its own, more precise error first.
    limit = e.limit

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        value, after = read_inner(buf, pos, end)
        if after - pos > limit:
            raise size_limit_exceeded(DecodeError, after - pos, limit, pos + limit)
        return value, after

    return read


@build_writer.register(CheckSize)
def _check_size_writer(e: CheckSize[Any]) -> Writer:
    return check_size_writer(e, e.inner._write)


def check_size_writer(e: CheckSize[Any], write_inner: Writer) -> Writer:
    """``e``'s writer, its inner value written by ``write_inner``."""
    limit = e.limit

    def write(out: bytearray, value: Any) -> None:
        mark = len(out)
        write_inner(out, value)
        if len(out) - mark > limit:
            size = len(out) - mark
            del out[mark:]
            raise size_limit_exceeded(EncodeError, size, limit)

    return write


@build_sizer.register(CheckSize)
def _check_size_sizer(e: CheckSize[Any]) -> Sizer:
    limit, size_inner = e.limit, e.inner._size_of

    def size_of(value: Any) -> int:
        size = size_inner(value)
        if size > limit:
            raise size_limit_exceeded(EncodeError, size, limit)
        return size

    return size_of


# ------------------------------------------------------------ lists


@build_reader.register
def _list_reader(e: ListEncoding) -> Reader:
    if not reads_whole(e):
        return compile_reader(e)
    atom = fixed_atom(e.elt)
    assert atom is not None
    return whole_list_reader(e, atom.unpack)


def whole_list_reader(e: ListEncoding, unpack: Callable[[Any], Any] | None) -> Reader:
    """The reader of list ``e`` of fixed-width leaf elements, read by one
    ``iter_unpack``, each raw value then by ``unpack``."""
    atom = fixed_atom(e.elt)
    assert atom is not None
    width, unit = atom.width, struct.Struct(">" + atom.fmt)
    max_length = e.max_length

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        count, pos = read_count(e, buf, pos, end)
        if count is None:
            count, extra = divmod(end - pos, width)
            if max_length is not None and (count > max_length or (count == max_length and extra)):
                raise too_long(e, DecodeError, count + (extra > 0)).at(pos + max_length * width)
            if extra:
                at = pos + count * width
                raise not_enough_data(at, width, end).within(count)
        elif end - pos < count * width:
            full = (end - pos) // width
            raise not_enough_data(pos + full * width, width, end).within(full)
        stop = pos + count * width
        raw = [t[0] for t in unit.iter_unpack(memoryview(buf)[pos:stop])]
        if unpack is None:
            return raw, stop
        out = []
        for i, x in enumerate(raw):
            try:
                out.append(unpack(x))
            except DataEncodingError as err:
                raise err.shift(pos + i * width).within(i) from None
        return out, stop

    return read


@build_writer.register
def _list_writer(e: ListEncoding) -> Writer:
    if not writes_whole(e):
        return compile_writer(e)
    atom = fixed_atom(e.elt)  # one-code number elements: one ``pack``
    assert atom is not None and atom.pack is not None  # an atom with an exact type converts
    mode, arg = e.count_mode
    header = struct.Struct(HEADERS[arg][0]).pack if mode == "count" else None
    code, check, pack, exact = atom.fmt, atom.check, atom.pack, {atom.exact}

    def write_fused(out: bytearray, value: Any) -> None:
        check_length(e, value)
        if header is not None:
            out += header(len(value))
        try:
            # values of exactly the type go to struct as they are (a bool, an
            # int to struct, must not: it takes ``pack``)
            items = value if set(map(type, value)) <= exact else map(pack, value)
            out += struct.pack(f">{len(value)}{code}", *items)
        except Exception as exc:  # find the element at fault
            for i, x in enumerate(value):
                try:
                    check(x)
                except DataEncodingError as err:
                    raise err.within(i) from None
            raise EncodeError("invalid_value", f"cannot write the list: {exc}") from None

    return write_fused


# ------------------------------------------------------------ unions


@build_reader.register
def _union_reader(u: Union) -> Reader:
    if reads_inline(u):  # its inline code: an ``if`` per tag
        return compile_reader(u)
    width, name = u.tag_width, u.what
    table: dict[int, Reader] = {c.tag: c.enc._read for c in u.tagged if c.tag is not None}
    checks, cases = canonical(u), {c.tag: c for c in u.tagged}

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        if end - pos < width:
            raise not_enough_data(pos, width, end, f"the tag of a {name}")
        tag = buf[pos] if width == 1 else (buf[pos] << 8) | buf[pos + 1]
        reader = table.get(tag)
        if reader is None:
            raise unexpected_tag(u, tag, pos)
        value, after = reader(buf, pos + width, end)
        if checks is not None and not checks[tag](value):
            raise not_canonical(u, pos, cases[tag])
        return value, after

    return read


@build_writer.register
def _union_writer(u: Union) -> Writer:
    if writes_inline(u):
        return compile_writer(u)
    told = member(u)
    return select_write(u) if told is None else table_write(u, told)


# ------------------------------------------------------------ conversions


@build_reader.register(Conv)
def _conv_reader(e: Conv[Any]) -> Reader:
    # the function is called as it is (no guarding wrapper to call per value)
    read_inner, from_wire = e.inner._read, e.from_wire

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        wire, after = read_inner(buf, pos, end)
        return converted_at(from_wire, wire, pos), after

    return read


@build_writer.register(Conv)
def _conv_writer(e: Conv[Any]) -> Writer:
    write_inner, to_wire = e.inner._write, e.to_wire

    def write(out: bytearray, value: Any) -> None:
        try:
            wire = to_wire(value)
        except RecursionError:
            raise
        except Exception as exc:
            raise refusal(exc, EncodeError) from None
        write_inner(out, wire)

    return write


@build_sizer.register(Conv)
def _conv_sizer(e: Conv[Any]) -> Sizer:
    size_inner, to_wire = e.inner._size_of, guard(e.to_wire, EncodeError)
    return lambda value: size_inner(to_wire(value))


@build_reader.register
def _mu_reader(e: Mu) -> Reader:
    body = emitted_for(e.body, same_binary)
    if inline_ops(body).read is not None:  # the body's code counts the levels
        return tied(e, "_read", lambda: compile_nested(body, reading=True))
    return knot(e, "_read", lambda: e.body._read, DecodeError)


@build_writer.register
def _mu_writer(e: Mu) -> Writer:
    body = emitted_for(e.body, same_binary)
    if inline_ops(body).write is not None:
        return tied(e, "_write", lambda: compile_nested(body, reading=False))
    return knot(e, "_write", lambda: e.body._write, EncodeError)


@build_sizer.register
def _mu_sizer(e: Mu) -> Sizer:
    return knot(e, "_size_of", lambda: e.body._size_of, EncodeError)
