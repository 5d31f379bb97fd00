"""What ``describe``, ``table`` and ``json_schema`` say of an encoding: the
schema passes and the binary schema language they speak.

* :mod:`.values`: the values ``describe()`` returns (``BinarySchema``,
  ``Obj``, ``Cases``, ``NamedField``, ``Ref``...), and :mod:`.language`:
  their encodings in both dialects (``binary_schema``,
  ``binary_schema_v1``), both re-exported here:
  ``data_encoding.passes.schema.BinarySchema``;
* :mod:`.describe`: an encoding's binary schema (``GET /describe``'s
  ``binary_schema``);
* :mod:`.table`: that schema as layout tables;
* :mod:`.jsonschema`: an encoding's JSON Schema.
"""

from . import language, values
from .language import *  # noqa: F403  # the language is the package's public face
from .values import *  # noqa: F403

__all__ = [*values.__all__, *language.__all__]
