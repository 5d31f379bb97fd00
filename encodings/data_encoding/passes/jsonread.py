"""Reading the JSON form straight from the bytes: the binary reader in *JSON mode*.

``e.decode_json(data)`` is ``e.to_json(e.decode(data))`` without the value in
between: the reader of :mod:`.binarygen` is lowered once more with
``Lowering.json`` set, and the nodes that know their JSON form build it as
they read, where the value would have been:

* a leaf whose JSON is its value (integers printed as numbers, booleans,
  ``null`` and constants) reads as it does; an ``int64`` is ``str`` of it,
  plain bytes their ``.hex()``;
* a record builds its JSON object (an absent optional member left out), a
  tuple its array, a list its array of its elements' JSON;
* a frame, an option and a union told apart by a constant member read as
  they do, their parts in JSON mode.

Any other node (a ``conv``, a string, a float, a recursive encoding, a part
too large to inline...) reads its value and converts it by its own
``to_json``, so every encoding has a JSON mode, the nodes above only make
it faster. Reading checks the bytes exactly as ``decode`` does, in the same
order, so its :class:`~data_encoding.DecodeError` are ``decode``'s; a
conversion that refuses (``to_json`` of a non-finite float, say) raises
mid-read, so the entry point then runs ``to_json(decode(data))`` for the
error the composition gives.
"""

from __future__ import annotations

from functools import singledispatch
from typing import Any

from ..tree.core import Encoding
from ..tree.framing import DynamicSize
from ..tree.primitives import Bool, Int, ZeroWidth
from ..tree.records import Parts
from ..tree.sequences import ListEncoding
from ..tree.strings import FixedBytes, RawBytes
from ..tree.unions import Option, Union
from ..tree.wrappers import Delayed, Transparent
from .binaryrules import canonical, many
from .choosing import by_constant

__all__ = ["json_of_read", "reads_json", "same_both"]


def same_both(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose bytes, values and JSON form are all ``e``'s (a
    ``def_``'s inner node), or ``None``. (A delayed encoding is called, not
    looked into: it may be the knot of a recursive one.)"""
    return e.inner if isinstance(e, Transparent) and not isinstance(e, Delayed) else None


@singledispatch
def reads_json(e: Encoding[Any]) -> bool:
    """Whether ``e`` builds its JSON form as it reads (else it reads its
    value and converts it)."""
    return False


@reads_json.register
def _int(e: Int) -> bool:
    return True


@reads_json.register
def _bool(e: Bool) -> bool:
    return True


@reads_json.register
def _zero_width(e: ZeroWidth) -> bool:
    return e.kind in ("null", "constant")  # the value is its own JSON form


@reads_json.register
def _fixed_bytes(e: FixedBytes) -> bool:
    return isinstance(e.inner, RawBytes) and not e.inner.text


@reads_json.register
def _raw_bytes(e: RawBytes) -> bool:
    return not e.text and e.plain_json_limit is None and e.exact_length is None


@reads_json.register(DynamicSize)
def _frame(e: DynamicSize[Any]) -> bool:
    return True


@reads_json.register(Parts)
def _parts(e: Parts[Any]) -> bool:
    # a spliced part merges a nested record; a default is left out of the
    # JSON when the value equals it: both compare values
    return all(p.mode in ("req", "opt", "varopt") for p in e.parts)


@reads_json.register
def _list(e: ListEncoding) -> bool:
    # a list read whole (fixed-width numbers, Zarith numbers) gives values
    return many(e.elt) is None and not _reads_whole(e)


@reads_json.register
def _union(u: Union) -> bool:
    if canonical(u) is not None:  # its check is of the value
        return False
    if isinstance(u, Option):
        return True
    # told apart by a constant member, a case's JSON is never another's
    return by_constant(u) is not None and len(u.tagged) == len(u.cases)


def json_of_read(e: Encoding[Any], x: str) -> str | None:
    """The expression of the JSON form of leaf ``e``'s value read into
    variable ``x``, or ``None`` when it is the value itself."""
    if isinstance(e, Int) and e.json_string:
        return f"str({x})"
    if isinstance(e, FixedBytes | RawBytes):
        return f"{x}.hex()"
    return None


def _reads_whole(e: ListEncoding) -> bool:
    from .binarygen import reads_whole

    return reads_whole(e)
