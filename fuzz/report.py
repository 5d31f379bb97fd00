"""The campaign's report: a row per id, the totals, each finding and how to
reproduce it, and the same as JSON for a machine to read."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fuzz.libfuzzer import Run, reason, reproduce

_HEADER = ("id", "seeded", "corpus", "inputs", "exec/s", "cov", "ft", "findings", "rss MB")


@dataclass(frozen=True)
class Row:
    """One id's line: its run and what the campaign did around it."""

    run: Run
    #: files written into the corpus before the run (0: it had some)
    seeded: int
    #: files in the corpus after the run
    corpus: int


def _cell(value: int | None) -> str:
    return "-" if value is None else str(value)


def table(rows: list[Row]) -> str:
    """The per-id table, aligned (numbers to the right)."""
    lines = [_HEADER] + [
        (
            r.run.id,
            str(r.seeded),
            str(r.corpus),
            _cell(r.run.stats.executions),
            _cell(r.run.stats.exec_per_sec),
            _cell(r.run.stats.cov),
            _cell(r.run.stats.ft),
            str(len(r.run.findings)),
            _cell(r.run.stats.peak_rss_mb),
        )
        for r in rows
    ]
    widths = [max(len(line[k]) for line in lines) for k in range(len(_HEADER))]
    return "\n".join(
        "  ".join(
            cell.ljust(width) if k == 0 else cell.rjust(width)
            for k, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )


def totals(rows: list[Row]) -> dict[str, Any]:
    """The campaign's figures: ids, inputs (total, min, median, max), mean
    exec/s over the ids, findings, failed runs and the largest peak RSS."""
    inputs = [r.run.stats.executions or 0 for r in rows]
    speeds = [r.run.stats.exec_per_sec or 0 for r in rows]
    rss = [r.run.stats.peak_rss_mb or 0 for r in rows]
    return {
        "ids": len(rows),
        "inputs": sum(inputs),
        "inputs_min": min(inputs, default=0),
        "inputs_median": int(statistics.median(inputs)) if inputs else 0,
        "inputs_max": max(inputs, default=0),
        "mean_exec_per_sec": round(statistics.mean(speeds)) if speeds else 0,
        "findings": sum(len(r.run.findings) for r in rows),
        "failed_runs": sum(r.run.failed for r in rows),
        "max_peak_rss_mb": max(rss, default=0),
    }


def summary(figures: dict[str, Any]) -> str:
    """The totals, in two lines."""
    return (
        f"{figures['ids']} ids, {figures['inputs']} inputs (per id: min "
        f"{figures['inputs_min']}, median {figures['inputs_median']}, max "
        f"{figures['inputs_max']}), mean {figures['mean_exec_per_sec']} exec/s\n"
        f"{figures['findings']} findings, {figures['failed_runs']} failed runs, "
        f"peak RSS at most {figures['max_peak_rss_mb']} MB"
    )


def findings(rows: list[Row], target: Path, variable: str) -> str:
    """Each finding with why it is one and the command that reproduces it;
    each run that failed without a finding, with where its output is."""
    lines: list[str] = []
    for r in rows:
        for path in r.run.findings:
            lines.append(f"{r.run.id}: {path}")
            lines.append(f"    {reason(r.run.log, path)}")
            lines.append(f"    reproduce: {reproduce(target, r.run.id, path, variable)}")
        if r.run.failed and not r.run.findings:
            lines.append(
                f"{r.run.id}: the run failed (exit status {r.run.returncode}); see {r.run.log}"
            )
    return "\n".join(lines)


def as_json(rows: list[Row]) -> dict[str, Any]:
    """The report as a JSON value: the totals and a member per id."""
    return {
        "totals": totals(rows),
        "ids": {
            r.run.id: {
                "seeded": r.seeded,
                "corpus": r.corpus,
                "inputs": r.run.stats.executions,
                "exec_per_sec": r.run.stats.exec_per_sec,
                "new_units": r.run.stats.new_units,
                "cov": r.run.stats.cov,
                "ft": r.run.stats.ft,
                "peak_rss_mb": r.run.stats.peak_rss_mb,
                "returncode": r.run.returncode,
                "findings": [str(path) for path in r.run.findings],
                "log": str(r.run.log),
            }
            for r in rows
        },
    }
