"""The shapes whose lowering ``test_binary_ir.py`` pins, op for op, in
``binary_ir_pins.txt``: every way the ops after a choice (a union's cases, an
option's or an optional field's presence byte) are copied into its branches,
or are not, in the strict, lenient and JSON-mode lowerings.

The pins file is what :func:`pins` returns; after a change of the lowering
that is meant to change the ops, write it again and read the diff::

    PYTHONPATH=tests:encodings python tests/ir_shapes.py
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

import data_encoding as de
from data_encoding.passes.binary import lowering
from data_encoding.passes.binary.ops import show
from data_encoding.passes.binary.render import new_source

PINS = Path(__file__).parent / "passes" / "binary_ir_pins.txt"

_STATE = de.union(
    [
        de.case(
            0, "running", de.obj(de.req("kind", de.constant("running")), de.req("pid", de.int32))
        ),
        de.case(1, "stopped", de.obj(de.req("kind", de.constant("stopped")))),
    ]
)
_TAGGED = de.union(
    [
        de.case(0, "some", de.obj(de.opt("x", de.uint8))),
        de.case(1, "pair", de.obj(de.req("y", de.uint16))),
    ]
)


def _case_of(v: Any) -> int | None:
    return 0 if isinstance(v, int) else 1 if isinstance(v, str) else None


class Shape(NamedTuple):
    """An encoding, and how it is lowered (``budget``: ``OP_BUDGET`` meanwhile)."""

    encoding: de.Encoding[Any]
    mode: str = "strict"  # or "lenient", "json"
    budget: int | None = None


SHAPES: dict[str, Shape] = {
    "option then fixed fields": Shape(
        de.obj(de.opt("a", de.uint8), de.req("b", de.uint16), de.req("c", de.int32))
    ),
    "option then a variable field": Shape(de.obj(de.opt("a", de.uint8), de.req("s", de.string))),
    "union then fields": Shape(
        de.obj(de.req("uid", de.uint16), de.req("state", _STATE), de.opt("parent", de.int32))
    ),
    "union last": Shape(de.obj(de.req("uid", de.uint16), de.req("state", _STATE))),
    "a choice inside a case, then a field": Shape(
        de.obj(de.req("u", _TAGGED), de.req("z", de.uint8))
    ),
    "a choice in a frame, then a field": Shape(
        de.obj(
            de.req("d", de.dynamic_size(de.obj(de.opt("a", de.uint8), de.req("b", de.uint8)))),
            de.req("z", de.uint8),
        )
    ),
    "a choice in a list element, then a field": Shape(
        de.obj(
            de.req("l", de.list_(de.obj(de.opt("a", de.uint8), de.req("b", de.uint8)))),
            de.req("z", de.uint8),
        )
    ),
    "a matching union, then a field": Shape(
        de.obj(
            de.req(
                "m",
                de.matching(_case_of, [de.case(0, "int", de.uint8), de.case(1, "text", de.string)]),
            ),
            de.req("z", de.uint8),
        )
    ),
    "a case that reads nothing, then a field": Shape(
        de.obj(
            de.req("u", de.union([de.case(0, "none", de.empty), de.case(1, "some", de.uint8)])),
            de.req("z", de.uint8),
        )
    ),
    "a union, a variable field, a fixed tail": Shape(
        de.obj(de.req("u", _STATE), de.req("s", de.string), de.req("t", de.uint16))
    ),
    "a forking variable part before a fixed tail": Shape(
        de.obj(
            de.req(
                "v",
                de.union([de.case(0, "text", de.variable.string), de.case(1, "int", de.uint8)]),
            ),
            de.req("t", de.uint16),
        )
    ),
    "a union in a conv, then a field": Shape(
        de.obj(de.req("c", de.conv(lambda v: v, lambda v: v, _STATE)), de.req("z", de.uint8))
    ),
    "a union in a check_size, then a field": Shape(
        de.obj(de.req("c", de.check_size(10, _STATE)), de.req("z", de.uint8))
    ),
    "options past the copies bound": Shape(
        de.obj(*(de.opt(f"o{i}", de.uint8) for i in range(5)), de.req("z", de.uint8))
    ),
    "the op budget runs out in a branch": Shape(
        de.obj(de.req("state", _STATE), de.req("l", de.list_(de.uint16)), de.req("z", de.uint8)),
        budget=8,
    ),
    "union then fields, lenient": Shape(
        de.obj(de.req("uid", de.uint16), de.req("state", _STATE), de.opt("parent", de.int32)),
        mode="lenient",
    ),
    "union then fields, JSON mode": Shape(
        de.obj(de.req("uid", de.uint16), de.req("state", _STATE), de.opt("parent", de.int32)),
        mode="json",
    ),
}


def listing(shape: Shape, reading: bool) -> str:
    """The ops ``shape`` lowers to, shown."""
    budget = lowering.OP_BUDGET
    if shape.budget is not None:
        lowering.OP_BUDGET = shape.budget
    try:
        ops = lowering.lowered(
            shape.encoding,
            reading,
            new_source(),
            json=shape.mode == "json",
            lenient=shape.mode == "lenient",
        )
    finally:
        lowering.OP_BUDGET = budget
    # a called part shows its generated file's name; a second one alive
    # (another test built it) has "-2" after it: not the lowering's business
    return re.sub(r"-\d+>", ">", show(ops))


def pins() -> str:
    """Every shape's listing, reading and writing, in sections."""
    sections = []
    for name, shape in SHAPES.items():
        for reading in (False, True):
            title = f"=== {name}: {'reading' if reading else 'writing'}"
            sections.append(f"{title}\n{listing(shape, reading)}\n")
    return "\n".join(sections)


def sections(text: str) -> dict[str, str]:
    """The pins file's listings by section title."""
    found = {}
    for chunk in text.split("=== ")[1:]:
        title, _, body = chunk.partition("\n")
        found[title] = body.rstrip("\n")
    return found


if __name__ == "__main__":
    PINS.write_text(pins())
