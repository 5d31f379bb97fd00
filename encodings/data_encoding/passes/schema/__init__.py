"""What ``describe``, ``table`` and ``json_schema`` say of an encoding: the
schema passes and the binary schema language they speak.

* :mod:`.language`: the values ``describe()`` returns (``BinarySchema``,
  ``Obj``, ``Cases``, ``NamedField``, ``Ref``...) and their encodings in both
  dialects (``binary_schema``, ``binary_schema_v1``), re-exported here:
  ``data_encoding.passes.schema.BinarySchema``;
* :mod:`.describe`: an encoding's binary schema (``GET /describe``'s
  ``binary_schema``);
* :mod:`.table`: that schema as layout tables;
* :mod:`.jsonschema`: an encoding's JSON Schema.
"""

from .language import (
    AnonymousField,
    BinarySchema,
    Bool,
    Bytes,
    Case,
    Cases,
    Description,
    Dialect,
    DynamicSizeField,
    Endianness,
    Entry,
    Enum,
    EnumSize,
    FieldDescr,
    Float,
    HeaderSize,
    Int,
    IntEnum,
    IntSize,
    Layout,
    NamedField,
    Obj,
    OptionalField,
    Padding,
    RangedFloat,
    RangedInt,
    Ref,
    Seq,
    String,
    TagSize,
    Toplevel,
    ZeroWidth,
    binary_schema,
    binary_schema_v1,
    legacy_binary_schema,
)

__all__ = [
    "AnonymousField",
    "BinarySchema",
    "Bool",
    "Bytes",
    "Case",
    "Cases",
    "Description",
    "Dialect",
    "DynamicSizeField",
    "Endianness",
    "Entry",
    "Enum",
    "EnumSize",
    "FieldDescr",
    "Float",
    "HeaderSize",
    "Int",
    "IntEnum",
    "IntSize",
    "Layout",
    "NamedField",
    "Obj",
    "OptionalField",
    "Padding",
    "RangedFloat",
    "RangedInt",
    "Ref",
    "Seq",
    "String",
    "TagSize",
    "Toplevel",
    "ZeroWidth",
    "binary_schema",
    "binary_schema_v1",
    "legacy_binary_schema",
]
