"""Protocol 005 ``PsBabyM1`` (Babylon): its encodings, and its catalogue ids
(``proto.psbabym1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from . import athens, values
from .versions import BABYLON, IdTable, register_ids

PROTOCOL = BABYLON

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

_SCRIPT_IDS: IdTable = {}

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
