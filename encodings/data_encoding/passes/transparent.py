"""Which wrappers a pass sees through: one table for every pass.

A wrapper stands for another encoding to some questions and not to others:
a ``conv``'s binary layout is its inner encoding's, its values are not; a
``padded``'s JSON form is its inner encoding's, its bytes are not. Each
question the passes ask is a column of :data:`TABLE`, each wrapper type a
row; a cell names the attribute that holds the node the wrapper stands for
(``·``: none, the wrapper answers for itself). A subclass takes its
parent's row unless it has its own (``Bounded`` is a ``CheckSize``,
``Named`` a ``Described``, the node's tagged and hash bytes are
``FixedBytes``), and a type with no row is no wrapper. A new wrapper is one
row.

=========== ====== ===== ====== ======= ========== ===== ====== ====== ===== ====== ======
wrapper     layout json  binary lenient converters both  values writes reads slices called
=========== ====== ===== ====== ======= ========== ===== ====== ====== ===== ====== ======
Def         inner  inner inner  inner   inner      inner inner  inner  inner inner  ·
Conv        inner  inner ·      ·       ·          ·     ·      ·      inner inner  ·
Delayed     inner  inner inner  inner   inner      ·     inner  inner  inner inner  yes
Mu          ·      ·     ·      ·       ·          ·     ·      body   body  ·      ·
CheckSize   inner  inner ·      ·       inner      ·     inner  inner  inner inner  ·
Splitted    binary json  binary ·       json       ·     binary ·      json  binary ·
DirectJson  binary json  binary ·       ·          ·     binary ·      json  ·      ·
Described   record inner inner  inner   inner      inner inner  inner  inner inner  ·
DynamicSize ·      inner ·      ·       inner      ·     inner  inner  inner ·      ·
Padded      ·      inner ·      ·       inner      ·     inner  inner  inner ·      ·
FixedBytes  ·      inner ·      ·       inner      ·     inner  inner  inner ·      ·
=========== ====== ===== ====== ======= ========== ===== ====== ====== ===== ====== ======

The columns, each a question and who asks it:

``layout``
    The binary layout (``describe``, the tables): the bytes are the other
    node's, whatever the values; a ``Described`` is described as its
    ``record`` (the reference's description of the same bytes). A frame,
    padding or a fixed-width leaf adds bytes or is a leaf: shown itself.
``json``
    The JSON form (the JSON Schema, a union's JSON shape tests and constant
    members): the JSON is the other node's, whatever the values.
``binary``
    Same bytes *and values*: the binary codec uses the other node's reader,
    writer, sizer and inline code (``binary.rules.same_binary``). A ``conv``
    maps values, a ``check_size`` checks sizes: each has code of its own.
``lenient``
    The same for the lenient reader (``marking.lenient_value_node``): not
    through a ``splitted``, which marks its value whole (``marking.holds``).
``converters``
    Same JSON *and values*: the JSON converters are the other node's
    (``json.exact.same_converters``). A ``DirectJson`` has its own functions.
``both``
    Same bytes, values and JSON (``jsonmode.same_both``): JSON mode reads
    and writes the other node's JSON as it goes.
``values``
    Same values (``choosing``: a union's value shape tests and constant
    members); a ``splitted``'s are its ``binary``'s.
``writes``
    The record that writes a union case's value (``choosing``: where
    writing or printing it failed, a later case that would write that
    member with the very same encoding is skipped), through recursion; not
    into a ``splitted``, whose value its ``binary`` writes and its ``json``
    prints: no one member of either is the one that failed.
``reads``
    The record that reads a union case's JSON (``choosing``: where reading
    it failed, and how far it got), through recursion.
``slices``
    The node whose bytes a slice shows (``slicing``) under the wrapper's
    path: not a ``DirectJson``'s (its JSON is one value for all its bytes,
    so it is a leaf), a ``Described``'s ``inner`` (its values, not the
    record's).
``called``
    The code a codec emits for the wrapper calls it, never looks into it
    (:func:`emitted_for`): a delayed encoding is made when it is first used,
    and may be the knot of a recursive one (so ``both``, whose only use is
    the code emitted in JSON mode, does not look into it either).

A ``def_``'s name is the caller's to take (``describe`` scopes it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NamedTuple

from ..tree.core import Encoding
from ..tree.framing import CheckSize, DynamicSize, Padded
from ..tree.records import Described
from ..tree.strings import FixedBytes
from ..tree.wrappers import Conv, Def, Delayed, DirectJson, Mu, Splitted

__all__ = [
    "TABLE",
    "WRAPPERS",
    "Question",
    "Row",
    "Side",
    "emitted_for",
    "last_seen",
    "row",
    "seen_through",
    "unwrap",
]

Step = Literal["inner", "binary", "json", "record", "body"]
"""The attribute of a wrapper that holds the node it stands for."""

Question = Literal[
    "layout",
    "json",
    "binary",
    "lenient",
    "converters",
    "both",
    "values",
    "writes",
    "reads",
    "slices",
]
"""A column of :data:`TABLE` (see the module's documentation)."""

Side = Literal["binary", "json"]


class Row(NamedTuple):
    """What one wrapper type stands for, a cell per :data:`Question`: the
    attribute that holds the node it stands for, ``None`` where it answers
    for itself."""

    layout: Step | None = None
    json: Step | None = None
    binary: Step | None = None
    lenient: Step | None = None
    converters: Step | None = None
    both: Step | None = None
    values: Step | None = None
    writes: Step | None = None
    reads: Step | None = None
    slices: Step | None = None
    called: bool = False


_INNER = Row(
    layout="inner",
    json="inner",
    binary="inner",
    lenient="inner",
    converters="inner",
    both="inner",
    values="inner",
    writes="inner",
    reads="inner",
    slices="inner",
)
"""The row of a wrapper that is its ``inner`` node to every question."""

_OWN_BYTES = Row(json="inner", converters="inner", values="inner", writes="inner", reads="inner")
"""The row of a wrapper whose JSON form and values are its ``inner``
node's, its bytes its own (a frame, padding, a fixed-width leaf)."""

TABLE: dict[type[Encoding[Any]], Row] = {
    Def: _INNER,
    Conv: Row(layout="inner", json="inner", reads="inner", slices="inner"),
    Delayed: _INNER._replace(both=None, called=True),
    Mu: Row(writes="body", reads="body"),
    CheckSize: _INNER._replace(binary=None, lenient=None, both=None),  # the codecs check its size
    Splitted: Row(
        layout="binary",
        json="json",
        binary="binary",
        converters="json",
        values="binary",
        reads="json",
        slices="binary",
    ),
    DirectJson: Row(layout="binary", json="json", binary="binary", values="binary", reads="json"),
    Described: _INNER._replace(layout="record"),
    DynamicSize: _OWN_BYTES,
    Padded: _OWN_BYTES,
    FixedBytes: _OWN_BYTES,
}
"""The wrapper types and what each question sees through (the module's
documentation draws it): a cell is ``None`` unless given."""

WRAPPERS: tuple[type[Encoding[Any]], ...] = tuple(TABLE)
"""Every wrapper type: for a function whose default serves them all alike."""


def row(kind: type[Encoding[Any]]) -> Row:
    """The row of ``kind``: its own, else its nearest parent's, else an
    empty one (no wrapper)."""
    found = _ROWS.get(kind)
    if found is None:
        found = _ROWS[kind] = next((TABLE[k] for k in kind.__mro__ if k in TABLE), Row())
    return found


_ROWS: dict[type[Encoding[Any]], Row] = {}
"""Each node type's row, once found: every pass asks it of every node it
walks (``describe``, of each node of each rebuilt encoding)."""


def seen_through(e: Encoding[Any], question: Question) -> Encoding[Any] | None:
    """The node ``e`` stands for to ``question``, or ``None``."""
    step = getattr(row(type(e)), question)
    return None if step is None else getattr(e, step)


def last_seen(e: Encoding[Any], question: Question) -> Encoding[Any]:
    """``e``, followed through every wrapper ``question`` sees through."""
    while (inner := seen_through(e, question)) is not None:
        e = inner
    return e


def unwrap(e: Encoding[Any], side: Side) -> Encoding[Any] | None:
    """The encoding ``e`` stands for on ``side``: its binary ``layout`` or
    its ``json`` form; ``None`` when ``e`` is not a wrapper transparent there."""
    return seen_through(e, "layout" if side == "binary" else "json")


def emitted_for(
    e: Encoding[Any], same: Callable[[Encoding[Any]], Encoding[Any] | None]
) -> Encoding[Any]:
    """The node whose code a codec emits for ``e``: ``e``, or the node whose
    pieces it uses, by ``same`` (the codec's column: a wrapper that keeps
    bytes or JSON and values), followed to its end, or to a wrapper that is
    ``called``."""
    while not row(type(e)).called and (inner := same(e)) is not None:
        e = inner
    return e
