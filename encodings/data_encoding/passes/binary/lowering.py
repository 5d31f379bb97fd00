"""Lowering the encoding tree to the binary op IR: the lowering's state.

A composite compiles into one function (:mod:`.compiled`) in two steps: its
tree is *lowered* to a block of ops (:mod:`.ops`: :func:`lowered`), which
:mod:`.render` *renders* to Python. Its parts lower into the same block
(:func:`lower_read`, :func:`lower_write`: inlining) down to a budget of ops
(:data:`OP_BUDGET`), beyond which they are called; what each node lowers to
is :func:`.inline.inline_ops`'s (records and tuples: :mod:`.parts`), in JSON
mode :mod:`.jsonlowering`'s, and in the lenient variant the same, each part
that holds markers wrapped here (:func:`_holding`, :func:`_marker_first`).

What follows a choice: a choice (a union, an option, a presence byte)
whose branches may take the ops that follow it (:meth:`Lowering.choice`,
within :data:`COPIES` copies and the budget) is lowered once and marked;
:func:`.joining.join` then copies what follows it into its branches, one
rewrite of the finished block. A part lowered apart from what follows it (a
list's element, a frame's content, a conversion's inner value) is lowered in
a :meth:`Lowering.scope`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ...noncanonical import NonCanonical, counts, held
from ...tree.core import Encoding, Reader, Writer
from ..emit import Source
from ..leafjson import Bail
from ..transparent import emitted_for
from .inline import inline_ops
from .joining import COPIES, fails, join
from .jsonlowering import lower_read_json, lower_write_json
from .marking import absorbs, holds, lenient_unpack, lenient_value_node
from .ops import (
    Append,
    Block,
    Branch,
    Call,
    Choice,
    Do,
    Fail,
    Flush,
    Let,
    Op,
    Path,
    Peek,
    Scope,
    const,
)
from .render import new_source
from .rules import same_binary

__all__ = [
    "OP_BUDGET",
    "Lowering",
    "lower_read",
    "lower_write",
    "lowered",
]

#: Beyond this many ops a function stops inlining its parts and calls them
#: (each part still compiles itself): bounds the code of very large trees.
OP_BUDGET = 450


class Lowering:
    """A block of ops being lowered, and the facts lowering keeps on the way.

    Variables and the objects the ops name are the function's :class:`Source`'s.
    """

    def __init__(self, source: Source) -> None:
        self.source = source
        self.ops: list[Op] = []
        #: ops lowered so far, in every block, each counted once per copy
        #: the joining choices before it will make (the budget)
        self.count = 0
        #: how many copies of the current ops the joining choices around
        #: and before them will make, at most (bounded by :data:`.joining.COPIES`)
        self.copies = 1
        #: how many times the ops added now will stand in the joined block
        #: (as :func:`.joining.join` will copy them: an estimate for the budget)
        self.weight = 1
        #: variables known to hold exactly a ``dict`` (a union case chosen by
        #: a member), with the members known to hold a constant
        self.dicts: dict[str, dict[str, str]] = {}
        self._branches: list[list[Branch]] = []
        #: per open choice, ``(copies, weight)`` at the end of each branch
        #: the ops after it join
        self._ends: list[list[tuple[int, int]]] = []
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
        self.count += len(ops) * self.weight

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
        """Collect the ops added meanwhile into the yielded list: a block of
        its own (a loop's body, a frame's), which takes nothing after it."""
        outer, self.ops = self.ops, []
        copies, weight = self.copies, self.weight
        try:
            yield self.ops
        finally:
            self.ops = outer
            self.copies, self.weight = copies, weight

    @contextmanager
    def scope(self) -> Iterator[None]:
        """Ops lowered apart from those that follow them: a choice among
        them takes nothing after the scope (:class:`~.ops.Scope`)."""
        with self.nested() as body:
            yield
        self.ops.append(Scope(tuple(body)))  # (not an op of the joined block: not counted)

    # ------------------------------------------------------------ choices

    @contextmanager
    def choice(self, branches: int, peek: Peek | None = None, joins: bool = True) -> Iterator[None]:
        """A :class:`~.ops.Choice` of ``branches`` :meth:`branch` es (and
        maybe an ``else`` that fails), whose branches but those that fail
        take the ops that follow it (:func:`.joining.join`) when it
        ``joins`` and the bounds allow it: so a pending run goes on across
        the choice, the fields after a union or an option joining each
        case's ``struct`` call. The lowering counts the copies it expects
        (:meth:`may_copy`) for its budget.
        """
        joins = joins and not self.lenient
        copy = joins and self.may_copy(branches)
        copies, weight = self.copies, self.weight
        if copy:
            self.copies *= branches
        self._branches.append([])
        self._ends.append([])
        try:
            yield
        finally:
            made, ends = self._branches.pop(), self._ends.pop()
            self.copies, self.weight = copies, weight
        self.add(Choice(tuple(made), peek, joins=joins))
        if copy and ends:  # what follows stands in every branch that takes it
            self.copies = max(c for c, _ in ends)
            self.weight = sum(w for _, w in ends)

    @contextmanager
    def branch(self, test: str | None, end: str = "end") -> Iterator[None]:
        """One branch of the current :meth:`choice`, taken when ``test`` holds."""
        dicts, self.dicts = self.dicts, dict(self.dicts)
        outer, self.ops = self.ops, []
        copies, weight = self.copies, self.weight
        try:
            yield
            body = tuple(self.ops)
            self._branches[-1].append(Branch(test, body, end))
            if not fails(body):
                self._ends[-1].append((self.copies, self.weight))
        finally:
            self.ops, self.dicts = outer, dicts
            self.copies, self.weight = copies, weight

    @contextmanager
    def when(self, test: str) -> Iterator[None]:
        """Ops taken only when ``test`` holds: a choice of one branch."""
        with self.choice(1, joins=False), self.branch(test):
            yield

    def may_copy(self, branches: int) -> bool:
        """Whether the join is expected to copy the ops after a choice of
        ``branches`` into each (the budget counts them, and the choices in
        its branches see the copies it makes): as :func:`.joining.join`
        decides, once it knows what follows."""
        return not self.lenient and self.copies * branches <= COPIES and self.room()

    def read_with(self, e: Encoding[Any]) -> Reader:
        """``e``'s reader for this lowering (its lenient one, in the lenient variant)."""
        return e._read_lenient if self.lenient else e._read

    def write_with(self, e: Encoding[Any]) -> Writer:
        """``e``'s writer for this lowering (its marked one, in the lenient variant)."""
        return e._write_marked if self.lenient else e._write

    def lower_read(self, e: Encoding[Any], target: str, end: str, path: Path) -> None:
        """:func:`lower_read` into this block: how the rules of other modules
        (:mod:`.inline`, :mod:`.parts`) lower their parts, importing nothing
        of this one."""
        lower_read(e, self, target, end, path)

    def lower_write(self, e: Encoding[Any], v: str, path: Path) -> None:
        """:func:`lower_write` into this block (see :meth:`lower_read`)."""
        lower_write(e, self, v, path)

    def presence(self, v: str, byte: int, enc: Encoding[Any], path: Path) -> None:
        """Write ``00`` when ``v`` is ``None``, else ``byte`` then ``v`` in ``enc``."""
        with self.choice(2):
            with self.branch(f"{v} is None"):
                self.add(const("B", 0))
            with self.branch(None):
                self.add(const("B", byte))
                lower_write(enc, self, v, path)


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
    >>> from data_encoding.passes.binary.ops import show
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
            _holding(e, lw, "x", "end", lambda: read(lw, "x", "end", ()))
        else:
            read(lw, "x", "end", ())
    else:
        assert code.write is not None, f"{type(e).__name__} is not compiled"
        write = code.write
        if lenient:
            lw.lenient = True
            _marker_first(e, lw, "v", lambda: write(lw, "v", ()))
        else:
            write(lw, "v", ())
    return join(tuple(lw.ops), OP_BUDGET)


def lower_write(e: Encoding[Any], lw: Lowering, v: str, path: Path) -> None:
    """Add the ops that append the binary form of variable ``v``: inline
    when possible, else a call of the compiled writer. In JSON mode, ``v``
    holds the JSON form."""
    if lw.json:
        lower_write_json(e, lw, v, path)
        return
    e = emitted_for(e, same_binary)
    code = inline_ops(e).write
    if lw.lenient:
        if code is not None and lw.room() and holds(e):
            _marker_first(e, lw, v, lambda: code(lw, v, path))
        else:  # a part that holds no marker is written as it is (``e._write``)
            lw.add(Call(lw.write_with(e), v, path))
    elif code is not None and lw.room():
        code(lw, v, path)
    else:
        lw.add(Call(e._write, v, path))


def lower_read(e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path) -> None:
    """Add the ops that read a value (in JSON mode, its JSON form) into
    variable ``target``, advancing ``pos``, in the frame ending at variable
    ``end``: inline when possible, else a call of the compiled reader."""
    if lw.json:
        lower_read_json(e, lw, target, end, path)
    elif lw.lenient:
        e = emitted_for(e, lenient_value_node)
        code = inline_ops(e).read
        if code is not None and lw.room():
            read = code
            _holding(e, lw, target, end, lambda: read(lw, target, end, path))
        else:
            lw.add(Call(e._read_lenient, target, path, end))
    else:
        e = emitted_for(e, same_binary)
        code = inline_ops(e).read
        if code is not None and lw.room():
            code(lw, target, end, path)
        else:
            lw.add(Call(e._read, target, path, end))


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
    with lw.choice(2, joins=False):
        with lw.branch(f"type({v}) is {lw.ref(NonCanonical)}"):
            lw.add(Append(f"{v}.raw"))
        with lw.branch(None):
            write()
