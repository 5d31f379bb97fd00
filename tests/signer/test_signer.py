"""``data_encoding.signer``: the watermarks, and what ``inspect`` reads or
refuses before the payload (the payload's tests: ``test_payloads.py``)."""

from __future__ import annotations

import pytest

from data_encoding import DecodeError, EncodeError
from data_encoding.node.hashes import ChainId
from data_encoding.node.protocols import (
    ATHENS,
    BABYLON,
    CARTHAGE,
    DELPHI,
    Protocol,
    UnknownProtocol,
    find_protocol,
)
from data_encoding.signer import KINDS, WATERMARKS, inspect, watermark
from data_encoding.tree.core import BytesLike

MAINNET = ChainId(bytes.fromhex("7a06a770"))


# ------------------------------------------------------------- watermark


def test_each_kind_has_the_references_watermark_byte() -> None:
    assert KINDS == ("block_header", "endorsement", "generic_operation")
    assert dict(WATERMARKS) == {"block_header": 1, "endorsement": 2, "generic_operation": 3}


def test_watermark_puts_the_byte_and_the_chain_id_before_the_payload() -> None:
    assert watermark("block_header", MAINNET, b"\xaa").hex() == "017a06a770aa"
    assert watermark("endorsement", bytes.fromhex("01020304"), b"").hex() == "0201020304"
    assert watermark("generic_operation", None, bytearray(b"\xbb\xcc")).hex() == "03bbcc"
    assert watermark("generic_operation", None, memoryview(b"")) == b"\x03"


@pytest.mark.parametrize(
    ("kind", "chain", "payload", "code", "path", "message"),
    [
        (
            "custom",
            None,
            b"",
            "no_case_matched",
            (),
            "unknown watermark kind 'custom': one of block_header, endorsement, generic_operation",
        ),
        (
            "block_header",
            None,
            b"",
            "missing_field",
            (),
            "the block_header watermark (01) is followed by a chain id",
        ),
        (
            "endorsement",
            None,
            b"",
            "missing_field",
            (),
            "the endorsement watermark (02) is followed by a chain id",
        ),
        (
            "generic_operation",
            MAINNET,
            b"",
            "unexpected_field",
            (),
            "a generic operation's watermark (03) has no chain id",
        ),
        (
            "endorsement",
            b"\x01\x02\x03",
            b"",
            "wrong_length",
            ("chain_id",),
            "expected exactly 4 bytes, got 3",
        ),
        (
            "generic_operation",
            None,
            "00",
            "wrong_type",
            ("payload",),
            "expected the payload's bytes, got str '00'",
        ),
    ],
)
def test_watermark_refuses_what_has_no_message(
    kind: str, chain: bytes | None, payload: bytes, code: str, path: tuple[str, ...], message: str
) -> None:
    with pytest.raises(EncodeError) as caught:
        watermark(kind, chain, payload)  # type: ignore[arg-type]
    err = caught.value
    assert (err.code, err.path, err.message, err.offset) == (code, path, message, None)


# --------------------------------------------------- before the payload


def test_the_protocol_is_named_in_any_of_its_spellings_and_never_implied() -> None:
    for protocol in (ATHENS, BABYLON, CARTHAGE, DELPHI):
        spellings: list[Protocol | str] = [
            protocol,
            protocol.name,
            protocol.name.upper(),
            protocol.hash,
            protocol.short,
            protocol.short.lower(),
            protocol.toolchain_name,
            f"00{protocol.number}",
        ]
        assert {find_protocol(s) for s in spellings} == {protocol}
    for unknown in ("alpha", "008-PtEdo2Zk", "", "PsDELPH", "7", "008"):
        with pytest.raises(UnknownProtocol) as caught:
            inspect(b"\x03", unknown)
        assert str(caught.value) == (
            f"unknown protocol {unknown!r}; the protocols are 004-Pt24m4xi (Athens), "
            "005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), 007-PsDELPH1 (Delphi)"
        )


def _refusal(data: BytesLike, protocol: str = "delphi") -> tuple[str, int | None, str]:
    with pytest.raises(DecodeError) as caught:
        inspect(data, protocol)
    return caught.value.code, caught.value.offset, caught.value.message


def test_an_unknown_watermark_is_refused_at_byte_0() -> None:
    known = "a signer signs 01 (block_header), 02 (endorsement), 03 (generic_operation)"
    for byte in set(range(256)) - {1, 2, 3}:
        code, offset, message = _refusal(bytes([byte]) + bytes(50))
        what = " (Michelson data, packed)" if byte == 5 else ""
        assert (code, offset, message) == (
            "unexpected_tag",
            0,
            f"unknown watermark {byte:02x}{what}: {known}",
        )


def test_an_empty_message_has_no_watermark() -> None:
    assert _refusal(b"") == ("not_enough_data", 0, "an empty message has no watermark")


@pytest.mark.parametrize("byte", [1, 2])
@pytest.mark.parametrize("given", [0, 1, 3])
def test_a_truncated_chain_id_is_refused_where_it_starts(byte: int, given: int) -> None:
    assert _refusal(bytes([byte]) + bytes(given)) == (
        "not_enough_data",
        1,
        f"not enough data for Chain_id: need 4 bytes, {given} left",
    )


def test_inspect_reads_bytes_like_objects_only() -> None:
    data = bytes.fromhex("057a06a770")
    for given in (bytearray(data), memoryview(data)):
        assert _refusal(given)[:2] == ("unexpected_tag", 0)
    with pytest.raises(DecodeError) as caught:
        inspect(data.hex(), DELPHI)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.offset) == ("wrong_type", None)
