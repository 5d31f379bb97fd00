"""The node's catalogue: every record and body of the seed, one module per area.

Importing this package registers every id in :mod:`data_encoding.node.registry`
(which imports it on first use). The encodings are module constants of the
area modules, typed with the ``TypedDict`` of their values:

* :mod:`.primitives`: the seed's part 2 "Primitive types";
* :mod:`.admin`: ``/admin`` (part 2's admin records, part 4.1's bodies);
* :mod:`.chains`: ``/chains/<chain_id>`` (block header, checkpoint, ...; part 4.2);
* :mod:`.discovery`: ``/describe``'s service tree (part 2 and 4.3);
* :mod:`.failures`: error payloads (part 7);
* :mod:`data_encoding.node.protocols`: the protocols' payloads (part 4.5's
  "not shown"), one namespace of ids per protocol.
"""

from __future__ import annotations

from .. import protocols
from . import admin, chains, discovery, failures, primitives

__all__ = ["admin", "chains", "discovery", "failures", "primitives", "protocols"]
