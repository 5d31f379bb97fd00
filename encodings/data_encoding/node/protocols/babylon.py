"""Protocol 005 ``PsBabyM1`` (Babylon): its encodings, and its catalogue ids
(``proto.psbabym1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import Encoding, publish
from . import athens, micheline, values
from .micheline import Node, Script
from .versions import BABYLON, IdTable, register_ids

PROTOCOL = BABYLON

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

PRIMITIVES: tuple[str, ...] = (
    *athens.PRIMITIVES,
    "DIG",
    "DUG",
    "EMPTY_BIG_MAP",
    "APPLY",
    "chain_id",
    "CHAIN_ID",
)
"""Athens' primitives, then six new ones (``michelson_v1_primitives.ml``)."""

SCRIPT_PRIM: Encoding[str] = micheline.primitive(PRIMITIVES)
SCRIPT_EXPR: Encoding[Node] = micheline.expression(SCRIPT_PRIM)
SCRIPT_LAZY_EXPR: Encoding[Node] = micheline.lazy_expr(SCRIPT_EXPR)
SCRIPT: Encoding[Script] = micheline.script(SCRIPT_EXPR)
SCRIPT_LOC: Encoding[int] = athens.SCRIPT_LOC
SCRIPT_PACKED: Encoding[Node] = micheline.packed(SCRIPT_EXPR)

_SCRIPT_IDS: IdTable = micheline.script_ids(SCRIPT_PRIM)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

ROLL = athens.ROLL
CYCLE = athens.CYCLE
RAW_LEVEL = athens.RAW_LEVEL
VOTING_PERIOD = athens.VOTING_PERIOD
PERIOD = athens.PERIOD
FITNESS = athens.FITNESS
TIMESTAMP = athens.TIMESTAMP
LEVEL = athens.LEVEL
VOTING_PERIOD_KIND = athens.VOTING_PERIOD_KIND
VOTE_BALLOT = athens.VOTE_BALLOT
VOTE_BALLOTS = athens.VOTE_BALLOTS
VOTE_LISTINGS = athens.VOTE_LISTINGS
SEED = athens.SEED
NONCE = athens.NONCE
GAS = athens.GAS
GAS_COST = athens.GAS_COST
ERRORS = athens.ERRORS

_VALUE_IDS: IdTable = values.value_ids(globals())

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
