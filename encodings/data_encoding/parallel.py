"""Many inputs through one codec, over worker processes, in input order.

:func:`decode_many` decodes an iterable of byte strings (a chain's
operations, a file's records) and :func:`encode_many` encodes an iterable
of values, each as ``e.decode`` and ``e.encode`` would, over a
:class:`~concurrent.futures.ProcessPoolExecutor` of ``jobs`` workers
(``None``: one per core); :func:`map_many` does the same with any function
of one item that pickles (``functools.partial(f, e)`` of a module-level
``f``: the command line's ``--jobs`` sends each worker the whole line's
work, from hex to JSON text).

* **In order, streaming.** Results come in input order, as a generator.
  The items are read lazily, cut in chunks of ``chunk_size``, and at most
  :data:`WINDOW` chunks a worker are in flight: memory holds those, never
  the whole input, so an input of any length streams.
* **The same results.** With ``jobs=1`` (or one core) nothing is sent
  anywhere: the items are converted one by one in this process, each as it
  is read, which is ``[e.decode(b) for b in items]`` made lazy. With more,
  each worker receives the function once (pickled here, when the call is
  made: what cannot pickle is a :class:`DefinitionError` at once, whatever
  the start method; an encoding pickles as the call that built it, one
  rebuilt from a node's schemas as that schema pair), compiles its codec on
  first use, and converts chunk after chunk; the values come back pickled.
* **Cost: what crosses.** A pool pays where the workers send back much
  less than they do, and only there. This process pickles every item and
  unpickles every result, and reading a value back from ``pickle`` costs
  about what decoding it from its bytes does (a Delphi operation: 5 to
  8 µs either way): on the node's values (block headers, operations)
  ``decode_many`` over two workers is 4 to 6 times *slower* than one
  process (``encode_many`` pickles the values it sends: alike), while
  ``map_many`` of ``bytes_to_json`` (JSON text back) is twice as fast
  (``benchmarks/README.md``, issue 32). Hence ``jobs=1`` by default: a
  pool is asked for, for a function that reduces what it reads (its JSON
  text, the fields wanted, a count, a filter).
* **Errors.** A :class:`DataEncodingError` of one item is that item's
  failure. By default the first one is raised, its ``path`` starting with
  the item's index (``$[2].pid``: the items read as a list's elements
  would), its ``code``, ``offset`` (in the item's own bytes) and message
  those the item's own call raises, after the results of the items before
  it; the workers then stop. With ``keep_going=True`` nothing is raised
  for a failed item: a :class:`Failed` stands in its place, holding its
  index and the error exactly as the item's own call raises it, and the
  other items are all converted. (Errors cross the process boundary
  intact: they pickle as their class, code, message, offset and path.)
  Any other exception raised in a worker (a bug, ``MemoryError``) is
  raised here as ``concurrent.futures`` raises it.

The generator owns the pool: exhausting it, or closing it early
(``close()``, :func:`contextlib.closing`, or dropping it), stops the
workers, those chunks not started cancelled and those running finished.
The workers ignore Ctrl-C (``SIGINT``), which this process alone handles.

>>> from data_encoding import obj, req, uint8
>>> e = obj(req("a", uint8))
>>> list(decode_many(e, [b"\\x01", b"\\x02"]))
[{'a': 1}, {'a': 2}]
>>> list(decode_many(e, [b"\\x01", b"", b"\\x03"], keep_going=True))  # doctest: +ELLIPSIS
[{'a': 1}, Failed(index=1, error=DecodeError(code='not_enough_data', ...)), {'a': 3}]
>>> list(decode_many(e, [b"\\x01", b""]))
Traceback (most recent call last):
  ...
data_encoding.errors.DecodeError: not enough data for uint8: need 1 byte, 0 left at $[1].a (byte 0)
"""

from __future__ import annotations

import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from itertools import islice
from typing import Any, Literal, TypeVar, overload

from .errors import DataEncodingError, DefinitionError
from .tree.core import BytesLike, Encoding

__all__ = ["CHUNK_SIZE", "WINDOW", "Failed", "decode_many", "encode_many", "map_many"]

T = TypeVar("T")
Item = TypeVar("Item")
R = TypeVar("R")

CHUNK_SIZE = 1000
"""The items a worker converts at a time, by default: enough that sending
a chunk costs little beside converting it."""

WINDOW = 2
"""The chunks in flight per worker: one being converted, one waiting, so
that no worker waits for this process to read the next."""


@dataclass(frozen=True, slots=True)
class Failed:
    """In place of an item that failed (``keep_going=True``): its index in
    the input, and its error, as the item's own call raised it."""

    index: int
    error: DataEncodingError


Results = Generator[R, None, None]
"""What :func:`map_many` and its kin give: a generator (``close()`` stops it)."""


@overload
def map_many(
    function: Callable[[Item], R],
    items: Iterable[Item],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: Literal[False] = False,
) -> Results[R]: ...
@overload
def map_many(
    function: Callable[[Item], R],
    items: Iterable[Item],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool,
) -> Results[R | Failed]: ...
def map_many(
    function: Callable[[Item], R],
    items: Iterable[Item],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool = False,
) -> Results[R | Failed]:
    """``function(item)`` of every item, in order, over ``jobs`` worker
    processes (1, the default: in this process; ``None``: one per core,
    :func:`os.cpu_count`), ``chunk_size`` items at a time; a failed item as
    the module says (raised, or a :class:`Failed` with ``keep_going``).

    ``function`` pickles when ``jobs`` is more than 1 (else a
    :class:`DefinitionError`, raised by the call); so do the items and the
    results. A ``jobs`` or ``chunk_size`` that is not an ``int`` of at
    least 1 is a :class:`DefinitionError`."""
    workers = _workers(jobs)
    if type(chunk_size) is not int or chunk_size < 1:
        raise DefinitionError(f"chunk_size: an int >= 1, not {chunk_size!r}")
    if workers == 1:
        return _delivered(_results(function, items, 0, keep_going), keep_going)
    try:
        sent = pickle.dumps(function, pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # whatever pickling a user's functions raises
        raise DefinitionError(
            f"jobs={workers}: the work cannot be sent to worker processes, which need it "
            "pickled (an encoding's conv functions and match predicates must be "
            f"module-level functions, not lambdas): {type(exc).__name__}: {exc}"
        ) from exc
    return _delivered(_pooled(sent, items, workers, chunk_size, keep_going), keep_going)


@overload
def decode_many(
    e: Encoding[T],
    items: Iterable[BytesLike],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: Literal[False] = False,
    canonical: bool = True,
) -> Results[T]: ...
@overload
def decode_many(
    e: Encoding[T],
    items: Iterable[BytesLike],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool,
    canonical: bool = True,
) -> Results[T | Failed]: ...
def decode_many(
    e: Encoding[T],
    items: Iterable[BytesLike],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool = False,
    canonical: bool = True,
) -> Results[T | Failed]:
    """``e.decode(item, canonical=canonical)`` of every item, in order, as
    :func:`map_many` runs it. A ``memoryview`` is copied to ``bytes`` (which
    ``decode`` does anyway) so that it can be sent to a worker."""
    data = (bytes(b) if type(b) is memoryview else b for b in items)
    return map_many(
        partial(_decode, e, canonical),
        data,
        jobs=jobs,
        chunk_size=chunk_size,
        keep_going=keep_going,
    )


@overload
def encode_many(
    e: Encoding[T],
    values: Iterable[T],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: Literal[False] = False,
) -> Results[bytes]: ...
@overload
def encode_many(
    e: Encoding[T],
    values: Iterable[T],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool,
) -> Results[bytes | Failed]: ...
def encode_many(
    e: Encoding[T],
    values: Iterable[T],
    *,
    jobs: int | None = 1,
    chunk_size: int = CHUNK_SIZE,
    keep_going: bool = False,
) -> Results[bytes | Failed]:
    """``e.encode(value)`` of every value, in order, as :func:`map_many` runs it."""
    return map_many(
        partial(_encode, e), values, jobs=jobs, chunk_size=chunk_size, keep_going=keep_going
    )


# ----------------------------------------------------------------- running


def _decode(e: Encoding[T], canonical: bool, data: BytesLike) -> T:
    # a module-level function (in a partial): what a worker receives pickles
    return e.decode(data, canonical=canonical)


def _encode(e: Encoding[T], value: T) -> bytes:
    return e.encode(value)


def _workers(jobs: int | None) -> int:
    if jobs is None:
        return os.cpu_count() or 1
    if type(jobs) is not int or jobs < 1:
        raise DefinitionError(f"jobs: an int >= 1, or None for one per core, not {jobs!r}")
    return jobs


def _results(
    function: Callable[[Item], R], items: Iterable[Item], start: int, keep_going: bool
) -> Generator[R | Failed, None, None]:
    """``function`` of each item, numbered from ``start``; a failure as a
    :class:`Failed`, which ends them unless ``keep_going``."""
    for index, item in enumerate(items, start):
        try:
            result = function(item)
        except DataEncodingError as err:
            yield Failed(index, err)
            if not keep_going:
                return
        else:
            yield result


def _delivered(results: Generator[R | Failed, None, None], keep_going: bool) -> Results[R | Failed]:
    """``results``, a :class:`Failed` raised as its error unless ``keep_going``;
    closed on the way out (a pool is shut down then, not when the
    error's traceback, which holds this frame, is dropped)."""
    try:
        for result in results:
            if not keep_going and isinstance(result, Failed):
                raise result.error.within(result.index)
            yield result
    finally:
        results.close()


def _pooled(
    sent: bytes, items: Iterable[Item], workers: int, chunk_size: int, keep_going: bool
) -> Generator[Any, None, None]:
    """The results of the pickled function ``sent`` over ``items``, chunk
    by chunk, :data:`WINDOW` chunks a worker in flight, in input order."""
    chunks = _chunks(items, chunk_size)
    pool = ProcessPoolExecutor(workers, initializer=_start_worker, initargs=(sent,))
    pending: deque[Future[list[Any]]] = deque()
    try:
        for start, chunk in islice(chunks, WINDOW * workers):
            pending.append(pool.submit(_run_chunk, start, chunk, keep_going))
        while pending:
            done = pending.popleft().result()
            for start, chunk in islice(chunks, 1):  # the window kept full while we yield
                pending.append(pool.submit(_run_chunk, start, chunk, keep_going))
            yield from done
    finally:  # exhausted, failed or closed early: the chunks not started are dropped
        pool.shutdown(wait=True, cancel_futures=True)


def _chunks(items: Iterable[Item], size: int) -> Iterator[tuple[int, list[Item]]]:
    """``items`` in lists of ``size`` (the last may be shorter), each with
    the index of its first item."""
    iterator = iter(items)
    start = 0
    while chunk := list(islice(iterator, size)):
        yield start, chunk
        start += len(chunk)


_function: Callable[[Any], Any] | None = None
"""In a worker: the function it applies, received once, when it starts."""


def _start_worker(sent: bytes) -> None:
    global _function
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    _function = pickle.loads(sent)


def _run_chunk(start: int, chunk: list[Any], keep_going: bool) -> list[Any]:
    """In a worker: the results of one chunk (up to its first failure, unless ``keep_going``)."""
    assert _function is not None, "a worker's function is received when it starts"
    return list(_results(_function, chunk, start, keep_going))
