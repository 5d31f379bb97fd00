"""Arrow tables of an encoding's values, and back (needs ``pyarrow``:
``pip install 'data-encoding[arrow]'``).

:func:`schema_of` gives the Arrow schema of a table of ``e``'s values (a
``pyarrow.Schema`` when they are records or unions, a column per field;
else the ``pyarrow.DataType`` of the table's one column, ``value``),
:func:`table_of` the table, :func:`values_of` the values back, exactly: a
record is a ``struct``, a union a ``struct`` with a ``kind`` column, an
option a nullable field, a hash its Base58Check text, a timestamp an
Arrow timestamp. The rules, one per node type, are
:mod:`data_encoding.passes.arrow`'s; :class:`Options` chooses where a node
has more than one exact column (Zarith numbers past 38 digits, text that
is not UTF-8, a hash's raw bytes, recursive encodings as JSON text). The
node's timestamps (``timestamp.protocol``, ``timestamp.system``) are
placed as instants.

>>> from data_encoding import obj, req, opt, uint8, n, string
>>> from data_encoding.arrow import schema_of, table_of, values_of
>>> e = obj(req("id", uint8), opt("name", string), req("balance", n))
>>> schema_of(e)
id: uint8 not null
name: string
balance: decimal128(38, 0) not null
>>> values = [{"id": 1, "name": "a", "balance": 10**20}, {"id": 2, "name": None, "balance": 0}]
>>> table = table_of(e, values)
>>> table.column("balance").to_pylist()
[Decimal('100000000000000000000'), Decimal('0')]
>>> values_of(e, table) == values
True
>>> values_of(e, table)
[{'id': 1, 'name': 'a', 'balance': 100000000000000000000}, {'id': 2, 'name': None, 'balance': 0}]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from .errors import missing_extra

try:
    import pyarrow as pa
except ModuleNotFoundError as exc:  # pragma: no cover - the extra is installed in dev
    raise missing_extra(exc, "pyarrow", "data_encoding.arrow needs pyarrow", "arrow") from None

from .node import timestamp
from .passes import arrow as _pass
from .passes.arrow import Options
from .tree.core import Encoding

__all__ = [
    "TIMESTAMPS",
    "Options",
    "cell_of",
    "schema_of",
    "table_of",
    "table_of_cells",
    "values_of",
]

TIMESTAMPS: frozenset[Encoding[Any]] = frozenset({timestamp.protocol, timestamp.system})
"""The node's timestamps, placed as ``timestamp("s", tz="UTC")`` whatever
the options say (``timestamp.rfc`` is text in bytes too: a ``string``)."""

_DEFAULT = Options()


def _with_node(options: Options) -> Options:
    return replace(options, timestamps=options.timestamps | TIMESTAMPS)


def schema_of(e: Encoding[Any], options: Options = _DEFAULT) -> pa.Schema | pa.DataType:
    """The Arrow schema of a table of ``e``'s values (a ``Schema`` when
    they are records or unions, else the type of its one column, ``value``);
    a ``DefinitionError`` naming the place of what has no exact column."""
    return _pass.schema_of(e, _with_node(options))


def table_of(e: Encoding[Any], values: Iterable[Any], options: Options = _DEFAULT) -> pa.Table:
    """A table of ``values``, a row each; each value is checked as
    ``e.length`` checks it (an ``EncodeError`` at its row and path)."""
    return _pass.table_of(e, values, _with_node(options))


def cell_of(e: Encoding[Any], value: Any, options: Options = _DEFAULT) -> Any:
    """One value's cell, checked (an ``EncodeError`` at its path): to stream
    values into tables a batch at a time, with :func:`table_of_cells`."""
    return _pass.cell_of(e, value, _with_node(options))


def table_of_cells(e: Encoding[Any], cells: Sequence[Any], options: Options = _DEFAULT) -> pa.Table:
    """The table of cells :func:`cell_of` made, a row each."""
    return _pass.table_of_cells(e, cells, _with_node(options))


def values_of(e: Encoding[Any], table: pa.Table, options: Options = _DEFAULT) -> list[Any]:
    """The values of ``table``'s rows (a table of :func:`table_of`, also
    read back from Parquet or Arrow IPC): exactly those it was made of, as
    ``e.decode(e.encode(v))`` gives them; a ``DecodeError`` at a row that
    holds no value of ``e``."""
    return _pass.values_of(e, table, _with_node(options))
