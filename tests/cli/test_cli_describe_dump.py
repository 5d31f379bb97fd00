"""The command over a node's ``/describe`` dump (issue 31): ``encode`` and
``decode`` of a service's body (``--describe FILE 'METHOD /path'``), and
``describe-rpc --describe FILE`` printing the dump back."""

from __future__ import annotations

import pytest

from cli_runner import Run
from data_encoding.jsonvalue import dumps, loads
from golden import DESCRIBE_ANSWERS, VECTORS

MEMPOOL = "/chains/main/mempool"
DUMP = str(VECTORS / "describe-mempool-2022.json")
AT = ("--describe", DUMP, "--at", MEMPOOL)
FILTER = "0000001b1b000000026d696e696d616c5f6665657300040000003130300000"
"""``{"minimal_fees": "100"}``, the filter's JSON in BSON (its binary form)."""


def test_a_services_body_encodes_and_decodes(run: Run) -> None:
    encoded = run("encode", *AT, f"POST {MEMPOOL}/filter", "--input", '{"minimal_fees": "100"}')
    assert (encoded.status, encoded.text, encoded.err) == (0, FILTER + "\n", "")
    decoded = run("decode", *AT, f"GET {MEMPOOL}/filter", FILTER, "--compact")
    assert (decoded.status, decoded.text, decoded.err) == (0, '{"minimal_fees":"100"}\n', "")


def test_the_output_is_the_default_body_and_the_lines_mode_works(run: Run) -> None:
    lines = f"{FILTER}\n{FILTER}\n"
    result = run("decode", *AT, f"get {MEMPOOL}/filter", "--lines", "-", stdin=lines)
    assert (result.status, result.text, result.err) == (0, '{"minimal_fees":"100"}\n' * 2, "")


def test_an_operation_hash_reads_as_the_node_writes_it(run: Run) -> None:
    result = run("decode", *AT, f"POST {MEMPOOL}/ban_operation", "--input", "00" * 32)
    assert (result.status, result.err) == (0, "")
    assert result.text == '"oneDGhZacw99EEFaYDTtWfz5QEhUW3PPVFsHa7GShnLPuDn7gSd"\n'


@pytest.mark.parametrize(
    ("argv", "status", "error"),
    [
        (
            ("decode", *AT, f"GET {MEMPOOL}/nothing", "00"),
            2,
            f"error: {DUMP}: no service GET {MEMPOOL}/nothing "
            f"({MEMPOOL}/nothing: no 'nothing' here)\n",
        ),
        (
            ("decode", *AT, f"GET {MEMPOOL}/filter", "--input", "00"),
            2,
            f"error: {DUMP}: GET {MEMPOOL}/filter has no input\n",
        ),
        (
            ("decode", *AT, "GET", "00"),
            2,
            "error: with --describe, name a service as 'METHOD /path', not 'GET'\n",
        ),
        (
            ("decode", *AT, f"GET {MEMPOOL}/monitor_operations", "00"),
            1,
            "error: invalid_definition at $: from_schema: fields['X_135'].fields[2].layout: "
            "bytes of a dynamic size with no size header before it: where it ends is not "
            "stated (its JSON schema names 'Message_result_hash', not a known primitive)\n",
        ),
    ],
)
def test_what_cannot_be_done_says_why(
    run: Run, argv: tuple[str, ...], status: int, error: str
) -> None:
    result = run(*argv)
    assert (result.status, result.text, result.err) == (status, "", error)


@pytest.mark.parametrize("name", sorted(DESCRIBE_ANSWERS))
def test_describe_rpc_prints_a_dump_back_as_it_was_sent(run: Run, name: str) -> None:
    dump = str(VECTORS / name)
    result = run("describe-rpc", "--describe", dump, "--at", MEMPOOL, "--recurse", "--compact")
    assert (result.status, result.err) == (0, "")
    assert result.text == dumps(loads((VECTORS / name).read_text())) + "\n"


def test_describe_rpc_prints_one_service_of_a_dump(run: Run) -> None:
    result = run("describe-rpc", "--describe", DUMP, "--at", MEMPOOL, f"{MEMPOOL}/filter")
    tree = loads(result.text)
    assert (result.status, result.err) == (0, "")
    static = tree["static"] if isinstance(tree, dict) else None
    assert isinstance(static, dict) and list(static) == ["get_service", "post_service"]
