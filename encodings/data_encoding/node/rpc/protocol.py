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
the records the services state inline over those (:mod:`.bodies`).

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
from typing import Any

from ...errors import DefinitionError
from ...tree.anyjson import json
from ...tree.core import Encoding
from ...tree.framing import dynamic_size
from ...tree.primitives import bool_, int31, int32
from ...tree.records import obj, req
from ...tree.sequences import list_
from ...tree.strings import bytes_, string
from ...tree.unions import option
from ...tree.zarith import z
from ..catalogue.chains import BLOCK_HEADER, EMPTY, SHELL_HEADER
from ..hashes import block_hash, operation_hash, protocol_hash
from ..keys import public_key_hash
from ..protocols.operations import RAW_OPERATION
from ..protocols.versions import Protocol
from . import alpha, bodies
from .args import ARGS
from .bodies import ALL, BABYLON_ON, Ids, once
from .directory import Method, Service, parse_path
from .query import Query, QueryField, flag, multi, optional, single

__all__ = [
    "ALL",
    "BABYLON_ON",
    "INJECTION",
    "ROWS",
    "Body",
    "Declared",
    "declared",
]

Body = str | Encoding[Any] | Callable[[Ids], Encoding[Any]]
"""A body as a row states it: the name of one of the protocol's ids, one of
the shell's encodings, or a function that builds it from the protocol's ids."""


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
    return once(body, ids)


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
    Declared("GET", "/", bodies.block),
    Declared("GET", "/metadata", bodies.block_metadata),
    Declared("GET", "/operations", bodies.operation_lists),
    Declared("GET", "/operations/<list_offset>", bodies.operation_list),
    Declared("GET", "/operations/<list_offset>/<operation_offset>", bodies.operation),
    Declared(
        "POST",
        "/helpers/preapply/operations",
        bodies.preapplied_operations,
        input=bodies.next_operations,
    ),
    Declared(
        "POST",
        "/helpers/preapply/block",
        bodies.PREAPPLIED_BLOCK,
        input=bodies.block_to_preapply,
        query=(flag("sort"), optional("timestamp", ARGS["date"])),
    ),
    Declared("GET", "/hash", block_hash),
    Declared("GET", "/header", bodies.header),
    Declared("GET", "/header/raw", bytes_),
    Declared("GET", "/header/shell", SHELL_HEADER),
    Declared("GET", "/header/protocol_data", bodies.header_protocol_data),
    Declared("GET", "/header/protocol_data/raw", bytes_),
    Declared("GET", "/protocols", bodies.PROTOCOLS_OF_BLOCK),
    Declared("GET", "/live_blocks", list_(block_hash)),
    Declared("GET", "/operation_hashes", list_(list_(operation_hash))),
    Declared("GET", "/operation_hashes/<list_offset>", list_(operation_hash)),
    Declared("GET", "/operation_hashes/<list_offset>/<operation_offset>", operation_hash),
    Declared("GET", "/helpers/complete/<prefix>", list_(string)),
    Declared("POST", "/helpers/forge_block_header", bodies.FORGED_BLOCK, input=BLOCK_HEADER),
    # forging and parsing (``helpers_services.ml``)
    Declared("POST", "/helpers/forge/operations", bytes_, input="operation.unsigned"),
    Declared(
        "POST",
        "/helpers/forge/protocol_data",
        bodies.FORGED_PROTOCOL_DATA,
        input=bodies.PROTOCOL_DATA_TO_FORGE,
    ),
    Declared(
        "POST",
        "/helpers/parse/operations",
        bodies.parsed_operations,
        input=bodies.operations_to_parse,
    ),
    Declared(
        "POST", "/helpers/parse/block", "block_header.protocol_data", input="block_header.raw"
    ),
    # scripts
    Declared(
        "POST",
        "/helpers/scripts/run_operation",
        "operation.data_and_metadata",
        input=bodies.operation_to_run,
    ),
    Declared("POST", "/helpers/scripts/pack_data", bodies.packed_and_gas, input=bodies.typed_data),
    Declared("POST", "/helpers/scripts/typecheck_data", bodies.gas_left, input=bodies.typed_data),
    Declared("POST", "/helpers/scripts/run_code", bodies.code_run, input=bodies.run_code_input),
    Declared("POST", "/helpers/scripts/trace_code", bodies.code_trace, input=bodies.run_code_input),
    Declared(
        "POST",
        "/helpers/scripts/entrypoint",
        bodies.entrypoint_type,
        input=bodies.script_and_entrypoint,
        protocols=BABYLON_ON,
    ),
    # levels, rights, endorsements (``helpers_services.ml``, ``delegate_services.ml``)
    Declared("GET", "/helpers/current_level", "level", query=_LEVEL_OFFSET),
    Declared("GET", "/helpers/levels_in_current_cycle", bodies.cycle_levels, query=_LEVEL_OFFSET),
    Declared(
        "GET",
        "/helpers/baking_rights",
        bodies.baking_rights,
        query=(*_RIGHTS, optional("max_priority", ARGS["int"]), flag("all")),
    ),
    Declared("GET", "/helpers/endorsing_rights", bodies.endorsing_rights, query=_RIGHTS),
    Declared(
        "POST", "/endorsing_power", int31, input=bodies.endorsement_and_chain, protocols=BABYLON_ON
    ),
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
    Declared("GET", "/context/nonces/<block_level>", bodies.nonce_info),
    Declared("GET", "/context/constants", "constants"),
    Declared("GET", "/context/constants/errors", json),  # a JSON schema
    # contracts (``contract_services.ml``)
    Declared("GET", "/context/contracts", bodies.contracts),
    Declared("GET", _C, bodies.contract_info),
    Declared("GET", f"{_C}/balance", "tez"),
    Declared("GET", f"{_C}/counter", z),
    Declared("GET", f"{_C}/delegate", public_key_hash),
    Declared("GET", f"{_C}/manager_key", bodies.manager_key),
    Declared("GET", f"{_C}/script", "script"),
    Declared("GET", f"{_C}/storage", "script.expr"),
    Declared("GET", f"{_C}/entrypoints/<string>", "script.expr", protocols=BABYLON_ON),
    Declared("POST", f"{_C}/big_map_get", bodies.big_map_value, input=bodies.big_map_key),
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
    Declared("GET", _D, bodies.delegate_info),
    *(
        Declared("GET", f"{_D}/{leaf}", "tez")
        for leaf in ("balance", "frozen_balance", "staking_balance", "delegated_balance")
    ),
    Declared("GET", f"{_D}/frozen_balance_by_cycle", "delegate.frozen_balance_by_cycles"),
    Declared("GET", f"{_D}/delegated_contracts", bodies.delegated_contracts),
    Declared("GET", f"{_D}/deactivated", bool_),
    Declared("GET", f"{_D}/grace_period", "cycle"),
    # votes (``voting_services.ml``)
    Declared("GET", "/votes/ballot_list", bodies.ballot_list),
    Declared("GET", "/votes/ballots", "vote.ballots"),
    Declared("GET", "/votes/current_period_kind", "voting_period.kind"),
    Declared("GET", "/votes/current_proposal", option(protocol_hash)),
    Declared("GET", "/votes/current_quorum", int32),
    Declared("GET", "/votes/listings", "vote.listings"),
    Declared("GET", "/votes/proposals", bodies.PROPOSALS),
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
