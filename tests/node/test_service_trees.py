"""The service trees of the two schema dialects and their parts.

``rpc.service_tree`` is the tree the seed's node publishes, its binary schemas
in the legacy dialect; ``rpc.service_tree_v1`` is the same tree over
data-encoding 1.0's (``binary_schema_v1``), and each part of the tree that
holds a schema has its twin too (``rpc.service_v1``, ``rpc.schemas_v1``,
``rpc.binary_schema_v1``). Both read every spelling and print each part back
in its words (real answers through them: ``test_real_answers.py``). In
binary, a legacy id refuses what its dialect cannot state
(``not_in_dialect``), naming its own twin, which states it.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import EncodeError
from data_encoding.jsonvalue import loads
from data_encoding.node import registry
from golden import VECTORS

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
"""Where, in the 2022 answer, the service is whose output holds ``exactly`` limits."""

AT = {
    "rpc.service_tree": (),
    "rpc.service": PENDING,
    "rpc.schemas": (*PENDING, "output"),
    "rpc.binary_schema": (*PENDING, "output", "binary_schema"),
}
"""Where each id's value is, in the 2022 answer."""

FIRST_EXACT = (
    *(*PENDING, "output", "binary_schema"),
    *("fields", 18, "encoding", "cases", 17, "fields", 1, "layout"),
)
"""The layout that holds the answer's first ``exactly`` limit."""


def _at(document: Any, path: tuple[str | int, ...]) -> Any:
    for step in path:
        document = document[step]
    return document


def test_the_twins_are_registered_beside_their_legacy_ids() -> None:
    for legacy, twin in TWINS.items():
        assert registry.find(twin).section == registry.find(legacy).section
        assert registry.find(legacy).description.endswith(" (legacy dialect)")
        assert registry.find(twin).description == registry.find(legacy).description.replace(
            "(legacy dialect)", "(data-encoding 1.0 dialect)"
        )


@pytest.mark.parametrize("legacy", sorted(TWINS))
def test_a_legacy_id_refuses_what_it_cannot_state_and_names_its_twin(legacy: str) -> None:
    answer = loads((VECTORS / "describe-mempool-2022.json").read_text(encoding="utf-8"))
    document = _at(answer, AT[legacy])
    e = registry.find(legacy).encoding
    value = e.from_json(document)
    with pytest.raises(EncodeError) as caught:
        e.encode(value)
    assert caught.value.code == "not_in_dialect"
    assert caught.value.message == (
        f"the legacy schema dialect cannot state an exact sequence length: use {NAMED[legacy]}"
    )
    assert caught.value.path == FIRST_EXACT[len(AT[legacy]) :]
    # the twin reads the document to the same value, and states it
    twin = registry.find(TWINS[legacy]).encoding
    assert twin.from_json(document) == value
    assert twin.decode(twin.encode(value)) == value
