"""The binary schema language's values: what ``describe()`` returns.

A binary schema is what a node's ``GET /describe`` publishes as ``binary_schema``:
a top-level layout and the named entries it refers to. The values are frozen
dataclasses (hashable, compared structurally), with the reference's
constructor names:

* :class:`BinarySchema` ``(toplevel, fields)``; each entry is an :class:`Entry`
  ``(description, encoding)`` with a :class:`Description` ``(title, description)``;
* a top-level encoding is :class:`Obj` ``(fields)``, :class:`Cases`
  ``(kind, tag_size, cases)`` of :class:`Case` ``(tag, fields, name)``, or
  :class:`IntEnum` ``(size, cases)``;
* a field is :class:`NamedField`, :class:`AnonymousField`,
  :class:`DynamicSizeField` or :class:`OptionalField`;
* a layout is :class:`ZeroWidth`, :class:`Int`, :class:`Bool`,
  :class:`RangedInt`, :class:`RangedFloat`, :class:`Float`, :class:`Bytes`,
  :class:`String`, :class:`Enum`, :class:`Seq`, :class:`Ref` or :class:`Padding`;
* a size class (``data_kind``) is the library's own :class:`~data_encoding.Fixed`,
  ``DYNAMIC`` or ``VARIABLE``.

Their encodings, in both dialects, are :mod:`.language`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ...tree.size import Size

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
]

IntSize = Literal["Int8", "Uint8", "Int16", "Uint16", "Int32", "Int64"]
EnumSize = Literal["Int8", "Uint8", "Int16", "Uint16"]
HeaderSize = Literal["N", "Uint30", "Uint16", "Uint8"]
TagSize = Literal["Uint8", "Uint16"]
Endianness = Literal["Big", "Little"]
Dialect = Literal["legacy", "1.0"]


# ------------------------------------------------------------------ layouts


@dataclass(frozen=True, slots=True)
class ZeroWidth:
    """No bytes at all."""


@dataclass(frozen=True, slots=True)
class Int:
    size: IntSize
    endianness: Endianness = "Big"
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Bool:
    pass


@dataclass(frozen=True, slots=True)
class RangedInt:
    min: int
    max: int
    endianness: Endianness = "Big"
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class RangedFloat:
    min: float
    max: float


@dataclass(frozen=True, slots=True)
class Float:
    pass


@dataclass(frozen=True, slots=True)
class Bytes:
    pass


@dataclass(frozen=True, slots=True)
class String:
    pass


@dataclass(frozen=True, slots=True)
class Enum:
    """A ``string_enum`` index; ``reference`` names its :class:`IntEnum` entry."""

    size: EnumSize
    reference: str


@dataclass(frozen=True, slots=True)
class Seq:
    """Elements one after the other: at most ``limit`` of them, or exactly
    ``limit`` when ``exact`` (``limit=None``: no limit)."""

    layout: Layout
    limit: int | None = None
    exact: bool = False
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Ref:
    """The entry named ``name``."""

    name: str


@dataclass(frozen=True, slots=True)
class Padding:
    pass


Layout = (
    ZeroWidth | Int | Bool | RangedInt | RangedFloat | Float | Bytes | String | Enum | Seq | Ref
) | Padding

# ------------------------------------------------------------------- fields


@dataclass(frozen=True, slots=True)
class NamedField:
    name: str
    kind: Size
    layout: Layout
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class AnonymousField:
    kind: Size
    layout: Layout
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class DynamicSizeField:
    """A length header in front of the next ``num_fields`` fields."""

    name: str | None
    num_fields: int
    size: HeaderSize
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class OptionalField:
    """The presence byte of the optional field ``name``."""

    name: str


FieldDescr = NamedField | AnonymousField | DynamicSizeField | OptionalField

# ---------------------------------------------------------------- toplevels


@dataclass(frozen=True, slots=True)
class Obj:
    fields: tuple[FieldDescr, ...]


@dataclass(frozen=True, slots=True)
class Case:
    tag: int
    fields: tuple[FieldDescr, ...]
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Cases:
    kind: Size
    tag_size: TagSize
    cases: tuple[Case, ...]
    spelling: Dialect | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class IntEnum:
    size: EnumSize
    cases: tuple[tuple[int, str], ...]


Toplevel = Obj | Cases | IntEnum


@dataclass(frozen=True, slots=True)
class Description:
    title: str
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    description: Description
    encoding: Toplevel


@dataclass(frozen=True, slots=True)
class BinarySchema:
    toplevel: Toplevel
    fields: tuple[Entry, ...]
