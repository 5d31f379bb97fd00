"""The bodies the protocols' services state inline, over the protocol's
encodings: each a function of :class:`Ids` (one protocol's encodings by the
node's names), built once per protocol (:func:`once`) for the rows of
:mod:`.protocol` that state them.

Each is read from the service's declaration in the protocol's sources
(``*_services.ml`` of ``src/proto_00N_*/lib_protocol``; the shell's from
``lib_shell_services/block_services.ml``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from ...tree.core import Encoding
from ...tree.fixed import bytes_ as fixed_bytes
from ...tree.framing import dynamic_size
from ...tree.primitives import bool_, constant, int31, int32, uint16
from ...tree.records import Field, dft, merge_objs, obj, opt, req, tup
from ...tree.sequences import list_
from ...tree.strings import bytes_, string
from ...tree.unions import case, option, union
from ...tree.wrappers import def_
from ...tree.zarith import n, z
from .. import protocols
from ..catalogue.chains import EMPTY, SHELL_HEADER
from ..catalogue.failures import ERROR
from ..hashes import block_hash, chain_id, contract_hash, nonce_hash, operation_hash, protocol_hash
from ..keys import public_key_hash
from ..protocols.blocks import PROOF_OF_WORK_NONCE_SIZE
from ..protocols.operations import OPERATION_SHELL_HEADER, RAW_OPERATION
from ..protocols.versions import Protocol, constant_name
from ..registry import find
from ..signatures import public_key
from ..timestamp import protocol as timestamp

__all__ = [
    "ALL",
    "BABYLON_ON",
    "FORGED_BLOCK",
    "FORGED_PROTOCOL_DATA",
    "Ids",
    "PREAPPLIED_BLOCK",
    "PROPOSALS",
    "PROTOCOLS_OF_BLOCK",
    "PROTOCOL_DATA_TO_FORGE",
    "baking_rights",
    "ballot_list",
    "big_map_key",
    "big_map_value",
    "block",
    "block_metadata",
    "block_to_preapply",
    "code_run",
    "code_trace",
    "contract_info",
    "contracts",
    "cycle_levels",
    "delegate_info",
    "delegated_contracts",
    "endorsement_and_chain",
    "endorsing_rights",
    "entrypoint_type",
    "gas_left",
    "header",
    "header_protocol_data",
    "manager_key",
    "next_operations",
    "nonce_info",
    "once",
    "operation",
    "operation_list",
    "operation_lists",
    "operation_to_run",
    "operations_to_parse",
    "packed_and_gas",
    "parsed_operations",
    "preapplied_operations",
    "run_code_input",
    "script_and_entrypoint",
    "typed_data",
]

# ------------------------------------------------------------------ a protocol's encodings


@dataclass(frozen=True)
class Ids:
    """One protocol's encodings, by the node's names (``ids("script.expr")``)."""

    protocol: Protocol

    def __call__(self, name: str) -> Encoding[Any]:
        return find(self.protocol.id(name)).encoding

    def constant(self, name: str) -> Encoding[Any]:
        """The protocol's encoding ``name`` that no id names (its module's
        constant: ``block_header.metadata`` is ``BLOCK_HEADER_METADATA``)."""
        module = import_module(f"{protocols.__name__}.{self.protocol.name.lower()}")
        found: Encoding[Any] = getattr(module, constant_name(name))
        return found


ALL = range(4, 8)
"""Protocols 004 to 007, by number: a row declared by all four."""
BABYLON_ON = range(5, 8)
"""What 005 (Babylon) declared first, and 006 and 007 kept."""


@cache
def once(build: Callable[[Ids], Encoding[Any]], ids: Ids) -> Encoding[Any]:
    """``build(ids)``, once per protocol: the services that state a body,
    in one directory or in two, hold the very same encoding, compiled once."""
    return build(ids)


# ------------------------------------------------------------------ bodies the services state


def _protocol(ids: Ids) -> Field:
    """The member that names the block's protocol: a constant, in JSON only."""
    return req("protocol", constant(ids.protocol.hash))


def _raw_header(ids: Ids) -> Encoding[Any]:
    """A block's header, the protocol's data parsed."""
    return def_("raw_block_header", merge_objs(SHELL_HEADER, ids("block_header.protocol_data")))


def header(ids: Ids) -> Encoding[Any]:
    """``/header``: the block's protocol, chain and hash, then its header."""
    known = obj(_protocol(ids), req("chain_id", chain_id), req("hash", block_hash))
    return def_("block_header", merge_objs(known, once(_raw_header, ids)))


def header_protocol_data(ids: Ids) -> Encoding[Any]:
    """``/header/protocol_data``: the block's protocol (JSON only), then its data."""
    return merge_objs(obj(_protocol(ids)), ids("block_header.protocol_data"))


# the block, its operations and their receipts (``block_services.ml``)

_TEST_CHAIN_STATUS = def_(
    "test_chain_status",
    union(
        [
            case(0, "Not_running", obj(req("status", constant("not_running")))),
            case(
                1,
                "Forking",
                obj(
                    req("status", constant("forking")),
                    req("protocol", protocol_hash),
                    req("expiration", timestamp),
                ),
            ),
            case(
                2,
                "Running",
                obj(
                    req("status", constant("running")),
                    req("chain_id", chain_id),
                    req("genesis", block_hash),
                    req("protocol", protocol_hash),
                    req("expiration", timestamp),
                ),
            ),
        ]
    ),
    description="The status of the test chain: not_running (there is no test chain at the "
    "moment), forking (the test chain is being setup), running (the test chain is running).",
)
"""The shell's ``test_chain_status``."""

_OPERATION_LIST_QUOTA = obj(req("max_size", int31), opt("max_op", int31))
"""How many operations of a validation pass a block may hold, in bytes and in number."""


def block_metadata(ids: Ids) -> Encoding[Any]:
    """``/metadata``: the shell's metadata of the block (its protocol and the
    next block's, both constants in JSON only: a directory serves the
    blocks of one protocol), then the protocol's."""
    shell = obj(
        _protocol(ids),
        req("next_protocol", constant(ids.protocol.hash)),
        req("test_chain_status", _TEST_CHAIN_STATUS),
        req("max_operations_ttl", int31),
        req("max_operation_data_length", int31),
        req("max_block_header_length", int31),
        req("max_operation_list_length", dynamic_size(list_(_OPERATION_LIST_QUOTA))),
    )
    return def_("block_header_metadata", merge_objs(shell, ids.constant("block_header.metadata")))


def operation(ids: Ids) -> Encoding[Any]:
    """An operation of the block: its protocol, chain and hash, its branch,
    then its own part with its receipt (tag 0) or without (tag 1: the node
    kept none; the receipt's own union says "none kept" too, and is the
    case written)."""
    known = obj(_protocol(ids), req("chain_id", chain_id), req("hash", operation_hash))
    data = union(
        [
            case(0, "Operation with metadata", ids("operation.data_and_metadata")),
            case(1, "Operation without metadata", ids("operation.protocol_data")),
        ]
    )
    return def_(
        "operation",
        merge_objs(known, merge_objs(dynamic_size(OPERATION_SHELL_HEADER), dynamic_size(data))),
    )


def operation_list(ids: Ids) -> Encoding[Any]:
    return list_(once(operation, ids))


def operation_lists(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(once(operation_list, ids)))


def block(ids: Ids) -> Encoding[Any]:
    """``/``: the block, its header, metadata (if kept) and operations."""
    return obj(
        _protocol(ids),
        req("chain_id", chain_id),
        req("hash", block_hash),
        req("header", dynamic_size(once(_raw_header, ids))),
        opt("metadata", dynamic_size(once(block_metadata, ids))),
        req("operations", once(operation_lists, ids)),
    )


def _next_operation(ids: Ids) -> Encoding[Any]:
    """An operation to apply on the block: its protocol, branch and own part."""
    return def_(
        "next_operation",
        merge_objs(
            obj(_protocol(ids)),
            merge_objs(
                dynamic_size(OPERATION_SHELL_HEADER), dynamic_size(ids("operation.protocol_data"))
            ),
        ),
    )


def next_operations(ids: Ids) -> Encoding[Any]:
    return list_(once(_next_operation, ids))


def preapplied_operations(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(ids("operation.data_and_metadata")))


def block_to_preapply(ids: Ids) -> Encoding[Any]:
    """A block to simulate: its protocol data, then its operations by pass."""
    data = merge_objs(obj(_protocol(ids)), dynamic_size(ids("block_header.protocol_data")))
    return obj(
        req("protocol_data", data),
        req("operations", list_(dynamic_size(next_operations(ids)))),
    )


def _preapply_result() -> Encoding[Any]:
    """What preapplying a validation pass did with each operation (the
    shell's ``Preapply_result``): those applied, and those refused with why."""
    operation = merge_objs(obj(req("hash", operation_hash)), dynamic_size(RAW_OPERATION))
    refused = merge_objs(operation, obj(req("error", ERROR)))
    return obj(
        req("applied", list_(operation)),
        req("refused", list_(refused)),
        req("branch_refused", list_(refused)),
        req("branch_delayed", list_(refused)),
    )


PREAPPLIED_BLOCK = obj(
    req("shell_header", SHELL_HEADER), req("operations", list_(_preapply_result()))
)
"""``/helpers/preapply/block``'s output: the block's shell header, and each
pass's operations as the shell's (no receipt)."""


def operation_to_run(ids: Ids) -> Encoding[Any]:
    """``run_operation``'s input: the operation (from 005 on, with the chain
    it is meant for)."""
    if _before_babylon(ids):
        return ids("operation")
    return obj(req("operation", ids("operation")), req("chain_id", chain_id))


PROTOCOLS_OF_BLOCK = obj(req("protocol", protocol_hash), req("next_protocol", protocol_hash))
"""``/protocols``: the block's protocol and its successor's."""

PROTOCOL_DATA_TO_FORGE = obj(
    req("priority", uint16),
    opt("nonce_hash", nonce_hash),
    dft(
        "proof_of_work_nonce",
        fixed_bytes(PROOF_OF_WORK_NONCE_SIZE),
        bytes(PROOF_OF_WORK_NONCE_SIZE),
    ),
)
"""``/helpers/forge/protocol_data``'s input: a block header's baker fields."""


def operations_to_parse(ids: Ids) -> Encoding[Any]:
    raw = ids("operation.raw")
    return obj(req("operations", list_(dynamic_size(raw))), opt("check_signature", bool_))


def parsed_operations(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(ids("operation")))


def typed_data(ids: Ids) -> Encoding[Any]:
    """What ``pack_data`` and ``typecheck_data`` take: an expression, its
    type, and the gas they may use (whole units: 007's milligas count is not
    an input)."""
    expr = ids("script.expr")
    return obj(req("data", expr), req("type", expr), opt("gas", z))


def packed_and_gas(ids: Ids) -> Encoding[Any]:
    return obj(req("packed", bytes_), req("gas", ids("gas")))


def gas_left(ids: Ids) -> Encoding[Any]:
    return obj(req("gas", ids("gas")))


def script_and_entrypoint(ids: Ids) -> Encoding[Any]:
    return obj(req("script", ids("script.expr")), dft("entrypoint", string, "default"))


def entrypoint_type(ids: Ids) -> Encoding[Any]:
    return obj(req("entrypoint_type", ids("script.expr")))


def _before_babylon(ids: Ids) -> bool:
    return ids.protocol.number < BABYLON_ON.start


def run_code_input(ids: Ids) -> Encoding[Any]:
    """What ``run_code`` and ``trace_code`` take: 005 added the chain and an
    entrypoint."""
    expr, contract = ids("script.expr"), ids("contract")
    code = (
        req("script", expr),
        req("storage", expr),
        req("input", expr),
        req("amount", ids("tez")),
    )
    caller = (opt("source", contract), opt("payer", contract), opt("gas", z))
    if _before_babylon(ids):
        return obj(*code, *caller)
    return obj(*code, req("chain_id", chain_id), *caller, dft("entrypoint", string, "default"))


def code_run(ids: Ids, *trace: Field) -> Encoding[Any]:
    """What ``run_code`` answers: the new storage, the operations the code
    emits, and what changed in its big maps (``trace_code``: with the
    ``trace`` of each step before them)."""
    return obj(
        req("storage", ids("script.expr")),
        req("operations", list_(ids("operation.internal"))),
        *trace,
        opt("big_map_diff", ids("contract.big_map_diff")),
    )


def code_trace(ids: Ids) -> Encoding[Any]:
    stack = list_(obj(req("item", ids("script.expr")), opt("annot", string)))
    step = obj(req("location", ids("script.loc")), req("gas", ids("gas")), req("stack", stack))
    return code_run(ids, req("trace", def_("scripted.trace", list_(step))))


def cycle_levels(ids: Ids) -> Encoding[Any]:
    return obj(req("first", ids("raw_level")), req("last", ids("raw_level")))


def baking_rights(ids: Ids) -> Encoding[Any]:
    return list_(
        obj(
            req("level", ids("raw_level")),
            req("delegate", public_key_hash),
            req("priority", uint16),
            opt("estimated_time", ids("timestamp")),
        )
    )


def endorsing_rights(ids: Ids) -> Encoding[Any]:
    return list_(
        obj(
            req("level", ids("raw_level")),
            req("delegate", public_key_hash),
            req("slots", list_(uint16)),
            opt("estimated_time", ids("timestamp")),
        )
    )


def endorsement_and_chain(ids: Ids) -> Encoding[Any]:
    return obj(req("endorsement_operation", ids("operation")), req("chain_id", chain_id))


def nonce_info(ids: Ids) -> Encoding[Any]:
    """``/context/nonces/<block_level>``: the nonce of a block, revealed;
    its hash, when not revealed yet; or nothing, forgotten."""
    return union(
        [
            case(0, "Revealed", obj(req("nonce", ids("nonce")))),
            case(1, "Missing", obj(req("hash", nonce_hash))),
            case(2, "Forgotten", EMPTY),
        ]
    )


def contracts(ids: Ids) -> Encoding[Any]:
    return list_(ids("contract"))


def delegated_contracts(ids: Ids) -> Encoding[Any]:
    """004 lists a delegate's originated contracts by their hash (``KT1…``)."""
    return list_(contract_hash) if _before_babylon(ids) else contracts(ids)


def contract_info(ids: Ids) -> Encoding[Any]:
    """``/context/contracts/<contract_id>``: 004 states a manager, the
    spendable and delegatable flags; 005 made every contract a script and
    dropped them."""
    tez, script = ids("tez"), ids("script")
    if _before_babylon(ids):
        return obj(
            req("manager", public_key_hash),
            req("balance", tez),
            req("spendable", bool_),
            req("delegate", obj(req("setable", bool_), opt("value", public_key_hash))),
            opt("script", script),
            req("counter", n),
        )
    return obj(
        req("balance", tez),
        opt("delegate", public_key_hash),
        opt("script", script),
        opt("counter", n),
    )


def manager_key(ids: Ids) -> Encoding[Any]:
    """004 answers the manager and its key if revealed; 005, the key or null."""
    if _before_babylon(ids):
        return obj(req("manager", public_key_hash), opt("key", public_key))
    return option(public_key)


def delegate_info(ids: Ids) -> Encoding[Any]:
    tez = ids("tez")
    return obj(
        req("balance", tez),
        req("frozen_balance", tez),
        req("frozen_balance_by_cycle", ids("delegate.frozen_balance_by_cycles")),
        req("staking_balance", tez),
        req("delegated_contracts", delegated_contracts(ids)),
        req("delegated_balance", tez),
        req("deactivated", bool_),
        req("grace_period", ids("cycle")),
    )


def big_map_key(ids: Ids) -> Encoding[Any]:
    return obj(req("key", ids("script.expr")), req("type", ids("script.expr")))


def big_map_value(ids: Ids) -> Encoding[Any]:
    return option(ids("script.expr"))


def ballot_list(ids: Ids) -> Encoding[Any]:
    return list_(obj(req("pkh", public_key_hash), req("ballot", ids("vote.ballot"))))


PROPOSALS = list_(tup(protocol_hash, int32))
"""``/votes/proposals``: each proposal and its supporters' rolls (an OCaml
map: a list of pairs in binary and JSON)."""

FORGED_BLOCK = obj(req("block", bytes_))
"""``/helpers/forge_block_header``'s output: the header's bytes."""

FORGED_PROTOCOL_DATA = obj(req("protocol_data", bytes_))
"""``/helpers/forge/protocol_data``'s output: the baker fields' bytes."""
