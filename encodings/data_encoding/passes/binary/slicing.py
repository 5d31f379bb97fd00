"""The slicing pass: where each part of a binary value lies.

:func:`slice_bytes` reads bytes the way the encoding's decoder does, but
walks the tree itself and records a :class:`Slice` for every leaf it reads
(an integer, a string's bytes, a hash...) and for every byte of framing (a
union's tag, an optional field's presence byte, a length or count header,
padding): its byte range, the path of the field it belongs to, and what it
holds. The slices of a value that decodes cover its bytes exactly, in order.
This is what ``data-encoding slice`` prints.

Leaves are read by their own compiled readers, so a leaf's value is what
``decode`` gives there; what the pass reproduces is the composites' layout
(records, tuples, lists, unions, options, size frames, padding). A wrapper
whose bytes are another encoding's (``def_``, ``conv``, ``delayed``,
``check_size``, ``splitted``: the ``slices`` column of
:data:`~data_encoding.passes.transparent.TABLE`) is walked through,
except where it wraps a leaf: then the whole wrapper is the leaf, so that
the value is shown as its JSON shows it (a timestamp as a date, not an
``int64``). A ``DirectJson`` (a node primitive such as a public
key hash, whose JSON is one string for the whole value) is a leaf too.

When the bytes do not decode, the error is ``decode``'s own (its code,
offset and path) and the slices are those that end before it: what was read
up to the failure. ``canonical=False`` reads as ``decode(data,
canonical=False)`` does (README, Strictness): the leaves by their lenient
readers (a leaf the strict reader refuses is a marker, which prints and
writes its own bytes), any presence byte but ``00`` present, a Uint30
header of 2^30 or more a size.

>>> from data_encoding import obj, req, opt, uint8, string
>>> from data_encoding.errors import format_path
>>> sliced = slice_bytes(obj(req("a", uint8), opt("b", string)), bytes.fromhex("07ff0000000161"))
>>> for s in sliced.slices:
...     print(s.start, s.end, format_path(s.path), s.what, repr(s.value))
0 1 $.a uint8 7
1 2 $.b presence byte True
2 6 $.b size header (Uint30) 1
6 7 $.b variable.string 'a'
>>> sliced.error is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ...errors import DataEncodingError, DecodeError, PathStep, not_enough_data
from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.framing import HEADERS, CheckSize, DynamicSize, Padded
from ...tree.primitives import ZeroWidth
from ...tree.records import Obj, Part, Tup
from ...tree.sequences import ListEncoding
from ...tree.size import VARIABLE
from ...tree.strings import RawBytes
from ...tree.unions import Union
from ...tree.wrappers import Mu
from ..transparent import seen_through
from .rules import bad_frame, read_count, unexpected_tag, unread

__all__ = ["Role", "Slice", "Sliced", "slice_bytes"]

Role = Literal["value", "tag", "presence", "size", "count", "padding"]
"""What a slice is: a leaf's ``value``, or framing: a union's ``tag``, an
optional field's ``presence`` byte, a ``size`` header (``dynamic_size``,
strings), a list's element ``count``, or ``padding``."""

_COMPOSITES = (Obj, Tup, ListEncoding, Union, DynamicSize, Padded, Mu)
"""The nodes the pass takes apart; everything else is read whole, as a leaf."""


@dataclass(frozen=True)
class Slice:
    """Bytes ``start`` to ``end`` (excluded) of the input."""

    start: int
    end: int
    #: the field they belong to (as in errors: keys and indexes)
    path: tuple[PathStep, ...]
    role: Role
    #: a leaf's value as ``encoding`` decodes it; a tag, size or count's
    #: number; a presence byte's ``True``/``False``; ``None`` for padding
    value: Any
    #: the leaf's encoding (role ``value`` only)
    encoding: Encoding[Any] | None = field(default=None, repr=False)
    #: the case a tag selects, the header kind of a size or count
    note: str = ""

    @property
    def size(self) -> int:
        return self.end - self.start

    @property
    def what(self) -> str:
        """The leaf's encoding as written (``uint8``, ``hashes.block_hash``), or the
        framing's kind (``tag``, ``presence byte``, ``size header (Uint30)``...)."""
        if self.role == "value":
            assert self.encoding is not None
            return leaf_name(self.encoding)
        if self.role in ("size", "count"):
            return f"{self.role} header ({self.note})"
        return {"tag": "tag", "presence": "presence byte", "padding": "padding"}[self.role]


@dataclass(frozen=True)
class Sliced:
    """The slices read, and ``decode``'s error when the bytes do not decode."""

    slices: list[Slice]
    error: DataEncodingError | None


def slice_bytes(e: Encoding[Any], data: bytes, *, canonical: bool = True) -> Sliced:
    """The slices of ``data`` read as ``e`` (see the module's notes)."""
    try:
        e.decode(data, canonical=canonical)
        error = None
    except DataEncodingError as err:
        error = err
    walker = _Walker(data, canonical)
    try:
        end = walker.walk(e, 0, len(data), (), 0)
    except DataEncodingError:
        end = None
    except RecursionError:  # the walk takes more frames per level than the decoder
        deep = DecodeError(
            "too_deep",
            "the value nests too deeply to slice: the walk needs more of Python's stack "
            "than decoding (data_encoding.set_max_depth raises it)",
        )
        return Sliced(walker.slices, deep)
    if error is None:
        if end != len(data):  # the pass and the decoder disagree: a bug here
            raise AssertionError(f"slicing {e!r} read to {end} of {len(data)} bytes")
        return Sliced(walker.slices, None)
    stop = error.offset if error.offset is not None else len(data)
    return Sliced([s for s in walker.slices if s.end <= stop], error)


def leaf_name(
    e: Encoding[Any], name_of: Callable[[Encoding[Any]], str | None] | None = None
) -> str:
    """How a leaf is named in a slice: the first, from the outside in, of the
    encodings it is made of that ``name_of`` names (the command line names
    the catalogue's encodings by their ids), else of those whose call is
    short enough to read in a table (``timestamp.protocol`` rather than the
    ``conv`` inside it)."""
    chain = list(_chain(e))
    named = None if name_of is None else next(filter(None, map(name_of, chain)), None)
    if named is not None:
        return named
    names = [_name(node) for node in chain]
    return next((n for n in names if len(n) <= 32), names[-1])


def _name(e: Encoding[Any]) -> str:
    # a string's or bytes' body (after its header) and a json value's BSON are
    # internal nodes, whose constructor calls say little
    if isinstance(e, RawBytes):
        return "variable.string" if e.text else "variable.bytes_"
    if isinstance(e, Bson):
        return "BSON document"
    return repr(e)


def _through(e: Encoding[Any]) -> Encoding[Any] | None:
    """The encoding whose bytes ``e``'s are, shown with its values
    (``slices``; ``None`` when ``e`` is no such wrapper)."""
    return seen_through(e, "slices")


def _chain(e: Encoding[Any]) -> Iterator[Encoding[Any]]:
    """``e``, then each encoding whose bytes are those of the one before."""
    node: Encoding[Any] | None = e
    while node is not None:
        yield node
        node = _through(node)


def _is_leaf(e: Encoding[Any]) -> bool:
    return not any(isinstance(node, _COMPOSITES) for node in _chain(e))


class _Walker:
    """Reads ``data`` as the decoders do, recording the slices.

    Where the layout is wrong it raises an error of its own, only to stop:
    the error shown is ``decode``'s (:func:`slice_bytes`), so these need
    not say more than where the walk stopped."""

    def __init__(self, data: bytes, canonical: bool) -> None:
        self.data = data
        self.canonical = canonical
        self.slices: list[Slice] = []

    def number(self, pos: int, width: int, end: int, what: str) -> int:
        """The big-endian number of ``width`` bytes at ``pos`` (``what`` it is)."""
        if end - pos < width:
            raise not_enough_data(pos, width, end, f"a {what}")
        return int.from_bytes(self.data[pos : pos + width], "big")

    def framing(
        self,
        role: Role,
        pos: int,
        width: int,
        path: tuple[PathStep, ...],
        value: Any,
        note: str = "",
    ) -> None:
        """Record ``width`` bytes of framing at ``pos``."""
        self.slices.append(Slice(pos, pos + width, path, role, value, note=note))

    def walk(
        self, e: Encoding[Any], pos: int, end: int, path: tuple[PathStep, ...], shift: int
    ) -> int:
        """Read ``e`` at ``pos`` in the frame ending at ``end``; where it ends.

        ``shift`` is the index, in the tuple being read, of the first element
        of a tuple spliced into it (``merge_tups``), whose own indexes start at 0.
        """
        if _is_leaf(e):
            read = e._read if self.canonical else e._read_lenient
            value, after = read(self.data, pos, end)
            if e.fixed_length != 0 or _is_constant(e):
                self.slices.append(Slice(pos, after, path, "value", value, e))
            return after
        # a composite behind wrappers: the wrappers in a loop, not a frame
        # each (the walk takes few more frames per level than the decoder)
        limits = []
        while True:
            if isinstance(e, Obj | Tup):
                after = self.parts(e, pos, end, path, shift)
            elif isinstance(e, ListEncoding):
                after = self.elements(e, pos, end, path)
            elif isinstance(e, Union):
                after = self.union(e, pos, end, path, shift)
            elif isinstance(e, DynamicSize):
                after = self.frame(e, pos, end, path, shift)
            elif isinstance(e, Padded):
                width = e.fixed_length or 0  # padded sizes are fixed
                after = pos + width
                if end - pos < width:
                    raise not_enough_data(pos, width, end)
                self.walk(e.inner, pos, after - e.padding, path, shift)
                self.slices.append(Slice(after - e.padding, after, path, "padding", None))
            else:
                if isinstance(e, CheckSize):
                    limits.append(e.limit)
                inner = e.body if isinstance(e, Mu) else _through(e)
                assert inner is not None  # not a leaf, so a wrapper of a composite
                e = inner
                continue
            break
        for limit in limits:
            if after - pos > limit:
                raise DecodeError("size_limit_exceeded", "size limit exceeded", offset=pos + limit)
        return after

    def frame(
        self, e: DynamicSize[Any], pos: int, end: int, path: tuple[PathStep, ...], shift: int
    ) -> int:
        """A length header, then its frame read to its end."""
        width = HEADERS[e.kind][1]
        size = self.number(pos, width, end, "size")
        self.framing("size", pos, width, path, size, e.kind)
        # (the reference takes a Uint30 header of 2^30 or more as a size)
        if pos + width + size > end or (self.canonical and size > HEADERS[e.kind][2]):
            raise bad_frame(e, size, pos, end)
        stop = pos + width + size
        after = self.walk(e.inner, pos + width, stop, path, shift)
        if after != stop:
            raise unread(after, stop, size)
        return stop

    def parts(
        self, e: Obj | Tup, pos: int, end: int, path: tuple[PathStep, ...], shift: int
    ) -> int:
        """A record's or a tuple's parts; the variable one (at most one) is read
        in the frame that leaves room for the fixed parts after it."""
        parts = e.parts
        variable = next((i for i, p in enumerate(parts) if p.size is VARIABLE), None)
        tail = 0
        if variable is not None:
            tail = sum(p.size.n for p in parts[variable + 1 :])
        for i, p in enumerate(parts):
            frame = end
            if i == variable:
                frame = end - tail
                if frame < pos:
                    raise not_enough_data(pos, tail, end)
            pos = self.part(e, p, pos, frame, path, shift)
            if i == variable and pos != frame:
                raise DecodeError("extra_bytes", "extra bytes after a field", offset=pos)
        return pos

    def part(
        self, e: Obj | Tup, p: Part, pos: int, end: int, path: tuple[PathStep, ...], shift: int
    ) -> int:
        index = shift + int(p.key) if isinstance(e, Tup) else None
        if p.mode == "splice":  # its fields are this record's; its elements, this tuple's
            return self.walk(p.enc, pos, end, path, index or 0)
        step = (*path, p.key if index is None else index)
        if p.mode == "opt":
            flag = self.number(pos, 1, end, "presence")
            self.framing("presence", pos, 1, step, flag != 0)
            if self.canonical and flag not in (0, 255):
                raise DecodeError("invalid_presence_flag", "invalid presence byte", offset=pos)
            return pos + 1 if flag == 0 else self.walk(p.enc, pos + 1, end, step, 0)
        if p.mode == "varopt" and pos == end:
            return pos  # absent: no bytes at all
        return self.walk(p.enc, pos, end, step, 0)

    def elements(self, e: ListEncoding, pos: int, end: int, path: tuple[PathStep, ...]) -> int:
        start = pos
        count, pos = read_count(e, self.data, pos, end)
        mode, arg = e.count_mode
        if mode == "count":
            self.framing("count", start, pos - start, path, count, str(arg))
        index = 0
        while pos < end if count is None else index < count:
            if count is None and e.max_length is not None and index == e.max_length:
                raise DecodeError("list_too_long", "too many elements", offset=pos)
            if pos >= end:
                raise not_enough_data(pos, 1, end)
            pos = self.walk(e.elt, pos, end, (*path, index), 0)
            index += 1
        return pos

    def union(self, e: Union, pos: int, end: int, path: tuple[PathStep, ...], shift: int) -> int:
        tag = self.number(pos, e.tag_width, end, "tag")
        chosen = next((c for c in e.cases if c.tag == tag), None)
        if chosen is None:
            raise unexpected_tag(e, tag, pos)
        self.framing("tag", pos, e.tag_width, path, tag, chosen.title)
        return self.walk(chosen.enc, pos + e.tag_width, end, path, shift)


def _is_constant(e: Encoding[Any]) -> bool:
    """A ``constant`` (seen through wrappers): zero bytes worth showing, since
    its string is in the JSON (``null``, ``empty`` and ``unit`` are not)."""
    zero = next((node for node in _chain(e) if isinstance(node, ZeroWidth)), None)
    return zero is not None and zero.kind == "constant"
