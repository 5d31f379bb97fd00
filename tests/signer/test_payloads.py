"""``signer.inspect`` on payloads: the node toolchain's 007 vectors under
each watermark, what the summaries hold, the refusals (exact code, offset
and message, counted in the whole message), and what protocols 004 and 005
make of each other's manager operations."""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import DecodeError
from data_encoding.node import registry
from data_encoding.node.hashes import BlockHash, ChainId
from data_encoding.node.keys import PublicKeyHash
from data_encoding.node.protocols import ATHENS, BABYLON, CARTHAGE, DELPHI, PROTOCOLS, Protocol
from data_encoding.node.protocols.contracts import ContractId
from data_encoding.node.signatures import PublicKey
from data_encoding.signer import Content, inspect
from golden import codec_vectors

MAINNET = ChainId("NetXdQprcVkpaWU")
KEY_HASH = PublicKeyHash("tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx")
"""The account of the vectors' manager operations."""
ACCOUNT = ContractId("tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx")
"""The same account as a contract (a transaction's destination)."""
ORIGINATED = ContractId("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat")


def _manager(kind: str, **fields: Any) -> Content:
    """The summary of a manager operation of the vectors."""
    return Content(
        kind,
        source=KEY_HASH,
        fee=33,
        counter=732,
        gas_limit=9451117,
        storage_limit=57024931117,
        **fields,
    )


def _unsigned(kind: str, parameters: bool = False) -> bytes:
    """The 007 vector of ``operation.unsigned`` whose one content is a ``kind``."""
    (found,) = [
        v["hex"]
        for v in codec_vectors("007-PsDELPH1.operation.unsigned")
        if v["json"]["contents"][0]["kind"] == kind
        and ("parameters" in v["json"]["contents"][0]) == parameters
    ]
    return bytes.fromhex(found)


(_HEADER,) = codec_vectors("007-PsDELPH1.block_header.unsigned")
BLOCK_HEADER = bytes.fromhex(_HEADER["hex"])
ENDORSEMENT = _unsigned("endorsement")
TRANSACTION = _unsigned("transaction")
BRANCH = ENDORSEMENT[:32]

SIGNED_ENDORSEMENT = b"\x02" + MAINNET + ENDORSEMENT
SIGNED_TRANSACTION = b"\x03" + TRANSACTION


def _payload(protocol: Protocol, name: str) -> Any:
    return registry.find(protocol.id(name)).encoding


def _refusal(data: bytes, protocol: Protocol = DELPHI) -> tuple[str, int | None, str, str]:
    with pytest.raises(DecodeError) as caught:
        inspect(data, protocol)
    err = caught.value
    return err.code, err.offset, "".join(f"/{step}" for step in err.path), err.message


# ------------------------------------------------------------- readings


def test_a_block_header() -> None:
    found = inspect(b"\x01" + MAINNET + BLOCK_HEADER, DELPHI)
    assert (found.kind, found.chain_id, found.protocol, found.level) == (
        "block_header",
        MAINNET,
        DELPHI,
        1331,
    )
    assert found.contents == ()
    assert found.value == _payload(DELPHI, "block_header.unsigned").decode(BLOCK_HEADER)
    assert found.value["priority"] == 21021
    assert found.payload_id == "proto.psdelph1.block_header.unsigned"
    assert type(found.chain_id) is ChainId


def test_an_endorsement() -> None:
    found = inspect(SIGNED_ENDORSEMENT, "007-PsDELPH1")
    assert (found.kind, found.chain_id, found.level) == ("endorsement", MAINNET, 1331)
    assert found.contents == (Content("endorsement", level=1331),)
    # the value of operation.unsigned itself, though read as exactly one content
    assert found.value == _payload(DELPHI, "operation.unsigned").decode(ENDORSEMENT)
    assert found.value["branch"] == BRANCH
    assert found.payload_id == "proto.psdelph1.operation.unsigned"


@pytest.mark.parametrize(
    ("kind", "parameters", "summary"),
    [
        ("activate_account", False, Content("activate_account")),
        ("ballot", False, Content("ballot", source=KEY_HASH)),
        ("proposals", False, Content("proposals", source=KEY_HASH)),
        ("seed_nonce_revelation", False, Content("seed_nonce_revelation", level=1331)),
        ("double_baking_evidence", False, Content("double_baking_evidence")),
        ("double_endorsement_evidence", False, Content("double_endorsement_evidence")),
        (
            "reveal",
            False,
            _manager(
                "reveal",
                public_key=PublicKey("edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav"),
            ),
        ),
        (
            "transaction",
            False,
            _manager("transaction", amount=407, destination=ACCOUNT),
        ),
        (
            "transaction",
            True,
            _manager("transaction", amount=407, destination=ORIGINATED),
        ),
        (
            "origination",
            False,
            _manager("origination", amount=84143, delegate=KEY_HASH),
        ),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_a_generic_operations_summary(kind: str, parameters: bool, summary: Content) -> None:
    payload = _unsigned(kind, parameters)
    found = inspect(b"\x03" + payload, DELPHI)
    assert (found.kind, found.chain_id, found.level) == ("generic_operation", None, None)
    assert found.contents == (summary,)
    assert found.value == _payload(DELPHI, "operation.unsigned").decode(payload)


def test_delegations_with_and_without_a_delegate() -> None:
    found = [
        inspect(b"\x03" + bytes.fromhex(v["hex"]), DELPHI).contents
        for v in codec_vectors("007-PsDELPH1.operation.unsigned")
        if v["json"]["contents"][0]["kind"] == "delegation"
    ]
    assert found == [
        (_manager("delegation"),),
        (_manager("delegation", delegate=KEY_HASH),),
    ]


def test_a_summary_shows_what_the_content_has() -> None:
    (content,) = inspect(SIGNED_TRANSACTION, DELPHI).contents
    assert content.present() == [
        ("kind", "transaction"),
        ("source", KEY_HASH),
        ("destination", ACCOUNT),
        ("amount", 407),
        ("fee", 33),
        ("counter", 732),
        ("gas_limit", 9451117),
        ("storage_limit", 57024931117),
    ]
    assert repr(Content("endorsement", level=7)) == "Content(kind='endorsement', level=7)"


def test_a_batch_is_summarised_content_by_content() -> None:
    found = inspect(SIGNED_TRANSACTION + TRANSACTION[32:], DELPHI)
    assert [c.kind for c in found.contents] == ["transaction", "transaction"]
    assert found.contents[0] == found.contents[1]


# ------------------------------------------------------------- refusals

LEDGER = "the Ledger baking app refuses a message that is not 42 bytes"


@pytest.mark.parametrize(
    ("data", "refusal"),
    [
        # a trailing byte: the decoder reads it as the next content's tag
        (
            SIGNED_TRANSACTION + b"\x00",
            (
                "not_enough_data",
                94,
                "/contents/1/level",
                "not enough data for int32: need 4 bytes, 0 left",
            ),
        ),
        (
            SIGNED_TRANSACTION + b"\xff",
            (
                "unexpected_tag",
                93,
                "/contents/1",
                "unexpected tag 255 for union operation.alpha.contents "
                "(known tags: [0, 1, 2, 3, 4, 5, 6, 107, 108, 109, 110])",
            ),
        ),
        (
            b"\x01" + MAINNET + BLOCK_HEADER + b"\x00",
            ("extra_bytes", 179, "", "extra bytes: the value ends at byte 179 of 180"),
        ),
        # one byte changed: the parameters' presence byte (a reader that takes
        # any non-zero byte for "present" would read parameters from nothing)
        (
            SIGNED_TRANSACTION[:-1] + b"\x01",
            (
                "invalid_presence_flag",
                92,
                "/contents/0/parameters",
                "invalid presence byte 0x01 (only 0x00 and 0xff)",
            ),
        ),
        # ... the content's tag, the source's curve
        (
            SIGNED_TRANSACTION[:33] + b"\xff" + SIGNED_TRANSACTION[34:],
            (
                "unexpected_tag",
                33,
                "/contents/0",
                "unexpected tag 255 for union operation.alpha.contents "
                "(known tags: [0, 1, 2, 3, 4, 5, 6, 107, 108, 109, 110])",
            ),
        ),
        (
            SIGNED_TRANSACTION[:34] + b"\x03" + SIGNED_TRANSACTION[35:],
            (
                "unexpected_tag",
                34,
                "/contents/0/source",
                "unexpected tag 3 for union public_key_hash (known tags: [0, 1, 2])",
            ),
        ),
        # an endorsement in a batch
        (
            SIGNED_TRANSACTION + ENDORSEMENT[32:],
            (
                "invalid_value",
                33,
                "/contents/1",
                "a content of kind 'endorsement' is alone in its operation: only manager "
                "operations (reveal, transaction, origination, delegation) are batched",
            ),
        ),
        # a branch and no content
        (
            b"\x03" + BRANCH,
            (
                "not_enough_data",
                33,
                "/contents",
                "an operation has at least one content, and this one has none",
            ),
        ),
    ],
    ids=[
        "trailing-00",
        "trailing-ff",
        "block-header-trailing-00",
        "presence-byte-01",
        "content-tag-ff",
        "curve-tag-03",
        "endorsement-in-a-batch",
        "no-content",
    ],
)
def test_the_protocols_decoder_refuses_and_the_offset_counts_the_watermark(
    data: bytes, refusal: tuple[str, int, str, str]
) -> None:
    assert _refusal(data) == refusal


@pytest.mark.parametrize(
    ("appended", "level"),
    [
        (b"\x00", 0x00053300),  # one byte: the level's bytes shifted
        (b"\x00\x00\x00\x00", 0),
        (ENDORSEMENT[32:37], 1331),  # a second endorsement, of the same level
        (b"\x00\x00\x00\x05\x34", 1332),  # a second endorsement, one level up
        (TRANSACTION[32:], 0x41AC7800),  # a transaction: the last bytes of its destination
    ],
    ids=["one-byte", "four-bytes", "same-endorsement", "next-endorsement", "a-transaction"],
)
def test_an_endorsement_is_exactly_one_endorsement(appended: bytes, level: int) -> None:
    # tezos-signer reads the level in the last 4 bytes: it would keep ``level``
    data = SIGNED_ENDORSEMENT + appended
    assert _refusal(data) == (
        "extra_bytes",
        42,
        "",
        f"the endorsement watermark signs one endorsement, which ends at byte 42 of "
        f"{len(data)} (tezos-signer would keep the level {level}, read from the last 4 "
        f"bytes; {LEDGER})",
    )
    assert int.from_bytes(data[-4:], "big", signed=True) == level


@pytest.mark.parametrize("kind", ["seed_nonce_revelation", "transaction", "ballot"])
def test_the_endorsement_watermark_signs_an_endorsement_only(kind: str) -> None:
    # a seed nonce revelation's nonce ends where tezos-signer reads a level
    assert _refusal(b"\x02" + MAINNET + _unsigned(kind)) == (
        "unexpected_tag",
        37,
        "",
        f"the endorsement watermark (02) signs an endorsement, not a {kind}",
    )


def test_an_endorsement_alone_is_not_a_generic_operation() -> None:
    assert _refusal(b"\x03" + ENDORSEMENT) == (
        "unexpected_tag",
        0,
        "",
        "an endorsement alone is signed under the endorsement watermark (02) and its chain "
        "id: the protocol would refuse this signature, and a signer's high watermark would "
        "not see its level",
    )


NEGATIVE = (
    "the level is -1, but the Ledger baking app reads 4294967295: a level a high "
    "watermark keeps is from 0 to 2^31 - 1"
)


def test_a_negative_level_reads_otherwise_unsigned() -> None:
    block = b"\x01" + MAINNET + b"\xff\xff\xff\xff" + BLOCK_HEADER[4:]
    assert _refusal(block) == ("out_of_range", 5, "", NEGATIVE)
    endorsement = SIGNED_ENDORSEMENT[:-4] + b"\xff\xff\xff\xff"
    assert _refusal(endorsement) == ("out_of_range", 38, "", NEGATIVE)
    # the greatest level is read alike by all
    top = SIGNED_ENDORSEMENT[:-4] + b"\x7f\xff\xff\xff"
    assert inspect(top, DELPHI).level == 2**31 - 1


def test_a_payload_under_another_watermark() -> None:
    assert _refusal(b"\x02" + MAINNET + BLOCK_HEADER) == (
        "unexpected_tag",
        37,
        "/contents/0",
        "unexpected tag 205 for union operation.alpha.contents "
        "(known tags: [0, 1, 2, 3, 4, 5, 6, 107, 108, 109, 110])",
    )
    code, offset, path, _ = _refusal(b"\x01" + MAINNET + TRANSACTION)
    assert (code, offset, path) == ("not_enough_data", 83, "/fitness")


# --------------------------------------------------- 004 is not 005

# a 004 transaction (tag 8) from an originated contract, which only 004 has
TRANSACTION_004 = {
    "kind": "transaction",
    "source": "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat",
    "fee": "33",
    "counter": "732",
    "gas_limit": "9451117",
    "storage_limit": "57024931117",
    "amount": "407",
    "destination": "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx",
}


def test_004_and_005_read_each_others_manager_operations_not() -> None:
    athens = _payload(ATHENS, "operation.unsigned")
    operation = {"branch": str(BlockHash(BRANCH)), "contents": [TRANSACTION_004]}
    payload = athens.encode(athens.from_json(operation))
    found = inspect(b"\x03" + payload, ATHENS)
    assert found.contents == (
        Content(
            "transaction",
            source=ORIGINATED,
            destination=ACCOUNT,
            amount=407,
            fee=33,
            counter=732,
            gas_limit=9451117,
            storage_limit=57024931117,
        ),
    )
    assert payload[32] == 8
    assert found.payload_id == "proto.pt24m4xi.operation.unsigned"
    for protocol in (BABYLON, CARTHAGE, DELPHI):
        code, offset, path, message = _refusal(b"\x03" + payload, protocol)
        assert (code, offset, path) == ("unexpected_tag", 33, "/contents/0")
        assert message.startswith("unexpected tag 8 for union operation.alpha.contents")
    # and the 007 transaction (tag 108) is unknown to 004, read alike by 005 to 007
    code, offset, path, message = _refusal(SIGNED_TRANSACTION, ATHENS)
    assert (code, offset, path) == ("unexpected_tag", 33, "/contents/0")
    assert message == (
        "unexpected tag 108 for union operation.alpha.contents "
        "(known tags: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])"
    )
    readings = {inspect(SIGNED_TRANSACTION, p).contents for p in PROTOCOLS[1:]}
    assert len(readings) == 1
