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
    return 0


if __name__ == "__main__":
    sys.exit(main())
