"""Real ``/describe`` answers read from files through the command line, and
printed back as they were sent, repeated members included (issue 28)."""

from __future__ import annotations

from pathlib import Path

import pytest

from data_encoding.cli import main
from data_encoding.jsonvalue import dumps, loads

VECTORS = Path(__file__).parent.parent / "vectors"

TREES = {
    "describe-mempool-2021.json": "rpc.service_tree",
    "describe-mempool-alpha-2022-01-24.json": "rpc.service_tree",  # "kind" twice
    "describe-mempool-ithaca-2022-06-09.json": "rpc.service_tree",
}
"""The answers, and the service tree of their schemas' dialect."""


@pytest.mark.parametrize(("name", "tree"), TREES.items())
def test_an_answer_from_a_file_goes_to_bytes_and_back_as_sent(
    name: str, tree: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = VECTORS / name
    assert main(["encode", tree, f"@{path}"]) == 0
    hexa = capsysbinary.readouterr().out.decode().strip()
    assert main(["decode", tree, hexa]) == 0
    printed = capsysbinary.readouterr()
    assert printed.err == b""
    assert printed.out.decode() == dumps(loads(path.read_text())) + "\n"
