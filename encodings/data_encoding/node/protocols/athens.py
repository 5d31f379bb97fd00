"""Protocol 004 ``Pt24m4xi`` (Athens): its encodings, and its catalogue ids
(``proto.pt24m4xi.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypeAlias, TypedDict

from ...tree.core import publish
from ...tree.primitives import bool_
from ...tree.records import dft, obj, opt, req
from ...tree.typed import typed
from ..catalogue import chains
from ..keys import PublicKeyHash, public_key_hash
from . import blocks, constants, micheline, operations, receipts, results, values
from .contracts import ContractId, contract_id
from .micheline import Node, Script
from .tez import tez
from .versions import ATHENS, IdTable, id_table, register_ids

PROTOCOL = ATHENS

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

PRIMITIVES: tuple[str, ...] = (
    "parameter",
    "storage",
    "code",
    "False",
    "Elt",
    "Left",
    "None",
    "Pair",
    "Right",
    "Some",
    "True",
    "Unit",
    "PACK",
    "UNPACK",
    "BLAKE2B",
    "SHA256",
    "SHA512",
    "ABS",
    "ADD",
    "AMOUNT",
    "AND",
    "BALANCE",
    "CAR",
    "CDR",
    "CHECK_SIGNATURE",
    "COMPARE",
    "CONCAT",
    "CONS",
    "CREATE_ACCOUNT",
    "CREATE_CONTRACT",
    "IMPLICIT_ACCOUNT",
    "DIP",
    "DROP",
    "DUP",
    "EDIV",
    "EMPTY_MAP",
    "EMPTY_SET",
    "EQ",
    "EXEC",
    "FAILWITH",
    "GE",
    "GET",
    "GT",
    "HASH_KEY",
    "IF",
    "IF_CONS",
    "IF_LEFT",
    "IF_NONE",
    "INT",
    "LAMBDA",
    "LE",
    "LEFT",
    "LOOP",
    "LSL",
    "LSR",
    "LT",
    "MAP",
    "MEM",
    "MUL",
    "NEG",
    "NEQ",
    "NIL",
    "NONE",
    "NOT",
    "NOW",
    "OR",
    "PAIR",
    "PUSH",
    "RIGHT",
    "SIZE",
    "SOME",
    "SOURCE",
    "SENDER",
    "SELF",
    "STEPS_TO_QUOTA",
    "SUB",
    "SWAP",
    "TRANSFER_TOKENS",
    "SET_DELEGATE",
    "UNIT",
    "UPDATE",
    "XOR",
    "ITER",
    "LOOP_LEFT",
    "ADDRESS",
    "CONTRACT",
    "ISNAT",
    "CAST",
    "RENAME",
    "bool",
    "contract",
    "int",
    "key",
    "key_hash",
    "lambda",
    "list",
    "map",
    "big_map",
    "nat",
    "option",
    "or",
    "pair",
    "set",
    "signature",
    "string",
    "bytes",
    "mutez",
    "timestamp",
    "unit",
    "operation",
    "address",
    "SLICE",
)
"""Michelson's primitives, by their tag (``michelson_v1_primitives.ml``)."""

SCRIPT, SCRIPT_EXPR, SCRIPT_PRIM, SCRIPT_LAZY_EXPR, SCRIPT_LOC, SCRIPT_PACKED = (
    micheline.script_encodings(PRIMITIVES)
)

_SCRIPT_IDS: IdTable = micheline.script_ids(PRIMITIVES)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

PARAMETERS = constants.athens_parameters(SCRIPT)
TEZ = tez
ROLL = values.ROLL
FITNESS = values.FITNESS
TIMESTAMP = values.TIMESTAMP
RAW_LEVEL = values.RAW_LEVEL
VOTE_BALLOT = values.VOTE_BALLOT
VOTE_BALLOTS = values.VOTE_BALLOTS
VOTE_LISTINGS = values.VOTE_LISTINGS
SEED = values.SEED
GAS = values.GAS
GAS_COST = values.ATHENS_GAS_COST
CONTRACT = contract_id
CONTRACT_BIG_MAP_DIFF = receipts.athens_big_map_diff(SCRIPT_EXPR)
DELEGATE_FROZEN_BALANCE = receipts.FROZEN_BALANCE
DELEGATE_BALANCE_UPDATES = receipts.BALANCE_UPDATES
DELEGATE_FROZEN_BALANCE_BY_CYCLES = receipts.FROZEN_BALANCE_BY_CYCLES
LEVEL = values.LEVEL
PERIOD = values.PERIOD
CYCLE = values.CYCLE
CONSTANTS = constants.ATHENS_CONSTANTS
CONSTANTS_FIXED = constants.ATHENS_FIXED
CONSTANTS_PARAMETRIC = constants.ATHENS_PARAMETRIC
NONCE = values.NONCE
VOTING_PERIOD = values.VOTING_PERIOD
VOTING_PERIOD_KIND = values.VOTING_PERIOD_KIND
ERRORS = values.ERRORS

_VALUE_IDS: IdTable = id_table(values.VALUE_IDS, globals())

# --- operations and block headers: operation.*, block_header.* ---


class TransactionFields(TypedDict):
    """A 004 transaction's own fields: its parameters are one expression
    (entrypoints came with 005)."""

    amount: int
    destination: ContractId
    parameters: NotRequired[Node | None]


class OriginationFields(TypedDict):
    """A 004 origination's own fields: the new contract's manager, whether
    it is spendable and delegatable (JSON leaves out ``true``), and its
    script if any (005 made every contract a script, and dropped the rest)."""

    manager_pubkey: PublicKeyHash
    balance: int
    spendable: bool
    delegatable: bool
    delegate: NotRequired[PublicKeyHash | None]
    script: NotRequired[Script | None]


class Transaction(operations.Manager[ContractId], TransactionFields):
    kind: Literal["transaction"]


class Origination(operations.Manager[ContractId], OriginationFields):
    kind: Literal["origination"]


class InternalTransaction(operations.Internal, TransactionFields):
    kind: Literal["transaction"]


class InternalOrigination(operations.Internal, OriginationFields):
    kind: Literal["origination"]


Contents: TypeAlias = operations.ContentsOf[ContractId, Transaction, Origination]
InternalOperation: TypeAlias = operations.InternalOf[InternalTransaction, InternalOrigination]

OPERATIONS: operations.Operations[Contents, InternalOperation] = operations.build(
    first_manager_tag=7,
    source=contract_id,  # any contract, implicit or originated
    transaction=typed(
        TransactionFields,
        obj(
            req("amount", tez),
            req("destination", contract_id),
            opt("parameters", SCRIPT_LAZY_EXPR),
        ),
    ),
    origination=typed(
        OriginationFields,
        obj(
            req("manager_pubkey", public_key_hash),
            req("balance", tez),
            dft("spendable", bool_, True),
            dft("delegatable", bool_, True),
            opt("delegate", public_key_hash),
            opt("script", SCRIPT),
        ),
    ),
)
OPERATION = OPERATIONS.operation
OPERATION_CONTENTS = OPERATIONS.contents
OPERATION_CONTENTS_LIST = OPERATIONS.contents_list
OPERATION_PROTOCOL_DATA = OPERATIONS.protocol_data
OPERATION_RAW = operations.RAW_OPERATION
OPERATION_INTERNAL = OPERATIONS.internal
OPERATION_UNSIGNED = OPERATIONS.unsigned
BLOCK_HEADER = blocks.BLOCK_HEADER
BLOCK_HEADER_UNSIGNED = blocks.UNSIGNED
BLOCK_HEADER_RAW = chains.BLOCK_HEADER
BLOCK_HEADER_CONTENTS = blocks.CONTENTS
BLOCK_HEADER_SHELL_HEADER = chains.SHELL_HEADER
BLOCK_HEADER_PROTOCOL_DATA = blocks.PROTOCOL_DATA

_OPERATION_IDS: IdTable = id_table(operations.OPERATION_IDS, globals())


# --- receipts: operation.data_and_metadata, the block's metadata ---

RESULTS = results.build(
    OPERATIONS,
    expression=SCRIPT_EXPR,
    big_map_diff=CONTRACT_BIG_MAP_DIFF,
    originations_diff=False,  # an origination's result has no big map diff
    milligas=False,
)
OPERATION_DATA_AND_METADATA = RESULTS.operation_with_metadata
OPERATION_METADATA = RESULTS.operation_metadata
BLOCK_HEADER_METADATA = RESULTS.block_metadata

_RESULT_IDS: IdTable = id_table(results.RESULT_IDS, globals())


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS, _RESULT_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
