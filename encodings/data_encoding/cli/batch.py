"""Batch mode (``--lines``): one input per line, one result per line, streaming.

The input is read line by line and each result written as soon as it is
made, so memory stays constant whatever the input's size. A line that fails
is reported on stderr (``error: line N: ...``); the run stops there unless
``--keep-going``, which writes an empty line for it (so that output line N
answers input line N), reports every bad line, and then a summary of their
numbers. Either way a failure makes the exit status 1. The results may go elsewhere
than to stdout (``decode --to``: rows of a table), each given to ``put``.

With ``--jobs N`` (more than 1), N worker processes convert the lines, a
chunk of them at a time (:func:`data_encoding.parallel.map_many`: a few
chunks a worker read ahead, never the whole input), and this process puts
their results in input order: the output, the errors and their line
numbers, the summary and the exit status are those of ``--jobs 1``, which
converts each line here, as it is read.

When the input is a file and stderr a terminal, a progress bar on stderr
shows how much of the file is done; it is erased before any other message,
so stdout and the errors read as if it had never been there.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import closing
from functools import partial
from typing import TypeVar

from ..parallel import Failed, map_many
from .inputs import Input, open_input
from .output import BAD_DATA, OK, error_text, print_error, write_line

R = TypeVar("R")

Convert = Callable[[Input], R]
"""One line of input (without its line break) to its result (a line of
output); with ``--jobs``, sent to the workers, so it pickles: a
module-level function, or a ``functools.partial`` of one."""

SHOWN_FAILURES = 20
"""How many failed line numbers the summary lists (it counts them all)."""

STRIDE = 4096
"""The progress bar checks the clock once every this many lines."""

INTERVAL = 0.1
"""...and is drawn again when this many seconds have passed."""

_WIDTH = 30


class Progress:
    """A progress bar over ``total`` bytes, drawn on stderr."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.drawn = False
        self.last = time.monotonic()

    def tick(self, done: int, lines: int) -> None:
        now = time.monotonic()
        if now - self.last >= INTERVAL:
            self.last = now
            self.draw(done, lines)

    def draw(self, done: int, lines: int) -> None:
        share = done / self.total if self.total else 1.0
        filled = round(share * _WIDTH)
        bar = "#" * filled + "." * (_WIDTH - filled)
        sys.stderr.write(f"\r{share:4.0%} [{bar}] {lines} lines")
        sys.stderr.flush()
        self.drawn = True

    def erase(self) -> None:
        if self.drawn:
            sys.stderr.write("\r" + " " * (_WIDTH + 30) + "\r")
            sys.stderr.flush()
            self.drawn = False


def _no_result() -> None:
    write_line("")  # output line N still answers input line N


def run_lines(
    arg: str | None,
    convert: Convert[R],
    keep_going: bool,
    put: Callable[[R], None] = write_line,  # type: ignore[assignment]
    missing: Callable[[], None] = _no_result,
    jobs: int = 1,
) -> int:
    """Convert each line of ``arg`` (a file, or stdin for ``-`` or ``None``),
    in ``jobs`` processes, and ``put`` its result (by default, written as a
    line; ``missing()`` stands for a bad line's, with ``keep_going``), in
    input order; the exit status."""
    failed: list[int] = []  # the first SHOWN_FAILURES line numbers
    failures = 0
    number = 0
    with open_input(arg, "--lines") as (stream, size):
        progress = Progress(size) if size is not None and sys.stderr.isatty() else None
        sizes: deque[int] = deque()  # of the lines read and not yet answered

        def lines() -> Iterator[bytes]:
            for raw in stream:
                sizes.append(len(raw))
                yield raw

        done = 0
        converted = map_many(partial(_convert_line, convert), lines(), jobs=jobs, keep_going=True)
        with closing(converted) as results:  # a run stopped early stops the workers
            for number, result in enumerate(results, 1):
                done += sizes.popleft()
                if isinstance(result, Failed):
                    failures += 1
                    if len(failed) < SHOWN_FAILURES:
                        failed.append(number)
                    if keep_going:
                        missing()
                    if progress is not None:
                        progress.erase()
                    print_error(f"line {number}: {error_text(result.error)}")
                    if not keep_going:
                        return BAD_DATA
                else:
                    put(result)
                if progress is not None and number % STRIDE == 0:
                    progress.tick(done, number)
        if progress is not None:
            progress.erase()
    if failures:
        more = ", ..." if failures > len(failed) else ""
        listed = ", ".join(map(str, failed))
        print_error(f"{failures} of {number} lines failed (lines {listed}{more})")
        return BAD_DATA
    return OK


def _convert_line(convert: Convert[R], raw: bytes) -> R:
    """``convert`` of a line as read (module-level: ``--jobs`` sends it to the workers)."""
    return convert(Input(raw.rstrip(b"\r\n"), "the line"))
