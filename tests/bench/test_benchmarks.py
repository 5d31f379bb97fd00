"""The benchmark suite runs (``--quick``): every row checks that the
implementations agree before timing them. No time is asserted here: speed
targets live in ``benchmarks/README.md``, measured by ``make bench``."""

from __future__ import annotations

import gc
import importlib
import importlib.util
import sys
from types import SimpleNamespace
from typing import Any

import pytest
import pytezos_codecs
import run


def test_quick_benchmark_run_checks_and_reports_every_row() -> None:
    # what the suite left on the heap is not the benchmark's: frozen, the
    # collector does not walk it at every collection of the timing loops
    gc.collect()
    gc.freeze()
    try:
        rows = run.main(["--quick"])
    finally:
        gc.unfreeze()
    peers = ["hand-written"]
    if importlib.util.find_spec("construct") is not None:
        peers += ["construct", "construct (compiled)"]
    pytezos = ["pytezos"] if importlib.util.find_spec("pytezos") is not None else []
    json_peer = "hand-written + " + ("orjson" if importlib.util.find_spec("orjson") else "json")
    binary = [
        (f"{name}: {op}", subject, peer)
        for name in ("block_header", "zarith_z", "records")
        for op in ("encode", "decode")
        for subject in ("ours", "hand-written")  # the ceiling: hand-written against the peers
        for peer in peers + (pytezos if name == "zarith_z" else [])
        if peer != subject
    ]
    assert [(r.task, r.subject, r.other) for r in rows] == binary + [
        ("block_header: node json->bytes", "ours", peer) for peer in pytezos
    ] + [
        (f"{name}: {op}", "ours", json_peer)
        for name in ("block_header", "records")
        for op in ("json->bytes", "bytes->json")
    ]
    assert all(len(r.ratios) == 3 and all(x > 0 for x in r.ratios) for r in rows)


def test_pytezos_codecs_put_the_recursion_limit_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing pytezos raises the process's recursion limit to 100000; the
    benchmark puts it back, since the library's ``too_deep`` errors depend on
    it. A stand-in module does what pytezos does, so this runs without it."""

    def import_like_pytezos(name: str) -> Any:
        sys.setrecursionlimit(100_000)
        return SimpleNamespace(
            forge_int=lambda v: b"",
            unforge_int=lambda b: (0, 1),
            forge_block_header=lambda j: b"",
        )

    monkeypatch.setattr(importlib, "import_module", import_like_pytezos)
    limit = sys.getrecursionlimit()
    assert set(pytezos_codecs.codecs()) == {"zarith_z"}
    assert sys.getrecursionlimit() == limit
    assert pytezos_codecs.block_header_forger()({}) == b""
    assert sys.getrecursionlimit() == limit
