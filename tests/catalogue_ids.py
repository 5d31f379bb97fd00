"""The catalogue's ids, as the tests that run over every id take them.

A test that is a function of an id's *encoding* alone (its strategies,
hostile inputs, properties, schemas, deep templates) runs once per encoding:
several ids name one encoding (a protocol's ``tez`` is its predecessor's
very object, ``rpc.error`` and ``rpc.errors`` are one encoding), and what
holds of an encoding holds under each of its names. A test of samples runs
once per sample and encoding: ids that name one encoding have the same
samples (their files differ by their ``id`` member alone), checked under
the first of those ids that has each. Both are derived from the registry:
an id registered later joins them as it should.
``test_catalogue.py::test_every_sample_file_is_its_ids_and_checked_under_its_encoding``
keeps each sample file bound to the encoding whose samples were checked.
"""

from __future__ import annotations

import builtins
import json

from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry

IDS = registry.ids()
"""Every registered id, sorted."""

ENCODING_IDS = [id for id in IDS if registry.id_of(registry.find(id).encoding) == id]
"""One id per distinct encoding: the first registered of its ids."""

KINDS = ("valid", "invalid")
"""The kinds of samples an id's file holds."""

Sample = dict[str, JsonValue]


def sample_key(id: str, kind: str, sample: Sample) -> tuple[str, int, str]:
    """What makes a sample of ``id`` the same check under another id: its
    kind, the encoding it is of (the object itself) and its content."""
    encoding = registry.find(id).encoding
    return (kind, builtins.id(encoding), json.dumps(sample, sort_keys=True))


def _own_samples() -> dict[str, dict[str, list[Sample]]]:
    seen: set[tuple[str, int, str]] = set()
    found: dict[str, dict[str, list[Sample]]] = {}
    for id in IDS:
        own: dict[str, list[Sample]] = {kind: [] for kind in KINDS}
        for kind in KINDS:
            for sample in registry.find(id).samples[kind]:
                key = sample_key(id, kind, sample)
                if key not in seen:
                    seen.add(key)
                    own[kind].append(sample)
        if any(own.values()):
            found[id] = own
    return found


OWN_SAMPLES = _own_samples()
"""The samples of each kind checked under each id: those no earlier id of
its encoding has (an id whose samples all are an earlier one's is left out)."""

SAMPLED_IDS = list(OWN_SAMPLES)
"""The ids some sample is checked under, in order."""


def own_samples(kind: str) -> list[tuple[str, Sample]]:
    """Each sample of ``kind`` to check, with the id it is checked under."""
    return [(id, sample) for id, own in OWN_SAMPLES.items() for sample in own[kind]]


def encoding_samples(id: str, kind: str) -> list[Sample]:
    """Every sample of ``kind`` of the encoding ``id`` names, under whichever
    of its ids (each once)."""
    e = registry.find(id).encoding
    return [
        sample
        for other, own in OWN_SAMPLES.items()
        if registry.find(other).encoding is e
        for sample in own[kind]
    ]
