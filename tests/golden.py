"""The reference expectations in ``tests/vectors/`` (see its README), and JSON comparison."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from data_encoding.jsonvalue import JsonValue, json_object

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


def ordered_json(v: Any) -> Any:
    """A comparable form of a JSON value in which objects keep their key order.

    Objects become lists of (key, value) items; numbers compare by value, but a
    boolean is not a number.
    """
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int | float):
        return ("number", v)
    if isinstance(v, str) or v is None:
        return ("scalar", v)
    if isinstance(v, list):
        return ("array", [ordered_json(x) for x in v])
    if isinstance(v, dict):
        return ("object", [(k, ordered_json(x)) for k, x in v.items()])
    raise TypeError(f"not a JSON value: {v!r}")


DESCRIBE_ANSWERS = {
    "describe-mempool-2021.json": "rpc.service_tree",
    "describe-mempool-2022.json": "rpc.service_tree_v1",  # exactly limits, "kind" twice
    "describe-mempool-alpha-2022-01-24.json": "rpc.service_tree",  # "kind" twice
    "describe-mempool-alpha-2022-06-02.json": "rpc.service_tree_v1",  # exactly, "kind" twice
    "describe-mempool-ithaca-2022-06-09.json": "rpc.service_tree",
}
"""The real ``/describe`` answers of the vectors, and the service tree that
states each in binary: the legacy one for the legacy words, the 1.0 one for
those with 1.0's ``length_limit`` (``exactly`` limits)."""


def one_zero_words(answer: JsonValue, in_schema: bool = False) -> JsonValue:
    """A ``/describe`` answer with the fixed sizes of its binary schemas in
    data-encoding 1.0's word, ``"Fixed"`` where legacy and 0.5.3 write
    ``"Float"``, its members otherwise as they are (repeated ones included):
    what the 1.0 dialect prints for the answer's bytes, when its other words
    are 1.0's already (those of the real answers are: none has ``max_length``)."""
    if isinstance(answer, list):
        return [one_zero_words(x, in_schema) for x in answer]
    if not isinstance(answer, dict):
        return answer
    members = list(answer.items())
    if in_schema and members == [("size", answer.get("size")), ("kind", "Float")]:
        return {"size": answer["size"], "kind": "Fixed"}
    return json_object(
        [(name, one_zero_words(x, in_schema or name == "binary_schema")) for name, x in members]
    )


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


@cache
def codec_vectors(encoding_name: str | None = None) -> list[dict[str, Any]]:
    """The node toolchain's codec regression vectors of ``encoding_name``
    (``007-PsDELPH1.operation.unsigned``; every one for ``None``), in file
    order: ``{"encoding_name", "json", "hex"}`` and their origin."""
    with open(VECTORS / "octez-codec-007.jsonl", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    return [row for row in rows if encoding_name in (None, row["encoding_name"])]
