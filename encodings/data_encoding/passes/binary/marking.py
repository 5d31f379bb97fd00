"""Where a lenient reading's markers stand (see :mod:`data_encoding.noncanonical`).

A :class:`~data_encoding.noncanonical.NonCanonical` marker may stand in the
place of a part's value only where the strict writer and the fast JSON
converter refuse it by its type before any user function sees it
(:func:`holds`): a marker below a ``conv`` or a union that selects its case
by predicate is *unheld*, and the nearest part above it that takes markers
in (:func:`absorbs`: a record, a tuple, a list, a union told apart by a
constant member, an option of those, a frame) stands for both. (Below a
``splitted``, whose JSON side is another tree, the ``splitted`` is marked
whole.) This is what lets the strict codecs take such values on their
failure path only: a marker makes them fail, never reach a user's function.

Also here: how an atom is read leniently (:func:`lenient_unpack`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from ...compiling import COMPILING
from ...errors import DecodeError
from ...noncanonical import NonCanonical, counts, marked, reference_value, unheld
from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.framing import CheckSize, DynamicSize, Padded
from ...tree.leaves import AtomEncoding
from ...tree.primitives import Bool, Float, Int, ZeroWidth
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import FixedBytes, RawBytes
from ...tree.unions import Option, StringEnum, Union
from ...tree.wrappers import Conv, DirectJson, Mu, Splitted, Wrapper, guard
from ...tree.zarith import Zarith, read_z
from ..choosing import member
from ..dispatch import takes_default
from ..transparent import seen_through
from .rules import fixed_atom

__all__ = ["absorbs", "holds", "lenient_unpack", "lenient_value_node", "read_z_lenient"]

Unpack = Callable[[Any], Any]


def holds(e: Encoding[Any]) -> bool:
    """Whether a marker may stand in the place of ``e``'s value: ``e``'s
    strict writer and fast JSON converter refuse one by its type before they
    call anything of the user's. Computed once per node; a recursion through
    ``e`` assumes it does (a ``mu`` holds when its body does)."""
    found: bool | None = e.__dict__.get(_KEY)
    if found is not None:
        return found
    with COMPILING:
        if _KEY not in e.__dict__:
            e.__dict__[_KEY] = True  # what a recursion back to ``e`` sees
            try:
                e.__dict__[_KEY] = _holds(e)
            except BaseException:
                del e.__dict__[_KEY]
                raise
        return bool(e.__dict__[_KEY])


_KEY = "lenient.holds"


@takes_default(
    {
        "its writer and converter check its value's type before any user function": (
            AtomEncoding,
            RawBytes,
            Zarith,
            Bson,
            Parts,
            ListEncoding,
        )
    }
)
@singledispatch
def _holds(e: Encoding[Any]) -> bool:
    return True  # a leaf: its writer and converter check its type


@_holds.register(Wrapper)
def _wrapper_holds(e: Wrapper[Any]) -> bool:
    return holds(e.inner)  # the same value, in the same place


@_holds.register(Conv)
def _conv_holds(e: Conv[Any]) -> bool:
    return False  # its functions take the value first


@_holds.register(Splitted)
def _splitted_holds(e: Splitted[Any]) -> bool:
    # its lenient reader marks it whole where its binary side made markers
    # (its JSON side, another tree, may not hold them where they stand):
    # its JSON side meets a marker at its top only
    return holds(e.binary) and holds(e.json)


@_holds.register(DirectJson)
def _direct_json_holds(e: DirectJson[Any]) -> bool:
    # its JSON functions are the library's own (the node's primitives):
    # each refuses a value not of its type, a marker among them (tested)
    return holds(e.binary)


@_holds.register
def _mu_holds(e: Mu) -> bool:
    return holds(e.body)


@_holds.register
def _union_holds(u: Union) -> bool:
    if isinstance(u, Option):
        return holds(u.cases[0].enc)
    # told apart by a constant member (a ``matching`` union's function is
    # not), no case with a predicate: the writer and the converters look a
    # marker up as a dict, and refuse it
    return member(u) is not None and all(c.match is None for c in u.cases)


def absorbs(e: Encoding[Any]) -> bool:
    """Whether ``e`` takes in the unheld markers made while reading it: a
    record, a tuple, a list, a union or a length header's frame, that holds
    markers. The marker of a union's case or a frame's content is then the
    union's or the frame's, its bytes with the tag or the header: a marker
    stands for every byte of the outermost part whose value it is, so that
    a writer that meets one writes it whole."""
    return isinstance(e, Parts | ListEncoding | Union | DynamicSize) and holds(e)


def lenient_value_node(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose lenient reader is ``e``'s: the ``lenient`` column of
    :data:`~data_encoding.passes.transparent.TABLE` (``same_binary``'s, but
    not through a ``splitted``, which reads its own: see :func:`holds`)."""
    return seen_through(e, "lenient")


# ------------------------------------------------------------ atoms


@takes_default(
    {
        "an atom that reads as strictly as the reference": (
            Int,
            Float,
            ZeroWidth,
            StringEnum,
            FixedBytes,
        ),
        "not an atom (fixed_atom): its own reader reads it": (
            RawBytes,
            Zarith,
            Bson,
            Parts,
            ListEncoding,
            Union,
            CheckSize,
            DynamicSize,
            Splitted,
            Mu,
        ),
    },
    through="lenient",
)
@singledispatch
def lenient_unpack(e: Encoding[Any]) -> Unpack | None:
    """How atom ``e``'s raw ``struct`` value is read where its ``unpack``
    refuses what the reference reads: a value, or a marker (``None`` when
    the atom reads as strictly as the reference)."""
    inner = lenient_value_node(e)
    return None if inner is None else lenient_unpack(inner)


def _bool_lenient(raw: int) -> Any:
    if raw == 0:
        return False
    if raw == 255:
        return True
    return marked(counts(), True, bytes((raw,)))  # the reference: any other byte is true


@lenient_unpack.register
def _bool_unpack(e: Bool) -> Unpack:
    return _bool_lenient


@lenient_unpack.register(Padded)
def _padded_unpack(e: Padded[Any]) -> Unpack:
    inner_width = e.atom.width - e.padding
    zeros = bytes(e.padding)
    keep = marked if holds(e.inner) else unheld

    def unpack(raw: bytes) -> Any:
        cell = counts()
        made = cell[0]
        value, _ = e.inner._read_lenient(raw, 0, inner_width)
        if cell[0] == made and raw[inner_width:] == zeros:
            return value
        return keep(cell, value, raw)  # the reference does not read padding

    return unpack


@lenient_unpack.register(Conv)
def _conv_unpack(e: Conv[Any]) -> Unpack | None:
    inner = lenient_unpack(e.inner)
    if inner is None or fixed_atom(e) is None:
        return None
    from_wire = guard(e.from_wire, DecodeError)

    def unpack(raw: Any) -> Any:
        cell = counts()
        made = cell[0]
        wire = inner(raw)
        if cell[0] == made:
            return from_wire(wire)
        # an atom's marker stands for all its bytes: given its plain value,
        # the conv's is unheld (see ``holds``)
        assert type(wire) is NonCanonical
        return unheld(cell, from_wire(reference_value(wire)), wire.raw)

    return unpack


# ------------------------------------------------------------ Zarith


def read_z_lenient(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
    """``z`` as the reference reads it: ``40`` (negative zero) is 0."""
    if pos < end and buf[pos] == 0x40:
        return marked(counts(), 0, b"\x40"), pos + 1
    return read_z(buf, pos, end)
