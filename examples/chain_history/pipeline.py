"""The pipeline: each raw partition decoded in a Dask task, into a Parquet file.

A history is two folders of partitions (:mod:`.records` has their formats):
``headers/``, the block headers (``proto.<protocol>.block_header``), and
``operations/``, the operations (``proto.<protocol>.operation``). Each
partition becomes one task, ``dask.delayed(decode_partition)``, which reads
its file, decodes each record with the library, makes it a row of the Arrow
pass's table (:mod:`data_encoding.arrow`; Micheline as its JSON text) and
writes the rows, a record batch at a time, to a Parquet file of the same
name in the output's folder of the same kind: the output is a partitioned
Parquet dataset per kind, a file per input partition.

Why tasks of ``dask.delayed`` rather than a bag or a DataFrame's
``map_partitions``: the work is one function from a file to a file, and
the Arrow pass already makes the table Parquet stores. A bag's or a
DataFrame's way to Parquet passes the rows through pandas, whose types are
not the pass's (no ``uint16`` that cannot be null, no ``struct`` of a
union's cases, timestamps of other units), and keeps them in the workers'
memory until they are written; here a task writes its rows as it makes
them, only paths and counts cross the network, and each file has the
pass's schema exactly.

Rows keep the input's order: a partition's rows are its records' order,
and its file is named as its input (``part-00000.parquet``), so the files
in the order of their names are the history in order (``dd.read_parquet``
and :func:`read_dataset` read them so), whichever worker wrote them.

Every path must be one that each worker sees (a local run's folders, or a
file system shared by the cluster's machines).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from dask.base import compute, tokenize
from dask.delayed import Delayed, delayed

from data_encoding import DataEncodingError, Encoding, arrow
from data_encoding.node import registry

from .records import SUFFIXES, read_records

__all__ = [
    "BATCH_ROWS",
    "KINDS",
    "OPTIONS",
    "Kind",
    "Written",
    "decode_history",
    "decode_partition",
    "decoding_tasks",
    "partitions",
    "read_dataset",
]

OPTIONS = arrow.Options(recursive="json")
"""How the pass places the values: as its defaults, but Micheline (a
recursive encoding: a transaction's parameters, an origination's script)
as its JSON text."""

BATCH_ROWS = 10_000
"""The rows of one record batch (a Parquet row group): a task holds one
batch of rows at a time, whatever its partition's size."""


@dataclass(frozen=True)
class Kind:
    """A kind of record: its folder, and its id in a protocol's catalogue."""

    folder: str
    id: str

    def encoding_id(self, protocol: str) -> str:
        """The catalogue id of this kind in ``protocol`` (``psdelph1``...)."""
        return f"proto.{protocol}.{self.id}"


KINDS = (Kind("headers", "block_header"), Kind("operations", "operation"))
"""The kinds of a history, each a folder of partitions."""


@dataclass(frozen=True)
class Written:
    """What one task did: the file it wrote, and its rows."""

    path: Path
    rows: int


def decode_partition(encoding_id: str, source: Path, target: Path) -> Written:
    """Decode each record of the partition ``source`` with the catalogue's
    ``encoding_id``; write their rows to the Parquet file ``target``.

    A record that does not decode raises the library's error, with a note
    naming the partition and the record's number (from 0); a value that
    Parquet cannot hold (a timestamp past the year 292 277 026, which
    Parquet stores in milliseconds) raises pyarrow's ``ArrowInvalid``, with
    a note naming the partition and its batch's records. Either leaves no
    file behind.
    """
    e = registry.find(encoding_id).encoding
    schema = arrow.table_of(e, [], OPTIONS).schema
    rows = 0
    try:
        with pq.ParquetWriter(target, schema) as writer:
            for cells in _batches(e, source):
                try:
                    writer.write_table(arrow.table_of_cells(e, cells, OPTIONS))
                except pa.ArrowException as err:
                    err.add_note(f"in {source}, records {rows} to {rows + len(cells) - 1}")
                    raise
                rows += len(cells)
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return Written(target, rows)


def _batches(e: Encoding[Any], source: Path) -> Iterator[list[Any]]:
    """The cells of ``source``'s records, :data:`BATCH_ROWS` at a time."""
    cells: list[Any] = []
    for number, record in enumerate(read_records(source)):
        try:
            cells.append(arrow.cell_of(e, e.decode(record), OPTIONS))
        except DataEncodingError as err:
            err.add_note(f"in {source}, record {number}")
            raise
        if len(cells) == BATCH_ROWS:
            yield cells
            cells = []
    if cells:
        yield cells


def partitions(folder: Path) -> list[Path]:
    """The partitions of ``folder`` (its ``.hex`` and ``.bin`` files), in
    the order of their names: the history's order."""
    return sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES)


def decoding_tasks(source: Path, target: Path, protocol: str) -> list[Delayed]:
    """The tasks that decode the history under ``source`` (``headers/``,
    ``operations/``) into Parquet datasets under ``target`` (the same
    folders), one per partition, in the partitions' order.

    Each task's key names its kind and partition, then a token of its
    arguments: a scheduler gives a task whose key it still holds the result
    it holds, unrun, so a run into another folder must have keys of its own.
    A folder of ``target`` that already holds files is refused
    (``FileExistsError``): its old files would join the new dataset.
    """
    tasks = []
    for kind in KINDS:
        folder = target / kind.folder
        folder.mkdir(parents=True, exist_ok=True)
        if any(folder.iterdir()):
            raise FileExistsError(f"{folder} is not empty: the dataset would mix two runs")
        for part in partitions(source / kind.folder):
            args = (kind.encoding_id(protocol), part, folder / f"{part.stem}.parquet")
            key = f"decode-{kind.folder}-{part.stem}-{tokenize(*args)}"
            tasks.append(delayed(decode_partition, pure=False)(*args, dask_key_name=key))
    return tasks


def decode_history(source: Path, target: Path, protocol: str) -> list[Written]:
    """Run :func:`decoding_tasks` on the scheduler in use (a
    ``distributed.Client``'s, once one is made); what each task wrote, in
    the partitions' order."""
    written: list[Written] = list(compute(*decoding_tasks(source, target, protocol)))
    return written


def read_dataset(folder: Path) -> pa.Table:
    """The table of a dataset the pipeline wrote: its files in the order of
    their names, so its rows in the history's order."""
    return pa.concat_tables(pq.read_table(path) for path in sorted(folder.glob("*.parquet")))
