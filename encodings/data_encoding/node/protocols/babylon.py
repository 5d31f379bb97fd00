"""Protocol 005 ``PsBabyM1`` (Babylon): its encodings, and its catalogue ids
(``proto.psbabym1.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import athens, micheline
from .versions import BABYLON, IdTable, register_ids

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

_VALUE_IDS: IdTable = {}

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
publish(__name__, globals())  # the encodings above pickle by reference
