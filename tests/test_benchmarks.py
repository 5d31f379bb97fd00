"""The benchmark suite runs (``--quick``): every row checks that the
implementations agree before timing them. No time is asserted here: speed
targets live in ``benchmarks/README.md``, measured by ``make bench``."""

from __future__ import annotations

import importlib.util
import sys

import run


def test_quick_benchmark_run_checks_and_reports_every_row() -> None:
    rows = run.main(["--quick"])
    peers = ["hand-written"]
    if importlib.util.find_spec("construct") is not None:
        peers += ["construct", "construct (compiled)"]
    pytezos = ["pytezos"] if importlib.util.find_spec("pytezos") is not None else []
    json_peer = "hand-written + " + ("orjson" if importlib.util.find_spec("orjson") else "json")
    assert [(r.task, r.other) for r in rows] == [
        (f"{name}: {op}", peer)
        for name in ("block_header", "zarith_z", "records")
        for op in ("encode", "decode")
        for peer in peers + (pytezos if name == "zarith_z" else [])
    ] + [
        (f"{name}: {op}", json_peer)
        for name in ("block_header", "records")
        for op in ("json->bytes", "bytes->json")
    ]
    assert all(len(r.ratios) == 3 and all(x > 0 for x in r.ratios) for r in rows)


def test_peers_leave_the_recursion_limit_alone() -> None:
    """pytezos raises it on import; the benchmark puts it back, since the
    ``too_deep`` errors of the library depend on it."""
    limit = sys.getrecursionlimit()
    run.peers("zarith_z")
    assert sys.getrecursionlimit() == limit
