"""What the checks cost: our generated entry points with kinds of checks taken out.

The encode and decode rows of ``run.py`` compare our codecs, which check
every value and every byte, with hand-written code that checks nothing.
This module measures how much of the difference is the checks: it takes the
source of a workload's generated ``encode`` (or ``decode``), removes one
more kind of check at each step, compiles the variant in the same
environment, checks that it still gives the same bytes (or value) on the
workload, and times every variant interleaved with the hand-written codec
(ratios as in ``run.py``: variant / hand-written, min / median / max).

The variants are for measuring only: each accepts values (or bytes) that
the library refuses. The steps, for ``encode``:

* ``int guards``: the per-field ``(x if (x > 1 or type(x) is int ...) else
  pack(x))`` that refuses a ``bool`` and, for ``int31``, checks the range
  (``struct`` packs ``True`` as 1 and has no 31-bit code);
* ``bytes guards``: ``type(x) is bytes and len(x) == 32`` of fixed-length
  bytes (``struct``'s ``32s`` pads and cuts silently);
* ``shape checks``: the ``dict`` type test and the member count that refuses
  unknown members;

and for ``decode``: ``int31 ranges`` (the range test after ``unpack``), then
``length checks`` (a record's bytes are in its frame before ``unpack``).

    python benchmarks/floors.py            # 31 repeats
    python benchmarks/floors.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import CODECS
from timing import Row, calls_per_repeat, compare, table
from workloads import Workload, workloads

__all__ = ["DECODE_STEPS", "ENCODE_STEPS", "floors", "variant", "variant_source"]

Step = tuple[str, tuple[tuple[str, str], ...]]
"""A variant's label and the (pattern, replacement) pairs that remove its checks."""

_INT_GUARD = (r"\((\w+) if \((?:[^()]|\([^()]*\))*\) else _pack_leaf\w*\(\w+\)\)", r"\1")
_BYTES_GUARD = (
    r"\((\w+) if type\(\w+\) is bytes and len\(\w+\) == \d+ else _pack_leaf\w*\(\w+\)\)",
    r"\1",
)
_DICT_TEST = (
    r"^(\s*)if type\((\w+)\) is not dict and not isinstance\(\w+, dict\):\n\s*raise .*$",
    r"\1pass",
)
_MEMBER_COUNT = (r"^(\s*)if len\((\w+)\) > [^:]*:\n\s*raise .*$", r"\1pass")
_INT31_RANGE = (r"^(\s*)if not \(-1073741824 <= \w+ <= 1073741823\):\n\s*raise .*$", r"\1pass")
_LENGTH = (r"^(\s*)if \w+ - pos < \d+:(?: raise _short\(.*|\n\s*raise _short\(.*)$", r"\1pass")

ENCODE_STEPS: tuple[Step, ...] = (
    ("as generated", ()),
    ("without int guards", (_INT_GUARD,)),
    ("and bytes guards", (_INT_GUARD, _BYTES_GUARD)),
    ("and shape checks", (_INT_GUARD, _BYTES_GUARD, _DICT_TEST, _MEMBER_COUNT)),
)
DECODE_STEPS: tuple[Step, ...] = (
    ("as generated", ()),
    ("without int31 ranges", (_INT31_RANGE,)),
    ("and length checks", (_INT31_RANGE, _LENGTH)),
)


def variant_source(fn: Callable[..., Any], substitutions: tuple[tuple[str, str], ...]) -> str:
    """The source of ``fn`` (a generated entry point) with ``substitutions`` applied."""
    source: str = fn.__source__  # type: ignore[attr-defined]
    for pattern, replacement in substitutions:
        source = re.sub(pattern, replacement, source, flags=re.MULTILINE)
    return source


def variant(fn: Callable[..., Any], source: str) -> Any:
    """``source`` (a variant of ``fn``'s) compiled in ``fn``'s environment."""
    name = f"{fn.__name__}_variant"
    namespace = fn.__globals__
    exec(source.replace(f"def {fn.__name__}(", f"def {name}(", 1), namespace)
    return namespace.pop(name)


def _rows(w: Workload, op: str, steps: tuple[Step, ...], repeats: int, budget: float) -> list[Row]:
    """A row per step that removes something from ``w``'s entry point ``op``."""
    e, value = w.encoding, w.value
    data = e.encode(value)
    if op == "encode":
        entry, hand, argument, result = e.encode, CODECS[w.name][0], value, data
    else:
        entry, hand, argument, result = e.decode, CODECS[w.name][1], data, value
    calls: dict[str, Callable[[], object]] = {}
    previous = None
    for label, substitutions in steps:
        source = variant_source(entry, substitutions)
        if source == previous:
            continue  # nothing of this kind in this workload
        previous = source
        fn = variant(entry, source)
        if fn(argument) != result:
            raise AssertionError(f"{w.name}: the {op} variant {label!r} gives another result")
        calls[label] = partial(fn, argument)
    baseline = partial(hand, argument)
    number = calls_per_repeat([baseline, *calls.values()], budget)
    rows: list[Row] = []
    for label, call in calls.items():
        task = f"{w.name}: {op}, {label}"
        rows += compare(task, call, {"hand-written": baseline}, repeats, number)
    return rows


def floors(repeats: int, budget: float) -> list[Row]:
    """The rows of every step for the ``block_header`` and ``records`` workloads."""
    rows: list[Row] = []
    for w in workloads():
        if w.name in ("block_header", "records"):
            rows += _rows(w, "encode", ENCODE_STEPS, repeats, budget)
            rows += _rows(w, "decode", DECODE_STEPS, repeats, budget)
    return rows


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    rows = floors(*((3, 0.002) if args.quick else (31, 0.02)))
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
