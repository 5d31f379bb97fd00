"""Interleaved timing and ratio rows, shared by every benchmark module."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Call = Callable[[], object]


@dataclass(frozen=True)
class Row:
    task: str
    other: str
    ratios: tuple[float, ...]  # ours / other, one per repeat
    ours_us: float  # median time of one call of ours, in microseconds

    @property
    def summary(self) -> str:
        lo, mid, hi = min(self.ratios), statistics.median(self.ratios), max(self.ratios)
        return f"{lo:.2f} / **{mid:.2f}** / {hi:.2f}"


def timed(calls: Sequence[Call], repeats: int, number: int) -> list[list[float]]:
    """Seconds per call of each of ``calls``, per repeat, interleaved."""
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(repeats):
        for i, call in enumerate(calls):
            start = time.perf_counter()
            for _ in range(number):
                call()
            times[i].append((time.perf_counter() - start) / number)
    return times


def compare(task: str, ours: Call, others: dict[str, Call], repeats: int, number: int) -> list[Row]:
    names = list(others)
    times = timed([ours, *others.values()], repeats, number)
    ours_times = times[0]
    median_us = statistics.median(ours_times) * 1e6
    return [
        Row(
            task,
            name,
            tuple(a / b for a, b in zip(ours_times, times[i + 1], strict=True)),
            median_us,
        )
        for i, name in enumerate(names)
    ]


def table(rows: Sequence[Row]) -> str:
    lines = [
        "| task | against | ratio ours/other: min / **median** / max | ours, median µs |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r.task} | {r.other} | {r.summary} | {r.ours_us:.1f} |" for r in rows]
    return "\n".join(lines)
