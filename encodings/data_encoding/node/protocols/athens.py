"""Protocol 004 ``Pt24m4xi`` (Athens): its encodings, and its catalogue ids
(``proto.pt24m4xi.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from . import values
from .versions import ATHENS, IdTable, register_ids

PROTOCOL = ATHENS

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

_SCRIPT_IDS: IdTable = {}

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

ROLL = values.ROLL
CYCLE = values.CYCLE
RAW_LEVEL = values.RAW_LEVEL
VOTING_PERIOD = values.VOTING_PERIOD
PERIOD = values.PERIOD
FITNESS = values.FITNESS
TIMESTAMP = values.TIMESTAMP
LEVEL = values.LEVEL
VOTING_PERIOD_KIND = values.VOTING_PERIOD_KIND
VOTE_BALLOT = values.VOTE_BALLOT
VOTE_BALLOTS = values.VOTE_BALLOTS
VOTE_LISTINGS = values.VOTE_LISTINGS
SEED = values.SEED
NONCE = values.NONCE
GAS = values.GAS
GAS_COST = values.GAS_COST_COUNTS
ERRORS = values.ERRORS

_VALUE_IDS: IdTable = values.value_ids(globals())

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
