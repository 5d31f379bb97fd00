"""Compiled pieces, built once on first use, safely between threads.

An encoding compiles its reader, writer, sizer and JSON converters the first
time it needs them (see :mod:`data_encoding.tree.core`). :class:`compiled` is the
descriptor that does it, like :class:`functools.cached_property`, with one
difference: every build in the library holds one re-entrant lock,
:data:`COMPILING` (building one piece builds its parts', in any order), so
that threads sharing an encoding wait for a piece rather than see it half
built. (``cached_property`` of Python 3.11 has a lock per property, shared by
all instances: two threads building two properties could wait for each
other.) Once built, a piece is a plain attribute of the instance: reading it
costs nothing more.

A recursive encoding publishes its functions before its body is compiled
(the body calls them); a thread that finds one still empty waits for the
lock, see :func:`when_built`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar, overload

from .errors import DefinitionError

T = TypeVar("T")

COMPILING = threading.RLock()
"""Held while any piece of any encoding is being built."""


class compiled(Generic[T]):  # used as a decorator, like cached_property
    """A piece built by the decorated method on first use, under :data:`COMPILING`."""

    def __init__(self, build: Callable[[Any], T]) -> None:
        self.build = build
        self.name = build.__name__
        self.__doc__ = build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> compiled[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        # only called while the instance has no such attribute yet: the
        # descriptor defines no __set__, so a built piece shadows it
        return built(instance, self.name, partial(self.build, instance))


def built(instance: object, key: str, build: Callable[[], T]) -> T:
    """The piece of ``instance`` kept under ``key``, built by ``build()`` on
    first use under :data:`COMPILING`. A pass keeps its pieces this way, under
    keys that are not attribute names (``"json.exact_to"``)."""
    attributes = instance.__dict__
    piece = attributes.get(key, _MISSING)
    if piece is not _MISSING:
        return piece  # type: ignore[no-any-return]
    with COMPILING:
        if key not in attributes:
            attributes.setdefault(key, build())  # a recursive build may have set it
        return attributes[key]  # type: ignore[no-any-return]


_MISSING = object()


def when_built(cell: list[T]) -> T:
    """``cell[0]``, once the thread compiling it is done (see the module documentation)."""
    with COMPILING:
        if not cell:  # its build failed: the encoding's function was withdrawn
            raise DefinitionError("this encoding failed to compile (in another thread)")
        return cell[0]
