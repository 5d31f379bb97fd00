"""``--jobs N`` on ``--lines``: the lines converted in N worker processes
(two here), the output, the errors, the summary and the exit status those
of ``--jobs 1``, byte for byte."""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from cli_runner import Result, Run
from data_encoding import parallel
from data_encoding.arrow import values_of
from data_encoding.node import registry

COUNT = 2_500
"""Lines of a run: two chunk boundaries of the workers (1 000 lines a chunk)."""

BAD = {4: "zz", 1_500: "00000003", 2_001: '{"id": 1}'}
"""The bad lines, by line number: not hex, too short, not a status's JSON."""


def _status(i: int) -> str:
    return json.dumps({"id": i, "pid": 1000 + i, "state": "running"})


def _status_hex(i: int) -> str:
    return f"{i:08x}00{1000 + i:08x}"


def _file(tmp_path: Path, name: str, line: object, bad: dict[int, str] | None = None) -> str:
    """A file of ``COUNT`` lines, ``line(i)`` each but the ``bad`` ones."""
    path = tmp_path / name
    lines = ((bad or {}).get(i + 1, line(i)) for i in range(COUNT))  # type: ignore[operator]
    path.write_text("".join(f"{x}\n" for x in lines))
    return str(path)


started: list[int] = []
"""The workers of each pool started (:func:`_counted`)."""


@pytest.fixture(autouse=True)
def _counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each pool the runs start, counted: ``--jobs 2`` does start one."""

    class Counted(ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: Any) -> None:
            started.append(workers)
            super().__init__(workers, **kwargs)

    started.clear()
    monkeypatch.setattr(parallel, "ProcessPoolExecutor", Counted)


def _both(run: Run, *argv: str) -> Result:
    """The result of ``--jobs 2`` (a pool of two workers), checked to be ``--jobs 1``'s."""
    pools = len(started)
    pooled = run(*argv, "--jobs", "2")
    assert started[pools:] == [2]
    assert pooled == run(*argv, "--jobs", "1")
    assert started[pools:] == [2]  # and none for --jobs 1
    return pooled


def test_the_lines_both_ways_in_order(run: Run, tmp_path: Path) -> None:
    encoded = _both(run, "encode", "admin.daemon_status", "--lines", _file(tmp_path, "j", _status))
    assert (encoded.status, encoded.err) == (0, "")
    assert encoded.text == "".join(f"{_status_hex(i)}\n" for i in range(COUNT))
    hexes = _file(tmp_path, "h", _status_hex)
    decoded = _both(run, "decode", "admin.daemon_status", "--lines", hexes)
    assert (decoded.status, decoded.err) == (0, "")
    assert decoded.text == "".join(
        f'{{"id":{i},"pid":{1000 + i},"state":"running"}}\n' for i in range(COUNT)
    )


def test_a_bad_line_stops_the_run_after_the_lines_before_it(run: Run, tmp_path: Path) -> None:
    source = _file(tmp_path, "h", _status_hex, {1_500: BAD[1_500]})
    r = _both(run, "decode", "admin.daemon_status", "--lines", source)
    assert r.status == 1
    assert r.text == "".join(
        f'{{"id":{i},"pid":{1000 + i},"state":"running"}}\n' for i in range(1_499)
    )
    assert r.err == (
        "error: line 1500: not_enough_data at $ (byte 4): "
        "not enough data for the tag of a union process_state: need 1 byte, 0 left\n"
    )


def test_keep_going_reports_each_bad_line_in_order(run: Run, tmp_path: Path) -> None:
    source = _file(tmp_path, "h", _status_hex, BAD)
    r = _both(run, "decode", "admin.daemon_status", "--lines", "--keep-going", source)
    assert r.status == 1
    lines = r.text.split("\n")
    assert [i + 1 for i, line in enumerate(lines) if not line] == [*BAD, COUNT + 1]
    assert r.err == (
        "error: line 4: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
        "error: line 1500: not_enough_data at $ (byte 4): "
        "not enough data for the tag of a union process_state: need 1 byte, 0 left\n"
        "error: line 2001: invalid_hex at $: the line is not hexadecimal: '{' at byte 0\n"
        "error: 3 of 2500 lines failed (lines 4, 1500, 2001)\n"
    )
    source = _file(tmp_path, "j", _status, BAD)
    r = _both(run, "encode", "admin.daemon_status", "--lines", "--keep-going", source)
    assert r.err == (
        "error: line 4: invalid_json at $: not valid JSON: Expecting value: "
        "line 1 column 1 (char 0)\n"
        "error: line 1500: invalid_json at $: not valid JSON: Extra data: "
        "line 1 column 2 (char 1)\n"
        "error: line 2001: missing_field at $.state: missing field 'state'\n"
        "error: 3 of 2500 lines failed (lines 4, 1500, 2001)\n"
    )


def test_the_rows_of_a_table_in_order(run: Run, tmp_path: Path) -> None:
    header = registry.find("shell.block_header")
    hexes = [str(s["hex"]) for s in header.samples["valid"]]
    source = _file(tmp_path, "h", lambda i: hexes[i % len(hexes)], {1_200: "zz"})
    tables = []
    for jobs in ("1", "2"):
        out = tmp_path / f"headers-{jobs}.parquet"
        r = run(
            "decode", header.id, "--lines", source, "--keep-going", "--jobs", jobs,
            "--to", "parquet", str(out),
        )  # fmt: skip
        assert (r.status, r.out) == (1, b"")
        assert started == ([2] if jobs == "2" else [])  # --jobs 1 starts none
        assert r.err == (
            "error: line 1200: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
            "error: 1 of 2500 lines failed (lines 1200)\n"
        )
        tables.append(pq.read_table(out))
    assert tables[0] == tables[1]
    expected = [bytes.fromhex(hexes[i % len(hexes)]) for i in range(COUNT) if i != 1_199]
    assert values_of(header.encoding, tables[1]) == [header.encoding.decode(b) for b in expected]


def test_a_codec_rebuilt_from_a_describe_answer(run: Run, tmp_path: Path) -> None:
    """Sent to the workers as its schemas, and rebuilt there."""
    answer = ["--describe", "tests/vectors/describe-mempool-2022.json"]
    service = ["--at", "/chains/main/mempool", "GET /chains/main/mempool/filter"]
    fees = "0000001b1b000000026d696e696d616c5f6665657300040000003230300000"
    r = _both(run, "decode", *answer, *service, "--lines", _file(tmp_path, "h", lambda i: fees))
    assert (r.status, r.text, r.err) == (0, '{"minimal_fees":"200"}\n' * COUNT, "")
    source = _file(tmp_path, "j", lambda i: '{"minimal_fees": "200"}')
    r = _both(run, "encode", *answer, *service, "--lines", source)
    assert (r.status, r.text, r.err) == (0, f"{fees}\n" * COUNT, "")


def test_the_progress_bar(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from data_encoding.cli import batch

    monkeypatch.setattr(batch, "STRIDE", 1_000)
    monkeypatch.setattr(batch, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = _file(tmp_path, "h", lambda i: "0000000000000001")
    r = _both(run, "decode", "int64", "--lines", source)
    blank = "\r" + " " * 60 + "\r"
    assert (r.status, r.text) == (0, '"1"\n' * COUNT)
    assert r.err == (
        "\r 40% [############..................] 1000 lines"
        f"\r 80% [########################......] 2000 lines{blank}"
    )


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_takes_a_positive_number(run: Run, jobs: str) -> None:
    r = run("decode", "int64", "--lines", "--jobs", jobs)
    assert (r.status, r.out) == (2, b"")
    assert r.err.endswith(f"error: argument --jobs: expected a positive integer, not '{jobs}'\n")


@pytest.mark.parametrize("command", ["encode", "decode"])
def test_jobs_needs_lines(run: Run, command: str) -> None:
    r = run(command, "int64", "--jobs", "2", "0")
    assert (r.status, r.out, r.err) == (
        2,
        b"",
        "error: --jobs converts lines in worker processes: it needs --lines\n",
    )
