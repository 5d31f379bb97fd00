"""``make demo``: records of the node's catalogue, both ways, then an error.

First a daemon status (what ``POST /admin/daemon/<id>/start`` answers): its
JSON read, written to bytes, read back and printed again; then bytes with a
corrupted process-state tag, and the error they give. Then a daemon record,
a block header and a checkpoint from their samples, JSON to hex to JSON, and
a ``/describe`` subtree of the node's directory in binary.

Run ``python -m data_encoding.demo`` (or ``make demo``); pass a JSON file to
use another daemon status.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import DataEncodingError
from .jsonvalue import dumps, loads
from .node import registry, rpc

SAMPLE = '{"id": 3, "pid": 4242, "state": "exited", "code": 1}'
"""A daemon status: daemon 3's process 4242 exited with code 1."""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = Path(args[0]).read_text() if args else SAMPLE
    status = registry.find("admin.daemon_status").encoding
    print("admin.daemon_status")
    print("  JSON in: ", dumps(loads(text)))
    value = status.from_json(loads(text))
    data = status.encode(value)
    print(f"  binary:   {data.hex()}  ({len(data)} bytes; length() says {status.length(value)})")
    back = status.decode(data)
    print("  JSON out:", dumps(status.to_json(back)))
    assert back == value

    corrupt = bytearray(data)
    corrupt[4] = 7  # the process state's tag, right after the 4-byte id
    print(f"  corrupted: {corrupt.hex()}")
    try:
        status.decode(bytes(corrupt))
    except DataEncodingError as err:
        print(f"  error: {err}")
        print(f"         code={err.code!r} offset={err.offset} path={list(err.path)}")
    catalogue_tour()
    return 0


def catalogue_tour() -> None:
    """Records from their samples (``seeds/samples``), JSON to hex to JSON,
    then a ``/describe`` subtree in binary."""
    print(f"\nthe catalogue: {len(registry.ids())} ids")
    for id in ("admin.daemon", "shell.block_header", "chain.checkpoint"):
        e = registry.find(id).encoding
        sample = registry.find(id).samples["valid"][0]
        data = e.encode(e.from_json(sample["json"]))
        back = e.to_json(e.decode(data))
        print(f"\n{id}: {dumps(sample['json'])[:100]}...")
        print(f"  hex ({len(data)} bytes): {data.hex()[:96]}...")
        print(f"  JSON again equals the input: {back == sample['json']}")
    tree = registry.find("rpc.service_tree").encoding
    subtree = rpc.describe("/chains/main/checkpoint", recurse=False)
    data = tree.encode(subtree)
    print(f"\nGET /describe/chains/main/checkpoint: {len(data)} bytes in binary;")
    print(f"  {dumps(tree.to_json(tree.decode(data)))[:150]}...")
    typed = sum(s.typed for _, s in rpc.services())
    print(f"  the directory has {len(rpc.services())} endpoints, {typed} fully typed")


if __name__ == "__main__":
    sys.exit(main())
