"""The benchmark workloads: the same logical data for every implementation.

Each :class:`Workload` has a name, our encoding of it and its value; the
data are built deterministically (a fixed seed), so every run and every
implementation sees the same bytes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import data_encoding as de


@dataclass(frozen=True)
class Workload:
    name: str
    encoding: de.Encoding[Any]
    value: Any


# ------------------------------------------------------------ block header

block_header = de.obj(
    de.req("level", de.int32),
    de.req("proto", de.uint8),
    de.req("predecessor", de.fixed.bytes_(32)),
    de.req("timestamp", de.int64),
    de.req("validation_pass", de.uint8),
    de.req("operations_hash", de.fixed.bytes_(32)),
    de.req("fitness", de.list_(de.bytes_)),
    de.req("context", de.fixed.bytes_(32)),
    de.req("protocol_data", de.variable.bytes_),
)
"""The shell block header: 247 bytes for :data:`HEADER` (5 fitness elements,
100 bytes of protocol data)."""


node_block_header = de.obj(
    de.req("level", de.int32),
    de.req("proto", de.uint8),
    de.req("predecessor", de.hashes.block_hash),
    de.req("timestamp", de.timestamp.protocol),
    de.req("validation_pass", de.uint8),
    de.req("operations_hash", de.hashes.operation_list_list_hash),
    de.req("fitness", de.list_(de.bytes_)),
    de.req("context", de.hashes.context_hash),
    de.req("protocol_data", de.variable.bytes_),
)
"""The same header as the node types it: the same bytes, but Base58Check
hashes and an RFC 3339 timestamp in JSON (the form pytezos' forger reads)."""


def _header(rng: random.Random) -> dict[str, Any]:
    return {
        "level": 1_234_567,
        "proto": 7,
        "predecessor": rng.randbytes(32),
        "timestamp": 1_600_000_000,
        "validation_pass": 4,
        "operations_hash": rng.randbytes(32),
        "fitness": [b"\x01", (1_234_567).to_bytes(8, "big"), b"", b"\x00\x00\x00\x05", b""],
        "context": rng.randbytes(32),
        "protocol_data": rng.randbytes(100),
    }


# ------------------------------------------------------------ Zarith

zarith_list = de.list_(de.z)
"""1000 ``z`` values in a list: thirds below 10^4, near 2^40 and near 2^200; a quarter negative."""


def _zarith(rng: random.Random, count: int = 1000) -> list[int]:
    values = []
    for i in range(count):
        third = i * 3 // count
        magnitude = (
            rng.randrange(10_000)
            if third == 0
            else rng.randrange(2**39, 2**41)
            if third == 1
            else rng.randrange(2**199, 2**201)
        )
        values.append(-magnitude if i % 4 == 3 else magnitude)
    return values


# ------------------------------------------------------------ daemon records

PID = de.req("pid", de.int31)


def _state(tag: int, name: str, *fields: de.Field) -> de.Case:
    return de.case(tag, name, de.obj(de.req("state", de.constant(name)), PID, *fields))


process_state = de.union(
    [
        _state(0, "running"),
        _state(1, "exited", de.opt("code", de.int31)),
        _state(2, "stopped", de.req("code", de.int31)),
        _state(3, "signaled", de.req("code", de.int31)),
    ]
)

daemon_records = de.list_(
    de.obj(
        de.req("uid", de.uint16),
        de.req("state", process_state),
        de.req("parent", de.option(de.int31)),
    )
)
"""1000 records ``{uid: uint16, state: process state, parent: option int31}``."""


def _record(rng: random.Random, i: int) -> dict[str, Any]:
    kind = ("running", "exited", "stopped", "signaled")[i % 4]
    state: dict[str, Any] = {"state": kind, "pid": rng.randrange(1, 2**22)}
    if kind == "exited":
        state["code"] = rng.randrange(256) if i % 8 == 1 else None
    elif kind != "running":
        state["code"] = rng.randrange(-64, 256)
    return {"uid": i % 65536, "state": state, "parent": rng.randrange(2**22) if i % 3 else None}


def workloads(scale: int = 1000) -> list[Workload]:
    """The three workloads; ``scale`` elements for the list ones."""
    rng = random.Random(20261121)
    return [
        Workload("block_header", block_header, _header(rng)),
        Workload("zarith_z", zarith_list, _zarith(rng, scale)),
        Workload("records", daemon_records, [_record(rng, i) for i in range(scale)]),
    ]
