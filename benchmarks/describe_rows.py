"""The ``/describe`` rows (issue 31): reading a node's answer, rebuilding its
codecs, and how fast the rebuilt codecs are against the catalogue's own.

* **read**: ``Directory.from_describe`` of the catalogue's two answers as a
  node sends them (JSON: its root and, at ``/chains/main/blocks/head``, its
  block-scoped subtree, as a Delphi node answers), 169 services; nothing is
  rebuilt yet (each body is rebuilt on first use).
* **rebuild all**: then every input, output and error body rebuilt (375,
  with their binary and JSON schemas), in a fresh process: no schema pair
  is in the cache, no entry shared yet.
* **decode / encode**: a rebuilt body against the catalogue's encoding of
  the same bytes (the block header; a Delphi operation), ``decode`` and
  ``encode`` of the same value, best of :func:`timing.best`.

Run: ``.venv/bin/python benchmarks/describe_rows.py`` (a fresh process: the
first two rows measure the cache empty).
"""

from __future__ import annotations

import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "encodings")]

from data_encoding import DefinitionError, from_schema  # noqa: E402
from data_encoding.node import registry, rpc  # noqa: E402
from data_encoding.node.rpc import Directory  # noqa: E402

ANSWERS = ("/", "/chains/main/blocks/head")


def _best(f: Any, repeat: int = 2000) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            f()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def main() -> None:
    tree = registry.find("rpc.service_tree").encoding
    answers = {at: tree.to_json(rpc.describe(at, protocol="007-PsDELPH1")) for at in ANSWERS}
    start = time.perf_counter()
    directories = [Directory.from_describe(a, at=at, dialect="legacy") for at, a in answers.items()]
    read = time.perf_counter() - start
    start = time.perf_counter()
    services = bodies = refused = 0
    for directory in directories:
        for _, service in directory.walk():
            services += 1
            for body in (service.input, service.output, service.error):
                if body is not None:
                    bodies += 1
                    try:
                        body.size  # rebuilds it  # noqa: B018
                    except DefinitionError:  # none today: counted if one comes back
                        refused += 1
    rebuild = time.perf_counter() - start
    print(f"| read {services} services | {read * 1000:.0f} ms |")
    print(f"| rebuild all {bodies} bodies ({refused} refused) | {rebuild * 1000:.0f} ms |")
    for id in ("shell.block_header", "proto.psdelph1.operation"):
        e = registry.find(id).encoding
        rebuilt = from_schema(e.describe(), e.json_schema())
        data = bytes.fromhex(str(registry.find(id).samples["valid"][0]["hex"]))
        value, again = e.decode(data), rebuilt.decode(data)
        assert rebuilt.encode(again) == e.encode(value) == data
        ours = _best(partial(e.decode, data)), _best(partial(e.encode, value))
        theirs = _best(partial(rebuilt.decode, data)), _best(partial(rebuilt.encode, again))
        for what, a, b in zip(("decode", "encode"), ours, theirs, strict=True):
            print(f"| {id} {what} | {a * 1e6:.2f} µs | {b * 1e6:.2f} µs | {b / a:.2f} |")


if __name__ == "__main__":
    main()
