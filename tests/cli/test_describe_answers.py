"""The command line over a node's ``/describe`` answer (``--describe FILE``,
issue 31): ``encode`` and ``decode`` of a service's body, ``describe-rpc``
browsing the answer; on the real answers of the vectors (mempool subtrees,
asked at ``/chains/main/mempool``), in JSON and in binary."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_runner import Run
from data_encoding.jsonvalue import dumps, loads
from data_encoding.node import registry
from golden import VECTORS

DUMP = str(VECTORS / "describe-mempool-2022.json")
"""A real answer in 1.0's words (``exactly`` limits)."""
OLD_DUMP = str(VECTORS / "describe-mempool-2021.json")
"""A real answer in the legacy words."""
AT = ("--at", "/chains/main/mempool")
FILTER = "GET /chains/main/mempool/filter"
SET_FILTER = "POST /chains/main/mempool/filter"

CONFIG = (
    '{"minimal_fees":"100","minimal_nanotez_per_gas_unit":["100","1"],'
    '"minimal_nanotez_per_byte":["1000","1"],"allow_script_failure":true}'
)
"""The mempool filter's default configuration, as ``GET .../filter`` answers it."""
CONFIG_HEX = (
    "0000009d9d000000026d696e696d616c5f66656573000400000031303000046d696e696d616c5f6e616e6f"
    "74657a5f7065725f6761735f756e69740019000000023000040000003130300002310002000000310000"
    "046d696e696d616c5f6e616e6f74657a5f7065725f62797465001a000000023000050000003130303000"
    "0231000200000031000008616c6c6f775f7363726970745f6661696c757265000100"
)
"""Its binary form: the JSON value in BSON, behind its length (``json`` in the
reference; the JSON schema says it is no text)."""
CONFIG_JSON = CONFIG
"""What ``decode`` prints of it (piped: on one line)."""
FEES_HEX = "0000001b1b000000026d696e696d616c5f6665657300040000003230300000"
FEES_JSON = '{"minimal_fees":"200"}'


def _binary(tmp_path: Path, dump: str, tree: str) -> str:
    """``dump``'s binary form (through catalogue ``tree``) in a file."""
    encoding = registry.find(tree).encoding
    path = tmp_path / "answer.bin"
    path.write_bytes(encoding.encode(encoding.from_json(loads(Path(dump).read_text()))))
    return str(path)


# ------------------------------------------------------------------ decode and encode


def test_decode_reads_a_services_output_by_default(run: Run) -> None:
    for body in ((), ("--output",)):
        r = run("decode", "--describe", DUMP, *AT, FILTER, *body, CONFIG_HEX)
        assert (r.status, r.text, r.err) == (0, CONFIG_JSON + "\n", "")


def test_decode_reads_a_services_input_and_error(run: Run) -> None:
    r = run("decode", "--describe", DUMP, *AT, SET_FILTER, "--input", FEES_HEX)
    assert (r.status, r.text, r.err) == (0, FEES_JSON + "\n", "")
    r = run("decode", "--describe", DUMP, *AT, FILTER, "--error", "000000050500000000")
    assert (r.status, r.text, r.err) == (0, "{}\n", "")


def test_encode_writes_a_services_input(run: Run) -> None:
    r = run("encode", "--describe", DUMP, *AT, SET_FILTER, "--input", FEES_JSON)
    assert (r.status, r.text, r.err) == (0, FEES_HEX + "\n", "")
    r = run("encode", "--describe", DUMP, *AT, FILTER, CONFIG_JSON, "--raw")
    assert (r.status, r.out, r.err) == (0, bytes.fromhex(CONFIG_HEX), "")


def test_decode_with_the_other_options(run: Run, tmp_path: Path) -> None:
    raw = tmp_path / "config.bin"
    raw.write_bytes(bytes.fromhex(CONFIG_HEX))
    r = run("decode", "--describe", DUMP, *AT, FILTER, "--raw", str(raw))
    assert (r.status, r.text, r.err) == (0, CONFIG_JSON + "\n", "")
    # 01 for true: a lenient reading of a bool byte; this body has none, so it is strict alike
    r = run("decode", "--describe", DUMP, *AT, FILTER, "--lenient", "--compact", FEES_HEX)
    assert (r.status, r.text, r.err) == (0, FEES_JSON + "\n", "")


def test_lines_over_a_services_body(run: Run) -> None:
    lines = f"{CONFIG_HEX}\n000000167b\n{FEES_HEX}\n"
    r = run("decode", "--describe", DUMP, *AT, FILTER, "--lines", "--keep-going", stdin=lines)
    assert (r.status, r.text) == (1, f"{CONFIG_JSON}\n\n{FEES_JSON}\n")
    assert r.err == (
        "error: line 2: not_enough_data at $ (byte 0): length header says 22 bytes "
        "but only 1 remain\n"
        "error: 1 of 3 lines failed (lines 2)\n"
    )
    r = run("encode", "--describe", DUMP, *AT, SET_FILTER, "--input", "--lines", stdin=FEES_JSON)
    assert (r.status, r.text, r.err) == (0, FEES_HEX + "\n", "")


@pytest.mark.parametrize(
    ("dump", "tree", "dialect"),
    [
        (DUMP, "rpc.service_tree_v1", ("--dialect", "modern")),
        (OLD_DUMP, "rpc.service_tree", ()),  # legacy: the default
    ],
)
def test_a_binary_answer_is_told_by_its_first_byte(
    run: Run, tmp_path: Path, dump: str, tree: str, dialect: tuple[str, ...]
) -> None:
    binary = _binary(tmp_path, dump, tree)
    r = run("decode", "--describe", binary, *dialect, *AT, FILTER, CONFIG_HEX)
    assert (r.status, r.text, r.err) == (0, CONFIG_JSON + "\n", "")


# ------------------------------------------------------------------ what cannot be done


def _refused(r: object, message: str) -> None:
    assert (r.status, r.out, r.err) == (2, b"", f"error: {message}\n")  # type: ignore[attr-defined]


def test_a_service_the_answer_does_not_have(run: Run) -> None:
    _refused(
        run("decode", "--describe", DUMP, *AT, "GET /chains/main/mempool/ban_operation", "00"),
        f"GET /chains/main/mempool/ban_operation: no such service (in {DUMP!r})",
    )
    _refused(
        run("decode", "--describe", DUMP, *AT, "GET /chains/main/mempool/nothing", "00"),
        f"/chains/main/mempool/nothing: no 'nothing' here (in {DUMP!r})",
    )
    # asked below the root, read as if asked at it
    _refused(
        run("decode", "--describe", DUMP, FILTER, "00"),
        f"/chains/main/mempool/filter: no 'chains' here (in {DUMP!r}; "
        "an answer asked below / needs --at PATH)",
    )


@pytest.mark.parametrize("words", ["filter", "FETCH /chains/main/mempool/filter", "GET"])
def test_a_service_is_a_method_and_a_path(run: Run, words: str) -> None:
    _refused(
        run("decode", "--describe", DUMP, *AT, words, "00"),
        f"with --describe, ID is a service, 'METHOD PATH' (METHOD: GET, POST, DELETE, "
        f"PUT or PATCH), not {words!r}",
    )


def test_a_body_the_service_does_not_have(run: Run) -> None:
    _refused(
        run("decode", "--describe", DUMP, *AT, FILTER, "--input", "00"),
        "GET /chains/main/mempool/filter takes no input",
    )


COMMIT_HEX = (
    "0000012a"  # the list's size, then an operation: its hash (all zeros), its branch
    + "00" * 32
    + "00000020"
    + "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
    + "000000d9"  # its contents: a tx_rollup_commit (tag 152), source, fee, counter, limits
    + "98"
    + "0002298c03ed7d454a101eb7022bc95f7e5f41ac78"
    + "9005"
    + "03"
    + "b51a"
    + "00"
    + "00" * 20  # the rollup, the commitment's level and its messages, 64 bytes of hashes
    + "00000000"
    + "00000040"
    + "971808f601eff6881d1e59d638127e03d6b2d2dc4c399bfb67dc5a99078fb6f8"
    + "298406c38d3e3c057664bd80d18c0689022d301e6094db173abef16f4afd4607"
    + "00"  # no predecessor, the inbox's root (all zeros), the signature, no error
    + "00" * 32
    + "66804fe735e06e97e26da8236b6341b91c625d5e82b3524ec0a88cc982365e70"
    + "f8a5b9bc65df2ea6d21ee244cc3a96fb33031c394c78b1179ff1b8a44237740c"
    + "000000050500000000"
)
"""A Jakarta mempool's answer to ``monitor_operations``: one tx rollup
commitment, whose messages are a list of ``Message_result_hash`` (two the
node's tests use, tezt's ``tx_rollup_initial_message_result`` and one of
``tx_rollup.ml``)."""

COMMIT_JSON = (
    '[{"protocol":"PtJakart2xVj7pYXJBXrqHgd82rdkLey5ZeeGwDgPp9rhQUbSqY",'
    '"hash":"oneDGhZacw99EEFaYDTtWfz5QEhUW3PPVFsHa7GShnLPuDn7gSd",'
    '"branch":"BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb",'
    # the case as the node writes it: its kind beside its members
    '"contents":[{"kind":"tx_rollup_commit",'
    '"source":"dn1GLMm5dMXRxCwqmkV22keRCcoWwrrani9F","fee":"656","counter":"3",'
    '"gas_limit":"3381","storage_limit":"0","rollup":"txr1MZ1FF3APJ5q83Hx3JfdvSdR4iHvzfeWNV",'
    '"commitment":{"level":0,"messages":["txmr344vtdPzvWsfnoSd3mJ3MCFA5ehKLQs1pK9WGcX4FEACg1rVgC",'
    '"txmr2DouKqJu5o8KEVGe6gLoiw1J3krjsxhf6C2a1kDNTTr8BdKpf2"],"predecessor":null,'
    '"inbox_merkle_root":"txi1WZKF1fkUWfKbmaHbb5b8gn68rKSyUy4k7NnSVY4p79BKYz5RB"}}],'
    '"signature":"sigbQ5ZNvkjvGssJgoAnUAfY4Wvvg3QZqawBYB1j1VDBNTMBAALnCzRHWzer34bnfmzgHg3EvwdzQKdxgSghB897cono6gbQ",'
    '"error":{}}]'
)


def test_a_list_of_a_protocols_hashes_decodes(run: Run) -> None:
    monitor = "GET /chains/main/mempool/monitor_operations"
    r = run("decode", "--describe", DUMP, *AT, monitor, COMMIT_HEX)
    assert (r.status, r.text, r.err) == (0, COMMIT_JSON + "\n", "")
    r = run("encode", "--describe", DUMP, *AT, monitor, COMMIT_JSON)
    assert (r.status, r.text, r.err) == (0, COMMIT_HEX + "\n", "")


def test_a_body_whose_schema_does_not_rebuild(run: Run, tmp_path: Path) -> None:
    # the real answer, its message result hashes renamed to a kind no node has:
    # neither schema then says the size of the hashes of a commitment's list
    unknown = tmp_path / "unknown.json"
    text = Path(DUMP).read_text(encoding="utf-8")
    renamed = {"Message_result_hash": "Unknown_result_hash", "A message result hash": "An unknown"}
    for old, new in renamed.items():
        text = text.replace(old, new)
    unknown.write_text(text, encoding="utf-8")
    monitor = "GET /chains/main/mempool/monitor_operations"
    _refused(
        run("decode", "--describe", str(unknown), *AT, monitor, "00"),
        f"{monitor}: its output does not rebuild from its schemas: "
        "from_schema: fields['X_135'].fields[2].layout: bytes of a dynamic size with no size "
        "header before it: where it ends is not stated (its JSON schema names "
        "'Unknown_result_hash', not a known primitive)",
    )
    r = run(
        "describe-rpc", "--describe", str(unknown), *AT, "/chains/main/mempool/monitor_operations"
    )
    assert (r.status, r.text, r.err) == (
        0,
        "method  path                                     input  output   error\n"
        "GET     /chains/main/mempool/monitor_operations  -      refused  ok\n",
        "",
    )


def test_a_file_that_is_not_a_describe_answer(run: Run, tmp_path: Path) -> None:
    not_json = tmp_path / "not.json"
    not_json.write_text('{"static": {"get_service": 3}}')
    _refused(
        run("decode", "--describe", str(not_json), FILTER, "00"),
        f"{str(not_json)!r} is not a /describe answer: wrong_type at $.static.get_service: "
        "expected an object, got integer",
    )
    not_bytes = tmp_path / "not.bin"
    not_bytes.write_bytes(b"\x00\x07")
    _refused(
        run("decode", "--describe", str(not_bytes), FILTER, "00"),
        f"{str(not_bytes)!r} is not a /describe answer: invalid_presence_flag at "
        "$.static.get_service (byte 1): invalid presence byte 0x07 (only 0x00 and 0xff)",
    )
    _refused(
        run("decode", "--describe", str(tmp_path / "none.json"), FILTER, "00"),
        f"cannot read {str(tmp_path / 'none.json')!r}: No such file or directory",
    )


def test_a_place_that_is_not_a_path(run: Run) -> None:
    _refused(
        run("decode", "--describe", DUMP, "--at", "/chains/<chain>/mempool", FILTER, "00"),
        "--at /chains/<chain>/mempool: no argument is named 'chain'",
    )


@pytest.mark.parametrize(
    ("option", "argv"),
    [
        ("--at", ("--at", "/chains")),
        ("--input", ("--input",)),
        ("--error", ("--error",)),
        ("--dialect", ("--dialect", "modern")),
    ],
)
def test_the_answers_options_go_with_describe(run: Run, option: str, argv: tuple[str, ...]) -> None:
    _refused(
        run("decode", "admin.daemon_status", *argv, "000000030000001092"),
        f"{option} goes with --describe (a node's /describe answer)",
    )


# ------------------------------------------------------------------ describe-rpc


LISTING = """\
method  path                                       input  output  error
POST    /chains/main/mempool/ban_operation         ok     ok      ok
GET     /chains/main/mempool/filter                -      ok      ok
POST    /chains/main/mempool/filter                ok     ok      ok
GET     /chains/main/mempool/monitor_operations    -      ok      ok
GET     /chains/main/mempool/pending_operations    -      ok      ok
POST    /chains/main/mempool/request_operations    ok     ok      ok
POST    /chains/main/mempool/unban_all_operations  ok     ok      ok
POST    /chains/main/mempool/unban_operation       ok     ok      ok
"""


def test_describe_rpc_lists_the_services_of_an_answer(run: Run) -> None:
    for path in ((), ("/",), ("/chains/main/mempool",)):
        r = run("describe-rpc", "--describe", DUMP, *AT, *path)
        assert (r.status, r.text, r.err) == (0, LISTING, "")


def test_describe_rpc_lists_the_services_under_a_path(run: Run) -> None:
    r = run("describe-rpc", "--describe", DUMP, *AT, "/chains/main/mempool/filter")
    assert (r.status, r.text, r.err) == (
        0,
        "method  path                         input  output  error\n"
        "GET     /chains/main/mempool/filter  -      ok      ok\n"
        "POST    /chains/main/mempool/filter  ok     ok      ok\n",
        "",
    )


def test_describe_rpc_of_an_answer_prints_it_back_as_sent(run: Run) -> None:
    for dump in (DUMP, OLD_DUMP):
        r = run(
            "describe-rpc", "--describe", dump, *AT, "/chains/main/mempool", "--recurse", "--json"
        )
        assert (r.status, r.err) == (0, "")
        assert r.text == dumps(loads(Path(dump).read_text())) + "\n"
    # one level, as the node answers without recurse
    r = run("describe-rpc", "--describe", DUMP, *AT, "/chains/main/mempool/filter", "--json")
    suffixes = json.loads(Path(DUMP).read_text())["static"]["subdirs"]["suffixes"]
    (filter_,) = [s["tree"] for s in suffixes if s["name"] == "filter"]
    assert (r.status, r.text, r.err) == (0, dumps(filter_) + "\n", "")


def test_describe_rpc_of_an_answer_in_binary(run: Run, tmp_path: Path) -> None:
    binary = _binary(tmp_path, OLD_DUMP, "rpc.service_tree")
    r = run(
        "describe-rpc", "--describe", binary, *AT, "/chains/main/mempool", "--recurse", "--binary"
    )
    assert (r.status, r.text, r.err) == (0, Path(binary).read_bytes().hex() + "\n", "")


def test_describe_rpc_of_an_answer_refuses_what_it_does_not_have(run: Run) -> None:
    _refused(
        run("describe-rpc", "--describe", DUMP, "/chains/main/mempool"),
        f"no RPC at /chains/main/mempool: no 'chains' here (in {DUMP!r}; "
        "an answer asked below / needs --at PATH)",
    )
    _refused(
        run("describe-rpc", "--describe", DUMP, *AT, "--protocol", "delphi"),
        "--protocol types the catalogue's directory: not with --describe",
    )
    _refused(
        run("describe-rpc", "/chains/main/mempool", *AT),
        "--at goes with --describe (a node's /describe answer)",
    )
