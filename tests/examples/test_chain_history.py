"""The chain-history example (``examples/chain_history``): a generated
history decoded on a local Dask cluster of two processes gives the Parquet
datasets that the library gives in one process, and the two answers.

The history is generated once for the module (6 000 blocks, 23 440
records, 4 partitions of each kind); the cluster is made once and closed at
the end. The pipeline writes a file per partition named as its input, so
the files in the order of their names hold the rows in the history's
order (``read_dataset``), whichever worker wrote them.
"""

from __future__ import annotations

import ast
import datetime
from collections import Counter
from collections.abc import Iterator
from hashlib import blake2b
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from chain_history.__main__ import main
from chain_history.cluster import connect
from chain_history.history import PROTOCOL, History, draw_pools, generate
from chain_history.pipeline import (
    KINDS,
    OPTIONS,
    decode_history,
    decode_partition,
    decoding_tasks,
    partitions,
    read_dataset,
)
from chain_history.questions import Day, blocks_per_priority, transactions_per_day
from chain_history.records import read_records, write_records

import data_encoding
from data_encoding import DecodeError, arrow
from data_encoding.node import registry
from data_encoding.node.hashes import BlockHash

SEED = 20201112
BLOCKS, PARTITIONS = 6000, 4


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, History]:
    folder = tmp_path_factory.mktemp("history")
    return folder, generate(folder, BLOCKS, PARTITIONS, SEED)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a cluster's scheduler, as a real cluster's is given."""
    with connect(workers=2) as client:  # LocalCluster(processes=True, n_workers=2, threads...=1)
        yield str(client.scheduler_info()["address"])


@pytest.fixture(scope="module")
def dataset(
    history: tuple[Path, History], scheduler: str, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """The history decoded by the command, on the cluster at ``scheduler``."""
    target = tmp_path_factory.mktemp("dataset")
    main(["decode", str(history[0]), str(target), "--scheduler", scheduler])
    return target


def values(folder: Path, kind: str) -> list[Any]:
    """The values of every record of a kind of the history, in order, decoded here."""
    e = registry.find(f"proto.{PROTOCOL}.{kind}").encoding
    return [e.decode(record) for part in partitions(folder) for record in read_records(part)]


def test_the_generated_history_has_its_records(history: tuple[Path, History]) -> None:
    folder, made = history
    assert made.headers == [1500] * 4
    assert made.operations == [4317, 4379, 4340, 4404]
    assert made.records == 23_440
    headers = values(folder / "headers", "block_header")
    # a chain: levels and timestamps increase, each header names the one before
    assert [h["level"] for h in headers] == list(range(1_212_417, 1_212_417 + BLOCKS))
    assert all(a["timestamp"] < b["timestamp"] for a, b in pairwise(headers))
    e = registry.find(f"proto.{PROTOCOL}.block_header").encoding
    hashes = [BlockHash(blake2b(e.encode(h), digest_size=32).digest()) for h in headers]
    assert [h["predecessor"] for h in headers[1:]] == hashes[:-1]
    # the headers inside double-baking evidence are the chain's too (a drawn
    # timestamp may be any int64, which Parquet cannot hold)
    levels = {h["level"]: h["timestamp"] for h in headers}
    evidence = [
        (bh["level"], bh["timestamp"])
        for operation in values(folder / "operations", "operation")
        for content in operation["contents"]
        if content["kind"] == "double_baking_evidence"
        for bh in (content["bh1"], content["bh2"])
    ]
    assert len(evidence) == 24  # 12 pieces of evidence
    assert all(levels[level] == timestamp for level, timestamp in evidence)


def test_the_cluster_writes_what_one_process_writes(
    history: tuple[Path, History], dataset: Path, tmp_path: Path
) -> None:
    for kind in KINDS:
        e = registry.find(kind.encoding_id(PROTOCOL)).encoding
        expected = values(history[0] / kind.folder, kind.id)
        # the single-process result: every record decoded here, one table, one file
        pq.write_table(arrow.table_of(e, expected, OPTIONS), tmp_path / f"{kind.folder}.parquet")
        alone = pq.read_table(tmp_path / f"{kind.folder}.parquet")
        got = read_dataset(dataset / kind.folder)
        assert sorted(p.name for p in (dataset / kind.folder).iterdir()) == [
            f"part-{n:05d}.parquet" for n in range(PARTITIONS)
        ]
        assert got.num_rows == len(expected)
        assert got.schema == alone.schema
        assert got.equals(alone)
        assert arrow.values_of(e, got, OPTIONS) == expected


PRIORITIES = {0: 5508, 1: 371, 2: 87, 3: 34}
DAYS = {
    datetime.date(2020, 11, 12): Day(1318, 547_005_660_780),
    datetime.date(2020, 11, 13): Day(1268, 559_603_402_445),
    datetime.date(2020, 11, 14): Day(1349, 611_434_495_016),
    datetime.date(2020, 11, 15): Day(1270, 643_275_907_047),
    datetime.date(2020, 11, 16): Day(757, 325_015_130_311),
}


def test_the_answers_from_the_dataset(history: tuple[Path, History], dataset: Path) -> None:
    assert blocks_per_priority(dataset) == PRIORITIES
    assert transactions_per_day(dataset) == DAYS
    # the same, from the values decoded here: each operation in the block
    # whose predecessor is its branch
    headers = values(history[0] / "headers", "block_header")
    assert Counter(h["priority"] for h in headers) == PRIORITIES
    dates = {h["predecessor"]: h["timestamp"] for h in headers}
    days: dict[datetime.date, list[int]] = {}
    for operation in values(history[0] / "operations", "operation"):
        day = datetime.datetime.fromtimestamp(dates[operation["branch"]], datetime.UTC).date()
        for content in operation["contents"]:
            if content["kind"] == "transaction":
                days.setdefault(day, []).append(content["amount"])
    assert {day: Day(len(a), sum(a)) for day, a in sorted(days.items())} == DAYS


def test_the_command_answers_on_the_cluster(
    dataset: Path, scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["answer", str(dataset), "--scheduler", scheduler])
    assert capsys.readouterr().out.splitlines() == [
        "priority  blocks",
        "       0    5508",
        "       1     371",
        "       2      87",
        "       3      34",
        "day         transactions        volume (tez)",
        "2020-11-12          1318      547,005.660780",
        "2020-11-13          1268      559,603.402445",
        "2020-11-14          1349      611,434.495016",
        "2020-11-15          1270      643,275.907047",
        "2020-11-16           757      325,015.130311",
    ]


def test_hex_lines_and_framed_records_hold_the_same_records(tmp_path: Path) -> None:
    records = [bytes.fromhex("00"), b"", bytes(range(256)), b"\xff" * 70_000]
    write_records(tmp_path / "p.hex", records)
    write_records(tmp_path / "p.bin", records)
    # the frame: a uint30 length, big-endian, then the bytes
    assert (tmp_path / "p.bin").read_bytes()[:9] == bytes.fromhex("000000010000000000")
    assert (tmp_path / "p.hex").read_text().splitlines()[:2] == ["00", ""]
    assert list(read_records(tmp_path / "p.bin")) == records
    assert list(read_records(tmp_path / "p.hex")) == [r for r in records if r]  # a blank line
    with pytest.raises(ValueError, match=r"a partition is a \.hex or \.bin file"):
        list(read_records(tmp_path / "p.txt"))


def test_a_bad_record_is_named_and_leaves_no_file(tmp_path: Path) -> None:
    header = registry.find(f"proto.{PROTOCOL}.block_header").samples["valid"][0]["hex"]
    assert isinstance(header, str)
    write_records(tmp_path / "part-00000.hex", [bytes.fromhex(header)] * 2 + [b"\x00\x01"])
    target = tmp_path / "part-00000.parquet"
    with pytest.raises(DecodeError) as raised:
        decode_partition(f"proto.{PROTOCOL}.block_header", tmp_path / "part-00000.hex", target)
    assert raised.value.code == "not_enough_data"
    assert raised.value.__notes__ == [f"in {tmp_path / 'part-00000.hex'}, record 2"]
    assert not target.exists()
    # a record, then a frame of 5 bytes that holds 1: refused at the frame's offset
    (tmp_path / "bad.bin").write_bytes(bytes.fromhex("00000001ff0000000501"))
    with pytest.raises(DecodeError) as raised:
        list(read_records(tmp_path / "bad.bin"))
    assert (raised.value.code, raised.value.offset, raised.value.message) == (
        "not_enough_data",
        5,
        "length header says 5 bytes but only 1 remain",
    )


def test_a_value_parquet_cannot_hold_is_named_and_leaves_no_file(tmp_path: Path) -> None:
    pools = draw_pools(SEED)  # drawn once: the history's
    evidence = pools.contents["double_baking_evidence"][0]
    late = dict(evidence, bh1=dict(evidence["bh1"], timestamp=2**63 - 1))  # in the year 2.9e11
    e = registry.find(f"proto.{PROTOCOL}.operation").encoding
    signature = pools.headers[0]["signature"]
    records = [
        e.encode({"branch": bytes(32), "contents": contents, "signature": signature})
        for contents in ([{"kind": "endorsement", "level": 1}], [late])
    ]
    write_records(tmp_path / "part-00000.bin", records)
    target = tmp_path / "part-00000.parquet"
    with pytest.raises(pa.ArrowInvalid, match="Integer overflow") as raised:
        decode_partition(f"proto.{PROTOCOL}.operation", tmp_path / "part-00000.bin", target)
    assert raised.value.__notes__ == [f"in {tmp_path / 'part-00000.bin'}, records 0 to 1"]
    assert not target.exists()


def test_each_run_has_tasks_of_its_own(history: tuple[Path, History], tmp_path: Path) -> None:
    # a task named as one of an earlier run, whose result the scheduler still
    # holds, would be given that result (the earlier run's files) unrun
    first = decoding_tasks(history[0], tmp_path / "first", PROTOCOL)
    again = decoding_tasks(history[0], tmp_path / "again", PROTOCOL)
    assert len(first) == len(again) == 2 * PARTITIONS
    assert [str(t.key).rsplit("-", 1)[0] for t in first] == [
        f"decode-{kind}-part-{n:05d}" for kind in ("headers", "operations") for n in range(4)
    ]
    assert not {t.key for t in first} & {t.key for t in again}


def test_a_dataset_is_never_written_over(tmp_path: Path) -> None:
    (tmp_path / "out" / "headers").mkdir(parents=True)
    (tmp_path / "out" / "headers" / "part-00000.parquet").write_bytes(b"")
    with pytest.raises(FileExistsError, match="would mix two runs"):
        decode_history(tmp_path / "in", tmp_path / "out", PROTOCOL)


def _imported(source: str) -> Iterator[str]:
    """The top-level names of the modules ``source`` imports (not relative ones)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


def test_the_library_imports_no_dask() -> None:
    package = Path(data_encoding.__file__).parent
    imported = {name for path in package.rglob("*.py") for name in _imported(path.read_text())}
    assert "pyarrow" in imported  # what is seen: the Arrow pass's import
    assert not imported & {"dask", "distributed", "pandas"}
