"""Real ``/describe`` answers of 2021 and 2022 nodes (``tests/vectors/``), read as
they were sent (issue 28): every member kept, in order, the objects that give
``"kind"`` twice included (the JSON schema of ``sc_rollup_originate``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from data_encoding import RepeatedMembers
from data_encoding.jsonvalue import JsonValue, dumps, loads
from data_encoding.node import registry

VECTORS = Path(__file__).parent.parent / "vectors"
SERVICE_TREE = registry.find("rpc.service_tree").encoding

CONTENTS = {
    # answer: the schema of an operation's contents, and its sc_rollup_originate case
    "describe-mempool-2022.json": ("013-PtJakart.operation.alpha.contents", 25),
    "describe-mempool-alpha-2022-01-24.json": ("alpha.operation.alpha.contents", 17),
    "describe-mempool-alpha-2022-06-02.json": ("alpha.operation.alpha.contents", 27),
}
"""Where an answer gives ``"kind"`` twice: in the JSON schema of the output of
``monitor_operations`` and of ``pending_operations`` (suffixes 2 and 3)."""

ANSWERS = (
    "describe-mempool-2021.json",
    "describe-mempool-2022.json",
    "describe-mempool-alpha-2022-01-24.json",
    "describe-mempool-alpha-2022-06-02.json",
    "describe-mempool-ithaca-2022-06-09.json",
)
LEGACY_WORDS = (
    "describe-mempool-2021.json",
    "describe-mempool-alpha-2022-01-24.json",
    "describe-mempool-ithaca-2022-06-09.json",
)
"""The answers whose schemas use the legacy words only (no ``length_limit``)."""


def _text(name: str) -> str:
    return (VECTORS / name).read_text()


def _repeated(value: JsonValue, at: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Where ``value`` has an object with a name given twice, and its members of that name."""
    found: list[tuple[tuple[Any, ...], Any]] = []
    if isinstance(value, RepeatedMembers):
        twice = [x for name, x in value.members if name == value.repeated]
        found.append((at, (value.repeated, twice)))
    if isinstance(value, dict):
        for name, item in value.items():
            found += _repeated(item, (*at, name))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _repeated(item, (*at, i))
    return found


def test_every_answer_in_the_vectors_is_tried() -> None:
    assert sorted(p.name for p in VECTORS.glob("describe-*.json")) == sorted(ANSWERS)


@pytest.mark.parametrize("name", ANSWERS)
def test_the_objects_that_give_a_member_twice_are_read_whole(name: str) -> None:
    twice = (
        "kind",
        [
            {"type": "string", "enum": ["sc_rollup_originate"]},
            {"oneOf": [{"title": "Example_arith smart contract rollup kind"}]},
        ],
    )
    expected = [
        (
            ("static", "subdirs", "suffixes", suffix, "tree", "static", "get_service", "output"),
            ("json_schema", "definitions", CONTENTS[name][0], "oneOf", CONTENTS[name][1]),
            ("properties",),
        )
        for suffix in (2, 3)
        if name in CONTENTS
    ]
    assert _repeated(loads(_text(name))) == [(sum(at, ()), twice) for at in expected]


@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_prints_back_as_it_was_sent(name: str) -> None:
    text = _text(name)
    answer = loads(text)
    printed = SERVICE_TREE.to_json(SERVICE_TREE.from_json(answer))
    assert printed == answer
    assert dumps(printed) == dumps(answer)
    if name != "describe-mempool-2021.json":  # the 2022 texts are in Python's layout
        assert dumps(printed, indent=2) + "\n" == text


@pytest.mark.parametrize("name", LEGACY_WORDS)
def test_an_answer_in_the_legacy_words_round_trips_in_binary(name: str) -> None:
    answer = loads(_text(name))
    data = SERVICE_TREE.json_to_bytes(_text(name))
    assert SERVICE_TREE.encode(SERVICE_TREE.from_json(answer)) == data
    assert SERVICE_TREE.decode_json(data) == answer
    assert SERVICE_TREE.bytes_to_json(data) == dumps(answer)
