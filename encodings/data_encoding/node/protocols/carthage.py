"""Protocol 006 ``PsCARTHA`` (Carthage): its encodings, and its catalogue ids
(``proto.pscartha.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import babylon, constants, micheline, operations, results, values
from .versions import CARTHAGE, IdTable, id_table, register_ids

PROTOCOL = CARTHAGE

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

PRIMITIVES: tuple[str, ...] = babylon.PRIMITIVES
"""Babylon's: so the encodings are Babylon's very objects."""

SCRIPT, SCRIPT_EXPR, SCRIPT_PRIM, SCRIPT_LAZY_EXPR, SCRIPT_LOC, SCRIPT_PACKED = (
    micheline.script_encodings(PRIMITIVES)
)

_SCRIPT_IDS: IdTable = micheline.script_ids(PRIMITIVES)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

PARAMETERS = constants.carthage_parameters(SCRIPT)
TEZ = babylon.TEZ
ROLL = babylon.ROLL
FITNESS = babylon.FITNESS
TIMESTAMP = babylon.TIMESTAMP
RAW_LEVEL = babylon.RAW_LEVEL
VOTE_BALLOT = babylon.VOTE_BALLOT
VOTE_BALLOTS = babylon.VOTE_BALLOTS
VOTE_LISTINGS = babylon.VOTE_LISTINGS
SEED = babylon.SEED
GAS = babylon.GAS
GAS_COST = babylon.GAS_COST
CONTRACT = babylon.CONTRACT
CONTRACT_BIG_MAP_DIFF = babylon.CONTRACT_BIG_MAP_DIFF
DELEGATE_FROZEN_BALANCE = babylon.DELEGATE_FROZEN_BALANCE
DELEGATE_BALANCE_UPDATES = babylon.DELEGATE_BALANCE_UPDATES
DELEGATE_FROZEN_BALANCE_BY_CYCLES = babylon.DELEGATE_FROZEN_BALANCE_BY_CYCLES
LEVEL = babylon.LEVEL
PERIOD = babylon.PERIOD
CYCLE = babylon.CYCLE
CONSTANTS = constants.CARTHAGE_CONSTANTS
CONSTANTS_FIXED = babylon.CONSTANTS_FIXED
CONSTANTS_PARAMETRIC = constants.CARTHAGE_PARAMETRIC  # rewards by endorsement
NONCE = babylon.NONCE
VOTING_PERIOD = babylon.VOTING_PERIOD
VOTING_PERIOD_KIND = babylon.VOTING_PERIOD_KIND
ERRORS = babylon.ERRORS

_VALUE_IDS: IdTable = id_table(values.VALUE_IDS, globals())

# --- operations and block headers: operation.*, block_header.* ---

# the same operations as Babylon's (``operation_repr.ml``), over the same Micheline
OPERATIONS = babylon.OPERATIONS
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

_OPERATION_IDS: IdTable = id_table(operations.OPERATION_IDS, globals())


# --- receipts: operation.data_and_metadata, the block's metadata ---

# the same results as Babylon's (``apply_results.ml``), over the same operations
RESULTS = babylon.RESULTS
OPERATION_DATA_AND_METADATA = RESULTS.operation_with_metadata
OPERATION_METADATA = RESULTS.operation_metadata
BLOCK_HEADER_METADATA = RESULTS.block_metadata

_RESULT_IDS: IdTable = id_table(results.RESULT_IDS, globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS, _RESULT_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
