"""Protocol 006 ``PsCARTHA`` (Carthage): its encodings, and its catalogue ids
(``proto.pscartha.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from .versions import CARTHAGE, IdTable, register_ids

PROTOCOL = CARTHAGE

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

_SCRIPT_IDS: IdTable = {}

# --- values and receipts: tez, level, votes, gas, contract, delegate.*, constants... ---

_VALUE_IDS: IdTable = {}

# --- operations and block headers: operation.*, block_header.* ---

_OPERATION_IDS: IdTable = {}


register_ids(PROTOCOL, __name__, _SCRIPT_IDS, _VALUE_IDS, _OPERATION_IDS)
