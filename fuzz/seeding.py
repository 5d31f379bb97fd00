"""A first corpus for an id: its valid samples' bytes, and values its strategy draws.

libFuzzer mutates what it is given; starting from bytes that decode lets it
reach the deep parts of a record at once instead of rediscovering its
framing byte by byte. The strategy's values add shapes the samples lack
(empty lists, absent options, other union cases). The draw is derandomised:
the same id seeds the same files at every run.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings

from data_encoding.node.registry import Entry


def sample_bytes(entry: Entry) -> list[bytes]:
    """The bytes of the id's valid samples, in the samples' order."""
    return [bytes.fromhex(str(sample["hex"])) for sample in entry.samples["valid"]]


def drawn_bytes(entry: Entry, count: int) -> list[bytes]:
    """The bytes of up to ``count`` values of the id's strategy (fewer when it
    has fewer distinct values), the same at every run."""
    if count <= 0:
        return []
    e = entry.encoding
    found: list[bytes] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(e.strategy())
    def collect(value: Any) -> None:
        found.append(e.encode(value))

    collect()
    return found


def seed(entry: Entry, folder: Path, drawn: int) -> int:
    """Fill ``folder`` with the id's first corpus when it has no file yet.

    A file is named by the SHA-1 of its bytes, as libFuzzer names the units
    it adds, so a value seeded twice is one file. Returns how many files
    were written (0 for a folder that already had a corpus: a campaign goes
    on from where the last one stopped)."""
    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        return 0
    written = 0
    for data in sample_bytes(entry) + drawn_bytes(entry, drawn):
        path = folder / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
            written += 1
    return written
