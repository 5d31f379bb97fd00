"""Lowering the encoding tree to the binary op IR: the lowering's state.

A composite compiles into one function (:mod:`.compiled`) in two steps: its
tree is *lowered* to a block of ops (:mod:`.ops`: :func:`lowered`), which
:mod:`.render` *renders* to Python. Its parts lower into the same block
(:func:`lower_read`, :func:`lower_write`: inlining) down to a budget of ops
(:data:`OP_BUDGET`), beyond which they are called; what each node lowers to
is :func:`.inline.inline_ops`'s (records and tuples: :mod:`.parts`), in JSON
mode :mod:`.jsonlowering`'s, and in the lenient variant the same, each part
that holds markers wrapped here (:func:`_holding`, :func:`_marker_first`).

What follows a choice: a choice (a union, an option, a presence byte) may
call ``then`` at the end of each of its branches rather than once after
them (:meth:`Lowering.choice`, at most :data:`COPIES` copies), so the
fields after a union join each case's ``struct`` run: ``{uid, state: union,
parent: option}`` becomes one ``pack`` (and one ``unpack``) per wire
variant, as a hand-written codec would do it.
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
from .inline import Then, inline_ops
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
    const,
)
from .render import new_source
from .rules import same_binary

__all__ = [
    "COPIES",
    "OP_BUDGET",
    "Lowering",
    "lower_read",
    "lower_write",
    "lowered",
]

#: Beyond this many ops a function stops inlining its parts and calls them
#: (each part still compiles itself): bounds the code of very large trees.
OP_BUDGET = 450

#: At most this many copies of the ops that follow a choice (see ``Lowering.choice``).
COPIES = 16


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
        """A :class:`~.ops.Choice` of ``branches`` :meth:`branch` es
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
        (:mod:`.parts`) lower their parts, importing nothing of this one."""
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


def lower_write(e: Encoding[Any], lw: Lowering, v: str, path: Path, then: Then = None) -> None:
    """Add the ops that append the binary form of variable ``v`` (inline
    when possible, else a call of the compiled writer), then call ``then()``:
    the ops that follow, which a node that branches may add at the end of
    each branch. In JSON mode, ``v`` holds the JSON form."""
    if lw.json:
        lower_write_json(e, lw, v, path, then)
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
        lower_read_json(e, lw, target, end, path, then)
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
