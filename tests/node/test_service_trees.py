"""The service trees of the two schema dialects, and real ``/describe`` answers through them.

``rpc.service_tree`` is the tree the seed's node publishes, its binary schemas
in the legacy dialect; ``rpc.service_tree_v1`` is the same tree over
data-encoding 1.0's (``binary_schema_v1``), and each part of the tree that
holds a schema has its twin too (``rpc.service_v1``, ``rpc.schemas_v1``,
``rpc.binary_schema_v1``). Both read every spelling real answers use and print
each part back in its words. In binary, a legacy id refuses what its dialect
cannot state (``not_in_dialect``) and names its twin, which states it.

The real answers (``tests/vectors/``): the 2021 one, in legacy words,
round-trips in binary through ``rpc.service_tree``; the 2022 one, in
data-encoding 0.5.3's (``"Float"`` sizes beside ``exactly`` limits), only
through ``rpc.service_tree_v1``, whose bytes carry no words: read back, they
print in 1.0's (``"Fixed"``).
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import EncodeError
from data_encoding.jsonvalue import dumps, loads
from data_encoding.node import registry
from golden import VECTORS, one_zero_words, text_members

TWINS = {
    "rpc.binary_schema": "rpc.binary_schema_v1",
    "rpc.schemas": "rpc.schemas_v1",
    "rpc.service": "rpc.service_v1",
    "rpc.service_tree": "rpc.service_tree_v1",
}
"""Each legacy id that holds a binary schema, and its 1.0 twin."""

NAMED = {**TWINS, "rpc.binary_schema": "binary_schema_v1"}
"""What a legacy id's refusal names: its twin (the bare schema by its public name)."""

PENDING = ("static", "subdirs", "suffixes", 2, "tree", "static", "get_service")
"""Where, in the 2022 answer, the service is whose output holds its ``exactly`` limits."""

AT = {
    "rpc.service_tree": (),
    "rpc.service": PENDING,
    "rpc.schemas": (*PENDING, "output"),
    "rpc.binary_schema": (*PENDING, "output", "binary_schema"),
}
"""Where each id's value is, in the 2022 answer."""

FIRST_EXACT = (*PENDING, "output", "binary_schema", "fields", 18, "encoding", "cases", 17)
FIRST_EXACT_LAYOUT = (*FIRST_EXACT, "fields", 1, "layout")
"""The layout of the answer's first ``exactly`` limit."""


def _text(year: int) -> str:
    return (VECTORS / f"describe-mempool-{year}.json").read_text(encoding="utf-8")


def _at(document: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def test_the_real_answers_speak_two_dialects() -> None:
    """2021: legacy's words; 2022: 0.5.3's, ``"Float"`` sizes beside ``exactly`` limits."""
    words = ['"Float"', '"Fixed"', '"max_length"', '"length_limit"', '"exactly"']
    assert {year: [_text(year).count(w) for w in words] for year in (2021, 2022)} == {
        2021: [92, 0, 0, 0, 0],
        2022: [290, 0, 0, 2, 4],
    }


def test_the_twins_are_registered_beside_their_legacy_ids() -> None:
    for legacy, twin in TWINS.items():
        assert registry.find(twin).section == registry.find(legacy).section
    assert registry.find("rpc.binary_schema_v1").description == (
        "a binary schema (data-encoding 1.0 dialect)"
    )
    assert registry.find("rpc.service_tree_v1").description == (
        "the /describe answer: a tree of services (data-encoding 1.0 dialect)"
    )


@pytest.mark.parametrize("legacy", sorted(TWINS))
def test_a_legacy_id_refuses_what_it_cannot_state_and_names_its_twin(legacy: str) -> None:
    document = _at(loads(_text(2022)), AT[legacy])
    e = registry.find(legacy).encoding
    value = e.from_json(document)
    with pytest.raises(EncodeError) as caught:
        e.encode(value)
    assert caught.value.code == "not_in_dialect"
    assert caught.value.message == (
        f"the legacy schema dialect cannot state an exact sequence length: use {NAMED[legacy]}"
    )
    assert caught.value.path == FIRST_EXACT_LAYOUT[len(AT[legacy]) :]
    # the twin states it, and reads the document to the same value
    twin = registry.find(TWINS[legacy]).encoding
    assert twin.from_json(document) == value
    assert twin.decode(twin.encode(value)) == value


@pytest.mark.parametrize("year", [2021, 2022])
@pytest.mark.parametrize("id", ["rpc.service_tree", "rpc.service_tree_v1"])
def test_a_real_answer_prints_back_as_it_was_sent(year: int, id: str) -> None:
    text = _text(year)
    e = registry.find(id).encoding
    assert text_members(dumps(e.to_json(e.from_json(loads(text))))) == text_members(text)


@pytest.mark.parametrize(
    ("year", "id", "words"),
    [
        (2021, "rpc.service_tree", "as sent"),
        (2021, "rpc.service_tree_v1", "1.0"),
        (2022, "rpc.service_tree_v1", "1.0"),
    ],
)
def test_a_real_answer_round_trips_in_binary(year: int, id: str, words: str) -> None:
    text = _text(year)
    e = registry.find(id).encoding
    raw = e.json_to_bytes(text)
    assert e.decode(raw) == e.from_json(loads(text))
    assert e.encode(e.decode(raw)) == raw
    sent = text_members(text)
    assert text_members(e.bytes_to_json(raw)) == (
        sent if words == "as sent" else one_zero_words(sent)
    )
