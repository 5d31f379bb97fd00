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
    "cycle": "Encoding[int]",
    "errors": JSON,
    "fitness": "Encoding[list[bytes]]",
    "gas": "Encoding[int | Literal['unaccounted']]",
    "gas.cost": "Encoding[GasCounts]",
    "level": "Encoding[Level]",
    "nonce": "Encoding[bytes]",
    "period": "Encoding[int]",
    "raw_level": "Encoding[int]",
    "roll": "Encoding[int]",
    "seed": "Encoding[bytes]",
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

_VALUES_BY_PROTOCOL = {
    ATHENS: _VALUES,
    BABYLON: _VALUES,
    CARTHAGE: _VALUES,
    DELPHI: {**_VALUES, "gas.cost": "Encoding[int]"},
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
}
"""The operations and block headers of each protocol (004's ``Transaction``
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
def revealed_in_full(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Each id's constant's type, as mypy reveals it (each ``TypedDict`` with
    its keys, a member's own ``TypedDict`` among them)."""
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
    return dict(zip(registry.ids(), found, strict=True))


@pytest.fixture(scope="module")
def revealed(revealed_in_full: dict[str, str]) -> dict[str, str]:
    """Each id's constant's type, as mypy reveals it, shortened (:func:`_short`)."""
    return {id: _short(text) for id, text in revealed_in_full.items()}


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


def _base_name(base: ast.expr) -> str | None:
    """The class a base names: ``Manager`` of ``Manager``,
    ``operations.Manager`` and ``Manager[S]``."""
    if isinstance(base, ast.Subscript):
        base = base.value
    if isinstance(base, ast.Attribute):
        return base.attr
    return base.id if isinstance(base, ast.Name) else None


def test_every_typed_dict_of_the_catalogue_types_an_id(
    revealed: dict[str, str], revealed_in_full: dict[str, str]
) -> None:
    """No ``TypedDict`` of the catalogue's modules is out of the constants'
    reach (a record's type that no id's constant gives would check nothing):
    each is in an id's type (or in the type of a member of one that is: an
    operation's ``InlinedEndorsement``), or is the base of one that is
    (``StartBody`` of ``StartBaker``, a generic ``Manager[S]``)."""
    typed_dicts: set[str] = set()
    bases: dict[str, set[str]] = {}  # a TypedDict: those it derives from
    for module in _node_modules():
        typed_dicts |= {
            name
            for name, value in vars(module).items()
            if typing.is_typeddict(value) and value.__module__ == module.__name__
        }
        for node in ast.walk(ast.parse(Path(str(module.__file__)).read_text())):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {name for b in node.bases if (name := _base_name(b))}
    covered = set(re.findall(r"\w+", " ".join(revealed.values())))
    covered |= set(re.findall(r"TypedDict\([\w.]*\.(\w+),", " ".join(revealed_in_full.values())))
    while True:  # the bases of what is covered are covered
        more = {b for name in covered for b in bases.get(name, ())} - covered
        if not more:
            break
        covered |= more
    assert {"Checkpoint", "StartBody", "Running"} <= typed_dicts  # read from the modules
    assert typed_dicts - covered == set()
