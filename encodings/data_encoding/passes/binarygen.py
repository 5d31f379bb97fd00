"""Generated binary code: what each node emits into a compiled reader or writer.

A composite compiles into one function (:func:`compile_reader`,
:func:`compile_writer`); its parts emit their code into it
(:func:`emit_read`, :func:`emit_write`) down to a size budget, beyond which
they are called. How the code is rendered (pending ``struct`` runs, choices
that carry the code after them into their branches, error paths) is
:mod:`data_encoding.passes.emit`'s; records and tuples emit through
:mod:`data_encoding.passes.recordgen`.

:func:`inline_code` gives, per node type, the code a node emits when it is
inlined: a writer ``write(g, v, path, then)`` that emits the writing of
variable ``v`` and then ``then()`` (the code that follows, which a node that
branches may copy into each branch), and a reader ``read(g, target, end,
path, then)`` that reads a value into variable ``target`` in the frame
ending at variable ``end``. A node without one is called.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import singledispatch
from typing import Any, NamedTuple

from ..errors import DecodeError, not_enough_data
from ..node.hashes import HashBytes
from ..tree.core import Encoding, Guard, Reader, Then, Writer
from ..tree.framing import HEADERS, DynamicSize
from ..tree.leaves import AtomEncoding
from ..tree.records import Parts
from ..tree.sequences import ListEncoding
from ..tree.strings import RawBytes, text_of
from ..tree.unions import Case, Option, Union
from .binaryrules import (
    bad_frame,
    canonical,
    check_count,
    check_length,
    fixed_atom,
    many,
    not_canonical,
    same_binary,
    select_write,
    too_big,
    too_long,
    unexpected_tag,
    unread,
    writes_inline,
)
from .choosing import INLINE_CASES, by_constant
from .emit import Gen, Path, Put, Take, const, shown, tuple_expr
from .recordgen import emit_read as emit_parts_read
from .recordgen import emit_write as emit_parts_write
from .transparent import emitted_for

__all__ = [
    "compile_reader",
    "compile_writer",
    "emit_read",
    "emit_write",
    "inline_code",
    "reads_whole",
    "writes_whole",
]

WriteCode = Callable[[Gen, str, Path, Then], None]
ReadCode = Callable[[Gen, str, str, Path, Then], None]


class Code(NamedTuple):
    """The code a node emits when inlined (``None``: it is called)."""

    write: WriteCode | None
    read: ReadCode | None


NO_CODE = Code(None, None)


def compile_writer(e: Encoding[Any]) -> Writer:
    """``e``'s writer: its inline code as a function of its own."""
    code = inline_code(e).write
    assert code is not None
    g = _gen()
    with g.block("def write(out, v):"):
        code(g, "v", (), None)
        g.flush_write()
    return g.compile("write", f"writer of {shown(e)}")


def compile_reader(e: Encoding[Any]) -> Reader:
    """``e``'s reader: its inline code as a function of its own."""
    code = inline_code(e).read
    assert code is not None
    g = _gen()
    with g.block("def read(buf, pos, end):"):
        code(g, "x", "end", (), None)
        g.flush_read("end")
        g.line("return x, pos")
    return g.compile("read", f"reader of {shown(e)}")


def _gen() -> Gen:
    return Gen(emit_write, emit_read, may_fork)


def emit_write(e: Encoding[Any], g: Gen, v: str, path: Path, then: Then = None) -> None:
    """Emit, into ``g``, code that appends the binary form of variable ``v``
    (inline when possible, else a call of the compiled writer), then
    ``then()``: the code that follows, which a node that branches may emit at
    the end of each branch."""
    e = emitted_for(e, same_binary)
    code = inline_code(e).write
    if code is not None and g.room():
        code(g, v, path, then)
        return
    g.call_write(e, v, path)
    if then is not None:
        then()


def emit_read(
    e: Encoding[Any], g: Gen, target: str, end: str, path: Path, then: Then = None
) -> None:
    """Emit code that reads a value into variable ``target``, advancing
    ``pos``, in the frame ending at variable ``end``; then ``then()``."""
    e = emitted_for(e, same_binary)
    code = inline_code(e).read
    if code is not None and g.room():
        code(g, target, end, path, then)
        return
    g.call_read(e, target, end, path)
    if then is not None:
        then()


@singledispatch
def inline_code(e: Encoding[Any]) -> Code:
    """The code ``e`` emits when inlined."""
    return NO_CODE


@singledispatch
def may_fork(e: Encoding[Any]) -> bool:
    """Whether the emitted code of ``e`` branches (a union, an option), so
    that the code after it may be copied into its branches."""
    inner = emitted_for(e, same_binary)
    return False if inner is e else may_fork(inner)


@singledispatch
def emit_bytes(e: Encoding[Any], g: Gen, v: str, path: Path) -> str | None:
    """For byte strings written as they are: emit code that puts the bytes of
    ``v`` in a variable and return its name (``None`` for other encodings)."""
    inner = emitted_for(e, same_binary)
    return None if inner is e else emit_bytes(inner, g, v, path)


def _then_after(write: Callable[[Gen, str, Path], None]) -> WriteCode:
    """A writer that emits ``write``'s code, then the code that follows."""

    def code(g: Gen, v: str, path: Path, then: Then) -> None:
        write(g, v, path)
        if then is not None:
            then()

    return code


def _read_then(read: Callable[[Gen, str, str, Path], None]) -> ReadCode:
    """A reader that emits ``read``'s code, then the code that follows."""

    def code(g: Gen, target: str, end: str, path: Path, then: Then) -> None:
        read(g, target, end, path)
        if then is not None:
            then()

    return code


# ------------------------------------------------------------ leaves


@inline_code.register(AtomEncoding)
def _leaf_code(e: AtomEncoding[Any]) -> Code:
    return Code(
        _then_after(lambda g, v, path: _put(e, g, v, path, e.atom.pack_guard)),
        _read_then(lambda g, target, end, path: _take(e, g, target, path)),
    )


@inline_code.register
def _hash_code(e: HashBytes) -> Code:
    h, size = e.hash_type, e.hash_type.size

    def write(g: Gen, v: str, path: Path) -> None:
        name = g.ref(h, "hash_type")

        def exact(x: str) -> str:  # a hash, or plain bytes, of its size: packed as they are
            return f"(type({x}) is {name} or type({x}) is bytes) and len({x}) == {size}"

        _put(e, g, v, path, exact)

    return Code(_then_after(write), _leaf_code(e).read)


def _put(e: AtomEncoding[Any], g: Gen, v: str, path: Path, pack_guard: Guard | None) -> None:
    """Queue the write of ``v``; ``pack_guard(v)`` holds when ``pack`` would
    return ``v`` unchanged."""
    atom = e.atom
    guard = pack_guard(v) if pack_guard else None
    check = g.ref(atom.check, "check")
    if not atom.fmt:  # a zero-width constant: the guard is the whole test
        g.put(Put(atom.fmt, None, v, check, guard, path))
        return
    if atom.pack is None:
        g.put(Put(atom.fmt, v, v, check, path=path))
        return
    pack = f"{g.ref(atom.pack, 'pack_leaf')}({v})"
    arg = pack if guard is None else f"({v} if {guard} else {pack})"
    # a packed byte string has the width: pack checked its length
    g.put(Put(atom.fmt, arg, v, check, path=path, ready=atom.fmt.endswith("s")))


def _take(e: AtomEncoding[Any], g: Gen, target: str, path: Path) -> None:
    atom = e.atom
    unpack = atom.unpack
    if not atom.fmt:
        assert unpack is not None
        value = unpack(None)
        if value is None or type(value) in (str, int, bool):
            g.take(Take("", 0, target, literal=repr(value), path=path))
        else:  # a fresh object each time (``{}``)
            g.take(Take("", 0, target, unpack=g.ref(unpack, "unpack_leaf"), path=path))
        return
    guard = atom.unpack_guard(target) if atom.unpack_guard else None
    name = g.ref(unpack, "unpack_leaf") if unpack is not None else None
    g.take(Take(atom.fmt, atom.width, target, name, guard, path=path))


@emit_bytes.register
def _raw_bytes_of(e: RawBytes, g: Gen, v: str, path: Path) -> str:
    raw, convert = g.var("raw"), g.ref(e.to_bytes, "to_bytes")
    if e.text:
        g.guarded(f"{raw} = {convert}({v})", path)
    else:
        g.line(f"if type({v}) is bytes: {raw} = {v}")
        with g.block("else:"):
            g.guarded(f"{raw} = {convert}({v})", path)
    return raw


@inline_code.register
def _raw_bytes_code(e: RawBytes) -> Code:
    def write(g: Gen, v: str, path: Path) -> None:
        g.flush_write()  # earlier fields fail first
        g.line(f"out += {_raw_bytes_of(e, g, v, path)}")

    def read(g: Gen, target: str, end: str, path: Path) -> None:
        g.flush_read(end)
        if e.text:
            g.line(f"{target} = {g.ref(text_of)}(buf[pos:{end}])")
        else:
            g.line(f"{target} = buf[pos:{end}]")
        g.line(f"pos = {end}")
        g.moved(to=end)

    return Code(_then_after(write), _read_then(read))


# ------------------------------------------------------------ frames


@inline_code.register(DynamicSize)
def _dynamic_size_code(e: DynamicSize[Any]) -> Code:
    code, width, largest = HEADERS[e.kind]

    def read(g: Gen, target: str, end: str, path: Path) -> None:
        size, stop = g.var("size"), g.var("stop")
        g.take(Take(code[1:], width, size, path=path, what="a length header"))
        g.flush_read(end)
        g.line(f"{stop} = pos + {size}")
        with g.block(f"if {stop} > {end} or {size} > {largest}:"):
            g.raise_at(f"{g.ref(bad_frame)}({g.ref(e)}, {size}, pos - {width}, {end})", path)
        g.moved()
        emit_read(e.inner, g, target, stop, path)
        g.flush_read(stop)
        if g.ended != stop:
            with g.block(f"if pos != {stop}:"):
                g.raise_at(f"{g.ref(unread)}(pos, {stop}, {size})", path)
        g.moved()

    def write(g: Gen, v: str, path: Path) -> None:
        g.flush_write()  # earlier fields fail first
        raw = emit_bytes(e.inner, g, v, path)
        if raw is not None:  # the size is known before writing: no placeholder
            with g.block(f"if len({raw}) > {largest}:"):
                g.raise_at(f"{g.ref(too_big)}({g.ref(e)}, len({raw}))", path)
            g.put(Put(code[1:], f"len({raw})"))
            g.flush_write()
            g.line(f"out += {raw}")
            return
        mark, size = g.var("mark"), g.var("size")
        g.line(f"{mark} = len(out)")
        g.line(f"out += {bytes(width)!r}")
        emit_write(e.inner, g, v, path)
        g.flush_write()
        g.line(f"{size} = len(out) - {mark} - {width}")
        with g.block(f"if {size} > {largest}:"):
            g.line(f"del out[{mark}:]")
            g.raise_at(f"{g.ref(too_big)}({g.ref(e)}, {size})", path)
        g.line(f"{g.ref(struct.Struct(code).pack_into)}(out, {mark}, {size})")

    return Code(_then_after(write), _read_then(read))


# ------------------------------------------------------------ records and tuples


@inline_code.register(Parts)
def _parts_code(e: Parts[Any]) -> Code:
    def write(g: Gen, v: str, path: Path, then: Then) -> None:
        emit_parts_write(g, e.parts, e.as_dict, e.keys, v, path, then)

    def read(g: Gen, target: str, end: str, path: Path, then: Then) -> None:
        emit_parts_read(g, e.parts, e.as_dict, target, end, path, then)

    return Code(write, read)


@may_fork.register(Parts)
def _parts_fork(e: Parts[Any]) -> bool:
    return any(p.mode == "opt" or may_fork(p.enc) for p in e.parts)


# ------------------------------------------------------------ lists


def reads_whole(e: ListEncoding) -> bool:
    """Fixed-width leaf elements: one ``iter_unpack`` reads the list."""
    atom = fixed_atom(e.elt)
    return atom is not None and bool(atom.fmt)


def writes_whole(e: ListEncoding) -> bool:
    """One-code number elements: one ``pack`` writes the list."""
    atom = fixed_atom(e.elt)
    return atom is not None and len(atom.fmt) == 1 and atom.exact is not None


@inline_code.register
def _list_code(e: ListEncoding) -> Code:
    mode, arg = e.count_mode

    def read(g: Gen, target: str, end: str, path: Path) -> None:
        if reads_whole(e):
            g.call_read(e, target, end, path)
            return
        g.flush_read(end)
        count = str(arg)
        if mode == "count":
            code, width, _ = HEADERS[arg]
            count = g.var("count")
            g.take(Take(code[1:], width, count, path=path, what="an element count"))
            g.flush_read(end)
            g.guarded(f"{g.ref(check_count)}({g.ref(e)}, {count}, pos, {end})", path)
        whole = many(e.elt)
        if whole is not None and mode == "frame" and e.max_length is None:
            g.guarded(f"{target} = {g.ref(whole[1], 'read_many')}(buf, pos, {end})", path)
            g.line(f"pos = {end}")
            g.moved(to=end)
            return
        items, x = g.var("items"), g.var("item")
        g.line(f"{items} = []")
        loop = f"while pos < {end}:" if mode == "frame" else f"for _ in range({count}):"
        with g.block(loop):
            g.moved()
            if mode != "frame":
                with g.block(f"if pos >= {end}:"):
                    g.raise_at(f"{g.ref(not_enough_data)}(pos, 1, {end})", (*path, f"len({items})"))
            elif e.max_length is not None:
                with g.block(f"if len({items}) == {e.max_length}:"):
                    error = (
                        f"{g.ref(too_long)}({g.ref(e)}, {g.ref(DecodeError)}, {e.max_length + 1})"
                    )
                    g.raise_at(f"{error}.at(pos)", path)
            emit_read(e.elt, g, x, end, (*path, f"len({items})"))
            g.flush_read(end)
            g.line(f"{items}.append({x})")
        g.moved(to=end if mode == "frame" else None)
        g.line(f"{target} = {items}")

    def write(g: Gen, v: str, path: Path) -> None:
        if writes_whole(e):
            g.call_write(e, v, path)
            return
        g.flush_write()
        # the common case in one test; the check says what is wrong otherwise
        fine = f"type({v}) is list"
        if mode == "exactly":
            fine += f" and len({v}) == {arg}"
        elif e.max_length is not None:
            fine += f" and len({v}) <= {e.max_length}"
        with g.block(f"if not ({fine}):"):
            g.guarded(f"{g.ref(check_length)}({g.ref(e)}, {v})", path)
        if mode == "count":
            g.line(f"out += {g.ref(struct.Struct(HEADERS[arg][0]).pack)}(len({v}))")
        whole = many(e.elt)
        if whole is not None:
            g.guarded(f"{g.ref(whole[0], 'write_many')}(out, {v})", path)
            return
        x = g.var("item")
        with g.block(f"for {x} in {v}:"):
            emit_write(e.elt, g, x, (*path, f"_index({v}, {x})"))
            g.flush_write()

    return Code(_then_after(write), _read_then(read))


# ------------------------------------------------------------ unions


@inline_code.register
def _union_code(u: Union) -> Code:
    def write(g: Gen, v: str, path: Path, then: Then) -> None:
        _union_write(u, g, v, path, then)

    def read(g: Gen, target: str, end: str, path: Path, then: Then) -> None:
        _union_read(u, g, target, end, path, then)

    return Code(
        write if writes_inline(u) else None, read if len(u.tagged) <= INLINE_CASES else None
    )


@may_fork.register
def _union_fork(u: Union) -> bool:
    return len(u.tagged) <= INLINE_CASES


def _union_read(u: Union, g: Gen, target: str, end: str, path: Path, then: Then) -> None:
    """Peek the tag, then one branch per case, the tag read as a pad (and,
    when the cases may overlap, a check that the value keeps its case)."""
    width = u.tag_width
    offset = g.pending_width()
    tag = g.peek(width, path, f"the tag of a {u.what}", end)
    checks = canonical(u)
    where = ""
    if checks is not None:  # the tag's offset, for the error
        where = g.var("tag_pos")
        g.line(f"{where} = pos + {offset}")
    with g.choice(len(u.tagged), then) as rest:
        for i, c in enumerate(u.tagged):
            with g.branch(f"{'elif' if i else 'if'} {tag} == {c.tag}:", end):
                g.take(Take(f"{width}x", width))
                follow = rest
                if checks is not None:
                    check = checks[c.tag]  # type: ignore[index]  # a tagged case
                    follow = _checked(u, g, check, target, where, c, path, rest)
                emit_read(c.enc, g, target, end, path, follow)
        with g.branch("else:", end):
            g.flush_read(end)
            g.raise_at(f"{g.ref(unexpected_tag)}({g.ref(u)}, {tag}, pos)", path)


def _checked(
    u: Union,
    g: Gen,
    check: Callable[[Any], bool],
    target: str,
    where: str,
    c: Case,
    path: Path,
    then: Then,
) -> Then:
    """The code that follows case ``c``'s read: ``check`` of the value in
    ``target`` (once the pending run is read), then ``then``."""
    error = f"{g.ref(not_canonical)}({g.ref(u)}, {where}, {g.ref(c)})"
    if path:
        error = f"_at({error}, {tuple_expr(path)})"

    def checked() -> None:
        g.after_reads(f"if not {g.ref(check)}({target}): raise {error} from None")
        if then is not None:
            then()

    return checked


def _union_write(u: Union, g: Gen, v: str, path: Path, then: Then) -> None:
    """Pick the case by its constant member, one ``if`` per case; anything
    else takes the selection loop, for its precise errors."""
    if isinstance(u, Option):
        g.presence(v, 1, u.cases[0].enc, path, then)
        return
    told = by_constant(u)
    assert told is not None
    key, cases = told
    fmt = "B" if u.tag_width == 1 else "H"
    constant = g.var("kind")
    g.line(f"{constant} = {v}.get({key!r}) if type({v}) is dict else None")
    with g.choice(len(cases) + 1, then) as rest:
        for i, (name, c) in enumerate(cases):
            with g.branch(f"{'elif' if i else 'if'} {constant} == {name!r}:"):
                g.dicts[v] = {key: name}
                g.put(const(fmt, c.tag or 0))
                emit_write(c.enc, g, v, path, rest)
        with g.branch("else:"):
            g.flush_write()
            g.guarded(f"{g.ref(select_write(u), 'write')}(out, {v})", path)
            if rest is not None:
                rest()
