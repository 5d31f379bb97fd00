"""Operations and block headers of protocols 004-007 (issue 29): the
``operation*`` and ``block_header*`` ids.

* Every vector of these ids of protocol 007 (``octez-codec-007.jsonl``, the
  node toolchain's own) reads and writes exactly, through both spellings
  of its id.
* 004's manager operations are not 005's: the same transaction or
  origination has other tags, fields and bytes in each (pinned here, built
  by hand from each protocol's ``operation_repr.ml``), and each protocol
  refuses the other's.
* 005, 006 and 007 share their operations, and all four their block
  headers: the very same encodings.
* Strict where the reference reads what its writer never writes, or fails:
  unknown tags, a batch of contents that is not manager operations, no
  contents at all, an entrypoint or parameters in a form the node does not
  write.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from data_encoding import DataEncodingError, Encoding
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.node.catalogue import chains
from data_encoding.node.keys import output_family
from data_encoding.node.protocols import (
    ATHENS,
    BABYLON,
    DELPHI,
    PROTOCOLS,
    Protocol,
    athens,
    babylon,
    blocks,
    carthage,
    delphi,
    operations,
)
from golden import codec_vectors

NAMES = list(operations.OPERATION_IDS)
"""The ids of this part, as the node names them (``operation.unsigned``)."""


VECTORS_007 = [r for r in codec_vectors() if r["encoding_name"].split(".", 1)[1] in NAMES]
"""The 007 vectors of this part's ids (each is read and written exactly in
``test_vectors_007.py``)."""


def _of(protocol: Protocol, name: str) -> Encoding[Any]:
    return registry.find(protocol.id(name)).encoding


def _error(action: Any) -> tuple[str, str, int | None, str]:
    with pytest.raises(DataEncodingError) as caught:
        action()
    err = caught.value
    return (type(err).__name__, err.code, err.offset, "".join(f"/{s}" for s in err.path))


# ------------------------------------------------------------------ 007's vectors


def test_the_vectors_give_these_ids_of_007() -> None:
    counts: dict[str, int] = {}
    for r in VECTORS_007:
        name = r["encoding_name"].split(".", 1)[1]
        counts[name] = counts.get(name, 0) + 1
    assert counts == {
        "operation": 13,
        "operation.unsigned": 13,
        "operation.internal": 6,
        "operation.raw": 1,
        "block_header": 1,
        "block_header.raw": 1,
        "block_header.unsigned": 1,
    }


def test_an_operation_is_its_unsigned_bytes_then_its_signature() -> None:
    """What a signer signs is the unsigned operation's bytes; the operation
    is those bytes and the signature (the vectors of both ids, in pairs)."""
    signed = {r["hex"][:-128]: r for r in VECTORS_007 if r["encoding_name"].endswith(".operation")}
    unsigned = [r for r in VECTORS_007 if r["encoding_name"].endswith(".operation.unsigned")]
    assert sorted(signed) == sorted(r["hex"] for r in unsigned)
    for r in unsigned:
        operation = signed[r["hex"]]["json"]
        assert {k: v for k, v in operation.items() if k != "signature"} == r["json"]


def test_the_raw_forms_hold_the_protocols_data() -> None:
    """``operation.raw`` and ``block_header.raw`` are the shell's view: their
    bytes after the shell's part are the protocol's ``protocol_data``."""
    (op,) = [r for r in VECTORS_007 if r["encoding_name"].endswith(".operation.raw")]
    (header,) = [r for r in VECTORS_007 if r["encoding_name"].endswith(".block_header.raw")]
    (full,) = [r for r in VECTORS_007 if r["encoding_name"].endswith(".block_header")]
    with output_family("tezos"):
        data = _of(DELPHI, "operation.protocol_data").decode(bytes.fromhex(op["json"]["data"]))
        assert _of(DELPHI, "operation.protocol_data").to_json(data) == {
            "contents": [{"kind": "endorsement", "level": 1331}],
            "signature": full["json"]["signature"],
        }
        signed = bytes.fromhex(header["json"]["protocol_data"])
        read: Any = _of(DELPHI, "block_header.protocol_data").to_json(
            _of(DELPHI, "block_header.protocol_data").decode(signed)
        )
        assert {**header["json"], **read, "protocol_data": None} == {
            **full["json"],
            "protocol_data": None,
        }


# ------------------------------------------------------------------ what the protocols share


def test_005_006_and_007_share_their_operations_and_all_four_their_headers() -> None:
    for name in NAMES:
        constant = name.replace(".", "_").upper()
        for earlier, later in ((babylon, carthage), (carthage, delphi)):
            assert getattr(later, constant) is getattr(earlier, constant), (later, name)
        shared = name == "operation.raw" or name.startswith("block_header")
        assert (getattr(babylon, constant) is getattr(athens, constant)) is shared, name
    assert athens.BLOCK_HEADER_RAW is chains.BLOCK_HEADER
    assert athens.BLOCK_HEADER_SHELL_HEADER is chains.SHELL_HEADER
    assert athens.BLOCK_HEADER is blocks.BLOCK_HEADER
    # what makes sharing right: their scripts are one encoding
    assert carthage.SCRIPT is babylon.SCRIPT and delphi.SCRIPT is babylon.SCRIPT
    assert carthage.SCRIPT_LAZY_EXPR is babylon.SCRIPT_LAZY_EXPR
    assert delphi.SCRIPT_LAZY_EXPR is babylon.SCRIPT_LAZY_EXPR


# ------------------------------------------------------------------ 004 is not 005

BRANCH = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
BRANCH_HEX = "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
TZ1 = "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
PKH = "0002298c03ed7d454a101eb7022bc95f7e5f41ac78"  # Ed25519, then the 20-byte hash
IMPLICIT = "00" + PKH  # an implicit contract: tag 0, then its key hash
FEES: dict[str, JsonValue] = {
    "fee": "33",
    "counter": "732",
    "gas_limit": "9451117",
    "storage_limit": "57024931117",
}
FEES_HEX = "21dc05edecc004adcacdb7d401"  # four Zarith naturals

TRANSACTION: dict[str, JsonValue] = {
    "kind": "transaction",
    "source": TZ1,
    **FEES,
    "amount": "407",
    "destination": TZ1,
}
"""A transaction without parameters: the same JSON in 004 and 005."""

TRANSACTION_004 = "08" + IMPLICIT + FEES_HEX + "9703" + IMPLICIT + "00"
"""Tag 8; the source is a contract (22 bytes); no parameters (a presence byte)."""
TRANSACTION_005 = "6c" + PKH + FEES_HEX + "9703" + IMPLICIT + "00"
"""Tag 108; the source is a public key hash (21 bytes); no parameters."""

ORIGINATION_004: dict[str, JsonValue] = {
    "kind": "origination",
    "source": TZ1,
    **FEES,
    "manager_pubkey": TZ1,
    "balance": "84143",
    "delegatable": False,
    "delegate": TZ1,
}
"""004's: a manager, spendable (``true``, the default, left out of JSON),
not delegatable, and no script (a non-scripted account)."""
ORIGINATION_004_HEX = "09" + IMPLICIT + FEES_HEX + PKH + "af9105" + "ff" + "00" + "ff" + PKH + "00"
"""Tag 9; manager_pubkey, balance, spendable ``ff``, delegatable ``00``, a
present delegate, no script."""


@pytest.mark.parametrize(
    ("protocol", "raw"), [(ATHENS, TRANSACTION_004), (BABYLON, TRANSACTION_005)]
)
def test_the_same_transaction_is_other_bytes_in_004_and_005(protocol: Protocol, raw: str) -> None:
    e = _of(protocol, "operation.contents")
    with output_family("tezos"):
        assert e.encode(e.from_json(TRANSACTION)).hex() == raw
        assert e.to_json(e.decode(bytes.fromhex(raw))) == TRANSACTION
    unsigned = _of(protocol, "operation.unsigned")
    value = unsigned.from_json({"branch": BRANCH, "contents": [TRANSACTION, TRANSACTION]})
    assert unsigned.encode(value).hex() == BRANCH_HEX + raw + raw


def test_a_004_origination_has_its_manager_and_flags() -> None:
    e = _of(ATHENS, "operation.contents")
    with output_family("tezos"):
        value = e.from_json(ORIGINATION_004)
        assert value["spendable"] is True and value["script"] is None
        assert e.encode(value).hex() == ORIGINATION_004_HEX
        assert e.to_json(e.decode(bytes.fromhex(ORIGINATION_004_HEX))) == ORIGINATION_004


@pytest.mark.parametrize(
    ("protocol", "raw", "tag"),
    [(BABYLON, TRANSACTION_004, 8), (ATHENS, TRANSACTION_005, 108)],
    ids=["004-read-by-005", "005-read-by-004"],
)
def test_each_protocol_refuses_the_others_manager_operations(
    protocol: Protocol, raw: str, tag: int
) -> None:
    operation = bytes.fromhex(BRANCH_HEX + raw)
    e = _of(protocol, "operation.unsigned")
    assert _error(lambda: e.decode(operation)) == (
        "DecodeError",
        "unexpected_tag",
        32,
        "/contents/0",
    )
    assert f"unexpected tag {tag} " in str(_catch(lambda: e.decode(operation)))


def _catch(action: Any) -> DataEncodingError:
    with pytest.raises(DataEncodingError) as caught:
        action()
    return caught.value


def test_each_protocol_refuses_the_others_origination_json() -> None:
    origination_005: JsonValue = {
        "kind": "origination",
        "source": TZ1,
        **FEES,
        "balance": "84143",
        "script": {"code": [], "storage": {"int": "0"}},
    }
    assert _error(lambda: _of(ATHENS, "operation.contents").from_json(origination_005)) == (
        "JsonError",
        "missing_field",
        None,
        "/manager_pubkey",
    )
    assert _error(lambda: _of(BABYLON, "operation.contents").from_json(ORIGINATION_004)) == (
        "JsonError",
        "unexpected_field",
        None,
        "/manager_pubkey",
    )


def test_only_004_takes_an_originated_source() -> None:
    """Before 005, an originated account (``KT1…``) could send operations."""
    kt1 = "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"
    sent: JsonValue = {**TRANSACTION, "source": kt1}
    raw = _of(ATHENS, "operation.contents").encode(
        _of(ATHENS, "operation.contents").from_json(sent)
    )
    assert raw.hex().startswith("08" + "01" + "38560805b4c8d7b7fbbafad5c59dbfa3878ca705" + "00")
    assert _error(lambda: _of(BABYLON, "operation.contents").from_json(sent)) == (
        "JsonError",
        "invalid_base58",
        None,
        "/source",
    )


# ------------------------------------------------------------------ strictness

ENDORSEMENT = "0000000533"  # tag 0, level 1331
SIGNATURE_HEX = (
    "66804fe735e06e97e26da8236b6341b91c625d5e82b3524ec0a88cc982365e70"
    "f8a5b9bc65df2ea6d21ee244cc3a96fb33031c394c78b1179ff1b8a44237740c"
)  # the vectors' (64 bytes)


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.short)
def test_contents_are_one_operation_or_a_batch_of_manager_operations(protocol: Protocol) -> None:
    """The protocol's ``of_list`` fails on a batch holding anything but
    manager operations, and asserts that there is a content at all."""
    unsigned = _of(protocol, "operation.unsigned")
    manager = TRANSACTION_004 if protocol is ATHENS else TRANSACTION_005
    batch = bytes.fromhex(BRANCH_HEX + manager + ENDORSEMENT)
    assert _error(lambda: unsigned.decode(batch)) == (
        "DecodeError",
        "invalid_value",
        32,
        "/contents/1",
    )
    with output_family("tezos"):
        batch_json: JsonValue = {
            "branch": BRANCH,
            "contents": [TRANSACTION, {"kind": "endorsement", "level": 1}],
        }
        assert _error(lambda: unsigned.from_json(batch_json))[1:] == (
            "invalid_value",
            None,
            "/contents/1",
        )
        value = unsigned.from_json({"branch": BRANCH, "contents": [TRANSACTION]})
    value["contents"].append({"kind": "endorsement", "level": 1})
    assert _error(lambda: unsigned.encode(value))[1:] == ("invalid_value", None, "/contents/1")
    # no content: the bytes end where the first should be
    assert _error(lambda: unsigned.decode(bytes.fromhex(BRANCH_HEX))) == (
        "DecodeError",
        "not_enough_data",
        32,
        "/contents",
    )
    assert _error(lambda: unsigned.from_json({"branch": BRANCH, "contents": []})) == (
        "JsonError",
        "wrong_length",
        None,
        "/contents",
    )
    operation = _of(protocol, "operation")
    assert _error(lambda: operation.decode(bytes.fromhex(BRANCH_HEX + SIGNATURE_HEX))) == (
        "DecodeError",
        "not_enough_data",
        32,
        "/contents",
    )


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.short)
def test_unknown_tags_and_extra_bytes_are_refused(protocol: Protocol) -> None:
    operation = _of(protocol, "operation")
    # tag 7 is a reveal in 004, nothing from 005 on; 111 is nothing anywhere
    for tag in ("6f", "0b") if protocol is ATHENS else ("6f", "07", "0b"):
        raw = bytes.fromhex(BRANCH_HEX + tag + "00000533" + SIGNATURE_HEX)
        assert _error(partial(operation.decode, raw)) == (
            "DecodeError",
            "unexpected_tag",
            32,
            "/contents/0",
        )
    # one byte more: the signature is read from the end, so the contents
    # end inside a second one
    raw = bytes.fromhex(BRANCH_HEX + ENDORSEMENT + "00" + SIGNATURE_HEX)
    assert _error(lambda: operation.decode(raw)) == (
        "DecodeError",
        "not_enough_data",
        38,
        "/contents/1/level",
    )
    header = _of(protocol, "block_header")
    (full,) = [r for r in VECTORS_007 if r["encoding_name"].endswith(".block_header")]
    assert _error(lambda: header.decode(bytes.fromhex(full["hex"] + "00"))) == (
        "DecodeError",
        "extra_bytes",
        len(full["hex"]) // 2,
        "",
    )


KT1 = "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"
ORIGINATED = "0138560805b4c8d7b7fbbafad5c59dbfa3878ca70500"  # tag 1, hash, padding
CALL: dict[str, JsonValue] = {**TRANSACTION, "destination": KT1}
"""A transaction to a contract, given parameters below."""
CALL_HEAD = FEES_HEX + "9703" + ORIGINATED
"""Its bytes after the source, up to the parameters' presence byte."""


@pytest.mark.parametrize(
    ("protocol", "parameters", "raw"),
    [
        # 004: the parameters are one expression (here a sequence of UNIT)
        (ATHENS, [{"prim": "UNIT"}], "08" + IMPLICIT + CALL_HEAD + "ff000000070200000002034f"),
        # 005: an entrypoint, then the expression; a named one is 255 and its text
        (
            BABYLON,
            {"entrypoint": "action", "value": [{"prim": "UNIT"}]},
            "6c" + PKH + CALL_HEAD + "ffff06616374696f6e000000070200000002034f",
        ),
        # a builtin one is its tag alone: "do" is 2
        (
            BABYLON,
            {"entrypoint": "do", "value": {"prim": "Unit"}},
            "6c" + PKH + CALL_HEAD + "ff0200000002030b",
        ),
        # "default" with another value than Unit is parameters
        (
            BABYLON,
            {"entrypoint": "default", "value": {"prim": "Unit", "annots": ["%a"]}},
            "6c" + PKH + CALL_HEAD + "ff0000000008040b000000022561",
        ),
    ],
    ids=["004", "005-named", "005-builtin", "005-default-annotated"],
)
def test_a_transactions_parameters_in_004_and_005(
    protocol: Protocol, parameters: JsonValue, raw: str
) -> None:
    e = _of(protocol, "operation.contents")
    call = {**CALL, "parameters": parameters}
    with output_family("tezos"):
        assert e.encode(e.from_json(call)).hex() == raw
        assert e.to_json(e.decode(bytes.fromhex(raw))) == call


def test_parameters_meaning_none_are_not_canonical() -> None:
    """005 on: the entrypoint ``default`` given ``Unit`` is what no parameters
    mean; the node writes none, so these bytes, this JSON and this value are
    another spelling of the transaction without them."""
    e = _of(DELPHI, "operation.contents")
    written = "6c" + PKH + CALL_HEAD + "ff0000000002030b"
    assert _error(lambda: e.decode(bytes.fromhex(written))) == (
        "DecodeError",
        "not_canonical",
        60,
        "/parameters",
    )
    none: JsonValue = {"entrypoint": "default", "value": {"prim": "Unit"}}
    assert _error(lambda: e.from_json({**CALL, "parameters": none})) == (
        "JsonError",
        "not_canonical",
        None,
        "/parameters",
    )
    value = e.from_json({**CALL, "parameters": {"entrypoint": "do", "value": {"prim": "Unit"}}})
    value["parameters"]["entrypoint"] = "default"
    for action in (e.encode, e.to_json):
        assert _error(partial(action, value))[1:] == ("not_canonical", None, "/parameters")
    # in 004 the same expression is just parameters
    athens_call: JsonValue = {**CALL, "parameters": {"prim": "Unit"}}
    assert (
        _of(ATHENS, "operation.contents")
        .encode(_of(ATHENS, "operation.contents").from_json(athens_call))
        .hex()
        .endswith("ff00000002030b")
    )


def test_a_builtin_entrypoint_written_by_name_is_not_canonical() -> None:
    e = _of(BABYLON, "operation.contents")
    named = "6c" + PKH + CALL_HEAD + "ffff02646f00000002030b"  # "do" by name
    assert _error(lambda: e.decode(bytes.fromhex(named))) == (
        "DecodeError",
        "not_canonical",
        60,
        "/parameters/entrypoint",
    )


def test_a_named_entrypoint_that_is_not_utf8_has_bytes_and_no_json() -> None:
    """A named entrypoint is any 31 bytes (``Bounded.string 31``), whose JSON
    is a plain string: bytes that are not UTF-8 read and write back, and
    have no JSON form (README, "Strictness"), in either JSON path alike."""
    e = _of(BABYLON, "operation.contents")
    raw = bytes.fromhex("6c" + PKH + CALL_HEAD + "ffff06616374696fc4" + "000000070200000002034f")
    value = e.decode(raw)
    assert value["parameters"]["entrypoint"] == b"actio\xc4"
    assert e.encode(value) == raw
    no_json = ("EncodeError", "not_json", None, "/parameters/entrypoint")
    assert _error(lambda: e.to_json(value)) == no_json
    assert _error(lambda: e.decode_json(raw)) == no_json
