"""Lowering the encoding tree to the binary op IR, and compiling it.

A composite compiles into one function (:func:`compile_reader`,
:func:`compile_writer`) in two steps: its tree is *lowered* to a block of
ops (:mod:`.binaryops`), which :mod:`.binaryrender` *renders* to Python.
Its parts lower into the same block (:func:`lower_read`,
:func:`lower_write`: inlining) down to a budget of ops, beyond which they
are called; records and tuples lower through :mod:`.recordgen`.

:func:`inline_ops` gives, per node type, the ops a node lowers to: a writer
``write(lw, v, path, then)`` that adds the ops writing variable ``v``, then
calls ``then()`` (which adds the ops that follow), and a reader ``read(lw,
target, end, path, then)`` that adds the ops reading a value into variable
``target`` in the frame ending at variable ``end``. A node without one is
called.

What follows a choice: a choice (a union, an option, a presence byte) may
call ``then`` at the end of each of its branches rather than once after
them (:meth:`Lowering.choice`, at most :data:`COPIES` copies), so the
fields after a union join each case's ``struct`` run: ``{uid, state: union,
parent: option}`` becomes one ``pack`` (and one ``unpack``) per wire
variant, as a hand-written codec would do it.
"""

from __future__ import annotations

import struct
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial, singledispatch
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from ..depth import LEVELS, LIMIT, past_depth_limit
from ..errors import DecodeError, EncodeError, extra_bytes, not_enough_data, past_recursion_limit
from ..noncanonical import NonCanonical, counts, has_markers, held, unheld
from ..tree.anyjson import Bson
from ..tree.core import Encoding, Reader, Writer, input_bytes
from ..tree.framing import HEADERS, CheckSize, DynamicSize
from ..tree.leaves import AtomEncoding
from ..tree.primitives import Int
from ..tree.records import Parts
from ..tree.sequences import ListEncoding
from ..tree.strings import FixedBytes, RawBytes, text_of
from ..tree.unions import Case, Matching, Option, Union
from ..tree.wrappers import Conv, Mu, converted_at
from ..tree.zarith import Zarith
from .binaryops import (
    AfterReads,
    Append,
    AtEnd,
    Block,
    Branch,
    Call,
    Choice,
    Do,
    Fail,
    Flush,
    Framed,
    Let,
    Loop,
    Moved,
    Op,
    Path,
    Peek,
    Put,
    SubFrame,
    Take,
    ToBytes,
    const,
)
from .binaryrender import Renderer, new_source, render_function, writes_pieces
from .binaryrules import (
    bad_frame,
    canonical,
    check_count,
    check_length,
    many,
    not_canonical,
    reads_inline,
    reads_whole,
    same_binary,
    select_write,
    size_limit_exceeded,
    too_big,
    too_long,
    unexpected_tag,
    unread,
    writes_inline,
    writes_whole,
)
from .choosing import by_constant
from .dispatch import takes_default
from .emit import Source, shown, tuple_expr
from .jsonmode import LeafKind, json_leaf, json_of_read, reads_json, same_both, writes_json
from .leafjson import Bail, read_leaf
from .marking import absorbs, holds, lenient_unpack, lenient_value_node
from .recordgen import lower_parts_read, lower_parts_write
from .transparent import emitted_for

__all__ = [
    "Lowering",
    "compile_decoder",
    "compile_encoder",
    "compile_json_decoder",
    "compile_json_encoder",
    "compile_reader",
    "compile_writer",
    "inline_ops",
    "lower_read",
    "lower_write",
    "lowered",
]

#: Beyond this many ops a function stops inlining its parts and calls them
#: (each part still compiles itself): bounds the code of very large trees.
OP_BUDGET = 450

#: At most this many copies of the ops that follow a choice (see ``Lowering.choice``).
COPIES = 16

INT32_MAX = 2**31 - 1

Then = Callable[[], None] | None
"""Adds the ops that follow (see :meth:`Lowering.choice`)."""


class Lowering:
    """A block of ops being lowered, and the facts lowering keeps on the way.

    Variables and the objects the ops name are the function's :class:`Source`'s.
    """

    def __init__(self, source: Source) -> None:
        self.source = source
        self.ops: list[Op] = []
        #: ops lowered so far, in every block (the budget)
        self.count = 0
        #: how many copies of the current ops the choices around them made
        self.copies = 1
        #: variables known to hold exactly a ``dict`` (a union case chosen by
        #: a member), with the members known to hold a constant
        self.dicts: dict[str, dict[str, str]] = {}
        self._branches: list[list[Branch]] = []
        #: reading builds the JSON form, not the value; writing takes it
        #: (see :mod:`.jsonmode`)
        self.json = False
        #: variables whose value a leaf's JSON check found valid: written
        #: without the writer's guard (its check still names a failure)
        self.valid: set[str] = set()
        #: the lenient variant (``canonical=False``): reading, what the
        #: reference reads, marking what is not canonical; writing, what
        #: such reading returns (see :mod:`.lenient`). Its code is not on
        #: the strict codecs' path: it copies nothing into a choice's branches
        self.lenient = False

    def ref(self, obj: Any, stem: str | None = None) -> str:
        return self.source.ref(obj, stem)

    def var(self, stem: str = "v") -> str:
        return self.source.var(stem)

    def add(self, *ops: Op) -> None:
        self.ops.extend(ops)
        self.count += len(ops)

    # what a leaf's JSON reading is emitted through (``leafjson.Checks``)

    def bail_if(self, condition: str) -> None:
        """In JSON mode: give up writing when ``condition`` holds (the entry
        point then runs the composition)."""
        self.add(Fail(condition, self.ref(Bail), ()))

    def bind(self, expr: str, prefix: str = "json") -> str:
        """``expr`` in a fresh variable."""
        name = self.var(prefix)
        self.add(Let(name, expr))
        return name

    def room(self) -> bool:
        """Whether a part may still be inlined (else it is called)."""
        return self.count < OP_BUDGET

    @contextmanager
    def nested(self) -> Iterator[list[Op]]:
        """Collect the ops added meanwhile into the yielded list (a block)."""
        outer, self.ops = self.ops, []
        try:
            yield self.ops
        finally:
            self.ops = outer

    # ------------------------------------------------------------ choices

    @contextmanager
    def choice(self, branches: int, then: Then, peek: Peek | None = None) -> Iterator[Then]:
        """A :class:`~.binaryops.Choice` of ``branches`` :meth:`branch` es
        (and maybe an ``else`` that fails), followed by ``then``.

        Yields what each branch must add at its end: ``then`` itself when
        the ops that follow may be copied into every branch (so a pending
        run goes on across the choice: the fields after a union or an option
        join each case's ``struct`` call), else ``None``, and ``then`` is
        called once after the choice.
        """
        copy = then is not None and self.may_copy(branches)
        copies = self.copies
        if copy:
            self.copies *= branches
        self._branches.append([])
        try:
            yield then if copy else None
        finally:
            self.copies = copies
            made = self._branches.pop()
        self.add(Choice(tuple(made), peek))
        if not copy and then is not None:
            then()

    @contextmanager
    def branch(self, test: str | None, end: str = "end") -> Iterator[None]:
        """One branch of the current :meth:`choice`, taken when ``test`` holds."""
        dicts, self.dicts = self.dicts, dict(self.dicts)
        try:
            with self.nested() as body:
                yield
        finally:
            self.dicts = dicts
        self._branches[-1].append(Branch(test, tuple(body), end))

    @contextmanager
    def when(self, test: str) -> Iterator[None]:
        """Ops taken only when ``test`` holds: a choice of one branch."""
        with self.choice(1, None), self.branch(test):
            yield

    def may_copy(self, branches: int) -> bool:
        """Whether the ops after a choice of ``branches`` may be copied into each."""
        return not self.lenient and self.copies * branches <= COPIES and self.room()

    def read_with(self, e: Encoding[Any]) -> Reader:
        """``e``'s reader for this lowering (its lenient one, in the lenient variant)."""
        return e._read_lenient if self.lenient else e._read

    def write_with(self, e: Encoding[Any]) -> Writer:
        """``e``'s writer for this lowering (its marked one, in the lenient variant)."""
        return e._write_marked if self.lenient else e._write

    def lower_read(
        self, e: Encoding[Any], target: str, end: str, path: Path, then: Then = None
    ) -> None:
        """:func:`lower_read` into this block: how the rules of other modules
        (:mod:`.recordgen`) lower their parts, importing nothing of this one."""
        lower_read(e, self, target, end, path, then)

    def lower_write(self, e: Encoding[Any], v: str, path: Path, then: Then = None) -> None:
        """:func:`lower_write` into this block (see :meth:`lower_read`)."""
        lower_write(e, self, v, path, then)

    def presence(self, v: str, byte: int, enc: Encoding[Any], path: Path, then: Then) -> None:
        """Write ``00`` when ``v`` is ``None``, else ``byte`` then ``v`` in ``enc``."""
        with self.choice(2, then) as rest:
            with self.branch(f"{v} is None"):
                self.add(const("B", 0))
                if rest is not None:
                    rest()
            with self.branch(None):
                self.add(const("B", byte))
                lower_write(enc, self, v, path, rest)


WriteCode = Callable[[Lowering, str, Path, Then], None]
ReadCode = Callable[[Lowering, str, str, Path, Then], None]


class Code(NamedTuple):
    """The ops a node lowers to when inlined (``None``: it is called)."""

    write: WriteCode | None
    read: ReadCode | None


NO_CODE = Code(None, None)


def lowered(
    e: Encoding[Any],
    reading: bool,
    source: Source | None = None,
    json: bool = False,
    lenient: bool = False,
) -> Block:
    """The ops of ``e``'s compiled reader (or writer), its variables and
    objects named in ``source`` (a fresh one if not given): ``x`` is the
    value read, ``v`` the value written; ``lenient``: its lenient variant.

    >>> from data_encoding import obj, req, uint8
    >>> from data_encoding.passes.binaryops import show
    >>> print(show(lowered(obj(req("a", uint8)), reading=True)))
    Take(fmt='B', width=1, target='a_1', path=("'a'",), what='uint8')
    AfterReads(statement="x = {'a': a_1}")
    """
    code = inline_ops(e)
    lw = Lowering(source or new_source())
    if json:  # JSON mode: the top node too may convert (see :mod:`.jsonmode`)
        lw.json = True
        if reading:
            lower_read(e, lw, "x", "end", ())
        else:
            lower_write(e, lw, "v", ())
    elif reading:
        assert code.read is not None, f"{type(e).__name__} is not compiled"
        read = code.read
        if lenient:
            lw.lenient = True
            lw.add(Let("cells", f"{lw.ref(counts)}()"))
            _holding(e, lw, "x", "end", lambda: read(lw, "x", "end", (), None))
        else:
            read(lw, "x", "end", (), None)
    else:
        assert code.write is not None, f"{type(e).__name__} is not compiled"
        write = code.write
        if lenient:
            lw.lenient = True
            _marker_first(e, lw, "v", lambda: write(lw, "v", (), None))
        else:
            write(lw, "v", (), None)
    return tuple(lw.ops)


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
    pieces joined once when its ops allow (see :mod:`.binaryrender`), else
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


def lower_write(e: Encoding[Any], lw: Lowering, v: str, path: Path, then: Then = None) -> None:
    """Add the ops that append the binary form of variable ``v`` (inline
    when possible, else a call of the compiled writer), then call ``then()``:
    the ops that follow, which a node that branches may add at the end of
    each branch. In JSON mode, ``v`` holds the JSON form."""
    if lw.json:
        _lower_write_json(e, lw, v, path, then)
        return
    e = emitted_for(e, same_binary)
    code = inline_ops(e).write
    if lw.lenient:
        if code is not None and lw.room() and holds(e):
            _marker_first(e, lw, v, lambda: code(lw, v, path, None))
        else:  # a part that holds no marker is written as it is (``e._write``)
            lw.add(Call(lw.write_with(e), v, path))
        if then is not None:
            then()
        return
    if code is not None and lw.room():
        code(lw, v, path, then)
        return
    lw.add(Call(e._write, v, path))
    if then is not None:
        then()


def lower_read(
    e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path, then: Then = None
) -> None:
    """Add the ops that read a value (in JSON mode, its JSON form) into
    variable ``target``, advancing ``pos``, in the frame ending at variable
    ``end``; then call ``then()``."""
    if lw.json:
        _lower_read_json(e, lw, target, end, path, then)
        return
    if lw.lenient:
        e = emitted_for(e, lenient_value_node)
        code = inline_ops(e).read
        if code is not None and lw.room():
            read = code
            _holding(e, lw, target, end, lambda: read(lw, target, end, path, None))
        else:
            lw.add(Call(e._read_lenient, target, path, end))
        if then is not None:
            then()
        return
    e = emitted_for(e, same_binary)
    code = inline_ops(e).read
    if code is not None and lw.room():
        code(lw, target, end, path, then)
        return
    lw.add(Call(e._read, target, path, end))
    if then is not None:
        then()


def _holding(
    e: Encoding[Any], lw: Lowering, target: str, end: str, read: Callable[[], None]
) -> None:
    """The lenient variant: ``read()``'s ops, then, for a part that takes in
    the markers made below it (:func:`.marking.absorbs`), its own marker of
    its bytes when its reading left markers to hold (or its case read, or
    its frame's content, is one)."""
    if not absorbs(e):
        read()
        return
    start, before = lw.var("start"), lw.var("unheld")
    lw.add(Flush(end), Let(start, "pos"), Let(before, "cells[1]"))
    read()
    marker = f"{lw.ref(held)}(cells, {before}, {target}, buf[{start}:pos])"
    test = f"cells[1] != {before} or type({target}) is {lw.ref(NonCanonical)}"
    lw.add(Flush(end), Do(f"if {test}: {target} = {marker}"))


def _marker_first(e: Encoding[Any], lw: Lowering, v: str, write: Callable[[], None]) -> None:
    """The lenient variant: ``write()``'s ops, preceded, where a marker may
    stand (:func:`.marking.absorbs`, or an atom read leniently), by writing
    a marker's bytes as they were read."""
    if not (absorbs(e) or lenient_unpack(e) is not None):
        write()
        return
    with lw.choice(2, None):
        with lw.branch(f"type({v}) is {lw.ref(NonCanonical)}"):
            lw.add(Append(f"{v}.raw"))
        with lw.branch(None):
            write()


def _lower_read_json(
    e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path, then: Then
) -> None:
    """:func:`lower_read` in JSON mode: a node that reads its JSON form (and
    is inlined) reads it; any other reads its value, converted by its own
    ``to_json`` once read."""
    e = emitted_for(e, same_both)
    code = inline_ops(emitted_for(e, same_binary)).read
    if code is not None and lw.room() and reads_json(e):
        convert = json_of_read(e, target, lw.ref)
        if convert is None:
            code(lw, target, end, path, then)  # its parts in JSON mode
            return
        _lower_read_binary(e, lw, target, end, path)  # a leaf: its value, then its JSON form
        lw.add(AfterReads(f"{target} = {convert}"))
    else:
        _lower_read_binary(e, lw, target, end, path)
        lw.add(AfterReads(f"{target} = {lw.ref(e._to_json, 'to_json')}({target})"))
    if then is not None:
        then()


def _lower_read_binary(e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path) -> None:
    """``e``'s value read into ``target`` as :func:`lower_read` reads values."""
    lw.json = False
    try:
        lower_read(e, lw, target, end, path)
    finally:
        lw.json = True


def _lower_write_json(e: Encoding[Any], lw: Lowering, j: str, path: Path, then: Then) -> None:
    """:func:`lower_write` in JSON mode: a leaf checks its JSON and writes
    it (or the bytes of its hex); a node that writes from its JSON (and is
    inlined) does; any other converts it by its own ``from_json``. Whatever
    refuses raises ``Bail`` or its own error: the entry point then runs the
    composition."""
    e = emitted_for(e, same_both)
    kind = json_leaf(e)
    if kind is not None:
        _lower_write_binary(e, lw, _json_leaf_value(e, kind, lw, j), path, then)
        return
    emitted = emitted_for(e, same_binary)
    code = inline_ops(emitted).write
    if code is not None and lw.room() and writes_json(e):
        code(lw, j, path, then)
        return
    value = lw.var("value")
    lw.add(Let(value, f"{lw.ref(e._from_json, 'from_json')}({j})"))
    _lower_write_binary(e, lw, value, path, then)


def _json_leaf_value(e: Encoding[Any], kind: LeafKind, lw: Lowering, j: str) -> str:
    """Add the ops that refuse leaf ``e``'s JSON ``j``: those its fast
    ``from_json`` is made of (:func:`.leafjson.read_leaf`), so that no JSON
    ``from_json`` refuses is written; return the variable holding its value."""
    if kind == "text":  # read by a closure (UTF-8 checks): here its writer checks
        lw.bail_if(f"type({j}) is not str")
        return j
    read = read_leaf(e.inner if isinstance(e, FixedBytes | DynamicSize) else e)
    assert read is not None
    value = read(lw, j)
    # bytes of the length, or exactly an int in range (not a ranged int's,
    # written shifted): struct takes them as they are
    if kind == "hex" or (kind == "int" and type(e) is Int):
        lw.valid.add(value)
    return j if kind in ("null", "constant") else value  # its writer checks it too


def _lower_write_binary(e: Encoding[Any], lw: Lowering, value: str, path: Path, then: Then) -> None:
    """``e``'s value in variable ``value``, written as :func:`lower_write`
    writes values; the ops that follow (``then``) in JSON mode again."""

    def then_json() -> None:
        assert then is not None
        lw.json = True
        try:
            then()
        finally:
            lw.json = False

    lw.json = False
    try:
        lower_write(e, lw, value, path, then_json if then is not None else None)
    finally:
        lw.json = True


@takes_default(
    {
        "called, not inlined: BSON has a codec of its own (tree/bson.py)": (Bson,),
        "called, not inlined: each level of a recursion is a call (depth.tied)": (Mu,),
        "called, not inlined: its reader and writer are zarith.py's loops": (Zarith,),
    },
    through="binary",
)
@singledispatch
def inline_ops(e: Encoding[Any]) -> Code:
    """The ops ``e`` lowers to when inlined."""
    return NO_CODE


@takes_default(
    {
        "not bytes written as they are (packed, or built of parts)": (
            AtomEncoding,
            Zarith,
            Bson,
            Parts,
            ListEncoding,
            Union,
            DynamicSize,
            CheckSize,
            Conv,
            Mu,
        )
    },
    through="binary",
)
@singledispatch
def bytes_of(e: Encoding[Any], lw: Lowering, v: str, path: Path) -> str | None:
    """For byte strings written as they are: add the ops that put the bytes
    of ``v`` in a variable and return its name (``None`` for other encodings)."""
    inner = emitted_for(e, same_binary)
    return None if inner is e else bytes_of(inner, lw, v, path)


def _then_after(write: Callable[[Lowering, str, Path], None]) -> WriteCode:
    """A writer that adds ``write``'s ops, then the ops that follow."""

    def code(lw: Lowering, v: str, path: Path, then: Then) -> None:
        write(lw, v, path)
        if then is not None:
            then()

    return code


def _read_then(read: Callable[[Lowering, str, str, Path], None]) -> ReadCode:
    """A reader that adds ``read``'s ops, then the ops that follow."""

    def code(lw: Lowering, target: str, end: str, path: Path, then: Then) -> None:
        read(lw, target, end, path)
        if then is not None:
            then()

    return code


# ------------------------------------------------------------ leaves


@inline_ops.register(AtomEncoding)
def _leaf_ops(e: AtomEncoding[Any]) -> Code:
    return Code(
        _then_after(lambda lw, v, path: _put(e, lw, v, path)),
        _read_then(lambda lw, target, end, path: _take(e, lw, target, path)),
    )


def _put(e: AtomEncoding[Any], lw: Lowering, v: str, path: Path) -> None:
    """Write ``v`` in the pending run (its atom's guard holds when ``pack``
    would return ``v`` unchanged)."""
    atom = e.atom
    guard = atom.pack_guard(v, lw.ref) if atom.pack_guard else None
    check = lw.ref(atom.check, "check")
    if not atom.fmt:  # a zero-width constant: the guard is the whole test
        lw.add(Put(atom.fmt, None, v, check, guard, path))
        return
    if atom.pack is None or v in lw.valid:
        lw.add(
            Put(atom.fmt, v, v, check, path=path, ready=v in lw.valid and atom.fmt.endswith("s"))
        )
        return
    if atom.pack_table is not None:  # an index (a missing key: the check says why)
        pack = f"{lw.ref(atom.pack_table, 'index')}[{v}]"
    else:
        pack = f"{lw.ref(atom.pack, 'pack_leaf')}({v})"
    arg = pack if guard is None else f"({v} if {guard} else {pack})"
    # a packed byte string has the width: pack checked its length
    lw.add(Put(atom.fmt, arg, v, check, path=path, ready=atom.fmt.endswith("s")))


def _take(e: AtomEncoding[Any], lw: Lowering, target: str, path: Path) -> None:
    atom = e.atom
    unpack = atom.unpack
    if not atom.fmt:
        assert unpack is not None
        value = unpack(None)
        if value is None or type(value) in (str, int, bool):
            lw.add(Take("", 0, target, literal=repr(value), path=path))
        else:  # a fresh object each time (``{}``)
            lw.add(Take("", 0, target, unpack=lw.ref(unpack, "unpack_leaf"), path=path))
        return
    lenient = lenient_unpack(e) if lw.lenient else None
    if lenient is not None:  # what the reference reads, marked where not canonical
        unpack_leniently = lw.ref(lenient, "unpack_leniently")
        lw.add(Take(atom.fmt, atom.width, target, unpack_leniently, path=path, what=e.what))
        return
    guard = atom.unpack_guard(target, lw.ref) if atom.unpack_guard else None
    name = lw.ref(unpack, "unpack_leaf") if unpack is not None else None
    table = lw.ref(atom.unpack_table, "cases") if atom.unpack_table is not None else None
    # named as its own reader names it, for a read that runs out
    lw.add(Take(atom.fmt, atom.width, target, name, guard, table, path=path, what=e.what))


@bytes_of.register
def _raw_bytes_of(e: RawBytes, lw: Lowering, v: str, path: Path) -> str:
    raw = lw.var("raw")
    lw.add(ToBytes(raw, v, lw.ref(e.to_bytes, "to_bytes"), e.text, path))
    return raw


@inline_ops.register
def _raw_bytes_ops(e: RawBytes) -> Code:
    def write(lw: Lowering, v: str, path: Path) -> None:
        lw.add(Append(_raw_bytes_of(e, lw, v, path)))

    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        rest = f"{lw.ref(text_of)}(buf[pos:{end}])" if e.text else f"buf[pos:{end}]"
        lw.add(Flush(end), Let(target, rest), Let("pos", end), Moved(to=end))

    return Code(_then_after(write), _read_then(read))


# ------------------------------------------------------------ checks and conversions


@inline_ops.register(CheckSize)
def _check_size_ops(e: CheckSize[Any]) -> Code:
    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        if lw.lenient:  # (the lenient reader: a call, as before inlining)
            lw.add(Call(lw.read_with(e), target, path, end))
            return
        start = lw.var("start")
        lw.add(Flush(end), Let(start, "pos"))
        # read in its full frame, its size checked after (see binary.check_size_reader)
        lower_read(e.inner, lw, target, end, path)
        over = f"pos - {start}"
        error = f"{lw.ref(size_limit_exceeded)}({lw.ref(DecodeError)}, {over}, {e.limit}, "
        lw.add(Flush(end), Fail(f"{over} > {e.limit}", f"{error}{start} + {e.limit})", path))

    return Code(None, _read_then(read))


@inline_ops.register(Conv)
def _conv_ops(e: Conv[Any]) -> Code:
    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        if lw.lenient:  # its function is given plain values: see .lenient
            lw.add(Call(lw.read_with(e), target, path, end))
            return
        start, wire = lw.var("start"), lw.var("wire")
        lw.add(Flush(end), Let(start, "pos"))
        lower_read(e.inner, lw, wire, end, path)
        convert = f"{lw.ref(converted_at)}({lw.ref(e.from_wire, 'from_wire')}, {wire}, {start})"
        lw.add(Flush(end), Do(f"{target} = {convert}", path))

    return Code(None, _read_then(read))


# ------------------------------------------------------------ frames


@inline_ops.register(DynamicSize)
def _dynamic_size_ops(e: DynamicSize[Any]) -> Code:
    code, width, largest = HEADERS[e.kind]

    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        size, stop = lw.var("size"), lw.var("stop")
        # the reference reads a Uint30 header as an int32 and takes any
        # positive one for a size (the frame it states is a gigabyte or more)
        lenient = lw.lenient and e.kind == "Uint30"
        lw.add(
            Take(code[1:], width, size, path=path, what="a length header"),
            SubFrame(
                stop,
                f"pos + {size}",
                f"{stop} > {end} or {size} > {INT32_MAX if lenient else largest}",
                f"{lw.ref(bad_frame)}({lw.ref(e)}, {size}, pos - {width}, {end})",
                path,
                end,
                "the frame runs past its end, or past its header's bound",
            ),
        )
        lower_read(e.inner, lw, target, stop, path)
        lw.add(AtEnd(stop, f"{lw.ref(unread)}(pos, {stop}, {size})", path))
        if lenient:  # its marker stands for the header too: one above it holds it
            raw = f"buf[{stop} - {size} - {width}:{stop}]"
            marker = f"{lw.ref(unheld)}(cells, {target}, {raw})"
            lw.add(Do(f"if {size} > {largest}: {target} = {marker}"))

    def write(lw: Lowering, v: str, path: Path) -> None:
        raw = bytes_of(e.inner, lw, v, path)
        if raw is not None:  # the size is known before writing: no placeholder
            lw.add(
                Fail(
                    f"len({raw}) > {largest}", f"{lw.ref(too_big)}({lw.ref(e)}, len({raw}))", path
                ),
                Put(code[1:], f"len({raw})"),
                Append(raw),
            )
            return
        mark, size = lw.var("mark"), lw.var("size")
        with lw.nested() as body:
            lower_write(e.inner, lw, v, path)
        error = f"{lw.ref(too_big)}({lw.ref(e)}, {size})"
        pack_into = lw.ref(struct.Struct(code).pack_into)
        lw.add(Framed(mark, size, code[1:], pack_into, largest, error, tuple(body), path))

    return Code(_then_after(write), _read_then(read))


# ------------------------------------------------------------ records and tuples


@inline_ops.register(Parts)
def _parts_ops(e: Parts[Any]) -> Code:
    def write(lw: Lowering, v: str, path: Path, then: Then) -> None:
        lower_parts_write(lw, e.parts, e.as_dict, e.keys, v, path, then)

    def read(lw: Lowering, target: str, end: str, path: Path, then: Then) -> None:
        lower_parts_read(lw, e.parts, e.as_dict, target, end, path, then)

    return Code(write, read)


# ------------------------------------------------------------ lists


@inline_ops.register
def _list_ops(e: ListEncoding) -> Code:
    mode, arg = e.count_mode

    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        if reads_whole(e):
            lw.add(Call(lw.read_with(e), target, path, end))
            return
        lw.add(Flush(end))
        count = str(arg)
        if mode == "count":
            code, width, _ = HEADERS[arg]
            count = lw.var("count")
            lw.add(
                Take(code[1:], width, count, path=path, what="an element count"),
                Flush(end),
                Do(f"{lw.ref(check_count)}({lw.ref(e)}, {count}, pos, {end})", path),
            )
        # (the lenient variant reads each number alone: it may be a marker)
        whole = None if lw.lenient else many(e.elt)
        if whole is not None and mode == "frame" and e.max_length is None:
            lw.add(
                Do(f"{target} = {lw.ref(whole[1], 'read_many')}(buf, pos, {end})", path),
                Let("pos", end),
                Moved(to=end),
            )
            return
        if mode == "exactly" and arg <= UNROLLED:
            _read_few(e, lw, arg, target, end, path)
            return
        items, x = lw.var("items"), lw.var("item")
        lw.add(Let(items, "[]"))
        header = f"while pos < {end}:" if mode == "frame" else f"for _ in range({count}):"
        with lw.nested() as body:
            if mode != "frame":
                error = f"{lw.ref(not_enough_data)}(pos, 1, {end})"
                lw.add(Fail(f"pos >= {end}", error, (*path, f"len({items})")))
            elif e.max_length is not None:
                error = (
                    f"{lw.ref(too_long)}({lw.ref(e)}, {lw.ref(DecodeError)}, {e.max_length + 1})"
                )
                lw.add(Fail(f"len({items}) == {e.max_length}", f"{error}.at(pos)", path))
            lower_read(e.elt, lw, x, end, (*path, f"len({items})"))
            lw.add(Flush(end), Do(f"{items}.append({x})"))
        lw.add(Loop(header, tuple(body), end, exhausts=mode == "frame"), Let(target, items))

    def write(lw: Lowering, v: str, path: Path) -> None:
        if lw.json:  # exactly a JSON array
            lw.bail_if(f"type({v}) is not list")
            if writes_whole(e):  # of integers that are exactly ``int`` (see jsonmode)
                ints = lw.ref(frozenset({int}), "ints")
                lw.bail_if(f"not set(map(type, {v})) <= {ints}")
        if writes_whole(e):
            lw.add(Call(e._write, v, path))
            return
        lw.add(Flush())
        # the common case in one test; the check says what is wrong otherwise
        fine = f"type({v}) is list"
        if mode == "exactly":
            fine += f" and len({v}) == {arg}"
        elif e.max_length is not None:
            fine += f" and len({v}) <= {e.max_length}"
        with lw.when(f"not ({fine})"):
            lw.add(Do(f"{lw.ref(check_length)}({lw.ref(e)}, {v})", path))
        if mode == "count":
            lw.add(Append(f"{lw.ref(struct.Struct(HEADERS[arg][0]).pack)}(len({v}))"))
        whole = None if lw.lenient else many(e.elt)
        if whole is not None:
            lw.add(Call(whole[0], v, path, stem="write_many"))
            return
        x = lw.var("item")
        with lw.nested() as body:
            lower_write(e.elt, lw, x, (*path, f"_index({v}, {x})"))
        lw.add(Loop(f"for {x} in {v}:", tuple(body), over=v))

    return Code(_then_after(write), _read_then(read))


UNROLLED = 4
"""A list of exactly this many elements or fewer is read without a loop."""


def _read_few(e: ListEncoding, lw: Lowering, count: int, target: str, end: str, path: Path) -> None:
    """The elements of a list of exactly ``count`` one after the other, as the
    loop reads them, with the same errors (a Micheline primitive's one or
    two arguments: a loop and its appends cost more than the read)."""
    items = []
    for index in range(count):
        x = lw.var("item")
        at = (*path, str(index))
        lw.add(Fail(f"pos >= {end}", f"{lw.ref(not_enough_data)}(pos, 1, {end})", at))
        lower_read(e.elt, lw, x, end, at)
        lw.add(Flush(end))
        items.append(x)
    lw.add(Let(target, f"[{', '.join(items)}]"))


# ------------------------------------------------------------ unions


@inline_ops.register
def _union_ops(u: Union) -> Code:
    def write(lw: Lowering, v: str, path: Path, then: Then) -> None:
        _union_write(u, lw, v, path, then)

    def read(lw: Lowering, target: str, end: str, path: Path, then: Then) -> None:
        _union_read(u, lw, target, end, path, then)

    return Code(write if writes_inline(u) else None, read if reads_inline(u) else None)


def _union_read(u: Union, lw: Lowering, target: str, end: str, path: Path, then: Then) -> None:
    """Peek the tag, then one branch per case, the tag read as a pad (and,
    when the cases may overlap, a check that the value keeps its case)."""
    width = u.tag_width
    tag = lw.var("tag")
    checks = canonical(u)
    # the lenient variant of a union whose values cannot hold markers
    unheld_case = lw.lenient and not isinstance(u, Option) and not holds(u)
    # the tag's offset, for the error (or the marker)
    where = lw.var("tag_pos") if checks is not None or unheld_case else None
    peek = Peek(tag, width, path, f"the tag of a {u.what}", end, where)
    with lw.choice(len(u.tagged), then, peek) as rest:
        for c in u.tagged:
            with lw.branch(f"{tag} == {c.tag}", end):
                lw.add(Take(f"{width}x", width))
                if unheld_case and where is not None:
                    _read_unheld_case(u, lw, c, target, end, where, path)
                    continue
                follow = rest
                if checks is not None and where is not None and not _reads_exactly(u, c):
                    follow = _checked(u, lw, checks, target, where, c, path, rest)
                lower_read(c.enc, lw, target, end, path, follow)
        with lw.branch(None, end):
            lw.add(
                Flush(end), Fail(None, f"{lw.ref(unexpected_tag)}({lw.ref(u)}, {tag}, pos)", path)
            )


def _read_unheld_case(
    u: Union, lw: Lowering, c: Case, target: str, end: str, where: str, path: Path
) -> None:
    """The lenient variant of case ``c`` of a union whose values hold no
    marker (its writer, or a predicate, would be given it): when the case's
    reading made markers, or its value is not one the writer writes with
    this case, the union's value is an unheld marker of its bytes."""
    made = lw.var("made")
    lw.add(Let(made, "cells[0]"))
    lower_read(c.enc, lw, target, end, path)
    test = f"cells[0] != {made}"
    checks = canonical(u)
    if checks is not None and not _reads_exactly(u, c):  # the predicates see plain values only
        test += f" or {_wrong_case(u, lw, checks, c, target)}"
    marker = f"{lw.ref(unheld)}(cells, {target}, buf[{where}:pos])"
    lw.add(Flush(end), Do(f"if {test}: {target} = {marker}"))


def _reads_exactly(u: Union, c: Case) -> bool:
    """Whether every value case ``c`` reads is one its writer writes with
    ``c``, so that no check is needed: see :func:`~data_encoding.matching`."""
    return isinstance(u, Matching) and c.tag in u.exact_reads


def _wrong_case(
    u: Union, lw: Lowering, checks: dict[int, Callable[[Any], bool]], c: Case, target: str
) -> str:
    """The test that the value in ``target``, read with case ``c``, is not
    one the writer writes with ``c``: ``checks[c.tag]``, or a ``matching``
    union's function called as it is."""
    if isinstance(u, Matching):
        return f"{lw.ref(u.select, 'select')}({target}) != {c.tag}"
    return f"not {lw.ref(checks[c.tag])}({target})"  # type: ignore[index]  # tagged


def _checked(
    u: Union,
    lw: Lowering,
    checks: dict[int, Callable[[Any], bool]],
    target: str,
    where: str,
    c: Case,
    path: Path,
    then: Then,
) -> Then:
    """The ops that follow case ``c``'s read: its check of the value in
    ``target`` (once the pending run is read: ``checks[c.tag]``, or a
    ``matching`` union's function called as it is), then ``then``."""
    error = f"{lw.ref(not_canonical)}({lw.ref(u)}, {where}, {lw.ref(c)})"
    if path:
        error = f"_at({error}, {tuple_expr(path)})"
    wrong = _wrong_case(u, lw, checks, c, target)

    def checked() -> None:
        lw.add(AfterReads(f"if {wrong}: raise {error} from None"))
        if then is not None:
            then()

    return checked


def _union_write(u: Union, lw: Lowering, v: str, path: Path, then: Then) -> None:
    """Pick the case by its constant member, one ``if`` per case; anything
    else takes the selection loop, for its precise errors."""
    if isinstance(u, Option):
        lw.presence(v, 1, u.cases[0].enc, path, then)
        return
    if isinstance(u, Matching):
        _matching_write(u, lw, v, path, then)
        return
    told = by_constant(u)
    assert told is not None
    key, cases = told
    fmt = "B" if u.tag_width == 1 else "H"
    constant = lw.var("kind")
    lw.add(Let(constant, f"{v}.get({key!r}) if type({v}) is dict else None"))
    with lw.choice(len(cases) + 1, then) as rest:
        for name, c in cases:
            with lw.branch(f"{constant} == {name!r}"):
                lw.dicts[v] = {key: name}
                lw.add(const(fmt, c.tag or 0))
                lower_write(c.enc, lw, v, path, rest)
        with lw.branch(None):
            if lw.json:  # no constant member of a plain object: not this JSON
                lw.add(Fail(None, lw.ref(Bail), ()))
                return
            lw.add(Call(select_write(u, lw.lenient), v, path))
            if rest is not None:
                rest()


def _matching_write(u: Matching, lw: Lowering, v: str, path: Path, then: Then) -> None:
    """One call of the union's function, then one ``if`` per tag; a value no
    case takes (the function gave ``None``, or a tag of no case) takes the
    selection loop, for its error."""
    fmt = "B" if u.tag_width == 1 else "H"
    tag = lw.var("tag")
    lw.add(Let(tag, f"{lw.ref(u.select, 'select')}({v})"))
    with lw.choice(len(u.tagged) + 1, then) as rest:
        for c in u.tagged:
            with lw.branch(f"{tag} == {c.tag}"):
                lw.add(const(fmt, c.tag or 0))
                lower_write(c.enc, lw, v, path, rest)
        with lw.branch(None):
            lw.add(Call(select_write(u), v, path))
            if rest is not None:
                rest()
