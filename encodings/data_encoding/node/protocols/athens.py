"""Protocol 004 ``Pt24m4xi`` (Athens): its encodings, and its catalogue ids
(``proto.pt24m4xi.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import micheline
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

SCRIPT, SCRIPT_EXPR, SCRIPT_PRIM, SCRIPT_LAZY_EXPR, SCRIPT_LOC, SCRIPT_PACKED = (
    micheline.script_encodings(PRIMITIVES)
)

_SCRIPT_IDS: IdTable = micheline.script_ids(PRIMITIVES)

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

_VALUE_IDS: IdTable = {}

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
