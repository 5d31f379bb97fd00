"""The reference expectations in ``tests/vectors/`` (see its README), and JSON comparison."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parent / "vectors"


@cache
def legacy_records() -> list[dict[str, Any]]:
    """The records of ``legacy-conformance.jsonl``."""
    with open(VECTORS / "legacy-conformance.jsonl", encoding="ascii") as f:
        return [json.loads(line) for line in f]


@cache
def expect_tests() -> list[dict[str, Any]]:
    """The upstream expect tests of ``data_encoding_expect_tests.json``."""
    with open(VECTORS / "data_encoding_expect_tests.json", encoding="utf-8") as f:
        result: list[dict[str, Any]] = json.load(f)
    return result


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value, but ``true`` is not ``1``, and keys in any order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


class Members(list[tuple[str, Any]]):
    """A JSON object as the list of its members, in order, a member given twice kept twice."""


def ordered_json(v: Any) -> Any:
    """A comparable form of a JSON value in which objects keep their key order.

    Objects (dicts, or :class:`Members`) become lists of (key, value) items;
    numbers compare by value, but a boolean is not a number.
    """
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int | float):
        return ("number", v)
    if isinstance(v, str) or v is None:
        return ("scalar", v)
    if isinstance(v, Members):
        return ("object", [(k, ordered_json(x)) for k, x in v])
    if isinstance(v, list):
        return ("array", [ordered_json(x) for x in v])
    if isinstance(v, dict):
        return ("object", [(k, ordered_json(x)) for k, x in v.items()])
    raise TypeError(f"not a JSON value: {v!r}")


def text_members(text: str | bytes) -> Any:
    """JSON text as :func:`ordered_json` compares it, each object read as its
    :class:`Members`: two texts compare equal when they hold the same
    members in the same order, repeated ones included."""
    return ordered_json(json.loads(text, object_pairs_hook=Members))


def one_zero_words(members: Any) -> Any:
    """The ``ordered_json`` form of a ``/describe`` answer with the fixed
    sizes of its binary schemas in data-encoding 1.0's word, ``"Fixed"``
    (legacy and 0.5.3 write ``"Float"``): what the 1.0 dialect prints when it
    reads the answer's bytes, for an answer whose other words are 1.0's
    already (the real ones have no ``max_length``)."""
    return _rewritten(members, in_schema=False)


def _rewritten(v: Any, in_schema: bool) -> Any:
    kind, body = v
    if kind == "array":
        return (kind, [_rewritten(x, in_schema) for x in body])
    if kind != "object":
        return v
    if in_schema and [k for k, _ in body] == ["size", "kind"] and body[1][1] == ("scalar", "Float"):
        return (kind, [body[0], ("kind", ("scalar", "Fixed"))])
    return (kind, [(k, _rewritten(x, in_schema or k == "binary_schema")) for k, x in body])


# The Zarith tables of the reference (data-encoding-reference.md §2.4): (value, hex).
ZARITH_N = [(0, "00"), (127, "7f"), (128, "8001"), (341234, "f2e914"), (34341234, "f282b010")]
ZARITH_Z = [
    (0, "00"),
    (63, "3f"),
    (64, "8001"),
    (127, "bf01"),
    (128, "8002"),
    (-1, "41"),
    (-63, "7f"),
    (-64, "c001"),
    (-127, "ff01"),
    (-256, "c004"),
    (341234, "b2d329"),
    (-34341234, "f285e020"),
    (1000000, "80897a"),
]
