"""Operation receipts of protocols 004-007 (issue 29): what applying an
operation did (``apply_results.ml``), the ``operation.data_and_metadata``
ids, and the block services that answer with them.

No real receipt of these protocols is at hand (the 007 vectors have none):
the values here are the real 007 vectors' operations, balance updates and
big map diffs, given results whose bytes are pinned by hand from each
protocol's ``apply_results.ml``.

* A real transaction with its receipt reads and writes exactly, in each
  status (applied, failed with errors, skipped, backtracked), with the
  results of the operations its contract emitted.
* 004's origination result has no big map diff, 005's has; 007 counts gas
  in milligas too, and refuses a pair of counts that disagree, as the
  reference's assertion does.
* Contents with their results are one content or a batch of manager
  operations, as the contents are.
* 005 and 006 share their receipts: the very same encodings.
* The block services answer with them: ``/operations…``, ``/``,
  ``/metadata``, ``preapply`` and ``run_operation``.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import DataEncodingError, Encoding, json, n, z
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry, rpc
from data_encoding.node.keys import output_family
from data_encoding.node.protocols import (
    ATHENS,
    BABYLON,
    CARTHAGE,
    DELPHI,
    PROTOCOLS,
    Protocol,
    athens,
    babylon,
    carthage,
    delphi,
)
from golden import codec_vectors

B = "/chains/<chain_id>/blocks/<block_id>"
TZ1 = "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
MAINNET, MAINNET_HEX = "NetXdQprcVkpaWU", "7a06a770"
OPERATION_HASH = "oneDNXrq8HVRVCJXkqofS9e41G8ZkttpBZFMaQ9MvKyP3nYiP97"
OPERATION_HASH_HEX = bytes(range(32)).hex()


def _framed(hex: str) -> str:
    """``hex`` after its byte count (a ``uint30``)."""
    return f"{len(hex) // 2:08x}{hex}"


def _vector(name: str, index: int = 0, kind: str | None = None) -> dict[str, Any]:
    """A real 007 vector of ``name`` (its operation's first content of ``kind``)."""
    rows = codec_vectors(f"007-PsDELPH1.{name}")
    if kind is not None:
        rows = [r for r in rows if r["json"]["contents"][0]["kind"] == kind]
    return rows[index]


def _error(action: Any) -> tuple[str, str, int | None, str]:
    with pytest.raises(DataEncodingError) as caught:
        action()
    err = caught.value
    return (type(err).__name__, err.code, err.offset, "".join(f"/{s}" for s in err.path))


def _both_ways(e: Encoding[Any], document: Any, hex: str) -> None:
    """``document`` (JSON) is ``hex`` in binary, each read back to the other."""
    with output_family("tezos"):
        assert e.encode(e.from_json(document)).hex() == hex
        assert e.to_json(e.decode(bytes.fromhex(hex))) == document


TRANSACTION = _vector("operation", kind="transaction")
"""A real transaction (to an implicit account): its content's bytes lie
between the branch and the signature."""
CONTENT, SIGNATURE = TRANSACTION["json"]["contents"][0], TRANSACTION["json"]["signature"]
CONTENT_HEX, SIGNATURE_HEX = TRANSACTION["hex"][64:-128], TRANSACTION["hex"][-128:]

PAID, FEES = _vector("delegate.balance_updates", 0), _vector("delegate.balance_updates", 3)
"""Real balance updates: a contract's change, a delegate's frozen fees."""
PAID_ITEM, FEES_ITEM = PAID["hex"][8:], FEES["hex"][8:]  # without the list's byte count
REMOVE = _vector("contract.big_map_diff", 2)


def _gas(gas: int, milligas: int | None = None) -> str:
    """A result's gas: ``z`` up to 006; from 007 on ``n``, then its milligas."""
    if milligas is None:
        return z.encode(gas).hex()
    return n.encode(gas).hex() + n.encode(milligas).hex()


def _applied_transaction(gas: str) -> str:
    """An applied transaction's fields: no storage, no big map diff, the
    contract's change, no contract originated, ``gas``, 232 bytes of storage,
    none paid, no account allocated."""
    return "00" + "00" + _framed(PAID_ITEM) + _framed("") + gas + z.encode(232).hex() + "00" + "00"


APPLIED = {
    "status": "applied",
    "balance_updates": PAID["json"],
    "consumed_gas": "1427",
    "storage_size": "232",
}
"""An applied transaction's result, as the node prints it (its defaults left out)."""


def _receipt(
    result: dict[str, Any], result_hex: str, internal: list[Any], internal_hex: str
) -> Any:
    """The real transaction with ``result``, the fees paid, and ``internal``
    results: JSON and bytes (``operation.data_and_metadata``)."""
    metadata = {"balance_updates": PAID["json"] + FEES["json"], "operation_result": result}
    if internal:
        metadata["internal_operation_results"] = internal
    document = {"contents": [{**CONTENT, "metadata": metadata}], "signature": SIGNATURE}
    metadata_hex = _framed(PAID_ITEM + FEES_ITEM) + result_hex + _framed(internal_hex)
    return document, "00" + _framed(CONTENT_HEX + metadata_hex) + "ff" + SIGNATURE_HEX


# ------------------------------------------------------------------ a transaction's receipt


@pytest.mark.parametrize("protocol", [BABYLON, CARTHAGE, DELPHI], ids=str)
def test_a_real_transaction_with_its_applied_result_reads_and_writes_exactly(
    protocol: Protocol,
) -> None:
    milligas = protocol is DELPHI
    result = {**APPLIED, "consumed_milligas": "1426362"} if milligas else APPLIED
    gas = _gas(1427, 1426362) if milligas else _gas(1427)
    document, hex = _receipt(result, "00" + _applied_transaction(gas), [], "")
    e = registry.find(protocol.id("operation.data_and_metadata")).encoding
    _both_ways(e, document, hex)


ERROR: JsonValue = {"kind": "temporary", "id": "proto.007-PsDELPH1.gas_exhausted.operation"}
"""An error as the node prints it (any JSON; BSON in binary)."""
ERROR_HEX = json.encode(ERROR).hex()


@pytest.mark.parametrize(
    ("result", "result_hex"),
    [
        ({"status": "failed", "errors": [ERROR]}, "01" + _framed(ERROR_HEX)),
        ({"status": "skipped"}, "02"),
        # undone when a later operation failed: its errors are optional
        (
            {**APPLIED, "status": "backtracked", "consumed_milligas": "1426362"},
            "03" + "00" + _applied_transaction(_gas(1427, 1426362)),
        ),
        (
            {**APPLIED, "status": "backtracked", "errors": [], "consumed_milligas": "1426362"},
            "03" + "ff" + _framed("") + _applied_transaction(_gas(1427, 1426362)),
        ),
    ],
    ids=["failed", "skipped", "backtracked", "backtracked with errors"],
)
def test_each_status_of_a_result_reads_and_writes_exactly(
    result: dict[str, Any], result_hex: str
) -> None:
    document, hex = _receipt(result, result_hex, [], "")
    _both_ways(delphi.OPERATION_DATA_AND_METADATA, document, hex)


def test_the_results_of_the_operations_a_contract_emitted_follow_its_own() -> None:
    """An internal result is its kind's tag, then the internal operation's
    source, nonce and fields (a real 007 ``operation.internal``, whose own
    layout has the tag after the nonce), then its result."""
    internal = _vector("operation.internal", 5)
    source_and_nonce, tag, fields = (
        internal["hex"][:48],
        internal["hex"][48:50],
        internal["hex"][50:],
    )
    assert (internal["json"]["kind"], tag) == ("transaction", "01")
    document, hex = _receipt(
        {"status": "skipped"},
        "02",
        [{**internal["json"], "result": {"status": "failed", "errors": [ERROR]}}],
        tag + source_and_nonce + fields + "01" + _framed(ERROR_HEX),
    )
    _both_ways(delphi.OPERATION_DATA_AND_METADATA, document, hex)


# ------------------------------------------------------------------ what differs


def test_an_origination_result_has_a_big_map_diff_from_005_on() -> None:
    applied = {"status": "applied", "big_map_diff": REMOVE["json"]}
    _both_ways(
        babylon.RESULTS.operation_results["origination"],
        applied,
        "00" + "ff" + REMOVE["hex"] + _framed("") + _framed("") + "00" + "00" + "00",
    )
    assert _error(lambda: athens.RESULTS.operation_results["origination"].from_json(applied)) == (
        "JsonError",
        "unexpected_field",
        None,
        "/big_map_diff",
    )
    _both_ways(
        athens.RESULTS.operation_results["origination"],
        {"status": "applied", "consumed_gas": "-1"},  # z, as the reference has it
        "00" + _framed("") + _framed("") + "41" + "00" + "00",
    )


def test_from_007_on_a_results_gas_is_the_ceiling_of_its_milligas() -> None:
    reveal = delphi.RESULTS.operation_results["reveal"]
    _both_ways(
        reveal, {"status": "applied", "consumed_gas": "2", "consumed_milligas": "1001"}, "0002e907"
    )
    _both_ways(reveal, {"status": "applied"}, "000000")
    disagreeing: JsonValue = {"status": "applied", "consumed_gas": "1", "consumed_milligas": "1001"}
    where = "/consumed_gas"
    assert _error(lambda: reveal.from_json(disagreeing)) == (
        "JsonError",
        "invalid_value",
        None,
        where,
    )
    assert _error(lambda: reveal.decode(bytes.fromhex("0001e907"))) == (
        "DecodeError",
        "invalid_value",
        1,
        where,
    )
    value = {"status": "applied", "consumed_gas": 1, "consumed_milligas": 1001}
    assert _error(lambda: reveal.encode(value)) == ("EncodeError", "invalid_value", None, where)
    # before 007, one count: no milligas to agree with
    assert _error(lambda: carthage.RESULTS.operation_results["reveal"].from_json(disagreeing)) == (
        "JsonError",
        "unexpected_field",
        None,
        "/consumed_milligas",
    )


def test_005_and_006_share_their_receipts_and_the_others_have_their_own() -> None:
    assert carthage.RESULTS is babylon.RESULTS
    encodings = {id(registry.find(p.id("operation.data_and_metadata")).encoding) for p in PROTOCOLS}
    assert len(encodings) == 3
    assert delphi.OPERATION_DATA_AND_METADATA is delphi.RESULTS.operation_with_metadata


# ------------------------------------------------------------------ contents and their metadata


ENDORSEMENT = _vector("operation", kind="endorsement")
ENDORSED = {"balance_updates": FEES["json"], "delegate": TZ1, "slots": [0, 7]}
ENDORSED_HEX = _framed(FEES_ITEM) + FEES_ITEM[2:44] + _framed("0007")
"""An endorsement's metadata: the delegate's frozen fees, the delegate
(its key hash, as in the fees' bytes), its slots."""


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=str)
def test_a_content_that_is_no_manager_operation_has_its_own_metadata(protocol: Protocol) -> None:
    e = registry.find(protocol.id("operation.data_and_metadata")).encoding
    endorsement = ENDORSEMENT["json"]["contents"][0]
    document = {"contents": [{**endorsement, "metadata": ENDORSED}]}
    _both_ways(e, document, "00" + _framed(ENDORSEMENT["hex"][64:-128] + ENDORSED_HEX) + "00")
    ballot = _vector("operation", kind="ballot")
    document = {"contents": [{**ballot["json"]["contents"][0], "metadata": {}}]}
    _both_ways(e, document, "00" + _framed(ballot["hex"][64:-128]) + "00")


def test_an_operation_the_node_kept_no_receipt_of_is_its_contents() -> None:
    document = {"contents": TRANSACTION["json"]["contents"], "signature": SIGNATURE}
    _both_ways(
        delphi.OPERATION_DATA_AND_METADATA,
        document,
        "01" + _framed(CONTENT_HEX) + "ff" + SIGNATURE_HEX,
    )


def test_contents_with_results_are_one_content_or_a_batch_of_manager_operations() -> None:
    contents = delphi.RESULTS.contents_and_result_list
    endorsement = {**ENDORSEMENT["json"]["contents"][0], "metadata": ENDORSED}
    skipped = {"balance_updates": [], "operation_result": {"status": "skipped"}}
    transaction = {**CONTENT, "metadata": skipped}
    assert _error(lambda: contents.from_json([endorsement, transaction])) == (
        "JsonError",
        "invalid_value",
        None,
        "/0",
    )
    assert _error(lambda: contents.from_json([])) == ("JsonError", "wrong_length", None, "")
    assert _error(lambda: contents.decode(b"")) == ("DecodeError", "not_enough_data", 0, "")
    batch: JsonValue = [transaction, transaction]
    with output_family("tezos"):
        assert (
            contents.to_json(contents.decode(contents.encode(contents.from_json(batch)))) == batch
        )


def test_an_operation_whose_contents_break_the_batch_rule_is_refused_at_the_content() -> None:
    # the case is the one the first content names (with its metadata or
    # without), whose reader then says what is wrong: not the other case's
    # "unexpected field metadata"
    e = delphi.OPERATION_DATA_AND_METADATA
    endorsement = {**ENDORSEMENT["json"]["contents"][0], "metadata": ENDORSED}
    skipped = {"balance_updates": [], "operation_result": {"status": "skipped"}}
    document: Any = {
        "contents": [endorsement, {**CONTENT, "metadata": skipped}],
        "signature": SIGNATURE,
    }
    with output_family("tezos"):
        assert _error(lambda: e.from_json(document)) == (
            "JsonError",
            "invalid_value",
            None,
            "/contents/0",
        )
        without: Any = {"contents": [ENDORSEMENT["json"]["contents"][0], CONTENT]}
        assert _error(lambda: e.from_json(without)) == (
            "JsonError",
            "invalid_value",
            None,
            "/contents/0",
        )
        value: Any = e.from_json({"contents": [endorsement]})
        value["contents"].append(value["contents"][0])
        assert _error(lambda: e.encode(value)) == (
            "EncodeError",
            "invalid_value",
            None,
            "/contents/0",
        )


def test_a_receipt_alone_is_the_results_with_their_kinds_or_none() -> None:
    metadata = delphi.OPERATION_METADATA
    _both_ways(metadata, {}, "01")
    endorsed = [{"kind": "endorsement", **ENDORSED}]
    _both_ways(metadata, endorsed, "00" + _framed("00" + ENDORSED_HEX))
    assert _error(lambda: metadata.decode(bytes.fromhex("00" + _framed("")))) == (
        "DecodeError",
        "wrong_length",
        1,
        "",
    )


# ------------------------------------------------------------------ the block's metadata

LEVEL = _vector("level")


def _block_metadata(consumed_gas: str) -> Any:
    return {
        "baker": TZ1,
        "level": LEVEL["json"],
        "voting_period_kind": "proposal",
        "nonce_hash": None,
        "consumed_gas": consumed_gas,
        "deactivated": [TZ1],
        "balance_updates": FEES["json"],
    }


def _block_metadata_hex(consumed_gas: str) -> str:
    baker = FEES_ITEM[2:44]
    return str(baker + LEVEL["hex"] + "00" + "00" + consumed_gas + _framed(baker) + FEES["hex"])


def test_a_blocks_metadata_counts_its_gas_in_milligas_from_007_on() -> None:
    big = 10**30  # 13 bytes of n: more than 006's check allows
    _both_ways(
        delphi.BLOCK_HEADER_METADATA,
        _block_metadata(str(big)),
        _block_metadata_hex(n.encode(big).hex()),
    )
    _both_ways(athens.BLOCK_HEADER_METADATA, _block_metadata("1000"), _block_metadata_hex("e807"))
    too_much = athens.BLOCK_HEADER_METADATA.from_json(_block_metadata(str(big)))
    assert _error(lambda: athens.BLOCK_HEADER_METADATA.encode(too_much)) == (
        "EncodeError",
        "size_limit_exceeded",
        None,
        "/consumed_gas",
    )


# ------------------------------------------------------------------ the services


def _service(protocol: Protocol, method: str, path: str) -> rpc.Service:
    (service,) = [
        s for p, s in rpc.services(protocol=protocol) if (s.method, p) == (method, B + path)
    ]
    return service


KNOWN = {"protocol": DELPHI.hash, "chain_id": MAINNET, "hash": OPERATION_HASH}
"""An operation's protocol (JSON only), chain and hash, in a block's answers."""
KNOWN_HEX = MAINNET_HEX + OPERATION_HASH_HEX
BRANCH_HEX = TRANSACTION["hex"][:64]


def test_a_blocks_operation_is_the_operation_with_its_receipt() -> None:
    document, receipt = _receipt(
        APPLIED | {"consumed_milligas": "1426362"},
        "00" + _applied_transaction(_gas(1427, 1426362)),
        [],
        "",
    )
    operation = {**KNOWN, "branch": TRANSACTION["json"]["branch"], **document}
    hex = KNOWN_HEX + _framed(BRANCH_HEX) + _framed("00" + receipt)
    one = _service(DELPHI, "GET", "/operations/<list_offset>/<operation_offset>").output
    _both_ways(one, operation, hex)
    _both_ways(
        _service(DELPHI, "GET", "/operations/<list_offset>").output, [operation], _framed(hex)
    )
    _both_ways(
        _service(DELPHI, "GET", "/operations").output,
        [[operation], []],
        _framed(_framed(_framed(hex)) + _framed(_framed(""))),
    )


def test_an_operation_without_receipt_is_written_as_its_receipts_none() -> None:
    """The block's union and the receipt's both say "no receipt": the node
    of the era always writes the receipt's (it keeps one for every
    operation), and the block's reads back to the same value, so that its
    bytes are not canonical: read leniently only."""
    one = _service(DELPHI, "GET", "/operations/<list_offset>/<operation_offset>").output
    operation = {**KNOWN, **TRANSACTION["json"]}
    written = (
        KNOWN_HEX
        + _framed(BRANCH_HEX)
        + _framed("00" + "01" + _framed(CONTENT_HEX) + "ff" + SIGNATURE_HEX)
    )
    _both_ways(one, operation, written)
    the_blocks = bytes.fromhex(
        KNOWN_HEX + _framed(BRANCH_HEX) + _framed("01" + CONTENT_HEX + SIGNATURE_HEX)
    )
    assert _error(lambda: one.decode(the_blocks)) == ("DecodeError", "not_canonical", 76, "")
    with output_family("tezos"):
        assert one.to_json(one.decode(the_blocks, canonical=False)) == operation


def test_a_blocks_metadata_is_the_shells_then_the_protocols() -> None:
    shell = {
        "protocol": DELPHI.hash,
        "next_protocol": DELPHI.hash,
        "test_chain_status": {"status": "not_running"},
        "max_operations_ttl": 60,
        "max_operation_data_length": 16384,
        "max_block_header_length": 238,
        "max_operation_list_length": [{"max_size": 4194304, "max_op": 2048}, {"max_size": 32768}],
    }
    shell_hex = (
        "00"
        + "0000003c"
        + "00004000"
        + "000000ee"
        + _framed(_framed("00400000" + "ff" + "00000800" + "00008000" + "00"))
    )
    metadata = _service(DELPHI, "GET", "/metadata").output
    document = {**shell, **_block_metadata("1000")}
    _both_ways(metadata, document, shell_hex + _block_metadata_hex("e807"))
    assert document["level"]["level"] == LEVEL["json"]["level"]  # what the seed shows
    block = _service(DELPHI, "GET", "").output
    header = _vector("block_header")
    value = {
        "protocol": DELPHI.hash,
        "chain_id": MAINNET,
        "hash": "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb",
        "header": header["json"],
        "metadata": document,
        "operations": [],
    }
    block_hex = (
        MAINNET_HEX
        + BRANCH_HEX  # the same block hash
        + _framed(header["hex"])
        + "ff"
        + _framed(shell_hex + _block_metadata_hex("e807"))
        + _framed("")
    )
    _both_ways(block, value, block_hex)


@pytest.mark.parametrize("protocol", [BABYLON, DELPHI], ids=str)
def test_simulating_operations_answers_their_receipts(protocol: Protocol) -> None:
    document, receipt = _receipt(
        {"status": "failed", "errors": [ERROR]}, "01" + _framed(ERROR_HEX), [], ""
    )
    preapply = _service(protocol, "POST", "/helpers/preapply/operations")
    assert preapply.input is not None
    unsigned = {"protocol": protocol.hash, **TRANSACTION["json"]}
    _both_ways(
        preapply.input,
        [unsigned],
        _framed(_framed(BRANCH_HEX) + _framed(CONTENT_HEX + SIGNATURE_HEX)),
    )
    _both_ways(preapply.output, [document], _framed(_framed(receipt)))
    run = _service(protocol, "POST", "/helpers/scripts/run_operation")
    assert run.output is registry.find(protocol.id("operation.data_and_metadata")).encoding
    assert run.input is not None
    _both_ways(
        run.input,
        {"operation": TRANSACTION["json"], "chain_id": MAINNET},
        TRANSACTION["hex"] + MAINNET_HEX,
    )


def test_running_an_operation_in_004_takes_the_operation_alone() -> None:
    run = _service(ATHENS, "POST", "/helpers/scripts/run_operation")
    assert run.input is registry.find(ATHENS.id("operation")).encoding
    assert run.output is athens.OPERATION_DATA_AND_METADATA


def test_simulating_a_block_answers_the_shells_operations() -> None:
    preapply = _service(DELPHI, "POST", "/helpers/preapply/block")
    raw = _vector("operation.raw")
    refused: dict[str, JsonValue] = {"hash": OPERATION_HASH, **raw["json"], "error": [ERROR]}
    result: dict[str, JsonValue] = {
        "applied": [],
        "refused": [refused],
        "branch_refused": [],
        "branch_delayed": [],
    }
    shell = _vector("block_header.raw")
    shell_hex = shell["hex"][: -len(shell["json"]["protocol_data"])]
    shell_json = {k: v for k, v in shell["json"].items() if k != "protocol_data"}
    refused_hex = OPERATION_HASH_HEX + _framed(raw["hex"]) + json.encode([ERROR]).hex()
    e = preapply.output
    document: JsonValue = {"shell_header": shell_json, "operations": [result]}
    hex = shell_hex + _framed(_framed("") + _framed(refused_hex) + _framed("") + _framed(""))
    with output_family("tezos"):
        assert e.encode(e.from_json(document)).hex() == hex
        # an error list is any JSON, BSON in binary: its root array reads
        # back as an object, as in the reference
        read = e.to_json(e.decode(bytes.fromhex(hex)))
    assert read == {
        "shell_header": shell_json,
        "operations": [{**result, "refused": [{**refused, "error": {"0": ERROR}}]}],
    }
    assert preapply.query.parse("sort&timestamp=1587399600") == {
        "sort": True,
        "timestamp": 1587399600,
    }
