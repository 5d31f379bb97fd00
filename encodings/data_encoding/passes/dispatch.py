"""What each dispatching function of the passes leaves to its default.

A pass is one function per node type, chosen by
:func:`functools.singledispatch`: a node type with no registration of its
own (nor a parent's) takes the function's default, and nothing says so. A
default is often right (a leaf is no list of numbers read whole:
:func:`.binary.rules.many`), but one taken by oversight is silent: a union
tries its cases where it could tell them apart by shape, a part is called
where it could be inlined. So each dispatching function says, with
:func:`takes_default` beside it, which node types take its default on
purpose and why, and which column of the wrapper table
(:data:`.transparent.TABLE`) its default follows, if any: a wrapper seen
through there is asked as the node it stands for.
``tests/passes/test_exhaustive.py`` checks every node type against every
dispatching function and names each pair neither registered nor listed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from .transparent import Question

__all__ = ["DEFAULTS", "Defaults", "takes_default"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Defaults:
    """What one dispatching function leaves to its default."""

    why: Mapping[type, str]
    """Each node type (with its subclasses) that takes the default on
    purpose, and why."""

    through: Question | None
    """The column of the wrapper table that the default (or its callers,
    by :func:`.transparent.emitted_for`) follows."""


DEFAULTS: dict[Callable[..., Any], Defaults] = {}
"""Every dispatching function of the passes, and what it leaves to its default."""


def takes_default(
    why: Mapping[str, tuple[type, ...]], through: Question | None = None
) -> Callable[[F], F]:
    """Declare, of the dispatching function it decorates, that the node
    types of each entry of ``why`` (and their subclasses) take its default
    on purpose, for that reason, and that a wrapper seen through by the
    ``through`` column is asked as the node it stands for."""

    def declare(f: F) -> F:
        DEFAULTS[f] = Defaults({t: reason for reason, ts in why.items() for t in ts}, through)
        return f

    return declare
