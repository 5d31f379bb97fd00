"""Protocol 005 ``PsBabyM1`` (Babylon): its encodings, and its catalogue ids
(``proto.psbabym1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict

from ...tree.core import publish
from ...tree.records import obj, opt, req
from ...tree.typed import typed
from ..keys import PublicKeyHash, public_key_hash
from . import athens, constants, entrypoints, micheline, operations, receipts, results, values
from .contracts import ContractId, contract_id
from .micheline import Node, Script
from .tez import tez
from .versions import BABYLON, IdTable, id_table, register_ids

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

_VALUE_IDS: IdTable = id_table(values.VALUE_IDS, globals())

# --- operations and block headers: operation.*, block_header.* ---


class TransactionParameters(TypedDict):
    """A transaction's parameters: the entrypoint called, and its argument."""

    entrypoint: str
    value: Node


class TransactionFields(TypedDict):
    """A transaction's own fields from 005 on: its parameters name an
    entrypoint."""

    amount: int
    destination: ContractId
    parameters: NotRequired[TransactionParameters | None]


class OriginationFields(TypedDict):
    """An origination's own fields from 005 on: every contract has a
    script (and no manager, spendable or delegatable flags)."""

    balance: int
    delegate: NotRequired[PublicKeyHash | None]
    script: Script


class Transaction(operations.Manager[PublicKeyHash], TransactionFields):
    kind: Literal["transaction"]


class Origination(operations.Manager[PublicKeyHash], OriginationFields):
    kind: Literal["origination"]


class InternalTransaction(operations.Internal, TransactionFields):
    kind: Literal["transaction"]


class InternalOrigination(operations.Internal, OriginationFields):
    kind: Literal["origination"]


Contents: TypeAlias = operations.ContentsOf[PublicKeyHash, Transaction, Origination]
InternalOperation: TypeAlias = operations.InternalOf[InternalTransaction, InternalOrigination]

_TRANSACTION_PARAMETERS = typed(
    TransactionParameters,
    obj(req("entrypoint", entrypoints.ENTRYPOINT), req("value", SCRIPT_LAZY_EXPR)),
)
OPERATIONS: operations.Operations[Contents, InternalOperation] = operations.build(
    first_manager_tag=107,  # 004's were 7 to 10
    source=public_key_hash,  # an implicit account (004: any contract)
    transaction=typed(
        TransactionFields,
        obj(
            req("amount", tez),
            req("destination", contract_id),
            opt("parameters", entrypoints.explicit(_TRANSACTION_PARAMETERS)),
        ),
    ),
    origination=typed(
        OriginationFields,
        obj(
            req("balance", tez),
            opt("delegate", public_key_hash),
            req("script", SCRIPT),
        ),
    ),
)
OPERATION = OPERATIONS.operation
OPERATION_CONTENTS = OPERATIONS.contents
OPERATION_CONTENTS_LIST = OPERATIONS.contents_list
OPERATION_PROTOCOL_DATA = OPERATIONS.protocol_data
OPERATION_RAW = athens.OPERATION_RAW
OPERATION_INTERNAL = OPERATIONS.internal
OPERATION_UNSIGNED = OPERATIONS.unsigned
BLOCK_HEADER = athens.BLOCK_HEADER
BLOCK_HEADER_UNSIGNED = athens.BLOCK_HEADER_UNSIGNED
BLOCK_HEADER_RAW = athens.BLOCK_HEADER_RAW
BLOCK_HEADER_CONTENTS = athens.BLOCK_HEADER_CONTENTS
BLOCK_HEADER_SHELL_HEADER = athens.BLOCK_HEADER_SHELL_HEADER
BLOCK_HEADER_PROTOCOL_DATA = athens.BLOCK_HEADER_PROTOCOL_DATA

_OPERATION_IDS: IdTable = id_table(operations.OPERATION_IDS, globals())


# --- receipts: operation.data_and_metadata, the block's metadata ---

RESULTS = results.build(
    OPERATIONS,
    expression=SCRIPT_EXPR,
    big_map_diff=CONTRACT_BIG_MAP_DIFF,
    originations_diff=True,  # an origination's result has its big map diff
    milligas=False,
)
OPERATION_DATA_AND_METADATA = RESULTS.operation_with_metadata
OPERATION_METADATA = RESULTS.operation_metadata
BLOCK_HEADER_METADATA = RESULTS.block_metadata

_RESULT_IDS: IdTable = id_table(results.RESULT_IDS, globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS, _RESULT_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
