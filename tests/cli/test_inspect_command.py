"""``data-encoding inspect``: what a signer is asked to sign, with one
protocol or with each protocol of the era."""

from __future__ import annotations

import json

from cli_runner import Run
from data_encoding.node.keys import output_family
from golden import codec_vectors

MAINNET = "7a06a770"
UNKNOWN_05 = (
    "error: unexpected_tag at $ (byte 0): unknown watermark 05 (Michelson data, packed): "
    "a signer signs 01 (block_header), 02 (endorsement), 03 (generic_operation)\n"
)


def _unsigned(kind: str) -> str:
    """The hex of the 007 vector of ``operation.unsigned`` whose content is a ``kind``."""
    (found,) = [
        v
        for v in codec_vectors("007-PsDELPH1.operation.unsigned")
        if v["json"]["contents"][0]["kind"] == kind and "parameters" not in v["json"]["contents"][0]
    ]
    return str(found["hex"])


def test_a_refused_watermark_is_bad_data_with_or_without_a_protocol(run: Run) -> None:
    for argv in (["inspect", "05"], ["inspect", "--protocol", "delphi", "05"]):
        r = run(*argv)
        assert (r.status, r.out, r.err) == (1, b"", UNKNOWN_05)


def test_bad_input_and_usage(run: Run) -> None:
    r = run("inspect", "--protocol", "delphi", "0201")
    assert (r.status, r.out, r.err) == (
        1,
        b"",
        "error: not_enough_data at $ (byte 1): not enough data for Chain_id: need 4 bytes, "
        "1 left\n",
    )
    r = run("inspect", "--protocol", "alpha", "03")
    assert (r.status, r.out, r.err) == (
        2,
        b"",
        "error: unknown protocol 'alpha'; the protocols are 004-Pt24m4xi (Athens), "
        "005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), 007-PsDELPH1 (Delphi)\n",
    )
    r = run("inspect", "0x03zz")
    assert (r.status, r.err) == (
        1,
        "error: invalid_hex at $: the argument is not hexadecimal: 'z' at byte 4\n",
    )
    # the bytes themselves, from stdin
    r = run("inspect", "--raw", stdin=b"\x05")
    assert (r.status, r.out, r.err) == (1, b"", UNKNOWN_05)
