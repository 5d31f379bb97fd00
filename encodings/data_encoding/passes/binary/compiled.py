"""The compiled entry points of the binary codec: an encoding's lowered ops
(:func:`.lowering.lowered`) rendered (:mod:`.render`) as a function of its
own, with what the entry point adds around them.

* :func:`compile_reader`, :func:`compile_writer`: the reader and writer a
  composite's parts call (``read(buf, pos, end)``, ``write(out, v)``), and
  their lenient variants; :func:`compile_nested`, a recursive encoding's
  body, which counts its own levels;
* :func:`build_encoder`, :func:`build_decoder`: ``encode`` and ``decode``
  themselves: for a generated writer or reader, the same ops with the
  recursion guard and the extra-bytes check inline
  (:func:`compile_encoder`, :func:`compile_decoder`), else a call of it
  (:func:`whole_value_encoder`, :func:`whole_input_decoder`), falling back
  to the lenient codec on their failure paths only;
* :func:`compile_json_decoder`, :func:`compile_json_encoder`:
  ``decode_json`` and ``encode_json``, in JSON mode (:mod:`.jsonmode`),
  falling back to the composition for its exact result or error.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

from ...depth import LEVELS, LIMIT, past_depth_limit
from ...errors import DataEncodingError, DecodeError, EncodeError, extra_bytes, past_recursion_limit
from ...noncanonical import NonCanonical, has_markers
from ...tree.core import BytesLike, Encoding, Reader, Writer, input_bytes
from ..emit import Source, shown
from .lowering import lowered
from .marking import holds
from .ops import (
    Block,
)
from .render import Renderer, new_source, render_function, writes_pieces

__all__ = [
    "build_decoder",
    "build_encoder",
    "compile_decoder",
    "compile_encoder",
    "compile_json_decoder",
    "compile_json_encoder",
    "compile_nested",
    "compile_reader",
    "compile_writer",
    "whole_input_decoder",
    "whole_value_encoder",
]


def compile_writer(e: Encoding[Any], lenient: bool = False) -> Writer:
    """``e``'s writer: its inline code as a function of its own (``lenient``:
    its marked writer, see :mod:`.lenient`)."""
    source = new_source()
    render_function(
        source, "def write(out, v):", lowered(e, False, source, lenient=lenient), reading=False
    )
    label = "marked writer" if lenient else "writer"
    write: Writer = source.compile("write", f"{label} of {shown(e)}")
    if not lenient:
        _LOWERED[write] = weakref.ref(e)
    return write


def compile_reader(e: Encoding[Any], lenient: bool = False) -> Reader:
    """``e``'s reader: its inline code as a function of its own (``lenient``:
    its lenient reader, see :mod:`.lenient`)."""
    source = new_source()
    body = lowered(e, True, source, lenient=lenient)
    render_function(source, "def read(buf, pos, end):", body, reading=True, returns="x")
    label = "lenient reader" if lenient else "reader"
    read: Reader = source.compile("read", f"{label} of {shown(e)}")
    if not lenient:
        _LOWERED[read] = weakref.ref(e)
    return read


def compile_nested(e: Encoding[Any], reading: bool) -> Callable[..., Any]:
    """``e``'s reader (or writer) one level deeper: the body of a recursive
    encoding, which counts its own levels (see :func:`~data_encoding.depth.tied`)
    as :func:`~data_encoding.depth.knot`'s wrapper would count them: refused
    past the limit with ``too_deep`` (at ``pos``). (Not an entry point's
    ops: the entry point of the recursive encoding calls it, one level.)"""
    source = new_source()
    body = lowered(e, reading, source)
    error = f"{source.ref(past_depth_limit)}({source.ref(DecodeError if reading else EncodeError)}"
    error += ", pos)" if reading else ")"
    name = "read" if reading else "write"
    with source.block("def read(buf, pos, end):" if reading else "def write(out, v):"):
        source.line(f"depth_cell = {source.ref(LEVELS, 'levels')}.cell")
        source.line("depth = depth_cell[0]")
        source.line(f"if depth >= {source.ref(LIMIT, 'limit')}[0]: raise {error}")
        source.line("depth_cell[0] = depth + 1")
        with source.block("try:"):
            r = Renderer(source, reading)
            r.block(body)
            r.flush()
            if reading:
                source.line("return x, pos")
        with source.block("finally:"):
            source.line("depth_cell[0] = depth")
    return source.compile(name, f"nested {'reader' if reading else 'writer'} of {shown(e)}")


_LOWERED: WeakKeyDictionary[Callable[..., Any], weakref.ref[Encoding[Any]]] = WeakKeyDictionary()
"""The encoding each generated reader and writer was lowered from: its entry
points are the same ops, rendered as functions of their own
(:func:`compile_encoder`, :func:`compile_decoder`)."""


def compile_encoder(write: Writer, root: Encoding[Any]) -> Callable[[Any], bytes] | None:
    """``encode(v) -> bytes`` from the ops of the generated ``write``
    (``None`` when ``write`` was not generated), so that the call of
    ``encode`` is the only call. It is ``root.encode``: a value it refuses
    that holds markers of a lenient reading is written by ``root``'s marked
    encoder (and, where ``root`` does not hold markers, a marker of the
    whole value is looked for first: see :mod:`.marking`)."""
    e = _lowered_from(write)
    if e is None:
        return None

    def marked(source: Source) -> str:
        return f"{source.ref(_encoded_marked, 'marked')}({source.ref(root, 'root')}, v)"

    def handler(source: Source) -> list[str]:
        return [
            _too_deep(source, EncodeError),
            "except _Err:",
            f"    if not {source.ref(has_markers)}(v): raise",
            f"    return {marked(source)}",
        ]

    def whole_marker(source: Source) -> list[str]:
        return [f"if type(v) is {source.ref(NonCanonical)}: return {marked(source)}"]

    first = None if holds(root) else whole_marker
    return _writing(e, "encode", "encoder", handler, first=first)


def compile_decoder(read: Reader, root: Encoding[Any]) -> Callable[..., Any] | None:
    """``decode(data, canonical=True)``, the whole input, from the ops of the
    generated ``read`` (``None`` when ``read`` was not generated). It is
    ``root.decode``: with ``canonical=False``, input it refuses is read
    again by ``root``'s lenient decoder."""
    e = _lowered_from(read)
    if e is None:
        return None

    def handler(source: Source) -> list[str]:
        lenient = f"{source.ref(_decoded_leniently, 'lenient')}({source.ref(root, 'root')}, buf)"
        return [
            _too_deep(source, DecodeError),
            "except _Err:",
            "    if canonical: raise",
            f"    return {lenient}",
        ]

    return _reading(e, "decode", "decoder", handler)


def compile_json_decoder(e: Encoding[Any]) -> Callable[..., Any]:
    """``decode_json(data, canonical=True)``: the JSON form of the value of
    the whole input, read in JSON mode (:mod:`.jsonmode`). When a conversion
    refuses, or recursion runs out (in reading or in converting: the
    composition tells which), the composition ``to_json(decode(data))`` runs
    instead, for its error; so it does for input the JSON mode refuses, with
    ``canonical=False`` (the lenient reading). An encoding whose reader is
    not generated is that composition."""
    if _lowered_from(e._read) is None:
        # decode is not generated code (a leaf's reader, a conv's...): its
        # errors are its own, so is the JSON of what it reads
        return partial(_to_json_of_decoded, e)

    def handler(source: Source) -> list[str]:
        slow = f"{source.ref(_to_json_of_decoded, 'composition')}({source.ref(e, 'encoding')}"
        return [
            f"except (RecursionError, {source.ref(EncodeError)}): return {slow}, buf, canonical)",
            f"except {source.ref(DecodeError)}:",
            "    if canonical: raise",
            f"    return {slow}, buf, False)",
        ]

    return _reading(e, "decode_json", "JSON decoder", handler, json=True)


def compile_json_encoder(e: Encoding[Any]) -> Callable[[Any], bytes]:
    """``encode_json(json)``: the binary form of the value whose JSON form
    is ``json``, written from the JSON in JSON mode (:mod:`.jsonmode`). On
    any failure the composition ``encode(from_json(json))`` runs instead:
    its result or its error."""

    def handler(source: Source) -> list[str]:
        slow = f"{source.ref(_encoded_from_json, 'composition')}({source.ref(e, 'encoding')}, v)"
        return [f"except Exception: return {slow}"]

    return _writing(e, "encode_json", "JSON encoder", handler, json=True)


Handler = Callable[[Source], list[str]]
"""Lines of an entry point (its ``except`` clauses), given its source (for
the names of the objects they use)."""


def _writing(
    e: Encoding[Any],
    name: str,
    label: str,
    handler: Handler,
    json: bool = False,
    first: Handler | None = None,
) -> Callable[[Any], bytes]:
    """An entry point ``name(v) -> bytes`` writing with ``e``'s ops: into
    pieces joined once when its ops allow (see :mod:`.render`), else
    into a ``bytearray``; the lines ``first`` gives come first."""
    source = new_source()
    ops = lowered(e, False, source, json=json)
    pieces = writes_pieces(ops)
    with source.block(f"def {name}(v):"):
        for line in first(source) if first is not None else ():
            source.line(line)
        source.line("out = []" if pieces else "out = bytearray()")
        _guarded(source, ops, Renderer(source, False, pieces), handler(source))
        source.line("return b''.join(out)" if pieces else "return bytes(out)")
    return source.compile(name, f"{label} of {shown(e)}")


def _reading(
    e: Encoding[Any], name: str, label: str, handler: Handler, json: bool = False
) -> Callable[..., Any]:
    """An entry point ``name(buf, canonical=True)`` reading the whole input
    with ``e``'s ops, bytes left over raising ``extra_bytes`` (``canonical``
    is the handler's: see :func:`compile_decoder`)."""
    source = new_source()
    ops = lowered(e, True, source, json=json)
    # ``canonical`` is a plain parameter with a default: CPython calls such
    # a function as fast as one without it (a keyword-only one costs 2%)
    with source.block(f"def {name}(buf, canonical=True):"):
        source.line(f"if type(buf) is not bytes: buf = {source.ref(input_bytes)}(buf)")
        source.line("pos = 0")
        source.line("end = len(buf)")
        _guarded(source, ops, Renderer(source, True), handler(source))
        source.line(f"if pos != len(buf): raise {source.ref(extra_bytes)}(pos, len(buf))")
        source.line("return x")
    return source.compile(name, f"{label} of {shown(e)}")


def _encoded_from_json(e: Encoding[Any], json: Any) -> bytes:
    return e.encode(e.from_json(json))


def _to_json_of_decoded(e: Encoding[Any], data: bytes, canonical: bool = True) -> Any:
    return e.to_json(e.decode(data, canonical=canonical))


def _encoded_marked(e: Encoding[Any], value: Any) -> bytes:
    return e._encode_marked(value)


def _decoded_leniently(e: Encoding[Any], data: bytes) -> Any:
    return e._decode_lenient(data)


def _lowered_from(fn: Callable[..., Any]) -> Encoding[Any] | None:
    """The encoding ``fn`` was generated from (``None``: it was not)."""
    ref = _LOWERED.get(fn)
    return None if ref is None else ref()


def _guarded(source: Source, ops: Block, r: Renderer, handler: list[str]) -> None:
    """``ops`` rendered by ``r`` in a ``try`` whose ``except`` clauses are ``handler``."""
    with source.block("try:"):
        r.block(ops)
        r.flush()
    for line in handler:
        source.line(line)


def _too_deep(source: Source, error: type[EncodeError | DecodeError]) -> str:
    """The ``except`` line that raises a ``RecursionError`` as ``too_deep``."""
    raised = f"{source.ref(past_recursion_limit)}({source.ref(error)})"
    return f"except RecursionError: raise {raised} from None"


# ------------------------------------------------------------ encode and decode


def build_encoder(e: Encoding[Any]) -> Callable[[Any], bytes]:
    """``e.encode``: its writer's generated body as a function of the value,
    or, for a writer that was not generated, a call of it. A value it
    refuses that holds markers of a lenient reading
    (:mod:`data_encoding.noncanonical`) is written by ``e``'s marked encoder;
    where ``e``'s values do not hold them (:func:`.marking.holds`), a marker
    standing for the whole value is looked for first."""
    write = e._write
    generated = compile_encoder(write, e)
    if generated is not None:
        return generated
    return whole_value_encoder(write, e)


def whole_value_encoder(write: Writer, e: Encoding[Any] | None) -> Callable[[Any], bytes]:
    """``encode(value)`` by ``write`` (a ``RecursionError`` is ``too_deep``);
    with ``e``, as :func:`build_encoder` says (``None``: the marked encoder)."""

    def encode(value: Any) -> bytes:
        out = bytearray()
        try:
            write(out, value)
        except RecursionError:
            raise past_recursion_limit(EncodeError) from None
        except DataEncodingError:
            if e is None or not has_markers(value):
                raise
            return e._encode_marked(value)
        return bytes(out)

    if e is None or holds(e):
        return encode

    # a value of a part that holds no marker is plain, or a marker as a whole
    def encode_whole_marker(value: Any) -> bytes:
        if type(value) is NonCanonical:
            return e._encode_marked(value)
        out = bytearray()
        try:
            write(out, value)
        except RecursionError:
            raise past_recursion_limit(EncodeError) from None
        return bytes(out)

    return encode_whole_marker


def build_decoder(e: Encoding[Any]) -> Callable[..., Any]:
    """``e.decode``: its reader's generated body over the whole input (which
    must be read to its end), or, for a reader that was not generated, a
    call of it. With ``canonical=False``, input it refuses is read again by
    ``e``'s lenient decoder."""
    read = e._read
    generated = compile_decoder(read, e)
    if generated is not None:
        return generated
    return whole_input_decoder(read, e)


def whole_input_decoder(read: Reader, e: Encoding[Any] | None) -> Callable[..., Any]:
    """``decode(data, canonical=True)`` by ``read``: the whole input, to its
    end; with ``e``, as :func:`build_decoder` says (``None``: the lenient
    decoder, which ignores ``canonical``)."""

    def decode(data: BytesLike, canonical: bool = True) -> Any:
        buf = data if type(data) is bytes else input_bytes(data)
        try:
            value, pos = read(buf, 0, len(buf))
        except RecursionError:
            raise past_recursion_limit(DecodeError) from None
        except DataEncodingError:
            if canonical or e is None:
                raise
            return e._decode_lenient(buf)
        if pos != len(buf):
            raise extra_bytes(pos, len(buf))
        return value

    return decode
