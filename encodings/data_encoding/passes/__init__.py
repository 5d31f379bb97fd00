"""The passes: what is done with an encoding, one job per module.

The combinators build a tree of nodes (:mod:`data_encoding.tree.core` and the
family modules); each pass here walks that tree for one job, with one
function per node type that needs it (``functools.singledispatch``), and the
tree knows none of them:

* :mod:`.jsonform`: the JSON converters (exact, and fast generated ones,
  :mod:`.jsongen`).

See ``ARCHITECTURE.md`` for the passes that still live elsewhere.
"""
