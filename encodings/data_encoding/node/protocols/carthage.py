"""Protocol 006 ``PsCARTHA`` (Carthage): its encodings, and its catalogue ids
(``proto.pscartha.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import Encoding, publish
from . import babylon, operations, values
from .micheline import Node, Script
from .versions import CARTHAGE, IdTable, register_ids

PROTOCOL = CARTHAGE

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

# the same table as Babylon's, so the same encodings
PRIMITIVES: tuple[str, ...] = babylon.PRIMITIVES
SCRIPT_PRIM: Encoding[str] = babylon.SCRIPT_PRIM
SCRIPT_EXPR: Encoding[Node] = babylon.SCRIPT_EXPR
SCRIPT_LAZY_EXPR: Encoding[Node] = babylon.SCRIPT_LAZY_EXPR
SCRIPT: Encoding[Script] = babylon.SCRIPT
SCRIPT_LOC: Encoding[int] = babylon.SCRIPT_LOC
SCRIPT_PACKED: Encoding[Node] = babylon.SCRIPT_PACKED

_SCRIPT_IDS: IdTable = babylon._SCRIPT_IDS

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

ROLL = babylon.ROLL
CYCLE = babylon.CYCLE
RAW_LEVEL = babylon.RAW_LEVEL
VOTING_PERIOD = babylon.VOTING_PERIOD
PERIOD = babylon.PERIOD
FITNESS = babylon.FITNESS
TIMESTAMP = babylon.TIMESTAMP
LEVEL = babylon.LEVEL
VOTING_PERIOD_KIND = babylon.VOTING_PERIOD_KIND
VOTE_BALLOT = babylon.VOTE_BALLOT
VOTE_BALLOTS = babylon.VOTE_BALLOTS
VOTE_LISTINGS = babylon.VOTE_LISTINGS
SEED = babylon.SEED
NONCE = babylon.NONCE
GAS = babylon.GAS
GAS_COST = babylon.GAS_COST
ERRORS = babylon.ERRORS

_VALUE_IDS: IdTable = values.value_ids(globals())

# --- operations and block headers: operation.*, block_header.* ---

# the same operations as Babylon's (``operation_repr.ml``), over the same Micheline
OPERATION = babylon.OPERATION
OPERATION_CONTENTS = babylon.OPERATION_CONTENTS
OPERATION_CONTENTS_LIST = babylon.OPERATION_CONTENTS_LIST
OPERATION_PROTOCOL_DATA = babylon.OPERATION_PROTOCOL_DATA
OPERATION_RAW = babylon.OPERATION_RAW
OPERATION_INTERNAL = babylon.OPERATION_INTERNAL
OPERATION_UNSIGNED = babylon.OPERATION_UNSIGNED
BLOCK_HEADER = babylon.BLOCK_HEADER
BLOCK_HEADER_UNSIGNED = babylon.BLOCK_HEADER_UNSIGNED
BLOCK_HEADER_RAW = babylon.BLOCK_HEADER_RAW
BLOCK_HEADER_CONTENTS = babylon.BLOCK_HEADER_CONTENTS
BLOCK_HEADER_SHELL_HEADER = babylon.BLOCK_HEADER_SHELL_HEADER
BLOCK_HEADER_PROTOCOL_DATA = babylon.BLOCK_HEADER_PROTOCOL_DATA

_OPERATION_IDS: IdTable = operations.operation_ids(globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
