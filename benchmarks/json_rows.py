"""The "JSON <-> bytes" rows: converting between JSON text and the binary form.

A node's RPC server and its clients mostly translate: JSON text in, binary
out, or the reverse. These rows time that whole path for the ``block_header``
and ``records`` workloads of :mod:`workloads`, against hand-written code:

* ``json->bytes``: from the JSON text (dumped once, up front, from
  ``to_json`` of the workload's value), ours is ``encode_json(loads(text))``
  (the writer in JSON mode: no value in between); the hand-written side is
  ``loads(text)``,
  a conversion written for exactly this data (``bytes.fromhex`` for hex
  members, ``int`` for the ``int64`` decimal string, ``None`` for the absent
  optional ``code``), then the binary encoder of :mod:`handwritten`.
* ``bytes->json``: ours is ``dumps(decode_json(data))`` (the reader in JSON
  mode); the hand-written
  side is the binary decoder of :mod:`handwritten`, the reverse conversion
  (``.hex()``, ``str`` for ``int64``, the absent ``code`` member left out, as
  ``to_json`` does), then ``dumps``.

Where the JSON and the binary value shapes differ by one member only (the
records' optional ``code``), the hand-written conversion edits the freshly
parsed or decoded containers in place, as a program that owns them would.

The JSON library is :mod:`orjson` when it is installed, else the standard
:mod:`json` (compact separators), the same for both sides; each row's
``other`` label names it. (``json_to_bytes`` and ``bytes_to_json``, the text
entry points, parse with the standard library and its object hook, which
refuses a member given twice: the rows time the conversion.) Before
timing, each row checks that both sides give the same bytes (``json->bytes``)
or the same JSON text (``bytes->json``), and raises :class:`AssertionError`
otherwise.

    python benchmarks/json_rows.py            # 31 repeats x 50 calls
    python benchmarks/json_rows.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from handwritten import header_decode, header_encode, records_decode, records_encode
from timing import Row, compare, table
from workloads import Workload, workloads

__all__ = ["JSON_LIBRARY", "dumps", "json_rows", "loads"]

Loads = Callable[[str | bytes], Any]
Dumps = Callable[[Any], str | bytes]


def _stdlib_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _json_library() -> tuple[str, Loads, Dumps]:
    """(name, loads, dumps): orjson when installed, else the standard library."""
    try:  # imported by name: type-checks with or without orjson installed
        orjson = importlib.import_module("orjson")
    except ImportError:
        return "json", json.loads, _stdlib_dumps
    return "orjson", orjson.loads, orjson.dumps


JSON_LIBRARY, loads, dumps = _json_library()
"""The JSON library's name (``"orjson"`` or ``"json"``) and its text codec."""


# ------------------------------------------------------------ block header


def header_from_json(j: dict[str, Any]) -> dict[str, Any]:
    """The block header's value from its JSON form (hex bytes, ``int64`` string)."""
    fromhex = bytes.fromhex
    return {
        "level": j["level"],
        "proto": j["proto"],
        "predecessor": fromhex(j["predecessor"]),
        "timestamp": int(j["timestamp"]),
        "validation_pass": j["validation_pass"],
        "operations_hash": fromhex(j["operations_hash"]),
        "fitness": [fromhex(f) for f in j["fitness"]],
        "context": fromhex(j["context"]),
        "protocol_data": fromhex(j["protocol_data"]),
    }


def header_to_json(v: dict[str, Any]) -> dict[str, Any]:
    """The block header's JSON form, members in the order ``to_json`` gives them."""
    return {
        "level": v["level"],
        "proto": v["proto"],
        "predecessor": v["predecessor"].hex(),
        "timestamp": str(v["timestamp"]),
        "validation_pass": v["validation_pass"],
        "operations_hash": v["operations_hash"].hex(),
        "fitness": [f.hex() for f in v["fitness"]],
        "context": v["context"].hex(),
        "protocol_data": v["protocol_data"].hex(),
    }


# ------------------------------------------------------------ daemon records


def records_from_json(j: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records' value from their JSON form, in place: an ``exited`` state
    without ``code`` gets ``code: None``; everything else is already a value."""
    for r in j:
        st = r["state"]
        if st["state"] == "exited" and "code" not in st:
            st["code"] = None
    return j


def records_to_json(v: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records' JSON form, in place: an absent ``code`` (``None``) is left out."""
    for r in v:
        st = r["state"]
        if st["state"] == "exited" and st["code"] is None:
            del st["code"]
    return v


_CONVERSIONS: dict[
    str,
    tuple[
        Callable[[Any], bytes],
        Callable[[Any], Any],
        Callable[[bytes], Any],
        Callable[[Any], Any],
    ],
] = {
    "block_header": (header_encode, header_from_json, header_decode, header_to_json),
    "records": (records_encode, records_from_json, records_decode, records_to_json),
}
"""Workload name -> (binary encode, JSON -> value, binary decode, value -> JSON)."""


# ------------------------------------------------------------ rows


def _rows(w: Workload, repeats: int, number: int) -> list[Row]:
    encode, from_json, decode, to_json = _CONVERSIONS[w.name]
    e = w.encoding
    data = e.encode(w.value)
    text = dumps(e.to_json(w.value))

    def ours_to_bytes() -> bytes:
        return e.encode_json(loads(text))

    def hand_to_bytes() -> bytes:
        return encode(from_json(loads(text)))

    def ours_to_json() -> str | bytes:
        return dumps(e.decode_json(data))

    def hand_to_json() -> str | bytes:
        return dumps(to_json(decode(data)))

    if ours_to_bytes() != data:
        raise AssertionError(f"{w.name}: our json->bytes differs from encode(value)")
    if hand_to_bytes() != data:
        raise AssertionError(f"{w.name}: hand-written json->bytes differs from ours")
    if ours_to_json() != text:
        raise AssertionError(f"{w.name}: our bytes->json differs from to_json(value)")
    if hand_to_json() != text:
        raise AssertionError(f"{w.name}: hand-written bytes->json differs from ours")

    other = f"hand-written + {JSON_LIBRARY}"
    rows = compare(f"{w.name}: json->bytes", ours_to_bytes, {other: hand_to_bytes}, repeats, number)
    rows += compare(f"{w.name}: bytes->json", ours_to_json, {other: hand_to_json}, repeats, number)
    return rows


def json_rows(repeats: int, number: int) -> list[Row]:
    """The ``json->bytes`` and ``bytes->json`` rows of ``block_header`` and ``records``."""
    rows: list[Row] = []
    for w in workloads():
        if w.name in _CONVERSIONS:
            rows += _rows(w, repeats, number)
    return rows


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    repeats, number = (3, 5) if args.quick else (31, 50)
    rows = json_rows(repeats, number)
    print(f"JSON library: {JSON_LIBRARY}; {repeats} repeats x {number} calls\n")
    print(table(rows))
    return rows


if __name__ == "__main__":
    main()
