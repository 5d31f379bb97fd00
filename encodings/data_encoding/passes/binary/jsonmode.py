"""JSON straight from the bytes and back: the binary codec in *JSON mode*.

Reading.

``e.decode_json(data)`` is ``e.to_json(e.decode(data))`` without the value in
between: the reader of :mod:`.lowering` is lowered once more with
``Lowering.json`` set, and the nodes that know their JSON form build it as
they read, where the value would have been:

* a leaf whose JSON is its value (integers printed as numbers, booleans,
  ``null`` and constants) reads as it does; an ``int64`` is ``str`` of it,
  plain bytes their ``.hex()``, a string itself when it is UTF-8;
* a record builds its JSON object (an absent optional member left out), a
  tuple its array, a list its array of its elements' JSON;
* a frame, an option and a union told apart by a constant member read as
  they do, their parts in JSON mode.

Any other node (a ``conv``, a bounded string, a float, a recursive
encoding, a part too large to inline...) reads its value and converts it by
its own ``to_json``, so every encoding has a JSON mode, the nodes above
only make it faster. Reading checks the bytes exactly as ``decode`` does, in the same
order, so its :class:`~data_encoding.DecodeError` are ``decode``'s; a
conversion that refuses (``to_json`` of a non-finite float, say) raises
mid-read, so the entry point then runs ``to_json(decode(data))`` for the
error the composition gives.

Writing. ``e.encode_json(json)`` is ``e.encode(e.from_json(json))`` without
the value in between: the writer is lowered with ``Lowering.json`` set, and
``v`` is the JSON. A leaf checks its JSON with the very code of the fast
``from_json`` (:func:`..leafjson.read_leaf`: an ``int`` that is exactly an
``int`` in range, a ``bool``, bytes as exactly a ``str`` of canonical
lowercase hex; a string, which has no such code, exactly a ``str``) and
writes it (or the bytes of its hex); a record
checks that its JSON is exactly a ``dict`` (not a ``RepeatedMembers``) with no
optional member given as ``null``, a tuple exactly a ``list``; lists,
frames, options and unions told apart by a constant member write their
parts in JSON mode. Any other node converts its JSON by its own
``from_json`` and writes the value. The generated writer only decides
success: it accepts no JSON that the composition refuses (it may refuse
more), and on any failure the entry point runs the composition, whose
result or error is the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any, Literal

from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.framing import CheckSize, DynamicSize, Padded
from ...tree.leaves import AtomEncoding
from ...tree.primitives import Bool, Float, Int, ZeroWidth
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import FixedBytes, RawBytes
from ...tree.unions import Option, StringEnum, Union
from ...tree.wrappers import Conv, Delayed, Mu, Splitted
from ...tree.zarith import Zarith
from ..choosing import by_constant
from ..dispatch import takes_default
from ..transparent import seen_through
from .rules import canonical, many, reads_whole, writes_whole

__all__ = ["LeafKind", "json_leaf", "json_of_read", "reads_json", "same_both", "writes_json"]


def same_both(e: Encoding[Any]) -> Encoding[Any] | None:
    """The node whose bytes, values and JSON form are all ``e``'s (a
    ``def_``'s inner node), or ``None``: the ``both`` column of
    :data:`~data_encoding.passes.transparent.TABLE`."""
    return seen_through(e, "both")


@takes_default(
    {
        "a leaf whose JSON its to_json makes, once read": (Float, StringEnum, Padded, Zarith, Bson),
        "read whole, then converted (a size check, the user's functions, another JSON form)": (
            CheckSize,
            Conv,
            Splitted,
        ),
        "called (transparent.TABLE): read, then converted": (Delayed, Mu),
    },
    through="both",
)
@singledispatch
def reads_json(e: Encoding[Any]) -> bool:
    """Whether ``e`` builds its JSON form as it reads (else it reads its
    value and converts it)."""
    return False


@reads_json.register
def _int_reads(e: Int) -> bool:
    return True


@reads_json.register
def _bool_reads(e: Bool) -> bool:
    return True


@reads_json.register
def _zero_width_reads(e: ZeroWidth) -> bool:
    return e.kind in ("null", "constant")  # the value is its own JSON form


@reads_json.register
def _fixed_bytes_reads(e: FixedBytes) -> bool:
    return isinstance(e.inner, RawBytes) and not e.inner.text


@reads_json.register
def _raw_bytes_reads(e: RawBytes) -> bool:
    # a bounded string refuses bytes that are not UTF-8 in JSON: converted
    return e.plain_json_limit is None and e.exact_length is None


@reads_json.register(DynamicSize)
def _frame_reads(e: DynamicSize[Any]) -> bool:
    return True


@reads_json.register(Parts)
def _parts_reads(e: Parts[Any]) -> bool:
    # a spliced part merges a nested record; a default is left out of the
    # JSON when the value equals it: both compare values
    return all(p.mode in ("req", "opt", "varopt") for p in e.parts)


@reads_json.register
def _list_reads(e: ListEncoding) -> bool:
    # a list read whole (fixed-width numbers, Zarith numbers) gives values
    return many(e.elt) is None and not reads_whole(e)


@reads_json.register
def _union_reads(u: Union) -> bool:
    if canonical(u) is not None:  # its check is of the value
        return False
    if isinstance(u, Option):
        return True
    # told apart by a constant member, a case's JSON is never another's
    return by_constant(u) is not None and len(u.tagged) == len(u.cases)


def json_of_read(e: Encoding[Any], x: str, ref: Callable[[object, str], str]) -> str | None:
    """The expression of the JSON form of leaf ``e``'s value read into
    variable ``x`` (``ref`` names objects), or ``None`` when it is the value
    itself."""
    if isinstance(e, Int) and e.json_string:
        return f"str({x})"
    if isinstance(e, RawBytes) and e.text:  # a str; bytes that are not UTF-8 convert
        return f"{x} if type({x}) is str else {ref(e._to_json, 'to_json')}({x})"
    if isinstance(e, FixedBytes | RawBytes):
        return f"{x}.hex()"
    return None


# ------------------------------------------------------------ writing


@takes_default(
    {
        "a leaf: json_leaf writes it, else its from_json converts it": (
            AtomEncoding,
            RawBytes,
            Zarith,
            Bson,
        ),
        "converted by its from_json, then written": (CheckSize, Conv, Splitted),
        "called (transparent.TABLE): converted, then written": (Delayed, Mu),
    },
    through="both",
)
@singledispatch
def writes_json(e: Encoding[Any]) -> bool:
    """Whether ``e``, not a leaf (those are :func:`json_leaf`'s), writes its
    parts straight from its JSON form; else its JSON is converted by its
    ``from_json``."""
    return False


@writes_json.register(DynamicSize)
def _frame_writes(e: DynamicSize[Any]) -> bool:
    return not isinstance(e.inner, RawBytes)  # bytes and strings are leaves


@writes_json.register(Parts)
def _parts_writes(e: Parts[Any]) -> bool:
    return _parts_reads(e)


@writes_json.register
def _list_writes(e: ListEncoding) -> bool:
    if many(e.elt) is not None:
        return False
    # a list written whole takes its elements as values: only integers
    # (exactly ``int``, checked by its writer) are their own JSON form
    return not writes_whole(e) or (isinstance(e.elt, Int) and not e.elt.json_string)


@writes_json.register
def _union_writes(u: Union) -> bool:
    return isinstance(u, Option) or (by_constant(u) is not None and len(u.tagged) == len(u.cases))


LeafKind = Literal["int", "bool", "null", "constant", "hex", "text"]


def json_leaf(e: Encoding[Any]) -> LeafKind | None:
    """How leaf ``e`` takes its JSON form (``None`` for other nodes): an
    integer exactly ``int`` and in range, a ``bool``, ``null``, the constant,
    or plain bytes in canonical lowercase hex."""
    if isinstance(e, Int) and not e.json_string:
        return "int"
    if isinstance(e, Bool):
        return "bool"
    if isinstance(e, ZeroWidth) and e.kind in ("null", "constant"):
        return "null" if e.kind == "null" else "constant"
    raw = e.inner if isinstance(e, FixedBytes | DynamicSize) else e
    if isinstance(raw, RawBytes) and _reads_json_bytes(raw, e):
        return "hex"
    if isinstance(raw, RawBytes) and _reads_json_text(raw, e):
        return "text"
    return None


def _reads_json_bytes(raw: RawBytes, e: Encoding[Any]) -> bool:
    """Plain bytes in hex: not text, no bound on the JSON (a fixed length
    only for ``fixed.bytes_``)."""
    fixed = isinstance(e, FixedBytes)
    return not raw.text and raw.plain_json_limit is None and (raw.exact_length is None) != fixed


def _reads_json_text(raw: RawBytes, e: Encoding[Any]) -> bool:
    """A string of any length whose JSON is a JSON string (its other JSON
    form, the object of bytes that are not UTF-8, is converted)."""
    return (
        raw.text
        and raw.plain_json_limit is None
        and raw.exact_length is None
        and not isinstance(e, FixedBytes)
    )
