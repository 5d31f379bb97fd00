"""Header-less forms that run to the end of their frame: ``variable.string``,
``variable.bytes_``, ``variable.list_(e)``, ``variable.array(e)``.

>>> string.encode("ab").hex()
'6162'
"""

from __future__ import annotations

from typing import Any

from .core import Encoding, combinator, publish
from .sequences import variable_array, variable_list
from .strings import variable_bytes, variable_string

string = variable_string
bytes_ = variable_bytes


@combinator
def list_(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    """The elements, filling the frame."""
    return variable_list(e, max_length)


@combinator
def array(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    """The elements, filling the frame (errors say "array")."""
    return variable_array(e, max_length)


publish(__name__, globals())  # variable.string / variable.bytes_ print and pickle by these names
