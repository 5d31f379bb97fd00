"""The binary pass's op IR: what a compiled reader or writer does, before it is Python.

A composite's reader or writer is built in two steps. :mod:`.lowering`
*lowers* the encoding tree to a block of the ops below (one function per
node type; records and tuples in :mod:`.parts`), and
:mod:`.render` *renders* the block to the Python function. The ops are
the shapes a hand-written codec is made of:

* **fixed runs**: :class:`Put` and :class:`Take`, one fixed-width value each;
  consecutive ones become one ``struct`` call when rendered (the *pending
  run*), across records and into the branches of choices;
* **choices**: :class:`Choice`, an ``if`` per :class:`Branch` (a union's
  case, a presence byte), with the byte it branches on :class:`Peek` ed from
  the pending run when reading;
* **frames**: :class:`Framed` (a value written after a placeholder of its
  size), :class:`SubFrame` and :class:`AtEnd` (reading in a narrower frame,
  and checking it was read to its end);
* **loops**: :class:`Loop`;
* **scopes**: :class:`Scope`, ops whose following ops a choice among them
  does not take (see :mod:`.joining`: gone before rendering);
* **calls**: :class:`Call` of a part's own compiled reader or writer.

The rest are the statements around them: :class:`Let`, :class:`Do`,
:class:`Append`, :class:`Fetch`, :class:`ToBytes`, :class:`Fail`, :class:`AfterReads`, and
the two facts the renderer cannot infer, :class:`Flush` (the pending run is
written or read here) and :class:`Moved` (``pos`` moved).

Operands are Python expressions (variables named by the lowering, objects
named in the generated function's environment); the ops are frozen
dataclasses, so a block can be inspected, compared and rewritten before it is
rendered. Conventions of the generated code: a writer is ``write(out, v)``
appending to the ``bytearray`` ``out``; a reader is ``read(buf, pos, end)``
over ``bytes`` with the current position ``pos`` and the frame's end. Ops
name the output only through :class:`Append`, :class:`Call` and
:class:`Framed`, so that an entry point may render them into a list of
pieces instead (see :mod:`.render`).

Paths: an op that may fail knows its *path* statically, as a tuple of Python
expressions (``'state'`` for a key; for a list element, an expression that
finds the index, evaluated only when something failed).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any

Path = tuple[str, ...]
"""Python expressions of the path steps, from the generated function's root."""


class _Op:
    """An op reads as its call, without the fields left at their defaults."""

    def __repr__(self) -> str:
        return _call(self)


def _call(op: object, without: tuple[str, ...] = ()) -> str:
    """``op`` as its call, leaving out the fields named ``without`` and those
    at their defaults; a function by its name, a generated one by its file
    name (which says what it is)."""
    args = []
    for f in fields(op):  # type: ignore[arg-type]  # every op is a dataclass
        value = getattr(op, f.name)
        if f.name in without or (f.default is not MISSING and value == f.default):
            continue
        if callable(value):
            code = getattr(value, "__code__", None)
            if code is not None and code.co_filename.startswith("<data_encoding"):
                shown = code.co_filename
            else:
                shown = getattr(value, "__qualname__", type(value).__name__)
        else:
            shown = repr(value)
        args.append(f"{f.name}={shown}")
    return f"{type(op).__name__}({', '.join(args)})"


@dataclass(frozen=True, repr=False)
class Put(_Op):
    """A fixed-width write: joins the pending run.

    ``arg`` is the expression passed to ``struct`` (``None`` for a zero-width
    leaf); ``guard`` an expression that must hold for the value to be written
    (a zero-width constant's value); ``check`` names the function that raises
    the precise error for ``value`` (``None`` for what cannot fail: a
    constant, a size).
    """

    fmt: str
    arg: str | None
    value: str = "None"
    check: str | None = None
    guard: str | None = None
    path: Path = ()
    #: ``arg`` is an integer literal (a tag, a presence byte)
    const: bool = False
    #: ``arg`` is ``bytes`` of exactly the width: it may be appended as it is
    ready: bool = False


def const(fmt: str, value: int) -> Put:
    """A constant in the pending run: a union tag, a presence byte."""
    return Put(fmt, str(value), const=True)


@dataclass(frozen=True, repr=False)
class Take(_Op):
    """A fixed-width read into ``target`` (``None`` for a pad byte): joins the pending run.

    After the ``unpack``, ``literal`` (zero-width leaves) is assigned, or
    ``unpack`` (the name of a conversion that raises the precise error) is
    applied: always, or only when ``guard`` does not hold; or ``table`` (the
    name of the tuple of an enumeration's values) is indexed, ``unpack``
    saying what is wrong with an index beyond it.
    """

    fmt: str
    width: int
    target: str | None = None
    unpack: str | None = None
    guard: str | None = None
    table: str | None = None
    literal: str | None = None
    path: Path = ()
    what: str = ""


@dataclass(frozen=True, repr=False)
class Flush(_Op):
    """The pending run is written (or read, in frame ``end``) here: what
    follows touches the buffer, or must fail after the fields before it."""

    end: str = "end"


@dataclass(frozen=True, repr=False)
class Moved(_Op):
    """``pos`` moved: what a peek checked is stale. ``to``: the frame whose
    end ``pos`` is now known to be at (its end check is then left out)."""

    to: str | None = None


@dataclass(frozen=True, repr=False)
class Let(_Op):
    """``target = expr``, touching neither the buffer nor the pending run."""

    target: str
    expr: str


@dataclass(frozen=True, repr=False)
class Do(_Op):
    """A statement, its errors located at ``path`` (the pending run must
    have been flushed when it touches the buffer)."""

    statement: str
    path: Path = ()


@dataclass(frozen=True, repr=False)
class Append(_Op):
    """The bytes of expression ``data`` written after the pending run."""

    data: str


@dataclass(frozen=True, repr=False)
class Fetch(_Op):
    """``target = value[key]`` for each ``(target, key)``; a missing key
    raises ``error`` at ``path``."""

    value: str
    items: tuple[tuple[str, str], ...]
    error: str
    path: Path


@dataclass(frozen=True, repr=False)
class ToBytes(_Op):
    """``raw``: the bytes of ``value`` (itself when it is ``bytes``, unless
    ``text``), by the function named ``convert``, whose errors are located
    at ``path``. Flushes the pending run first (earlier fields fail first)."""

    raw: str
    value: str
    convert: str
    text: bool
    path: Path


@dataclass(frozen=True, repr=False)
class Fail(_Op):
    """``raise error`` at ``path`` when ``test`` holds (always when ``None``).

    A writer's pending run is reported first when one of its fields is
    already wrong (fields fail in order); a reader's must have been flushed.
    """

    test: str | None
    error: str
    path: Path


@dataclass(frozen=True, repr=False)
class AfterReads(_Op):
    """A statement that uses values of the pending run: rendered once the
    run is read, while the fields after it keep joining the run."""

    statement: str


@dataclass(frozen=True, repr=False)
class Call(_Op):
    """A call of a compiled reader (into ``var``, in frame ``end``) or
    writer (of ``var``), its errors located at ``path``."""

    fn: Callable[..., Any]
    var: str
    path: Path
    end: str = "end"
    #: the stem of the name the generated code calls ``fn`` by
    stem: str = ""


@dataclass(frozen=True, repr=False)
class Branch(_Op):
    """One branch of a :class:`Choice`: taken when ``test`` holds (the
    last one may have none: ``else``). The pending run is carried into it
    and flushed at its end (in frame ``end`` when reading)."""

    test: str | None
    body: Block
    end: str = "end"


@dataclass(frozen=True, repr=False)
class Peek(_Op):
    """The choice's byte (or two) just after the pending run, read into
    ``tag`` without consuming it (each branch takes it as a pad byte);
    ``at``, if given, is assigned its offset."""

    tag: str
    width: int
    path: Path
    what: str
    end: str
    at: str | None = None


@dataclass(frozen=True, repr=False)
class Choice(_Op):
    """An ``if``/``elif``/``else`` of :class:`Branch` es (on a peeked byte,
    when reading a tag or a presence byte). ``joins``: the ops that follow
    it are to be copied into each of its branches but those that fail (the
    lowering marks it, :mod:`.joining` copies them)."""

    branches: tuple[Branch, ...]
    peek: Peek | None = None
    joins: bool = False


@dataclass(frozen=True, repr=False)
class Framed(_Op):
    """``body`` written after a placeholder of its size (at ``mark``),
    patched with its ``size`` (struct code ``fmt``) by ``pack_into`` once
    written; a size beyond ``largest`` removes what was written and raises
    ``error`` (which names ``size``) at ``path``. Rendered into pieces, the
    body is joined first and its size joins the pending run instead."""

    mark: str
    size: str
    fmt: str
    pack_into: str
    largest: int
    error: str
    body: Block
    path: Path

    @property
    def width(self) -> int:
        """The size header's width in bytes (of ``fmt``)."""
        return struct.calcsize(">" + self.fmt)


@dataclass(frozen=True, repr=False)
class SubFrame(_Op):
    """Reading goes on in a narrower frame: ``frame = expr`` (after the
    pending run, in frame ``end``), and ``error`` at ``path`` when ``bad``
    (``why``, a comment beside the test)."""

    frame: str
    expr: str
    bad: str
    error: str
    path: Path
    end: str
    why: str


@dataclass(frozen=True, repr=False)
class AtEnd(_Op):
    """The value was read to the end of ``frame``, else ``error`` at ``path``
    (left out when ``pos`` is known to be there)."""

    frame: str
    error: str
    path: Path


@dataclass(frozen=True, repr=False)
class Loop(_Op):
    """``header`` (a ``for`` or a ``while``) over ``body``, the pending run
    flushed at the end of each turn (in frame ``end`` when reading); when
    reading, ``exhausts``: the loop ends at the end of the frame. A
    writer's loop names the sequence it goes ``over`` (a list or a tuple)."""

    header: str
    body: Block
    end: str = "end"
    exhausts: bool = False
    over: str = ""


@dataclass(frozen=True, repr=False)
class Scope(_Op):
    """Ops lowered apart from those that follow them (a list's element, a
    frame's content, a conversion's inner value): a joining choice among
    them takes nothing after the scope. Only the lowering makes scopes;
    :func:`.joining.join` leaves none for the renderer."""

    body: Block


Op = (
    Put
    | Take
    | Flush
    | Moved
    | Let
    | Do
    | Append
    | Fetch
    | ToBytes
    | Fail
    | AfterReads
    | Call
    | Choice
    | Framed
    | SubFrame
    | AtEnd
    | Loop
    | Scope
)
Block = tuple[Op, ...]


def show(block: Block, depth: int = 0) -> str:
    """The ops of ``block``, one per line, with the blocks they hold
    indented under them: for reading and debugging a lowering."""
    pad = "    " * depth
    lines = []
    for op in block:
        lines.append(pad + _call(op, without=("body", "branches")))
        if isinstance(op, Choice):
            for b in op.branches:
                lines.append(f"{pad}    {_call(b, without=('body',))}")
                lines.append(show(b.body, depth + 2))
        elif isinstance(op, Framed | Loop | Scope):
            lines.append(show(op.body, depth + 1))
    return "\n".join(line for line in lines if line)
