"""Which wrappers a pass sees through: one answer for every pass.

A wrapper stands for another encoding on one side or both: its binary
*layout* is that encoding's (what ``describe`` and the tables show), or its
*JSON form* is (what the JSON Schema shows). :func:`unwrap` says which, in
one place, so that the passes cannot disagree:

============================  ===================  ==================
wrapper                       binary layout        JSON form
============================  ===================  ==================
``def_``, ``conv``,           its inner encoding   its inner encoding
``delayed``, ``check_size``
``splitted``                  its ``binary``       its ``json``
``Named`` (a key's record),   its one-field record its inner encoding
``Described``                 (its ``record``)
``dynamic_size``, ``padded``  itself (bytes added) its inner encoding
``fixed.*``                   itself (a leaf)      its inner encoding
============================  ===================  ==================

A ``def_``'s name is the caller's to take (``describe`` scopes it). The
codecs see through a wrapper only when its values are its inner encoding's
too: a ``conv`` changes values, so they convert through it (the JSON pass:
``jsonexact.same_converters``; the binary pass: ``binaryrules.same_binary``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ..tree.core import Encoding
from ..tree.framing import CheckSize, DynamicSize, Padded
from ..tree.records import Described
from ..tree.strings import FixedBytes
from ..tree.wrappers import Conv, Def, Delayed, Splitted

Side = Literal["binary", "json"]


def emitted_for(
    e: Encoding[Any], same: Callable[[Encoding[Any]], Encoding[Any] | None]
) -> Encoding[Any]:
    """The node whose code a codec emits for ``e``: ``e``, or the node whose
    pieces it uses, by ``same`` (the codec's notion of a wrapper that keeps
    bytes or JSON and values), followed to its end. A delayed encoding is
    called, not looked into: its encoding is made when it is first used."""
    while not isinstance(e, Delayed):
        inner = same(e)
        if inner is None:
            break
        e = inner
    return e


def unwrap(e: Encoding[Any], side: Side) -> Encoding[Any] | None:
    """The encoding ``e`` stands for on ``side``, or ``None`` when ``e`` is
    not a wrapper transparent there."""
    if isinstance(e, Def | Conv | Delayed | CheckSize):
        return e.inner
    if isinstance(e, Splitted):
        return e.binary if side == "binary" else e.json
    if isinstance(e, Described):
        return e.record if side == "binary" else e.inner
    if side == "binary":
        return None
    if isinstance(e, DynamicSize | Padded | FixedBytes):
        return e.inner
    return None
