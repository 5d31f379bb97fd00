"""``make demo``: a record of the node's admin interface, both ways, then an error.

The record is the daemon status the seed describes (``/admin/daemon/<id>/start``
answers it): an id and a process state, the state being a union tagged
``running 0, exited 1, stopped 2, signaled 3``. The demo reads the embedded
JSON sample, writes its bytes, reads them back, prints the JSON again, and
finally decodes deliberately corrupted bytes to show an error message.

Run ``python -m data_encoding.demo`` (or ``make demo``); pass a JSON file to
use another sample.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import (
    Case,
    DataEncodingError,
    Field,
    case,
    constant,
    def_,
    int31,
    list_,
    n,
    obj,
    opt,
    req,
    string,
    union,
)
from .jsonvalue import dumps, loads

PID = req("pid", int31)


def _state(tag: int, name: str, *fields: Field) -> Case:
    """A process state: a record whose ``state`` member names the case."""
    return case(tag, name, obj(req("state", constant(name)), PID, *fields))


process_state = def_(
    "process_state",
    union(
        [
            _state(0, "running"),
            _state(1, "exited", opt("code", int31)),
            _state(2, "stopped", req("code", int31)),
            _state(3, "signaled", req("code", int31)),
        ]
    ),
)

daemon_status = obj(
    req("id", int31),
    req("state", process_state),
    req("delegates", list_(string)),
    opt("minimal_nanotez_per_gas_unit", n),
)

SAMPLE = """{
  "id": 3,
  "state": {"state": "exited", "pid": 4242, "code": 1},
  "delegates": ["baker-1", "dn1bakerAlias"],
  "minimal_nanotez_per_gas_unit": "100000000000000000000"
}"""


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = Path(args[0]).read_text() if args else SAMPLE
    print("JSON in:", dumps(loads(text)))
    value = daemon_status.from_json(loads(text))
    print("value:  ", value)
    data = daemon_status.encode(value)
    print(
        f"binary:  {data.hex()}  ({len(data)} bytes, length() says {daemon_status.length(value)})"
    )
    back = daemon_status.decode(data)
    print("decoded:", back)
    print("JSON out:", dumps(daemon_status.to_json(back)))
    assert back == value

    corrupt = bytearray(data)
    corrupt[4] = 7  # the state's union tag, right after the 4-byte id
    print(f"\ncorrupted binary: {corrupt.hex()}")
    try:
        daemon_status.decode(bytes(corrupt))
    except DataEncodingError as err:
        print(f"error: {err}")
        print(f"       code={err.code!r} offset={err.offset} path={list(err.path)}")
    if not args:
        catalogue_tour()
    return 0


def catalogue_tour() -> None:
    """The catalogue's records, from their samples in ``seeds/samples``: JSON
    to hex to JSON, then a ``/describe`` subtree and a corrupted input."""
    from . import registry, rpc

    print("\n--- the catalogue:", len(registry.ids()), "ids")
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
    (bad,) = [
        s
        for s in registry.find("admin.process_state").samples["invalid"]
        if s.get("hex") == "0400001092"
    ]
    try:
        registry.find("admin.process_state").encoding.decode(bytes.fromhex(str(bad["hex"])))
    except DataEncodingError as err:
        print(f"\nadmin.process_state of {bad['hex']}: error: {err}")


if __name__ == "__main__":
    sys.exit(main())
