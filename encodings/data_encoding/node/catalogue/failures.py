"""Error payloads (seed part 7): any JSON, since the seed does not show their shapes.

``GET /errors`` lists every error kind with its schema; an invalid block's
``errors`` and each service's ``error`` body are arbitrary JSON values.
"""

from __future__ import annotations

from ...jsonvalue import JsonValue
from ...tree.anyjson import json
from ...tree.core import Encoding, publish
from ..registry import register

__all__ = ["ERROR", "ERRORS"]

ERROR: Encoding[JsonValue] = json
"""An error payload: any JSON (BSON in binary)."""

ERRORS: Encoding[JsonValue] = json
"""``GET /errors``' answer: any JSON."""

register("rpc.error", ERROR, "an error payload (any JSON)", "7 Errors")
register("rpc.errors", ERRORS, "the GET /errors answer (any JSON)", "7 Errors")


publish(__name__, globals())  # the encodings above pickle by reference
