"""How deep a value may nest: one limit for every direction.

A value nests one level deeper each time it goes through a recursive encoding
(a ``mu``, or a ``delayed`` encoding, which may refer to itself) and, inside
a ``json`` value, at each array and object. Decoding, encoding, ``length``,
``to_json`` and ``from_json`` all refuse a value nested more than
:func:`max_depth` levels deep (100 unless set), with the error ``too_deep``:
what decodes can be encoded back, and the other way round.

The level is counted per thread, so encodings may be shared between threads.

>>> from data_encoding import list_, mu
>>> lists = mu("lists", lambda self: list_(self))
>>> lists.encode([[[]]]).hex()
'000000080000000400000000'
>>> max_depth()
100
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .compiling import when_built
from .errors import DecodeError, DefinitionError, EncodeError, JsonError

__all__ = ["max_depth", "set_max_depth"]

T = TypeVar("T")

DEFAULT = 100
#: Python frames a level may take, at most, in the deepest direction (a
#: service tree's level takes nine: a union that selects its case by trying,
#: records and lists that are not inlined); Python's recursion limit is
#: raised to let the limit, not Python, decide. ``test_catalogue_deep.py``
#: measures every recursive encoding of the catalogue against it.
FRAMES_PER_LEVEL = 16
#: frames left for the caller's own stack
MARGIN = 400

LIMIT = [DEFAULT]
"""The limit, ``LIMIT[0]``: a cell, so that generated code that counts its
own levels (:func:`tied`) reads the limit as it is when it runs."""


class _Level(threading.local):
    def __init__(self) -> None:  # run in each thread, on its first use
        self.cell = [0]


LEVELS = _Level()
"""Each thread's level, ``LEVELS.cell[0]`` (a generated reader that counts
its own levels reads it: :func:`tied`)."""


def level() -> int:
    """The current thread's level (0 outside any nesting)."""
    return LEVELS.cell[0]


def max_depth() -> int:
    """How many levels a value may nest (see the module documentation)."""
    return LIMIT[0]


def set_max_depth(levels: int) -> None:
    """Let values nest ``levels`` deep (at least 1).

    Python's recursion limit is raised, never lowered, so that this many
    levels fit in every direction (:func:`make_room`). The thread's stack
    bounds what is safe: 20 000 levels of lists fit the main thread's 8 MB,
    25 000 crash CPython; a thread with a larger stack
    (``threading.stack_size``) takes more (1 GB: 100 000 levels).
    """
    if type(levels) is not int or levels < 1:
        raise DefinitionError(f"set_max_depth: a number of levels is an int >= 1, not {levels!r}")
    LIMIT[0] = levels
    make_room()


def make_room() -> None:
    """Raise Python's recursion limit (never lower it) so that
    :func:`max_depth` levels fit: done when the limit is set and when a
    recursive encoding is built, so that the default limit holds too."""
    needed = LIMIT[0] * FRAMES_PER_LEVEL + MARGIN
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def past_depth_limit(
    cls: type[EncodeError] | type[DecodeError] | type[JsonError], offset: int | None = None
) -> Any:
    """The error for a value nested more than :func:`max_depth` levels."""
    return cls(
        "too_deep",
        f"the value nests more than {LIMIT[0]} levels "
        "(data_encoding.set_max_depth raises the limit)",
        offset=offset,
    )


def nested(
    cell: list[Callable[..., T]], cls: type[EncodeError] | type[DecodeError] | type[JsonError]
) -> Callable[..., T]:
    """``cell[0]`` (filled in later: a recursive encoding's body refers to
    this function before it exists), one level deeper: refused past the limit
    with ``cls``'s ``too_deep`` (at ``pos`` for a reader ``(buf, pos, end)``)."""

    if cls is DecodeError:  # a reader, the hottest: its three arguments named
        return _reader_one_level_deeper(cell)

    def one_level_deeper(*args: Any) -> T:
        # one look-up of the thread's own counter: a thread-local attribute
        # costs more than the rest of this function
        count = LEVELS.cell
        level = count[0]
        if level >= LIMIT[0]:
            raise past_depth_limit(cls)
        count[0] = level + 1
        try:
            # empty while another thread compiles the body: wait for it
            return (cell[0] if cell else when_built(cell))(*args)
        finally:
            count[0] = level

    return one_level_deeper


def _reader_one_level_deeper(cell: list[Callable[..., T]]) -> Callable[..., T]:
    """:func:`nested` for a reader ``(buf, pos, end)``: its arguments passed
    as they are, not packed into a tuple."""

    def one_level_deeper(buf: bytes, pos: int, end: int) -> T:
        count = LEVELS.cell
        level = count[0]
        if level >= LIMIT[0]:
            raise past_depth_limit(DecodeError, pos)
        count[0] = level + 1
        try:
            return (cell[0] if cell else when_built(cell))(buf, pos, end)
        finally:
            count[0] = level

    return one_level_deeper


def knot(
    owner: object,
    key: str,
    body: Callable[[], Callable[..., T]],
    cls: type[EncodeError] | type[DecodeError] | type[JsonError],
) -> Callable[..., T]:
    """A recursive encoding's function for piece ``key``: published on
    ``owner`` (in its ``__dict__``, where :func:`~data_encoding.compiling.built`
    keeps pieces) before ``body()`` builds the function it stands for, since
    the body calls it; each call is one level deeper (:func:`nested`). A
    failed build withdraws it: no half-built function is left behind."""
    make_room()
    cell: list[Callable[..., T]] = []
    function = owner.__dict__[key] = nested(cell, cls)
    try:
        cell.append(body())
    except BaseException:
        del owner.__dict__[key]
        raise
    return function


def tied(owner: object, key: str, body: Callable[[], Callable[..., T]]) -> Callable[..., T]:
    """:func:`knot` for a reader or writer that counts its own
    levels (:data:`LEVELS`, :data:`LIMIT`: a recursive encoding's generated
    reader): while ``body()`` builds it, a stand-in that calls it is
    published; once built, the reader itself is, and its own references to
    the stand-in are bound to it, so that a level costs no call of a wrapper.
    (Functions built meanwhile that call the stand-in keep it: one more call
    for them, the same count.)"""
    make_room()
    cell: list[Callable[..., T]] = []

    def stand_in(*args: Any) -> T:
        # empty while another thread compiles the body: wait for it
        return (cell[0] if cell else when_built(cell))(*args)

    attributes = owner.__dict__
    attributes[key] = stand_in
    try:
        function = body()
    except BaseException:
        del attributes[key]
        raise
    namespace = function.__globals__
    for name, value in list(namespace.items()):
        if value is stand_in:
            namespace[name] = function
    cell.append(function)
    attributes[key] = function
    return function
