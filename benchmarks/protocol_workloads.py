"""The protocol workloads (issue 29): real operation groups and Micheline
expressions, the same for every implementation.

* :func:`operation_groups`: a protocol's operation groups, each with its
  catalogue id, the node's JSON and its bytes. For Delphi (007), the node
  toolchain's codec regression vectors first
  (``tests/vectors/octez-codec-007.jsonl``: its 13
  ``007-PsDELPH1.operation.unsigned`` groups and 13 ``operation`` groups,
  one content each, every kind of the protocol, an origination with a
  script among them), then the catalogue's samples of
  ``proto.psdelph1.operation.unsigned`` and ``operation`` that are not
  among them (a reveal and a transaction in one group, each way); for
  another protocol (Athens, 004), the catalogue's samples. The vectors'
  JSON is the node toolchain's, in the Tezos address family (``tz1…``); the
  catalogue's is written in it too (the node's own family, ``dn1…``, is
  one pytezos cannot read).
* :func:`micheline_sets`: Micheline expressions (their JSON form) of
  growing size: the catalogue's samples of ``proto.psdelph1.script.expr``
  (the first two are the 007 vectors' origination code and storage), then
  three real contracts of ``benchmarks/data/`` (``data/README.md`` says
  where each comes from).
* :func:`batch_operations`: signed Delphi operations of mixed kinds, the
  groups of :func:`operation_groups` cycled to any number.
* :func:`batch_headers`: shell block headers (``shell.block_header``), the
  catalogue's sample (the vectors' Delphi header) to any number.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from data_encoding.jsonvalue import JsonValue
from data_encoding.node import output_family, registry

__all__ = [
    "CONTRACTS",
    "DATA",
    "DELPHI",
    "VECTORS",
    "MichelineSet",
    "OperationGroup",
    "batch_headers",
    "batch_operations",
    "micheline_sets",
    "operation_groups",
]

VECTORS = Path(__file__).resolve().parents[1] / "tests" / "vectors" / "octez-codec-007.jsonl"
"""The node toolchain's codec regression vectors of protocol 007."""

DATA = Path(__file__).resolve().parent / "data"
"""The contracts, as Micheline JSON (see ``data/README.md``)."""

CONTRACTS = ("scrutable_reservoir", "forward", "fa12_reference")
"""The contracts of :data:`DATA`, smallest first: 722, 1747 and 4569 bytes."""

DELPHI = "psdelph1"
"""The protocol of the vectors, of the contracts' primitives and of the batch."""

GROUP_IDS = ("operation.unsigned", "operation")
"""The operation groups' ids within a protocol: without and with a signature."""


@dataclass(frozen=True)
class OperationGroup:
    """One operation group: ``id`` (``proto.psdelph1.operation``) reads ``data``
    as the node's JSON ``json``, in the Tezos address family."""

    id: str
    json: dict[str, Any]
    data: bytes

    @property
    def kinds(self) -> str:
        """The kinds of its contents, joined by ``+`` (``reveal+transaction``)."""
        return "+".join(content["kind"] for content in self.json["contents"])


def _vector_groups() -> list[OperationGroup]:
    with open(VECTORS, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    names = {f"007-PsDELPH1.{suffix}" for suffix in GROUP_IDS}
    return [
        OperationGroup(registry.find(name).id, row["json"], bytes.fromhex(row["hex"]))
        for row in rows
        if (name := row["encoding_name"]) in names
    ]


def _sample_groups(protocol: str) -> list[OperationGroup]:
    groups = []
    for suffix in GROUP_IDS:
        entry = registry.find(f"proto.{protocol}.{suffix}")
        for sample in entry.samples["valid"]:
            assert isinstance(sample["hex"], str)
            data = bytes.fromhex(sample["hex"])
            with output_family("tezos"):
                group = entry.encoding.to_json(entry.encoding.decode(data))
            assert isinstance(group, dict)
            groups.append(OperationGroup(entry.id, group, data))
    return groups


def operation_groups(protocol: str = DELPHI) -> list[OperationGroup]:
    """The operation groups of ``protocol`` (its short hash, lower case):
    for :data:`DELPHI`, the vectors', then the catalogue's samples that are
    not among them; for another, the catalogue's samples."""
    if protocol != DELPHI:
        return _sample_groups(protocol)
    groups = _vector_groups()
    known = {(g.id, g.data) for g in groups}
    return groups + [g for g in _sample_groups(protocol) if (g.id, g.data) not in known]


@dataclass(frozen=True)
class MichelineSet:
    """Micheline expressions, in JSON, timed together under ``name``."""

    name: str
    expressions: tuple[JsonValue, ...]


def micheline_sets() -> list[MichelineSet]:
    """The catalogue's ``script.expr`` samples, then each contract of :data:`CONTRACTS`."""
    samples = registry.find(f"proto.{DELPHI}.script.expr").samples["valid"]
    sets = [MichelineSet(f"{len(samples)} catalogue samples", tuple(s["json"] for s in samples))]
    for name in CONTRACTS:
        with open(DATA / f"{name}.json", encoding="utf-8") as f:
            sets.append(MichelineSet(f"{name}.tz", (json.load(f),)))
    return sets


def batch_operations(count: int) -> tuple[list[bytes], Counter[str]]:
    """``count`` signed Delphi operations (``proto.psdelph1.operation``): the
    signed groups of :func:`operation_groups` in turn, cycled; and how many
    contents of each kind they hold.

    Each is a distinct ``bytes`` object, as operations read from a chain
    would be: a list of the same few objects would be pickled (sent to a
    worker process) as one copy of each and references.
    """
    signed = [g for g in operation_groups(DELPHI) if g.id == f"proto.{DELPHI}.operation"]
    operations = []
    kinds: Counter[str] = Counter()
    for i in range(count):
        group = signed[i % len(signed)]
        operations.append(bytes(bytearray(group.data)))
        kinds.update(content["kind"] for content in group.json["contents"])
    return operations, kinds


def batch_headers(count: int) -> list[bytes]:
    """``count`` shell block headers (``shell.block_header``): the
    catalogue's samples (one: the vectors' ``007-PsDELPH1.block_header``,
    238 bytes, a shell header and Delphi's protocol data) cycled, each a
    distinct ``bytes`` object (:func:`batch_operations` says why)."""
    samples = registry.find("shell.block_header").samples["valid"]
    headers = [bytes.fromhex(str(sample["hex"])) for sample in samples]
    return [bytes(bytearray(headers[i % len(headers)])) for i in range(count)]
