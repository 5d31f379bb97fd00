"""The chain-history row: a history decoded into Parquet on Dask, one worker
against a worker per core (``examples/chain_history``; needs ``[dask]``).

The input is a generated history (:func:`chain_history.history.generate`:
Delphi block headers and their operations, a few hundred bytes each), in
partitions of framed records. Three ways decode it all into Parquet
(:func:`chain_history.pipeline.decode_history`, a task per partition):

* **one process, no Dask**: :func:`~chain_history.pipeline.decode_partition`
  over the partitions in a loop, in this process: what the library costs,
  without a scheduler;
* **a local cluster of one worker**, then **of a worker per core**
  (:func:`os.cpu_count`): ``LocalCluster(processes=True,
  threads_per_worker=1)``. The cluster is made, then the history is decoded
  once untimed (each worker compiles its decoders on first use), then
  :data:`REPEATS` times, timed: the best run counts. The **scaling factor**
  is the one worker's best time over the many workers'.

A run's time is the client's, from the graph's submission to the last
task's result: reading the partitions, decoding, the Arrow pass, writing
Parquet, and the scheduler's work. **Peak memory per worker** is the
worker process's resident set size at its highest during the timed runs:
after the untimed run (the library, pyarrow and the decoders loaded), each
worker's resident set size is read and its kernel high-water mark reset
(``VmRSS``, then 5 written to ``/proc/self/clear_refs``, by ``client.run``:
Linux), and after the timed runs the mark (``VmHWM``) is read; the rise
is what decoding a partition holds at once (its input file, a batch of
rows, its Parquet writer). ``getrusage``'s ``ru_maxrss`` cannot be reset:
it would count the worker's start, whose imports peak above its rest.

    python benchmarks/dask_history.py            # 20 000 blocks, 16 partitions a kind
    python benchmarks/dask_history.py --quick    # 200 blocks, 2 partitions, 1 repeat
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

from chain_history.cluster import connect
from chain_history.history import PROTOCOL, generate
from chain_history.pipeline import (
    KINDS,
    OPTIONS,
    Kind,
    decode_history,
    decode_partition,
    partitions,
)
from chain_history.records import read_records
from distributed import Client
from scaling import ProcStatus

from data_encoding import arrow
from data_encoding.node import registry

__all__ = [
    "FULL",
    "QUICK",
    "Measured",
    "Run",
    "Size",
    "Stages",
    "dask_history",
    "history_table",
    "stages",
]

MB = 1 << 20
SEED = 20201112


class Size(NamedTuple):
    """The history's blocks and partitions (of each kind), and the timed runs."""

    blocks: int
    partitions: int
    repeats: int


FULL = Size(20_000, 16, 3)
"""The full run: ``dask_history(*FULL)``."""
QUICK = Size(200, 2, 1)
"""A smoke run: ``dask_history(*QUICK)``."""


@dataclass(frozen=True)
class Run:
    """One way of decoding the history: its best time, and for a cluster
    each worker's resident set size at rest and at its highest (bytes)."""

    label: str
    workers: int
    seconds: float
    rest: tuple[int, ...] = ()
    peaks: tuple[int, ...] = ()


def _at_rest() -> int:
    """This process's resident set size now, in bytes; and its high-water
    mark reset to it (Linux: 5 written to ``/proc/self/clear_refs``)."""
    with open("/proc/self/clear_refs", "w") as clear_refs:
        clear_refs.write("5")
    return _status(b"VmRSS")


def _peak() -> int:
    """This process's resident set size at its highest since :func:`_at_rest`, in bytes."""
    return _status(b"VmHWM")


def _status(field: bytes) -> int:
    status = ProcStatus()
    try:
        return status.read(field)
    finally:
        status.close()


def _on_workers(client: Client, reading: Callable[[], int]) -> tuple[int, ...]:
    """``reading()`` on each worker, in the order of their addresses."""
    found: dict[str, int] = client.run(reading)
    return tuple(found[address] for address in sorted(found))


def _one_process(history: Path, target: Path) -> int:
    """Decode the history into ``target`` in this process, a partition after
    the other, as the pipeline's tasks do; the rows written."""
    rows = 0
    for kind in KINDS:
        (target / kind.folder).mkdir(parents=True)
        for part in partitions(history / kind.folder):
            done = decode_partition(
                kind.encoding_id(PROTOCOL), part, target / kind.folder / f"{part.stem}.parquet"
            )
            rows += done.rows
    return rows


@dataclass(frozen=True)
class Stages:
    """Where a record's time goes, for one kind, in seconds for all its
    records: decoding, making the Arrow pass's cells, the table of them,
    writing it to Parquet (in memory)."""

    kind: str
    records: int
    decode: float
    cells: float
    table: float
    parquet: float


def stages(history: Path, repeats: int) -> list[Stages]:
    """Each kind's :class:`Stages`, in this process, each stage the best of
    ``repeats`` runs over every record of the kind (after one untimed run)."""
    return [_stages_of(kind, history, repeats) for kind in KINDS]


def _stages_of(kind: Kind, history: Path, repeats: int) -> Stages:
    e = registry.find(kind.encoding_id(PROTOCOL)).encoding
    records = [r for part in partitions(history / kind.folder) for r in read_records(part)]
    values = [e.decode(r) for r in records]
    cells = [arrow.cell_of(e, v, OPTIONS) for v in values]
    table = arrow.table_of_cells(e, cells, OPTIONS)
    pq.write_table(table, pa.BufferOutputStream())
    return Stages(
        kind.folder,
        len(records),
        _best(lambda: [e.decode(r) for r in records], repeats),
        _best(lambda: [arrow.cell_of(e, v, OPTIONS) for v in values], repeats),
        _best(lambda: arrow.table_of_cells(e, cells, OPTIONS), repeats),
        _best(lambda: pq.write_table(table, pa.BufferOutputStream()), repeats),
    )


def _best(call: Callable[[], object], repeats: int) -> float:
    """The best time of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


@dataclass(frozen=True)
class Measured:
    """The history's records and input bytes, its stages and its runs."""

    records: int
    size: int
    stages: list[Stages]
    runs: list[Run]


def dask_history(blocks: int, partitions_: int, repeats: int) -> Measured:
    """Generate the history; its stages, then its runs: one process, then a
    cluster of one worker and one of a worker per core."""
    with tempfile.TemporaryDirectory() as work:
        root = Path(work)
        made = generate(root / "history", blocks, partitions_, SEED)
        history = root / "history"
        size = sum(p.stat().st_size for p in history.rglob("*.bin"))
        split = stages(history, repeats)
        outputs = iter(range(1_000_000))

        def decode_once(on_cluster: bool) -> None:
            """Decode the history into a folder of its own; check its rows."""
            target = root / f"out-{next(outputs)}"
            if on_cluster:
                written = decode_history(history, target, PROTOCOL)
                rows = sum(w.rows for w in written if w.path.is_relative_to(target))
            else:
                rows = _one_process(history, target)
            if rows != made.records:
                raise AssertionError(f"{target}: {rows} rows for {made.records} records")

        decode_once(False)  # this process compiles its decoders
        runs = [Run("one process, no Dask", 1, _best(lambda: decode_once(False), repeats))]
        for workers in sorted({1, os.cpu_count() or 1}):
            with connect(workers=workers) as client:
                decode_once(True)  # each worker imports the library and compiles its decoders
                rest = _on_workers(client, _at_rest)
                best = _best(lambda: decode_once(True), repeats)
                label = f"LocalCluster, {workers} worker{'s' if workers > 1 else ''}"
                runs.append(Run(label, workers, best, rest, _on_workers(client, _peak)))
        return Measured(made.records, size, split, runs)


def history_table(measured: Measured) -> str:
    """The runs' table, in markdown, the scaling factor, and the stages' table."""
    records, size, runs = measured.records, measured.size, measured.runs
    lines = [
        "| run | records | best s | records / s | MB / s | RSS per worker, MB (at rest → peak) |",
        "|---|---|---|---|---|---|",
    ]
    for run in runs:
        peaks = (
            ", ".join(
                f"{a / MB:.0f} → {b / MB:.0f}" for a, b in zip(run.rest, run.peaks, strict=True)
            )
            or "—"
        )
        lines.append(
            f"| {run.label} | {records:,} | {run.seconds:.2f} | {records / run.seconds:,.0f}"
            f" | {size / MB / run.seconds:.2f} | {peaks} |"
        )
    one, many = runs[1], runs[-1]
    lines += [
        "",
        f"Scaling factor (1 worker / {many.workers} workers): {one.seconds / many.seconds:.2f}"
        f" (os.cpu_count() = {os.cpu_count()}). Input: {records:,} records,"
        f" {size / MB:.1f} MB.",
        "",
        "Where a record's time goes, in one process (µs a record, best of the runs):",
        "",
        "| records | decode | Arrow cells | table | Parquet | all |",
        "|---|---|---|---|---|---|",
    ]
    for st in measured.stages:
        parts = (st.decode, st.cells, st.table, st.parquet)
        shown = " | ".join(f"{t / st.records * 1e6:.1f}" for t in (*parts, sum(parts)))
        lines.append(f"| {st.records:,} {st.kind} | {shown} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="QUICK: a smoke run")
    args = parser.parse_args(argv)
    text = history_table(dask_history(*(QUICK if args.quick else FULL)))
    print(text)
    return text


if __name__ == "__main__":
    main()
