"""The directory of a protocol (issue 29): the seed's block-scoped services,
and the injection, typed as protocols 004-007 declare them.

What each service takes and answers is read from the protocols' sources
(``src/proto_00N_*/lib_protocol/*_services.ml``; the shell's part of the
block namespace from ``lib_shell_services/block_services.ml``, the injection
from ``injection_services.ml``):

* a body that is one of the protocol's ids is that id's very encoding, and
  one of the shell's encodings is that encoding (by identity);
* a body the service states inline (a record over ids, a list...) reads and
  writes a value pinned here, built by hand from its declaration, real data
  where the vectors have it;
* the real 007 vectors go through ``/helpers/forge/operations``,
  ``/helpers/parse/…`` and ``/header…`` by the services' encodings alone;
* every other service of the seed stays untyped, and which is pinned: those
  no protocol declares, and those whose bodies the catalogue cannot state;
* each protocol's ``/describe`` answer reads and prints back, in JSON and in
  binary, through ``rpc.service_tree`` (and 007's through its 1.0 twin);
* without a protocol, the directory is the seed's, as before.
"""

from __future__ import annotations

import json as json_text
from typing import Any

import pytest

from data_encoding import (
    DataEncodingError,
    DefinitionError,
    Encoding,
    bool_,
    bytes_,
    int31,
    int32,
    json,
    z,
)
from data_encoding.node import registry, rpc
from data_encoding.node.hashes import operation_hash
from data_encoding.node.keys import output_family
from data_encoding.node.protocols import ATHENS, BABYLON, CARTHAGE, DELPHI, Protocol, find_protocol
from data_encoding.node.rpc.protocol import Declared, declared
from data_encoding.tree.framing import DynamicSize
from data_encoding.tree.records import Obj
from golden import VECTORS

PROTOCOLS = (ATHENS, BABYLON, CARTHAGE, DELPHI)
ALL = range(4, 8)
BABYLON_ON = range(5, 8)
BEFORE_BABYLON = range(4, 5)

B = "/chains/<chain_id>/blocks/<block_id>"
C = f"{B}/context/contracts/<contract_id>"
D = f"{B}/context/delegates/<pkh>"


def _name(protocol: Protocol) -> str:
    return protocol.toolchain_name


def _vectors(name: str) -> list[dict[str, Any]]:
    rows = [json_text.loads(line) for line in (VECTORS / "octez-codec-007.jsonl").open()]
    return [r for r in rows if r["encoding_name"] == f"007-PsDELPH1.{name}"]


def _service(protocol: Protocol | None, method: str, path: str) -> rpc.Service:
    (service,) = [s for p, s in rpc.services(protocol=protocol) if (s.method, p) == (method, path)]
    return service


def _of(protocol: Protocol, name: str) -> Encoding[Any]:
    return registry.find(protocol.id(name)).encoding


# ------------------------------------------------------------------ which services are typed

NOT_DECLARED = {
    ("GET", f"{B}/allowed_peer_ids"),
    ("GET", f"{B}/context/activate_protocol"),
    ("GET", f"{B}/context/codes/code/<script_expr>"),
    ("POST", f"{B}/context/codes/known"),
    ("GET", f"{B}/context/next_deflate"),
    ("GET", f"{B}/context/protocol_revision"),
    ("GET", f"{B}/context/unburn"),
    ("POST", f"{C}/exec_fun/<string>"),
    ("GET", f"{C}/get_value/<string>"),
    ("GET", f"{C}/info"),
    ("GET", f"{C}/parameters"),
    ("POST", f"{B}/dune/build_operation"),
    ("POST", f"{B}/helpers/scripts/unpack_data"),
    ("GET", f"{B}/operation/<operation_hash>"),
    ("GET", f"{B}/raw_context"),
}
"""The seed's node has them; no protocol of 004-007 declares them."""

NOT_STATED = {
    # an entrypoint list is an ``assoc``; a type map, a raw context
    ("GET", f"{C}/entrypoints"),
    ("POST", f"{B}/helpers/scripts/entrypoints"),
    ("POST", f"{B}/helpers/scripts/typecheck_code"),
    ("GET", f"{B}/context/raw/bytes/<string>*"),
    ("GET", f"{B}/context/raw/json/<string>*"),
}
"""Their bodies need encodings the catalogue does not have."""

BABYLON_ADDED = {
    ("POST", f"{B}/helpers/scripts/entrypoint"),
    ("GET", f"{C}/entrypoints/<string>"),
    ("GET", f"{B}/context/big_maps/<big_map_id>/<script_expr>"),
    ("POST", f"{B}/endorsing_power"),
    ("GET", f"{B}/required_endorsements"),
    ("GET", f"{B}/minimal_valid_time"),
}
"""Declared from 005 on: untyped in 004's directory."""


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_untyped_are_the_services_not_declared_or_not_statable(protocol: Protocol) -> None:
    block = [(s.method, p) for p, s in rpc.services(protocol=protocol) if p.startswith(B)]
    untyped = {(m, p) for m, p in block if not _service(protocol, m, p).typed}
    expected = NOT_DECLARED | NOT_STATED | (BABYLON_ADDED if protocol is ATHENS else set())
    assert untyped == expected
    assert (len(block), len(untyped)) == (89, 26 if protocol is ATHENS else 20)


def test_without_a_protocol_the_directory_is_the_seeds() -> None:
    assert rpc.directory_of() is rpc.directory_of(protocol=None)
    typed = [(s.method, p) for p, s in rpc.services() if s.typed and p.startswith(B)]
    assert typed == [("GET", f"{B}/metadata")]
    assert not _service(None, "POST", "/injection/operation").typed
    forge = rpc.describe("/chains/main/blocks/head/helpers/forge/operations", recurse=False)
    assert forge["static"]["post_service"]["input"]["json_schema"] == json.json_schema()


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_a_protocol_keeps_the_seeds_paths(protocol: Protocol) -> None:
    ours = [(s.method, p, s.edition) for p, s in rpc.services(protocol=protocol)]
    seed = [(s.method, p, s.edition) for p, s in rpc.services()]
    assert ours == seed


def test_a_declared_service_the_seed_does_not_list_is_refused() -> None:
    rows = (
        Declared("GET", "/hash", bytes_),
        Declared("GET", "/hashes", bytes_),
        Declared("POST", "/hash", bytes_),
    )
    with pytest.raises(DefinitionError) as caught:
        declared(DELPHI, rows)
    assert str(caught.value) == (
        "declared but not in the seed's directory: GET /hashes, POST /hash"
    )
    assert list(declared(DELPHI, rows[:1])) == [("GET", "/hash")]


# ------------------------------------------------------------------ bodies that are ids

PROTOCOL_IDS: list[tuple[str, str, str, str, range]] = [
    ("POST", f"{B}/helpers/forge/operations", "input", "operation.unsigned", ALL),
    ("POST", f"{B}/helpers/parse/block", "input", "block_header.raw", ALL),
    ("POST", f"{B}/helpers/parse/block", "output", "block_header.protocol_data", ALL),
    ("GET", f"{B}/helpers/current_level", "output", "level", ALL),
    ("GET", f"{B}/minimal_valid_time", "output", "timestamp", BABYLON_ON),
    ("POST", f"{B}/context/seed", "output", "seed", ALL),
    ("GET", f"{B}/context/constants", "output", "constants", ALL),
    ("GET", f"{C}/balance", "output", "tez", ALL),
    ("GET", f"{C}/script", "output", "script", ALL),
    ("GET", f"{C}/storage", "output", "script.expr", ALL),
    ("GET", f"{C}/entrypoints/<string>", "output", "script.expr", BABYLON_ON),
    (
        "GET",
        f"{B}/context/big_maps/<big_map_id>/<script_expr>",
        "output",
        "script.expr",
        BABYLON_ON,
    ),
    ("GET", f"{D}/balance", "output", "tez", ALL),
    ("GET", f"{D}/frozen_balance", "output", "tez", ALL),
    ("GET", f"{D}/staking_balance", "output", "tez", ALL),
    ("GET", f"{D}/delegated_balance", "output", "tez", ALL),
    ("GET", f"{D}/frozen_balance_by_cycle", "output", "delegate.frozen_balance_by_cycles", ALL),
    ("GET", f"{D}/grace_period", "output", "cycle", ALL),
    ("GET", f"{B}/votes/ballots", "output", "vote.ballots", ALL),
    ("GET", f"{B}/votes/current_period_kind", "output", "voting_period.kind", ALL),
    ("GET", f"{B}/votes/listings", "output", "vote.listings", ALL),
]
"""A body that is one of the protocol's ids: method, path, which body, the
id (as the node names it), the protocols that declare it so."""


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_a_body_that_is_an_id_is_the_protocols_id(protocol: Protocol) -> None:
    for method, path, side, name, protocols in PROTOCOL_IDS:
        if protocol.number not in protocols:
            continue
        service = _service(protocol, method, path)
        assert getattr(service, side) is _of(protocol, name), (method, path, side)


SHELL = {
    "block_hash": registry.find("block_hash").encoding,
    "shell.block_header": registry.find("shell.block_header").encoding,
    "shell.block_header.shell": registry.find("shell.block_header.shell").encoding,
    "signature.public_key_hash": registry.find("signature.public_key_hash").encoding,
    "rpc.empty": registry.find("rpc.empty").encoding,
}

SHELL_BODIES: list[tuple[str, str, str, Encoding[Any], range]] = [
    ("GET", f"{B}/hash", "output", SHELL["block_hash"], ALL),
    ("GET", f"{B}/header/shell", "output", SHELL["shell.block_header.shell"], ALL),
    ("GET", f"{B}/header/raw", "output", bytes_, ALL),
    ("GET", f"{B}/header/protocol_data/raw", "output", bytes_, ALL),
    (
        "GET",
        f"{B}/operation_hashes/<list_offset>/<operation_offset>",
        "output",
        operation_hash,
        ALL,
    ),
    ("POST", f"{B}/helpers/forge/operations", "output", bytes_, ALL),
    ("POST", f"{B}/helpers/forge_block_header", "input", SHELL["shell.block_header"], ALL),
    ("GET", f"{C}/counter", "output", z, ALL),
    ("GET", f"{C}/delegate", "output", SHELL["signature.public_key_hash"], ALL),
    ("GET", f"{D}/deactivated", "output", bool_, ALL),
    ("POST", f"{B}/context/seed", "input", SHELL["rpc.empty"], ALL),
    ("GET", f"{B}/context/constants/errors", "output", json, ALL),
    ("GET", f"{B}/votes/current_quorum", "output", int32, ALL),
    ("POST", f"{B}/endorsing_power", "output", int31, BABYLON_ON),
    ("GET", f"{B}/required_endorsements", "output", int31, BABYLON_ON),
    ("POST", "/injection/operation", "input", bytes_, ALL),
    ("POST", "/injection/operation", "output", operation_hash, ALL),
    ("POST", "/injection/block", "output", SHELL["block_hash"], ALL),
]
"""A body that is one of the shell's encodings (the catalogue's id where it has one)."""


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_a_body_of_the_shell_is_the_shells_encoding(protocol: Protocol) -> None:
    for method, path, side, expected, protocols in SHELL_BODIES:
        if protocol.number in protocols:
            assert getattr(_service(protocol, method, path), side) is expected, (method, path)


# ------------------------------------------------------------------ bodies the services state

TZ1 = "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
TZ1_HEX = "0002298c03ed7d454a101eb7022bc95f7e5f41ac78"  # a public key hash: curve, 20 bytes
KT1 = "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"
KT1_HASH = "38560805b4c8d7b7fbbafad5c59dbfa3878ca705"
EDPK = "edpkuBknW28nW72KG6RoHtYW7p12T6GKc7nAbwYX5m8Wd9sDVC9yav"
EDPK_HEX = "004798d2cc98473d7e250c898885718afd2e4efbcb1a1595ab9730761ed830de0f"
BLOCK = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
BLOCK_HEX = "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8"
NONCE_HASH = "nceUFoeQDgkJCmzdMWh19ZjBYqQD3N9fe6bXQ1ZsUKKvMn7iun5Z3"
NONCE_HASH_HEX = "043691f53c02ca1ac6f1a0c1586bf77973e04c2d9b618a8309e79651daf0d558"
OPERATION = "oneDNXrq8HVRVCJXkqofS9e41G8ZkttpBZFMaQ9MvKyP3nYiP97"
OPERATION_HEX = bytes(range(32)).hex()
MAINNET, MAINNET_HEX = "NetXdQprcVkpaWU", "7a06a770"
CARTHAGE_HEX = "3e5e3a606afab74a59ca09e333633e2770b6492c5e594455b71e9a2f0ea92afb"
DELPHI_HEX = "40cab83d3f37a64da26b57ad3d0432ae881293a25169ada387bfc74a1cbf9e6e"
EXPR = "exprv6UsC1sN3Fk2XfgcJCL8NCerP5rCGy1PRESZAqr7L2JdzX55EN"
EXPR_HEX = "cffedbaf00cb581448a5683abdefe0d5cd4d4ba4923f1a489791810c3fec3325"
ONE = {"int": "1"}  # Micheline: tag 0, then z 1
ONE_HEX = "0001"

(RAW,) = _vectors("operation.raw")
(ENDORSEMENT,) = [v for v in _vectors("operation") if v["hex"] == RAW["hex"]]
(FROZEN,) = _vectors("delegate.frozen_balance_by_cycles")
(REMOVE,) = [v for v in _vectors("contract.big_map_diff") if v["json"][0]["action"] == "remove"]
(DELEGATION,) = [
    v
    for v in _vectors("operation.internal")
    if v["json"]["kind"] == "delegation" and "delegate" not in v["json"]
]


def _framed(hex: str) -> str:
    """``hex`` after its byte count (a ``uint30``)."""
    return f"{len(hex) // 2:08x}{hex}"


STATED: list[tuple[str, str, str, range, Any, str]] = [
    # the shell's
    (
        "GET",
        f"{B}/protocols",
        "output",
        ALL,
        {"protocol": CARTHAGE.hash, "next_protocol": DELPHI.hash},
        CARTHAGE_HEX + DELPHI_HEX,
    ),
    ("GET", f"{B}/live_blocks", "output", ALL, [BLOCK], _framed(BLOCK_HEX)),
    (
        "GET",
        f"{B}/operation_hashes",
        "output",
        ALL,
        [[], [OPERATION]],
        _framed("00000000" + _framed(OPERATION_HEX)),
    ),
    (
        "GET",
        f"{B}/operation_hashes/<list_offset>",
        "output",
        ALL,
        [OPERATION],
        _framed(OPERATION_HEX),
    ),
    (
        "GET",
        f"{B}/helpers/complete/<prefix>",
        "output",
        ALL,
        ["BKpbf"],
        _framed(_framed("424b706266")),
    ),
    ("POST", f"{B}/helpers/forge_block_header", "output", ALL, {"block": "0a0b"}, _framed("0a0b")),
    # forging and parsing
    (
        "POST",
        f"{B}/helpers/forge/protocol_data",
        "input",
        ALL,
        {"priority": 21021, "nonce_hash": NONCE_HASH, "proof_of_work_nonce": "101895ca00000000"},
        "521d" + "ff" + NONCE_HASH_HEX + "101895ca00000000",
    ),
    # the proof of work nonce is zeros by default
    (
        "POST",
        f"{B}/helpers/forge/protocol_data",
        "input",
        ALL,
        {"priority": 0},
        "000000" + "00" * 8,
    ),
    (
        "POST",
        f"{B}/helpers/forge/protocol_data",
        "output",
        ALL,
        {"protocol_data": "521d"},
        _framed("521d"),
    ),
    (
        "POST",
        f"{B}/helpers/parse/operations",
        "input",
        ALL,
        {"operations": [RAW["json"]], "check_signature": True},
        _framed(_framed(RAW["hex"])) + "ff" + "ff",
    ),
    (
        "POST",
        f"{B}/helpers/parse/operations",
        "output",
        ALL,
        [ENDORSEMENT["json"]],
        _framed(_framed(ENDORSEMENT["hex"])),
    ),
    # scripts: Micheline's int 1 is 0001; the primitives int 035b, nat 0362, unit 036c
    (
        "POST",
        f"{B}/helpers/scripts/pack_data",
        "input",
        ALL,
        {"data": ONE, "type": {"prim": "int"}},
        ONE_HEX + "035b" + "00",
    ),
    (
        "POST",
        f"{B}/helpers/scripts/pack_data",
        "output",
        ALL,
        {"packed": "050001", "gas": "unaccounted"},
        _framed("050001") + "01",
    ),
    (
        "POST",
        f"{B}/helpers/scripts/typecheck_data",
        "input",
        ALL,
        {"data": ONE, "type": {"prim": "int"}, "gas": "1238"},
        ONE_HEX + "035b" + "ff" + "9613",
    ),
    ("POST", f"{B}/helpers/scripts/typecheck_data", "output", ALL, {"gas": "1238"}, "009613"),
    (
        "POST",
        f"{B}/helpers/scripts/entrypoint",
        "input",
        BABYLON_ON,
        {"script": {"prim": "unit"}, "entrypoint": "do"},
        "036c" + _framed("646f"),
    ),
    (
        "POST",
        f"{B}/helpers/scripts/entrypoint",
        "output",
        BABYLON_ON,
        {"entrypoint_type": {"prim": "unit"}},
        "036c",
    ),
    (
        "POST",
        f"{B}/helpers/scripts/run_code",
        "input",
        BABYLON_ON,
        {
            "script": ONE,
            "storage": ONE,
            "input": ONE,
            "amount": "0",
            "chain_id": MAINNET,
            "entrypoint": "do",
        },
        ONE_HEX * 3 + "00" + MAINNET_HEX + "000000" + _framed("646f"),
    ),
    (
        "POST",
        f"{B}/helpers/scripts/run_code",
        "input",
        BEFORE_BABYLON,
        {"script": ONE, "storage": ONE, "input": ONE, "amount": "0", "source": KT1},
        ONE_HEX * 3 + "00" + "ff" + "01" + KT1_HASH + "00" + "0000",
    ),
    (
        "POST",
        f"{B}/helpers/scripts/run_code",
        "output",
        BABYLON_ON,
        {"storage": ONE, "operations": [DELEGATION["json"]], "big_map_diff": REMOVE["json"]},
        ONE_HEX + _framed(DELEGATION["hex"]) + "ff" + REMOVE["hex"],
    ),
    # 004's big map diff: each key's hash, the key, and its value if any
    (
        "POST",
        f"{B}/helpers/scripts/run_code",
        "output",
        BEFORE_BABYLON,
        {
            "storage": ONE,
            "operations": [DELEGATION["json"]],
            "big_map_diff": [{"key_hash": EXPR, "key": ONE}],
        },
        ONE_HEX + _framed(DELEGATION["hex"]) + "ff" + _framed(EXPR_HEX + ONE_HEX + "00"),
    ),
    (
        "POST",
        f"{B}/helpers/scripts/trace_code",
        "output",
        ALL,
        {
            "storage": ONE,
            "operations": [],
            "trace": [{"location": 7, "gas": "1238", "stack": [{"item": ONE, "annot": "@x"}]}],
        },
        ONE_HEX
        + "00000000"
        + _framed("00000007" + "009613" + _framed(ONE_HEX + "ff" + _framed("4078")))
        + "00",
    ),
    # levels, rights, endorsements
    (
        "GET",
        f"{B}/helpers/levels_in_current_cycle",
        "output",
        ALL,
        {"first": 1, "last": 4096},
        "0000000100001000",
    ),
    (
        "GET",
        f"{B}/helpers/baking_rights",
        "output",
        ALL,
        [{"level": 1331, "delegate": TZ1, "priority": 2, "estimated_time": "2020-04-20T16:20:00Z"}],
        _framed("00000533" + TZ1_HEX + "0002" + "ff" + "000000005e9dcbb0"),
    ),
    (
        "GET",
        f"{B}/helpers/endorsing_rights",
        "output",
        ALL,
        [{"level": 1331, "delegate": TZ1, "slots": [0, 7]}],
        _framed("00000533" + TZ1_HEX + _framed("00000007") + "00"),
    ),
    (
        "POST",
        f"{B}/endorsing_power",
        "input",
        BABYLON_ON,
        {"endorsement_operation": ENDORSEMENT["json"], "chain_id": MAINNET},
        ENDORSEMENT["hex"] + MAINNET_HEX,
    ),
    # the context
    (
        "GET",
        f"{B}/context/nonces/<block_level>",
        "output",
        ALL,
        {"nonce": "00" * 32},
        "00" + "00" * 32,
    ),
    (
        "GET",
        f"{B}/context/nonces/<block_level>",
        "output",
        ALL,
        {"hash": NONCE_HASH},
        "01" + NONCE_HASH_HEX,
    ),
    ("GET", f"{B}/context/nonces/<block_level>", "output", ALL, {}, "02"),
    # contracts
    (
        "GET",
        f"{B}/context/contracts",
        "output",
        ALL,
        [TZ1, KT1],
        _framed("00" + TZ1_HEX + "01" + KT1_HASH + "00"),
    ),
    ("GET", C, "output", BABYLON_ON, {"balance": "7322135", "counter": "5"}, "97f4be030000ff05"),
    (
        "GET",
        C,
        "output",
        BEFORE_BABYLON,
        {
            "manager": TZ1,
            "balance": "0",
            "spendable": True,
            "delegate": {"setable": False},
            "counter": "1",
        },
        TZ1_HEX + "00" + "ff" + "0000" + "00" + "01",
    ),
    ("GET", f"{C}/manager_key", "output", BABYLON_ON, EDPK, "01" + EDPK_HEX),
    ("GET", f"{C}/manager_key", "output", BABYLON_ON, None, "00"),
    (
        "GET",
        f"{C}/manager_key",
        "output",
        BEFORE_BABYLON,
        {"manager": TZ1, "key": EDPK},
        TZ1_HEX + "ff" + EDPK_HEX,
    ),
    (
        "POST",
        f"{C}/big_map_get",
        "input",
        ALL,
        {"key": ONE, "type": {"prim": "nat"}},
        ONE_HEX + "0362",
    ),
    ("POST", f"{C}/big_map_get", "output", ALL, {"prim": "Unit"}, "01030b"),
    ("POST", f"{C}/big_map_get", "output", ALL, None, "00"),
    # delegates
    ("GET", f"{B}/context/delegates", "output", ALL, [TZ1], _framed(TZ1_HEX)),
    ("GET", f"{D}/delegated_contracts", "output", BEFORE_BABYLON, [KT1], _framed(KT1_HASH)),
    (
        "GET",
        f"{D}/delegated_contracts",
        "output",
        BABYLON_ON,
        [KT1],
        _framed("01" + KT1_HASH + "00"),
    ),
    *(
        (
            "GET",
            D,
            "output",
            protocols,
            {
                "balance": "7322135",
                "frozen_balance": "0",
                "frozen_balance_by_cycle": FROZEN["json"],
                "staking_balance": "0",
                "delegated_contracts": [KT1],
                "delegated_balance": "0",
                "deactivated": False,
                "grace_period": 12,
            },
            "97f4be0300" + FROZEN["hex"] + "00" + contracts + "00000000000c",
        )
        for protocols, contracts in (
            (BEFORE_BABYLON, _framed(KT1_HASH)),
            (BABYLON_ON, _framed("01" + KT1_HASH + "00")),
        )
    ),
    # votes
    (
        "GET",
        f"{B}/votes/ballot_list",
        "output",
        ALL,
        [{"pkh": TZ1, "ballot": "yay"}],
        _framed(TZ1_HEX + "00"),
    ),
    ("GET", f"{B}/votes/current_proposal", "output", ALL, DELPHI.hash, "01" + DELPHI_HEX),
    ("GET", f"{B}/votes/current_proposal", "output", ALL, None, "00"),
    (
        "GET",
        f"{B}/votes/proposals",
        "output",
        ALL,
        [[DELPHI.hash, 5]],
        _framed(DELPHI_HEX + "00000005"),
    ),
    # the injection
    (
        "POST",
        "/injection/block",
        "input",
        ALL,
        {"data": "0a0b", "operations": [[RAW["json"]], []]},
        # a list of frames, each a list of frames: two byte counts before each
        _framed("0a0b") + _framed(_framed(_framed(_framed(RAW["hex"]))) + _framed(_framed(""))),
    ),
]
"""A body a service states inline: method, path, which body, the protocols
that declare it so, a value's JSON and its bytes (pinned by hand from the
declaration; real data from the 007 vectors)."""


@pytest.mark.parametrize(
    ("method", "path", "side", "protocols", "value", "hex"),
    STATED,
    ids=[f"{m} {p.removeprefix(B)} {side} {i}" for i, (m, p, side, *_) in enumerate(STATED)],
)
def test_a_body_a_service_states_reads_and_writes_its_value(
    method: str, path: str, side: str, protocols: range, value: Any, hex: str
) -> None:
    for protocol in PROTOCOLS:
        if protocol.number not in protocols:
            continue
        e = getattr(_service(protocol, method, path), side)
        with output_family("tezos"):
            assert e.encode(e.from_json(value)).hex() == hex
            assert e.to_json(e.decode(bytes.fromhex(hex))) == value


# ------------------------------------------------------------------ real data, forged and parsed

(HEADER,) = _vectors("block_header")
(RAW_HEADER,) = _vectors("block_header.raw")
SHELL_FIELDS = {
    "level",
    "proto",
    "predecessor",
    "timestamp",
    "validation_pass",
    "operations_hash",
    "fitness",
    "context",
}
"""A block header's shell fields: the rest is the protocol's data."""


@pytest.mark.parametrize("vector", _vectors("operation.unsigned"), ids=lambda v: v["hex"][64:80])
def test_forging_a_real_operation_gives_its_bytes(vector: dict[str, Any]) -> None:
    forge = _service(DELPHI, "POST", f"{B}/helpers/forge/operations")
    assert forge.input is not None
    forged = forge.input.encode(forge.input.from_json(vector["json"]))
    assert forge.output.to_json(forged) == vector["hex"]
    assert forge.output.encode(forged).hex() == _framed(vector["hex"])


def test_parsing_a_real_block_header_gives_its_protocol_data() -> None:
    parse = _service(DELPHI, "POST", f"{B}/helpers/parse/block")
    assert parse.input is not None
    header = parse.input.decode(bytes.fromhex(RAW_HEADER["hex"]))
    parsed = parse.output.decode(header["protocol_data"])
    expected = {k: v for k, v in HEADER["json"].items() if k not in SHELL_FIELDS}
    assert parse.output.to_json(parsed) == expected
    forge = _service(DELPHI, "POST", f"{B}/helpers/forge_block_header")
    assert forge.input is not None
    block = forge.input.encode(forge.input.from_json(RAW_HEADER["json"]))
    assert forge.output.to_json({"block": block}) == {"block": RAW_HEADER["hex"]}


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_a_blocks_header_is_the_protocols(protocol: Protocol) -> None:
    """All four protocols' headers have 007's layout; ``protocol`` is a
    constant, in JSON only."""
    known = {"protocol": protocol.hash, "chain_id": MAINNET, "hash": BLOCK}
    header = _service(protocol, "GET", f"{B}/header").output
    value = header.from_json({**known, **HEADER["json"]})
    assert header.encode(value).hex() == MAINNET_HEX + BLOCK_HEX + HEADER["hex"]
    assert header.to_json(header.decode(header.encode(value))) == {**known, **HEADER["json"]}
    other = DELPHI if protocol is not DELPHI else CARTHAGE
    with pytest.raises(DataEncodingError) as caught:
        header.from_json({**known, **HEADER["json"], "protocol": other.hash})
    assert (caught.value.code, caught.value.path) == ("wrong_type", ("protocol",))
    data = _service(protocol, "GET", f"{B}/header/protocol_data").output
    expected = {k: v for k, v in HEADER["json"].items() if k not in SHELL_FIELDS}
    parsed = data.decode(bytes.fromhex(RAW_HEADER["json"]["protocol_data"]))
    assert data.to_json(parsed) == {"protocol": protocol.hash, **expected}


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=_name)
def test_a_body_two_services_state_is_one_encoding(protocol: Protocol) -> None:
    """The block's parts are built once per protocol: the block (``/``)
    holds the very encodings its parts' services answer, so each is compiled
    once however many services use it."""
    block = _service(protocol, "GET", B).output
    assert isinstance(block, Obj)
    parts = {p.key: p.enc for p in block.parts}
    operations = _service(protocol, "GET", f"{B}/operations").output
    metadata = _service(protocol, "GET", f"{B}/metadata").output
    assert parts["operations"] is operations
    assert isinstance(parts["metadata"], DynamicSize) and parts["metadata"].inner is metadata
    again = _service(protocol, "GET", B).output
    assert again is block


# ------------------------------------------------------------------ queries


def test_the_services_take_the_queries_the_protocols_declare() -> None:
    level = _service(DELPHI, "GET", f"{B}/helpers/current_level")
    assert level.query.parse("offset=-1") == {"offset": -1}
    assert level.query.parse("") == {"offset": 0}
    with pytest.raises(rpc.ArgError, match="int32"):
        level.query.parse(f"offset={2**31}")
    rights = _service(DELPHI, "GET", f"{B}/helpers/baking_rights")
    parsed = rights.query.parse(f"level=1&level=2&cycle=3&delegate={TZ1}&max_priority=5&all")
    assert {k: v for k, v in parsed.items() if k != "delegate"} == {
        "level": [1, 2],
        "cycle": [3],
        "max_priority": 5,
        "all": True,
    }
    with output_family("tezos"):
        assert [str(d) for d in parsed["delegate"]] == [TZ1]
    delay = _service(BABYLON, "GET", f"{B}/required_endorsements")
    assert delay.query.parse("block_delay=60") == {"block_delay": 60}
    time = _service(BABYLON, "GET", f"{B}/minimal_valid_time")
    assert time.query.parse("priority=1") == {"priority": 1, "endorsing_power": 0}
    delegates = _service(ATHENS, "GET", f"{B}/context/delegates")
    assert delegates.query.parse("active") == {"active": True, "inactive": False}
    inject = _service(ATHENS, "POST", "/injection/operation")
    assert inject.query.parse("async&chain=main") == {"async": True, "chain": "main"}
    assert [
        f.describe() for f in _service(DELPHI, "GET", f"{B}/helpers/endorsing_rights").query.fields
    ] == [
        {
            "name": "level",
            "description": None,
            "kind": {"multi": rpc.ARGS["block_level"].describe()},
        },
        {
            "name": "cycle",
            "description": None,
            "kind": {"multi": {"id": "single", "name": "block_cycle", "descr": "A cycle integer"}},
        },
        {"name": "delegate", "description": None, "kind": {"multi": rpc.ARGS["pkh"].describe()}},
    ]


# ------------------------------------------------------------------ the /describe answer


TREES = [(p, "rpc.service_tree") for p in PROTOCOLS] + [(DELPHI, "rpc.service_tree_v1")]
"""Each protocol's answer through the tree of the seed's node; the twin
differs in its binary schemas' words alone, whatever the protocol (one
protocol through it is enough, and keeps the suite fast)."""


@pytest.mark.parametrize(("protocol", "tree_id"), TREES, ids=lambda x: getattr(x, "name", x))
def test_a_protocols_describe_answer_reads_and_prints_back(
    protocol: Protocol, tree_id: str
) -> None:
    answer = rpc.describe("/chains/main/blocks/head", recurse=True, protocol=protocol)
    e = registry.find(tree_id).encoding
    text: Any = e.to_json(answer)
    value = e.from_json(json_text.loads(json_text.dumps(text)))
    assert e.to_json(value) == text
    assert e.decode(e.encode(answer)) == value
    forge = _below(answer, "helpers", "forge", "operations")["static"]["post_service"]
    unsigned = _of(protocol, "operation.unsigned")
    assert forge["input"] == {
        "json_schema": unsigned.json_schema(),
        "binary_schema": unsigned.describe(),
    }


def _below(tree: Any, *names: str) -> Any:
    for name in names:
        (tree,) = [s["tree"] for s in tree["static"]["subdirs"]["suffixes"] if s["name"] == name]
    return tree


def test_the_injection_is_typed_in_a_protocols_root_answer() -> None:
    tree = rpc.describe("/injection/operation", recurse=False, protocol=DELPHI)
    answer: Any = registry.find("rpc.service_tree").encoding.to_json(tree)
    service = answer["static"]["post_service"]
    assert service["input"]["json_schema"] == bytes_.json_schema()
    assert service["output"]["json_schema"] == operation_hash.json_schema()
    assert [q["name"] for q in service["query"]] == ["async", "chain"]


# ------------------------------------------------------------------ naming a protocol


@pytest.mark.parametrize(
    "name", ["007-PsDELPH1", "PsDELPH1", "psdelph1", "Delphi", "DELPHI", DELPHI.hash, DELPHI]
)
def test_a_protocol_is_named_as_the_toolchain_and_its_hash_name_it(name: Any) -> None:
    assert find_protocol(name) is DELPHI
    assert rpc.directory_of(protocol=name) is rpc.directory_of(protocol=DELPHI)


def test_an_unknown_protocol_is_refused_with_the_known_ones() -> None:
    with pytest.raises(rpc.UnknownProtocol) as caught:
        rpc.directory_of(protocol="PsDELPH2")
    assert str(caught.value) == (
        "unknown protocol 'PsDELPH2'; the protocols are 004-Pt24m4xi (Athens), "
        "005-PsBabyM1 (Babylon), 006-PsCARTHA (Carthage), 007-PsDELPH1 (Delphi)"
    )
