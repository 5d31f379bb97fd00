"""A generated history of protocol 007 (Delphi): block headers and the
operations of each block, as partitions of raw records (needs Hypothesis).

The values' shapes come from the catalogue's strategies: a few headers and
a few hundred operation contents are drawn once, with the seed
(:func:`data_encoding.cli.sampling.draw`, as ``data-encoding sample --seed``
draws), and every record of the history is one of them with the fields the
questions read set by a :class:`random.Random` of the same seed: a chain of
``blocks`` levels from :data:`FIRST_LEVEL`, each header's ``predecessor``
the hash of the header before it (the Blake2b-256 of its bytes, as the node
names a block), its ``timestamp`` the one before plus Delphi's delay for
its ``priority`` (60 s, and 40 s more per priority; priorities mostly 0)
and 0 to 2 s, its ``fitness`` growing; then the block's operations, whose ``branch`` is
the block's predecessor (as a baker's own operations and most clients'
are: see :mod:`.questions` for the join this gives): one to three
endorsements of the level before, then manager operations (batches of one
to three transactions, each with an amount, a reveal before some of them,
delegations, originations) and, rarely, an operation of another kind.

So the history's answers (blocks per priority, transactions per day) depend
on the seed alone: the drawn values give the records their other fields
and sizes, and the two random sources are apart (which drawn value a record
copies does not move the facts).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from data_encoding.cli.sampling import draw
from data_encoding.node import registry
from data_encoding.node.hashes import BlockHash

from .records import write_records

__all__ = [
    "FIRST_LEVEL",
    "FIRST_TIMESTAMP",
    "PROTOCOL",
    "History",
    "Pools",
    "draw_pools",
    "generate",
]

PROTOCOL = "psdelph1"
"""The protocol of the generated history (007, Delphi)."""

FIRST_LEVEL = 1_212_417
"""The history's first level: Delphi's first on the main chain."""

FIRST_TIMESTAMP = 1_605_139_200
"""The timestamp of the history's first block: 2020-11-12T00:00:00Z, the day
Delphi was activated on the main chain."""

PROTO_LEVEL = 7
"""The headers' ``proto``: the shell's count of protocol changes, which
stays the same through one protocol's history."""

PRIORITY_WEIGHTS = (92, 6, 1.5, 0.5)
"""How often a block is baked at priority 0, 1, 2, 3: the first baker
misses a slot now and then."""

MINIMAL_DELAY, DELAY_PER_PRIORITY = 60, 40
"""Delphi's ``time_between_blocks``: a block at priority p comes at least
60 + 40 p seconds after its predecessor."""

MANAGER_KINDS = ("transaction", "reveal+transaction", "delegation", "origination")
MANAGER_WEIGHTS = (82, 10, 5, 3)
RARE_KINDS = (
    "activate_account",
    "ballot",
    "double_baking_evidence",
    "double_endorsement_evidence",
    "proposals",
    "seed_nonce_revelation",
)
RARE_CHANCE = 0.01
"""The chance that a block carries an operation of one of :data:`RARE_KINDS`."""

DRAWN_HEADERS, DRAWN_CONTENTS = 20, 300
"""How many values the strategies give the pools (enough for a content of
every kind: :func:`draw_pools` checks)."""


@dataclass(frozen=True)
class Pools:
    """Drawn values to copy (never changed: a record copies its value's
    dict): headers, and operation contents by kind."""

    headers: tuple[dict[str, Any], ...]
    contents: dict[str, tuple[dict[str, Any], ...]]


@cache
def draw_pools(seed: int) -> Pools:
    """The values of the catalogue's strategies the history copies (drawn
    once per seed in a process: Hypothesis takes seconds to draw them)."""
    headers = draw(registry.find(f"proto.{PROTOCOL}.block_header").encoding, DRAWN_HEADERS, seed)
    contents: dict[str, list[dict[str, Any]]] = {}
    for content in draw(
        registry.find(f"proto.{PROTOCOL}.operation.contents").encoding, DRAWN_CONTENTS, seed
    ):
        contents.setdefault(content["kind"], []).append(content)
    needed = {"transaction", "reveal", "delegation", "origination", *RARE_KINDS}
    if missing := needed - contents.keys():
        raise RuntimeError(f"the strategy drew no content of {sorted(missing)} with seed {seed}")
    return Pools(tuple(headers), {kind: tuple(found) for kind, found in contents.items()})


@dataclass
class History:
    """What :func:`generate` wrote: the records of each partition, by kind."""

    headers: list[int] = field(default_factory=list)
    operations: list[int] = field(default_factory=list)

    @property
    def records(self) -> int:
        return sum(self.headers) + sum(self.operations)


@dataclass
class _Chain:
    """The state of the chain as it grows, and the two random sources."""

    facts: random.Random  # what the questions read
    picks: random.Random  # which drawn value a record copies
    pools: Pools
    header_encoding: Any
    predecessor: BlockHash
    level: int = FIRST_LEVEL
    timestamp: int = FIRST_TIMESTAMP
    previous_timestamp: int = FIRST_TIMESTAMP

    def pick(self, kind: str) -> dict[str, Any]:
        """A copy of a drawn content of ``kind``; a double baking's two
        headers made the previous level's, at its time, as real evidence is
        (a drawn header's timestamp may be any ``int64``, which Parquet,
        counting milliseconds, cannot hold past the year 292 277 026)."""
        content = dict(self.picks.choice(self.pools.contents[kind]))
        if kind == "double_baking_evidence":
            for name in ("bh1", "bh2"):
                content[name] = dict(
                    content[name], level=self.level - 1, timestamp=self.previous_timestamp
                )
        return content

    def block(self) -> tuple[bytes, list[dict[str, Any]]]:
        """The next block's header bytes, and its operations' values."""
        priority = self.facts.choices(range(len(PRIORITY_WEIGHTS)), PRIORITY_WEIGHTS)[0]
        self.previous_timestamp = self.timestamp
        self.timestamp += MINIMAL_DELAY + DELAY_PER_PRIORITY * priority + self.facts.randrange(3)
        header = dict(
            self.picks.choice(self.pools.headers),
            level=self.level,
            proto=PROTO_LEVEL,
            predecessor=self.predecessor,
            timestamp=self.timestamp,
            validation_pass=4,  # Delphi's: endorsements, votes, anonymous, managers
            fitness=[b"\x01", (self.level - FIRST_LEVEL + 1).to_bytes(8, "big")],
            priority=priority,
        )
        data: bytes = self.header_encoding.encode(header)
        operations = [self.operation(group) for group in self.groups()]
        self.predecessor = BlockHash(hashlib.blake2b(data, digest_size=32).digest())
        self.level += 1
        return data, operations

    def groups(self) -> Iterator[list[dict[str, Any]]]:
        """The contents of each operation of the block at ``self.level``."""
        for _ in range(self.facts.randint(1, 3)):
            yield [{"kind": "endorsement", "level": self.level - 1}]
        for _ in range(self.facts.choices((0, 1, 2), (30, 50, 20))[0]):
            kind = self.facts.choices(MANAGER_KINDS, MANAGER_WEIGHTS)[0]
            if kind in ("delegation", "origination"):
                yield [self.pick(kind)]
                continue
            reveal = [self.pick("reveal")] if kind == "reveal+transaction" else []
            transactions = [
                # log-uniform from 1 mutez to 10 000 tez
                dict(self.pick("transaction"), amount=int(10 ** self.facts.uniform(0, 10)))
                for _ in range(self.facts.choices((1, 2, 3), (85, 10, 5))[0])
            ]
            yield reveal + transactions
        if self.facts.random() < RARE_CHANCE:
            yield [self.pick(self.facts.choice(RARE_KINDS))]

    def operation(self, contents: list[dict[str, Any]]) -> dict[str, Any]:
        signature = self.picks.choice(self.pools.headers)["signature"]
        return {"branch": self.predecessor, "contents": contents, "signature": signature}


def generate(
    directory: Path, blocks: int, partitions: int, seed: int, suffix: str = ".bin"
) -> History:
    """Write a history of ``blocks`` blocks in ``partitions`` partitions of
    consecutive levels (as equal as can be) under ``directory``:
    ``headers/part-00000{suffix}``... and ``operations/part-00000{suffix}``...,
    the operations of a partition's blocks in the operations' partition of
    the same number, in the order of their blocks. ``suffix`` names the
    format (:mod:`.records`)."""
    if not 0 < partitions <= blocks:
        raise ValueError(f"{partitions} partitions of {blocks} blocks")
    pools = draw_pools(seed)
    header_encoding = registry.find(f"proto.{PROTOCOL}.block_header").encoding
    operation_encoding = registry.find(f"proto.{PROTOCOL}.operation").encoding
    chain = _Chain(
        random.Random(seed),
        random.Random(f"picks {seed}"),
        pools,
        header_encoding,
        pools.headers[0]["predecessor"],
    )
    history = History()
    for kind in ("headers", "operations"):
        (directory / kind).mkdir(parents=True, exist_ok=True)
    for number in range(partitions):
        headers: list[bytes] = []
        operations: list[bytes] = []
        for _ in range(blocks * (number + 1) // partitions - blocks * number // partitions):
            header, values = chain.block()
            headers.append(header)
            operations += [operation_encoding.encode(value) for value in values]
        name = f"part-{number:05d}{suffix}"
        write_records(directory / "headers" / name, headers)
        write_records(directory / "operations" / name, operations)
        history.headers.append(len(headers))
        history.operations.append(len(operations))
    return history
