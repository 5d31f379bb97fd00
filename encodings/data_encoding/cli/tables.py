"""``decode --lines --to parquet|arrow FILE``: the values of the lines as a
table (``data_encoding.arrow``), written a batch of rows at a time.

Each line is decoded and made a row's cell as it is read (with ``--jobs
N``, by N worker processes, the cells put in rows here in input order); a
bad line is reported as ``--lines`` reports it, and stops the run, the
rows before it written (with ``--keep-going`` it has no row);
every :data:`BATCH_ROWS` rows become one record batch of the file (a
Parquet row group, an Arrow IPC record batch), so that memory holds one
batch whatever the input's size. A value the format cannot hold (a
timestamp past Parquet's milliseconds) stops the run, ``--keep-going`` or
not, its line named: the batches before its own are in the file (a Parquet
writer that refused a batch takes no more). Needs pyarrow (``pip install
'data-encoding[arrow]'``): without it, the option is a usage error.
"""

from __future__ import annotations

from argparse import Namespace
from contextlib import ExitStack, suppress
from functools import partial
from typing import TYPE_CHECKING, Any

from ..errors import DefinitionError
from ..tree.core import Encoding
from .batch import run_lines
from .inputs import Input, UsageError, hex_of
from .output import BAD_DATA, OutputError, print_error

if TYPE_CHECKING:
    import pyarrow as pa

    from ..arrow import Options

BATCH_ROWS = 10_000
"""The rows of one record batch (a Parquet row group)."""

FORMATS = ("parquet", "arrow")
"""What ``--to`` writes: Parquet, or an Arrow IPC file."""


def decode_to_table(args: Namespace, e: Encoding[Any], canonical: bool, jobs: int) -> int:
    """Decode each line of ``args.input`` into a row of the table ``args.to``
    names (its format and file), in ``jobs`` processes, the rows written
    here in input order; the exit status."""
    try:
        from .. import arrow
    except ModuleNotFoundError as exc:
        raise UsageError(f"--to {args.to[0]}: {exc}") from None
    import pyarrow as pa

    kind, path = args.to
    if kind not in FORMATS:
        raise UsageError(f"--to: {kind!r} is not a format ({' or '.join(FORMATS)})")
    options = arrow.Options(recursive=args.recursive)
    try:  # a refusal here, before any file is made
        schema = arrow.table_of(e, [], options).schema
    except DefinitionError as err:
        raise UsageError(f"--to {kind}: {err.message}") from None
    cells: list[Any] = []
    numbers: list[int] = []  # the line of each row of the batch
    line = 0
    with ExitStack() as stack:
        try:
            writer = stack.enter_context(_writer(kind, path, schema))
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None

        def write(rows: list[Any]) -> None:
            try:
                writer.write_table(arrow.table_of_cells(e, rows, options))
            except pa.ArrowException:  # what the format cannot hold (Parquet's timestamps)
                number, exc = _first_unheld(kind, schema, e, rows, numbers, options)
                raise _Unheld(f"line {number}: {kind} cannot hold its value: {exc}") from None
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
            rows.clear()
            numbers.clear()

        def put(cell: Any) -> None:
            nonlocal line
            line += 1
            cells.append(cell)
            numbers.append(line)
            if len(cells) == BATCH_ROWS:
                write(cells)

        def no_row() -> None:  # a bad line (the summary lists its number)
            nonlocal line
            line += 1

        convert = partial(_cell_of_line, e, canonical, options)
        try:
            status = run_lines(args.input, convert, args.keep_going, put, no_row, jobs)
            write(cells)  # the rows before a bad line, too, as --lines writes their lines
        except (
            _Unheld
        ) as unheld:  # it stops the run, --keep-going or not: the rows before it written
            print_error(str(unheld))
            return BAD_DATA
    return status


class _Unheld(Exception):
    """A value the table's format cannot hold (its message says where)."""


def _first_unheld(
    kind: str,
    schema: pa.Schema,
    e: Encoding[Any],
    rows: list[Any],
    numbers: list[int],
    options: Options,
) -> tuple[int, Exception]:
    """The line of the first of ``rows`` that the format ``kind`` cannot
    hold, and its refusal (a batch refused: each row is written alone to a
    scratch file)."""
    import pyarrow as pa

    from .. import arrow

    for row, number in zip(rows, numbers, strict=True):
        scratch = _writer(kind, pa.BufferOutputStream(), schema)
        try:
            scratch.write_table(arrow.table_of_cells(e, [row], options))
        except pa.ArrowException as exc:
            return number, exc
        finally:
            with suppress(pa.ArrowException):  # (a writer that refused is closed)
                scratch.close()
    raise AssertionError("a batch refused whose rows are each held")  # pragma: no cover


def _cell_of_line(e: Encoding[Any], canonical: bool, options: Options, line: Input) -> Any:
    """A line's cell (module-level: ``--jobs`` sends it to the workers)."""
    from .. import arrow

    return arrow.cell_of(e, e.decode(hex_of(line), canonical=canonical), options)


def _writer(kind: str, path: str | pa.NativeFile, schema: pa.Schema) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if kind == "parquet":
        return pq.ParquetWriter(path, schema)
    return pa.ipc.new_file(path, schema)
