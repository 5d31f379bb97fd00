"""The JSON codec: every node's ``to_json`` and ``from_json``.

What ``Encoding``'s methods reach (the façade, ``tree/core.py``) is
exported here; the modules:

* :mod:`.exact`: the exact converters (the dispatching functions
  ``exact_to``, ``exact_from`` and the leaves' converters), the one place
  JSON errors are built; :mod:`.composites`: those of records, tuples,
  lists, wrappers and unions;
* :mod:`.fast`: the entry (:func:`to_json_of`: the fast converter, then the
  exact one if it failed) and the fast converters, generated code
  (``inline_json``).

The JSON codec imports nothing of the binary one (``tests/test_layers.py``).
"""

from . import composites  # noqa: F401  # the composites' exact converters, registered
from .fast import from_json_of, to_json_of

__all__ = ["from_json_of", "to_json_of"]
