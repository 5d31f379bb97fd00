"""Protocol 007 ``PsDELPH1`` (Delphi): its encodings, and its catalogue ids
(``proto.psdelph1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import Encoding, publish
from . import carthage, operations, values
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

# Delphi counts gas in milligas, but an operation's gas_limit is still whole
# gas units, written as before (``Gas_limit_repr.Arith.n_integral_encoding``
# is ``n``): its operations are Carthage's.
OPERATION = carthage.OPERATION
OPERATION_CONTENTS = carthage.OPERATION_CONTENTS
OPERATION_CONTENTS_LIST = carthage.OPERATION_CONTENTS_LIST
OPERATION_PROTOCOL_DATA = carthage.OPERATION_PROTOCOL_DATA
OPERATION_RAW = carthage.OPERATION_RAW
OPERATION_INTERNAL = carthage.OPERATION_INTERNAL
OPERATION_UNSIGNED = carthage.OPERATION_UNSIGNED
BLOCK_HEADER = carthage.BLOCK_HEADER
BLOCK_HEADER_UNSIGNED = carthage.BLOCK_HEADER_UNSIGNED
BLOCK_HEADER_RAW = carthage.BLOCK_HEADER_RAW
BLOCK_HEADER_CONTENTS = carthage.BLOCK_HEADER_CONTENTS
BLOCK_HEADER_SHELL_HEADER = carthage.BLOCK_HEADER_SHELL_HEADER
BLOCK_HEADER_PROTOCOL_DATA = carthage.BLOCK_HEADER_PROTOCOL_DATA

_OPERATION_IDS: IdTable = operations.operation_ids(globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
