"""Real ``/describe`` answers of 2021 and 2022 nodes (``tests/vectors/``), read as
they were sent (issue 28): every member kept, in order, the objects that give
``"kind"`` twice included (the JSON schema of ``sc_rollup_originate``).

Each prints back as sent through either service tree, and round-trips in
binary through the tree of its schemas' dialect: ``rpc.service_tree`` for
the legacy words, ``rpc.service_tree_v1`` for the answers with 1.0's
``length_limit`` (``exactly`` limits), which the legacy binary form cannot
state. Every answer round-trips through ``rpc.service_tree_v1`` too; bytes
carry no words, so what they read back to prints 1.0's (``"Fixed"`` sizes)."""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import EncodeError, RepeatedMembers
from data_encoding.jsonvalue import JsonValue, dumps, loads
from data_encoding.node import registry
from golden import DESCRIBE_ANSWERS, VECTORS, one_zero_words

LEGACY_TREE = "rpc.service_tree"
V1_TREE = "rpc.service_tree_v1"

CONTENTS = {
    # answer: the schema of an operation's contents, and its sc_rollup_originate case
    "describe-mempool-2022.json": ("013-PtJakart.operation.alpha.contents", 25),
    "describe-mempool-alpha-2022-01-24.json": ("alpha.operation.alpha.contents", 17),
    "describe-mempool-alpha-2022-06-02.json": ("alpha.operation.alpha.contents", 27),
}
"""Where an answer gives ``"kind"`` twice: in the JSON schema of the output of
``monitor_operations`` and of ``pending_operations`` (suffixes 2 and 3)."""

ANSWERS = tuple(DESCRIBE_ANSWERS)
NEWER_WORDS = tuple(name for name, tree in DESCRIBE_ANSWERS.items() if tree == V1_TREE)
"""The answers whose schemas use 1.0's ``length_limit`` (``exactly`` limits)."""
LEGACY_WORDS = tuple(name for name in ANSWERS if name not in NEWER_WORDS)
"""The answers whose schemas use the legacy words only."""
THROUGH = [(name, LEGACY_TREE) for name in LEGACY_WORDS] + [(name, V1_TREE) for name in ANSWERS]
"""Each answer, and a tree that states it in binary."""


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
def test_an_answers_words_are_those_it_is_listed_under(name: str) -> None:
    assert ('"length_limit"' in _text(name)) == (name in NEWER_WORDS)
    assert '"max_length"' not in _text(name)  # (one_zero_words relies on it)


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


@pytest.mark.parametrize("tree", [LEGACY_TREE, V1_TREE])
@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_prints_back_as_it_was_sent(name: str, tree: str) -> None:
    text = _text(name)
    answer = loads(text)
    e = registry.find(tree).encoding
    printed = e.to_json(e.from_json(answer))
    assert printed == answer
    assert dumps(printed) == dumps(answer)
    if name != "describe-mempool-2021.json":  # the 2022 texts are in Python's layout
        assert dumps(printed, indent=2) + "\n" == text


@pytest.mark.parametrize(("name", "tree"), THROUGH)
def test_an_answer_round_trips_in_binary(name: str, tree: str) -> None:
    answer = loads(_text(name))
    e = registry.find(tree).encoding
    data = e.json_to_bytes(_text(name))
    assert e.encode(e.from_json(answer)) == data
    assert e.decode(data) == e.from_json(answer)
    printed = answer if tree == LEGACY_TREE else one_zero_words(answer)
    assert e.decode_json(data) == printed
    assert e.bytes_to_json(data) == dumps(printed)


@pytest.mark.parametrize("name", NEWER_WORDS)
def test_an_answer_in_newer_words_has_no_legacy_binary_form(name: str) -> None:
    e = registry.find(LEGACY_TREE).encoding
    with pytest.raises(EncodeError) as caught:
        e.json_to_bytes(_text(name))
    assert (caught.value.code, caught.value.message) == (
        "not_in_dialect",
        "the legacy schema dialect cannot state an exact sequence length: use rpc.service_tree_v1",
    )
