"""The binary lowering in JSON mode (``decode_json``, ``encode_json``):
JSON straight from the bytes and back.

Reading, a node that reads its JSON form as it goes (:func:`.jsonmode.reads_json`)
lowers its parts in JSON mode; any other reads its value, converted by its
own ``to_json`` once read. Writing, a leaf checks its JSON by the code its
fast ``from_json`` is made of (:func:`..leafjson.read_leaf`) and writes it;
a node that writes from its JSON (:func:`.jsonmode.writes_json`) does; any
other converts it by its own ``from_json``. Parts are lowered through the
:class:`.lowering.Lowering` given (``lw.lower_read``, ``lw.lower_write``),
so that this module imports nothing of the lowering but its types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...tree.core import Encoding
from ...tree.framing import DynamicSize
from ...tree.primitives import Int
from ...tree.strings import FixedBytes
from ..leafjson import read_leaf
from ..transparent import emitted_for
from .inline import inline_ops
from .jsonmode import LeafKind, json_leaf, json_of_read, reads_json, same_both, writes_json
from .ops import AfterReads, Let, Path
from .rules import same_binary

if TYPE_CHECKING:
    from .lowering import Lowering

__all__ = ["lower_read_json", "lower_write_json"]


def lower_read_json(e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path) -> None:
    """:func:`.lowering.lower_read` in JSON mode: a node that reads its JSON
    form (and is inlined) reads it; any other reads its value, converted by
    its own ``to_json`` once read."""
    e = emitted_for(e, same_both)
    code = inline_ops(emitted_for(e, same_binary)).read
    if code is not None and lw.room() and reads_json(e):
        convert = json_of_read(e, target, lw.ref)
        if convert is None:
            code(lw, target, end, path)  # its parts in JSON mode
            return
        _lower_read_binary(e, lw, target, end, path)  # a leaf: its value, then its JSON form
        lw.add(AfterReads(f"{target} = {convert}"))
    else:
        _lower_read_binary(e, lw, target, end, path)
        lw.add(AfterReads(f"{target} = {lw.ref(e._to_json, 'to_json')}({target})"))


def _lower_read_binary(e: Encoding[Any], lw: Lowering, target: str, end: str, path: Path) -> None:
    """``e``'s value read into ``target`` as :func:`.lowering.lower_read`
    reads values, apart from the conversion that follows it."""
    lw.json = False
    try:
        with lw.scope():
            lw.lower_read(e, target, end, path)
    finally:
        lw.json = True


def lower_write_json(e: Encoding[Any], lw: Lowering, j: str, path: Path) -> None:
    """:func:`.lowering.lower_write` in JSON mode: a leaf checks its JSON
    and writes it (or the bytes of its hex); a node that writes from its
    JSON (and is inlined) does; any other converts it by its own
    ``from_json``. Whatever refuses raises ``Bail`` or its own error: the
    entry point then runs the composition."""
    e = emitted_for(e, same_both)
    kind = json_leaf(e)
    if kind is not None:
        _lower_write_binary(e, lw, _json_leaf_value(e, kind, lw, j), path)
        return
    emitted = emitted_for(e, same_binary)
    code = inline_ops(emitted).write
    if code is not None and lw.room() and writes_json(e):
        code(lw, j, path)
        return
    value = lw.var("value")
    lw.add(Let(value, f"{lw.ref(e._from_json, 'from_json')}({j})"))
    _lower_write_binary(e, lw, value, path)


def _json_leaf_value(e: Encoding[Any], kind: LeafKind, lw: Lowering, j: str) -> str:
    """Add the ops that refuse leaf ``e``'s JSON ``j``: those its fast
    ``from_json`` is made of (:func:`..leafjson.read_leaf`), so that no JSON
    ``from_json`` refuses is written; return the variable holding its value."""
    if kind == "text":  # read by a closure (UTF-8 checks): here its writer checks
        lw.bail_if(f"type({j}) is not str")
        return j
    read = read_leaf(e.inner if isinstance(e, FixedBytes | DynamicSize) else e)
    assert read is not None
    value = read(lw, j)
    # bytes of the length, or exactly an int in range (not a ranged int's,
    # written shifted): struct takes them as they are
    if kind == "hex" or (kind == "int" and type(e) is Int):
        lw.valid.add(value)
    return j if kind in ("null", "constant") else value  # its writer checks it too


def _lower_write_binary(e: Encoding[Any], lw: Lowering, value: str, path: Path) -> None:
    """``e``'s value in variable ``value``, written as
    :func:`.lowering.lower_write` writes values (what follows is lowered in
    JSON mode again, and may join its choices)."""
    lw.json = False
    try:
        lw.lower_write(e, value, path)
    finally:
        lw.json = True
