"""The benchmark suite runs (``--quick``): every row checks that the
implementations agree before timing them. No time is asserted here: speed
targets live in ``benchmarks/README.md``, measured by ``make bench``."""

from __future__ import annotations

import gc
import importlib
import importlib.util
import re
import sys
import threading
from functools import partial
from types import SimpleNamespace
from typing import Any

import pytest
import pytezos_codecs
import run
import scaling

import data_encoding as de


def test_quick_benchmark_run_checks_and_reports_every_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # what the suite left on the heap is not the benchmark's: frozen, the
    # collector does not walk it at every collection of the timing loops
    gc.collect()
    gc.freeze()
    limits = de.max_depth(), sys.getrecursionlimit(), threading.stack_size()
    try:
        rows = run.main(["--quick"])
    finally:
        gc.unfreeze()
    # the deep series raised all three for its own threads only
    assert (de.max_depth(), sys.getrecursionlimit(), threading.stack_size()) == limits
    out = capsys.readouterr().out
    assert_deep_rows(out)
    assert_refusal_rows(out)
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


def cells(line: str) -> list[str]:
    """The cells of a markdown table row."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def number(cell: str) -> float:
    """The number that begins a cell ("0.812 µs / level", "8.97 (RSS)")."""
    return float(cell.split()[0])


def assert_deep_rows(out: str) -> None:
    """The scaling table printed by the quick run has the deep series: a row
    per operation and depth, positive, its peaks marked as RSS and the mark
    explained, and a linearity row per operation."""
    assert scaling.QUICK_SIZES.depths == (1_000, 10_000)
    rows = [cells(line) for line in out.splitlines() if line.startswith("| deep lists |")]
    sizes = [
        [op, size] for size in ("1,000 levels", "10,000 levels") for op in ("encode", "decode")
    ]
    assert [r[1:3] for r in rows[:4]] == sizes
    for row in rows[:4]:
        assert len(row) == 9
        assert row[4].endswith(" µs / level") and row[6].endswith(" µs / level")
        assert row[7].endswith(" (RSS)") and row[8].endswith(" B / level (RSS)")
        assert all(number(c) > 0 for c in row[3:])
    linearity = rows[4:]
    assert [r[1:3] for r in linearity] == [
        [op, "1,000 levels → 10,000 levels"] for op in ("encode", "decode")
    ]
    for row in linearity:
        assert len(row) == 6 and row[5].endswith(" (RSS)")
        assert all(number(c) > 0 for c in row[3:])
    assert scaling.RSS_NOTE in out


REFUSAL_OPS = (
    [(scaling.REFUSED, op) for op in ("decode", "encode", "length", "to_json", "from_json")]
    + [(scaling.TRIED, op) for op in ("encode", "length", "to_json", "from_json")]
    + [(scaling.PLAIN, f"{frames} frames a level") for frames in (3, 7)]
)


def assert_refusal_rows(out: str) -> None:
    """The scaling table printed by the quick run has the refusals at depth
    after the deep series: a row per direction and depth, its times positive
    and per level, no peak; and a linearity row per direction."""
    assert scaling.QUICK_SIZES.refusals == (100, 1_000)
    series = {series for series, _ in REFUSAL_OPS}
    rows = [cells(line) for line in out.splitlines() if line.startswith("|")]
    rows = [row for row in rows if row[0] in series]
    assert [tuple(r[:3]) for r in rows[:22]] == [
        (series, op, size) for size in ("100 levels", "1,000 levels") for series, op in REFUSAL_OPS
    ]
    for row in rows[:22]:
        assert len(row) == 9
        assert row[4].endswith(" µs / level") and row[6].endswith(" µs / level")
        assert all(number(row[c]) > 0 for c in (3, 4, 5, 6))
        assert row[7:] == ["—", "—"]
    linearity = rows[22:]
    assert [tuple(r[:3]) for r in linearity] == [
        (series, op, "100 levels → 1,000 levels") for series, op in REFUSAL_OPS
    ]
    for row in linearity:
        assert len(row) == 6 and number(row[3]) > 0 and number(row[4]) > 0 and row[5] == "—"


def test_each_refusal_must_be_the_error_expected_with_its_full_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The refusal series checks, before timing, that each direction raises
    exactly the error expected, its path of ``depth - 1`` steps: one that
    accepts its input, or raises another error, or one at another path, stops
    the run."""
    depth = 50
    cases = scaling.refusals(depth)
    full = (0,) * (depth - 1)
    assert [(c.series, c.op) for c in cases] == REFUSAL_OPS
    assert [c.expected for c in cases] == [
        (de.DecodeError, "not_enough_data", full),
        *[(de.EncodeError, "wrong_type", full)] * 3,
        (de.JsonError, "wrong_type", full),
        *[(de.EncodeError, "no_case_matched", full)] * 3,
        (de.JsonError, "no_case_matched", full),
        *[(scaling.PlainRefusal, "wrong_type", full)] * 2,
    ]
    expected = "deep lists, refused encode at 50: expected EncodeError wrong_type at a path"
    for outcome, said in [
        (None, "no error"),
        (
            (de.EncodeError, "too_deep", full),
            "EncodeError too_deep at a path of 49 steps among {0}",
        ),
        (
            (de.EncodeError, "wrong_type", full[1:]),
            "EncodeError wrong_type at a path of 48 steps among {0}",
        ),
    ]:
        wrong = cases[1]._replace(refuse=partial(lambda outcome: outcome, outcome))
        monkeypatch.setattr(scaling, "refusals", lambda depth, wrong=wrong: [*cases, wrong])
        message = f"{expected} of 49 steps among {{0}}, got {said}"
        with pytest.raises(AssertionError, match=f"^{re.escape(message)}$"):
            scaling.measure_refusals(depth)


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


def test_floors_remove_each_kind_of_check_and_keep_the_results() -> None:
    """Every step of ``floors.py`` removes something from the generated code
    of the workloads that have it (a step that finds nothing is left out, so
    the rows say which), and every variant still gives the same result."""
    import floors

    rows = floors.main(["--quick"])
    assert [(r.task, r.other) for r in rows] == [
        (f"{task}", "hand-written")
        for task in (
            "block_header: encode, as generated",
            "block_header: encode, without int guards",
            "block_header: encode, and bytes guards",
            "block_header: encode, and shape checks",
            "block_header: decode, as generated",
            "block_header: decode, and length checks",
            "records: encode, as generated",
            "records: encode, without int guards",
            "records: encode, and shape checks",
            "records: decode, as generated",
            "records: decode, without int31 ranges",
            "records: decode, and length checks",
        )
    ]
