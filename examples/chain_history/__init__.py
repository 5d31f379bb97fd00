"""A chain's history decoded on Dask: raw partitions of block headers and
operations, decoded by the library in Dask workers, flattened by its Arrow
pass into Parquet datasets, then questioned with Dask DataFrame
(``README.md`` beside this file).

:mod:`.records` reads and writes the raw partitions, :mod:`.history`
generates a history, :mod:`.pipeline` decodes one, :mod:`.questions`
answers from the datasets, :mod:`.cluster` finds the workers; ``python -m
chain_history`` runs each step.
"""
