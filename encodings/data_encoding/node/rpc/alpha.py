"""The block-scoped ("Protocol Alpha") endpoints of the seed's part 4.5.

Paths are relative to ``/chains/<chain_id>/blocks/<block_id>``, as the node
publishes them inside that dynamic subtree. The seed shows none of their
payloads except block ``metadata``'s three fields, so every other body is
the ``json`` (any) encoding; the directory of a protocol types them as the
protocol declares them (:mod:`.protocol`).

The seed lists two editions of the index together (part 9): one has
``exec_fun`` and ``unpack_data``, the other ``header/raw``. Both are here;
the paths of only one edition carry its name (:data:`EDITIONS`).
"""

from __future__ import annotations

__all__ = ["EDITIONS", "GET", "POST", "SERVICES"]

EDITIONS = {
    "/context/contracts/<contract_id>/exec_fun/<string>": "scripts",
    "/helpers/scripts/unpack_data": "scripts",
    "/header/raw": "raw_header",
}
"""The paths that one edition of the index lists, and that edition's name."""

_CONTRACT = "/context/contracts/<contract_id>"
_DELEGATE = "/context/delegates/<pkh>"

GET = [
    "/",
    "/hash",
    "/header",
    "/header/raw",
    "/header/shell",
    "/header/protocol_data",
    "/header/protocol_data/raw",
    "/metadata",
    "/live_blocks",
    "/minimal_valid_time",
    "/protocols",
    "/required_endorsements",
    "/allowed_peer_ids",
    "/raw_context",
    "/operation_hashes",
    "/operation_hashes/<list_offset>",
    "/operation_hashes/<list_offset>/<operation_offset>",
    "/operations",
    "/operations/<list_offset>",
    "/operations/<list_offset>/<operation_offset>",
    "/operation/<operation_hash>",
    "/context/activate_protocol",
    "/context/constants",
    "/context/constants/errors",
    "/context/contracts",
    "/context/delegates",
    "/context/next_deflate",
    "/context/protocol_revision",
    "/context/unburn",
    "/context/nonces/<block_level>",
    "/context/big_maps/<big_map_id>/<script_expr>",
    "/context/codes/code/<script_expr>",
    _CONTRACT,
    *(
        f"{_CONTRACT}/{leaf}"
        for leaf in (
            "balance",
            "counter",
            "delegate",
            "entrypoints",
            "entrypoints/<string>",
            "info",
            "manager_key",
            "parameters",
            "script",
            "storage",
            "get_value/<string>",
        )
    ),
    _DELEGATE,
    *(
        f"{_DELEGATE}/{leaf}"
        for leaf in (
            "balance",
            "deactivated",
            "delegated_balance",
            "delegated_contracts",
            "frozen_balance",
            "frozen_balance_by_cycle",
            "grace_period",
            "staking_balance",
        )
    ),
    "/context/raw/bytes/<string>*",
    "/context/raw/json/<string>*",
    "/helpers/baking_rights",
    "/helpers/complete/<prefix>",
    "/helpers/current_level",
    "/helpers/endorsing_rights",
    "/helpers/levels_in_current_cycle",
    "/votes/ballot_list",
    "/votes/ballots",
    "/votes/current_period_kind",
    "/votes/current_proposal",
    "/votes/current_quorum",
    "/votes/listings",
    "/votes/proposals",
]

POST = [
    "/endorsing_power",
    "/context/codes/known",
    "/context/seed",
    f"{_CONTRACT}/big_map_get",
    f"{_CONTRACT}/exec_fun/<string>",
    "/helpers/forge/operations",
    "/helpers/forge/protocol_data",
    "/helpers/forge_block_header",
    "/helpers/parse/block",
    "/helpers/parse/operations",
    "/helpers/preapply/block",
    "/helpers/preapply/operations",
    *(
        f"/helpers/scripts/{leaf}"
        for leaf in (
            "entrypoint",
            "entrypoints",
            "pack_data",
            "run_code",
            "run_operation",
            "trace_code",
            "typecheck_code",
            "typecheck_data",
            "unpack_data",
        )
    ),
    "/ext/build_operation",
]

SERVICES: list[tuple[str, str]] = [("GET", p) for p in GET] + [("POST", p) for p in POST]
"""Every endpoint: method and path."""
