"""The Arrow pass: an encoding's values as Arrow columns, and back.

One rule per node type (:func:`functools.singledispatch`, as the other
passes) gives the node's *column*: its Arrow type, and the two functions
that turn one of its values into a cell (what ``pyarrow`` builds an array
from) and a cell back into that value. A record is a ``struct`` of its
members' columns, and so on down to the leaves:

==========================================  ==============================================
node                                        Arrow type (the cell)
==========================================  ==============================================
``bool_``                                   ``bool_``
integers, ``ranged_int``                    the narrowest integer that holds the range,
                                            unsigned when it has no negative value
                                            (``uint30``: ``uint32``, ``int31``: ``int32``)
``int64``                                   ``int64`` (Arrow's holds every value exactly)
``float_``, ``ranged_float``                ``float64``
``n``, ``z``                                ``decimal128(38, 0)``; ``zarith="string"``:
                                            ``string``, the decimal text
``string`` (any text)                       ``string``; ``text="binary"``: ``binary``, its
                                            bytes (text that is not UTF-8 has no ``string``)
``bytes_``, ``fixed.bytes_(k)``             ``binary``, ``fixed_size_binary(k)``
``string_enum``                             ``string``, the case's string
the node's hashes, keys and signatures      ``string``, the Base58Check text; ``hashes=
(a ``DirectJson`` whose JSON is a string)   "bytes"``: ``binary`` (``fixed_size_binary(k)``),
                                            the bytes its binary side writes
the node's timestamps                       ``timestamp("s", tz="UTC")`` (``Options.timestamps``)
``obj``, ``merge_objs``                     ``struct``, a field per member (a spliced
                                            record's or union's fields in its place)
``tup``, ``merge_tups``                     ``struct``, fields ``"0"``, ``"1"``, ...
``list_``, ``array`` and their variants     ``list_``
``opt``, ``varopt`` fields, ``option``      the value's column, nullable
``union``, ``matching``                     ``struct``: ``kind`` (the case's title) and a
                                            nullable field per case, named by its title
``null``, ``empty``, ``unit``, ``constant`` no column: one value, restored on reading (where a
                                            cell is needed, an ``option``'s: ``bool_``, true)
``json``                                    ``string``, the JSON text
``mu`` (recursive)                          refused; ``recursive="json"``: ``string``, the
                                            JSON text of the value
``conv``                                    its wire side's column, through its functions
``def_``, ``delayed``, ``splitted``, size   the column of the node whose values they are
wrappers, ``padded``                        (``transparent``'s ``values`` column)
==========================================  ==============================================

``large=True`` makes strings, bytes and lists Arrow's 64-bit-offset types
(``large_string``, ``large_binary``, ``large_list``): a batch whose column
holds more than 2 GiB of text, or more than 2^31 list elements, needs them.

Unions are structs rather than Arrow's dense unions: Parquet has no union
type (``pyarrow.parquet`` refuses to write one), and the ``kind`` column is
what a query filters on; a row pays one null bit per case it is not.

What the pass cannot place exactly it refuses: a ``DefinitionError`` when
the column is made (a recursive encoding, two fields of one name), naming
the place (``$.contents[].script``); an ``EncodeError`` when a value has no
cell (a Zarith number of more than 38 digits, text that is not UTF-8), at
its path, the option that places it named. Each value is checked as
``length`` checks it before it is placed, and each value read back from a
table is checked alike (a table built elsewhere may hold anything), as a
:class:`DecodeError` at its row. On the values the binary form holds
(``decode(encode(v))``), reading back gives each value exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import partial, singledispatch
from typing import Any, Literal

import pyarrow as pa

from ..compiling import built
from ..errors import DataEncodingError, DecodeError, DefinitionError, EncodeError
from ..jsonvalue import dumps, loads
from ..tree.anyjson import Bson
from ..tree.core import Encoding, identity
from ..tree.primitives import Bool, Float, Int, ZeroWidth
from ..tree.records import Obj, Tup
from ..tree.sequences import ListEncoding
from ..tree.strings import FixedBytes, RawBytes, text_of
from ..tree.unions import Matching, Option, StringEnum, Union
from ..tree.wrappers import Conv, DirectJson, Mu, guard
from ..tree.zarith import Zarith
from .choosing import first_case, member, value_selectors
from .dispatch import takes_default
from .transparent import last_seen, seen_through

__all__ = [
    "Column",
    "Options",
    "cell_of",
    "columns",
    "schema_of",
    "table_of",
    "table_of_cells",
    "values_of",
]

DECIMAL_DIGITS = 38
"""The digits of ``decimal128(38, 0)``: a Zarith number of more has no cell there."""

_DECIMAL_BOUND = 10**DECIMAL_DIGITS


@dataclass(frozen=True)
class Options:
    """How the pass places what has more than one exact column (each field
    says its choices; the first is the default)."""

    zarith: Literal["decimal", "string"] = "decimal"
    """``n`` and ``z``: ``decimal128(38, 0)`` (a larger number is refused),
    or their decimal text."""

    text: Literal["string", "binary"] = "string"
    """Strings: ``string`` (a value that is not UTF-8 is refused), or their
    bytes, read back as ``decode`` reads them."""

    hashes: Literal["base58", "bytes"] = "base58"
    """The node's hashes, keys and signatures: their Base58Check text, or
    the bytes their binary side writes."""

    recursive: Literal["refuse", "json"] = "refuse"
    """A recursive encoding (``mu``): refused, or its JSON text."""

    large: bool = False
    """Strings, bytes and lists with 64-bit offsets (see the module's notes)."""

    timestamps: frozenset[Encoding[Any]] = field(default=frozenset())
    """The encodings whose values are ``int64`` seconds since the epoch, shown
    as ``timestamp("s", tz="UTC")`` (``data_encoding.arrow`` adds the node's)."""


@dataclass(frozen=True)
class Column:
    """Where the values of a node go: a column of ``type``, whose cells are
    built and read as ``storage`` (the same but for timestamps, whose cells
    are their ``int64`` seconds)."""

    type: pa.DataType
    storage: pa.DataType
    to_cell: Callable[[Any], Any]
    from_cell: Callable[[Any], Any]
    nullable: bool = False


@dataclass(frozen=True)
class Constant:
    """A node of one value (``null``, ``constant``, a record of them): no
    column; ``make()`` gives the value (a fresh one: ``{}`` is not shared)."""

    make: Callable[[], Any]


Placed = Column | Constant


@dataclass(frozen=True)
class _Place:
    """Where the node being placed is (for refusals), and the options."""

    options: Options
    steps: tuple[str, ...] = ()

    def at(self, step: str) -> _Place:
        return replace(self, steps=(*self.steps, step))

    def __str__(self) -> str:
        return "$" + "".join(self.steps)

    def refuse(self, why: str) -> DefinitionError:
        return DefinitionError(f"arrow: {why} at {self}")


# ------------------------------------------------------------------ entry


def columns(e: Encoding[Any], options: Options) -> Column:
    """The column of ``e``'s values (built once per options, kept on ``e``);
    a node of one value is a ``bool_`` column of ``true`` (so that a table
    of its values keeps their count)."""
    kept: dict[Options, Column] = built(e, "arrow.columns", dict)
    found = kept.get(options)
    if found is None:
        found = kept.setdefault(options, _cell(_place(e, _Place(options))))
    return found


def schema_of(e: Encoding[Any], options: Options) -> pa.Schema | pa.DataType:
    """The Arrow schema of a table of ``e``'s values when they are structs
    (records, unions: a column per field), else the type of its one column
    (``value``)."""
    column = columns(e, options)
    return _table_schema(column, storage=False) if _per_field(column) else column.type


def _per_field(column: Column) -> bool:
    """Whether a table of ``column``'s cells has a column per field (its
    cells are structs, never null), rather than one column, ``value``."""
    return isinstance(column.type, pa.StructType) and not column.nullable


def _table_schema(column: Column, storage: bool) -> pa.Schema:
    """The schema of a table of ``column``'s cells (``storage``: as built)."""
    kind = column.storage if storage else column.type
    if _per_field(column):
        return pa.schema(_fields(kind))
    return pa.schema([pa.field("value", kind, nullable=column.nullable)])


def _fields(kind: pa.DataType) -> list[pa.Field[Any]]:
    """The fields of a struct type."""
    assert isinstance(kind, pa.StructType)
    return [kind.field(i) for i in range(kind.num_fields)]


def table_of(e: Encoding[Any], values: Iterable[Any], options: Options) -> pa.Table:
    """A table of ``values``, a row each (see the module's notes): each
    value checked as ``length`` checks it, and placed exactly or refused
    with an :class:`EncodeError` at its row and path."""
    cells = []
    for row, value in enumerate(values):
        try:
            cells.append(cell_of(e, value, options))
        except DataEncodingError as err:
            raise err.within(row) from None
    return table_of_cells(e, cells, options)


def cell_of(e: Encoding[Any], value: Any, options: Options) -> Any:
    """The cell of one of ``e``'s values, checked as ``length`` checks it
    (what :func:`table_of_cells` makes a table of: a batch streamed a value
    at a time)."""
    e.length(value)
    return columns(e, options).to_cell(value)


def table_of_cells(e: Encoding[Any], cells: Sequence[Any], options: Options) -> pa.Table:
    """The table of ``cells``, made by :func:`cell_of`, a row each."""
    column = columns(e, options)
    storage = _table_schema(column, storage=True)
    try:
        if _per_field(column):
            table = pa.Table.from_pylist(list(cells), schema=storage)
        else:
            table = pa.Table.from_arrays([pa.array(cells, type=column.storage)], schema=storage)
        return table.cast(_table_schema(column, storage=False))
    except pa.ArrowException as exc:  # what no check of ours names (2 GiB in one column)
        raise EncodeError("invalid_value", f"Arrow refused the table: {exc}") from None


def values_of(e: Encoding[Any], table: pa.Table, options: Options) -> list[Any]:
    """The values of the rows of ``table``, a table of ``e``'s values (as
    :func:`table_of` makes them, or read back from Parquet or Arrow IPC):
    the exact inverse of :func:`table_of`. A table of another schema is a
    :class:`DecodeError` (``wrong_type``); a row whose value ``e`` cannot
    write, one at that row and path."""
    column = columns(e, options)
    shown, storage = _table_schema(column, storage=False), _table_schema(column, storage=True)
    try:
        # the shown types first: Parquet has no seconds, and names list items otherwise
        table = table.select(shown.names).cast(shown).cast(storage)
    except (pa.ArrowException, KeyError, ValueError) as exc:
        raise DecodeError(
            "wrong_type", f"the table is not one of {e!r} ({type(exc).__name__}: {exc})"
        ) from None
    cells = table.to_pylist() if _per_field(column) else table.column("value").to_pylist()
    values = []
    for row, cell in enumerate(cells):
        try:
            value = column.from_cell(cell if column.nullable else _given(cell))
            e.length(value)
        except DataEncodingError as err:
            raise err.recast(DecodeError).within(row) from None
        values.append(value)
    return values


def _given(cell: Any) -> Any:
    """``cell``, which must not be null (a cell of a column that is not nullable)."""
    if cell is None:
        raise DecodeError("wrong_type", "null in a column that is not nullable")
    return cell


def _cell(placed: Placed) -> Column:
    """``placed`` as a column where a cell is needed: a node of one value is
    a ``bool_`` column of ``true`` (an option of it says whether it is there)."""
    if isinstance(placed, Column):
        return placed
    return Column(pa.bool_(), pa.bool_(), _true, _made(placed.make))


def _true(_value: Any) -> bool:
    return True


def _made(make: Callable[[], Any]) -> Callable[[Any], Any]:
    return lambda _cell: make()


def _nullable(column: Column) -> Column:
    """``column``, its cells null for ``None``."""
    to_cell, from_cell = column.to_cell, column.from_cell
    return Column(
        column.type,
        column.storage,
        lambda v: None if v is None else to_cell(v),
        lambda c: None if c is None else from_cell(c),
        nullable=True,
    )


def _leaf(
    kind: pa.DataType, to_cell: Callable[[Any], Any], from_cell: Callable[[Any], Any]
) -> Column:
    return Column(kind, kind, to_cell, from_cell)


# ------------------------------------------------------------------ nodes


@takes_default({}, through="values")
@singledispatch
def _column(e: Encoding[Any], place: _Place) -> Placed:
    """The column of ``e``'s values; a wrapper's is that of the node whose
    values it has (``transparent``'s ``values`` column)."""
    inner = seen_through(e, "values")
    if inner is None:
        raise place.refuse(f"no column for {type(e).__name__} (a user's encoding class?)")
    return _place(inner, place)


def _place(e: Encoding[Any], place: _Place) -> Placed:
    """The column of ``e``'s values: a timestamp's, or by its node's rule."""
    if e in place.options.timestamps:
        return _timestamp(e, place)
    return _column(e, place)


def _timestamp(e: Encoding[Any], place: _Place) -> Column:
    """The column of a timestamp: its ``int64`` seconds, shown as an instant."""
    options = replace(place.options, timestamps=place.options.timestamps - {e})
    seconds = _place(e, replace(place, options=options))
    if not isinstance(seconds, Column) or seconds.storage != pa.int64():
        raise place.refuse(f"{e!r} is given as a timestamp, but its values are no int64 seconds")
    return replace(seconds, type=pa.timestamp("s", tz="UTC"))


@_column.register
def _zero_width_column(e: ZeroWidth, place: _Place) -> Placed:
    make = e.atom.unpack
    assert make is not None  # (a zero-width node's atom makes its one value)
    return Constant(partial(make, None))


@_column.register
def _bool_column(_e: Bool, place: _Place) -> Placed:
    return _leaf(pa.bool_(), identity, identity)


@_column.register
def _int_column(e: Int, place: _Place) -> Placed:
    return _leaf(_narrowest(e.lo, e.hi), identity, identity)


def _narrowest(lo: int, hi: int) -> pa.DataType:
    """The narrowest Arrow integer that holds ``lo .. hi``, unsigned if it can be."""
    for bits in (8, 16, 32, 64):
        if lo >= 0 and hi < 2**bits:
            return _UNSIGNED[bits]
        if -(2 ** (bits - 1)) <= lo and hi < 2 ** (bits - 1):
            return _SIGNED[bits]
    raise AssertionError(f"no Arrow integer holds {lo} .. {hi}")  # no Int node is wider


_UNSIGNED = {8: pa.uint8(), 16: pa.uint16(), 32: pa.uint32(), 64: pa.uint64()}
_SIGNED = {8: pa.int8(), 16: pa.int16(), 32: pa.int32(), 64: pa.int64()}


@_column.register
def _float_column(_e: Float, place: _Place) -> Placed:
    return _leaf(pa.float64(), identity, identity)


@_column.register
def _zarith_column(e: Zarith, place: _Place) -> Placed:
    if place.options.zarith == "string":  # the JSON form: the library's decimal rules
        return _leaf(_string(place), e.to_json, e.from_json)
    return _leaf(pa.decimal128(DECIMAL_DIGITS, 0), _decimal, _integer)


def _decimal(value: int) -> Decimal:
    if not -_DECIMAL_BOUND < value < _DECIMAL_BOUND:
        raise EncodeError(
            "out_of_range",
            f"a number of more than {DECIMAL_DIGITS} digits has no decimal128 cell "
            "(Options(zarith='string') places it as text)",
        )
    return Decimal(value)


def _integer(cell: Decimal) -> int:
    return int(cell)


def _string(place: _Place) -> pa.DataType:
    return pa.large_string() if place.options.large else pa.string()


def _binary(place: _Place) -> pa.DataType:
    return pa.large_binary() if place.options.large else pa.binary()


@_column.register
def _raw_bytes_column(e: RawBytes, place: _Place) -> Placed:
    if e.text:
        return _text(e, place)
    return _leaf(_binary(place), e.to_bytes, identity)


def _text(e: RawBytes, place: _Place) -> Column:
    if place.options.text == "binary":  # read back as decode reads it: str when UTF-8
        return _leaf(_binary(place), e.to_bytes, text_of)
    return _leaf(_string(place), _utf8, identity)


def _utf8(value: str | bytes) -> str:
    if isinstance(value, str):
        return value
    text = text_of(bytes(value))
    if type(text) is not str:
        raise EncodeError(
            "invalid_utf8",
            "text that is not UTF-8 has no string cell (Options(text='binary') places it)",
        )
    return text


@_column.register
def _fixed_bytes_column(e: FixedBytes, place: _Place) -> Placed:
    raw: RawBytes = e.inner  # type: ignore[assignment]
    if raw.text:
        return _text(raw, place)
    # a hash's or key's bytes are read back as the value they are
    unpack = e.atom.unpack or identity
    return _leaf(pa.binary(e.atom.width), raw.to_bytes, unpack)


@_column.register
def _string_enum_column(e: StringEnum, place: _Place) -> Placed:
    return _leaf(_string(place), e.to_json, e.from_json)


@_column.register
def _bson_column(e: Bson, place: _Place) -> Placed:
    return _json_text(e, place)


def _json_text(e: Encoding[Any], place: _Place) -> Column:
    """The JSON text of ``e``'s values (the library's strict JSON both ways)."""
    return _leaf(_string(place), lambda v: dumps(e.to_json(v)), lambda c: e.from_json(loads(c)))


@_column.register
def _mu_column(e: Mu, place: _Place) -> Placed:
    if place.options.recursive == "json":
        return _json_text(e, place)
    raise place.refuse(
        f"the recursive encoding {e.name!r} has no columns "
        "(Options(recursive='json') places its values as JSON text)"
    )


@_column.register(DirectJson)
def _direct_json_column(e: DirectJson[Any], place: _Place) -> Placed:
    json = last_seen(e.json, "json")
    if not isinstance(json, RawBytes) or not json.text:  # not Base58Check: its values' column
        return _place(e.binary, place)
    if place.options.hashes == "bytes":
        width = e.binary.fixed_length
        kind = _binary(place) if width is None else pa.binary(width)
        return _leaf(kind, e.binary.encode, guard(e.binary.decode, DecodeError))
    return _leaf(_string(place), e.direct_to_json, guard(e.direct_from_json, DecodeError))


@_column.register(Conv)
def _conv_column(e: Conv[Any], place: _Place) -> Placed:
    wire = _place(e.inner, place)
    to_wire, from_wire = guard(e.to_wire, EncodeError), guard(e.from_wire, DecodeError)
    if isinstance(wire, Constant):
        make = wire.make
        return Constant(lambda: from_wire(make()))
    to_cell, from_cell = wire.to_cell, wire.from_cell
    return replace(
        wire, to_cell=lambda v: to_cell(to_wire(v)), from_cell=lambda c: from_wire(from_cell(c))
    )


# ------------------------------------------------------------ composites


@_column.register
def _list_column(e: ListEncoding, place: _Place) -> Placed:
    element = _cell(_place(e.elt, place.at("[]")))
    to_cell, from_cell = element.to_cell, element.from_cell
    items = pa.large_list if place.options.large else pa.list_

    def to_cells(values: list[Any]) -> list[Any]:
        cells = []
        for i, v in enumerate(values):
            try:
                cells.append(to_cell(v))
            except DataEncodingError as err:
                raise err.within(i) from None
        return cells

    def from_cells(cells: list[Any]) -> list[Any]:
        values = []
        for i, c in enumerate(cells):
            try:
                values.append(from_cell(c if element.nullable else _given(c)))
            except DataEncodingError as err:
                raise err.within(i) from None
        return values

    def typed(kind: pa.DataType) -> pa.DataType:
        return items(pa.field("item", kind, nullable=element.nullable))

    return Column(typed(element.type), typed(element.storage), to_cells, from_cells)


@dataclass(frozen=True)
class _Member:
    """A record's or tuple's part, placed: its key in the value, how it is
    there (``req``, ``opt``, ... ``splice``), and its column (a spliced
    part's fields are the struct's own)."""

    key: str | int
    mode: str
    placed: Placed


def _struct(
    members: Sequence[_Member],
    fields_of: Callable[[_Member], list[pa.Field[Any]]],
    place: _Place,
) -> tuple[list[pa.Field[Any]], list[pa.Field[Any]]]:
    """The struct fields (shown, and as stored) of ``members``; two of one
    name are refused."""
    shown: list[pa.Field[Any]] = []
    stored: list[pa.Field[Any]] = []
    for m in members:
        if isinstance(m.placed, Constant):
            continue
        shown += fields_of(m)
        stored += [f.with_type(s.type) for f, s in zip(fields_of(m), _stored(m), strict=True)]
    names = [f.name for f in shown]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise place.refuse(f"two fields named {twice[0]!r} in one struct")
    return shown, stored


def _stored(m: _Member) -> list[pa.Field[Any]]:
    column = m.placed
    assert isinstance(column, Column)
    if m.mode == "splice":
        return _fields(column.storage)
    return [pa.field(str(m.key), column.storage, nullable=column.nullable)]


def _shown(m: _Member) -> list[pa.Field[Any]]:
    column = m.placed
    assert isinstance(column, Column)
    if m.mode == "splice":
        return _fields(column.type)
    return [pa.field(str(m.key), column.type, nullable=column.nullable)]


def _members(parts: Iterable[Any], place: _Place, tuples: bool) -> list[_Member]:
    members = []
    for p in parts:
        step = f"[{p.key}]" if tuples else f".{p.key}"
        placed = _place(p.enc, place if p.mode == "splice" else place.at(step))
        if p.mode in ("opt", "varopt"):
            placed = _nullable(_cell(placed))
        if p.mode == "splice" and isinstance(placed, Column):
            if not isinstance(placed.type, pa.StructType) or placed.nullable:
                raise place.refuse(f"a merged part of {type(p.enc).__name__} has no fields")
            if tuples and placed.type.names != [str(i) for i in range(p.arity)]:
                raise place.refuse("a merged tuple part whose elements are not a tuple's")
        members.append(_Member(p.key, p.mode, placed))
    return members


@_column.register
def _obj_column(e: Obj, place: _Place) -> Placed:
    members = _members(e.parts, place, tuples=False)
    if all(isinstance(m.placed, Constant) for m in members):
        return Constant(lambda: _record_of_constants(members))
    shown, stored = _struct(members, _shown, place)
    to_cells = [
        (str(m.key), m.mode, m.placed.to_cell) for m in members if isinstance(m.placed, Column)
    ]
    from_cells = [_reader(m) for m in members]

    def to_cell(value: dict[str, Any]) -> dict[str, Any]:
        cell: dict[str, Any] = {}
        for key, mode, convert in to_cells:
            try:
                if mode == "splice":
                    cell.update(convert(value))
                else:
                    cell[key] = convert(value[key])
            except DataEncodingError as err:
                raise (err if mode == "splice" else err.within(key)) from None
        return cell

    def from_cell(cell: dict[str, Any]) -> dict[str, Any]:
        value: dict[str, Any] = {}
        for key, mode, read in from_cells:
            try:
                if mode == "splice":
                    value.update(read(cell))
                else:
                    value[key] = read(cell.get(key))
            except DataEncodingError as err:
                raise (err if mode == "splice" else err.within(key)) from None
        return value

    return Column(pa.struct(shown), pa.struct(stored), to_cell, from_cell)


def _record_of_constants(members: Sequence[_Member]) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for m in members:
        assert isinstance(m.placed, Constant)
        made = m.placed.make()
        if m.mode == "splice":
            value.update(made)
        else:
            value[str(m.key)] = made
    return value


def _reader(m: _Member) -> tuple[Any, str, Callable[[Any], Any]]:
    """How a member's value is read from its cell (a spliced part's: from
    the whole struct's)."""
    if isinstance(m.placed, Constant):
        return m.key, m.mode, _made(m.placed.make)
    from_cell = m.placed.from_cell
    if m.placed.nullable or m.mode == "splice":
        return m.key, m.mode, from_cell
    return m.key, m.mode, lambda c: from_cell(_given(c))


@_column.register
def _tup_column(e: Tup, place: _Place) -> Placed:
    members = _members(e.parts, place, tuples=True)
    if all(isinstance(m.placed, Constant) for m in members):
        return Constant(lambda: tuple(_tuple_of_constants(members)))
    shown, stored = _struct(members, _positions(_shown), place)
    plan = [(m, _reader(m)[2]) for m in members]

    def to_cell(value: tuple[Any, ...]) -> dict[str, Any]:
        cell: dict[str, Any] = {}
        for m, _ in plan:
            if isinstance(m.placed, Constant):
                continue
            at = int(m.key)
            try:
                if m.mode == "splice":
                    inner = m.placed.to_cell(tuple(value[at : at + len(_fields(m.placed.type))]))
                    cell.update((str(at + int(k)), c) for k, c in inner.items())
                else:
                    cell[str(at)] = m.placed.to_cell(value[at])
            except DataEncodingError as err:
                raise (err if m.mode == "splice" else err.within(at)) from None
        return cell

    def from_cell(cell: dict[str, Any]) -> tuple[Any, ...]:
        value: list[Any] = []
        for m, read in plan:
            at = int(m.key)
            try:
                if m.mode == "splice" and isinstance(m.placed, Column):
                    width = len(_fields(m.placed.type))
                    value += read({str(k): cell.get(str(at + k)) for k in range(width)})
                elif m.mode == "splice":
                    value += read(None)
                else:
                    value.append(read(cell.get(str(at))))
            except DataEncodingError as err:
                raise (err if m.mode == "splice" else err.within(at)) from None
        return tuple(value)

    return Column(pa.struct(shown), pa.struct(stored), to_cell, from_cell)


def _tuple_of_constants(members: Sequence[_Member]) -> list[Any]:
    value: list[Any] = []
    for m in members:
        assert isinstance(m.placed, Constant)
        made = m.placed.make()
        value += made if m.mode == "splice" else [made]
    return value


def _positions(
    fields_of: Callable[[_Member], list[pa.Field[Any]]],
) -> Callable[[_Member], list[pa.Field[Any]]]:
    """``fields_of``, a merged tuple's elements renamed by their position in this one."""

    def renamed(m: _Member) -> list[pa.Field[Any]]:
        found = fields_of(m)
        if m.mode != "splice":
            return found
        return [f.with_name(str(int(m.key) + i)) for i, f in enumerate(found)]

    return renamed


@_column.register
def _option_column(e: Option, place: _Place) -> Placed:
    (some,) = [c for c in e.cases if c.title == "Some"]
    return _nullable(_cell(_place(some.enc, place)))


@_column.register
def _union_column(e: Union, place: _Place) -> Placed:
    tagged = e.tagged
    placed = [_place(c.enc, place.at(f"<{c.title}>")) for c in tagged]
    titles = [c.title for c in tagged]
    named = ["kind", *(t for t, p in zip(titles, placed, strict=True) if isinstance(p, Column))]
    twice = sorted({n for n in named if named.count(n) > 1})
    if twice:
        raise place.refuse(f"{e.what}: two cases (or a case and 'kind') are named {twice[0]!r}")

    def fields(storage: bool) -> list[pa.Field[Any]]:
        found: list[pa.Field[Any]] = [pa.field("kind", pa.string(), nullable=False)]
        for title, p in zip(titles, placed, strict=True):
            if isinstance(p, Column):
                found.append(pa.field(title, p.storage if storage else p.type, nullable=True))
        return found

    choose = _chooser(e)
    by_title = {title: i for i, title in enumerate(titles)}

    def to_cell(value: Any) -> dict[str, Any]:
        i = choose(value)
        p = placed[i]
        if isinstance(p, Constant):
            return {"kind": titles[i]}
        return {"kind": titles[i], titles[i]: p.to_cell(value)}

    def from_cell(cell: dict[str, Any]) -> Any:
        kind = cell.get("kind")
        i = by_title.get(kind) if type(kind) is str else None
        if i is None:
            raise DecodeError("unexpected_tag", f"kind {kind!r} is no case of {e.what}")
        p = placed[i]
        if isinstance(p, Constant):
            return p.make()
        return p.from_cell(cell.get(titles[i]) if p.nullable else _given(cell.get(titles[i])))

    return Column(pa.struct(fields(False)), pa.struct(fields(True)), to_cell, from_cell)


def _chooser(e: Union) -> Callable[[Any], int]:
    """The index (among ``e.tagged``) of the case ``e``'s writer writes a
    value with: by its constant member, its ``matching`` function, or the
    first case that takes it, as the writer tries them."""
    tagged = e.tagged
    if isinstance(e, Matching):
        by_tag = {c.tag: i for i, c in enumerate(tagged)}
        select = e.select
        return lambda value: by_tag[select(value)]
    told = member(e)
    if told is not None:
        key, cases = told
        by_constant = {constant: tagged.index(c) for constant, c in cases if c.tag is not None}
        return lambda value: by_constant[value[key]]
    candidates = [
        (matches, hard, (i, hard, c.enc), c.enc)
        for i, (c, (matches, hard)) in enumerate(
            (c, s) for c, s in zip(e.cases, value_selectors(e), strict=True) if c.tag is not None
        )
    ]
    return lambda value: first_case(e, candidates, value, _takes, None, EncodeError, None, True)


def _takes(payload: tuple[int, bool, Encoding[Any]], value: Any, _context: Any) -> int:
    """The case's index, once it is known to take ``value`` (a case chosen
    by its shape alone must write it, as the writer tries it)."""
    index, hard, e = payload
    if not hard:
        e._size_of(value)
    return index
