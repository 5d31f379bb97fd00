"""The scaling row: time and peak memory as the data grows, ours and hand-written.

Series, each encoded and decoded at growing sizes, to show that both the
time and the memory per element stay flat (linear growth):

* ``records``: the ``records`` workload of :mod:`workloads` (a ``list_`` of
  small records ``{uid: uint16, state: process state, parent: option int31}``),
  built by ``workloads(n)`` for ``n`` records;
* ``records (hand-written)``: the same values through the hand-written codec
  of :mod:`handwritten` (which must give the same bytes): what the platform
  costs any Python codec at these sizes;
* ``bytes_``: one :data:`data_encoding.bytes_` value of random bytes;
* ``n``: one natural number whose encoding takes that many bytes (a long
  number is hostile input: its cost once grew with the square of its size);
* ``list_(z)``: a ``list_(z)`` of 64 numbers, half of them negative, that
  together take that many bytes.

For each size, and after checking once that ``decode(encode(v)) == v``:

* **time**: :func:`time.perf_counter` around one call, best of up to 20 runs,
  stopping once the runs add up to more than a second (so a size whose single
  run takes over a second, such as 10^6 records, is run once). It is measured
  twice: with the cyclic garbage collector on, as a program runs, and with it
  off (``gc.disable``), the codec's own cost. A ``gc.collect()`` precedes
  every run. CPython's collector walks the live containers now and then, and
  decoding creates many (two dicts per record), so with the collector on the
  decoding time per record grows with the number of live objects. Even with
  the collector off, the time per record grows once the data outgrow the CPU
  caches; the hand-written series shows how much of that any codec pays;
* **peak memory**: the peak of :mod:`tracemalloc`'s traced allocations during
  one call, in a separate run (tracing slows the call). The input, allocated
  before tracing starts, is not counted; the result (the bytes, or the decoded
  value), alive when the call returns, is. A small sample runs first under a
  no-op profiler, or tracing would be far slower: see :func:`warm_line_tables`.

Per size the table gives the time in ms, the time per element (µs per
record, or ms per MB of input), the peak in MB and per element (bytes per record, or
per input byte). The linearity table divides the time (and the peak) per element at the
largest size by that at the smallest: about 1 means linear.

    python benchmarks/scaling.py            # FULL_SIZES: up to 10^6 records, 50 MB, 1 MB numbers
    python benchmarks/scaling.py --quick    # QUICK_SIZES: a few seconds
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, NamedTuple

import data_encoding as de

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import records_decode, records_encode
from workloads import workloads

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]

HAND_WRITTEN = "records (hand-written)"
"""The series of :mod:`handwritten`'s records codec: what any Python codec pays."""

__all__ = [
    "FULL_SIZES",
    "HAND_WRITTEN",
    "MB",
    "QUICK_SIZES",
    "Point",
    "Sizes",
    "measure",
    "scaling",
    "scaling_table",
    "warm_line_tables",
]

MB = 1_000_000
"""A megabyte, in bytes."""


class Sizes(NamedTuple):
    """Numbers of records; sizes in bytes of the ``bytes_`` values and of the
    encoded Zarith numbers."""

    records: tuple[int, ...]
    bytes_: tuple[int, ...]
    numbers: tuple[int, ...]


QUICK_SIZES = Sizes((10**3, 10**4), (MB // 2, MB), (MB // 64, MB // 16))
"""A smoke run of a few seconds: ``scaling_table(*QUICK_SIZES)``."""
FULL_SIZES = Sizes((10**4, 10**5, 10**6), (MB // 2, 5 * MB, 50 * MB), (MB // 16, MB // 4, MB))
"""The full series: ``scaling_table(*FULL_SIZES)``."""

BYTE_SERIES = frozenset({"bytes_", "n", "list_(z)"})
"""The series measured per MB of input (the others per record)."""

TIME_BUDGET = 1.0
"""Stop repeating a measurement once its runs add up to this many seconds."""
MAX_RUNS = 20


@dataclass(frozen=True)
class Point:
    """One operation of one series at one size."""

    series: str
    op: str  # "encode" or "decode"
    size: int  # records, or bytes
    seconds: float  # best run, garbage collector on
    seconds_no_gc: float  # best run, garbage collector off
    peak: int  # peak traced bytes during one call

    @property
    def per_record(self) -> bool:
        return self.series not in BYTE_SERIES

    @property
    def units(self) -> float:
        """The size in the unit the time is given per: records, or MB."""
        return self.size if self.per_record else self.size / MB

    @property
    def time_per_unit(self) -> float:
        """µs per record, or ms per MB (garbage collector on)."""
        return self.seconds / self.units * (1e6 if self.per_record else 1e3)

    @property
    def time_per_unit_no_gc(self) -> float:
        """As :attr:`time_per_unit`, garbage collector off."""
        return self.seconds_no_gc / self.units * (1e6 if self.per_record else 1e3)

    @property
    def peak_per_element(self) -> float:
        """Peak bytes per record, or per input byte."""
        return self.peak / self.size


def best_time(call: Callable[[], object], gc_on: bool) -> float:
    """The best of up to :data:`MAX_RUNS` timed calls (fewer past :data:`TIME_BUDGET`),
    with the garbage collector on or off as ``gc_on`` says (restored after)."""
    was_on = gc.isenabled()
    best = float("inf")
    total = 0.0
    try:
        for _ in range(MAX_RUNS):
            gc.collect()
            if gc_on:
                gc.enable()
            else:
                gc.disable()
            start = time.perf_counter()
            call()
            elapsed = time.perf_counter() - start
            best = min(best, elapsed)
            total += elapsed
            if total > TIME_BUDGET:
                break
    finally:
        if was_on:
            gc.enable()
        else:
            gc.disable()
    return best


def peak_memory(call: Callable[[], object]) -> int:
    """The peak of traced allocations during ``call()``, above what was traced before."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = call()
        peak = tracemalloc.get_traced_memory()[1]
        del result
    finally:
        tracemalloc.stop()
    return peak - base


def _ignore(frame: FrameType, event: str, arg: Any) -> None:
    pass


def warm_line_tables(*calls: Callable[[], object]) -> None:
    """Run ``calls`` once under a no-op profiler, so that :mod:`tracemalloc` is fast.

    :mod:`tracemalloc` records the line of every allocation. On CPython 3.11 a
    code object finds the line of an instruction by scanning its line table
    from the start unless it has built its line array, which it does only when
    a trace or profile function sees it run. Our generated readers and writers
    are single large functions (the records' reader: 9 KB of bytecode), so
    without this, tracing them is 20 to 150 times slower than the call itself
    (3 minutes for decoding 10^6 records), against about 7 times with it.
    """
    previous = sys.getprofile()
    sys.setprofile(_ignore)
    try:
        for call in calls:
            call()
    finally:
        sys.setprofile(previous)


def measure(series: str, codec: Codec, value: Any, size: int, sample: Any) -> list[Point]:
    """The encode and decode points of ``value`` (``size`` records or bytes).

    ``codec`` is ``(encode, decode)``; ``sample`` is a small value for
    :func:`warm_line_tables`: it should go through the same code (here, every
    union case).
    """
    encode_value, decode_data = codec
    data = encode_value(value)
    if decode_data(data) != value:
        raise AssertionError(f"{series} at {size}: decode(encode(v)) != v")
    warm_line_tables(lambda: decode_data(encode_value(sample)))

    def encode() -> bytes:
        return encode_value(value)

    def decode() -> Any:
        return decode_data(data)

    return [
        Point(series, op, size, best_time(call, True), best_time(call, False), peak_memory(call))
        for op, call in (("encode", encode), ("decode", decode))
    ]


def records_value(n: int) -> tuple[de.Encoding[Any], Any]:
    """The ``records`` workload with ``n`` records: its encoding and value."""
    (w,) = (w for w in workloads(n) if w.name == "records")
    return w.encoding, w.value


def long_number(rng: random.Random, size: int) -> int:
    """A natural number whose ``n`` encoding takes exactly ``size`` bytes."""
    return rng.getrandbits(7 * size - 1) | 1 << (7 * size - 1)


def scaling(
    sizes: Sequence[int], bytes_sizes: Sequence[int], number_sizes: Sequence[int]
) -> list[Point]:
    """The points of every series, records first, each in increasing size;
    the hand-written records codec after ours, on the same values."""
    points: list[Point] = []
    for n in sorted(sizes):
        encoding, value = records_value(n)
        ours = (encoding.encode, encoding.decode)
        if records_encode(value) != encoding.encode(value):
            raise AssertionError(f"records at {n}: the hand-written bytes differ from ours")
        points += measure("records", ours, value, n, value[:100])
        points += measure(HAND_WRITTEN, (records_encode, records_decode), value, n, value[:100])
        del value
    rng = random.Random(20261121)
    for n in sorted(bytes_sizes):
        points += measure(
            "bytes_", (de.bytes_.encode, de.bytes_.decode), rng.randbytes(n), n, b"sample"
        )
    numbers = de.list_(de.z)
    for n in sorted(number_sizes):
        points += measure("n", (de.n.encode, de.n.decode), long_number(rng, n), n, 300)
    for n in sorted(number_sizes):
        value = [(-1) ** i * long_number(rng, n // 64) for i in range(64)]
        points += measure("list_(z)", (numbers.encode, numbers.decode), value, n, [300, -300])
    return points


def _size(p: Point) -> str:
    return f"{p.size:,}" if p.per_record else f"{p.size / MB:g} MB"


def _unit(p: Point) -> tuple[str, str]:
    """The time unit and the peak unit of ``p``'s series."""
    return ("µs / record", "B / record") if p.per_record else ("ms / MB", "B / input byte")


def points_table(points: Sequence[Point]) -> str:
    """The per-size table and the linearity table, in markdown."""
    lines = [
        "| series | op | size | ms | time / element | GC off: ms | GC off: "
        "time / element | peak MB | peak / element |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in points:
        tu, mu = _unit(p)
        lines.append(
            f"| {p.series} | {p.op} | {_size(p)} "
            f"| {p.seconds * 1e3:.3f} | {p.time_per_unit:.3f} {tu} "
            f"| {p.seconds_no_gc * 1e3:.3f} | {p.time_per_unit_no_gc:.3f} {tu} "
            f"| {p.peak / MB:.2f} | {p.peak_per_element:.2f} {mu} |"
        )
    lines += [
        "",
        "Linearity: per element at the largest size / at the smallest (1 = linear).",
        "",
        "| series | op | sizes | time | GC off: time | peak memory |",
        "|---|---|---|---|---|---|",
    ]
    groups: dict[tuple[str, str], list[Point]] = {}
    for p in points:
        groups.setdefault((p.series, p.op), []).append(p)
    for (series, op), group in groups.items():
        lo = min(group, key=lambda p: p.size)
        hi = max(group, key=lambda p: p.size)
        lines.append(
            f"| {series} | {op} | {_size(lo)} → {_size(hi)} "
            f"| {hi.time_per_unit / lo.time_per_unit:.2f} "
            f"| {hi.time_per_unit_no_gc / lo.time_per_unit_no_gc:.2f} "
            f"| {hi.peak_per_element / lo.peak_per_element:.2f} |"
        )
    return "\n".join(lines)


def scaling_table(
    sizes: Sequence[int], bytes_sizes: Sequence[int], number_sizes: Sequence[int]
) -> str:
    """Measure every series at these sizes; the markdown tables."""
    return points_table(scaling(sizes, bytes_sizes, number_sizes))


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="QUICK_SIZES: a few seconds")
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    start = time.perf_counter()
    text = scaling_table(*sizes)
    print(text)
    print(f"\n({time.perf_counter() - start:.1f} s in all, building the data included)")
    return text


if __name__ == "__main__":
    main()
