"""Protocol 007 ``PsDELPH1`` (Delphi): its encodings, and its catalogue ids
(``proto.psdelph1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import Encoding, publish
from . import carthage, values
from .micheline import Node, Script
from .versions import DELPHI, IdTable, register_ids

PROTOCOL = DELPHI

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

# the same table as Carthage's, so the same encodings
PRIMITIVES: tuple[str, ...] = carthage.PRIMITIVES
SCRIPT_PRIM: Encoding[str] = carthage.SCRIPT_PRIM
SCRIPT_EXPR: Encoding[Node] = carthage.SCRIPT_EXPR
SCRIPT_LAZY_EXPR: Encoding[Node] = carthage.SCRIPT_LAZY_EXPR
SCRIPT: Encoding[Script] = carthage.SCRIPT
SCRIPT_LOC: Encoding[int] = carthage.SCRIPT_LOC
SCRIPT_PACKED: Encoding[Node] = carthage.SCRIPT_PACKED

_SCRIPT_IDS: IdTable = carthage._SCRIPT_IDS

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

ROLL = carthage.ROLL
CYCLE = carthage.CYCLE
RAW_LEVEL = carthage.RAW_LEVEL
VOTING_PERIOD = carthage.VOTING_PERIOD
PERIOD = carthage.PERIOD
FITNESS = carthage.FITNESS
TIMESTAMP = carthage.TIMESTAMP
LEVEL = carthage.LEVEL
VOTING_PERIOD_KIND = carthage.VOTING_PERIOD_KIND
VOTE_BALLOT = carthage.VOTE_BALLOT
VOTE_BALLOTS = carthage.VOTE_BALLOTS
VOTE_LISTINGS = carthage.VOTE_LISTINGS
SEED = carthage.SEED
NONCE = carthage.NONCE
GAS = carthage.GAS
GAS_COST = values.GAS_COST_MILLIGAS  # was six counts: now one number, of milligas
ERRORS = carthage.ERRORS

_VALUE_IDS: IdTable = values.value_ids(globals())

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
