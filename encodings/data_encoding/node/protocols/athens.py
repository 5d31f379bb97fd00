"""Protocol 004 ``Pt24m4xi`` (Athens): its encodings, and its catalogue ids
(``proto.pt24m4xi.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import Encoding, publish
from . import micheline, values
from .micheline import Node, Script
from .versions import ATHENS, IdTable, register_ids

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

SCRIPT_PRIM: Encoding[str] = micheline.primitive(PRIMITIVES)
SCRIPT_EXPR: Encoding[Node] = micheline.expression(SCRIPT_PRIM)
SCRIPT_LAZY_EXPR: Encoding[Node] = micheline.lazy_expr(SCRIPT_EXPR)
SCRIPT: Encoding[Script] = micheline.script(SCRIPT_EXPR)
SCRIPT_LOC: Encoding[int] = micheline.LOCATION
SCRIPT_PACKED: Encoding[Node] = micheline.packed(SCRIPT_EXPR)

_SCRIPT_IDS: IdTable = micheline.script_ids(SCRIPT_PRIM)

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
publish(__name__, globals())  # the encodings above pickle by reference
