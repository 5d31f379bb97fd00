"""What a binary schema says of the bytes, its entries' names set aside.

Two schemas of the same bytes may name their entries differently: a
protocol's ``010-PtGRANAD.contract_id`` is the library's ``contract_id``,
describe's counter numbers anonymous entries by where they stand. The
*shape* of a layout or a list of fields is the schema with every ``Ref``
and ``Enum`` replaced by the shape of the entry it names (an entry met again,
as in a recursive one, by the order it was first met in) and the entries'
titles and descriptions dropped: two places have one shape exactly when
their schemas differ by entry names alone.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from . import values as bs

__all__ = ["shape"]


def _compared(kind: type) -> tuple[str, ...] | None:
    """The fields of a schema value of type ``kind`` that its equality
    compares (``None``: not a dataclass), found once per type."""
    if kind not in _COMPARED:
        _COMPARED[kind] = (
            tuple(f.name for f in fields(kind) if f.compare) if is_dataclass(kind) else None
        )
    return _COMPARED[kind]


_COMPARED: dict[type, tuple[str, ...] | None] = {}


def shape(value: Any, entries: Mapping[str, bs.Entry]) -> Hashable:
    """The shape of ``value`` (a layout, a field, a list of fields...) whose
    ``Ref`` and ``Enum`` name ``entries``. Linear in the schema: each
    entry's shape is taken once."""
    return _Shapes(entries).of(value)


class _Shapes:
    def __init__(self, entries: Mapping[str, bs.Entry]) -> None:
        self.entries = entries
        self.met: dict[str, int] = {}

    def of(self, value: Any) -> Hashable:
        if isinstance(value, bs.Ref):
            return self.entry(value.name)
        if isinstance(value, bs.Enum):
            return ("Enum", value.size, self.entry(value.reference))
        if isinstance(value, tuple | list):
            return tuple(self.of(v) for v in value)
        compared = _compared(type(value))
        if compared is not None:
            return (type(value).__name__, *(self.of(getattr(value, f)) for f in compared))
        return value  # type: ignore[no-any-return]

    def entry(self, name: str) -> Hashable:
        if name in self.met:
            return ("met", self.met[name])
        self.met[name] = len(self.met)
        found = self.entries.get(name)
        return ("entry", None if found is None else self.of(found.encoding))
