"""Deep input as the README's "Depth" paragraph allows it: a call run in a
thread whose stack holds the levels, with the depth limit raised to them
(what the tests at depth share)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable

import data_encoding as de

LARGE_STACK = 1 << 30
"""1 GB of address space (only what is used is memory): 100 000 levels fit."""


def at_depth(levels: int, call: Callable[[], object]) -> object:
    """``call()`` with the depth limit raised to ``levels``, in a thread whose
    stack is :data:`LARGE_STACK`: what it returned, or what it raised. The
    depth limit, Python's recursion limit (which ``set_max_depth`` raises,
    never lowers) and the size of new threads' stacks are put back."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:
            outcome.append(exc)

    previous_limit, recursion = de.max_depth(), sys.getrecursionlimit()
    de.set_max_depth(levels)
    stack = threading.stack_size(LARGE_STACK)
    try:
        thread = threading.Thread(target=run)
        thread.start()
        thread.join()
    finally:
        threading.stack_size(stack)
        de.set_max_depth(previous_limit)
        sys.setrecursionlimit(recursion)
    return outcome[0]
