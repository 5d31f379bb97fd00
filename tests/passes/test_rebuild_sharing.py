"""Entries shared between schema pairs (``passes/schema/sharing``): an entry
met again in another pair is the encoding built the first time, and every
rebuild is what it is with nothing shared (a process's first)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data_encoding import (
    VARIABLE,
    DataEncodingError,
    DefinitionError,
    Encoding,
    constant,
    def_,
    dynamic_size,
    from_schema,
    int8,
    list_,
    max_depth,
    obj,
    req,
    set_max_depth,
)
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.passes.schema import rebuild, sharing
from data_encoding.passes.schema.jsonguide import Guide
from data_encoding.passes.schema.rebuilder import Rebuilder
from random_dsl import encodings

Rebuilt = tuple[Any, ...] | str


def _rebuilt(e: Encoding[Any], json: bool = True) -> Encoding[Any]:
    """``e`` rebuilt from its schema pair, not from the pairs' cache."""
    rebuild._rebuilt.cache_clear()
    return from_schema(e.describe(), e.json_schema() if json else None)


def _first_time(e: Encoding[Any], json: bool = True) -> Encoding[Any]:
    """``e`` rebuilt as a process's first rebuild is: nothing shared yet."""
    sharing.forget()
    return _rebuilt(e, json)


def _as_built(f: Any, e: Encoding[Any], json: bool, value: Any = None) -> Rebuilt:
    """What ``f(e, json)`` builds, as far as it shows: its binary and JSON
    schemas and the JSON of ``value``'s bytes; or the refusal."""
    try:
        rebuilt = f(e, json)
    except DefinitionError as error:
        return str(error)
    json_schema: JsonValue = rebuilt.json_schema() if json else None
    try:  # (some rebuild otherwise: bytes their schema does not state)
        shown = None if value is None else rebuilt.to_json(rebuilt.decode(e.encode(value)))
    except DataEncodingError as error:
        shown = str(error)
    return (rebuilt.describe(), json_schema, shown)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The entries a rebuild takes from those shared (their names)."""
    names: list[str] = []
    take = Rebuilder.take

    def noted(self: Rebuilder, name: str, shared: sharing.Shared) -> Encoding[Any]:
        names.append(name)
        return take(self, name, shared)

    monkeypatch.setattr(Rebuilder, "take", noted)
    sharing.forget()
    yield names
    sharing.forget()


def test_an_operation_in_two_schemas_is_built_once(taken: list[str]) -> None:
    # a node's answer states an operation in many services: in a list here
    # (its entries numbered otherwise), as in a block's operations
    operation = registry.find("proto.psdelph1.operation.data_and_metadata").encoding
    _rebuilt(operation)
    # the named way takes what the anonymous way built before it (the
    # entries that reach no X_<n>)
    assert taken == [
        "contract_id",
        "inlined.endorsement",
        "block_header.alpha.full_header",
        "N.t",
        "entrypoint",
        "Z.t",
        "scripted.contracts",
    ]
    taken.clear()
    in_a_list = list_(dynamic_size(operation))
    listed = _rebuilt(in_a_list)
    # the anonymous way takes them too, and entries X_<n> numbered otherwise
    # here (the balance updates, the internal operations' results); an entry
    # that uses one built before it (by the schema's top) is built again;
    # then the named way takes what reaches no X_<n>
    reaching_none = ["contract_id", "inlined.endorsement", "block_header.alpha.full_header", "N.t"]
    assert taken == [
        *reaching_none,
        "X_266",
        "X_3",
        "X_256",
        "scripted.contracts",
        *reaching_none,
        "entrypoint",
        "Z.t",
        "scripted.contracts",
    ]
    assert _as_built(lambda e, _: listed, in_a_list, True) == _as_built(
        _first_time, in_a_list, True
    )


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(encodings(), st.booleans(), st.data())
def test_a_rebuild_is_what_it_is_with_nothing_shared(
    built: tuple[Any, Encoding[Any]], json: bool, data: st.DataObject
) -> None:
    # the same encoding at other places (in a record, twice, and in a
    # list): its entries built for one pair are shared with the next
    _, e = built
    framed = dynamic_size(e) if e.size is VARIABLE else e
    places = [e, obj(req("a", framed), req("b", list_(dynamic_size(framed))))]
    value = [data.draw(p.strategy()) for p in places]
    sharing.forget()
    try:
        shared = [_as_built(_rebuilt, p, json, v) for p, v in zip(places, value, strict=True)]
    except DefinitionError:  # no JSON schema (two definitions of one name)
        return
    alone = [_as_built(_first_time, p, json, v) for p, v in zip(places, value, strict=True)]
    assert shared == alone


def test_an_entry_is_shared_where_its_place_says_the_same_json(taken: list[str]) -> None:
    # one entry, one definition: the places' JSON schemas inline it, once
    # with a constant member (zero-width: only the JSON schema says it)
    foo = def_("foo", obj(req("a", int8), req("b", int8)))
    e = obj(req("x", foo), req("y", int8))
    plain: Any = e.json_schema()
    with_kind = obj(
        req("x", def_("foo", obj(req("kind", constant("k")), req("a", int8), req("b", int8))))
    )
    kind_schema: Any = with_kind.json_schema()
    inlined = {**plain, "properties": {**plain["properties"], "x": plain["definitions"]["foo"]}}
    with_a_kind = {
        **plain,
        "properties": {**plain["properties"], "x": kind_schema["definitions"]["foo"]},
    }
    data = bytes([1, 2, 3])
    rebuild._rebuilt.cache_clear()
    first = from_schema(e.describe(), inlined)
    assert first.to_json(first.decode(data)) == {"x": {"a": 1, "b": 2}, "y": 3}
    second = from_schema(e.describe(), with_a_kind)
    assert second.to_json(second.decode(data)) == {"x": {"kind": "k", "a": 1, "b": 2}, "y": 3}
    assert taken == []  # (the same entry, the same definition: another place)


def test_the_json_at_each_place_is_digested_once_whatever_its_nesting() -> None:
    # a place's JSON schema holds the places inside it: digesting each
    # place's text would cost the nesting times the size (untrusted input)
    levels: list[Any] = [{"type": "integer"}]
    for _ in range(200):
        levels.append({"type": "object", "properties": {"a": levels[-1]}})
    digests = sharing.Digests({}, Guide({"definitions": {}}))
    for level in levels:  # as the rebuilding meets them, inner ones first or not
        digests.place(level)
    # each level and its properties once, "object", the innermost and "integer"
    assert len(digests.parts) == 2 * 200 + 3
    again = sharing.Digests({}, Guide({"definitions": {}}))
    assert again.place(copy.deepcopy(levels[-1])) == digests.place(levels[-1])
    other = copy.deepcopy(levels[-1])
    other["properties"]["a"]["type"] = "array"
    assert again.place(other) != digests.place(levels[-1])


def test_a_shared_entry_nests_no_deeper_than_allowed(taken: list[str]) -> None:
    def record(name: str, inner: Encoding[Any]) -> Encoding[Any]:
        return def_(name, obj(req("v", inner), req("w", int8)))

    chain = record("a", record("b", record("c", int8)))  # entries b, then c
    deeper = record("p", record("q", chain))  # entries q, a, b, c
    limit = max_depth()
    set_max_depth(3)
    try:
        _rebuilt(chain, json=False)
        with pytest.raises(DefinitionError) as shared:
            _rebuilt(deeper, json=False)
        with pytest.raises(DefinitionError) as alone:
            _first_time(deeper, json=False)
    finally:
        set_max_depth(limit)
    assert taken == []
    assert (
        str(shared.value)
        == str(alone.value)
        == (
            "from_schema: fields['b'].fields[0]: entries refer to entries more than 3 deep "
            "(data_encoding.set_max_depth raises the limit)"
        )
    )
    _rebuilt(chain, json=False)  # (within the usual limit, it is shared)
    _rebuilt(deeper, json=False)
    assert taken == ["b"]
