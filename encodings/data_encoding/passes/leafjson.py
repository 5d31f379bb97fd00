"""A leaf's JSON, checked by generated code: what the fast JSON converters
(:mod:`.json.fast`) and the binary writer in JSON mode (``encode_json``) both
emit, so that both refuse a leaf's JSON by the very code ``from_json``
refuses it with.

Generated code says nothing about what is wrong: a failed check raises
:class:`Bail`, and the caller runs the exact converter, which says why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import TYPE_CHECKING, Any, Protocol

from ..tree.anyjson import Bson
from ..tree.leaves import AtomEncoding
from ..tree.primitives import Bool, Int, ZeroWidth
from ..tree.records import Parts
from ..tree.sequences import ListEncoding
from ..tree.strings import RawBytes
from ..tree.unions import Union
from ..tree.zarith import Zarith
from .dispatch import takes_default
from .transparent import WRAPPERS

if TYPE_CHECKING:
    from ..tree.core import Encoding

__all__ = ["Bail", "Checks", "ReadLeaf", "in_range", "read_leaf", "refused_length", "same_bool"]


class Bail(Exception):
    """The generated converter gives up: the exact one will say why."""


class Checks(Protocol):
    """What a leaf's JSON reading (:func:`read_leaf`) is emitted into: a
    generated converter (:class:`.json.fast.JGen`), or the binary writer in JSON
    mode (:class:`.binary.lowering.Lowering`), so that ``encode_json`` refuses a leaf's
    JSON by the very code ``from_json`` refuses it with."""

    def bail_if(self, condition: str) -> None:
        """Give up when ``condition`` holds."""

    def bind(self, expr: str, prefix: str = "json") -> str:
        """``expr`` in a variable."""

    def ref(self, obj: Any, stem: str | None = None) -> str:
        """The name of ``obj`` in the code."""


ReadLeaf = Callable[[Checks, str], str]
"""Emits the checks of a leaf's JSON in the variable given (bailing when
they fail); returns an expression of its value."""


@takes_default(
    {
        "a leaf whose JSON its converter checks, called": (AtomEncoding, Zarith, Bson),
        "not a leaf: its parts are emitted": (Parts, ListEncoding, Union),
        "a wrapper: the caller asks the node it stands for, or calls it": WRAPPERS,
    }
)
@singledispatch
def read_leaf(e: Encoding[Any]) -> ReadLeaf | None:
    """How leaf ``e``'s JSON is checked and read inline, or ``None`` when
    ``e`` is no such leaf (its reader is called)."""
    return None


@read_leaf.register
def _zero_width_read(e: ZeroWidth) -> ReadLeaf | None:
    """``null`` and ``constant(s)``: the value is its own JSON form."""
    if e.kind == "null":

        def null(g: Checks, x: str) -> str:
            g.bail_if(f"{x} is not None")
            return "None"

        return null
    if e.kind == "constant":
        value = e.value

        def constant(g: Checks, x: str) -> str:
            g.bail_if(f"not {x} == {value!r}")  # as ``matches``: ``==``, not ``!=``
            return repr(value)

        return constant
    return None


def same_bool(g: Checks, x: str) -> str:
    g.bail_if(f"type({x}) is not bool")
    return x


@read_leaf.register
def _bool_read(e: Bool) -> ReadLeaf:
    return same_bool


def in_range(e: Int, x: str) -> str:
    """The condition that refuses ``x`` as an integer of ``e``."""
    return f"type({x}) is not int or not {e.lo} <= {x} <= {e.hi}"


@read_leaf.register
def _int_read(e: Int) -> ReadLeaf | None:
    if e.json_string:  # a decimal string is read by its parser, called
        return None

    def from_(g: Checks, j: str) -> str:
        g.bail_if(in_range(e, j))
        return j

    return from_


def refused_length(e: RawBytes, raw: str) -> str:
    """The condition (`` or ...``) that refuses bytes ``raw`` of ``e`` for their length."""
    if e.exact_length is not None:
        return f" or len({raw}) != {e.exact_length}"
    limit = e.plain_json_limit
    return f" or len({raw}) > {limit}" if limit is not None else ""


@read_leaf.register
def _raw_bytes_read(e: RawBytes) -> ReadLeaf | None:
    if e.text:  # strings keep their closures (UTF-8 checks)
        return None

    def from_(g: Checks, j: str) -> str:
        g.bail_if(f"type({j}) is not str")
        raw = g.bind(f"{g.ref(bytes.fromhex, 'fromhex')}({j})", "raw")
        # the canonical spelling only, as ``hex_from_json``
        g.bail_if(f"{raw}.hex() != {j}{refused_length(e, raw)}")
        return raw

    return from_
