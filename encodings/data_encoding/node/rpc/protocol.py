"""The services of a node's directory as a protocol declares them.

The seed lists the block-scoped paths (:mod:`.alpha`: below
``/chains/<chain_id>/blocks/<block_id>``) and shows none of their bodies: a
node answers them with the protocol of the block. Each protocol's sources
declare every service's query, input and output (``*_services.ml`` of
``src/proto_00N_*/lib_protocol``), over the protocol's encodings; the
shell's part of the namespace (``/hash``, ``/header…``,
``/operation_hashes…``, ``/helpers/forge_block_header``) is declared once
(``lib_shell_services/block_services.ml``), over the protocol's block
header. :func:`declared` gives the services of the seed's list that one
protocol declares, as it declares them: their bodies are that protocol's
catalogue ids (the input of ``/helpers/forge/operations`` is
``proto.psdelph1.operation.unsigned`` itself), the shell's encodings, and
the records the services state inline over those.

>>> from data_encoding.node.protocols import DELPHI
>>> from data_encoding.node.registry import find
>>> forge = declared(DELPHI)["POST", "/helpers/forge/operations"]
>>> forge.input is find("proto.psdelph1.operation.unsigned").encoding
True

A seed service is left out, and stays untyped (``json``) in the protocol's
directory, when

* the protocol does not declare it: the seed's node has services that
  Tezos' protocols 004-007 do not (``/context/contracts/<contract_id>/info``,
  ``exec_fun``, ``/helpers/scripts/unpack_data``...), and 005 added some
  (:data:`BABYLON_ON`);
* one of its bodies needs an encoding the catalogue does not have:
  ``assoc`` (the entrypoint lists), a script's type map
  (``/helpers/scripts/typecheck_code``), the raw context
  (``/context/raw/…``).

The services carry no description: the seed shows none for this namespace.
The block (``/``), its ``/metadata`` and its ``/operations…`` are the
shell's records over the protocol's header, block metadata and operation
receipts (:mod:`~data_encoding.node.protocols.results`); the block's
``protocol`` and ``next_protocol`` are the directory's protocol, constants
(the reference builds one directory per pair of a block's protocol and the
next's: the one block where they differ is not this directory's).

The injection services (``/injection/operation``, ``/injection/block``)
hang outside the block; their bodies are the shell's, the same for every
protocol (:data:`INJECTION`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from ...errors import DefinitionError
from ...tree.anyjson import json
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
from ..catalogue.chains import BLOCK_HEADER, EMPTY, SHELL_HEADER
from ..catalogue.failures import ERROR
from ..hashes import block_hash, chain_id, contract_hash, nonce_hash, operation_hash, protocol_hash
from ..keys import public_key_hash
from ..protocols.blocks import PROOF_OF_WORK_NONCE_SIZE
from ..protocols.operations import OPERATION_SHELL_HEADER, RAW_OPERATION
from ..protocols.versions import Protocol, constant_name
from ..registry import find
from ..signatures import public_key
from ..timestamp import protocol as timestamp
from . import alpha
from .args import ARGS
from .directory import Method, Service, parse_path
from .query import Query, QueryField, flag, multi, optional, single

__all__ = [
    "ALL",
    "BABYLON_ON",
    "INJECTION",
    "ROWS",
    "Body",
    "Declared",
    "Ids",
    "declared",
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


Body = str | Encoding[Any] | Callable[[Ids], Encoding[Any]]
"""A body as a row states it: the name of one of the protocol's ids, one of
the shell's encodings, or a function that builds it from the protocol's ids."""

ALL = range(4, 8)
"""Protocols 004 to 007, by number: a row declared by all four."""
BABYLON_ON = range(5, 8)
"""What 005 (Babylon) declared first, and 006 and 007 kept."""


@dataclass(frozen=True)
class Declared:
    """One service as the protocols of :attr:`protocols` declare it."""

    method: Method
    #: relative to the directory it hangs in, as :mod:`.alpha` writes it
    path: str
    output: Body
    input: Body | None = None
    query: tuple[QueryField, ...] = ()
    #: the protocols that declare it so, by number
    protocols: range = ALL

    def service(self, ids: Ids) -> Service:
        """The service, its bodies the protocol's."""
        return Service(
            self.method,
            parse_path(self.path),
            output=_body(self.output, ids),
            input=None if self.input is None else _body(self.input, ids),
            query=Query(self.query),
            edition=alpha.EDITIONS.get(self.path),
        )


def _body(body: Body, ids: Ids) -> Encoding[Any]:
    if isinstance(body, str):
        return ids(body)
    if isinstance(body, Encoding):
        return body
    return _built(body, ids)


@cache
def _built(build: Callable[[Ids], Encoding[Any]], ids: Ids) -> Encoding[Any]:
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


def _header(ids: Ids) -> Encoding[Any]:
    """``/header``: the block's protocol, chain and hash, then its header."""
    known = obj(_protocol(ids), req("chain_id", chain_id), req("hash", block_hash))
    return def_("block_header", merge_objs(known, _built(_raw_header, ids)))


def _header_protocol_data(ids: Ids) -> Encoding[Any]:
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


def _block_metadata(ids: Ids) -> Encoding[Any]:
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


def _operation(ids: Ids) -> Encoding[Any]:
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


def _operation_list(ids: Ids) -> Encoding[Any]:
    return list_(_built(_operation, ids))


def _operation_lists(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(_built(_operation_list, ids)))


def _block(ids: Ids) -> Encoding[Any]:
    """``/``: the block, its header, metadata (if kept) and operations."""
    return obj(
        _protocol(ids),
        req("chain_id", chain_id),
        req("hash", block_hash),
        req("header", dynamic_size(_built(_raw_header, ids))),
        opt("metadata", dynamic_size(_built(_block_metadata, ids))),
        req("operations", _built(_operation_lists, ids)),
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


def _next_operations(ids: Ids) -> Encoding[Any]:
    return list_(_built(_next_operation, ids))


def _preapplied_operations(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(ids("operation.data_and_metadata")))


def _block_to_preapply(ids: Ids) -> Encoding[Any]:
    """A block to simulate: its protocol data, then its operations by pass."""
    data = merge_objs(obj(_protocol(ids)), dynamic_size(ids("block_header.protocol_data")))
    return obj(
        req("protocol_data", data),
        req("operations", list_(dynamic_size(_next_operations(ids)))),
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


_PREAPPLIED_BLOCK = obj(
    req("shell_header", SHELL_HEADER), req("operations", list_(_preapply_result()))
)
"""``/helpers/preapply/block``'s output: the block's shell header, and each
pass's operations as the shell's (no receipt)."""


def _operation_to_run(ids: Ids) -> Encoding[Any]:
    """``run_operation``'s input: the operation (from 005 on, with the chain
    it is meant for)."""
    if _before_babylon(ids):
        return ids("operation")
    return obj(req("operation", ids("operation")), req("chain_id", chain_id))


_PROTOCOLS_OF_BLOCK = obj(req("protocol", protocol_hash), req("next_protocol", protocol_hash))
"""``/protocols``: the block's protocol and its successor's."""

_PROTOCOL_DATA_TO_FORGE = obj(
    req("priority", uint16),
    opt("nonce_hash", nonce_hash),
    dft(
        "proof_of_work_nonce",
        fixed_bytes(PROOF_OF_WORK_NONCE_SIZE),
        bytes(PROOF_OF_WORK_NONCE_SIZE),
    ),
)
"""``/helpers/forge/protocol_data``'s input: a block header's baker fields."""


def _operations_to_parse(ids: Ids) -> Encoding[Any]:
    raw = ids("operation.raw")
    return obj(req("operations", list_(dynamic_size(raw))), opt("check_signature", bool_))


def _parsed_operations(ids: Ids) -> Encoding[Any]:
    return list_(dynamic_size(ids("operation")))


def _typed_data(ids: Ids) -> Encoding[Any]:
    """What ``pack_data`` and ``typecheck_data`` take: an expression, its
    type, and the gas they may use (whole units: 007's milligas count is not
    an input)."""
    expr = ids("script.expr")
    return obj(req("data", expr), req("type", expr), opt("gas", z))


def _packed(ids: Ids) -> Encoding[Any]:
    return obj(req("packed", bytes_), req("gas", ids("gas")))


def _gas_left(ids: Ids) -> Encoding[Any]:
    return obj(req("gas", ids("gas")))


def _script_and_entrypoint(ids: Ids) -> Encoding[Any]:
    return obj(req("script", ids("script.expr")), dft("entrypoint", string, "default"))


def _entrypoint_type(ids: Ids) -> Encoding[Any]:
    return obj(req("entrypoint_type", ids("script.expr")))


def _before_babylon(ids: Ids) -> bool:
    return ids.protocol.number < BABYLON_ON.start


def _run_code_input(ids: Ids) -> Encoding[Any]:
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


def _code_run(ids: Ids, *trace: Field) -> Encoding[Any]:
    """What ``run_code`` answers: the new storage, the operations the code
    emits, and what changed in its big maps (``trace_code``: with the
    ``trace`` of each step before them)."""
    return obj(
        req("storage", ids("script.expr")),
        req("operations", list_(ids("operation.internal"))),
        *trace,
        opt("big_map_diff", ids("contract.big_map_diff")),
    )


def _code_trace(ids: Ids) -> Encoding[Any]:
    stack = list_(obj(req("item", ids("script.expr")), opt("annot", string)))
    step = obj(req("location", ids("script.loc")), req("gas", ids("gas")), req("stack", stack))
    return _code_run(ids, req("trace", def_("scripted.trace", list_(step))))


def _cycle_levels(ids: Ids) -> Encoding[Any]:
    return obj(req("first", ids("raw_level")), req("last", ids("raw_level")))


def _baking_rights(ids: Ids) -> Encoding[Any]:
    return list_(
        obj(
            req("level", ids("raw_level")),
            req("delegate", public_key_hash),
            req("priority", uint16),
            opt("estimated_time", ids("timestamp")),
        )
    )


def _endorsing_rights(ids: Ids) -> Encoding[Any]:
    return list_(
        obj(
            req("level", ids("raw_level")),
            req("delegate", public_key_hash),
            req("slots", list_(uint16)),
            opt("estimated_time", ids("timestamp")),
        )
    )


def _endorsement_and_chain(ids: Ids) -> Encoding[Any]:
    return obj(req("endorsement_operation", ids("operation")), req("chain_id", chain_id))


def _nonce_info(ids: Ids) -> Encoding[Any]:
    """``/context/nonces/<block_level>``: the nonce of a block, revealed;
    its hash, when not revealed yet; or nothing, forgotten."""
    return union(
        [
            case(0, "Revealed", obj(req("nonce", ids("nonce")))),
            case(1, "Missing", obj(req("hash", nonce_hash))),
            case(2, "Forgotten", EMPTY),
        ]
    )


def _contracts(ids: Ids) -> Encoding[Any]:
    return list_(ids("contract"))


def _delegated_contracts(ids: Ids) -> Encoding[Any]:
    """004 lists a delegate's originated contracts by their hash (``KT1…``)."""
    return list_(contract_hash) if _before_babylon(ids) else _contracts(ids)


def _contract_info(ids: Ids) -> Encoding[Any]:
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


def _manager_key(ids: Ids) -> Encoding[Any]:
    """004 answers the manager and its key if revealed; 005, the key or null."""
    if _before_babylon(ids):
        return obj(req("manager", public_key_hash), opt("key", public_key))
    return option(public_key)


def _delegate_info(ids: Ids) -> Encoding[Any]:
    tez = ids("tez")
    return obj(
        req("balance", tez),
        req("frozen_balance", tez),
        req("frozen_balance_by_cycle", ids("delegate.frozen_balance_by_cycles")),
        req("staking_balance", tez),
        req("delegated_contracts", _delegated_contracts(ids)),
        req("delegated_balance", tez),
        req("deactivated", bool_),
        req("grace_period", ids("cycle")),
    )


def _big_map_key(ids: Ids) -> Encoding[Any]:
    return obj(req("key", ids("script.expr")), req("type", ids("script.expr")))


def _big_map_value(ids: Ids) -> Encoding[Any]:
    return option(ids("script.expr"))


def _ballot_list(ids: Ids) -> Encoding[Any]:
    return list_(obj(req("pkh", public_key_hash), req("ballot", ids("vote.ballot"))))


_PROPOSALS = list_(tup(protocol_hash, int32))
"""``/votes/proposals``: each proposal and its supporters' rolls (an OCaml
map: a list of pairs in binary and JSON)."""

_FORGED_BLOCK = obj(req("block", bytes_))
"""``/helpers/forge_block_header``'s output: the header's bytes."""

_FORGED_PROTOCOL_DATA = obj(req("protocol_data", bytes_))
"""``/helpers/forge/protocol_data``'s output: the baker fields' bytes."""

# ------------------------------------------------------------------ queries

_LEVEL_OFFSET = (single("offset", ARGS["int32"], 0),)
"""The level ``offset`` blocks after the block's (before it when negative)."""

_RIGHTS = (
    multi("level", ARGS["block_level"]),
    multi("cycle", ARGS["block_cycle"]),
    multi("delegate", ARGS["pkh"]),
)
"""Whose rights, at which levels (those of each cycle given, too)."""

# ------------------------------------------------------------------ the rows

_C = "/context/contracts/<contract_id>"
_D = "/context/delegates/<pkh>"

ROWS: tuple[Declared, ...] = (
    # the shell's (``block_services.ml``), over the protocol's header and receipts
    Declared("GET", "/", _block),
    Declared("GET", "/metadata", _block_metadata),
    Declared("GET", "/operations", _operation_lists),
    Declared("GET", "/operations/<list_offset>", _operation_list),
    Declared("GET", "/operations/<list_offset>/<operation_offset>", _operation),
    Declared(
        "POST", "/helpers/preapply/operations", _preapplied_operations, input=_next_operations
    ),
    Declared(
        "POST",
        "/helpers/preapply/block",
        _PREAPPLIED_BLOCK,
        input=_block_to_preapply,
        query=(flag("sort"), optional("timestamp", ARGS["date"])),
    ),
    Declared("GET", "/hash", block_hash),
    Declared("GET", "/header", _header),
    Declared("GET", "/header/raw", bytes_),
    Declared("GET", "/header/shell", SHELL_HEADER),
    Declared("GET", "/header/protocol_data", _header_protocol_data),
    Declared("GET", "/header/protocol_data/raw", bytes_),
    Declared("GET", "/protocols", _PROTOCOLS_OF_BLOCK),
    Declared("GET", "/live_blocks", list_(block_hash)),
    Declared("GET", "/operation_hashes", list_(list_(operation_hash))),
    Declared("GET", "/operation_hashes/<list_offset>", list_(operation_hash)),
    Declared("GET", "/operation_hashes/<list_offset>/<operation_offset>", operation_hash),
    Declared("GET", "/helpers/complete/<prefix>", list_(string)),
    Declared("POST", "/helpers/forge_block_header", _FORGED_BLOCK, input=BLOCK_HEADER),
    # forging and parsing (``helpers_services.ml``)
    Declared("POST", "/helpers/forge/operations", bytes_, input="operation.unsigned"),
    Declared(
        "POST", "/helpers/forge/protocol_data", _FORGED_PROTOCOL_DATA, input=_PROTOCOL_DATA_TO_FORGE
    ),
    Declared("POST", "/helpers/parse/operations", _parsed_operations, input=_operations_to_parse),
    Declared(
        "POST", "/helpers/parse/block", "block_header.protocol_data", input="block_header.raw"
    ),
    # scripts
    Declared(
        "POST",
        "/helpers/scripts/run_operation",
        "operation.data_and_metadata",
        input=_operation_to_run,
    ),
    Declared("POST", "/helpers/scripts/pack_data", _packed, input=_typed_data),
    Declared("POST", "/helpers/scripts/typecheck_data", _gas_left, input=_typed_data),
    Declared("POST", "/helpers/scripts/run_code", _code_run, input=_run_code_input),
    Declared("POST", "/helpers/scripts/trace_code", _code_trace, input=_run_code_input),
    Declared(
        "POST",
        "/helpers/scripts/entrypoint",
        _entrypoint_type,
        input=_script_and_entrypoint,
        protocols=BABYLON_ON,
    ),
    # levels, rights, endorsements (``helpers_services.ml``, ``delegate_services.ml``)
    Declared("GET", "/helpers/current_level", "level", query=_LEVEL_OFFSET),
    Declared("GET", "/helpers/levels_in_current_cycle", _cycle_levels, query=_LEVEL_OFFSET),
    Declared(
        "GET",
        "/helpers/baking_rights",
        _baking_rights,
        query=(*_RIGHTS, optional("max_priority", ARGS["int"]), flag("all")),
    ),
    Declared("GET", "/helpers/endorsing_rights", _endorsing_rights, query=_RIGHTS),
    Declared("POST", "/endorsing_power", int31, input=_endorsement_and_chain, protocols=BABYLON_ON),
    Declared(
        "GET",
        "/required_endorsements",
        int31,
        query=(single("block_delay", ARGS["int64"], 0),),
        protocols=BABYLON_ON,
    ),
    Declared(
        "GET",
        "/minimal_valid_time",
        "timestamp",
        query=(single("priority", ARGS["int"], 0), single("endorsing_power", ARGS["int"], 0)),
        protocols=BABYLON_ON,
    ),
    # the context (``alpha_services.ml``, ``constants_services.ml``)
    Declared("POST", "/context/seed", "seed", input=EMPTY),
    Declared("GET", "/context/nonces/<block_level>", _nonce_info),
    Declared("GET", "/context/constants", "constants"),
    Declared("GET", "/context/constants/errors", json),  # a JSON schema
    # contracts (``contract_services.ml``)
    Declared("GET", "/context/contracts", _contracts),
    Declared("GET", _C, _contract_info),
    Declared("GET", f"{_C}/balance", "tez"),
    Declared("GET", f"{_C}/counter", z),
    Declared("GET", f"{_C}/delegate", public_key_hash),
    Declared("GET", f"{_C}/manager_key", _manager_key),
    Declared("GET", f"{_C}/script", "script"),
    Declared("GET", f"{_C}/storage", "script.expr"),
    Declared("GET", f"{_C}/entrypoints/<string>", "script.expr", protocols=BABYLON_ON),
    Declared("POST", f"{_C}/big_map_get", _big_map_value, input=_big_map_key),
    Declared(
        "GET", "/context/big_maps/<big_map_id>/<script_expr>", "script.expr", protocols=BABYLON_ON
    ),
    # delegates (``delegate_services.ml``)
    Declared(
        "GET",
        "/context/delegates",
        list_(public_key_hash),
        query=(flag("active"), flag("inactive")),
    ),
    Declared("GET", _D, _delegate_info),
    *(
        Declared("GET", f"{_D}/{leaf}", "tez")
        for leaf in ("balance", "frozen_balance", "staking_balance", "delegated_balance")
    ),
    Declared("GET", f"{_D}/frozen_balance_by_cycle", "delegate.frozen_balance_by_cycles"),
    Declared("GET", f"{_D}/delegated_contracts", _delegated_contracts),
    Declared("GET", f"{_D}/deactivated", bool_),
    Declared("GET", f"{_D}/grace_period", "cycle"),
    # votes (``voting_services.ml``)
    Declared("GET", "/votes/ballot_list", _ballot_list),
    Declared("GET", "/votes/ballots", "vote.ballots"),
    Declared("GET", "/votes/current_period_kind", "voting_period.kind"),
    Declared("GET", "/votes/current_proposal", option(protocol_hash)),
    Declared("GET", "/votes/current_quorum", int32),
    Declared("GET", "/votes/listings", "vote.listings"),
    Declared("GET", "/votes/proposals", _PROPOSALS),
)
"""The block-scoped services of the seed's list that protocols 004-007
declare, with their bodies (relative to ``/chains/<chain_id>/blocks/<block_id>``)."""

INJECTION: tuple[Declared, ...] = (
    Declared(
        "POST",
        "/injection/operation",
        operation_hash,
        input=bytes_,
        query=(flag("async"), optional("chain", ARGS["chain_id"])),
    ),
    Declared(
        "POST",
        "/injection/block",
        block_hash,
        input=obj(
            req("data", bytes_),
            req("operations", list_(dynamic_size(list_(dynamic_size(RAW_OPERATION))))),
        ),
        query=(flag("async"), flag("force"), optional("chain", ARGS["chain_id"])),
    ),
)
"""The shell's injection services (``injection_services.ml``): an operation
injected is its bytes (the shell's operation: branch, then the protocol's
bytes), whatever the protocol; its answer, the operation's hash."""


def declared(
    protocol: Protocol,
    rows: tuple[Declared, ...] = ROWS,
    listed: Collection[tuple[str, str]] = alpha.SERVICES,
) -> dict[tuple[str, str], Service]:
    """The services of ``rows`` that ``protocol`` declares, by method and
    path. Each row must be one of the seed's services, ``listed`` (the
    block's by default): a :class:`~data_encoding.DefinitionError`
    otherwise, since a misspelt path would leave the seed's service untyped."""
    unlisted = [f"{row.method} {row.path}" for row in rows if (row.method, row.path) not in listed]
    if unlisted:
        raise DefinitionError(f"declared but not in the seed's directory: {', '.join(unlisted)}")
    ids = Ids(protocol)
    return {
        (row.method, row.path): row.service(ids) for row in rows if protocol.number in row.protocols
    }
