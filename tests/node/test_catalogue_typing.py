"""Every id's constant, seen by a static type checker (issue 28, item 15).

``registry.find(id).encoding`` is an ``Encoding[Any]``: mypy checks nothing
on what it encodes or decodes. ``entry.constant`` names the module constant
that holds the same encoding, typed with its values (a ``TypedDict`` for a
record). One mypy run over a file that imports every id's constant and
reveals its type pins those types, id by id.
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
import typing
from pathlib import Path
from types import ModuleType

import pytest
from mypy import api

import data_encoding.node.catalogue as catalogue
from data_encoding.node import registry
from data_encoding.node.protocols import ATHENS, BABYLON, CARTHAGE, DELPHI, PROTOCOLS

JSON = "Encoding[bool | int | float | str | list[...] | dict[str, ...] | None]"
"""Any JSON value (``JsonValue``, as mypy spells it)."""

_VALUES = {
    "constants": "Encoding[AthensConstants]",
    "constants.fixed": "Encoding[AthensFixed]",
    "constants.parametric": "Encoding[AthensParametric]",
    "contract": "Encoding[ContractId]",
    "contract.big_map_diff": "Encoding[list[AthensBigMapUpdate]]",
    "cycle": "Encoding[int]",
    "delegate.balance_updates": (
        "Encoding[list[ContractUpdate | RewardsUpdate | FeesUpdate | DepositsUpdate]]"
    ),
    "delegate.frozen_balance": "Encoding[FrozenBalance]",
    "delegate.frozen_balance_by_cycles": "Encoding[list[CycleFrozenBalance]]",
    "errors": JSON,
    "fitness": "Encoding[list[bytes]]",
    "gas": "Encoding[int | Literal['unaccounted']]",
    "gas.cost": "Encoding[AthensGasCost]",
    "level": "Encoding[Level]",
    "nonce": "Encoding[bytes]",
    "parameters": "Encoding[AthensParameters]",
    "period": "Encoding[int]",
    "raw_level": "Encoding[int]",
    "roll": "Encoding[int]",
    "seed": "Encoding[bytes]",
    "tez": "Encoding[int]",
    "timestamp": "Encoding[int]",
    "vote.ballot": "Encoding[Literal['yay'] | Literal['nay'] | Literal['pass']]",
    "vote.ballots": "Encoding[Ballots]",
    "vote.listings": "Encoding[list[Listing]]",
    "voting_period": "Encoding[int]",
    "voting_period.kind": (
        "Encoding[Literal['proposal'] | Literal['testing_vote'] | Literal['testing']"
        " | Literal['promotion_vote']]"
    ),
}
"""The values and receipts of protocol 004 (the ``proto.pt24m4xi.*`` ids)."""

_BABYLON_VALUES = {
    **_VALUES,
    "constants": "Encoding[BabylonConstants]",
    "constants.parametric": "Encoding[BabylonParametric]",
    "contract.big_map_diff": (
        "Encoding[list[BigMapUpdate | BigMapRemove | BigMapCopy | BigMapAlloc]]"
    ),
    "parameters": "Encoding[BabylonParameters]",
}
_CARTHAGE_VALUES = {
    **_BABYLON_VALUES,
    "constants": "Encoding[CarthageConstants]",
    "constants.parametric": "Encoding[CarthageParametric]",
    "parameters": "Encoding[CarthageParameters]",
}
_VALUES_BY_PROTOCOL = {
    ATHENS: _VALUES,
    BABYLON: _BABYLON_VALUES,
    CARTHAGE: _CARTHAGE_VALUES,
    DELPHI: {
        **_CARTHAGE_VALUES,
        "constants": "Encoding[DelphiConstants]",
        "constants.fixed": "Encoding[DelphiFixed]",
        "gas.cost": "Encoding[int]",
    },
}
"""Each protocol's: what changed from one to the next."""

NODE = "Encoding[IntNode | StringNode | BytesNode | PrimNode | list[...]]"
"""A Micheline expression (``micheline.Node``, as mypy spells it)."""

_CONTENTS = (
    "Endorsement | SeedNonceRevelation | DoubleEndorsementEvidence | DoubleBakingEvidence"
    " | ActivateAccount | Proposals | Ballot | Reveal | Transaction | Origination | Delegation"
)
_OPERATIONS = {
    "block_header": "Encoding[BlockHeader]",
    "block_header.contents": "Encoding[BlockHeaderContents]",
    "block_header.protocol_data": "Encoding[BlockHeaderProtocolData]",
    "block_header.raw": "Encoding[BlockHeader]",
    "block_header.shell_header": "Encoding[ShellHeader]",
    "block_header.unsigned": "Encoding[UnsignedBlockHeader]",
    "operation": "Encoding[Operation]",
    "operation.contents": f"Encoding[{_CONTENTS}]",
    "operation.contents_list": f"Encoding[list[{_CONTENTS}]]",
    "operation.internal": (
        "Encoding[InternalReveal | InternalTransaction | InternalOrigination | InternalDelegation]"
    ),
    "operation.protocol_data": "Encoding[ProtocolData]",
    "operation.raw": "Encoding[RawOperation]",
    "operation.unsigned": "Encoding[UnsignedOperation]",
    "operation.data_and_metadata": "Encoding[OperationWithMetadata]",
}
"""The operations, their receipts and the block headers of each protocol (004's ``Transaction``
is not 005's, nor its ``Reveal[ContractId]`` 005's ``Reveal[PublicKeyHash]``:
the names are the same)."""

STATIC_TYPES = {
    "admin.account_alias": "Encoding[AccountAlias]",
    "admin.accounts": "Encoding[list[AccountAlias]]",
    "admin.daemon": "Encoding[BakerDaemon | EndorserDaemon | AccuserDaemon]",
    "admin.daemon_description": (
        "Encoding[BakerDescription | EndorserDescription | AccuserDescription]"
    ),
    "admin.daemon_kind": "Encoding[Literal['baker'] | Literal['endorser'] | Literal['accuser']]",
    "admin.daemon_status": (
        "Encoding[RunningStatus | ExitedStatus | StoppedStatus | SignaledStatus]"
    ),
    "admin.daemons": "Encoding[list[BakerDaemon | EndorserDaemon | AccuserDaemon]]",
    "admin.process_state": "Encoding[Running | Exited | Stopped | Signaled]",
    "admin.protocols": "Encoding[list[ProtocolHash]]",
    "admin.register_daemon": "Encoding[RegisterDaemon]",
    "admin.start_accuser": "Encoding[StartAccuser]",
    "admin.start_baker": "Encoding[StartBaker]",
    "admin.start_endorser": "Encoding[StartEndorser]",
    "bignum": "Zarith",  # an Encoding[int]
    "block_hash": "Encoding[BlockHash]",
    "chain.block_metadata": "Encoding[BlockMetadata]",
    "chain.blocks": "Encoding[list[list[BlockHash]]]",
    "chain.checkpoint": "Encoding[Checkpoint]",
    "chain.history_mode": "Encoding[Literal['archive'] | Literal['full'] | Literal['rolling']]",
    "chain.invalid_block": "Encoding[InvalidBlock]",
    "chain.invalid_blocks": "Encoding[list[InvalidBlock]]",
    "chain_id": "Encoding[ChainId]",
    "context_hash": "Encoding[ContextHash]",
    "ed25519.public_key_hash": "Encoding[Ed25519PublicKeyHash]",
    "fitness": "Encoding[list[bytes]]",
    "int64": "Int",  # an Encoding[int]
    "operation_list_list_hash": "Encoding[OperationListListHash]",
    "protocol_hash": "Encoding[ProtocolHash]",
    "proto.psbabym1.script": "Encoding[Script]",
    "proto.psbabym1.script.expr": NODE,
    "proto.psbabym1.script.lazy_expr": NODE,
    "proto.psbabym1.script.loc": "Encoding[int]",
    "proto.psbabym1.script.packed": NODE,
    "proto.psbabym1.script.prim": "Encoding[str]",
    "proto.pscartha.script": "Encoding[Script]",
    "proto.pscartha.script.expr": NODE,
    "proto.pscartha.script.lazy_expr": NODE,
    "proto.pscartha.script.loc": "Encoding[int]",
    "proto.pscartha.script.packed": NODE,
    "proto.pscartha.script.prim": "Encoding[str]",
    "proto.psdelph1.script": "Encoding[Script]",
    "proto.psdelph1.script.expr": NODE,
    "proto.psdelph1.script.lazy_expr": NODE,
    "proto.psdelph1.script.loc": "Encoding[int]",
    "proto.psdelph1.script.packed": NODE,
    "proto.psdelph1.script.prim": "Encoding[str]",
    "proto.pt24m4xi.script": "Encoding[Script]",
    "proto.pt24m4xi.script.expr": NODE,
    "proto.pt24m4xi.script.lazy_expr": NODE,
    "proto.pt24m4xi.script.loc": "Encoding[int]",
    "proto.pt24m4xi.script.packed": NODE,
    "proto.pt24m4xi.script.prim": "Encoding[str]",
    "rpc.arg": "Encoding[Arg]",
    "rpc.binary_schema": "Encoding[BinarySchema]",
    "rpc.binary_schema_v1": "Encoding[BinarySchema]",
    "rpc.empty": "Encoding[dict[str, Any]]",
    "rpc.error": JSON,
    "rpc.errors": JSON,
    "rpc.method": (
        "Encoding[Literal['GET'] | Literal['POST'] | Literal['DELETE'] | Literal['PUT']"
        " | Literal['PATCH']]"
    ),
    "rpc.path_item": "Encoding[str | bytes | Arg | MultiArg]",
    "rpc.query_item": "Encoding[QueryItem]",
    "rpc.schemas": "Encoding[Schemas]",
    "rpc.schemas_v1": "Encoding[Schemas]",
    "rpc.service": "Encoding[Service]",
    "rpc.service_tree": "Encoding[dict[str, Any] | Literal['empty']]",
    "rpc.service_tree_v1": "Encoding[dict[str, Any] | Literal['empty']]",
    "rpc.service_v1": "Encoding[Service]",
    "shell.block_header": "Encoding[BlockHeader]",
    "shell.block_header.shell": "Encoding[ShellHeader]",
    "signature": "Encoding[Signature]",
    "signature.public_key": "Encoding[PublicKey]",
    "signature.public_key_hash": "Encoding[PublicKeyHash]",
    "timestamp.protocol": "Encoding[int]",
    "timestamp.rfc": "Encoding[int]",
    "timestamp.system": "Encoding[datetime]",
    "unistring": "DynamicSize[str | bytes]",
    **{
        protocol.id(name): revealed
        for protocol, values in _VALUES_BY_PROTOCOL.items()
        for name, revealed in values.items()
    },
    **{
        protocol.id(name): revealed
        for protocol in PROTOCOLS
        for name, revealed in _OPERATIONS.items()
    },
}


def _short(revealed: str) -> str:
    """A revealed type with each ``TypedDict(module.Name, {...})`` as
    ``Name`` and every other dotted name as its last part."""
    out: list[str] = []
    i = 0
    while i < len(revealed):
        if revealed.startswith("TypedDict(", i):
            comma = revealed.index(",", i)
            out.append(revealed[i + len("TypedDict(") : comma])
            depth, i = 0, revealed.index("{", comma)
            while True:  # skip the keys, nested TypedDicts included, and the ")"
                depth += {"{": 1, "}": -1}.get(revealed[i], 0)
                i += 1
                if depth == 0:
                    break
            i += 1
        else:
            out.append(revealed[i])
            i += 1
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)", r"\1", "".join(out))


@pytest.fixture(scope="module")
def revealed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each id's constant's type, as mypy reveals it."""
    probe = tmp_path_factory.mktemp("typing") / "probe.py"
    lines = []
    for i, entry in enumerate(registry.entries()):
        module, name = entry.constant.rsplit(".", 1)
        lines += [f"from {module} import {name} as c{i}", f"reveal_type(c{i})"]
    probe.write_text("\n".join(lines) + "\n")
    out, err, status = api.run(
        ["--strict", "--no-incremental", "--cache-dir", str(probe.parent / "cache"), str(probe)]
    )
    assert (status, err) == (0, ""), out
    found = re.findall(r'Revealed type is "(.*)"', out)
    return dict(zip(registry.ids(), map(_short, found), strict=True))


def test_every_id_names_a_constant_that_is_its_encoding() -> None:
    for entry in registry.entries():
        module, name = entry.constant.rsplit(".", 1)
        assert getattr(importlib.import_module(module), name) is entry.encoding, entry.id


def test_a_type_checker_sees_each_ids_values_through_its_constant(
    revealed: dict[str, str],
) -> None:
    assert revealed == STATIC_TYPES


def _node_modules() -> list[ModuleType]:
    """The node's modules: the catalogue's areas, the protocols' and what they build on."""
    prefix = catalogue.__name__.rsplit(".", 1)[0] + "."
    return [m for name, m in sorted(sys.modules.items()) if name.startswith(prefix)]


def test_every_typed_dict_of_the_catalogue_types_an_id(revealed: dict[str, str]) -> None:
    """No ``TypedDict`` of the catalogue's modules is out of the constants'
    reach (a record's type that no id's constant gives would check nothing):
    each is in an id's type, or is the base or a field's type of one that
    is (``StartBody`` of ``StartBaker``; a parameters' ``BootstrapContract``)."""
    typed_dicts: set[str] = set()
    reached: dict[str, set[str]] = {}  # a class: its bases and its fields' types
    for module in _node_modules():
        typed_dicts |= {
            name
            for name, value in vars(module).items()
            if typing.is_typeddict(value) and value.__module__ == module.__name__
        }
        for node in ast.walk(ast.parse(Path(str(module.__file__)).read_text())):
            if isinstance(node, ast.ClassDef):
                fields = [s.annotation for s in node.body if isinstance(s, ast.AnnAssign)]
                reached[node.name] = {
                    name.id
                    for tree in [*node.bases, *fields]
                    for name in ast.walk(tree)
                    if isinstance(name, ast.Name)
                }
    covered = set(re.findall(r"\w+", " ".join(revealed.values())))
    while True:  # what the covered reach is covered
        more = {b for name in covered for b in reached.get(name, ())} - covered
        if not more:
            break
        covered |= more
    assert {"Checkpoint", "StartBody", "Running"} <= typed_dicts  # read from the modules
    assert typed_dicts - covered == set()
