"""The passes: what is done with an encoding, one job per module or package.

The combinators build a tree of nodes (:mod:`data_encoding.tree`); each pass
here walks that tree for one job, with one function per node type that needs
it (``functools.singledispatch``), and the tree knows none of them:

* the binary codec: :mod:`.binary` (readers, writers, sizers, compiled
  from an op IR; JSON straight from the bytes and back; the lenient
  variant; where each part of a value's bytes lies: its modules say which
  does what);
* the JSON codec: :mod:`.json` (the exact converters, the one place JSON
  errors are built, and the fast ones, generated code);
* the base both codecs stand on (``tests/test_layers.py``: it imports
  neither): :mod:`.recordrule` (a record's value) and :mod:`.leafjson` (a
  leaf's JSON, in generated code), which they check alike;
  :mod:`.choosing`, how a union picks its case; :mod:`.emit`, what every
  generated function shares; :mod:`.transparent` and :mod:`.dispatch`
  below;
* :mod:`.schema`: what ``describe``, ``table`` and ``json_schema`` say
  (:mod:`.schema.describe`, its values in :mod:`.schema.values` and their
  encodings in :mod:`.schema.language`,
  :mod:`.schema.table`, :mod:`.schema.jsonschema`);
* :mod:`.strategies`, above the codecs (it draws by the binary rules and
  checks by the JSON ones);
* :mod:`.transparent`: which wrappers a pass sees through;
* :mod:`.dispatch`: which node types each dispatching function leaves to
  its default, on purpose.

``ARCHITECTURE.md`` says how they fit together.
"""
