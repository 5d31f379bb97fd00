"""The binary pass's lenient variant: ``decode(data, canonical=False)``, and
the writing of what it reads.

Each node gets a *lenient reader* (``e._read_lenient``) that reads what the
reference reads (the legacy ``binary_reader.ml``), marking each part that is
not canonical with a :class:`~data_encoding.noncanonical.NonCanonical`
(:mod:`.marking` says where markers stand), and a *marked writer*
(``e._write_marked``) that writes such a value: a marker's bytes as they
were read, the rest as the strict writer does. Both are built on first use
only, from the same lowering as the strict codecs (``Lowering.lenient``:
:mod:`.lowering`, :mod:`.parts`), or from the strict closures of
:mod:`.codec`; the strict codecs do not change, and reach these only on
their failure path:

* ``decode(data, canonical=False)`` runs the strict decoder, and the lenient
  one (``e._decode_lenient``) when it refuses the input: canonical input is
  read at full speed, and the lenient reader reads it to the same value;
* ``encode`` refuses a marker wherever one stands (a type test of the
  strict writer fails), and then writes a value that holds markers with
  the marked encoder (``e._encode_marked``); ``length`` and ``to_json`` do
  the same (:func:`marker_first` for a value that is a marker as a whole,
  where the encoding's own part does not hold one).

What the reference reads that the strict reader refuses: any boolean byte
but ``00`` (true), any presence byte but ``00`` (present), ``z``'s ``40``
(0), non-zero padding, a union case the writer would not choose, a Uint30
length header from 2^30 to 2^31 - 1, and BSON with ``-0.0``, NaN, an
infinity or text that is not UTF-8 (:mod:`data_encoding.tree.bson`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from ...depth import knot
from ...errors import DecodeError, EncodeError, not_enough_data
from ...noncanonical import NonCanonical, counts, held, marked, reference_value, unheld
from ...tree.anyjson import Bson
from ...tree.bson import decode_bson
from ...tree.core import BytesLike, Encoding, Reader, Writer
from ...tree.framing import CheckSize, DynamicSize
from ...tree.leaves import AtomEncoding
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import RawBytes
from ...tree.unions import Union
from ...tree.wrappers import Conv, Mu, Splitted, converted_at
from ...tree.zarith import Zarith, write_z
from ..dispatch import takes_default
from .codec import atom_reader, check_size_reader, check_size_writer, whole_list_reader
from .compiled import compile_reader, compile_writer, whole_input_decoder, whole_value_encoder
from .inline import inline_ops
from .marking import absorbs, holds, lenient_unpack, lenient_value_node, read_z_lenient
from .rules import (
    canonical,
    fixed_atom,
    reads_inline,
    reads_whole,
    select_write,
    unexpected_tag,
    writes_inline,
)

__all__ = [
    "build_lenient_decoder",
    "build_lenient_reader",
    "build_marked_encoder",
    "build_marked_writer",
    "build_whole_reader",
    "marker_first",
]


# ------------------------------------------------------------ entry points


def build_lenient_decoder(e: Encoding[Any]) -> Callable[[BytesLike], Any]:
    """``e._decode_lenient``: the whole input, read by ``e``'s lenient reader."""
    return whole_input_decoder(e._read_lenient_whole, None)


def build_whole_reader(e: Encoding[Any]) -> Reader:
    """``e._read_lenient_whole``: ``e``'s lenient reader of a whole value
    (``decode``'s, ``decode_prefix``'s), which holds the markers no part of
    it holds: the value is then a marker of all the bytes read."""
    return _absorbing(e._read_lenient)


def build_marked_encoder(e: Encoding[Any]) -> Callable[[Any], bytes]:
    """``e._encode_marked``: a value that a lenient reading returned, written
    by ``e``'s marked writer (a marker standing for the whole value: its bytes)."""
    encode = whole_value_encoder(e._write_marked, None)

    def encode_marked(value: Any) -> bytes:
        return value.raw if type(value) is NonCanonical else encode(value)

    return encode_marked


def marker_first(
    e: Encoding[Any], strict: Callable[[Any], Any], marked: Callable[[], Callable[[Any], Any]]
) -> Callable[[Any], Any]:
    """``strict``, as the entry point of ``e`` (``to_json``, ``length``):
    where ``e`` does not hold markers, a marker standing for the whole value
    goes to ``marked()`` before ``strict`` (whose user functions it must not
    reach). Elsewhere ``strict`` refuses markers, the caller then taking the
    value to ``marked()``."""
    if holds(e):
        return strict

    def whole_marker_first(value: Any) -> Any:
        return marked()(value) if type(value) is NonCanonical else strict(value)

    return whole_marker_first


# ------------------------------------------------------------ readers


@takes_default(
    {
        "its inline code in its lenient variant, compiled": (Parts, DynamicSize),
        "its strict reader: it reads what the reference reads": (RawBytes,),
    },
    through="lenient",
)
@singledispatch
def build_lenient_reader(e: Encoding[Any]) -> Reader:
    """``e``'s lenient reader. By default: that of the node whose bytes and
    values ``e``'s are, else ``e``'s inline code in its lenient variant, else
    its strict reader (a leaf that reads as the reference does)."""
    inner = lenient_value_node(e)
    if inner is not None:
        return inner._read_lenient
    if inline_ops(e).read is not None:
        return compile_reader(e, lenient=True)
    return e._read


def _absorbing(read: Reader) -> Reader:
    """``read``, for a part that holds the markers made below it (a closure's,
    or a whole value's: generated readers do it inline, see
    ``lowering._holding``): its value is then a marker of its bytes, as it
    is when its value read is a marker of an inner part (a case, a frame's
    content)."""

    def read_holding(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        cell = counts()
        before = cell[1]
        value, after = read(buf, pos, end)
        if cell[1] != before or type(value) is NonCanonical:
            value = held(cell, before, value, buf[pos:after])
        return value, after

    return read_holding


@build_lenient_reader.register(AtomEncoding)
def _atom_lenient(e: AtomEncoding[Any]) -> Reader:
    unpack = lenient_unpack(e)
    return e._read if unpack is None else atom_reader(e, unpack)


@build_lenient_reader.register
def _zarith_lenient(e: Zarith) -> Reader:
    return e._read if e.natural else read_z_lenient


@build_lenient_reader.register
def _bson_lenient(e: Bson) -> Reader:
    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        lenient = [False]
        value = decode_bson(buf, pos, end, lenient)
        return (marked(counts(), value, buf[pos:end]) if lenient[0] else value), end

    return read


@build_lenient_reader.register(CheckSize)
def _check_size_lenient(e: CheckSize[Any]) -> Reader:
    return check_size_reader(e, e.inner._read_lenient)


@build_lenient_reader.register
def _list_lenient(e: ListEncoding) -> Reader:
    if not reads_whole(e):
        return compile_reader(e, lenient=True)
    unpack = lenient_unpack(e.elt)
    return e._read if unpack is None else _absorbing(whole_list_reader(e, unpack))


@build_lenient_reader.register
def _union_lenient(u: Union) -> Reader:
    if reads_inline(u):
        return compile_reader(u, lenient=True)
    width, name = u.tag_width, u.what
    table: dict[int, Reader] = {c.tag: c.enc._read_lenient for c in u.tagged if c.tag is not None}
    checks = None if absorbs(u) else canonical(u)

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        if end - pos < width:
            raise not_enough_data(pos, width, end, f"the tag of a {name}")
        tag = buf[pos] if width == 1 else (buf[pos] << 8) | buf[pos + 1]
        reader = table.get(tag)
        if reader is None:
            raise unexpected_tag(u, tag, pos)
        cell = counts()
        made = cell[0]
        value, after = reader(buf, pos + width, end)
        # (as ``inline._read_unheld_case``: the predicates see plain values)
        if cell[0] != made or (checks is not None and not checks[tag](value)):
            value = unheld(cell, value, buf[pos:after])
        return value, after

    # a case's marker is a union's that holds one, its bytes with the tag
    return _absorbing(read) if absorbs(u) else read


@build_lenient_reader.register(Conv)
def _conv_lenient(e: Conv[Any]) -> Reader:
    read_inner, from_wire = e.inner._read_lenient, e.from_wire

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        cell = counts()
        made = cell[0]
        wire, after = read_inner(buf, pos, end)
        if cell[0] == made:
            return converted_at(from_wire, wire, pos), after
        # the function is given the plain value; its value is a marker of the conv's bytes
        value = converted_at(from_wire, reference_value(wire), pos)
        return unheld(cell, value, buf[pos:after]), after

    return read


@build_lenient_reader.register(Splitted)
def _splitted_lenient(e: Splitted[Any]) -> Reader:
    read_binary = e.binary._read_lenient
    keep = marked if holds(e) else unheld

    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        cell = counts()
        made = cell[0]
        value, after = read_binary(buf, pos, end)
        if cell[0] != made:  # marked whole: its JSON side gets a plain value or a marker
            value = keep(cell, reference_value(value), buf[pos:after])
        return value, after

    return read


@build_lenient_reader.register
def _mu_lenient(e: Mu) -> Reader:
    return knot(e, "_read_lenient", lambda: e.body._read_lenient, DecodeError)


# ------------------------------------------------------------ writers


@takes_default(
    {
        "its inline code in its lenient variant, compiled": (Parts, DynamicSize),
        "its strict writer: no marker stands in it": (RawBytes,),
        "its strict writer: it holds no marker (marking.holds)": (Conv,),
    },
    through="lenient",
)
@singledispatch
def build_marked_writer(e: Encoding[Any]) -> Writer:
    """``e``'s marked writer. A part that holds no marker has the values of
    its strict writer (``e._write``); by default, others take that of the
    node whose bytes and values ``e``'s are, else ``e``'s inline code in
    its lenient variant, else the strict writer (a leaf read strictly)."""
    if not holds(e):
        return e._write
    inner = lenient_value_node(e)
    if inner is not None:
        return inner._write_marked
    if inline_ops(e).write is not None:
        return compile_writer(e, lenient=True)
    return e._write


def _writing_markers(write: Writer) -> Writer:
    """``write``, but a marker is written as its bytes (a leaf's, or a closure's)."""

    def write_marked(out: bytearray, value: Any) -> None:
        if type(value) is NonCanonical:
            out += value.raw
        else:
            write(out, value)

    return write_marked


@build_marked_writer.register(AtomEncoding)
def _atom_marked(e: AtomEncoding[Any]) -> Writer:
    if not holds(e) or lenient_unpack(e) is None:
        return e._write
    return _writing_markers(e._write)


@build_marked_writer.register
def _zarith_marked(e: Zarith) -> Writer:
    return e._write if e.natural else _writing_markers(write_z)


@build_marked_writer.register
def _bson_marked(e: Bson) -> Writer:
    return _writing_markers(e._write)


@build_marked_writer.register(CheckSize)
def _check_size_marked(e: CheckSize[Any]) -> Writer:
    return check_size_writer(e, e.inner._write_marked) if holds(e) else e._write


@build_marked_writer.register
def _list_marked(e: ListEncoding) -> Writer:
    atom = fixed_atom(e.elt)
    if atom is not None and lenient_unpack(e.elt) is None:
        return e._write  # elements never marked: its strict writer (maybe one ``pack``)
    return compile_writer(e, lenient=True)


@build_marked_writer.register
def _union_marked(u: Union) -> Writer:
    if not holds(u):
        return u._write
    if writes_inline(u):
        return compile_writer(u, lenient=True)
    return _writing_markers(select_write(u, marked=True))


@build_marked_writer.register(Splitted)
def _splitted_marked(e: Splitted[Any]) -> Writer:
    # marked whole, or plain (see ``_splitted_lenient``)
    return _writing_markers(e._write) if holds(e) else e._write


@build_marked_writer.register
def _mu_marked(e: Mu) -> Writer:
    if not holds(e):
        return e._write
    return knot(e, "_write_marked", lambda: e.body._write_marked, EncodeError)
