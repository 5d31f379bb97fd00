"""The passes: what is done with an encoding, one job per module.

The combinators build a tree of nodes (:mod:`data_encoding.tree`); each pass
here walks that tree for one job, with one function per node type that needs
it (``functools.singledispatch``), and the tree knows none of them:

* the binary codec: :mod:`.binary` (readers, writers, sizers, compiled
  from an op IR; JSON straight from the bytes and back; the lenient
  variant; where each part of a value's bytes lies: its modules say which
  does what);
* the JSON codec: :mod:`.json` (the exact converters, the one place JSON
  errors are built, and the fast ones, generated code);
* what both codecs check alike: :mod:`.recordrule` (a record's value),
  :mod:`.leafjson` (a leaf's JSON, in generated code);
* :mod:`.choosing`: how a union picks its case, for both codecs;
* :mod:`.emit`: what every generated function shares;
* :mod:`.schema`: what ``describe``, ``table`` and ``json_schema`` say
  (:mod:`.schema.describe`, its values in :mod:`.schema.values` and their
  encodings in :mod:`.schema.language`,
  :mod:`.schema.table`, :mod:`.schema.jsonschema`);
* :mod:`.strategies`;
* :mod:`.transparent`: which wrappers a pass sees through;
* :mod:`.dispatch`: which node types each dispatching function leaves to
  its default, on purpose.

``ARCHITECTURE.md`` says how they fit together.
"""
