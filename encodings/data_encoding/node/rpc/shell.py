"""The node-level ("Shell") endpoints of the seed's parts 4.1 to 4.4.

One row per endpoint, as the seed's tables give them; a body the seed does
not show is ``None`` here, and becomes the ``json`` (any) encoding of an
untyped service. ``/ext`` stands for the brand's namespace (see
:func:`data_encoding.node.rpc.directory_of`).
"""

from __future__ import annotations

from typing import Any

from ...tree.core import Encoding
from ...tree.strings import string
from ..catalogue import admin, chains
from ..catalogue.discovery import SERVICE_TREE
from ..hashes import chain_id
from ..keys import public_key_hash
from .args import ARGS
from .query import QueryField, flag, multi, optional, single

__all__ = ["ROWS", "Row"]

#: method, path, query, input (``None``: none), output, description
Row = tuple[str, str, tuple[QueryField, ...], Encoding[Any] | None, Encoding[Any], str | None]

_E = chains.EMPTY
_FAIL = (flag("fail"),)

ROWS: list[Row] = [
    # 4.1 Administration
    (
        "GET",
        "/admin/account/<alias>",
        (),
        None,
        public_key_hash,
        "Return the key hash for an alias.",
    ),
    ("GET", "/admin/accounts", (), None, admin.ACCOUNTS, None),
    ("POST", "/admin/accounts/register", (), admin.ACCOUNTS, _E, "Register accounts with aliases."),
    (
        "POST",
        "/admin/accounts/register_client_dir",
        (),
        string,
        _E,
        "Register a local client directory for daemons.",
    ),
    ("GET", "/admin/daemon/<id>", (), None, admin.DAEMON, None),
    (
        "POST",
        "/admin/daemon/<id>/kill",
        (optional("signal", ARGS["Unix_signal"]),),
        _E,
        _E,
        "Kill a running daemon.",
    ),
    (
        "GET",
        "/admin/daemon/<id>/log",
        (optional("size", ARGS["size"]),),
        None,
        string,
        "Return the log tail.",
    ),
    ("POST", "/admin/daemon/<id>/ping", (), _E, _E, "Update a running daemon."),
    ("DELETE", "/admin/daemon/<id>/remove", _FAIL, None, _E, "Remove a daemon."),
    ("POST", "/admin/daemon/<id>/start", (), _E, admin.DAEMON_STATUS, "Start a registered daemon."),
    (
        "GET",
        "/admin/daemons",
        (optional("kind", ARGS["daemon_kind"]), flag("running")),
        None,
        admin.DAEMONS,
        "List daemons on this node.",
    ),
    ("POST", "/admin/daemons/clean", (), _E, _E, "Drop dead daemons from the running list."),
    ("POST", "/admin/daemons/ping_pid/<pid>", (), _E, _E, None),
    (
        "POST",
        "/admin/daemons/register",
        _FAIL,
        admin.REGISTER_DAEMON,
        admin.DAEMON_STATUS,
        "Register a daemon.",
    ),
    (
        "POST",
        "/admin/daemons/start_accuser",
        (),
        admin.START_ACCUSER,
        admin.DAEMON_STATUS,
        "Start an accuser.",
    ),
    (
        "POST",
        "/admin/daemons/start_baker",
        (),
        admin.START_BAKER,
        admin.DAEMON_STATUS,
        "Start a baker.",
    ),
    (
        "POST",
        "/admin/daemons/start_endorser",
        (),
        admin.START_ENDORSER,
        admin.DAEMON_STATUS,
        "Start an endorser.",
    ),
    # 4.2 Chains
    (
        "GET",
        "/chains/<chain_id>/blocks",
        (
            optional("length", ARGS["int"]),
            multi("head", ARGS["block_hash"]),
            optional("min_date", ARGS["date"]),
        ),
        None,
        chains.BLOCKS,
        None,
    ),
    ("GET", "/chains/<chain_id>/chain_id", (), None, chain_id, None),
    ("GET", "/chains/<chain_id>/checkpoint", (), None, chains.CHECKPOINT, None),
    ("GET", "/chains/<chain_id>/invalid_blocks", (), None, chains.INVALID_BLOCKS, None),
    ("GET", "/chains/<chain_id>/invalid_blocks/<block_hash>", (), None, chains.INVALID_BLOCK, None),
    (
        "DELETE",
        "/chains/<chain_id>/invalid_blocks/<block_hash>",
        (),
        None,
        _E,
        "Remove an invalid block from node storage.",
    ),
    # 4.3 Schema discovery
    (
        "GET",
        "/describe/<string>*",
        (single("recurse", ARGS["bool"], False),),
        None,
        SERVICE_TREE,
        "RPCs documentation and input/output schema",
    ),
]

# 4.4: listed by path only (payloads not shown)
_PATH_ONLY = {
    "GET": [
        "/errors",
        "/ext/banned/peers",
        "/ext/banned/points",
        "/ext/db/stats",
        "/ext/keys/gen",
        "/ext/version",
        "/fetch_protocol/<Protocol_hash>",
        "/monitor/active_chains",
        "/monitor/bootstrapped",
        "/monitor/commit_hash",
        "/monitor/heads/<chain_id>",
        "/monitor/protocols",
        "/monitor/valid_blocks",
        "/network/connections",
        "/network/greylist/clear",
        "/network/log",
        "/network/peers",
        "/network/points",
        "/network/self",
        "/network/stat",
        "/network/version",
        "/network/versions",
        "/network/connections/<peer_id>",
        "/network/peers/<peer_id>",
        *(
            f"/network/{what}/<{arg}>/{verb}"
            for what, arg in (("peers", "peer_id"), ("points", "point"))
            for verb in ("ban", "banned", "log", "trust", "unban", "untrust")
        ),
        "/network/points/<point>",
        "/protocols",
        "/protocols/<Protocol_hash>",
        "/stats/gc",
        "/stats/memory",
        "/storage/context/gc",
        "/storage/context/revert",
        "/workers/block_validator",
        "/workers/chain_validators",
        "/workers/chain_validators/<chain_id>",
        "/workers/chain_validators/<chain_id>/ddb",
        "/workers/chain_validators/<chain_id>/peers_validators",
        "/workers/chain_validators/<chain_id>/peers_validators/<peer_id>",
        "/workers/prevalidators",
        "/workers/prevalidators/<chain_id>",
    ],
    "POST": ["/injection/block", "/injection/operation", "/injection/protocol"],
    "DELETE": ["/network/connections/<peer_id>"],
    "PUT": ["/network/points/<point>"],
}

UNTYPED: list[tuple[str, str]] = [(m, p) for m, paths in _PATH_ONLY.items() for p in paths]
"""The endpoints whose bodies the seed does not show (method, path)."""

#: the dynamic subtrees: path, description (the block-scoped one gets its directory)
DYNAMIC = [
    (
        "/chains/<chain_id>/blocks/<block_id>",
        "All the RPCs which are specific to the protocol version.",
    ),
    ("/chains/<chain_id>/mempool", None),
]
