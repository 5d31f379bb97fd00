"""Where the tasks run: a Dask cluster's scheduler, or one made on this machine."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from distributed import Client, LocalCluster

__all__ = ["connect"]


@contextmanager
def connect(scheduler: str | None = None, workers: int | None = None) -> Iterator[Client]:
    """A client of the cluster whose scheduler is at ``scheduler``
    (``tcp://host:8786``), or, without one, of a cluster made here of
    ``workers`` processes (one per core by default) of one thread each:
    decoding is pure Python, which holds the interpreter's lock, so a worker
    gets a core by being a process. The cluster made here is closed on
    leaving; a remote one is left running."""
    if scheduler is not None:
        with Client(scheduler) as client:
            yield client
        return
    with (
        LocalCluster(
            n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client
