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
  together take that many bytes;
* ``deep lists`` (:data:`DEEP`): deep but legal input, a recursive encoding
  ``mu("lists", lambda self: list_(self))`` and a value nested that many
  levels (``[[...[]...]]``, 4 bytes a level), with the depth limit raised to
  fit (``set_max_depth``). Every deep call runs in a thread whose stack is
  :data:`DEEP_STACK`: on the main thread's 8 MB, CPython crashes past about
  20 000 levels;
* refusals at depth (:func:`refusals`), what an error raised at the bottom
  costs (it once grew with the square of the depth): ``deep lists,
  refused``, the deep lists' input with a bad leaf instead of the innermost
  ``[]``, refused in every direction (``decode``, ``encode``, ``length``,
  ``to_json``, ``from_json``); ``tried union, refused``, a recursive union
  whose cases are tried at every level (a list of itself, or a float), a
  string at the bottom; and ``plain Python, refused``, their floor: a plain
  recursive check refusing the lists' leaf through as many frames a level
  (:func:`plain_check`).

For each size, and after checking once that ``decode(encode(v)) == v`` (for
a refusal: that it raises exactly the error expected, its path of every
level's step included):

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

The ``deep lists`` series and the refusals are timed the same way, inside a
large-stack thread; a timed refusal reads its error's path (built when read,
as by a caller that reports the error). The refusals' peak memory is not
measured (the tables show "—"). The ``deep lists``' is **not** tracemalloc's
(tracing deep recursion takes time quadratic in the depth: 13 s for 10^4
levels, 64 s for 2 x 10^4) but the rise of the process's **resident set
size** (RSS) during one call, at its highest (:func:`resident_peak`): read
exactly (Linux's ``VmRSS``) at every garbage collection, with the
collector's threshold lowered so that one starts about every level and a
half, in a fresh process that has built the input, compiled the codec on a
tiny value and filled the allocator's free blocks (:func:`deep_peak_here`);
the largest of :data:`DEEP_PEAK_RUNS` processes (:func:`deep_peak`). As with
tracemalloc, the input is not counted and the result (the bytes, or the D
nested lists) is. Unlike tracemalloc, this counts everything the call makes
resident: the thread's C stack (about 370 bytes a level) and the Python
frames of the recursion, which tracemalloc does not see, and whole pages
rather than the bytes asked for. It misses the few KB of stack, frames and
free blocks that the call finds already resident (the 10^3-level figures
come out up to 2% below the 10^5 ones); the readings add a few KB of their
own. The table marks these figures "(RSS)".

Per size the table gives the time in ms, the time per element (µs per
record or per level, or ms per MB of input), the peak in MB and per element
(bytes per record, per level, or per input byte). The linearity table
divides the time (and the peak) per element at the largest size by that at
the smallest: about 1 means linear.

    python benchmarks/scaling.py          # FULL_SIZES: up to 10^6 records, 50 MB,
                                          # 1 MB numbers, 10^5 levels
    python benchmarks/scaling.py --quick  # QUICK_SIZES: a few seconds
    python benchmarks/scaling.py --refusals  # only the refusals at depth, to 10^5
                                             # levels (with --quick: QUICK_SIZES')
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import struct
import subprocess
import sys
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any, Literal, NamedTuple, TypeVar

import data_encoding as de

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import records_decode, records_encode
from workloads import workloads

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]
T = TypeVar("T")

HAND_WRITTEN = "records (hand-written)"
"""The series of :mod:`handwritten`'s records codec: what any Python codec pays."""

__all__ = [
    "DEEP",
    "DEEP_PEAK_RUNS",
    "DEEP_STACK",
    "FULL_SIZES",
    "HAND_WRITTEN",
    "MB",
    "PLAIN",
    "QUICK_SIZES",
    "REFUSED",
    "RSS_NOTE",
    "TRIED",
    "PlainRefusal",
    "Point",
    "Refusal",
    "Refused",
    "Sizes",
    "deep_peak",
    "deep_peak_here",
    "measure",
    "measure_deep",
    "measure_refusals",
    "refusals",
    "resident_peak",
    "scaling",
    "scaling_table",
    "warm_line_tables",
]

MB = 1_000_000
"""A megabyte, in bytes."""


class Sizes(NamedTuple):
    """Numbers of records; sizes in bytes of the ``bytes_`` values and of the
    encoded Zarith numbers; levels of the ``deep lists``, and of the deep
    values refused (none by default)."""

    records: tuple[int, ...]
    bytes_: tuple[int, ...]
    numbers: tuple[int, ...]
    depths: tuple[int, ...] = ()
    refusals: tuple[int, ...] = ()


QUICK_SIZES = Sizes(
    (10**3, 10**4), (MB // 2, MB), (MB // 64, MB // 16), (10**3, 10**4), (10**2, 10**3)
)
"""A smoke run of a few seconds: ``scaling_table(*QUICK_SIZES)``."""
FULL_SIZES = Sizes(
    (10**4, 10**5, 10**6),
    (MB // 2, 5 * MB, 50 * MB),
    (MB // 16, MB // 4, MB),
    (10**3, 10**4, 10**5),
    (10**3, 10**4, 10**5),
)
"""The full series: ``scaling_table(*FULL_SIZES)``."""

BYTE_SERIES = frozenset({"bytes_", "n", "list_(z)"})
"""The series measured per MB of input (the others per record or per level)."""

DEEP = "deep lists"
"""The series of a recursive encoding nested as deep as its size, measured per level."""

REFUSED = "deep lists, refused"
"""The deep lists with a bad leaf at the bottom, refused in every direction."""

TRIED = "tried union, refused"
"""A recursive union whose cases are tried at every level, refused at the bottom."""

PLAIN = "plain Python, refused"
"""The floor of the refusals: a plain recursive check refusing the same leaf."""

LEVEL_SERIES = frozenset({DEEP, REFUSED, TRIED, PLAIN})
"""The series measured per level of nesting."""

DEEP_STACK = 1 << 30
"""The stack of the threads that run the deep series: 1 GB of address space,
of which only the pages the recursion touches become memory. 100 000 levels
fit; the main thread's 8 MB crash CPython past about 20 000."""

DEEP_PEAK_RUNS = 3
"""Fresh processes per peak of the deep series; the largest figure is kept."""

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
    peak: int | None  # bytes: see peak_source; None: not measured (the refusals)
    # "tracemalloc": peak traced bytes during one call (peak_memory);
    # "rss": rise of the resident set size during one call, at its highest
    # (deep_peak)
    peak_source: Literal["tracemalloc", "rss"] = "tracemalloc"

    @property
    def per_record(self) -> bool:
        """Counted in elements (records, or levels), not in MB of input."""
        return self.series not in BYTE_SERIES

    @property
    def element(self) -> str:
        """What the size counts: "record", "level" or "MB"."""
        if not self.per_record:
            return "MB"
        return "level" if self.series in LEVEL_SERIES else "record"

    @property
    def units(self) -> float:
        """The size in the unit the time is given per: records, levels, or MB."""
        return self.size if self.per_record else self.size / MB

    @property
    def time_per_unit(self) -> float:
        """µs per record or level, or ms per MB (garbage collector on)."""
        return self.seconds / self.units * (1e6 if self.per_record else 1e3)

    @property
    def time_per_unit_no_gc(self) -> float:
        """As :attr:`time_per_unit`, garbage collector off."""
        return self.seconds_no_gc / self.units * (1e6 if self.per_record else 1e3)

    @property
    def peak_per_element(self) -> float:
        """Peak bytes per record, per level, or per input byte (NaN if not measured)."""
        return math.nan if self.peak is None else self.peak / self.size


def best_time(call: Callable[[], object], gc_on: bool, runs: int = MAX_RUNS) -> float:
    """The best of up to ``runs`` timed calls (fewer past :data:`TIME_BUDGET`),
    with the garbage collector on or off as ``gc_on`` says (restored after)."""
    was_on = gc.isenabled()
    best = float("inf")
    total = 0.0
    try:
        for _ in range(runs):
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


def nested_lists() -> de.Encoding[Any]:
    """The deep series' encoding: a list of itself, ``[]`` its only leaf.

    Built afresh by each caller: building a recursive encoding raises the
    recursion limit (to fit the depth limit), so a module constant would
    change the limit of every program that imports this module.
    """
    return de.mu("lists", lambda self: de.list_(self))


def nested_value(depth: int, leaf: Any = None) -> Any:
    """``[[...[]...]]``, ``depth`` levels deep, built from the inside out (no
    recursion); with a ``leaf``, that at the bottom instead of the innermost
    ``[]`` (still ``depth`` levels: the leaf is the last)."""
    value = [] if leaf is None else leaf
    for _ in range(depth - 1):
        value = [value]
    return value


EMPTY_LIST = bytes(4)
"""The bytes of ``[]`` in the deep series: its size header, 0."""


def nested_bytes(depth: int, leaf: bytes = EMPTY_LIST) -> bytes:
    """The encoding of :func:`nested_value` (``depth``), written directly;
    with a ``leaf``, those bytes at the bottom instead of the innermost
    ``[]``'s (:data:`EMPTY_LIST`).

    Each level above the leaf is its uint30 size header: the bytes of the
    levels inside it, 4 a level, and the leaf's. Written into one buffer, one
    header at a time, so that building it frees nothing sizeable for the
    measured decoding to reuse (see :func:`deep_peak_here`); only the buffer
    itself is freed.
    """
    buf = bytearray(4 * (depth - 1) + len(leaf))
    for i in range(depth - 1):
        struct.pack_into(">I", buf, 4 * i, len(buf) - 4 * (i + 1))
    buf[4 * (depth - 1) :] = leaf
    return bytes(buf)


@contextmanager
def depth_limit(depth: int) -> Iterator[None]:
    """Let values nest ``depth`` levels for the block; the previous depth
    limit and recursion limit are restored after (``set_max_depth`` raises
    the recursion limit and never lowers it)."""
    previous, recursion = de.max_depth(), sys.getrecursionlimit()
    de.set_max_depth(max(depth, previous))
    try:
        yield
    finally:
        de.set_max_depth(previous)
        sys.setrecursionlimit(recursion)


def in_deep_thread(call: Callable[[], T]) -> T:
    """``call()`` in a new thread whose stack is :data:`DEEP_STACK`: its
    result, or what it raised, raised here."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as err:  # handed to the caller's thread
            failure.append(err)

    # the size applies to the threads started after it is set: this one only
    previous = threading.stack_size(DEEP_STACK)
    try:
        thread = threading.Thread(target=run, name="deep")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]


def deep_times(
    depth: int, calls: Sequence[Callable[[], object]], check: Callable[[], None]
) -> list[tuple[float, float]]:
    """``check()``, then the best times of each of ``calls``, collector on
    and off (:func:`best_time`): all in one large-stack thread
    (:func:`in_deep_thread`), values allowed to nest ``depth`` levels."""

    def check_and_time() -> list[tuple[float, float]]:
        check()
        return [(best_time(call, True), best_time(call, False)) for call in calls]

    with depth_limit(depth):
        return in_deep_thread(check_and_time)


def measure_deep(depth: int) -> list[Point]:
    """The encode and decode points of the deep series at ``depth`` levels.

    The check and the timings run in one large-stack thread; the peaks come
    from fresh processes (:func:`deep_peak`).
    """
    lists = nested_lists()
    value = nested_value(depth)
    data = nested_bytes(depth)

    def encode() -> bytes:
        return lists.encode(value)

    def decode() -> Any:
        return lists.decode(data)

    def check() -> None:
        # comparing nested lists recurses too: here, on the large stack
        if encode() != data or decode() != value:
            raise AssertionError(f"{DEEP} at {depth}: the bytes or the decoded value differ")

    ops = ("encode", "decode")
    times = deep_times(depth, (encode, decode), check)
    return [
        Point(DEEP, op, depth, on, off, deep_peak(op, depth), peak_source="rss")
        for op, (on, off) in zip(ops, times, strict=True)
    ]


def tried_lists() -> de.Encoding[Any]:
    """The tried union's encoding: a list of itself, or a float.

    Writing a value (``encode``, ``length``, ``to_json``) or reading JSON
    (``from_json``), each level tries the cases that take its value, and
    ranks their failures when none succeeds. Built afresh by each caller,
    as :func:`nested_lists`.
    """
    return de.mu(
        "tried",
        lambda self: de.union([de.case(0, "list", de.list_(self)), de.case(1, "float", de.float_)]),
    )


Refused = tuple[type[Exception], str, tuple[str | int, ...]]
"""What a refusal raised: the error's class, code and path."""


class PlainRefusal(Exception):
    """What :func:`plain_check` raises: a ``wrong_type`` at the steps it collected."""

    code = "wrong_type"

    def __init__(self) -> None:
        super().__init__("not a list")
        self.steps: list[int] = []  # innermost first, as DataEncodingError's

    @property
    def path(self) -> tuple[int, ...]:
        return tuple(reversed(self.steps))


def plain_check(frames: int) -> Callable[[Any], None]:
    """What any Python code pays to refuse a leaf at the bottom: a plain
    check that a value is nested lists, recursive, through ``frames`` Python
    frames a level, raising :class:`PlainRefusal` at the first value that is
    not a list, each level adding its index to the error's steps on the way
    up.

    An exception keeps the frames it went through alive (its traceback), so
    a refusal at depth holds every level's frames until it is caught, where
    a success frees each on return: this check's time per level grows with
    the depth as the refusal series' do (``benchmarks/README.md``, "Issue 28:
    refusing deep input").
    """

    def level(value: Any, more: int) -> None:
        if more > 1:
            return level(value, more - 1)
        if type(value) is not list:
            raise PlainRefusal
        for i, element in enumerate(value):
            try:
                level(element, frames)
            except PlainRefusal as err:
                err.steps.append(i)
                raise
        return None

    return partial(level, more=frames)


class Refusal(NamedTuple):
    """One direction of a refusal series: ``refuse()`` must give ``expected``."""

    series: str
    op: str
    refuse: Callable[[], Refused | None]
    expected: Refused


def refusal(direction: Callable[[Any], object], given: Any) -> Callable[[], Refused | None]:
    """A call of ``direction(given)`` that returns what it raised (None if
    nothing), its path read: a caller that reports the error reads it, and
    the path is built when read."""

    def refuse() -> Refused | None:
        try:
            direction(given)
        except (de.DataEncodingError, PlainRefusal) as err:
            return type(err), err.code, err.path
        return None

    return refuse


def refusals(depth: int) -> list[Refusal]:
    """The refusal series at ``depth`` levels, each direction in turn.

    Their input is the deep series' at ``depth`` levels (:func:`nested_value`,
    :func:`nested_bytes`) with a bad leaf at the bottom instead of the
    innermost ``[]``: in the bytes, the innermost size header says 5 bytes
    where its frame has none left; as a value or as JSON, the number 5 for
    the lists, the string ``"x"`` for the tried union (:func:`tried_lists`,
    which takes a float there). Each is refused at the bottom, with the
    index of the innermost list around the leaf, and of every list around
    that, in its path: ``depth - 1`` steps.

    Last, the floor: :func:`plain_check` of the lists' bad value through 3
    frames a level, as many as the lists' refusals go through, and through
    7, the tried union's (the frames a level of their tracebacks, counted
    when this series was written).
    """
    lists, tried = nested_lists(), tried_lists()
    bad_bytes = nested_bytes(depth, (5).to_bytes(4, "big"))
    bad_value = nested_value(depth, 5)
    no_case = nested_value(depth, "x")
    path = (0,) * (depth - 1)
    writing = ("encode", "length", "to_json")
    directions: list[tuple[str, de.Encoding[Any], str, Any, Refused]] = [
        (REFUSED, lists, "decode", bad_bytes, (de.DecodeError, "not_enough_data", path)),
        *((REFUSED, lists, op, bad_value, (de.EncodeError, "wrong_type", path)) for op in writing),
        (REFUSED, lists, "from_json", bad_value, (de.JsonError, "wrong_type", path)),
        *((TRIED, tried, op, no_case, (de.EncodeError, "no_case_matched", path)) for op in writing),
        (TRIED, tried, "from_json", no_case, (de.JsonError, "no_case_matched", path)),
    ]
    plain: Refused = (PlainRefusal, "wrong_type", path)
    return [
        Refusal(series, op, refusal(partial(_direction, e, op), given), expected)
        for series, e, op, given, expected in directions
    ] + [
        Refusal(PLAIN, f"{frames} frames a level", refusal(plain_check(frames), bad_value), plain)
        for frames in (3, 7)
    ]


def _direction(e: de.Encoding[Any], op: str, given: Any) -> object:
    """``e``'s ``op`` of ``given``, the method looked up at each call: the
    first look-up compiles it, which raises the recursion limit to fit the
    depth limit, so it must happen in :func:`depth_limit`'s block."""
    return getattr(e, op)(given)


def _said(outcome: Refused | None) -> str:
    if outcome is None:
        return "no error"
    cls, code, path = outcome
    return f"{cls.__name__} {code} at a path of {len(path)} steps among {set(path)}"


def measure_refusals(depth: int) -> list[Point]:
    """The points of the refusal series at ``depth`` levels (:func:`refusals`).

    Each refusal is checked to give exactly the error expected, then timed
    like the deep series (:func:`deep_times`). Their peak memory is not
    measured: their cost in time is what once grew with the square of the depth.
    """
    cases = refusals(depth)

    def check() -> None:
        for case in cases:
            got = case.refuse()
            if got != case.expected:
                raise AssertionError(
                    f"{case.series} {case.op} at {depth}: expected"
                    f" {_said(case.expected)}, got {_said(got)}"
                )

    times = deep_times(depth, [case.refuse for case in cases], check)
    return [
        Point(case.series, case.op, depth, on, off, None)
        for case, (on, off) in zip(cases, times, strict=True)
    ]


class ProcStatus:
    """Sizes from ``/proc/self/status`` (Linux), read without allocating
    anything sizeable: one file descriptor and one buffer, reused, so that a
    reading taken in the middle of a measured call adds next to nothing."""

    def __init__(self) -> None:
        self._fd = os.open("/proc/self/status", os.O_RDONLY)
        self._buf = bytearray(1 << 14)  # the file takes about 1.5 KB

    def read(self, field: bytes) -> int:
        """``field`` (``b"VmRSS"``, ``b"VmHWM"``), in bytes (the file gives kB)."""
        end = os.preadv(self._fd, [self._buf], 0)
        start = self._buf.index(field + b":", 0, end) + len(field) + 1
        return int(self._buf[start : self._buf.index(b"kB", start)]) * 1024

    def close(self) -> None:
        os.close(self._fd)


def resident_peak(call: Callable[[], object]) -> int:
    """How far the resident set size rises during ``call()`` above what it was
    before, at its highest; the result of the call is alive at the last reading.

    The size (``VmRSS``) is read at every garbage collection, from a
    callback, and the collector's first threshold is set to 1, so that a
    collection starts at every other allocation of a container: in the deep
    series, about every level and a half (674 readings for 10^3 levels), so
    the deepest point is read to within two levels. ``VmRSS`` counts pages
    exactly on recent kernels (here 6.18: touching n pages adds n pages, and
    the figures repeat to the page from one process to the next). The
    kernel's own high-water mark (``VmHWM``, reset just before the call by
    writing 5 to ``/proc/self/clear_refs``) is taken too, as a net for a rise
    between two readings, but it is only an estimate: the kernel records it
    from per-CPU counters that lag by up to 32 pages per CPU (or twice the
    number of CPUs, if larger), so it came out 10 to 30% short at 10^3
    levels; ``getrusage``'s ``ru_maxrss``, which cannot be reset, moved by
    steps of 128 KiB. Each reading adds its own stack and frames, a few KB,
    to what it reads.
    """
    status = ProcStatus()
    highest = 0

    def reading(phase: str, info: dict[str, int]) -> None:
        nonlocal highest
        if phase == "start":
            highest = max(highest, status.read(b"VmRSS"))

    thresholds = gc.get_threshold()
    gc.collect()
    gc.callbacks.append(reading)
    gc.set_threshold(1)
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
        before = status.read(b"VmRSS")
        result = call()
        highest = max(highest, status.read(b"VmRSS"), status.read(b"VmHWM"))
        del result
    finally:
        gc.set_threshold(*thresholds)
        gc.callbacks.remove(reading)
        status.close()
    return highest - before


FILL_PER_CLASS = 256 * 1024
"""Bytes of objects that :func:`fill_free_blocks` allocates in each size class."""


def fill_free_blocks() -> list[object]:
    """Objects for the caller to keep: :data:`FILL_PER_CLASS` bytes in each of
    pymalloc's size classes (16 to 512 bytes, by 16).

    After importing and compiling, pymalloc holds about 0.4 MB of free
    blocks in pages already resident (here: ``sys._debugmallocstats``), and
    it serves small objects from them first, so a call's first few hundred
    KB of objects would not grow the resident set. Once these blocks hold
    filler, the call's objects need pages of their own. (Without it, 10^3
    levels measure 12 to 14% below 10^4 and 10^5; with it, within 2%.)
    """
    filler: list[object] = [object() for _ in range(FILL_PER_CLASS // 16)]
    filler += [float(i) for i in range(FILL_PER_CLASS // 32)]  # 24 bytes: the 32-byte class
    for size in range(48, 513, 16):  # bytes(n) takes 33 + n bytes
        filler += [bytes(size - 33) for _ in range(FILL_PER_CLASS // size)]
    return filler


def deep_peak_here(op: str, depth: int) -> int:
    """In this process, which should be fresh: the peak memory of one ``op``
    ("encode" or "decode") of the deep series at ``depth`` levels, as
    measured by :func:`resident_peak` in a large-stack thread.

    A fresh process, because memory that is free but resident, in a thread's
    stack or in the allocators, is reused without growing the resident set:
    after an earlier deep call, a call would use the same pages and seem to
    take almost nothing. So, first: the input (the decoder's bytes written
    directly, not by encoding a value that would then be freed); the codec
    compiled on a tiny value (on this thread: compiling on the measuring
    thread would leave it stack pages for the call to reuse); and the
    allocator's free blocks filled (:func:`fill_free_blocks`).
    """
    if op not in ("encode", "decode"):
        raise ValueError(f"op is 'encode' or 'decode', not {op!r}")
    lists = nested_lists()
    lists.decode(lists.encode([[[]]]))
    value = nested_value(depth) if op == "encode" else None
    data = nested_bytes(depth) if op == "decode" else b""

    def call() -> object:
        return lists.encode(value) if op == "encode" else lists.decode(data)

    gc.collect()
    filler = fill_free_blocks()
    with depth_limit(depth):
        peak = in_deep_thread(partial(resident_peak, call))
    del filler
    return peak


_CHILD = "import sys, scaling; print(scaling.deep_peak_here(sys.argv[1], int(sys.argv[2])))"
"""What each fresh process of :func:`deep_peak` runs."""


def deep_peak(op: str, depth: int) -> int:
    """The peak memory of one ``op`` of the deep series at ``depth`` levels:
    :func:`deep_peak_here` in :data:`DEEP_PEAK_RUNS` fresh processes, the
    largest figure.

    What varies from one process to the next (with the hash seed, for one)
    is how much free memory the call finds already resident and reuses,
    which can only lower the figure: hence the largest. The processes
    import this module and the same ``data_encoding`` as this one; they run
    side by side, as a process's resident set is its own.
    """
    here = Path(__file__).resolve().parent
    package_root = Path(de.__file__).resolve().parents[1]
    path = [str(here), str(package_root), os.environ.get("PYTHONPATH", "")]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in path if p))
    # -P: the working directory is not put on the path, where it could shadow these
    command = [sys.executable, "-P", "-c", _CHILD, op, str(depth)]
    children = [
        subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(DEEP_PEAK_RUNS)
    ]
    peaks = []
    for child in children:
        out, err = child.communicate()
        if child.returncode != 0:
            raise RuntimeError(f"{DEEP} {op} at {depth}: a measuring process failed:\n{err}")
        peaks.append(int(out))
    return max(peaks)


def scaling(
    sizes: Sequence[int],
    bytes_sizes: Sequence[int],
    number_sizes: Sequence[int],
    depths: Sequence[int] = (),
    refusal_depths: Sequence[int] = (),
) -> list[Point]:
    """The points of every series, records first, each in increasing size;
    the hand-written records codec after ours, on the same values; the deep
    series, then the refusals at depth, last."""
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
    for depth in sorted(depths):
        points += measure_deep(depth)
    for depth in sorted(refusal_depths):
        points += measure_refusals(depth)
    return points


def _size(p: Point) -> str:
    if not p.per_record:
        return f"{p.size / MB:g} MB"
    return f"{p.size:,} levels" if p.element == "level" else f"{p.size:,}"


def _unit(p: Point) -> tuple[str, str]:
    """The time unit and the peak unit of ``p``'s series."""
    if not p.per_record:
        return "ms / MB", "B / input byte"
    return f"µs / {p.element}", f"B / {p.element}"


def _rss(p: Point) -> str:
    """The mark of a peak that is not tracemalloc's (see :data:`RSS_NOTE`)."""
    return " (RSS)" if p.peak_source == "rss" else ""


RSS_NOTE = (
    "(RSS): not tracemalloc's traced bytes but the rise of the resident set size during one"
    f" call, at its highest, in a fresh process (the largest of {DEEP_PEAK_RUNS}): the"
    " result, the thread's stack and the Python frames of the recursion count, the input"
    " does not; see scaling.resident_peak."
)
"""The footnote of the tables that hold a peak measured by :func:`deep_peak`."""


def points_table(points: Sequence[Point]) -> str:
    """The per-size table and the linearity table, in markdown."""
    lines = [
        "| series | op | size | ms | time / element | GC off: ms | GC off: "
        "time / element | peak MB | peak / element |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for p in points:
        tu, mu = _unit(p)
        peaks = (
            "— | —"  # not measured
            if p.peak is None
            else f"{p.peak / MB:.2f}{_rss(p)} | {p.peak_per_element:.2f} {mu}{_rss(p)}"
        )
        lines.append(
            f"| {p.series} | {p.op} | {_size(p)} "
            f"| {p.seconds * 1e3:.3f} | {p.time_per_unit:.3f} {tu} "
            f"| {p.seconds_no_gc * 1e3:.3f} | {p.time_per_unit_no_gc:.3f} {tu} | {peaks} |"
        )
    if any(p.peak_source == "rss" for p in points):
        lines += ["", RSS_NOTE]
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
        peak = (
            "—"
            if hi.peak is None or lo.peak is None
            else f"{hi.peak_per_element / lo.peak_per_element:.2f}{_rss(hi)}"
        )
        lines.append(
            f"| {series} | {op} | {_size(lo)} → {_size(hi)} "
            f"| {hi.time_per_unit / lo.time_per_unit:.2f} "
            f"| {hi.time_per_unit_no_gc / lo.time_per_unit_no_gc:.2f} | {peak} |"
        )
    return "\n".join(lines)


def scaling_table(
    sizes: Sequence[int],
    bytes_sizes: Sequence[int],
    number_sizes: Sequence[int],
    depths: Sequence[int] = (),
    refusal_depths: Sequence[int] = (),
) -> str:
    """Measure every series at these sizes; the markdown tables."""
    return points_table(scaling(sizes, bytes_sizes, number_sizes, depths, refusal_depths))


def main(argv: Sequence[str] | None = None) -> str:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="QUICK_SIZES: a few seconds")
    parser.add_argument(
        "--refusals", action="store_true", help="only the refusals at depth, at their sizes"
    )
    args = parser.parse_args(argv)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    if args.refusals:
        sizes = Sizes((), (), (), refusals=sizes.refusals)
    start = time.perf_counter()
    text = scaling_table(*sizes)
    print(text)
    print(f"\n({time.perf_counter() - start:.1f} s in all, building the data included)")
    return text


if __name__ == "__main__":
    main()
