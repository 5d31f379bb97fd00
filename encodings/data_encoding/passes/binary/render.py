"""Rendering the binary op IR (:mod:`.ops`) to a Python function.

The renderer walks a block of ops and writes the function a careful person
would write by hand for that exact shape. Its one piece of state worth the
name is the *pending run*: fixed-width ops (:class:`~.ops.Put`,
:class:`~.ops.Take`) do not touch the buffer when they come; they wait
until something else must (a :class:`~.ops.Flush`, a call, the end of
a branch) and are then written with one precompiled ``struct.Struct`` call,
or read with one ``unpack_from``. A union tag or a presence byte is a
constant in the run, and the run is carried into each branch of a choice, so
``uid, tag, pid`` of a record holding a union become one ``pack`` per case.
When reading, the choice byte is peeked at its offset inside the pending
run, and each branch reads the whole run (tag included, as a pad byte) in
one ``unpack``; a statement that uses values of the run
(:class:`~.ops.AfterReads`: building a record's dict) waits for it.

Pieces: a writer appends to a ``bytearray``, which a frame's size is
patched into once its content is written. An entry point (``e.encode``)
may instead collect ``bytes`` pieces in a list and join them once at the
end, as hand-written code does (no growing buffer, no copy of it): a
frame's content is then joined first, and its size joins the pending run
before it, one ``pack`` for the fields before the frame and its size. A
sequence of more than :data:`MANY_PIECES` elements is written to one
``bytearray`` piece (a piece per element would cost its memory).

Errors: every error raised by the generated code carries the op's path from
the function's root. A writer's fields fail in order: when something fails
while a run is pending, the first pending field whose check fails is
reported instead (:func:`~.emit.put_failure`); a fused read that does not
fit reports the first field that runs out (:func:`~.emit.short_read`).
Nothing on the success path pays for paths or offsets.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Sequence
from functools import singledispatchmethod

from ...errors import DataEncodingError, index_of
from ..emit import Source, at, put_failure, short_read, tuple_expr, unpack_failure
from .ops import (
    AfterReads,
    Append,
    AtEnd,
    Block,
    Branch,
    Call,
    Choice,
    Do,
    Fail,
    Fetch,
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
)

__all__ = ["Renderer", "new_source", "render_function", "writes_pieces"]


MANY_PIECES = 32
"""An entry point in pieces writes a sequence longer than this to a
``bytearray`` (one piece) rather than a piece per element."""


class _GuardFailed(Exception):
    pass


class Renderer:
    """Renders ops into ``source``, a reader's when ``reading`` else a
    writer's: into the ``bytearray`` ``out``, or, with ``pieces``, into the
    list ``out`` of the ``bytes`` pieces (see :func:`writes_pieces`)."""

    def __init__(self, source: Source, reading: bool, pieces: bool = False) -> None:
        self.src, self.reading, self.pieces = source, reading, pieces
        #: the variable written to: ``out``, or a frame's list of pieces
        self.out = "out"
        self.puts: list[Put] = []
        self.takes: list[Take] = []
        #: bytes from ``pos`` known to be in the frame (a peek checked them)
        self.known = 0
        #: lines that use values of the pending run: emitted after its unpack
        self.deferred: list[str] = []
        #: the frame variable ``pos`` is known to equal (a part read to its end)
        self.ended: str | None = None

    # ------------------------------------------------------------ blocks

    def block(self, ops: Block) -> None:
        for op in ops:
            self.op(op)

    @singledispatchmethod
    def op(self, op: Op) -> None:
        raise TypeError(f"not an op: {op!r}")

    @op.register
    def _put(self, op: Put) -> None:
        self.puts.append(op)

    @op.register
    def _take(self, op: Take) -> None:
        self.takes.append(op)

    @op.register
    def _flush(self, op: Flush) -> None:
        self.flush(op.end)

    @op.register
    def _moved(self, op: Moved) -> None:
        self.moved(op.to)

    def moved(self, to: str | None = None) -> None:
        """``pos`` moved (to the end of frame ``to``): what a peek checked is stale."""
        self.known, self.ended = 0, to

    @op.register
    def _let(self, op: Let) -> None:
        self.src.line(f"{op.target} = {op.expr}")

    @op.register
    def _do(self, op: Do) -> None:
        self.guarded(op.statement, op.path)

    @op.register
    def _append(self, op: Append) -> None:
        self.flush()
        self.write(op.data)

    def write(self, data: str) -> None:
        """Emit the statement that writes the ``bytes`` expression ``data``."""
        self.src.line(self.written(data))

    def written(self, data: str) -> str:
        """The statement that writes the ``bytes`` expression ``data``."""
        return f"{self.out}.append({data})" if self.pieces else f"{self.out} += {data}"

    @op.register
    def _fetch(self, op: Fetch) -> None:
        with self.src.block("try:"):
            for target, key in op.items:
                self.src.line(f"{target} = {op.value}[{key!r}]")
        with self.src.block("except KeyError:"):
            self.raise_at(op.error, op.path)

    @op.register
    def _to_bytes(self, op: ToBytes) -> None:
        self.flush()
        if op.text:
            self.guarded(f"{op.raw} = {op.convert}({op.value})", op.path)
            return
        self.src.line(f"if type({op.value}) is bytes: {op.raw} = {op.value}")
        with self.src.block("else:"):
            self.guarded(f"{op.raw} = {op.convert}({op.value})", op.path)

    @op.register
    def _fail(self, op: Fail) -> None:
        if op.test is None:
            self.raise_at(op.error, op.path)
            return
        with self.src.block(f"if {op.test}:"):
            self.raise_at(op.error, op.path)

    @op.register
    def _after_reads(self, op: AfterReads) -> None:
        if self.takes:
            self.deferred.append(op.statement)
        else:
            self.src.line(op.statement)

    @op.register
    def _call(self, op: Call) -> None:
        self.flush(op.end)
        if self.reading:
            self.moved()
            call = f"{op.var}, pos = {self.src.ref(op.fn, op.stem or 'read')}(buf, pos, {op.end})"
            self.guarded(call, op.path)
            return
        write = self.src.ref(op.fn, op.stem or "write")
        if not self.pieces:
            self.guarded(f"{write}({self.out}, {op.var})", op.path)
            return
        piece = self.src.var("piece")  # a writer writes to a bytearray: one piece
        self.src.line(f"{piece} = bytearray()")
        self.guarded(f"{write}({piece}, {op.var})", op.path)
        self.write(piece)

    @op.register
    def _choice(self, op: Choice) -> None:
        if op.peek is not None:
            self.peek(op.peek)
        for i, b in enumerate(op.branches):
            if b.test is None:
                assert i == len(op.branches) - 1, "only the last branch may have no test"
                # alone (a union whose cases are all JSON-only), it is always taken
                self.branch("else:" if i else "if True:", b)
            else:
                self.branch(f"{'elif' if i else 'if'} {b.test}:", b)
        # each branch wrote (or read) its run
        self.puts, self.takes, self.deferred = [], [], []
        self.moved()

    @op.register
    def _framed(self, op: Framed) -> None:
        if self.pieces:
            self.framed_pieces(op)
            return
        out = self.out
        self.flush()
        self.src.line(f"{op.mark} = len({out})")
        self.src.line(f"{out} += {bytes(op.width)!r}")
        self.block(op.body)
        self.flush()
        self.src.line(f"{op.size} = len({out}) - {op.mark} - {op.width}")
        with self.src.block(f"if {op.size} > {op.largest}:"):
            self.src.line(f"del {out}[{op.mark}:]")
            self.raise_at(op.error, op.path)
        self.src.line(f"{op.pack_into}({out}, {op.mark}, {op.size})")

    def framed_pieces(self, op: Framed) -> None:
        """The frame's content, joined into one piece, then its size in the
        pending run (written with the fields before it), then the content.
        A content written by one call (a writer's ``bytearray``) is written
        after a placeholder instead, as a writer does, and is the piece: the
        bytes are not copied once more to be joined.

        The content is written before the pending fields are checked, so
        its errors go through ``put_failure`` as theirs would (fields fail
        in order); a ``RecursionError`` passes through it unchanged.
        """
        src, outer, puts = self.src, self.out, self.puts
        one_call = _one_call(op.body)
        buffer = src.var("piece" if one_call else "pieces")
        src.line(f"{buffer} = bytearray({op.width})" if one_call else f"{buffer} = []")
        self.out, self.puts, self.pieces = buffer, [], not one_call
        if any(i.check is not None for i in puts):
            with src.block("try:"):
                self.block(op.body)
                self.flush()
            src.line(
                "except (_Err, RecursionError) as x: "
                f"raise _put_failure({self._report(puts)}, x) from None"
            )
        else:
            self.block(op.body)
            self.flush()
        self.out, self.puts, self.pieces = outer, puts, True
        content = buffer if one_call else src.var("content")
        if one_call:
            src.line(f"{op.size} = len({buffer}) - {op.width}")
        else:
            # one piece (a long sequence's bytearray) is the content as it is
            src.line(f"{content} = {buffer}[0] if len({buffer}) == 1 else b''.join({buffer})")
            src.line(f"{op.size} = len({content})")
        with src.block(f"if {op.size} > {op.largest}:"):
            self.raise_at(op.error, op.path)
        if one_call:
            src.line(f"{op.pack_into}({buffer}, 0, {op.size})")
        else:
            self.puts.append(Put(op.fmt, op.size))
        self.flush()
        self.write(content)

    @op.register
    def _sub_frame(self, op: SubFrame) -> None:
        self.flush(op.end)
        self.moved()  # a new frame: what a peek checked was in the old one
        self.src.line(f"{op.frame} = {op.expr}")
        with self.src.block(f"if {op.bad}:  # {op.why}"):
            self.raise_at(op.error, op.path)

    @op.register
    def _at_end(self, op: AtEnd) -> None:
        self.flush(op.frame)
        if self.ended != op.frame:
            with self.src.block(f"if pos != {op.frame}:"):
                self.raise_at(op.error, op.path)
        self.moved()

    @op.register
    def _loop(self, op: Loop) -> None:
        if not (self.pieces and op.over):
            self.turns(op)
            return
        # A piece per element costs a bytes object and a list slot (about
        # 100 bytes for a small record): a long sequence is written to a
        # bytearray, one piece, while a short one (a header's fitness)
        # takes the faster pieces.
        with self.src.block(f"if len({op.over}) > {MANY_PIECES}:"):
            run = self.src.var("run")
            self.src.line(f"{run} = bytearray()")
            outer, self.out, self.pieces = self.out, run, False
            self.turns(op)
            self.out, self.pieces = outer, True
            self.write(run)
        with self.src.block("else:"):
            self.turns(op)

    def turns(self, op: Loop) -> None:
        with self.src.block(op.header):
            self.moved()  # each turn starts where the last one ended
            self.block(op.body)
            self.flush(op.end)
        self.moved(op.end if op.exhausts else None)

    # ------------------------------------------------------------ choices

    def branch(self, header: str, b: Branch) -> None:
        """One branch of a choice: the pending run is carried into it and
        flushed at its end."""
        puts, takes, known, deferred = list(self.puts), list(self.takes), self.known, self.deferred
        self.deferred = list(deferred)
        with self.src.block(header):
            self.block(b.body)
            self.flush(b.end)
        self.puts, self.takes, self.known, self.deferred = puts, takes, known, deferred
        self.ended = None

    def raise_at(self, error: str, path: Path) -> None:
        """Emit ``raise`` of the error expression, located at ``path``.

        Fields fail in order: a pending field that is already wrong is
        reported instead, as if it had been written when it came. (A reader
        flushes its pending run before anything that may fail.)
        """
        assert not self.takes, "flush the pending reads before raising"
        located = f"_at({error}, {tuple_expr(path)})" if path else error
        if any(i.check is not None for i in self.puts):
            located = f"_put_failure({self._report()}, {located})"
        self.src.line(f"raise {located} from None")

    def guarded(self, statement: str, path: Path) -> None:
        """Emit a statement whose errors are located at ``path``."""
        if path:
            self.src.line(f"try: {statement}")
            self.src.line(f"except _Err as e: raise _at(e, {tuple_expr(path)}) from None")
        else:
            self.src.line(statement)

    def flush(self, end: str = "end") -> None:
        """Write (or read, in frame ``end``) the pending run."""
        if self.reading:
            self.flush_read(end)
        else:
            self.flush_write()

    # ------------------------------------------------------------- writing

    def _report(self, items: Sequence[Put] | None = None) -> str:
        """The argument of ``put_failure`` for the pending run."""
        return tuple_expr(
            [
                f"({i.check}, {i.value}, {tuple_expr(i.path)})"
                for i in (self.puts if items is None else items)
                if i.check is not None
            ]
        )

    def flush_write(self) -> None:
        items, self.puts = self.puts, []
        if not items:
            return
        line = self.src.line
        if all(i.const for i in items):
            fmt = ">" + "".join(i.fmt for i in items)
            constant = struct.pack(fmt, *(int(i.arg or 0) for i in items if i.fmt))
            if len(constant) == 1 and not self.pieces:
                line(f"{self.out}.append({constant[0]})")
            else:
                self.write(repr(constant))
            return
        args = [i.arg for i in items if i.fmt and i.arg is not None]
        guards = [i.guard for i in items if i.guard]
        if len(items) == 1 and items[0].ready and items[0].arg is not None:
            # fixed bytes alone, their type and length known: no struct call
            data = items[0].arg
        else:
            pack = self.src.ref(struct.Struct(">" + "".join(i.fmt for i in items)).pack, "pack")
            data = f"{pack}({', '.join(args)})"
        write = self.written(data)
        if all(i.check is None for i in items):  # constants and sizes: nothing can fail
            line(write)
            return
        report = self._report(items)
        with self.src.block("try:"):
            if guards:
                line(f"if not ({' and '.join(guards)}): raise _Guard")
            for i in items:
                if not i.fmt and i.check is not None and i.guard is None:
                    line(f"{i.check}({i.value})")
            if args:
                line(write)
        line(f"except Exception as x: raise _put_failure({report}, x) from None")

    # ------------------------------------------------------------- reading

    def pending_width(self) -> int:
        return sum(t.width for t in self.takes)

    def _short(self, extra: Sequence[Take] = ()) -> str:
        """The arguments of ``short_read`` for the pending run (and ``extra``)."""
        items = [
            f"({t.width}, {t.fmt!r}, {t.unpack}, {tuple_expr(t.path)}, {t.what!r})"
            for t in [*self.takes, *extra]
        ]
        return f"buf, {tuple_expr(items)}"

    def peek(self, p: Peek) -> None:
        """Read a choice byte (or two) just after the pending run, without
        consuming it: the branches take it as a pad."""
        offset = self.pending_width()
        line = self.src.line
        line(f"if {p.end} - pos < {offset + p.width}:")
        short = self._short([Take("", p.width, path=p.path, what=p.what)])
        line(f"    raise _short({short}, pos, {p.end})")
        self.known = offset + p.width
        at = f"pos + {offset}" if offset else "pos"
        if p.width == 1:
            line(f"{p.tag} = buf[{at}]")
        else:
            line(f"{p.tag} = int.from_bytes(buf[{at}:{at} + {p.width}], 'big')")
        if p.at is not None:
            line(f"{p.at} = pos + {offset}")

    def flush_read(self, end: str) -> None:
        items = self.takes
        if not items:
            return
        line = self.src.line
        width = self.pending_width()
        if width > self.known:
            line(f"if {end} - pos < {width}: raise _short({self._short()}, pos, {end})")
        self.known = max(self.known - width, 0)
        if width:
            self.ended = None
        self.takes = []
        targets = [(i, t.target) for i, t in enumerate(items) if t.width and t.target is not None]
        if len(targets) == 1 and items[targets[0][0]].fmt == "B":  # an index costs less than a call
            index, target = targets[0]
            offset = sum(t.width for t in items[:index])
            line(f"{target} = buf[{f'pos + {offset}' if offset else 'pos'}]")
        elif targets:
            unpack = self.src.ref(
                struct.Struct(">" + "".join(t.fmt for t in items)).unpack_from, "unpack"
            )
            line(f"{tuple_expr([target for _, target in targets])} = {unpack}(buf, pos)")
        offset = 0
        for t in items:
            where = f"pos + {offset}" if offset else "pos"
            if t.literal is not None:
                line(f"{t.target} = {t.literal}")
            elif t.table is not None:  # one index, where a call would cost more
                line(f"try: {t.target} = {t.table}[{t.target}]")
                line(
                    f"except IndexError: raise _unpack_failure({t.unpack}, {t.target}, {where}, "
                    f"{tuple_expr(t.path)}) from None"
                )
            elif t.unpack is not None and t.guard is not None:
                line(f"if not ({t.guard}):")
                line(
                    f"    raise _unpack_failure({t.unpack}, {t.target}, {where}, "
                    f"{tuple_expr(t.path)})"
                )
            elif t.unpack is not None:
                line(f"try: {t.target} = {t.unpack}({t.target if t.width else 'None'})")
                line(
                    f"except _Err as e: raise _at(e.shift({where}), {tuple_expr(t.path)}) from None"
                )
            offset += t.width
        if width:
            line(f"pos += {width}")
        deferred, self.deferred = self.deferred, []
        for statement in deferred:
            line(statement)


def _one_call(ops: Block) -> bool:
    """Whether ``ops`` write through exactly one call and nothing else."""
    return [type(op) for op in ops if _writes_out(op)] == [Call]


def _writes_out(op: Op) -> bool:
    if isinstance(op, Choice):
        return any(_writes_out(inner) for b in op.branches for inner in b.body)
    return isinstance(op, Put | Append | Call | Framed | Loop)


_OUTPUT = re.compile(r"\bout\b")


def writes_pieces(ops: Block) -> bool:
    """Whether a writer's ops may be rendered into pieces: none of their
    statements uses the ``bytearray`` itself (an optional field without a
    presence byte measures what its value wrote)."""
    for op in ops:
        if isinstance(op, Let | Do | Fail):
            text = (
                op.expr if isinstance(op, Let) else op.statement if isinstance(op, Do) else op.test
            )
            if text is not None and _OUTPUT.search(text):
                return False
        elif isinstance(op, Choice):
            if not all(writes_pieces(b.body) for b in op.branches):
                return False
        elif isinstance(op, Framed | Loop) and not writes_pieces(op.body):
            return False
    return True


def new_source() -> Source:
    """A function to generate, its environment holding what rendered ops use."""
    return Source(
        {
            "_Err": DataEncodingError,
            "_Guard": _GuardFailed,
            "_at": at,
            "_index": index_of,
            "_put_failure": put_failure,
            "_short": short_read,
            "_unpack_failure": unpack_failure,
        }
    )


def render_function(
    source: Source, header: str, body: Block, reading: bool, returns: str = ""
) -> None:
    """Render ``body`` into ``source`` as the function ``header`` (a reader
    returns ``returns`` and ``pos``)."""
    r = Renderer(source, reading)
    with source.block(header):
        r.block(body)
        r.flush()
        if returns:
            source.line(f"return {returns}, pos")
