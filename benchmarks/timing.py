"""Interleaved timing and ratio rows, shared by every benchmark module."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Call = Callable[[], object]


@dataclass(frozen=True)
class Row:
    task: str
    other: str
    ratios: tuple[float, ...]  # subject / other, one per repeat
    median_us: float  # median time of one call of the subject, in microseconds
    #: whose time the ratios divide: our codec, or the hand-written ceiling
    subject: str = "ours"

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


def calls_per_repeat(calls: Sequence[Call], budget: float) -> int:
    """How many calls of each make a repeat: the slowest takes about ``budget`` seconds."""
    slowest = 0.0
    for call in calls:
        start = time.perf_counter()
        call()
        slowest = max(slowest, time.perf_counter() - start)
    return max(1, min(1000, int(budget / max(slowest, 1e-9))))


def ratio_rows(
    task: str, subject: str, mine: Sequence[float], others: Mapping[str, Sequence[float]]
) -> list[Row]:
    """``subject``'s times (``mine``) against each of ``others``, repeat by repeat."""
    median_us = statistics.median(mine) * 1e6
    return [
        Row(task, name, tuple(a / b for a, b in zip(mine, theirs, strict=True)), median_us, subject)
        for name, theirs in others.items()
    ]


def compare(
    task: str,
    ours: Call,
    others: dict[str, Call],
    repeats: int,
    number: int,
    baseline: str | None = None,
) -> list[Row]:
    """Rows of ours against each of ``others``, timed interleaved; with a
    ``baseline`` (one of ``others``), also rows of it against the rest, from
    the same run (how far the hand-written ceiling is from the peers)."""
    times = timed([ours, *others.values()], repeats, number)
    theirs = dict(zip(others, times[1:], strict=True))
    rows = ratio_rows(task, "ours", times[0], theirs)
    if baseline is not None:
        rest = {name: t for name, t in theirs.items() if name != baseline}
        rows += ratio_rows(task, baseline, theirs[baseline], rest)
    return rows


def table(rows: Sequence[Row]) -> str:
    """The markdown table of ``rows`` (all of one subject)."""
    subject = rows[0].subject if rows else "ours"
    lines = [
        f"| task | against | ratio {subject}/other: min / **median** / max "
        f"| {subject}, median µs |",
        "|---|---|---|---|",
    ]
    lines += [f"| {r.task} | {r.other} | {r.summary} | {r.median_us:.1f} |" for r in rows]
    return "\n".join(lines)
