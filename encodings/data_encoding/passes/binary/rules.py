"""What the binary codec knows of each node beyond its readers and writers,
and the errors both its generated code and its closures raise.

* :func:`same_binary`: the node whose binary form and values are another's;
* :func:`fixed_atom`: a fixed-width leaf's fusable description;
* :func:`many`: whole-list readers and writers (Zarith numbers);
* the checks of frames, lists and unions, and their errors;
* :func:`canonical`: whether a union's value keeps the case it was read with;
* :func:`select_write`: a union's writer that tries its cases in order.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from functools import partial, singledispatch
from typing import Any

from ...compiling import built
from ...errors import DataEncodingError, DecodeError, EncodeError, ErrorCode, not_enough_data
from ...tree.anyjson import Bson
from ...tree.core import Atom, Encoding, ManyReader, Predicate, Writer
from ...tree.framing import HEADERS, CheckSize, DynamicSize
from ...tree.leaves import AtomEncoding, wrong_value_type
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import RawBytes
from ...tree.unions import Case, Matching, Option, Union
from ...tree.wrappers import Conv, Mu, guard
from ...tree.zarith import Zarith, read_many, write_many
from ..choosing import (
    INLINE_CASES,
    Member,
    by_constant,
    first_case,
    member,
    selects,
    value_selectors,
)
from ..dispatch import takes_default
from ..transparent import WRAPPERS, seen_through

__all__ = [
    "bad_frame",
    "canonical",
    "check_count",
    "check_length",
    "fixed_atom",
    "many",
    "not_canonical",
    "reads_inline",
    "read_count",
    "reads_whole",
    "same_binary",
    "select_write",
    "table_write",
    "too_big",
    "too_long",
    "unexpected_tag",
    "unread",
    "writes_inline",
    "writes_whole",
]


def same_binary(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose binary form and values are ``e``'s (its pieces are
    ``e``'s), or ``None``: the ``binary`` column of
    :data:`~data_encoding.passes.transparent.TABLE`."""
    return seen_through(e, "binary")


@takes_default(
    {
        "not a fixed-width leaf": (
            Parts,
            ListEncoding,
            Union,
            RawBytes,
            Zarith,
            Bson,
            DynamicSize,
            CheckSize,
            Mu,
        )
    },
    through="binary",
)
@singledispatch
def fixed_atom(e: Encoding[Any]) -> Atom | None:
    """The fusable description of a fixed-width leaf (``struct`` code and
    conversions), or ``None``: records, tuples and lists fuse runs of them."""
    inner = same_binary(e)
    return None if inner is None else fixed_atom(inner)


@fixed_atom.register(AtomEncoding)
def _leaf_atom(e: AtomEncoding[Any]) -> Atom:
    return e.atom


@fixed_atom.register(Conv)
def _conv_atom(e: Conv[Any]) -> Atom | None:
    inner = fixed_atom(e.inner)
    if inner is None:
        return None
    to_wire, from_wire = guard(e.to_wire, EncodeError), guard(e.from_wire, DecodeError)
    inner_pack, inner_unpack, inner_check = inner.pack, inner.unpack, inner.check

    def pack(value: Any) -> Any:
        wire = to_wire(value)
        return wire if inner_pack is None else inner_pack(wire)

    def unpack(raw: Any) -> Any:
        return from_wire(raw if inner_unpack is None else inner_unpack(raw))

    def check(value: Any) -> None:
        inner_check(to_wire(value))

    return Atom(inner.fmt, inner.width, check, pack, unpack)


def reads_whole(e: ListEncoding) -> bool:
    """Fixed-width leaf elements: one ``iter_unpack`` reads the list."""
    atom = fixed_atom(e.elt)
    return atom is not None and bool(atom.fmt)


def writes_whole(e: ListEncoding) -> bool:
    """One-code number elements: one ``pack`` writes the list."""
    atom = fixed_atom(e.elt)
    return atom is not None and len(atom.fmt) == 1 and atom.exact is not None


@takes_default(
    {
        "read and written element by element (a fixed-width leaf's by one struct call)": (
            AtomEncoding,
            RawBytes,
            Bson,
            Parts,
            ListEncoding,
            Union,
        ),
        "asked of a list's element as it is: a wrapped Zarith number is read one by one": (
            WRAPPERS
        ),
    }
)
@singledispatch
def many(e: Encoding[Any]) -> tuple[Writer, ManyReader] | None:
    """A writer of a whole list of values and a reader of a whole frame of
    them (errors located at the element's index), when ``e`` has faster
    ones than a loop."""
    return None


def _write_naturals(out: bytearray, values: Any) -> None:
    write_many(out, values, True)


def _read_naturals(buf: bytes, pos: int, end: int) -> list[Any]:
    return read_many(buf, pos, end, True)


def _write_integers(out: bytearray, values: Any) -> None:
    write_many(out, values, False)


def _read_integers(buf: bytes, pos: int, end: int) -> list[Any]:
    return read_many(buf, pos, end, False)


@many.register
def _zarith_many(e: Zarith) -> tuple[Writer, ManyReader]:
    # the same functions every time: lowering twice gives equal ops
    if e.natural:
        return _write_naturals, _read_naturals
    return _write_integers, _read_integers


# ------------------------------------------------------------ frames


def too_big(e: DynamicSize[Any], size: int) -> EncodeError:
    """``size`` bytes do not fit ``e``'s length header."""
    largest = HEADERS[e.kind][2]
    return EncodeError(
        "size_limit_exceeded",
        f"{size} bytes do not fit a {e.kind} length header (at most {largest})",
    )


def bad_frame(e: DynamicSize[Any], size: int, pos: int, end: int) -> DecodeError:
    """The header of ``e`` at ``pos`` states ``size`` bytes, which the frame
    ending at ``end`` does not have (or its kind cannot state)."""
    start = pos + HEADERS[e.kind][1]
    if start + size > end:
        return DecodeError(
            "not_enough_data",
            f"length header says {size} bytes but only {end - start} remain",
            offset=pos,
        )
    largest = HEADERS[e.kind][2]
    return DecodeError("invalid_size", f"length header {size} exceeds {largest}", offset=pos)


def unread(pos: int, stop: int, size: int) -> DecodeError:
    return DecodeError(
        "extra_bytes", f"extra bytes: {stop - pos} unread in a {size}-byte frame", offset=pos
    )


# ------------------------------------------------------------ lists


def too_long(e: ListEncoding, cls: type[DecodeError] | type[EncodeError], count: int) -> Any:
    """``count`` elements are more than ``e``'s ``max_length``."""
    code: ErrorCode = "list_too_long" if e.kind == "list" else "array_too_long"
    return cls(
        code, f"{e.kind} too long: {count} elements where at most {e.max_length} are allowed"
    )


def check_count(e: ListEncoding, count: int, pos: int, end: int) -> None:
    """A count header (read at ``pos`` minus its width) within its limits."""
    width = HEADERS[e.count_mode[1]][1]
    if e.max_length is not None and count > e.max_length:
        raise too_long(e, DecodeError, count).at(pos - width)
    if count > end - pos:  # every element takes at least one byte
        raise DecodeError(
            "not_enough_data",
            f"the {e.kind} claims {count} elements but only {end - pos} bytes remain",
            offset=pos - width,
        )


def check_length(e: ListEncoding, value: Any) -> None:
    """A list value of the right type and length for ``e``."""
    if not isinstance(value, list | tuple):
        raise wrong_value_type(f"a {e.kind} (list)", value)
    mode, arg = e.count_mode
    if mode == "exactly" and len(value) != arg:
        raise EncodeError("wrong_length", f"expected exactly {arg} elements, got {len(value)}")
    if e.max_length is not None and len(value) > e.max_length:
        raise too_long(e, EncodeError, len(value))


def read_count(e: ListEncoding, buf: bytes, pos: int, end: int) -> tuple[int | None, int]:
    """How many elements to read (``None``: until the frame ends) and where they start."""
    mode, arg = e.count_mode
    if mode == "exactly":
        return int(arg), pos
    if mode == "frame":
        return None, pos
    code, width, _ = HEADERS[arg]
    if end - pos < width:
        raise not_enough_data(pos, width, end, "an element count")
    (count,) = struct.unpack_from(code, buf, pos)
    check_count(e, count, pos + width, end)
    return count, pos + width


# ------------------------------------------------------------ unions


def unexpected_tag(u: Union, tag: int, pos: int) -> DecodeError:
    known = sorted(c.tag for c in u.tagged)  # type: ignore[type-var]
    return DecodeError(
        "unexpected_tag", f"unexpected tag {tag} for {u.what} (known tags: {known})", offset=pos
    )


def not_canonical(u: Union, pos: int, c: Case) -> DecodeError:
    return DecodeError(
        "not_canonical",
        f"not canonical: the value read with case {c.title!r} (tag {c.tag}) of "
        f"{u.what} is written with another case",
        offset=pos,
    )


def size_limit_exceeded(
    cls: type[EncodeError] | type[DecodeError], size: int, limit: int, offset: int | None = None
) -> EncodeError | DecodeError:
    """A ``check_size`` refusal: ``size`` bytes where ``limit`` are allowed
    (a reader's at the first byte past the limit)."""
    return cls(
        "size_limit_exceeded",
        f"size limit exceeded: {size} bytes where at most {limit} are allowed",
        offset=offset,
    )


def writes_inline(u: Union) -> bool:
    """Whether ``u``'s writer is generated: the case is found without trying
    them (an option's, a ``matching`` union's, or by a constant member)."""
    return isinstance(u, Option | Matching) or by_constant(u) is not None


def reads_inline(u: Union) -> bool:
    """Whether ``u``'s reader is generated: an ``if`` per tag, for few cases
    (:data:`INLINE_CASES`), or a ``matching`` union's, whose check of the
    case read is one call whatever their number."""
    return isinstance(u, Matching) or len(u.tagged) <= INLINE_CASES


def canonical(u: Union) -> dict[int, Callable[[Any], bool]] | None:
    """For each tag, whether the writer writes a value read with that case
    with that same case, so that bytes -> value -> bytes keeps the tag: no
    earlier case takes the value, and the case's own selector does. ``None``
    when the cases cannot overlap (an option's, or told apart by a constant
    member)."""
    if isinstance(u, Option) or member(u) is not None:
        return None
    if isinstance(u, Matching):  # the case its function gives
        return {c.tag: partial(_gives, u.select, c.tag) for c in u.tagged if c.tag is not None}

    def build() -> dict[int, Callable[[Any], bool]]:
        tagged = [
            (c, selector)
            for c, selector in zip(u.cases, value_selectors(u), strict=True)
            if c.tag is not None
        ]
        return {
            c.tag: partial(
                _written_with, tuple((m, hard, e.enc) for e, (m, hard) in tagged[:j]), own
            )
            for j, (c, (own, _)) in enumerate(tagged)
            if c.tag is not None  # (always: for the type checker)
        }

    return built(u, "binary.canonical", build)


def _gives(select: Callable[[Any], int | None], tag: int, value: Any) -> bool:
    """Whether a ``matching`` union's function ``select`` gives ``tag`` for
    a value read (not where it fails: the writer would too)."""
    try:
        return selects(select, tag, value)
    except DataEncodingError:
        return False


def _written_with(
    earlier: Sequence[tuple[Predicate, bool, Encoding[Any]]], own: Predicate, value: Any
) -> bool:
    """Whether the writer writes ``value`` with a case whose selector is
    ``own``: no case before it (``earlier``: selectors and encodings) takes it."""
    try:
        for matches, hard, enc in earlier:
            if matches(value):
                if hard:
                    return False
                try:
                    enc._size_of(value)  # a soft case takes what it can write
                except DataEncodingError:
                    continue
                return False
        return bool(own(value))
    except DataEncodingError:  # a user's predicate failed: the writer would too
        return False


def select_write(u: Union, marked: bool = False) -> Writer:
    """The writer that selects the case by trying the selectors in order
    (``marked``: writing each case with its marked writer, which writes a
    lenient reading's markers as they were read)."""

    def build() -> Writer:
        pack = struct.Struct(">B" if u.tag_width == 1 else ">H").pack
        tagged = [
            (matches, hard, (pack(c.tag), c.enc._write_marked if marked else c.enc._write), c.enc)
            for c, (matches, hard) in zip(u.cases, value_selectors(u), strict=True)
            if c.tag is not None
        ]
        told = member(u)

        def write(out: bytearray, value: Any) -> None:
            first_case(u, tagged, value, _write_case, out, EncodeError, told, True)

        return write

    return built(u, "binary.select_write_marked" if marked else "binary.select_write", build)


def table_write(u: Union, told: Member) -> Writer:
    """The writer of a union whose cases ``told`` (the member and each
    case's constant) tells apart, too many for an ``if`` chain
    (:data:`~.choosing.INLINE_CASES`): the case is looked up by the member's
    constant, as the reader looks it up by its tag. A value the table does
    not hold (not a ``dict``, no such constant) takes :func:`select_write`,
    which says what is wrong."""
    key, cases = told
    pack = struct.Struct(">B" if u.tag_width == 1 else ">H").pack
    table = {name: (pack(c.tag), c.enc._write) for name, c in cases if c.tag is not None}

    def write(out: bytearray, value: Any) -> None:
        found = value.get(key) if type(value) is dict else None
        payload = table.get(found) if type(found) is str else None
        if payload is None:
            select_write(u)(out, value)
        else:
            _write_case(payload, value, out)

    return write


def _write_case(payload: tuple[bytes, Writer], value: Any, out: bytearray) -> None:
    """Write a case's tag and value; on failure, take the tag back (no partial output)."""
    tag, write_case = payload
    mark = len(out)
    out += tag
    try:
        write_case(out, value)
    except EncodeError:
        del out[mark:]
        raise
