"""Protocol 007 ``PsDELPH1`` (Delphi): its encodings, and its catalogue ids
(``proto.psdelph1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import carthage, constants, micheline, operations, receipts, results, values
from .versions import DELPHI, IdTable, id_table, register_ids

PROTOCOL = DELPHI

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

PRIMITIVES: tuple[str, ...] = carthage.PRIMITIVES
"""Carthage's: so the encodings are Carthage's very objects."""

SCRIPT, SCRIPT_EXPR, SCRIPT_PRIM, SCRIPT_LAZY_EXPR, SCRIPT_LOC, SCRIPT_PACKED = (
    micheline.script_encodings(PRIMITIVES)
)

_SCRIPT_IDS: IdTable = micheline.script_ids(PRIMITIVES)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

PARAMETERS = carthage.PARAMETERS
TEZ = carthage.TEZ
ROLL = carthage.ROLL
FITNESS = carthage.FITNESS
TIMESTAMP = carthage.TIMESTAMP
RAW_LEVEL = carthage.RAW_LEVEL
VOTE_BALLOT = carthage.VOTE_BALLOT
VOTE_BALLOTS = carthage.VOTE_BALLOTS
VOTE_LISTINGS = carthage.VOTE_LISTINGS
SEED = carthage.SEED
GAS = carthage.GAS
GAS_COST = values.DELPHI_GAS_COST  # one number, of milligas
CONTRACT = carthage.CONTRACT
CONTRACT_BIG_MAP_DIFF = receipts.big_map_diff(SCRIPT_EXPR, named=False)  # no longer named
DELEGATE_FROZEN_BALANCE = carthage.DELEGATE_FROZEN_BALANCE
DELEGATE_BALANCE_UPDATES = carthage.DELEGATE_BALANCE_UPDATES
DELEGATE_FROZEN_BALANCE_BY_CYCLES = carthage.DELEGATE_FROZEN_BALANCE_BY_CYCLES
LEVEL = carthage.LEVEL
PERIOD = carthage.PERIOD
CYCLE = carthage.CYCLE
CONSTANTS = constants.DELPHI_CONSTANTS
CONSTANTS_FIXED = constants.DELPHI_FIXED  # max_anon_ops_per_block
CONSTANTS_PARAMETRIC = carthage.CONSTANTS_PARAMETRIC
NONCE = carthage.NONCE
VOTING_PERIOD = carthage.VOTING_PERIOD
VOTING_PERIOD_KIND = carthage.VOTING_PERIOD_KIND
ERRORS = carthage.ERRORS

_VALUE_IDS: IdTable = id_table(values.VALUE_IDS, globals())

# --- operations and block headers: operation.*, block_header.* ---

# Delphi counts gas in milligas, but an operation's gas_limit is still whole
# gas units, written as before (``Gas_limit_repr.Arith.n_integral_encoding``
# is ``n``): its operations are Carthage's.
OPERATIONS = carthage.OPERATIONS
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

_OPERATION_IDS: IdTable = id_table(operations.OPERATION_IDS, globals())


# --- receipts: operation.data_and_metadata, the block's metadata ---

RESULTS = results.build(
    OPERATIONS,
    expression=SCRIPT_EXPR,
    big_map_diff=CONTRACT_BIG_MAP_DIFF,
    originations_diff=True,
    milligas=True,  # gas counted in milligas too, the block's in milligas only
)
OPERATION_DATA_AND_METADATA = RESULTS.operation_with_metadata
OPERATION_METADATA = RESULTS.operation_metadata
BLOCK_HEADER_METADATA = RESULTS.block_metadata

_RESULT_IDS: IdTable = id_table(results.RESULT_IDS, globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS, _RESULT_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
