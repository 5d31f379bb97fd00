"""Real ``/describe`` answers read from files through the command line, and
printed back as they were sent, repeated members included (issue 28); those
in 1.0's words go through ``rpc.service_tree_v1``, whose bytes print back in
1.0's (``"Fixed"`` sizes), and the legacy tree refuses them naming it."""

from __future__ import annotations

import pytest

from data_encoding.cli import main
from data_encoding.jsonvalue import dumps, loads
from golden import DESCRIBE_ANSWERS, VECTORS, one_zero_words


@pytest.mark.parametrize(("name", "tree"), DESCRIBE_ANSWERS.items())
def test_an_answer_from_a_file_goes_to_bytes_and_back_as_sent(
    name: str, tree: str, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    path = VECTORS / name
    assert main(["encode", tree, f"@{path}"]) == 0
    hexa = capsysbinary.readouterr().out.decode().strip()
    assert main(["decode", tree, hexa]) == 0
    printed = capsysbinary.readouterr()
    assert printed.err == b""
    answer = loads(path.read_text())
    sent = answer if tree == "rpc.service_tree" else one_zero_words(answer)
    assert printed.out.decode() == dumps(sent) + "\n"


def test_an_answer_the_legacy_tree_cannot_state_is_refused_naming_the_tree_to_use(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["encode", "rpc.service_tree", f"@{VECTORS / 'describe-mempool-2022.json'}"]) == 1
    printed = capsysbinary.readouterr()
    assert printed.out == b""
    assert printed.err.decode() == (
        "error: not_in_dialect at $.static.subdirs.suffixes[2].tree.static.get_service.output"
        ".binary_schema.fields[18].encoding.cases[17].fields[1].layout: the legacy schema "
        "dialect cannot state an exact sequence length: use rpc.service_tree_v1\n"
    )
