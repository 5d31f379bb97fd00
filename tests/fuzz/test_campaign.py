"""``make fuzz``'s libFuzzer campaign (``fuzz/run.py``), run short.

Two small ids for a second each (libFuzzer stops at two): the corpus is seeded with the samples'
bytes, libFuzzer runs, the report lists both ids, nothing is found. Then the
target with a planted defect (``planted_target.py``): the campaign fails,
keeps the input, and the command it prints reproduces the failure.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import data_encoding as de
from data_encoding import EncodeError
from data_encoding.node import registry
from fuzz import libfuzzer, run, seeding, target

IDS = ["chain.history_mode", "int64"]
PLANTED = Path(__file__).resolve().with_name("planted_target.py")


def _contents(folder: Path) -> set[bytes]:
    return {path.read_bytes() for path in folder.iterdir()}


def test_a_short_campaign_seeds_runs_and_reports_each_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus, findings, saved = tmp_path / "corpus", tmp_path / "findings", tmp_path / "report.json"
    argv = ["--seconds", "1", "--seed", "1", "--jobs", "2", "--ids", ",".join(IDS)]
    argv += ["--corpus", str(corpus), "--findings", str(findings), "--report", str(saved)]

    assert run.main(argv) == 0

    report = json.loads(saved.read_text())
    assert sorted(report["ids"]) == IDS
    for id in IDS:
        samples = {bytes.fromhex(str(s["hex"])) for s in registry.find(id).samples["valid"]}
        assert samples and samples <= _contents(corpus / id)
        row = report["ids"][id]
        assert row["seeded"] >= len(samples)
        assert row["inputs"] > 0 and row["findings"] == [] and row["returncode"] == 0
        assert row["corpus"] == len(list((corpus / id).iterdir()))
    assert report["totals"]["ids"] == 2 and report["totals"]["findings"] == 0
    table = capsys.readouterr().out
    for id in IDS:
        assert re.search(rf"^{re.escape(id)}\s+\d+\s+\d+\s+[1-9]\d*\s", table, re.MULTILINE), table


def test_a_corpus_is_seeded_once(tmp_path: Path) -> None:
    """A folder that has files is left as it is: the next campaign goes on from it."""
    entry = registry.find("admin.daemon_status")
    assert seeding.seed(entry, tmp_path, 5) >= len(entry.samples["valid"])
    seeded = _contents(tmp_path)
    assert seeding.seed(entry, tmp_path, 5) == 0
    assert _contents(tmp_path) == seeded


def test_a_planted_defect_is_found_kept_and_reproduced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    id = "chain.history_mode"
    findings = tmp_path / "findings"
    argv = ["--seconds", "1", "--seed", "1", "--ids", id, "--target", str(PLANTED)]
    argv += ["--corpus", str(tmp_path / "corpus"), "--findings", str(findings)]

    assert run.main(argv) == 1

    found = sorted(p for p in (findings / id).iterdir() if p.name != libfuzzer.LOG_NAME)
    # "rolling" (02) re-encodes as "full" (01): the seeds hold it, libFuzzer runs them first
    assert [(p.name, p.read_bytes()) for p in found] == [
        ("crash-c4ea21bb365bbeeaf5f2c654883e56d11e43c44e", b"\x02")
    ]
    out = capsys.readouterr().out
    message = f"AssertionError: {id}: input 02 decodes, but re-encodes to 01"
    assert message in out
    command = re.search(r"^    reproduce: (.*)$", out, re.MULTILINE)
    assert command is not None
    assert command[1].endswith(str(found[0]))
    again = subprocess.run(
        command[1],
        shell=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    assert again.returncode != 0
    assert message in again.stdout


def test_the_final_statistics_and_the_last_status_line_are_read() -> None:
    output = "\n".join(
        [
            "#2\tINITED cov: 103 ft: 103 corp: 1/1b exec/s: 0 rss: 49Mb",
            "#70960\tDONE   cov: 1898 ft: 2284 corp: 287/20Kb lim: 172 exec/s: 11826 rss: 77Mb",
            "Done 70960 runs in 6 second(s)",
            "stat::number_of_executed_units: 70960",
            "stat::average_exec_per_sec:     11826",
            "stat::new_units_added:          474",
            "stat::slowest_unit_time_sec:    0",
            "stat::peak_rss_mb:              77",
        ]
    )
    assert libfuzzer.parse(output) == libfuzzer.Stats(70960, 11826, 474, 77, 1898, 2284)
    assert libfuzzer.parse("") == libfuzzer.Stats(None, None, None, None, None, None)


def test_ids_that_match_nothing_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        run.main(["--ids", "admin.*", "no.such.*"])
    assert stopped.value.code == 2
    assert "no id matches 'no.such.*'" in capsys.readouterr().err


def test_the_property_allows_the_documented_values_without_json_form() -> None:
    """Bytes hold values JSON cannot (a float that is not finite, a number
    past Python's printing limit, a bounded string that is not UTF-8): the
    property takes those refusals of ``to_json``, for those reasons only
    (the first campaigns' findings), when ``decode_json`` refuses alike."""
    for e, raw in (
        (de.float_, bytes.fromhex("7ff8000000000000")),
        (de.float_, bytes.fromhex("fff0000000000000")),
        (de.n, b"\xff" * 2100 + b"\x01"),
        (de.bounded.string(31), bytes.fromhex("02c4ff")),
    ):
        assert target.broken(e, raw, e.decode(raw)) is None
    # the JSON mode must refuse the same value with the same error
    silent = de.obj(de.req("x", de.float_))
    silent.__dict__["decode_json"] = lambda data: {"x": 0.0}
    nan = bytes.fromhex("7ff8000000000000")
    assert target.broken(silent, nan, silent.decode(nan)) == (
        "to_json refuses it (nan has no JSON form (not a finite number) at $.x), "
        "decode_json gives {'x': 0.0}"
    )
    # a value that should have a JSON form and has none is a finding
    narrower_in_json = de.splitted(json=de.int8, binary=de.uint8)
    with pytest.raises(EncodeError) as info:
        target.broken(narrower_in_json, b"\xc8", 200)
    assert info.value.code == "invalid_int"


def test_the_property_compares_the_json_mode_with_the_composition() -> None:
    """``decode_json`` must give ``to_json``'s JSON, and raise ``decode``'s
    error on bytes that do not decode; a planted disagreement is a finding."""
    e = de.obj(de.req("a", de.uint8))
    one_input = target.check("planted", e)
    one_input(b"\x07")
    one_input(b"")  # not enough data: the same error both ways
    e.__dict__["decode_json"] = lambda data: {"a": 8}  # a JSON mode that is wrong
    with pytest.raises(AssertionError) as wrong:
        one_input(b"\x07")
    assert (
        str(wrong.value) == 'planted: input 07 decodes, but decode_json gives {"a":8}, not {"a":7}'
    )
    with pytest.raises(AssertionError) as silent:
        one_input(b"")
    assert str(silent.value).startswith(
        "planted: input (empty): decode raises ('DecodeError', 'not_enough_data', 0, ("
    )
    assert str(silent.value).endswith("decode_json None")


def test_without_patterns_each_encoding_is_fuzzed_once() -> None:
    chosen = run.select([], run._parser())
    encodings = [registry.find(i).encoding for i in chosen]
    assert len({id(e) for e in encodings}) == len(chosen)  # no encoding twice
    assert {id(e.encoding) for e in registry.entries()} == {id(e) for e in encodings}
    assert all(registry.id_of(e) == i for i, e in zip(chosen, encodings, strict=True))
    assert "rpc.error" in chosen and "rpc.errors" not in chosen  # one encoding, two ids
    assert chosen == sorted(chosen)
