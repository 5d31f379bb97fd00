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


ENDORSEMENT = "02" + MAINNET + _unsigned("endorsement")
TRANSACTION = "03" + _unsigned("transaction")
ACCOUNT = "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
TRANSACTION_LINE = (
    f"content 0  transaction  source {ACCOUNT}  destination {ACCOUNT}  amount 407  fee 33  "
    "counter 732  gas_limit 9451117  storage_limit 57024931117\n"
)
TAG_108 = (
    "unexpected_tag at $.contents[0] (byte 33): unexpected tag 108 for union "
    "operation.alpha.contents (known tags: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])"
)


def test_an_endorsement_with_its_protocol(run: Run) -> None:
    r = run("inspect", "--protocol", "delphi", ENDORSEMENT)
    assert (r.status, r.err) == (0, "")
    assert r.text == (
        "protocols  007-PsDELPH1 (Delphi)\n"
        "kind       endorsement (watermark 02)\n"
        "chain id   NetXdQprcVkpaWU\n"
        "level      1331\n"
        "content 0  endorsement  level 1331\n"
    )
    r = run("inspect", "--protocol", "PsDELPH1", "--json", "--compact", ENDORSEMENT)
    assert (r.status, r.err) == (0, "")
    branch = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
    assert json.loads(r.out) == {
        "protocols": ["007-PsDELPH1"],
        "kind": "endorsement",
        "chain_id": "NetXdQprcVkpaWU",
        "level": 1331,
        "contents": [{"kind": "endorsement", "level": 1331}],
        "value": {"branch": branch, "contents": [{"kind": "endorsement", "level": 1331}]},
    }


def test_without_a_protocol_each_reading_comes_with_the_protocols_that_give_it(run: Run) -> None:
    r = run("inspect", ENDORSEMENT)
    assert (r.status, r.err) == (0, "")
    assert r.text.startswith(
        "protocols  004-Pt24m4xi (Athens), 005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), "
        "007-PsDELPH1 (Delphi)\nkind       endorsement (watermark 02)\n"
    )
    with output_family("tezos"):
        r = run("inspect", TRANSACTION)
    assert (r.status, r.err) == (0, "")
    assert r.text == (
        "protocols  005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), 007-PsDELPH1 (Delphi)\n"
        "kind       generic_operation (watermark 03)\n"
        "chain id   -\n"
        "level      -\n"
        + TRANSACTION_LINE
        + "\n"
        + f"refused by 004-Pt24m4xi (Athens): {TAG_108}\n"
    )


def test_without_a_protocol_as_json(run: Run) -> None:
    with output_family("tezos"):
        r = run("inspect", "--json", TRANSACTION)
    assert (r.status, r.err) == (0, "")
    found = json.loads(r.out)
    assert list(found) == ["readings", "refused"]
    (reading,) = found["readings"]
    assert reading["protocols"] == ["005-PsBabyM1", "006-PsCARTHA", "007-PsDELPH1"]
    assert reading["contents"] == [
        {
            "kind": "transaction",
            "source": ACCOUNT,
            "destination": ACCOUNT,
            "amount": "407",
            "fee": "33",
            "counter": "732",
            "gas_limit": "9451117",
            "storage_limit": "57024931117",
        }
    ]
    assert reading["value"]["contents"][0]["destination"] == ACCOUNT
    assert found["refused"] == [
        {
            "protocol": "004-Pt24m4xi",
            "error": {
                "code": "unexpected_tag",
                "path": "$.contents[0]",
                "offset": 33,
                "message": "unexpected tag 108 for union operation.alpha.contents "
                "(known tags: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])",
            },
        }
    ]


def test_bytes_no_protocol_reads_name_each_refusal(run: Run) -> None:
    r = run("inspect", TRANSACTION + "00")
    assert (r.status, r.out) == (1, b"")
    why = (
        "not_enough_data at $.contents[1].level (byte 94): not enough data for int32: "
        "need 4 bytes, 0 left"
    )
    assert r.err == (
        "error: no protocol of the era reads these bytes\n"
        f"error: 004-Pt24m4xi (Athens): {TAG_108}\n"
        f"error: 005-PsBabyM1 (Babylon): {why}\n"
        f"error: 006-PsCARTHA (Carthage): {why}\n"
        f"error: 007-PsDELPH1 (Delphi): {why}\n"
    )
    # with a protocol, a refusal is reported as decode reports one
    r = run("inspect", "--protocol", "004", TRANSACTION)
    assert (r.status, r.out, r.err) == (1, b"", f"error: {TAG_108}\n")


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
