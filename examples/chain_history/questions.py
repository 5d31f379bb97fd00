"""Two questions a history's Parquet datasets answer, with Dask DataFrame.

* :func:`blocks_per_priority`: how many blocks were baked at each priority
  (the header's ``priority``: 0 when the first baker in line baked it).
* :func:`transactions_per_day`: how many transactions, and how many mutez
  they moved, each day (UTC). An operation does not carry its block: it
  names its ``branch``, a recent block it was made on, and the block that
  includes it comes after. The question joins each operation to the block
  whose ``predecessor`` is its branch, and dates it by that block's
  ``timestamp``. On the generated history (:mod:`.history`), every
  operation's branch is its block's predecessor, so the join finds its
  block exactly. On a real node's history, an operation's branch may be up
  to 60 blocks (an hour) older than its block (Delphi's
  ``max_operations_ttl``): it is then dated by the block after its branch,
  up to about an hour early, which moves only the operations near midnight.

The datasets are read with ``dtype_backend="pyarrow"``: the columns keep
the Arrow pass's types (a list of contents, each a ``struct`` with its
``kind`` and a field per kind; Zarith amounts as ``decimal128(38, 0)``),
which pandas reads through its ``struct`` accessor, partition by partition.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

__all__ = ["Day", "blocks_per_priority", "transactions_of", "transactions_per_day"]

MUTEZ = pd.ArrowDtype(pa.int64())
"""An amount of mutez: the protocol's tez are an ``int64`` of them (the
cast from the column's ``decimal128`` refuses anything larger)."""


def blocks_per_priority(dataset: Path) -> dict[int, int]:
    """The number of blocks baked at each priority, by priority."""
    headers = dd.read_parquet(dataset / "headers", columns=["priority"])
    # a count per priority: reduced into one partition, with no shuffle
    counts = headers["priority"].value_counts(split_out=1).compute()
    return {int(priority): int(blocks) for priority, blocks in sorted(counts.items())}


@dataclass(frozen=True)
class Day:
    """The transactions of a day: how many, and the mutez they moved."""

    transactions: int
    volume: int


def transactions_of(operations: pd.DataFrame) -> pd.DataFrame:
    """A row per transaction among the contents of ``operations`` (a
    partition of the operations' dataset): its operation's ``branch`` and
    its ``amount`` (:data:`MUTEZ`)."""
    contents = operations.explode("contents")
    cells = contents["contents"]
    transfers = contents[cells.struct.field("kind") == "Transaction"]
    amounts = transfers["contents"].struct.field(["Transaction", "amount"])
    return pd.DataFrame({"branch": transfers["branch"], "amount": amounts.astype(MUTEZ)})


def transactions_per_day(dataset: Path) -> dict[datetime.date, Day]:
    """The transactions of each day, by day, joined to their blocks as the
    module says."""
    operations = dd.read_parquet(
        dataset / "operations", columns=["branch", "contents"], dtype_backend="pyarrow"
    )
    meta = pd.DataFrame(
        {
            "branch": pd.Series(dtype=operations.dtypes["branch"]),
            "amount": pd.Series(dtype=MUTEZ),
        }
    )
    transfers = operations.map_partitions(transactions_of, meta=meta)
    headers = dd.read_parquet(
        dataset / "headers", columns=["predecessor", "timestamp"], dtype_backend="pyarrow"
    )
    # the headers' two columns sent to each partition of the transactions:
    # no shuffle, and no transaction moves
    dated = transfers.merge(headers, left_on="branch", right_on="predecessor", broadcast=True)
    dated = dated.assign(day=dated["timestamp"].dt.floor("D"))
    days = dated.groupby("day")["amount"].agg(["count", "sum"]).compute()
    return {
        day.date(): Day(int(row["count"]), int(row["sum"]))
        for day, row in days.sort_index().iterrows()
    }
