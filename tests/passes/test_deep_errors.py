"""Errors raised deep inside a value cost time linear in the depth (issue 28).

An error is raised where the problem is, with an empty path, and each
enclosing record, list or union adds its step on the way out. Were each step
prepended to a tuple, an error N levels deep would cost O(N^2): with the
depth limit raised, as the README allows (20 000 levels on the main thread,
100 000 in a thread with a large stack), refusing a NaN under 16 000 lists
took ten times as long as accepting 0.5 there. The steps are collected as
the error travels and the path (``err.path``, a tuple of steps, outermost
first) is built once, when it is read.

What is checked, structurally (no timing): in every direction and for each
way a value nests (a ``json`` value's arrays, a recursive list, a recursive
union whose cases are tried, a recursive record compiled into one
function), an error ``DEPTH`` levels deep has its full path, and the path
was built at most once while the error travelled up (a union that looked at
the whole path at each level, as it once did to rank its cases' failures,
would build it ``DEPTH`` times).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import data_encoding as de
from data_encoding import DataEncodingError
from deep import at_depth

DEPTH = 16_000


@contextmanager
def _path_builds() -> Iterator[list[int]]:
    """Count the times an error's path is built (``err.path`` read)."""
    path = DataEncodingError.__dict__["path"]
    assert isinstance(path, property) and path.fget is not None
    read, count = path.fget, [0]

    def counted(err: DataEncodingError) -> Any:
        count[0] += 1
        return read(err)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DataEncodingError, "path", property(counted, path.fset))
        yield count


def _nested(levels: int, leaf: Any, around: Callable[[Any], Any]) -> Any:
    value = leaf
    for _ in range(levels):
        value = around(value)
    return value


LISTS = de.mu("lists", lambda self: de.list_(self))
TRIED = de.mu(
    "tried",
    lambda self: de.union([de.case(0, "list", de.list_(self)), de.case(1, "float", de.float_)]),
)
CHAIN = de.mu("chain", lambda self: de.obj(de.req("v", de.uint8), de.opt("next", self)))


def _list_bytes(levels: int, innermost: bytes) -> bytes:
    """``levels`` list headers around ``innermost``, each counting what it holds."""
    data = innermost
    for _ in range(levels):
        data = len(data).to_bytes(4, "big") + data
    return data


VALUES = ("encode", "length", "to_json")
JSON = ("from_json", "encode_json")
BYTES = ("decode", "decode_json")


def _in_list(x: Any) -> list[Any]:
    return [x]


def _in_chain(x: Any) -> dict[str, Any]:
    return {"v": 1, "next": x}


Case = tuple[str, str, de.Encoding[Any], Any, str, tuple[Any, ...]]


def _cases(
    name: str, e: de.Encoding[Any], directions: tuple[str, ...], given: Any, code: str, path: Any
) -> list[Case]:
    return [(name, d, e, given, code, path) for d in directions]


IN_LISTS = (0,) * DEPTH
IN_CHAIN = ("next",) * DEPTH

CASES: list[Case] = [
    # (name, direction, encoding, input, code, path): each input fails DEPTH levels deep
    *_cases(
        "json", de.json, JSON + VALUES, _nested(DEPTH, math.nan, _in_list), "not_json", IN_LISTS
    ),
    *_cases("lists", LISTS, JSON + VALUES, _nested(DEPTH, 5, _in_list), "wrong_type", IN_LISTS),
    # the innermost list holds one byte, where an element's header takes four
    *_cases(
        "lists",
        LISTS,
        BYTES,
        _list_bytes(DEPTH, bytes.fromhex("0000000107")),
        "not_enough_data",
        (*IN_LISTS, 0),
    ),
    *_cases(
        "tried", TRIED, JSON + VALUES, _nested(DEPTH, "x", _in_list), "no_case_matched", IN_LISTS
    ),
    *_cases(
        "chain",
        CHAIN,
        VALUES,
        _nested(DEPTH, {"v": 300}, _in_chain),
        "invalid_int",
        (*IN_CHAIN, "v"),
    ),
    *_cases(
        "chain",
        CHAIN,
        JSON,
        _nested(DEPTH, {"v": 300}, _in_chain),
        "out_of_range",
        (*IN_CHAIN, "v"),
    ),
    # the innermost presence byte is 07
    *_cases(
        "chain",
        CHAIN,
        BYTES,
        bytes.fromhex("01ff") * (DEPTH - 1) + bytes.fromhex("0107"),
        "invalid_presence_flag",
        IN_CHAIN,
    ),
]


@pytest.mark.parametrize(
    ("direction", "e", "given", "code", "path"),
    [pytest.param(*case[1:], id=f"{case[0]}-{case[1]}") for case in CASES],
)
def test_an_error_deep_inside_builds_its_path_once(
    direction: str, e: de.Encoding[Any], given: Any, code: str, path: tuple[Any, ...]
) -> None:
    action = getattr(e, direction)
    with _path_builds() as builds:
        raised = at_depth(DEPTH + 10, lambda: action(given))
        during = builds[0]
    assert isinstance(raised, DataEncodingError), raised
    assert (raised.code, raised.path) == (code, path)
    assert during <= 1


def test_steps_are_collected_outermost_last() -> None:
    """``within`` adds the steps around what the error has, one or several
    (outermost first); the path reads in order, as a tuple."""
    err = de.DecodeError("invalid_bool", "invalid boolean byte", offset=3)
    assert err.within(2) is err
    err.within("b", "a")  # a record's step inside another's, as generated code adds them
    err.within(0)
    assert err.path == (0, "b", "a", 2)
    assert str(err) == "invalid boolean byte at $[0].b.a[2] (byte 3)"
    assert de.JsonError("wrong_type", "x", path=("a", 1)).within("r").path == ("r", "a", 1)
