"""Protocol 005 ``PsBabyM1`` (Babylon): its encodings, and its catalogue ids
(``proto.psbabym1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import athens, constants, micheline, receipts, values
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

SCRIPT, SCRIPT_EXPR, SCRIPT_PRIM, SCRIPT_LAZY_EXPR, SCRIPT_LOC, SCRIPT_PACKED = (
    micheline.script_encodings(PRIMITIVES)
)

_SCRIPT_IDS: IdTable = micheline.script_ids(PRIMITIVES)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

PARAMETERS = constants.babylon_parameters(SCRIPT)  # every constant required
TEZ = athens.TEZ
ROLL = athens.ROLL
FITNESS = athens.FITNESS
TIMESTAMP = athens.TIMESTAMP
RAW_LEVEL = athens.RAW_LEVEL
VOTE_BALLOT = athens.VOTE_BALLOT
VOTE_BALLOTS = athens.VOTE_BALLOTS
VOTE_LISTINGS = athens.VOTE_LISTINGS
SEED = athens.SEED
GAS = athens.GAS
GAS_COST = athens.GAS_COST
CONTRACT = athens.CONTRACT
CONTRACT_BIG_MAP_DIFF = receipts.big_map_diff(SCRIPT_EXPR, named=True)  # numbered big maps
DELEGATE_FROZEN_BALANCE = athens.DELEGATE_FROZEN_BALANCE
DELEGATE_BALANCE_UPDATES = athens.DELEGATE_BALANCE_UPDATES
DELEGATE_FROZEN_BALANCE_BY_CYCLES = athens.DELEGATE_FROZEN_BALANCE_BY_CYCLES
LEVEL = athens.LEVEL
PERIOD = athens.PERIOD
CYCLE = athens.CYCLE
CONSTANTS = constants.BABYLON_CONSTANTS
CONSTANTS_FIXED = athens.CONSTANTS_FIXED
CONSTANTS_PARAMETRIC = constants.BABYLON_PARAMETRIC  # and the quorums
NONCE = athens.NONCE
VOTING_PERIOD = athens.VOTING_PERIOD
VOTING_PERIOD_KIND = athens.VOTING_PERIOD_KIND
ERRORS = athens.ERRORS

_VALUE_IDS: IdTable = values.value_ids(globals())

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
