"""``Directory.from_describe``: a directory read from a ``/describe`` answer,
with a codec rebuilt per body (issue 31)."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data_encoding import Encoding, binary_schema_v1, from_schema
from data_encoding.jsonvalue import dumps, loads
from data_encoding.node import registry, rpc
from data_encoding.node.keys import output_family
from data_encoding.node.rpc import Directory, NotFound, Service
from data_encoding.passes.schema import BinarySchema
from data_encoding.passes.schema import values as bs
from data_encoding.tree.wrappers import Delayed
from golden import DESCRIBE_ANSWERS, VECTORS
from rebuild_kinds import expected_refusal

MEMPOOL = "/chains/main/mempool"
"""Where the real answers of the vectors were asked for."""


def _answer(name: str) -> str:
    return (VECTORS / name).read_text(encoding="utf-8")


def _bodies(directory: Directory) -> list[tuple[str, str, Encoding[Any], BinarySchema]]:
    """Every body of every service: where, which, its codec and its published schema."""
    found = []
    for path, service in directory.walk():
        published = service.described
        for which in ("input", "output", "error"):
            if published[which] is not None:
                schema = published[which]["binary_schema"]
                found.append((rpc.path_text(path), which, getattr(service, which), schema))
    return found


@pytest.mark.parametrize("name", sorted(DESCRIBE_ANSWERS))
def test_a_real_answer_prints_back_as_it_was_sent(name: str) -> None:
    text = _answer(name)
    directory = Directory.from_describe(text, at=MEMPOOL)
    tree = registry.find("rpc.service_tree_v1").encoding
    assert dumps(tree.to_json(directory.describe(MEMPOOL))) == dumps(loads(text))


ZARITH = frozenset({"N.t", "Z.t"})


def _zarith_words_aside(schema: BinarySchema) -> BinarySchema:
    """``schema`` with the descriptions of its Zarith entries set aside: the
    nodes of 2021-2022 give them 1.0's words in otherwise legacy schemas."""
    entries = tuple(
        bs.Entry(bs.Description(e.description.title), e.encoding)
        if e.description.title in ZARITH
        else e
        for e in schema.fields
    )
    return BinarySchema(schema.toplevel, entries)


@pytest.mark.parametrize("name", sorted(DESCRIBE_ANSWERS))
def test_every_body_of_a_real_answer_rebuilds(name: str) -> None:
    directory = Directory.from_describe(loads(_answer(name)), at=MEMPOOL)
    bodies = _bodies(directory)
    assert len(bodies) >= 20
    for where, which, e, schema in bodies:
        assert _zarith_words_aside(e.describe()) == _zarith_words_aside(schema), (where, which)


def test_a_service_is_found_by_its_concrete_path() -> None:
    directory = Directory.from_describe(_answer("describe-mempool-2021.json"), at=MEMPOOL)
    service = directory.service("GET", f"{MEMPOOL}/pending_operations")
    assert (service.method, service.path) == ("GET", ("pending_operations",))
    assert directory.service("POST", f"{MEMPOOL}/ban_operation").input is not None
    with pytest.raises(NotFound, match="no 'nothing' here"):
        directory.service("GET", f"{MEMPOOL}/nothing")
    with pytest.raises(NotFound, match="GET /chains/main/mempool/ban_operation: no such service"):
        directory.service("GET", f"{MEMPOOL}/ban_operation")


def test_the_bodies_are_rebuilt_on_first_use_and_shared() -> None:
    directory = Directory.from_describe(_answer("describe-mempool-2022.json"), at=MEMPOOL)
    errors = [e for _, which, e, _ in _bodies(directory) if which == "error"]
    assert len(errors) == 8  # services
    assert all(isinstance(e, Delayed) and "inner" not in vars(e) for e in errors)  # not yet
    assert len({id(e.inner) for e in errors if isinstance(e, Delayed)}) == 1  # one schema, one


# ---------------------------------------------------------------- the catalogue's tree


BLOCK = "/chains/main/blocks/head"
ANSWERED = {"/": "", BLOCK: "/chains/<chain_id>/blocks/<block_id>"}
"""The paths the catalogue's answers are asked for, and where their
services' paths start in the catalogue's ``walk``."""


def _catalogue_answer(at: str) -> Any:
    tree = registry.find("rpc.service_tree").encoding
    return tree.to_json(rpc.describe(at, protocol="007-PsDELPH1"))


REBUILT: dict[tuple[str, str], Service] = {
    (service.method, ANSWERED[at] + rpc.path_text(service.path).rstrip("/")): service
    for at in ANSWERED
    for _, service in Directory.from_describe(_catalogue_answer(at), at=at, dialect="legacy").walk()
}
"""Every service of the catalogue's answers, rebuilt, by method and full path."""


@pytest.mark.parametrize("at", ANSWERED)
def test_the_catalogues_answer_prints_back_in_json_and_binary(at: str) -> None:
    tree = registry.find("rpc.service_tree").encoding
    answer = _catalogue_answer(at)
    directory = Directory.from_describe(answer, at=at, dialect="legacy")
    assert tree.to_json(directory.describe(at)) == answer
    data = tree.encode(tree.from_json(answer))
    again = Directory.from_describe(data, at=at, dialect="legacy")
    assert tree.encode(again.describe(at)) == data


SERVICES = [
    (service.method, rpc.path_text(path), which, getattr(service, which))
    for path, service in rpc.directory_of(protocol="007-PsDELPH1").walk()
    if service.typed
    for which in ("input", "output")
    if getattr(service, which) is not None
    and expected_refusal(getattr(service, which).describe()) is None
]


@pytest.mark.parametrize(
    ("method", "path", "which", "e"),
    SERVICES,
    ids=[f"{m} {p}-{w}" for m, p, w, _ in SERVICES],
)
@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_the_catalogues_codecs_rebuilt_from_its_answers_agree(
    method: str, path: str, which: str, e: Encoding[Any], data: st.DataObject
) -> None:
    rebuilt: Encoding[Any] = getattr(REBUILT[method, path], which)
    encoded = e.encode(data.draw(e.strategy()))
    assert rebuilt.encode(rebuilt.decode(encoded)) == encoded


# ---------------------------------------------------------------- pickling


def _decode_there(e: Encoding[Any], data: bytes) -> Any:
    return e.decode(data)


def test_a_rebuilt_encoding_pickles_as_its_schema_and_works_in_a_worker() -> None:
    schema = registry.find("shell.block_header").encoding.describe()
    e = from_schema(binary_schema_v1.to_json(schema))
    assert from_schema(schema) is e  # rebuilt once
    assert pickle.loads(pickle.dumps(e)) is e  # from the cache
    pair = from_schema(schema, registry.find("shell.block_header").encoding.json_schema())
    assert pair is not e and pickle.loads(pickle.dumps(pair)) is pair  # with the primitives
    header = registry.find("shell.block_header").encoding
    data = next(
        bytes.fromhex(str(s["hex"]))
        for s in __import__("catalogue_ids").encoding_samples("shell.block_header", "valid")
        if "hex" in s
    )
    with ProcessPoolExecutor(max_workers=1) as pool:
        there = pool.submit(_decode_there, e, data).result()
    assert there == e.decode(data)
    assert e.encode(there) == data == header.encode(header.decode(data))


def _protocol(schema: Any) -> str | None:
    """The protocol an answer's operations state as a constant member, if they do
    (a 2021 node's say a protocol hash of any kind)."""
    if isinstance(schema, list):
        return next(filter(None, map(_protocol, schema)), None)
    if not isinstance(schema, dict):
        return None
    member = schema.get("properties", {}).get("protocol")
    if isinstance(member, dict) and isinstance(member.get("enum"), list):
        return str(member["enum"][0])
    return next(filter(None, map(_protocol, schema.values())), None)


@pytest.mark.parametrize("name", sorted(DESCRIBE_ANSWERS))
def test_a_real_transaction_goes_through_each_mempool_as_the_node_writes_it(name: str) -> None:
    # a real operation (tezt's 007 regression: a transaction whose format the
    # later protocols kept), sent through the codec rebuilt from each answer
    text = _answer(name)
    record = next(
        r
        for r in map(loads, (VECTORS / "octez-codec-007.jsonl").read_text().splitlines())
        if isinstance(r, dict) and r["encoding_name"] == "007-PsDELPH1.operation"
    )
    assert isinstance(record, dict) and isinstance(record["json"], dict)
    data = bytes.fromhex(str(record["hex"]))
    contents = data[32:-64]  # after the branch, before the signature
    directory = Directory.from_describe(text, at=MEMPOOL)
    monitor = directory.service("GET", f"{MEMPOOL}/monitor_operations").output
    operation = {
        **record["json"],
        "hash": "oneDGhZacw99EEFaYDTtWfz5QEhUW3PPVFsHa7GShnLPuDn7gSd",
        "protocol": _protocol(loads(text)) or "PtGRANADsDU8R9daYKAgWnQYAJ64omN1o3KMGVCykShA97vQbvV",
        "error": {},
    }
    encoded = monitor.encode(monitor.from_json([operation]))
    assert contents in encoded
    with output_family("tezos"):
        assert monitor.to_json(monitor.decode(encoded)) == [operation]
