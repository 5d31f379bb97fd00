"""Every catalogue encoding decoded by threads and by other processes (issue 15).

An encoding compiles its codecs on first use and keeps them; threads that
share it may all use it first at once. Here, in a fresh process (nothing
compiled yet), threads released together by a barrier decode every id's
inputs, each thread in its own order of ids; and a pool of processes,
sent the encodings themselves (pickled), decodes them too. Every thread
and every process gets what this process gets decoding alone: the same
JSON of each value, the same error (code, offset, path) for each bad input.

The inputs are each encoding's samples (under whichever of its ids) and,
for the errors, each sample with one byte changed at a few places.
"""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from typing import Any

from catalogue_ids import ENCODING_IDS, encoding_samples
from data_encoding import DecodeError, Encoding
from data_encoding.node import registry

THREADS = 4

Outcome = tuple[Any, ...]
"""``("ok", json)`` or ``("error", code, offset, path)``."""


def _inputs(id: str) -> list[bytes]:
    samples = [bytes.fromhex(str(s["hex"])) for s in encoding_samples(id, "valid")]
    changed = [
        raw[:at] + bytes([raw[at] ^ 0xFF]) + raw[at + 1 :]
        for raw in samples
        for at in sorted({0, len(raw) // 2, len(raw) - 1})
        if raw
    ]
    return samples + changed


JOBS = [(id, _inputs(id)) for id in ENCODING_IDS]


def outcomes(e: Encoding[Any], inputs: list[bytes]) -> list[Outcome]:
    """What decoding each input with ``e`` gives."""
    found: list[Outcome] = []
    for raw in inputs:
        try:
            found.append(("ok", e.to_json(e.decode(raw))))
        except DecodeError as err:
            found.append(("error", err.code, err.offset, err.path))
    return found


def in_threads(threads: int) -> list[dict[str, list[Outcome]]]:
    """Each thread's outcomes of every job, the threads started at once,
    thread ``k`` taking the ids from the ``k``-th on (so that they compile
    different encodings first, and the same ones at once)."""
    barrier = threading.Barrier(threads)
    assert _compiled() == [], "compiled before the threads start"

    def run(k: int) -> dict[str, list[Outcome]]:
        barrier.wait()
        shift = k * len(JOBS) // threads
        ordered = JOBS[shift:] + JOBS[:shift]
        return {id: outcomes(registry.find(id).encoding, inputs) for id, inputs in ordered}

    with ThreadPoolExecutor(threads) as pool:
        found = list(pool.map(run, range(threads)))
    # the check above sees compiled readers: now every one is
    assert _compiled() == [id for id, _ in JOBS]
    return found


def _compiled() -> list[str]:
    """The ids whose reader is compiled (kept on the encoding as ``_read``)."""
    return [id for id, _ in JOBS if "_read" in vars(registry.find(id).encoding)]


@cache
def expected() -> dict[str, list[Outcome]]:
    """The outcomes in this process, one id after the other (not at import:
    the processes import this module, and must find nothing compiled)."""
    return {id: outcomes(registry.find(id).encoding, inputs) for id, inputs in JOBS}


def _spawn() -> multiprocessing.context.SpawnContext:
    # a fresh interpreter: nothing compiled, nothing inherited
    return multiprocessing.get_context("spawn")


def test_threads_compiling_at_once_decode_alike() -> None:
    with ProcessPoolExecutor(1, mp_context=_spawn()) as pool:
        per_thread = pool.submit(in_threads, THREADS).result()
    assert len(per_thread) == THREADS
    for found in per_thread:
        assert found == expected()


def test_processes_sent_the_encodings_decode_alike() -> None:
    encodings = [registry.find(id).encoding for id, _ in JOBS]
    with ProcessPoolExecutor(2, mp_context=_spawn()) as pool:
        found = list(pool.map(outcomes, encodings, [inputs for _, inputs in JOBS]))
    assert dict(zip([id for id, _ in JOBS], found, strict=True)) == expected()
    # the errors are compared too
    assert sum(o[0] == "error" for rows in expected().values() for o in rows) > len(JOBS)
