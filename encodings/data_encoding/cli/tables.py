"""``decode --lines --to parquet|arrow FILE``: the values of the lines as a
table (``data_encoding.arrow``), written a batch of rows at a time.

Each line is decoded and made a row's cell as it is read (with ``--jobs
N``, by N worker processes, the cells put in rows here in input order); a
bad line is reported as ``--lines`` reports it, and stops the run, the
rows before it written (with ``--keep-going`` it has no row);
every :data:`BATCH_ROWS` rows become one record batch of the file (a
Parquet row group, an Arrow IPC record batch), so that memory holds one
batch whatever the input's size. Needs pyarrow (``pip install
'data-encoding[arrow]'``): without it, the option is a usage error.
"""

from __future__ import annotations

from argparse import Namespace
from contextlib import ExitStack
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
    with ExitStack() as stack:
        try:
            writer = stack.enter_context(_writer(kind, path, schema))
        except OSError as exc:
            raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None

        def write(rows: list[Any]) -> None:
            try:
                writer.write_table(arrow.table_of_cells(e, rows, options))
            except OSError as exc:
                raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None
            rows.clear()

        def put(cell: Any) -> None:
            cells.append(cell)
            if len(cells) == BATCH_ROWS:
                write(cells)

        convert = partial(_cell_of_line, e, canonical, options)
        try:
            status = run_lines(args.input, convert, args.keep_going, put, _no_row, jobs)
            write(cells)  # the rows before a bad line, too, as --lines writes their lines
        except pa.ArrowException as exc:  # what the format cannot hold (Parquet's timestamps)
            print_error(f"{kind} cannot hold a value of this batch: {exc}")
            return BAD_DATA
    return status


def _cell_of_line(e: Encoding[Any], canonical: bool, options: Options, line: Input) -> Any:
    """A line's cell (module-level: ``--jobs`` sends it to the workers)."""
    from .. import arrow

    return arrow.cell_of(e, e.decode(hex_of(line), canonical=canonical), options)


def _no_row() -> None:
    """A bad line has no row (the summary lists its number)."""


def _writer(kind: str, path: str, schema: pa.Schema) -> Any:
    import pyarrow as pa
    import pyarrow.parquet as pq

    if kind == "parquet":
        return pq.ParquetWriter(path, schema)
    return pa.ipc.new_file(path, schema)
