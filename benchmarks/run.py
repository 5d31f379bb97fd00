"""Run the benchmarks: ratios of our codecs against hand-written code and peers.

Every row first checks that all implementations give identical bytes and
values, then times them **interleaved** (each repeat runs every implementation
once, in turn, so machine noise hits them alike) and reports the ratio
``ours / other`` per repeat: its minimum, median and maximum. A ratio below 1
means we are faster. The same runs give the **ceiling** too: the
hand-written codec against each peer, i.e. how far ahead of the peers a
Python codec of these shapes can be at best.

    python benchmarks/run.py            # the full suite (make bench)
    python benchmarks/run.py --quick    # a smoke run, well under a minute

Then the header from the node's JSON against pytezos' forger, the JSON <->
bytes rows (``json_rows.py``), the protocol rows (``protocol_rows.py``:
forging operations against pytezos, reading and writing Micheline against
the hand-written codec and pytezos), the batch (``batch.py``: 10^5
operations parsed in one process and over every core) and the scaling table
(``scaling.py``: time and peak memory from 10^4 to 10^6 records, up to a
50 MB ``bytes_`` and a value nested 10^5 levels deep, and the time to refuse
one with a bad leaf at the bottom).

Peers (``construct``, ``pytezos``) are optional (``pip install -e .[bench]``);
a row whose peer is missing says so.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import sys
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch import FULL, QUICK, batch, batch_table
from handwritten import CODECS
from json_rows import json_rows
from protocol_rows import forging_rows, micheline_rows
from scaling import FULL_SIZES, QUICK_SIZES, scaling_table
from timing import Call, Row, calls_per_repeat, compare, table
from workloads import Workload, node_block_header, workloads

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]


def peers(name: str) -> dict[str, Codec]:
    """The codecs to compare ours with on workload ``name``: hand-written, and
    construct's (interpreted and compiled) and pytezos' when installed."""
    others = {"hand-written": CODECS[name]}
    for module in ("construct_codecs", "pytezos_codecs"):
        with contextlib.suppress(ImportError):  # the peer library is missing
            others.update(importlib.import_module(module).codecs().get(name, {}))
    return others


def check(
    w: Workload, other: str, encode: Callable[[Any], bytes], decode: Callable[[bytes], Any]
) -> bytes:
    """The bytes of ``w`` after checking that ``encode``/``decode`` agree with ours."""
    data = w.encoding.encode(w.value)
    if encode(w.value) != data:
        raise AssertionError(f"{w.name}: {other} bytes differ from ours")
    if decode(data) != w.value or w.encoding.decode(data) != w.value:
        raise AssertionError(f"{w.name}: {other} decoded values differ from ours")
    return data


def binary_rows(w: Workload, repeats: int, budget: float) -> list[Row]:
    others = peers(w.name)
    data = b""
    for other, (encode, decode) in others.items():
        data = check(w, other, encode, decode)
    value, e = w.value, w.encoding
    rows: list[Row] = []
    tasks: list[tuple[str, Call, dict[str, Call]]] = [
        ("encode", partial(e.encode, value), {k: partial(c[0], value) for k, c in others.items()}),
        ("decode", partial(e.decode, data), {k: partial(c[1], data) for k, c in others.items()}),
    ]
    for op, ours, theirs in tasks:
        number = calls_per_repeat([ours, *theirs.values()], budget)
        rows += compare(f"{w.name}: {op}", ours, theirs, repeats, number, "hand-written")
    return rows


def node_header_rows(repeats: int, budget: float) -> list[Row]:
    """The header from the node's JSON (Base58Check hashes, an RFC 3339
    timestamp) to bytes: ours is ``encode(from_json(j))`` with
    :data:`~workloads.node_block_header`, pytezos' is ``forge_block_header(j)``,
    on the same parsed JSON ``j``. None when pytezos is missing."""
    try:
        forge = importlib.import_module("pytezos_codecs").block_header_forger()
    except ImportError:
        return []
    (header,) = [w for w in workloads() if w.name == "block_header"]
    e = node_block_header
    j = e.to_json(header.value)
    assert isinstance(j, dict)
    data = header.encoding.encode(header.value)

    def ours() -> bytes:
        return e.encode(e.from_json(j))

    if ours() != data:
        raise AssertionError("block_header: our node-JSON bytes differ from encode(value)")
    if forge(j) != data:
        raise AssertionError("block_header: pytezos' forged bytes differ from ours")
    theirs = partial(forge, j)
    number = calls_per_repeat([ours, theirs], budget)
    return compare("block_header: node json->bytes", ours, {"pytezos": theirs}, repeats, number)


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    repeats, budget = (3, 0.002) if args.quick else (31, 0.02)
    rows: list[Row] = []
    for w in workloads():
        rows += binary_rows(w, repeats, budget)
    rows += node_header_rows(repeats, budget)
    rows += json_rows(repeats, 5 if args.quick else 50)
    forging, forging_notes = forging_rows(repeats, budget)
    rows += forging + micheline_rows(repeats, budget)
    ceiling = [r for r in rows if r.subject != "ours"]
    print(table([r for r in rows if r.subject == "ours"]))
    if ceiling:
        print("\nThe ceiling: the hand-written codecs against the peers, from the same runs:\n")
        print(table(ceiling))
    for note in [*peer_notes(), *forging_notes]:
        print(f"\n{note}")
    print("\nBatch (parsing operations, in one process and over every core):\n")
    print(batch_table(batch(*(QUICK if args.quick else FULL))))
    print("\nScaling (time and peak memory as the data grows):\n")
    print(scaling_table(*(QUICK_SIZES if args.quick else FULL_SIZES)))
    return rows


def peer_notes() -> list[str]:
    """What the run could not compare, and why."""
    notes = []
    if importlib.util.find_spec("construct") is None:
        notes.append("construct: not installed, its rows are left out (pip install -e .[bench])")
    if importlib.util.find_spec("pytezos") is None:
        notes.append(
            "pytezos: not installed, no Zarith, node-JSON header, operation forging or"
            " Micheline rows against it (pip install -e .[bench])"
        )
    notes.append("pytezos: no header decoder, so its header row is node json->bytes only")
    notes.append("pytezos: no operation parser, so its operation rows are forging only")
    return notes


if __name__ == "__main__":
    main()
