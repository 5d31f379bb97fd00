"""Protocol 006 ``PsCARTHA`` (Carthage): its encodings, and its catalogue ids
(``proto.pscartha.*``).

What the protocol shares with its predecessor is the predecessor's very
encoding; this module states what changed.
"""

from __future__ import annotations

from ...tree.core import publish
from . import babylon, micheline
from .versions import CARTHAGE, IdTable, register_ids

PROTOCOL = CARTHAGE

# --- Micheline: script, script.expr, script.prim, script.lazy_expr, script.loc ---

PRIMITIVES: tuple[str, ...] = babylon.PRIMITIVES
"""Babylon's: so the encodings are Babylon's very objects."""

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
