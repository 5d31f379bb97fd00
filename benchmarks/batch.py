"""The batch row: parsing many operations, in one process and over every core.

An indexer reads every operation of the chain's history. The input is
:func:`~protocol_workloads.batch_operations`: 100 000 signed Delphi
operations (``proto.psdelph1.operation``) of mixed kinds, the real groups of
the 007 vectors and the catalogue in turn, each a ``bytes`` object of its
own. Four runs read them all:

* **one process, values kept**: ``[decode(b) for b in operations]``, the
  list of values kept to the end; its time, and the peak of
  :mod:`tracemalloc`'s traced memory during one run (in a run of its own:
  tracing slows it down), the input not counted;
* the same, **collector off** (``gc.disable``): with it on, CPython's
  collections walk the values already kept, again and again as the list
  grows (the records' scaling rows show the same);
* **one process, in chunks**: the operations cut in chunks (1 000 each);
  each chunk decoded (:func:`kinds_of`), its values dropped once the kinds
  of their contents are counted;
* **a process pool**: the same chunks through a
  :class:`~concurrent.futures.ProcessPoolExecutor` of as many workers as
  the machine has cores (:func:`os.cpu_count`), each chunk's bytes sent to a
  worker, decoded there by :func:`kinds_of`, its counts sent back. The
  workers start and compile the decoder before the timed runs (the check's
  run over every chunk). The **scaling factor** is the time in chunks in
  one process divided by the pool's.

Then the library's own way, :func:`data_encoding.parallel.decode_many`
(issue 32), on two workloads: the operations, and as many shell block
headers (:func:`~protocol_workloads.batch_headers`, ``shell.block_header``),
each with one worker (``jobs=1``: in this process) and with a worker per
core, in the same chunks; the values are dropped as they come, and each
call starts its pool, in the time. The same again to JSON text
(:func:`~data_encoding.parallel.map_many` of ``bytes_to_json``: what
``data-encoding decode --lines --jobs N`` has its workers do). Each such
**scaling factor** is its time on one core over its time on every core.

Each way is checked first: the four above to count the contents of every
kind that the input holds, ``decode_many`` and ``map_many`` to give what
``decode`` and ``bytes_to_json`` give one by one. Times are
:func:`scaling.best_time`'s: the best of up to 20 runs, stopping once they
add up to a second (so one run of 100 000 operations; ``--quick``: one),
the garbage collector on (as a program runs) but where said.

    python benchmarks/batch.py            # 100 000 operations
    python benchmarks/batch.py --quick    # 2 000, chunks of 100, one run each
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import zip_longest
from pathlib import Path
from typing import Any, NamedTuple

from data_encoding import Encoding
from data_encoding.node.catalogue.chains import BLOCK_HEADER
from data_encoding.node.protocols import delphi
from data_encoding.parallel import decode_many, map_many

sys.path.insert(0, str(Path(__file__).resolve().parent))

from protocol_workloads import batch_headers, batch_operations
from scaling import MAX_RUNS, MB, best_time, peak_memory, warm_line_tables

__all__ = [
    "FULL",
    "QUICK",
    "Batch",
    "Many",
    "Run",
    "Size",
    "batch",
    "batch_table",
    "json_text",
    "kinds_of",
    "many",
]


class Size(NamedTuple):
    """How many operations, how many in a chunk, and the runs of each
    measurement (at most: :func:`scaling.best_time`)."""

    operations: int
    chunk: int
    runs: int


FULL = Size(100_000, 1_000, MAX_RUNS)
"""The full run: ``batch(*FULL)``."""
QUICK = Size(2_000, 100, 1)
"""A smoke run of a few seconds, one run each: ``batch(*QUICK)``."""


def kinds_of(chunk: Sequence[bytes]) -> Counter[str]:
    """Decode every operation of ``chunk``; how many contents of each kind they hold.

    What the pool's workers run: a module-level function, so that it is
    sent to them by name."""
    decode = delphi.OPERATION.decode
    kinds: Counter[str] = Counter()
    for data in chunk:
        kinds.update([content["kind"] for content in decode(data)["contents"]])
    return kinds


def _compile_decoder(sample: bytes) -> None:
    """A worker's start: compile the decoder (on its first use) before any chunk comes."""
    delphi.OPERATION.decode(sample)


@dataclass(frozen=True)
class Run:
    """One way of reading the batch."""

    label: str
    seconds: float  # best run
    peak: int | None = None  # bytes, tracemalloc; None: not measured


def json_text(e: Encoding[Any], data: bytes) -> str:
    """``e.bytes_to_json(data)``: what ``map_many`` sends the workers (by name)."""
    return e.bytes_to_json(data)


@dataclass(frozen=True)
class Many:
    """``decode_many`` (or ``map_many`` to JSON text) over one workload, on
    one core and on every core."""

    workload: str
    out: str  # "values" or "JSON text"
    records: int
    input_bytes: int
    workers: int
    one: float  # best s, jobs=1
    every: float  # best s, jobs=workers

    @property
    def scaling(self) -> float:
        """One core / every core."""
        return self.one / self.every


_ENDED = object()
"""What :func:`_same` compares once one side has ended."""


def _same(label: str, got: Iterator[Any], expected: Iterator[Any]) -> None:
    """``got`` is ``expected``, item for item, neither kept."""
    for i, (a, b) in enumerate(zip_longest(got, expected, fillvalue=_ENDED)):
        if a != b:
            raise AssertionError(f"{label}: item {i} is {a!r}, not {b!r}")


def many(
    workload: str, e: Encoding[Any], data: list[bytes], chunk: int, workers: int, runs: int
) -> list[Many]:
    """``decode_many`` and ``map_many`` of ``json_text`` over ``data``, with
    one job and ``workers``, in chunks of ``chunk``, timed as the best of up
    to ``runs``; checked first."""
    to_text = partial(json_text, e)
    ways: list[tuple[str, Callable[[int], Iterator[Any]], Callable[[bytes], Any]]] = [
        ("values", lambda jobs: decode_many(e, data, jobs=jobs, chunk_size=chunk), e.decode),
        ("JSON text", lambda jobs: map_many(to_text, data, jobs=jobs, chunk_size=chunk), to_text),
    ]
    rows = []
    for out, run, one_by_one in ways:
        times = []
        for jobs in (1, workers):
            _same(f"{workload}, {out}, jobs={jobs}", run(jobs), map(one_by_one, data))
            times.append(best_time(partial(_drain, run, jobs), True, runs))
        rows.append(Many(workload, out, len(data), sum(map(len, data)), workers, *times))
    return rows


def _drain(run: Callable[[int], Iterator[Any]], jobs: int) -> None:
    """Every result of ``run(jobs)``, each dropped as it comes."""
    deque(run(jobs), maxlen=0)


@dataclass(frozen=True)
class Batch:
    """The batch's runs, and what they read."""

    operations: int
    input_bytes: int
    kinds: Counter[str]  # contents of each kind
    workers: int
    kept: Run
    kept_no_gc: Run
    chunked: Run
    pooled: Run
    many: tuple[Many, ...]  # decode_many: the shell block headers, then the operations

    @property
    def runs(self) -> tuple[Run, ...]:
        return self.kept, self.kept_no_gc, self.chunked, self.pooled

    @property
    def scaling(self) -> float:
        """One process in chunks / the pool."""
        return self.chunked.seconds / self.pooled.seconds


def _checked(label: str, got: Counter[str], expected: Counter[str]) -> None:
    if got != expected:
        raise AssertionError(f"{label}: read {dict(got)}, the input holds {dict(expected)}")


def batch(count: int, chunk: int, runs: int) -> Batch:
    """Read ``count`` operations in the four ways, in chunks of ``chunk``;
    then :func:`many` of as many shell block headers, and of the operations;
    each timed as the best of up to ``runs``."""
    operations, expected = batch_operations(count)
    decode = delphi.OPERATION.decode

    def decode_all() -> list[Any]:
        return [decode(data) for data in operations]

    chunks = [operations[i : i + chunk] for i in range(0, count, chunk)]

    def in_chunks() -> Counter[str]:
        total: Counter[str] = Counter()
        for part in chunks:
            total += kinds_of(part)
        return total

    values = decode_all()
    _checked("one process", Counter(c["kind"] for v in values for c in v["contents"]), expected)
    del values
    _checked("one process, in chunks", in_chunks(), expected)
    warm_line_tables(lambda: [decode(data) for data in operations[:100]])
    kept = "one process, values kept"
    workers = os.cpu_count() or 1
    pool_label = f"ProcessPoolExecutor, {workers} workers, the same chunks"
    with ProcessPoolExecutor(
        workers, initializer=_compile_decoder, initargs=(operations[0],)
    ) as pool:

        def pooled() -> Counter[str]:
            total: Counter[str] = Counter()
            for counts in pool.map(kinds_of, chunks):
                total += counts
            return total

        _checked("the pool", pooled(), expected)  # and the workers are started
        ways = (
            Run(kept, best_time(decode_all, True, runs), peak_memory(decode_all)),
            Run(f"{kept}, collector off", best_time(decode_all, False, runs)),
            Run(f"one process, chunks of {chunk:,}", best_time(in_chunks, True, runs)),
            Run(pool_label, best_time(pooled, True, runs)),
        )
    headers = batch_headers(count)
    decoded = [
        *many("shell block headers", BLOCK_HEADER, headers, chunk, workers, runs),
        *many("operations", delphi.OPERATION, operations, chunk, workers, runs),
    ]
    return Batch(count, sum(map(len, operations)), expected, workers, *ways, tuple(decoded))


def batch_table(b: Batch) -> str:
    """The batch's table, in markdown, and what it read."""
    lines = [
        "| run | operations | best s | operations / s | peak MB | peak / operation |",
        "|---|---|---|---|---|---|",
    ]
    for run in b.runs:
        peak = (
            "— | —"
            if run.peak is None
            else f"{run.peak / MB:.1f} | {run.peak / b.operations:,.0f} B"
        )
        lines.append(
            f"| {run.label} | {b.operations:,} | {run.seconds:.3f} "
            f"| {b.operations / run.seconds:,.0f} | {peak} |"
        )
    kinds = ", ".join(f"{kind} {n:,}" for kind, n in sorted(b.kinds.items()))
    lines += [
        "",
        f"Scaling factor (one process in chunks / the pool): {b.scaling:.2f}, with {b.workers}"
        f" workers, one per core (os.cpu_count() = {b.workers}).",
        "",
        f"Input: {b.operations:,} operations, {b.input_bytes / MB:.1f} MB; contents: {kinds}.",
        "",
        "decode_many (values) and map_many of bytes_to_json (JSON text), one worker "
        "(jobs=1: in this process) and one per core:",
        "",
        "| workload | out | jobs | records | best s | records / s | MB / s | scaling |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for m in b.many:
        for jobs, seconds in ((1, m.one), (m.workers, m.every)):
            scaling = f"{m.scaling:.2f}" if jobs != 1 else "—"
            lines.append(
                f"| {m.workload} ({m.input_bytes / MB:.1f} MB) | {m.out} | {jobs} "
                f"| {m.records:,} | {seconds:.3f} | {m.records / seconds:,.0f} "
                f"| {m.input_bytes / MB / seconds:.1f} | {scaling} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> Batch:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="QUICK: 2 000 operations, chunks of 100, one run"
    )
    args = parser.parse_args(argv)
    b = batch(*(QUICK if args.quick else FULL))
    print(batch_table(b))
    return b


if __name__ == "__main__":
    main()
