"""The ``data-encoding`` command, driven through ``main(argv)``: every command,
its output exactly, its errors and exit statuses, and its inputs (an
argument, ``@file``, stdin)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogue_ids import ENCODING_IDS, OWN_SAMPLES, SAMPLED_IDS
from cli_runner import Run
from data_encoding import DataEncodingError
from data_encoding.cli import main
from data_encoding.cli.output import error_text
from data_encoding.jsonvalue import dumps, loads
from data_encoding.node import registry
from golden import VECTORS, one_zero_words

IDS = registry.ids()
BINARY_IDS = [i for i in IDS if registry.find(i).samples["valid"][0].get("hex") is not None]
BINARY_ENCODING_IDS = [i for i in ENCODING_IDS if i in BINARY_IDS]
BINARY_SAMPLED_IDS = [i for i in SAMPLED_IDS if i in BINARY_IDS]
"""The commands run on each sample once per encoding, and on each encoding
once (``catalogue_ids``: every id names the encoding whose samples were checked)."""


STATUS = '{"id": 3, "pid": 4242, "state": "running"}'
STATUS_HEX = "000000030000001092"


# ------------------------------------------------------------------ usage


def test_no_command_is_a_usage_error(run: Run) -> None:
    r = run()
    assert (r.status, r.out) == (2, b"")
    assert r.err.startswith("usage: data-encoding [-h] [--version] COMMAND ...\n")
    assert r.err.endswith("error: the following arguments are required: COMMAND\n")


COMMANDS = ["list", "describe", "encode", "decode", "slice", "sample", "describe-rpc", "dump"]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(run: Run, command: str) -> None:
    r = run(command, "--help")
    assert (r.status, r.err) == (0, "")
    assert r.text.startswith(f"usage: data-encoding {command} ")
    examples = r.text.split("\nexamples:\n")[1].splitlines()
    assert examples and all(line.startswith(f"  data-encoding {command} ") for line in examples)


def test_the_version(run: Run) -> None:
    from data_encoding import __version__

    r = run("--version")
    assert (r.status, r.text, r.err) == (0, f"data-encoding {__version__}\n", "")


def test_the_top_help_lists_the_commands(run: Run) -> None:
    r = run("--help")
    assert r.status == 0
    for command in COMMANDS:
        assert re.search(rf"\n    {command}\s+[a-zA-Z]", r.text), command


def test_the_top_help_ends_with_examples_that_run(run: Run) -> None:
    examples = run("--help").text.split("\nexamples:\n")[1].splitlines()
    assert examples == [
        "  data-encoding list admin.",
        "  data-encoding encode admin.daemon_status "
        """'{"id": 3, "pid": 7, "state": "running"}'""",
        "  data-encoding decode admin.daemon_status 000000030000000007",
        "  data-encoding <command> --help",
    ]
    assert run("encode", "admin.daemon_status", '{"id": 3, "pid": 7, "state": "running"}').text == (
        "000000030000000007\n"
    )


def test_an_unknown_id_suggests_the_closest(run: Run) -> None:
    r = run("decode", "admin.daemon_stats", "00")
    assert (r.status, r.out) == (2, b"")
    assert r.err == (
        "error: unknown id 'admin.daemon_stats'; did you mean 'admin.daemon_status' or "
        "'admin.daemons' or 'admin.daemon'?\n"
    )
    assert run("encode", "nothing.like.it", "1").err == "error: unknown id 'nothing.like.it'\n"


def test_an_unknown_option_is_a_usage_error(run: Run) -> None:
    r = run("decode", "int64", "--pretty")
    assert (r.status, r.out) == (2, b"")
    assert r.err.endswith("error: unrecognized arguments: --pretty\n")


def test_a_missing_file_is_a_usage_error(run: Run, tmp_path: Path) -> None:
    r = run("decode", "int64", f"@{tmp_path}/absent.hex")
    assert (r.status, r.out) == (2, b"")
    assert r.err == f"error: cannot read '{tmp_path}/absent.hex': No such file or directory\n"


# ------------------------------------------------------------------- list


def test_list_shows_every_id_with_its_section_description_and_constant(run: Run) -> None:
    r = run("list")
    assert (r.status, r.err) == (0, "")
    lines = r.text.splitlines()
    assert [line.split()[0] for line in lines] == IDS
    assert [line.split()[-1] for line in lines] == [registry.find(i).constant for i in IDS]
    # four columns, aligned (two spaces at least between them)
    assert re.split(" {2,}", lines[IDS.index("chain.checkpoint")]) == [
        "chain.checkpoint",
        "2 Checkpoint",
        "a chain's checkpoint and history mode",
        "data_encoding.node.catalogue.chains.CHECKPOINT",
    ]
    starts = {tuple(gap.end() for gap in re.finditer(" {2,}", line)) for line in lines}
    assert len(starts) == 1 and len(starts.pop()) == 3


def test_list_filters_by_a_part_of_the_id_or_a_glob(run: Run) -> None:
    assert run("list", "chain.invalid*").text == (
        "chain.invalid_block   2 Invalid block record  a block recorded as invalid      "
        "data_encoding.node.catalogue.chains.INVALID_BLOCK\n"
        "chain.invalid_blocks  4.2 Chains              a list of invalid block records  "
        "data_encoding.node.catalogue.chains.INVALID_BLOCKS\n"
    )
    assert [line.split()[0] for line in run("list", "chain.").text.splitlines()] == [
        "chain.block_metadata", "chain.blocks", "chain.checkpoint", "chain.history_mode",
        "chain.invalid_block", "chain.invalid_blocks",
    ]  # fmt: skip
    assert [line.split()[0] for line in run("list", "*hash").text.splitlines()] == [
        "block_hash", "context_hash", "ed25519.public_key_hash", "operation_list_list_hash",
        "protocol_hash", "signature.public_key_hash",
    ]  # fmt: skip


def test_list_in_json(run: Run) -> None:
    r = run("list", "admin.start_*", "--json")
    assert r.text == (
        '[{"id":"admin.start_accuser","section":"4.1 Administration",'
        '"description":"the body of daemons/start_accuser",'
        '"constant":"data_encoding.node.catalogue.admin.START_ACCUSER"},'
        '{"id":"admin.start_baker","section":"4.1 Administration",'
        '"description":"the body of daemons/start_baker",'
        '"constant":"data_encoding.node.catalogue.admin.START_BAKER"},'
        '{"id":"admin.start_endorser","section":"4.1 Administration",'
        '"description":"the body of daemons/start_endorser",'
        '"constant":"data_encoding.node.catalogue.admin.START_ENDORSER"}]\n'
    )
    listed = json.loads(run("list", "--json").text)
    assert listed == [
        {"id": id, "section": e.section, "description": e.description, "constant": e.constant}
        for id, e in ((id, registry.find(id)) for id in IDS)
    ]


def test_list_of_nothing_is_bad_data_not_bad_usage(run: Run) -> None:
    r = run("list", "zzz")
    assert (r.status, r.out) == (1, b"")
    assert r.err == "error: no id matches 'zzz' (data-encoding list shows them all)\n"


def test_json_is_indented_on_a_terminal(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert run("list", "chain.history_mode", "--json").text == (
        "[\n"
        "  {\n"
        '    "id": "chain.history_mode",\n'
        '    "section": "2 Checkpoint",\n'
        '    "description": "archive, full or rolling",\n'
        '    "constant": "data_encoding.node.catalogue.chains.HISTORY_MODE"\n'
        "  }\n"
        "]\n"
    )
    assert run("decode", "admin.daemon_status", STATUS_HEX, "--compact").text == (
        '{"id":3,"pid":4242,"state":"running"}\n'
    )


# --------------------------------------------------------------- describe


def test_describe_prints_the_tables_by_default(run: Run) -> None:
    r = run("describe", "chain.history_mode")
    assert (r.status, r.err) == (0, "")
    table = registry.find("chain.history_mode").encoding.table().rstrip("\n") + "\n"
    expected = (
        "chain.history_mode (2 Checkpoint): archive, full or rolling\n"
        "from data_encoding.node.catalogue.chains import HISTORY_MODE\n\n" + table
    )
    assert r.text == expected
    assert table.startswith(
        "+-----------------+--------+----------+\n| Name            | Size   | Contents |\n"
    )
    assert run("describe", "chain.history_mode", "--table").text == expected


def test_describe_the_binary_schema_in_either_dialect(run: Run) -> None:
    legacy = run("describe", "chain.history_mode", "--binary-schema").text
    modern = run("describe", "chain.history_mode", "--binary-schema", "--dialect", "modern").text
    field = (
        '{"layout":{"name":"X_0","kind":"Ref"},"kind":"anon","data_kind":{"size":1,"kind":"%s"}}'
    )
    enum = '{"size":"Uint8","cases":[[0,"archive"],[1,"full"],[2,"rolling"]]}'
    template = (
        '{"toplevel":{"fields":[%s]},"fields":[{"description":{"title":"X_0"},"encoding":%s}]}\n'
    )
    assert legacy == template % (field % "Float", enum)
    assert modern == template % (field % "Fixed", enum)


def test_describe_the_json_schema(run: Run) -> None:
    assert run("describe", "chain.history_mode", "--json-schema").text == (
        '{"$schema":"http://json-schema.org/draft-04/schema#","type":"string",'
        '"enum":["rolling","full","archive"]}\n'
    )


def test_describe_takes_one_form(run: Run) -> None:
    r = run("describe", "int64", "--table", "--json-schema")
    assert r.status == 2
    assert r.err.endswith("error: argument --json-schema: not allowed with argument --table\n")
    r = run("describe", "int64", "--dialect", "1.0")
    assert r.status == 2
    assert "argument --dialect: invalid choice: '1.0' (choose from" in r.err


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_describe_every_id(run: Run, id: str) -> None:
    entry = registry.find(id)
    e = entry.encoding
    module, name = entry.constant.rsplit(".", 1)
    assert run("describe", id).text == (
        f"{id} ({entry.section}): {entry.description}\nfrom {module} import {name}\n\n"
        + e.table().rstrip("\n")
        + "\n"
    )
    schema = json.loads(run("describe", id, "--json-schema", "--dialect", "modern").text)
    assert schema == e.json_schema("1.0")
    binary = run("describe", id, "--binary-schema")
    assert binary.status == 0
    from data_encoding import binary_schema

    assert json.loads(binary.text) == binary_schema.to_json(e.describe())


# ----------------------------------------------------------------- encode


def test_encode_json_from_an_argument_a_file_or_stdin(run: Run, tmp_path: Path) -> None:
    assert run("encode", "admin.daemon_status", STATUS).text == STATUS_HEX + "\n"
    (tmp_path / "status.json").write_text(STATUS)
    assert run("encode", "admin.daemon_status", f"@{tmp_path}/status.json").text == (
        STATUS_HEX + "\n"
    )
    assert run("encode", "admin.daemon_status", stdin=STATUS).text == STATUS_HEX + "\n"
    assert run("encode", "admin.daemon_status", "-", stdin=STATUS).text == STATUS_HEX + "\n"


def test_encode_raw_writes_the_bytes(run: Run) -> None:
    r = run("encode", "admin.daemon_status", STATUS, "--raw")
    assert (r.status, r.out, r.err) == (0, bytes.fromhex(STATUS_HEX), "")


def test_encode_errors(run: Run) -> None:
    r = run("encode", "admin.daemon_status", '{"pid": 1, "state": "running"}')
    assert (r.status, r.out) == (1, b"")
    assert r.err == "error: missing_field at $.id: missing field 'id'\n"
    r = run("encode", "admin.daemon_status", '{"id": 1,')
    assert r.status == 1
    assert r.err == (
        "error: invalid_json at $: not valid JSON: Expecting property name enclosed in double "
        "quotes: line 1 column 10 (char 9)\n"
    )
    r = run("encode", "int64", "NaN")
    assert (r.status, r.err) == (1, "error: invalid_json at $: NaN is not a JSON number\n")


@pytest.mark.parametrize("id", BINARY_SAMPLED_IDS)
def test_encode_every_id(run: Run, id: str) -> None:
    for s in OWN_SAMPLES[id]["valid"]:
        r = run("encode", id, json.dumps(s["json"]))
        assert (r.status, r.text, r.err) == (0, f"{s['hex']}\n", "")


# ----------------------------------------------------------------- decode


def test_decode_hex_from_an_argument_a_file_or_stdin(run: Run, tmp_path: Path) -> None:
    out = '{"id":3,"pid":4242,"state":"running"}\n'
    assert run("decode", "admin.daemon_status", STATUS_HEX).text == out
    assert run("decode", "admin.daemon_status", "0x" + STATUS_HEX).text == out
    (tmp_path / "status.hex").write_text("00000003 00000010\n92\n")
    assert run("decode", "admin.daemon_status", f"@{tmp_path}/status.hex").text == out
    assert run("decode", "admin.daemon_status", stdin=STATUS_HEX + "\n").text == out
    assert run("decode", "admin.daemon_status", "-", stdin=STATUS_HEX).text == out


def test_decode_raw_reads_bytes_from_a_file_or_stdin(run: Run, tmp_path: Path) -> None:
    out = '{"id":3,"pid":4242,"state":"running"}\n'
    (tmp_path / "status.bin").write_bytes(bytes.fromhex(STATUS_HEX))
    assert run("decode", "admin.daemon_status", "--raw", f"{tmp_path}/status.bin").text == out
    assert run("decode", "admin.daemon_status", "--raw", f"@{tmp_path}/status.bin").text == out
    assert run("decode", "admin.daemon_status", "--raw", stdin=bytes.fromhex(STATUS_HEX)).text == (
        out
    )


def test_decode_errors_say_code_path_and_offset(run: Run) -> None:
    r = run("decode", "admin.daemon_status", "0000000300000010")
    assert (r.status, r.out) == (1, b"")
    assert r.err == (
        "error: not_enough_data at $.pid (byte 5): "
        "not enough data for int31: need 4 bytes, 3 left\n"
    )
    r = run("decode", "admin.daemon_status", "000000030700001092")
    assert r.err == (
        "error: unexpected_tag at $ (byte 4): unexpected tag 7 for union process_state "
        "(known tags: [0, 1, 2, 3])\n"
    )
    r = run("decode", "admin.daemon_status", STATUS_HEX + "00")
    assert (
        r.err == "error: extra_bytes at $ (byte 9): extra bytes: the value ends at byte 9 of 10\n"
    )


# an exited daemon whose exit code's presence byte is 02: the node reads it
EXITED_02 = "00000003" + "01" + "00001092" + "02" + "00000001"


def test_decode_lenient_reads_what_the_node_reads(run: Run, tmp_path: Path) -> None:
    """``--lenient``: bytes the library would not write, read as the node
    reads them (README, Strictness); refused without it."""
    r = run("decode", "admin.daemon_status", EXITED_02)
    assert (r.status, r.out) == (1, b"")
    assert r.err == (
        "error: invalid_presence_flag at $.code (byte 9): "
        "invalid presence byte 0x02 (only 0x00 and 0xff)\n"
    )
    out = '{"id":3,"pid":4242,"state":"exited","code":1}\n'
    r = run("decode", "admin.daemon_status", "--lenient", EXITED_02)
    assert (r.status, r.text, r.err) == (0, out, "")
    (tmp_path / "status.bin").write_bytes(bytes.fromhex(EXITED_02))
    r = run("decode", "admin.daemon_status", "--lenient", "--raw", f"{tmp_path}/status.bin")
    assert (r.status, r.text) == (0, out)
    # canonical bytes read alike; bytes the node refuses too are refused, as without it
    assert run("decode", "admin.daemon_status", "--lenient", STATUS_HEX).text == (
        '{"id":3,"pid":4242,"state":"running"}\n'
    )
    r = run("decode", "admin.daemon_status", "--lenient", "000000030700001092")
    assert (r.status, r.err) == (
        1,
        "error: unexpected_tag at $ (byte 4): unexpected tag 7 for union process_state "
        "(known tags: [0, 1, 2, 3])\n",
    )


def test_batch_decode_lenient(run: Run) -> None:
    stdin = f"{EXITED_02}\n{EXITED_02[:-2]}\n{STATUS_HEX}\n"
    r = run("decode", "admin.daemon_status", "--lines", "--keep-going", "--lenient", stdin=stdin)
    assert r.status == 1
    assert r.text.split("\n") == [
        '{"id":3,"pid":4242,"state":"exited","code":1}',
        "",  # line 2, the bad one
        '{"id":3,"pid":4242,"state":"running"}',
        "",
    ]
    assert r.err == (
        "error: line 2: not_enough_data at $.code (byte 10): "
        "not enough data for int31: need 4 bytes, 3 left\n"
        "error: 1 of 3 lines failed (lines 2)\n"
    )
    r = run("decode", "admin.daemon_status", "--lines", stdin=f"{EXITED_02}\n")
    assert (r.status, r.out) == (1, b"")
    assert r.err.startswith("error: line 1: invalid_presence_flag at $.code (byte 9)")


def test_decode_refuses_what_is_not_hex(run: Run) -> None:
    r = run("decode", "int64", "00 0g")
    assert (r.status, r.err) == (
        1,
        "error: invalid_hex at $: the argument is not hexadecimal: 'g' at byte 4\n",
    )
    r = run("decode", "int64", "000")
    assert r.err == "error: invalid_hex at $: the argument has an odd number of hex digits (3)\n"


def test_decode_of_a_file_that_is_not_text(run: Run, tmp_path: Path) -> None:
    (tmp_path / "x.bin").write_bytes(b"\xff\x00")
    r = run("decode", "int64", f"@{tmp_path}/x.bin")
    assert (r.status, r.err) == (
        1,
        f"error: invalid_utf8 at $: '{tmp_path}/x.bin' is not UTF-8 text: byte 0 is 0xff; "
        "for bytes, use --raw\n",
    )


def _decode_error(id: str, hex_text: str) -> DataEncodingError:
    """The library's own error for decoding ``hex_text`` as ``id``."""
    with pytest.raises(DataEncodingError) as caught:
        registry.find(id).encoding.decode(bytes.fromhex(hex_text))
    return caught.value


@pytest.mark.parametrize("id", BINARY_SAMPLED_IDS)
def test_decode_every_id(run: Run, id: str) -> None:
    for s in OWN_SAMPLES[id]["valid"]:
        r = run("decode", id, str(s["hex"]))
        assert r.status == 0
        assert json.loads(r.text) == s.get("decoded", s["json"])
    for s in OWN_SAMPLES[id]["invalid"]:
        if "hex" in s:
            error = s["error"]
            assert isinstance(error, dict)
            r = run("decode", id, str(s["hex"]))
            assert (r.status, r.out) == (1, b"")
            byte = "" if error["offset"] is None else f" (byte {error['offset']})"
            assert r.err.startswith(f"error: {error['code']} at {error['path']}{byte}: ")
            assert r.err == f"error: {error_text(_decode_error(id, str(s['hex'])))}\n"


# ------------------------------------------------------------- batch mode


def _status(i: int) -> str:
    return json.dumps({"id": i, "pid": 1000 + i, "state": "running"})


def _status_hex(i: int) -> str:
    return f"{i:08x}00{1000 + i:08x}"


def test_batch_encode_from_stdin_line_by_line(run: Run) -> None:
    r = run(
        "encode",
        "admin.daemon_status",
        "--lines",
        stdin="".join(_status(i) + "\n" for i in range(3)),
    )
    assert (r.status, r.text, r.err) == (0, "".join(_status_hex(i) + "\n" for i in range(3)), "")


def test_batch_stops_at_the_first_bad_line(run: Run, tmp_path: Path) -> None:
    lines = [_status(0), '{"id": 1}', "", _status(3)]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    r = run("encode", "admin.daemon_status", "--lines", f"{tmp_path}/in.jsonl")
    assert (r.status, r.text) == (1, _status_hex(0) + "\n")
    assert r.err == "error: line 2: missing_field at $.state: missing field 'state'\n"


def test_batch_keeps_going_and_sums_up(run: Run, tmp_path: Path) -> None:
    lines = [_status(0), '{"id": 1}', "", _status(3)]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    r = run("encode", "admin.daemon_status", "--lines", "--keep-going", f"@{tmp_path}/in.jsonl")
    # an empty line for each bad one: output line N answers input line N
    assert (r.status, r.text) == (1, _status_hex(0) + "\n\n\n" + _status_hex(3) + "\n")
    assert r.err == (
        "error: line 2: missing_field at $.state: missing field 'state'\n"
        "error: line 3: invalid_json at $: not valid JSON: Expecting value: line 1 column 1 "
        "(char 0)\n"
        "error: 2 of 4 lines failed (lines 2, 3)\n"
    )


def test_batch_summary_lists_the_first_failures(run: Run) -> None:
    r = run("decode", "int64", "--lines", "--keep-going", stdin="zz\n" * 25 + "0000000000000001\n")
    assert r.status == 1
    assert r.text == "\n" * 25 + '"1"\n'
    assert r.err.splitlines()[-1] == (
        "error: 25 of 26 lines failed (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, "
        "16, 17, 18, 19, 20, ...)"
    )


def test_batch_decode_reads_crlf_and_reports_non_utf8_lines(run: Run) -> None:
    stdin = (_status_hex(1) + "\r\n").encode() + b"\xff\n" + (_status_hex(2) + "\n").encode()
    r = run("decode", "admin.daemon_status", "--lines", "--keep-going", stdin=stdin)
    assert r.text == (
        '{"id":1,"pid":1001,"state":"running"}\n\n{"id":2,"pid":1002,"state":"running"}\n'
    )
    assert r.err == (
        "error: line 2: invalid_utf8 at $: the line is not UTF-8 text: byte 0 is 0xff\n"
        "error: 1 of 3 lines failed (lines 2)\n"
    )


def test_batch_usage_errors(run: Run, tmp_path: Path) -> None:
    r = run("decode", "int64", "--lines", "--raw")
    assert (r.status, r.err) == (
        2,
        "error: --lines reads and writes text: it cannot be used with --raw\n",
    )
    r = run("encode", "int64", "--lines", f"{tmp_path}/absent")
    assert (r.status, r.err) == (
        2,
        f"error: cannot read '{tmp_path}/absent': No such file or directory "
        "(with --lines, INPUT is a file or -, not the data itself)\n",
    )


class _Watched:
    """A stdin whose every line checks that the result of the line before is
    already written: the batch streams, it does not read everything first."""

    def __init__(self, lines: list[bytes], written: Callable[[], int]) -> None:
        self.lines, self.written = lines, written

    @property
    def buffer(self) -> _Watched:
        return self

    def __iter__(self) -> Iterator[bytes]:
        for i, line in enumerate(self.lines):
            assert self.written() == i
            yield line


def test_batch_streams(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    lines = [(_status(i) + "\n").encode() for i in range(50)]
    monkeypatch.setattr(sys, "stdin", _Watched(lines, lambda: out.getvalue().count("\n")))
    assert main(["encode", "admin.daemon_status", "--lines"]) == 0
    assert out.getvalue() == "".join(_status_hex(i) + "\n" for i in range(50))


def test_batch_of_100_000_lines_both_ways(run: Run, tmp_path: Path) -> None:
    count = 100_000
    source = tmp_path / "statuses.jsonl"
    with source.open("w") as f:
        for i in range(count):
            f.write(_status(i) + "\n")
    encoded = run("encode", "admin.daemon_status", "--lines", str(source))
    assert (encoded.status, encoded.err) == (0, "")
    lines = encoded.text.split("\n")
    assert len(lines) == count + 1 and lines[-1] == ""
    for i in range(count):
        assert lines[i] == _status_hex(i), i
    hexes = tmp_path / "statuses.hex"
    hexes.write_bytes(encoded.out)
    decoded = run("decode", "admin.daemon_status", "--lines", str(hexes))
    assert (decoded.status, decoded.err) == (0, "")
    for i, line in enumerate(decoded.text.splitlines()):
        assert line == f'{{"id":{i},"pid":{1000 + i},"state":"running"}}', i
    assert decoded.text.count("\n") == count


def test_batch_draws_a_progress_bar_for_a_file_on_a_terminal(
    run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from data_encoding.cli import batch

    monkeypatch.setattr(batch, "STRIDE", 1)
    monkeypatch.setattr(batch, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    source = tmp_path / "in.hex"
    source.write_text("0000000000000001\nzz\n0000000000000002\n")  # 17 + 3 + 17 bytes
    r = run("decode", "int64", "--lines", "--keep-going", str(source))
    blank = "\r" + " " * 60 + "\r"
    assert r.text == '"1"\n\n"2"\n'
    assert r.err == (
        f"\r 46% [##############................] 1 lines{blank}"
        "error: line 2: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
        f"\r 54% [################..............] 2 lines"
        f"\r100% [##############################] 3 lines{blank}"
        "error: 1 of 3 lines failed (lines 2)\n"
    )
    # no bar when the input is stdin
    r = run("decode", "int64", "--lines", stdin="0000000000000001\n")
    assert (r.text, r.err) == ('"1"\n', "")


# ------------------------------------------------------------------ slice


def test_slice_prints_each_part(run: Run) -> None:
    r = run("slice", "admin.daemon_status", "0000000303000010920000000f")
    assert (r.status, r.err) == (0, "")
    assert r.text == (
        "bytes  size  path     what                  value         hex\n"
        "0..4      4  $.id     int31                 3             00000003\n"
        "4..5      1  $        tag                   3 (signaled)  03\n"
        "5..9      4  $.pid    int31                 4242          00001092\n"
        "9..9      0  $.state  constant('signaled')  \"signaled\"\n"
        "9..13     4  $.code   int31                 15            0000000f\n"
    )


def test_slice_shows_framing_and_long_values_cut(run: Run) -> None:
    hex_ = str(registry.find("admin.account_alias").samples["valid"][0]["hex"])
    r = run("slice", "admin.account_alias", hex_)
    assert r.text == (
        "bytes   size  path     what                       value"
        "                                   hex\n"
        "0..4       4  $.alias  size header (Uint30)       10 bytes"
        "                                0000000a\n"
        '4..14     10  $.alias  variable.string            "bootstrap1"'
        "                            626f6f74737472617031\n"
        '14..35    21  $.pkh    signature.public_key_hash  "dn1G8vdxwTcD7Nqf5ewF8FAj6bRG8iqtTgba"'
        "  000000000000000000000000000000000000000000\n"
    )
    r = run("slice", "unistring", "0000003c" + "61" * 60)
    assert r.text.splitlines()[2] == (
        '4..64    60  $     variable.string       "' + "a" * 52 + "...  " + "61" * 32 + "..."
    )


def test_slice_names_the_catalogues_leaves_by_their_ids(run: Run) -> None:
    """A leaf that is a catalogue entry is named by its id, what ``list`` and
    ``describe`` take, not by a Python name (``node.catalogue.chains.HISTORY_MODE``)."""
    hex_ = str(registry.find("chain.checkpoint").samples["valid"][0]["hex"])
    lines = run("slice", "chain.checkpoint", hex_).text.splitlines()
    start, end = lines[0].index("what"), lines[0].index("value")
    assert [line[start:end].rstrip() for line in lines[1:]] == [
        "size header (Uint30)",
        "int32",
        "uint8",
        "block_hash",
        "timestamp.protocol",
        "uint8",
        "operation_list_list_hash",
        "size header (Uint30)",
        "size header (Uint30)",
        "variable.bytes_",
        "size header (Uint30)",
        "variable.bytes_",
        "context_hash",
        "variable.bytes_",
        "int32",
        "int32",
        "chain.history_mode",
    ]


def test_slice_of_bytes_that_fail_shows_where(run: Run) -> None:
    r = run("slice", "admin.daemon_status", "000000030300001092000000")
    assert r.status == 1
    assert r.text == (
        "bytes  size  path     what                  value         hex\n"
        "0..4      4  $.id     int31                 3             00000003\n"
        "4..5      1  $        tag                   3 (signaled)  03\n"
        "5..9      4  $.pid    int31                 4242          00001092\n"
        "9..9      0  $.state  constant('signaled')  \"signaled\"\n"
        "9..12     3  $.code   not read                            000000\n"
    )
    assert r.err == (
        "error: not_enough_data at $.code (byte 9): "
        "not enough data for int31: need 4 bytes, 3 left\n"
    )
    r = run("slice", "admin.daemon_status", "000000030700001092")
    assert r.text == (
        "bytes  size  path  what      value  hex\n"
        "0..4      4  $.id  int31     3      00000003\n"
        "4..9      5  $     not read         0700001092\n"
    )
    assert r.err == (
        "error: unexpected_tag at $ (byte 4): unexpected tag 7 for union process_state "
        "(known tags: [0, 1, 2, 3])\n"
    )


def test_slice_lenient_reads_what_decode_lenient_reads(run: Run) -> None:
    data = "0000000301000010920200000001"  # a presence byte 02: the node reads it as present
    assert run("slice", "admin.daemon_status", data).status == 1
    r = run("slice", "admin.daemon_status", "--lenient", data)
    assert (r.status, r.err) == (0, "")
    assert r.text == (
        "bytes   size  path     what                value       hex\n"
        "0..4       4  $.id     int31               3           00000003\n"
        "4..5       1  $        tag                 1 (exited)  01\n"
        "5..9       4  $.pid    int31               4242        00001092\n"
        "9..9       0  $.state  constant('exited')  \"exited\"\n"
        "9..10      1  $.code   presence byte       present     02\n"
        "10..14     4  $.code   int31               1           00000001\n"
    )
    # z's negative zero: the node reads 0
    strict, lenient = run("slice", "--any", "40"), run("slice", "--any", "--lenient", "40")
    assert "bignum" not in strict.text.splitlines()
    assert lenient.text.startswith(
        'bignum\nbytes  size  path  what    value  hex\n0..1      1  $     bignum  "0"    40\n\n'
    )


def test_slice_reads_files_and_raw_bytes(run: Run, tmp_path: Path) -> None:
    expected = run("slice", "admin.daemon_status", STATUS_HEX).text
    assert expected.count("\n") == 5
    (tmp_path / "s.hex").write_text(STATUS_HEX)
    (tmp_path / "s.bin").write_bytes(bytes.fromhex(STATUS_HEX))
    assert run("slice", "admin.daemon_status", f"@{tmp_path}/s.hex").text == expected
    assert run("slice", "admin.daemon_status", "--raw", f"{tmp_path}/s.bin").text == expected
    assert run("slice", "admin.daemon_status", stdin=STATUS_HEX).text == expected
    assert run("slice", "admin.daemon_status", "--raw", stdin=bytes.fromhex(STATUS_HEX)).text == (
        expected
    )
    assert run("slice", "admin.daemon", "00").status == 1
    assert run("slice", "admin.deamon", "00").status == 2


@pytest.mark.parametrize("id", BINARY_SAMPLED_IDS)
def test_slice_every_id(run: Run, id: str) -> None:
    from data_encoding.passes.binary.slicing import slice_bytes

    e = registry.find(id).encoding
    for s in OWN_SAMPLES[id]["valid"]:
        data = bytes.fromhex(str(s["hex"]))
        r = run("slice", id, data.hex())
        assert (r.status, r.err) == (0, "")
        rows = r.text.splitlines()
        assert len(rows) == 1 + len(slice_bytes(e, data).slices)
        assert [row.split()[0] for row in rows[1:]] == [
            f"{x.start}..{x.end}" for x in slice_bytes(e, data).slices
        ]
    for s in OWN_SAMPLES[id]["invalid"]:
        if "hex" in s:
            r = run("slice", id, str(s["hex"]))
            assert r.status == 1
            error = s["error"]
            assert isinstance(error, dict)
            assert r.err.startswith(f"error: {error['code']} at {error['path']}")
            assert r.err == f"error: {error_text(_decode_error(id, str(s['hex'])))}\n"


# ----------------------------------------------------------------- sample


def test_sample_is_repeatable_with_a_seed(run: Run) -> None:
    first = run("sample", "admin.daemon_status", "--count", "5", "--seed", "7")
    assert (first.status, first.err) == (0, "")
    assert run("sample", "admin.daemon_status", "--count", "5", "--seed", "7").text == first.text
    e = registry.find("admin.daemon_status").encoding
    lines = first.text.splitlines()
    assert len(lines) == 5
    for line in lines:
        drawn = json.loads(line)
        assert list(drawn) == ["json", "hex"]
        assert e.encode(e.from_json(drawn["json"])).hex() == drawn["hex"]
    others = {
        run("sample", "admin.daemon_status", "--count", "5", "--seed", str(s)).text
        for s in range(4)
    }
    assert len(others) > 1  # the seed matters


def test_sample_of_an_id_with_few_values(run: Run) -> None:
    r = run("sample", "chain.history_mode", "--count", "20", "--seed", "1")
    drawn = {json.loads(line)["hex"]: json.loads(line)["json"] for line in r.text.splitlines()}
    assert drawn == {"00": "archive", "01": "full", "02": "rolling"}


def test_sample_usage_errors(run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    r = run("sample", "int64", "--count", "0")
    assert r.status == 2
    assert r.err.endswith("error: argument --count: expected a positive integer, not '0'\n")
    monkeypatch.setitem(sys.modules, "hypothesis", None)  # as if it were not installed
    r = run("sample", "int64")
    assert (r.status, r.out) == (2, b"")
    assert r.err == (
        "error: sample needs Hypothesis, which is not installed: "
        "pip install 'data-encoding[hypothesis]'\n"
    )


@pytest.mark.parametrize("id", BINARY_ENCODING_IDS)
def test_sample_every_id(run: Run, id: str) -> None:
    e = registry.find(id).encoding
    r = run("sample", id, "--count", "3", "--seed", "0")
    assert (r.status, r.err) == (0, "")
    lines = r.text.split("\n")[:-1]  # (not splitlines: strings may hold U+2028)
    assert r.text.endswith("\n")
    assert 1 <= len(lines) <= 3
    for line in lines:
        drawn: Any = loads(line)  # (the library's reader keeps a member given twice)
        value = e.from_json(drawn["json"])
        assert e.encode(value).hex() == drawn["hex"]
        assert e.to_json(e.decode(bytes.fromhex(drawn["hex"]))) == drawn["json"]


# ----------------------------------------------------------- describe-rpc


def test_describe_rpc_answers_as_the_node(run: Run) -> None:
    from data_encoding.node import rpc

    tree = registry.find("rpc.service_tree").encoding
    r = run("describe-rpc", "/chains/main/checkpoint")
    assert (r.status, r.err) == (0, "")
    assert r.text.startswith(
        '{"static":{"get_service":{"meth":"GET","path":["chains",{"id":"single","name":"chain_id",'
    )
    assert json.loads(r.text) == tree.to_json(rpc.describe("/chains/main/checkpoint", False))
    binary = run("describe-rpc", "/chains/main/checkpoint", "--binary")
    assert binary.text.startswith("00ff00000000a40000000006636861696e73")
    assert tree.to_json(tree.decode(bytes.fromhex(binary.text))) == json.loads(r.text)


def test_describe_rpc_in_data_encoding_1_0s_words(run: Run) -> None:
    from data_encoding.node import rpc

    tree = registry.find("rpc.service_tree_v1").encoding
    answer = rpc.describe("/chains/main/checkpoint", False)
    r = run("describe-rpc", "/chains/main/checkpoint", "--dialect", "modern")
    assert (r.status, r.text, r.err) == (0, dumps(tree.to_json(answer)) + "\n", "")
    assert '"kind":"Fixed"' in r.text  # 1.0's word where legacy says "Float"
    binary = run("describe-rpc", "/chains/main/checkpoint", "--binary", "--dialect", "modern")
    assert (binary.status, binary.text, binary.err) == (0, tree.encode(answer).hex() + "\n", "")


def test_describe_rpc_recurses_from_the_root_by_default(run: Run) -> None:
    from data_encoding.node import rpc

    tree = registry.find("rpc.service_tree").encoding
    whole = json.loads(run("describe-rpc", "--recurse").text)
    assert whole == tree.to_json(rpc.describe("/", True))
    names = [s["name"] for s in whole["static"]["subdirs"]["suffixes"]]
    assert names[:3] == ["admin", "chains", "describe"]
    admin = json.loads(run("describe-rpc", "/admin", "--recurse").text)
    assert admin == tree.to_json(rpc.describe("/admin", True))


def test_describe_rpc_of_a_protocol_types_its_services(run: Run) -> None:
    from data_encoding.node import rpc

    tree = registry.find("rpc.service_tree").encoding
    forge = "/chains/main/blocks/head/helpers/forge/operations"
    for spelling in ("007-PsDELPH1", "PsDELPH1", "delphi"):
        r = run("describe-rpc", forge, "--protocol", spelling)
        assert (r.status, r.err) == (0, "")
        assert json.loads(r.text) == tree.to_json(rpc.describe(forge, False, protocol="delphi"))
    schema = json.loads(r.text)["static"]["post_service"]["input"]["json_schema"]
    assert schema["$ref"] == "#/definitions/operation.alpha.unsigned_operation"
    # without it, the seed's: any JSON
    seed = json.loads(run("describe-rpc", forge).text)["static"]["post_service"]
    assert seed["input"]["json_schema"] == {"$schema": "http://json-schema.org/draft-04/schema#"}


def test_describe_rpc_of_an_unknown_protocol(run: Run) -> None:
    r = run("describe-rpc", "/", "--protocol", "008-PtEdo2Zk")
    assert (r.status, r.out) == (2, b"")
    assert r.err == (
        "error: unknown protocol '008-PtEdo2Zk'; the protocols are 004-Pt24m4xi (Athens), "
        "005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), 007-PsDELPH1 (Delphi)\n"
    )


def test_describe_rpc_of_a_path_that_names_nothing(run: Run) -> None:
    r = run("describe-rpc", "/nope")
    assert (r.status, r.out, r.err) == (2, b"", "error: no RPC at /nope: no 'nope' here\n")
    r = run("describe-rpc", "/chains")
    assert (r.status, r.err) == (
        2,
        "error: no RPC at /chains: no service here (describe it with recurse)\n",
    )


# ------------------------------------------------------- the real command


def _installed() -> Path:
    script = Path(sys.executable).parent / "data-encoding"
    assert script.exists(), f"{script} is missing: install the project (make test does)"
    return script


def test_the_installed_console_script_runs_in_a_pipe() -> None:
    done = subprocess.run(
        [_installed(), "encode", "admin.daemon_status"],
        input=STATUS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, STATUS_HEX + "\n", "")
    done = subprocess.run(
        [_installed(), "decode", "admin.daemon_status", "00000003ff"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        "error: unexpected_tag at $ (byte 4): unexpected tag 255 for union process_state "
        "(known tags: [0, 1, 2, 3])\n"
    )


def test_a_real_answer_goes_through_a_pipe_of_the_installed_command() -> None:
    """``data-encoding encode ID @answer | data-encoding decode ID``: two processes, one pipe."""
    answer = VECTORS / "describe-mempool-2022.json"
    command: list[str | Path] = [_installed(), "encode", "rpc.service_tree_v1", f"@{answer}"]
    with subprocess.Popen(command, stdout=subprocess.PIPE) as encode:
        done = subprocess.run(
            [_installed(), "decode", "rpc.service_tree_v1"],
            stdin=encode.stdout,
            capture_output=True,
            check=False,
        )
    assert (encode.returncode, done.returncode, done.stderr) == (0, 0, b"")
    assert done.stdout.decode() == dumps(one_zero_words(loads(answer.read_text()))) + "\n"


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "data_encoding", "decode", "admin.daemon_status", STATUS_HEX],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        '{"id":3,"pid":4242,"state":"running"}\n',
        "",
    )


def test_the_command_starts_without_hypothesis() -> None:
    code = (
        "import sys; from data_encoding.cli import main; main(['list', 'int64']); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'hypothesis'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines()[-1] == "[]"
