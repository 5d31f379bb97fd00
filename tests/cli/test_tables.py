"""``decode --lines --to parquet|arrow FILE``: the lines' values as the
rows of a table, written a batch at a time, read back as the values."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet as pq
import pytest

import data_encoding
from cli_runner import Run
from data_encoding.arrow import Options, values_of
from data_encoding.node import registry

HEADER = registry.find("shell.block_header")
HEADERS = [HEADER.encoding.from_json(s["json"]) for s in HEADER.samples["valid"]]
OPERATION = registry.find("proto.psdelph1.operation")
OPERATIONS = [OPERATION.encoding.from_json(s["json"]) for s in OPERATION.samples["valid"]]


def _lines(e: Any, values: list[Any], bad: int | None = None) -> str:
    """The hex of ``values``, a line each, ``zz`` as line ``bad``."""
    lines = [e.encode(v).hex() for v in values]
    if bad is not None:
        lines.insert(bad - 1, "zz")
    return "".join(f"{line}\n" for line in lines)


@pytest.mark.parametrize("kind", ["parquet", "arrow"])
def test_the_lines_values_are_the_tables_rows_a_batch_at_a_time(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    from data_encoding.cli import tables

    monkeypatch.setattr(tables, "BATCH_ROWS", 2)
    values = HEADERS * 5
    out = tmp_path / f"headers.{kind}"
    r = run(
        "decode", "shell.block_header", "--lines", "--to", kind, str(out),
        stdin=_lines(HEADER.encoding, values),
    )  # fmt: skip
    assert (r.status, r.out, r.err) == (0, b"", "")
    if kind == "parquet":
        table = pq.read_table(out)
        assert pq.ParquetFile(out).metadata.num_row_groups == 3
    else:
        reader = pa.ipc.open_file(str(out))
        assert reader.num_record_batches == 3
        table = reader.read_all()
    assert values_of(HEADER.encoding, table) == values


def test_a_bad_line_stops_the_run_the_rows_before_it_written(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "headers.parquet"
    r = run(
        "decode", "shell.block_header", "--lines", "--to", "parquet", str(out),
        stdin=_lines(HEADER.encoding, HEADERS * 3, bad=3),
    )  # fmt: skip
    assert (r.status, r.out) == (1, b"")
    assert r.err == "error: line 3: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
    assert values_of(HEADER.encoding, pq.read_table(out)) == HEADERS * 2


@pytest.mark.parametrize("keep_going", [[], ["--keep-going"]])
def test_a_value_parquet_cannot_hold_stops_the_run_at_its_line(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keep_going: list[str]
) -> None:
    # a protocol timestamp is any int64 of seconds; Parquet's timestamps are
    # milliseconds: 2^62 s has none. Its line is named, the batches before
    # its own written (a Parquet writer that refused a batch takes no more)
    from data_encoding.cli import tables

    monkeypatch.setattr(tables, "BATCH_ROWS", 2)
    e = registry.find("timestamp.protocol").encoding
    out = tmp_path / "times.parquet"
    r = run(
        "decode", "timestamp.protocol", "--lines", *keep_going, "--to", "parquet", str(out),
        stdin=_lines(e, [0, 1, 2, 2**62, 4]),
    )  # fmt: skip
    assert (r.status, r.out) == (1, b"")
    assert r.err == (
        "error: line 4: parquet cannot hold its value: Integer overflow when casting "
        "timestamp value 4611686018427387904 from timestamp[s, tz=UTC] to timestamp[ms]\n"
    )
    assert values_of(e, pq.read_table(out)) == [0, 1]


def test_with_keep_going_a_bad_line_has_no_row(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "headers.arrow"
    r = run(
        "decode", "shell.block_header", "--lines", "--keep-going", "--to", "arrow", str(out),
        stdin=_lines(HEADER.encoding, HEADERS * 3, bad=2),
    )  # fmt: skip
    assert (r.status, r.out) == (1, b"")
    assert r.err == (
        "error: line 2: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
        "error: 1 of 4 lines failed (lines 2)\n"
    )
    assert values_of(HEADER.encoding, pa.ipc.open_file(str(out)).read_all()) == HEADERS * 3


def test_operations_need_their_micheline_as_json_text(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "operations.parquet"
    stdin = _lines(OPERATION.encoding, OPERATIONS)
    r = run("decode", OPERATION.id, "--lines", "--to", "parquet", str(out), stdin=stdin)
    assert (r.status, r.out) == (2, b"")
    assert r.err == (
        "error: --to parquet: arrow: the recursive encoding "
        "'micheline.michelson_v1.expression' has no columns (Options(recursive='json') places "
        "its values as JSON text) at $.contents[]<Transaction>.parameters.value\n"
    )
    assert not out.exists()
    r = run(
        "decode", OPERATION.id, "--lines", "--recursive", "json", "--to", "parquet", str(out),
        stdin=stdin,
    )  # fmt: skip
    assert (r.status, r.out, r.err) == (0, b"", "")
    recursive = Options(recursive="json")
    assert values_of(OPERATION.encoding, pq.read_table(out), recursive) == OPERATIONS


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--to", "parquet", "x"], "--to writes the lines' values: it needs --lines"),
        (["--lines", "--to", "csv", "x"], "--to: 'csv' is not a format (parquet or arrow)"),
        (["--lines", "--raw", "--to", "arrow", "x"], None),
    ],
)
def test_what_to_needs(run: Run, argv: list[str], message: str | None) -> None:
    r = run("decode", "shell.block_header", *argv)
    assert (r.status, r.out) == (2, b"")
    expected = message or "--lines reads and writes text: it cannot be used with --raw"
    assert r.err == f"error: {expected}\n"


def test_a_file_that_cannot_be_made_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    out = tmp_path / "missing" / "x.parquet"
    r = run("decode", "shell.block_header", "--lines", "--to", "parquet", str(out), stdin="")
    assert (r.status, r.out) == (2, b"")
    assert r.err.startswith(f"error: cannot write {out}: ")


def test_without_pyarrow_to_is_a_usage_error_naming_the_extra(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.delitem(sys.modules, "data_encoding.arrow", raising=False)
    monkeypatch.delattr(data_encoding, "arrow", raising=False)  # imported as if never before
    r = run("decode", "shell.block_header", "--lines", "--to", "parquet", str(tmp_path / "x"))
    assert (r.status, r.out) == (2, b"")
    assert r.err == (
        "error: --to parquet: data_encoding.arrow needs pyarrow, which is not installed: "
        "pip install 'data-encoding[arrow]'\n"
    )


def test_a_progress_bar_on_a_terminal(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from data_encoding.cli import batch

    monkeypatch.setattr(batch, "STRIDE", 1)
    monkeypatch.setattr(batch, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = tmp_path / "in.hex"
    source.write_text("0000000000000001\n0000000000000002\n")
    r = run("decode", "int64", "--lines", str(source), "--to", "arrow", str(tmp_path / "x"))
    blank = "\r" + " " * 60 + "\r"
    assert (r.status, r.out) == (0, b"")
    assert r.err == (
        "\r 50% [###############...............] 1 lines"
        f"\r100% [##############################] 2 lines{blank}"
    )
    table = pa.ipc.open_file(str(tmp_path / "x")).read_all()
    assert table.column("value").to_pylist() == [1, 2]
