"""Run the benchmarks: ratios of our codecs against hand-written code and peers.

Every row first checks that all implementations give identical bytes and
values, then times them **interleaved** (each repeat runs every implementation
once, in turn, so machine noise hits them alike) and reports the ratio
``ours / other`` per repeat: its minimum, median and maximum. A ratio below 1
means we are faster.

    python benchmarks/run.py            # the full suite (make bench)
    python benchmarks/run.py --quick    # a smoke run, well under a minute

Peers (``construct``, ``pytezos``) are optional (``pip install -e .[bench]``);
a row whose peer is missing says so.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import CODECS
from timing import Row, compare
from workloads import Workload, workloads


def check(w: Workload, encode: Callable[[Any], bytes], decode: Callable[[bytes], Any]) -> bytes:
    """The bytes of ``w`` after checking that ``encode``/``decode`` agree with ours."""
    data = w.encoding.encode(w.value)
    if encode(w.value) != data:
        raise AssertionError(f"{w.name}: hand-written bytes differ from ours")
    if decode(data) != w.value or w.encoding.decode(data) != w.value:
        raise AssertionError(f"{w.name}: decoded values differ")
    return data


def binary_rows(w: Workload, repeats: int, number: int) -> list[Row]:
    encode, decode = CODECS[w.name]
    data = check(w, encode, decode)
    value, e = w.value, w.encoding
    rows = compare(
        f"{w.name}: encode",
        lambda: e.encode(value),
        {"hand-written": lambda: encode(value)},
        repeats,
        number,
    )
    rows += compare(
        f"{w.name}: decode",
        lambda: e.decode(data),
        {"hand-written": lambda: decode(data)},
        repeats,
        number,
    )
    return rows


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| task | against | ratio ours/other: min / **median** / max | ours, median µs |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r.task} | {r.other} | {r.summary} | {r.ours_us:.1f} |" for r in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    repeats, number = (3, 5) if args.quick else (31, 50)
    rows: list[Row] = []
    for w in workloads():
        rows += binary_rows(w, repeats, number)
    print(table(rows))
    for peer in ("construct", "pytezos"):
        try:
            __import__(peer)
        except ImportError:
            print(f"\n{peer}: not installed, its rows are left out (pip install -e .[bench])")
        else:
            print(f"\n{peer}: installed, but its rows are not written yet")
    return rows


if __name__ == "__main__":
    main()
