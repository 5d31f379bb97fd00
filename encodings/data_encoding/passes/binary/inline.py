"""What each node lowers to when inlined in a compiled reader or writer:
:func:`inline_ops` (and :func:`bytes_of`, for byte strings written as they
are), one registration per node type.

A node's :class:`Code` is a writer ``write(lw, v, path)`` that adds the
ops writing variable ``v``, and a reader ``read(lw, target, end, path)``
that adds the ops reading a value into variable ``target`` in the frame
ending at variable ``end``; a node without one is called. A choice is
lowered once (what follows it is copied into its branches afterwards, by
:mod:`.joining`); a part lowered apart from what follows it is lowered in a
:meth:`~.lowering.Lowering.scope`. A node's parts are lowered
through the :class:`.lowering.Lowering` given (``lw.lower_read``,
``lw.lower_write``), records and tuples by :mod:`.parts`.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from functools import singledispatch
from typing import TYPE_CHECKING, Any, NamedTuple

from ...errors import DecodeError, not_enough_data
from ...noncanonical import unheld
from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.framing import HEADERS, CheckSize, DynamicSize
from ...tree.leaves import AtomEncoding
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import RawBytes, text_of
from ...tree.unions import Case, Matching, Option, Union
from ...tree.wrappers import Conv, Mu, converted_at
from ...tree.zarith import Zarith
from ..choosing import by_constant
from ..dispatch import takes_default
from ..emit import tuple_expr
from ..leafjson import Bail
from ..transparent import emitted_for
from .marking import holds, lenient_unpack
from .ops import (
    AfterReads,
    Append,
    AtEnd,
    Call,
    Do,
    Fail,
    Flush,
    Framed,
    Let,
    Loop,
    Moved,
    Path,
    Peek,
    Put,
    SubFrame,
    Take,
    ToBytes,
    const,
)
from .parts import lower_parts_read, lower_parts_write
from .rules import (
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

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["NO_CODE", "Code", "ReadCode", "WriteCode", "bytes_of", "inline_ops"]

WriteCode = Callable[["Lowering", str, Path], None]
"""Adds the ops writing the value in a variable: ``write(lw, v, path)``."""
ReadCode = Callable[["Lowering", str, str, Path], None]
"""Adds the ops reading a value into a variable, in the frame ending at
another: ``read(lw, target, end, path)``."""


class Code(NamedTuple):
    """The ops a node lowers to when inlined (``None``: it is called)."""

    write: WriteCode | None
    read: ReadCode | None


NO_CODE = Code(None, None)

INT32_MAX = 2**31 - 1
"""The largest size the reference reads from a Uint30 header (an int32)."""


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


# ------------------------------------------------------------ leaves


@inline_ops.register(AtomEncoding)
def _leaf_ops(e: AtomEncoding[Any]) -> Code:
    return Code(
        lambda lw, v, path: _put(e, lw, v, path),
        lambda lw, target, end, path: _take(e, lw, target, path),
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


@bytes_of.register(RawBytes)  # (explicit: its hints name the Lowering, a type only)
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

    return Code(write, read)


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
        with lw.scope():
            lw.lower_read(e.inner, target, end, path)
        over = f"pos - {start}"
        error = f"{lw.ref(size_limit_exceeded)}({lw.ref(DecodeError)}, {over}, {e.limit}, "
        lw.add(Flush(end), Fail(f"{over} > {e.limit}", f"{error}{start} + {e.limit})", path))

    return Code(None, read)


@inline_ops.register(Conv)
def _conv_ops(e: Conv[Any]) -> Code:
    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        if lw.lenient:  # its function is given plain values: see .lenient
            lw.add(Call(lw.read_with(e), target, path, end))
            return
        start, wire = lw.var("start"), lw.var("wire")
        lw.add(Flush(end), Let(start, "pos"))
        with lw.scope():
            lw.lower_read(e.inner, wire, end, path)
        convert = f"{lw.ref(converted_at)}({lw.ref(e.from_wire, 'from_wire')}, {wire}, {start})"
        lw.add(Flush(end), Do(f"{target} = {convert}", path))

    return Code(None, read)


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
        with lw.scope():
            lw.lower_read(e.inner, target, stop, path)
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
            lw.lower_write(e.inner, v, path)
        error = f"{lw.ref(too_big)}({lw.ref(e)}, {size})"
        pack_into = lw.ref(struct.Struct(code).pack_into)
        lw.add(Framed(mark, size, code[1:], pack_into, largest, error, tuple(body), path))

    return Code(write, read)


# ------------------------------------------------------------ records and tuples


@inline_ops.register(Parts)
def _parts_ops(e: Parts[Any]) -> Code:
    def write(lw: Lowering, v: str, path: Path) -> None:
        lower_parts_write(lw, e.parts, e.as_dict, e.keys, v, path)

    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        lower_parts_read(lw, e.parts, e.as_dict, target, end, path)

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
            with lw.scope():
                lw.lower_read(e.elt, x, end, (*path, f"len({items})"))
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
            lw.lower_write(e.elt, x, (*path, f"_index({v}, {x})"))
        lw.add(Loop(f"for {x} in {v}:", tuple(body), over=v))

    return Code(write, read)


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
        with lw.scope():
            lw.lower_read(e.elt, x, end, at)
        lw.add(Flush(end))
        items.append(x)
    lw.add(Let(target, f"[{', '.join(items)}]"))


# ------------------------------------------------------------ unions


@inline_ops.register
def _union_ops(u: Union) -> Code:
    def write(lw: Lowering, v: str, path: Path) -> None:
        _union_write(u, lw, v, path)

    def read(lw: Lowering, target: str, end: str, path: Path) -> None:
        _union_read(u, lw, target, end, path)

    return Code(write if writes_inline(u) else None, read if reads_inline(u) else None)


def _union_read(u: Union, lw: Lowering, target: str, end: str, path: Path) -> None:
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
    with lw.choice(len(u.tagged), peek):
        for c in u.tagged:
            with lw.branch(f"{tag} == {c.tag}", end):
                lw.add(Take(f"{width}x", width))
                if unheld_case and where is not None:
                    _read_unheld_case(u, lw, c, target, end, where, path)
                    continue
                check = None
                if checks is not None and where is not None and not _reads_exactly(u, c):
                    check = _case_check(u, lw, checks, target, where, c, path)
                lw.lower_read(c.enc, target, end, path)
                if check is not None:
                    lw.add(check)
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
    lw.lower_read(c.enc, target, end, path)
    test = f"cells[0] != {made}"
    checks = canonical(u)
    if checks is not None and not _reads_exactly(u, c):  # the predicates see plain values only
        test += f" or {_wrong_case(lw, checks, c, target)}"
    marker = f"{lw.ref(unheld)}(cells, {target}, buf[{where}:pos])"
    lw.add(Flush(end), Do(f"if {test}: {target} = {marker}"))


def _reads_exactly(u: Union, c: Case) -> bool:
    """Whether every value case ``c`` reads is one its writer writes with
    ``c``, so that no check is needed: see :func:`~data_encoding.matching`."""
    return isinstance(u, Matching) and c.tag in u.exact_reads


def _wrong_case(
    lw: Lowering, checks: dict[int, Callable[[Any], bool]], c: Case, target: str
) -> str:
    """The test that the value in ``target``, read with case ``c``, is not
    one the writer writes with ``c``: ``checks[c.tag]``."""
    return f"not {lw.ref(checks[c.tag])}({target})"  # type: ignore[index]  # tagged


def _case_check(
    u: Union,
    lw: Lowering,
    checks: dict[int, Callable[[Any], bool]],
    target: str,
    where: str,
    c: Case,
    path: Path,
) -> AfterReads:
    """What follows case ``c``'s read: its check of the value in ``target``
    (once the pending run is read)."""
    error = f"{lw.ref(not_canonical)}({lw.ref(u)}, {where}, {lw.ref(c)})"
    if path:
        error = f"_at({error}, {tuple_expr(path)})"
    return AfterReads(f"if {_wrong_case(lw, checks, c, target)}: raise {error} from None")


def _union_write(u: Union, lw: Lowering, v: str, path: Path) -> None:
    """Pick the case by its constant member, one ``if`` per case; anything
    else takes the selection loop, for its precise errors."""
    if isinstance(u, Option):
        lw.presence(v, 1, u.cases[0].enc, path)
        return
    if isinstance(u, Matching):
        _matching_write(u, lw, v, path)
        return
    told = by_constant(u)
    assert told is not None
    key, cases = told
    fmt = "B" if u.tag_width == 1 else "H"
    constant = lw.var("kind")
    lw.add(Let(constant, f"{v}.get({key!r}) if type({v}) is dict else None"))
    with lw.choice(len(cases) + 1):
        for name, c in cases:
            with lw.branch(f"{constant} == {name!r}"):
                lw.dicts[v] = {key: name}
                lw.add(const(fmt, c.tag or 0))
                lw.lower_write(c.enc, v, path)
        with lw.branch(None):
            if lw.json:  # no constant member of a plain object: not this JSON
                lw.add(Fail(None, lw.ref(Bail), ()))
            else:
                lw.add(Call(select_write(u, lw.lenient), v, path))


def _matching_write(u: Matching, lw: Lowering, v: str, path: Path) -> None:
    """One call of the union's function, then one ``if`` per tag; a value no
    case takes (the function gave ``None``, or a tag of no case) takes the
    selection loop, for its error."""
    fmt = "B" if u.tag_width == 1 else "H"
    tag = lw.var("tag")
    lw.add(Do(f"{tag} = {lw.ref(u.select, 'select')}({v})", path))  # (its failure located)
    with lw.choice(len(u.tagged) + 1):
        for c in u.tagged:
            with lw.branch(f"{tag} == {c.tag}"):
                lw.add(const(fmt, c.tag or 0))
                lw.lower_write(c.enc, v, path)
        with lw.branch(None):
            lw.add(Call(select_write(u), v, path))
