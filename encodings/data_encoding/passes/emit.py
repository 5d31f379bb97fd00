"""The code generator behind every compiled reader and writer of a composite.

A record, tuple, union, list or size frame compiles itself into **one** Python
function, the way one would write it by hand for that exact shape: its parts
emit their code into it (inlining) instead of being called, down to a size
budget, and consecutive fixed-width leaves become a single precompiled
``struct.Struct`` call. Leaves do not write when they are emitted; they join
a *pending run* that is flushed when something else must touch the buffer. A
union tag or a presence byte is a constant in that run, and the run is carried
into each branch of the choice, so ``uid, tag, pid`` of a record holding a
union become one ``pack`` per case, as in a hand-written codec. When reading,
the choice byte is peeked at its offset inside the pending run, and each
branch reads the whole run (tag included, as a pad byte) in one ``unpack``.

What follows a choice: every emitter is given ``then``, the code that comes
after it. A choice (a union, an option, a presence byte) may emit ``then`` at
the end of each of its branches rather than once after them
(:meth:`Gen.choice`, at most :data:`COPIES` copies), so the fields after a
union join each case's run: ``{uid, state: union, parent: option}`` becomes
one ``pack`` (and one ``unpack``) per wire variant, as a hand-written codec
would do it. When reading, a record's dict is built once the run is unpacked
(:meth:`Gen.after_reads`), so the run goes on past the record.

Conventions of the generated code: a writer is ``write(out, v)`` appending to
the ``bytearray`` ``out``; a reader is ``read(buf, pos, end)`` over ``bytes``
with the current position ``pos`` and the frame's end; every emitted part
reads or writes the Python variable it is given.

Errors: an emitted part knows its *path* statically, as a tuple of Python
expressions (``'state'`` for a key; for a list element, an expression that
finds the index, evaluated only when something failed). Every error raised by
generated code carries the path from the generated function's root; calls to
parts that were not inlined add it in an ``except`` clause. Nothing on the
success path pays for paths or offsets.
"""

from __future__ import annotations

import itertools
import linecache
import re
import struct
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import DataEncodingError, DecodeError, EncodeError, PathStep, not_enough_data

if TYPE_CHECKING:
    from ..tree.core import Encoding, Then

Path = tuple[str, ...]
"""Python expressions of the path steps, from the generated function's root."""

EmitWrite = Callable[["Encoding[Any]", "Gen", str, Path, "Then"], None]
EmitRead = Callable[["Encoding[Any]", "Gen", str, str, Path, "Then"], None]

#: Beyond this many lines a function stops inlining its parts and calls them
#: (each part still compiles itself): bounds the code of very large trees.
LINE_BUDGET = 800

#: At most this many copies of the code that follows a choice (see ``Gen.choice``).
COPIES = 16

_numbers = itertools.count(1)
"""Numbers the generated functions' file names."""

_dead: list[str] = []
"""The file names of generated functions that died, dropped from
:mod:`linecache` at the next compile."""


@dataclass(frozen=True)
class Put:
    """A pending fixed-width write.

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


@dataclass(frozen=True)
class Take:
    """A pending fixed-width read into ``target`` (``None`` for a pad byte).

    After the ``unpack``, ``literal`` (zero-width leaves) is assigned, or
    ``unpack`` (the name of a conversion that raises the precise error) is
    applied: always, or only when ``guard`` does not hold.
    """

    fmt: str
    width: int
    target: str | None = None
    unpack: str | None = None
    guard: str | None = None
    literal: str | None = None
    path: Path = ()
    what: str = ""


class _GuardFailed(Exception):
    pass


def at(err: DataEncodingError, path: tuple[PathStep, ...]) -> DataEncodingError:
    """Prepend ``path`` to the error's path; returns the error."""
    err.path = (*path, *err.path)
    return err


def index_of(seq: Sequence[Any], item: Any) -> int:
    """The index of ``item`` in ``seq`` by identity (a writer's loop does not
    count: the first occurrence is the one that failed, since the same object
    fails the same way wherever it is)."""
    return next(i for i, x in enumerate(seq) if x is item)


def put_failure(
    items: Sequence[tuple[Callable[[Any], None] | None, Any, tuple[PathStep, ...]]],
    exc: Exception,
) -> DataEncodingError:
    """The precise error of a fused write that failed: the first field whose check fails."""
    for check, value, path in items:
        if check is None:
            continue
        try:
            check(value)
        except DataEncodingError as err:
            return at(err, path)
    if isinstance(exc, DataEncodingError):
        return exc
    return EncodeError("invalid_value", f"cannot write the fields: {exc}")


def short_read(
    buf: bytes,
    items: Sequence[tuple[int, str, Callable[[Any], Any] | None, tuple[PathStep, ...], str]],
    pos: int,
    end: int,
) -> DataEncodingError:
    """The error of a fused read that does not fit, as a field-by-field read
    would report it: the first field that is invalid or runs out.

    ``items`` are ``(width, struct code, unpack, path, what)``.
    """
    for width, code, unpack, path, what in items:
        if end - pos < width:
            return at(not_enough_data(pos, width, end, what), path)
        if unpack is not None and width:
            try:
                unpack(struct.unpack_from(">" + code, buf, pos)[0])
            except DataEncodingError as err:
                return at(err.shift(pos), path)
        pos += width
    return not_enough_data(pos, 0, end)


def unpack_failure(
    unpack: Callable[[Any], Any], raw: Any, offset: int, path: tuple[PathStep, ...]
) -> DataEncodingError:
    """The error ``unpack`` raises for ``raw`` (called when its guard failed)."""
    try:
        unpack(raw)
    except DataEncodingError as err:
        return at(err.shift(offset), path)
    return DecodeError("invalid_value", f"invalid value {raw!r}", offset=offset)


def tuple_expr(items: Sequence[str]) -> str:
    return "(" + "".join(f"{x}, " for x in items) + ")"


def _identifier(text: str) -> str:
    """``text`` as the start of a Python identifier: ASCII letters, digits and
    ``_`` only, leading underscores and digits dropped (``"<lambda>"`` ->
    ``"lambda"``, ``"1st key"`` -> ``"st_key"``)."""
    return re.sub(r"^[\d_]+", "", re.sub(r"\W|[^\x00-\x7f]", "_", text).strip("_"))


class Source:
    """A Python function being generated: its lines and the objects it names."""

    def __init__(self, env: dict[str, Any]) -> None:
        self.lines: list[str] = []
        self.env = env
        self.depth = 0
        self._count = 0
        self._names: dict[int, str] = {}

    def ref(self, obj: Any, stem: str | None = None) -> str:
        """A name for ``obj`` in the generated code (one per object): ``stem``,
        or what the object calls itself (``_not_enough_data``, ``_DecodeError``,
        ``_frozenset``), numbered when taken. Names of the environment start
        with ``_``; local variables never do."""
        name = self._names.get(id(obj))
        if name is None:
            own = getattr(obj, "__name__", None)
            base = "_" + _identifier(stem or (own if isinstance(own, str) else type(obj).__name__))
            name, n = base, 1
            while name in self.env:
                n += 1
                name = f"{base}_{n}"
            self.env[name] = obj
            self._names[id(obj)] = name
        return name

    def var(self, stem: str = "v") -> str:
        """A fresh local variable name: ``stem`` (a field's name, say, which
        may be any text) made an identifier, numbered."""
        self._count += 1
        return f"{_identifier(stem)[:24] or 'v'}_{self._count}"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self.line(header)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def room(self) -> bool:
        """Whether a part may still be inlined (else it is called)."""
        return len(self.lines) < LINE_BUDGET

    def compile(self, name: str, label: str) -> Callable[..., Any]:
        """Compile the lines into the function ``name``. The source is
        registered in :mod:`linecache` under a file name that says what it is
        (``<data_encoding #12 writer of obj(req('pid', int31), ...)>``), so
        tracebacks and ``inspect.getsource`` show it, until the function dies
        (the entry goes at the next compile after that)."""
        code = "\n".join(self.lines) + "\n"
        filename = f"<data_encoding #{next(_numbers)} {label}>"
        exec(compile(code, filename, "exec"), self.env)
        fn: Callable[..., Any] = self.env[name]
        while _dead:  # the sources of functions that died since the last compile
            try:
                linecache.cache.pop(_dead.pop(), None)
            except IndexError:  # another thread took the last one
                break
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        # not popped by the finalizer itself: it may run in the middle of
        # linecache.checkcache(), whose loop then fails with a KeyError
        weakref.finalize(fn, _dead.append, filename)
        fn.__source__ = code  # type: ignore[attr-defined]  # kept for debugging
        return fn


class Gen(Source):
    """A reader or writer being generated, with its pending run. The binary
    pass says how its parts emit their code: ``write(enc, g, v, path, then)``,
    ``read(enc, g, target, end, path, then)``, and ``may_fork(enc)`` (whether
    that code branches)."""

    def __init__(self, write: EmitWrite, read: EmitRead, may_fork: Callable[[Any], bool]) -> None:
        self._write, self._read, self._may_fork = write, read, may_fork
        super().__init__(
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
        self.puts: list[Put] = []
        self.takes: list[Take] = []
        #: bytes from ``pos`` known to be in the frame (a peek checked them)
        self.known = 0
        #: how many copies of the current code the choices around it made
        self.copies = 1
        #: lines that use values of the pending run: emitted after its unpack
        self.deferred: list[str] = []
        #: the frame variable ``pos`` is known to equal (a part read to its end)
        self.ended: str | None = None
        #: variables known to hold exactly a ``dict`` (a union case chosen by
        #: a member), with the members known to hold a constant
        self.dicts: dict[str, dict[str, str]] = {}

    # ------------------------------------------------------------ choices

    @contextmanager
    def branch(self, header: str, end: str = "end") -> Iterator[None]:
        """One branch of a choice: the pending run is carried into it and
        flushed at its end; call :meth:`joined` after the last branch."""
        puts, takes, known, dicts = list(self.puts), list(self.takes), self.known, self.dicts
        deferred = list(self.deferred)
        self.dicts = dict(dicts)
        with self.block(header):
            yield
            self.flush_write()
            self.flush_read(end)
        self.puts, self.takes, self.known, self.dicts = puts, takes, known, dicts
        self.deferred = deferred
        self.ended = None

    @contextmanager
    def choice(self, branches: int, then: Then) -> Iterator[Then]:
        """A choice between ``branches`` :meth:`branch` es, followed by ``then``.

        Yields what each branch must emit at its end: ``then`` itself when
        the code that follows may be copied into every branch (so a pending
        run goes on across the choice: the fields after a union or an option
        join each case's ``struct`` call), else ``None``, and ``then`` is
        emitted once after the join.
        """
        copy = then is not None and self.may_copy(branches)
        copies = self.copies
        if copy:
            self.copies *= branches
        try:
            yield then if copy else None
        finally:
            self.copies = copies
        self.joined()
        if not copy and then is not None:
            then()

    def may_copy(self, branches: int) -> bool:
        """Whether the code after a choice of ``branches`` may be copied into each."""
        return self.copies * branches <= COPIES and self.room()

    def joined(self) -> None:
        """After a complete set of branches: each flushed its run."""
        self.puts, self.takes, self.known, self.ended = [], [], 0, None
        self.deferred = []

    def moved(self, to: str | None = None) -> None:
        """Say that emitted code moved ``pos`` (what a peek checked is stale),
        to the end of frame ``to`` if given."""
        self.known = 0
        self.ended = to

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
        self.line(f"raise {located} from None")

    # ------------------------------------------------------------- writing

    def put(self, item: Put) -> None:
        self.puts.append(item)

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
        if all(i.const for i in items):
            fmt = ">" + "".join(i.fmt for i in items)
            data = struct.pack(fmt, *(int(i.arg or 0) for i in items if i.fmt))
            self.line(f"out += {data!r}" if len(data) > 1 else f"out.append({data[0]})")
            return
        args = [i.arg for i in items if i.fmt and i.arg is not None]
        guards = [i.guard for i in items if i.guard]
        if len(items) == 1 and items[0].ready:
            # fixed bytes alone, their type and length known: no struct call
            write = f"out += {items[0].arg}"
        else:
            pack = self.ref(struct.Struct(">" + "".join(i.fmt for i in items)).pack, "pack")
            write = f"out += {pack}({', '.join(args)})"
        if all(i.check is None for i in items):  # constants and sizes: nothing can fail
            self.line(write)
            return
        report = self._report(items)
        with self.block("try:"):
            if guards:
                self.line(f"if not ({' and '.join(guards)}): raise _Guard")
            for i in items:
                if not i.fmt and i.check is not None and i.guard is None:
                    self.line(f"{i.check}({i.value})")
            if args:
                self.line(write)
        self.line(f"except Exception as x: raise _put_failure({report}, x) from None")

    def write(self, enc: Encoding[Any], v: str, path: Path, then: Then = None) -> None:
        """Emit the writing of variable ``v`` in ``enc``, then ``then()``."""
        self._write(enc, self, v, path, then)

    def read(
        self, enc: Encoding[Any], target: str, end: str, path: Path, then: Then = None
    ) -> None:
        """Emit the reading of a value of ``enc`` into ``target``, then ``then()``."""
        self._read(enc, self, target, end, path, then)

    def may_fork(self, enc: Encoding[Any]) -> bool:
        """Whether the code ``enc`` emits branches."""
        return self._may_fork(enc)

    def presence(self, v: str, byte: int, enc: Encoding[Any], path: Path, then: Then) -> None:
        """Write ``00`` when ``v`` is ``None``, else ``byte`` then ``v`` in ``enc``."""
        with self.choice(2, then) as rest:
            with self.branch(f"if {v} is None:"):
                self.put(const("B", 0))
                if rest is not None:
                    rest()
            with self.branch("else:"):
                self.put(const("B", byte))
                self.write(enc, v, path, rest)

    def call_write(self, enc: Encoding[Any], v: str, path: Path) -> None:
        """Emit a call of ``enc``'s compiled writer."""
        self.flush_write()
        self.guarded(f"{self.ref(enc._write, 'write')}(out, {v})", path)

    def guarded(self, statement: str, path: Path) -> None:
        """Emit a statement whose errors are located at ``path``."""
        if path:
            self.line(f"try: {statement}")
            self.line(f"except _Err as e: raise _at(e, {tuple_expr(path)}) from None")
        else:
            self.line(statement)

    # ------------------------------------------------------------- reading

    def take(self, item: Take) -> None:
        self.takes.append(item)

    def pending_width(self) -> int:
        return sum(t.width for t in self.takes)

    def _short(self, extra: Sequence[Take] = ()) -> str:
        """The arguments of ``short_read`` for the pending run (and ``extra``)."""
        items = [
            f"({t.width}, {t.fmt!r}, {t.unpack}, {tuple_expr(t.path)}, {t.what!r})"
            for t in [*self.takes, *extra]
        ]
        return f"buf, {tuple_expr(items)}"

    def peek(self, width: int, path: Path, what: str, end: str) -> str:
        """Read a choice byte (or two) just after the pending run, without
        consuming it: the branches take it as a pad."""
        offset = self.pending_width()
        self.line(f"if {end} - pos < {offset + width}:")
        short = self._short([Take("", width, path=path, what=what)])
        self.line(f"    raise _short({short}, pos, {end})")
        self.known = offset + width
        name = self.var("tag")
        at = f"pos + {offset}" if offset else "pos"
        if width == 1:
            self.line(f"{name} = buf[{at}]")
        else:
            self.line(f"{name} = int.from_bytes(buf[{at}:{at} + {width}], 'big')")
        return name

    def after_reads(self, line: str) -> None:
        """Emit ``line`` once the pending run is read (it uses its values); the
        run goes on meanwhile, so that later fields join its ``unpack``."""
        if self.takes:
            self.deferred.append(line)
        else:
            self.line(line)

    def flush_read(self, end: str) -> None:
        items = self.takes
        if not items:
            return
        width = self.pending_width()
        if width > self.known:
            self.line(f"if {end} - pos < {width}: raise _short({self._short()}, pos, {end})")
        self.known = max(self.known - width, 0)
        if width:
            self.ended = None
        self.takes = []
        targets = [t.target for t in items if t.width and t.target is not None]
        if targets:
            unpack = self.ref(
                struct.Struct(">" + "".join(t.fmt for t in items)).unpack_from, "unpack"
            )
            self.line(f"{tuple_expr(targets)} = {unpack}(buf, pos)")
        offset = 0
        for t in items:
            where = f"pos + {offset}" if offset else "pos"
            if t.literal is not None:
                self.line(f"{t.target} = {t.literal}")
            elif t.unpack is not None and t.guard is not None:
                self.line(f"if not ({t.guard}):")
                self.line(
                    f"    raise _unpack_failure({t.unpack}, {t.target}, {where}, "
                    f"{tuple_expr(t.path)})"
                )
            elif t.unpack is not None:
                self.line(f"try: {t.target} = {t.unpack}({t.target if t.width else 'None'})")
                self.line(
                    f"except _Err as e: raise _at(e.shift({where}), {tuple_expr(t.path)}) from None"
                )
            offset += t.width
        if width:
            self.line(f"pos += {width}")
        deferred, self.deferred = self.deferred, []
        for line in deferred:
            self.line(line)

    def call_read(self, enc: Encoding[Any], target: str, end: str, path: Path) -> None:
        """Emit a call of ``enc``'s compiled reader."""
        self.flush_read(end)
        self.moved()
        self.guarded(f"{target}, pos = {self.ref(enc._read, 'read')}(buf, pos, {end})", path)


def shown(enc: Encoding[Any]) -> str:
    """The encoding, as its call, cut for a file name."""
    text = repr(enc)
    return text if len(text) <= 80 else text[:77] + "..."
