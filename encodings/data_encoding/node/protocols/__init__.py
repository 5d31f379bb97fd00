"""The protocols of the node's era: their operations, blocks and scripts.

The seed lists the block-scoped services (``/helpers/forge/operations``,
``/helpers/parse/operations``, ``/injection/operation``...) and says of their
payloads "not shown": they belong to the protocol a block runs. Each
protocol here is its own namespace of catalogue ids (:mod:`.versions`):

* :mod:`.athens` (004), :mod:`.babylon` (005), :mod:`.carthage` (006),
  :mod:`.delphi` (007): each protocol's encodings and ids, built from its
  predecessor's, stating what changed;
* what they share: :mod:`.contracts` (contract ids), :mod:`.tez` (amounts);
  the builders of their layouts, each built once: :mod:`.values` (levels,
  votes, gas...), :mod:`.receipts` (balance updates, big map diffs),
  :mod:`.constants` (constants and parameters), :mod:`.micheline`,
  :mod:`.operations` and :mod:`.blocks`, :mod:`.results` (what applying an
  operation did, and a block's metadata).

:func:`find_protocol` reads a protocol's every spelling. Tables are keyed
by protocol, never a "current protocol": 004's manager operations have
other tags and fields than 005's.
"""

from __future__ import annotations

from . import athens, babylon, carthage, delphi
from .versions import (
    ATHENS,
    BABYLON,
    CARTHAGE,
    DELPHI,
    PROTOCOLS,
    Protocol,
    UnknownProtocol,
    find_protocol,
)

__all__ = [
    "ATHENS",
    "BABYLON",
    "CARTHAGE",
    "DELPHI",
    "PROTOCOLS",
    "Protocol",
    "UnknownProtocol",
    "athens",
    "babylon",
    "carthage",
    "delphi",
    "find_protocol",
]
