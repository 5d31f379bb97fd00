"""The chain-history benchmark runs (``--quick``): every run writes every
record, and the table reports each run, each worker's memory and the
scaling factor. No time is asserted (``benchmarks/README.md`` has them)."""

from __future__ import annotations

import os
import re

import dask_history


def test_quick_run_decodes_every_record_in_each_way() -> None:
    measured = dask_history.dask_history(*dask_history.QUICK)
    runs = measured.runs
    assert measured.records == 763  # 200 blocks of the generated history, and their operations
    assert measured.size > 0
    assert [(st.kind, st.records) for st in measured.stages] == [
        ("headers", 200),
        ("operations", 563),
    ]
    assert all(t > 0 for st in measured.stages for t in (st.decode, st.cells, st.table, st.parquet))
    workers = os.cpu_count() or 1
    counts = sorted({1, workers})
    assert [(run.label, run.workers) for run in runs] == [
        ("one process, no Dask", 1),
        *((f"LocalCluster, {n} worker{'s' if n > 1 else ''}", n) for n in counts),
    ]
    assert all(run.seconds > 0 for run in runs)
    assert (runs[0].rest, runs[0].peaks) == ((), ())
    for run in runs[1:]:
        assert len(run.rest) == len(run.peaks) == run.workers
        assert all(0 < rest <= peak for rest, peak in zip(run.rest, run.peaks, strict=True))
    table = dask_history.history_table(measured).splitlines()
    assert table[0].startswith("| run | records | best s | records / s | MB / s | RSS per worker")
    assert [line.split(" | ")[:2] for line in table[2 : 2 + len(runs)]] == [
        [f"| {run.label}", "763"] for run in runs
    ]
    assert table[2].endswith(" | — |")
    factor = re.fullmatch(
        rf"Scaling factor \(1 worker / {counts[-1]} workers?\): [0-9.]+ \(os\.cpu_count\(\)"
        rf" = {workers}\)\. Input: 763 records, [0-9.]+ MB\.",
        table[3 + len(runs)],
    )
    assert factor is not None
    assert [line.split(" | ")[0] for line in table[-2:]] == ["| 200 headers", "| 563 operations"]
