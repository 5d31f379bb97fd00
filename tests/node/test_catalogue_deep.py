"""Input nested 100 000 levels deep, for every catalogue id that can nest
(issue 15): binary and JSON, through its ``json`` members and through its
recursive encodings (``mu``: a service tree's subdirectories, a schema's
``Seq`` layouts).

For each encoding (under one of its ids: ids that name one encoding nest
alike) and each way it nests, a *template* says where the nesting goes
in a valid document: at ``at``, ``unit`` holding the next level at ``hole``,
``leaf`` innermost. A ``json`` member nests as arrays (``[[[...]]]``); a
recursive encoding as itself, found in a small document that nests twice
(the node's samples do not: :data:`NESTING`).

What is proved, for each template:

* the JSON document nested 100 000 levels is refused by ``from_json`` with
  ``too_deep``, at the level past the limit (``max_depth()``, 100);
* its bytes, 100 000 levels (made by repeating a level's bytes, its length
  headers counted again for each level, so that no encoder has to go that
  deep), are refused by ``decode`` with ``too_deep``, at an offset inside
  them, and in memory that does not grow with the depth past the limit;
* with the limit raised (``set_max_depth``, to ``RAISED``), the same
  construction 300 levels deep decodes, to the value ``from_json`` reads,
  and encodes back to those very bytes: the input above is valid but for
  its depth;
* that value, 300 deep, is refused by ``encode``, ``length`` and ``to_json``
  alike, with ``too_deep`` at a level past the default limit;
* a level takes no more Python frames, in any direction (the lenient
  variant's reader and marked writer too), than the recursion limit is
  raised for: the depth limit, not Python, refuses.
"""

from __future__ import annotations

import sys
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise
from types import FrameType
from typing import Any

import pytest

from catalogue_ids import ENCODING_IDS
from data_encoding import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    Encoding,
    JsonError,
    max_depth,
    set_max_depth,
)
from data_encoding.depth import FRAMES_PER_LEVEL
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.node.protocols import ATHENS, PROTOCOLS, Protocol
from hostile import Path, positions, replaced, values_of

DEEP = 100_000
LEGAL = 300
"""Levels of the document that decodes with the limit raised (to ``RAISED``)."""

# a service tree whose subdirectory holds a service tree
_TREE_IN_TREE: JsonValue = {
    "static": {"subdirs": {"suffixes": [{"name": "a", "tree": {"static": {}}}]}}
}
# a field whose layout is a sequence of sequences of booleans (words both dialects share)
_SEQ_IN_SEQ: JsonValue = {
    "toplevel": {
        "fields": [
            {
                "name": "x",
                "layout": {
                    "kind": "Seq",
                    "layout": {"kind": "Seq", "layout": {"kind": "Bool"}},
                },
                "data_kind": {"kind": "Variable"},
                "kind": "named",
            }
        ]
    },
    "fields": [],
}

# a Micheline sequence in a sequence (a primitive's arguments are a list
# in JSON, but no sequence in binary: a level must be one node)
_SEQ_OF_SEQ: JsonValue = [[{"int": "1"}]]
_SCRIPT: JsonValue = {"code": _SEQ_OF_SEQ, "storage": {"int": "0"}}
_MICHELINE: dict[str, JsonValue] = {
    protocol.id(name): _SCRIPT if name == "script" else _SEQ_OF_SEQ
    for protocol in PROTOCOLS
    for name in ("script", "script.expr", "script.lazy_expr", "script.packed")
}


def _with_script(parameters: JsonValue) -> JsonValue:
    """A protocol's parameters (a sample's), its bootstrap contract's script :data:`_SCRIPT`."""
    assert isinstance(parameters, dict) and isinstance(parameters["bootstrap_contracts"], list)
    (contract,) = parameters["bootstrap_contracts"]
    assert isinstance(contract, dict)
    return {**parameters, "bootstrap_contracts": [{**contract, "script": _SCRIPT}]}


# the receipts and parameters that hold Micheline: a big map's key, a script
_KEY: dict[str, JsonValue] = {
    "key_hash": "exprv6UsC1sN3Fk2XfgcJCL8NCerP5rCGy1PRESZAqr7L2JdzX55EN",
    "key": _SEQ_OF_SEQ,
}
_HOLDING_MICHELINE: dict[str, JsonValue] = {
    **{
        protocol.id("contract.big_map_diff"): [{"action": "update", "big_map": "0", **_KEY}]
        for protocol in PROTOCOLS
    },
    ATHENS.id("contract.big_map_diff"): [_KEY],
    **{
        protocol.id("parameters"): _with_script(
            registry.find(protocol.id("parameters")).samples["valid"][1]["json"]
        )
        for protocol in PROTOCOLS
    },
}


def _operations(protocol: Protocol) -> dict[str, JsonValue]:
    """A protocol's operations holding a transaction whose parameters'
    value nests (in 004 the parameters are the value, from 005 on they
    name an entrypoint), and its receipt, whose new storage nests."""
    parameters: JsonValue = (
        _SEQ_OF_SEQ if protocol is ATHENS else {"entrypoint": "do", "value": _SEQ_OF_SEQ}
    )
    call: dict[str, JsonValue] = {"amount": "1", "destination": _KT1, "parameters": parameters}
    manager: dict[str, JsonValue] = {"source": _TZ1, "fee": "1", "counter": "1"}
    content: dict[str, JsonValue] = {
        "kind": "transaction",
        **manager,
        "gas_limit": "1",
        "storage_limit": "1",
        **call,
    }
    return {
        protocol.id("operation.contents"): content,
        protocol.id("operation.contents_list"): [content],
        protocol.id("operation.protocol_data"): {"contents": [content], "signature": _SIGNATURE},
        protocol.id("operation.unsigned"): {"branch": _BRANCH, "contents": [content]},
        protocol.id("operation"): {
            "branch": _BRANCH,
            "contents": [content],
            "signature": _SIGNATURE,
        },
        protocol.id("operation.internal"): {
            "source": _KT1,
            "nonce": 0,
            "kind": "transaction",
            **call,
        },
        protocol.id("operation.data_and_metadata"): {
            "contents": [{**content, "metadata": _applied(_SEQ_OF_SEQ)}],
            "signature": _SIGNATURE,
        },
    }


def _applied(storage: JsonValue) -> JsonValue:
    """A transaction's metadata: applied, leaving ``storage``."""
    return {"balance_updates": [], "operation_result": {"status": "applied", "storage": storage}}


_TZ1 = "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
_KT1 = "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"
_BRANCH = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
_SIGNATURE = (
    "sigbQ5ZNvkjvGssJgoAnUAfY4Wvvg3QZqawBYB1j1VDBNTMBAALnC"
    "zRHWzer34bnfmzgHg3EvwdzQKdxgSghB897cono6gbQ"
)
_OPERATIONS: dict[str, JsonValue] = {
    id: document for protocol in PROTOCOLS for id, document in _operations(protocol).items()
}

NESTING: dict[str, JsonValue] = {
    "rpc.service_tree": _TREE_IN_TREE,
    "rpc.service_tree_v1": _TREE_IN_TREE,
    "rpc.binary_schema": _SEQ_IN_SEQ,
    "rpc.binary_schema_v1": _SEQ_IN_SEQ,
    **_MICHELINE,
    **_HOLDING_MICHELINE,
    **_OPERATIONS,
}
"""Small documents in which a recursive encoding of the id holds itself."""


@dataclass(frozen=True)
class Template:
    """Where and how a document of ``id`` nests (see the module's notes)."""

    id: str
    way: str  # "json" or "mu"
    document: JsonValue
    at: Path
    unit: JsonValue
    hole: Path
    leaf: JsonValue

    def nested(self, levels: int) -> JsonValue:
        """The document with ``levels`` units nested at ``at`` (built from
        the inside out: no recursion, each unit copied along its hole only)."""
        inner = self.leaf
        for _ in range(levels):
            inner = replaced(self.unit, self.hole, inner)
        document: JsonValue = replaced(self.document, self.at, inner)
        return document

    def encoding(self) -> Encoding[Any]:
        return registry.find(self.id).encoding


def _at(value: Any, path: Path) -> Any:
    for step in path:
        value = value[step]
    return value


def _reads(e: Encoding[Any], document: JsonValue) -> bool:
    try:
        e.from_json(document)
    except JsonError:
        return False
    return True


def _json_template(id: str) -> Template | None:
    """A ``json`` member of a sample (or of a drawn value, for an id whose
    samples have none): a position that takes any JSON value."""
    e = registry.find(id).encoding
    samples = [sample["json"] for sample in registry.find(id).samples["valid"]]
    for document in [*samples, *map(e.to_json, values_of(id))]:
        for at, _ in positions(document):
            if (
                at
                and _reads(e, replaced(document, at, 0.5))
                and _reads(e, replaced(document, at, [[]]))
            ):
                return Template(id, "json", document, at, [None], (0,), [])
    return None


def _mu_template(id: str, document: JsonValue) -> Template:
    """In ``document``, the innermost position that holds what an outer one
    holds (as the id reads it: a recursive encoding) and no plain number."""
    e = registry.find(id).encoding
    containers = [p for p, x in positions(document) if isinstance(x, dict | list) and x]
    for inner in sorted(containers, key=len, reverse=True):
        for cut in range(len(inner) - 1, -1, -1):
            outer = inner[:cut]
            if _reads(e, replaced(document, inner, _at(document, outer))) and not _reads(
                e, replaced(document, inner, 0.5)
            ):
                unit = _at(document, outer)
                hole = inner[cut:]
                return Template(id, "mu", document, outer, unit, hole, _at(unit, hole))
    raise AssertionError(f"{id}: no recursive position in {document}")


def _templates() -> Iterator[Template]:
    for id in ENCODING_IDS:  # (ids that name one encoding nest alike)
        found = _json_template(id)
        if found is not None:
            yield found
        if id in NESTING:
            yield _mu_template(id, NESTING[id])


TEMPLATES = {f"{t.id}-{t.way}": t for t in _templates()}


def test_every_id_that_nests_has_its_templates() -> None:
    """The ids whose encodings hold ``json`` or a ``mu`` (the list would grow
    with the catalogue: then the test says which), each encoding under one of
    its ids."""
    nesting = [
        "chain.block_metadata-json",
        "chain.invalid_block-json",
        "chain.invalid_blocks-json",
        *(f"{name}-mu" for name in sorted(_MICHELINE | _HOLDING_MICHELINE | _OPERATIONS)),
        *(f"{protocol.id('errors')}-json" for protocol in PROTOCOLS),
        *(f"{protocol.id('operation.data_and_metadata')}-json" for protocol in PROTOCOLS),
        "rpc.binary_schema-mu",
        "rpc.binary_schema_v1-mu",
        "rpc.error-json",
        "rpc.errors-json",
        "rpc.schemas-json",
        "rpc.schemas_v1-json",
        "rpc.service-json",
        "rpc.service_tree-json",
        "rpc.service_tree-mu",
        "rpc.service_tree_v1-json",
        "rpc.service_tree_v1-mu",
        "rpc.service_v1-json",
    ]
    assert sorted(TEMPLATES) == sorted(t for t in nesting if t.rsplit("-", 1)[0] in ENCODING_IDS)


# ------------------------------------------------------ bytes by repetition

Header = tuple[int, int, str, int]
"""A length header in a piece of bytes: offset, width, byte order, value at n = 0."""


@dataclass(frozen=True)
class Piece:
    """Bytes that are the same at every nesting depth ``n`` but for length
    headers, which grow by ``grown`` bytes a level."""

    bytes0: bytes
    headers: tuple[Header, ...]
    grown: int

    def at(self, n: int) -> bytes:
        out = bytearray(self.bytes0)
        for offset, width, order, value in self.headers:
            out[offset : offset + width] = (value + n * self.grown).to_bytes(
                width,
                "big" if order == "big" else "little",
            )
        return bytes(out)


def _piece(versions: list[bytes], grown: int) -> Piece | None:
    """The piece whose bytes at n = 0, 1, 2... are ``versions``, if their
    differences are length headers growing by ``grown`` (4, 2 or 1 bytes,
    either order); ``None`` otherwise."""
    first = versions[0]
    if any(len(v) != len(first) for v in versions):
        return None
    differing = [i for i in range(len(first)) if any(v[i] != first[i] for v in versions)]
    headers: list[Header] = []
    covered = -1
    for i in differing:
        if i <= covered:
            continue
        header = _header_at(versions, i, grown)
        if header is None:
            return None
        headers.append(header)
        covered = header[0] + header[1] - 1
    return Piece(first, tuple(headers), grown)


def _header_at(versions: list[bytes], i: int, grown: int) -> Header | None:
    """A header covering byte ``i`` whose value grows by ``grown`` a version."""
    for width in (4, 2, 1):
        for order in ("big", "little"):
            # the byte that changes is the low one: last of a big-endian
            # header, first of a little-endian one
            start = i - width + 1 if order == "big" else i
            if start < 0 or start + width > len(versions[0]):
                continue
            values = [
                int.from_bytes(v[start : start + width], "big" if order == "big" else "little")
                for v in versions
            ]
            if all(b - a == grown for a, b in pairwise(values)):
                return (start, width, order, values[0])
    return None


@dataclass(frozen=True)
class Nesting:
    """The bytes of a template's document nested ``n`` levels: its head
    (``head``, headers counting the levels), a level's bytes before the next
    (``level``: level k from the inside has k levels inside it), the
    innermost bytes, ``suffix`` once per level, and the document's end."""

    head: Piece
    level: Piece
    inside: bytes
    suffix: bytes
    end: bytes

    def at(self, n: int) -> bytes:
        levels = [self.level.at(k) for k in range(n - 1, -1, -1)]
        return b"".join(
            [self.head.at(n - 1), *levels, self.inside, self.suffix * (n - 1), self.end]
        )


def nesting(t: Template) -> Nesting:
    """How ``t``'s bytes nest, learnt from its bytes 1, 2 and 3 levels deep
    (the encoder need not go deeper)."""
    e = t.encoding()
    one, two, three = (e.encode(e.from_json(t.nested(n))) for n in (1, 2, 3))
    grown = len(two) - len(one)
    for h in range(len(one)):
        head = _piece([one[:h], two[:h], three[:h]], grown)
        if head is None:
            continue
        for p in range(1, grown + 1):
            inner = [one[h : h + p], two[h + p : h + 2 * p], three[h + 2 * p : h + 3 * p]]
            middle = [two[h : h + p], three[h + p : h + 2 * p]]
            if len(set(inner)) != 1 or len(set(middle)) != 1:
                continue
            level = _piece([inner[0], middle[0], three[h : h + p]], grown)
            if level is None:
                continue
            found = _rest(one[h + p :], two[h + 2 * p :], three[h + 3 * p :], grown - p)
            if found is not None:
                inside, suffix, end = found
                candidate = Nesting(head, level, inside, suffix, end)
                if [candidate.at(n) for n in (1, 2, 3)] == [one, two, three]:
                    return candidate
    raise AssertionError(f"{t.id}: no repeating level in {two.hex()}")


def _rest(one: bytes, two: bytes, three: bytes, s: int) -> tuple[bytes, bytes, bytes] | None:
    """``one`` split as inside + end, where ``two`` has ``suffix`` (``s``
    bytes) between them and ``three`` has it twice."""
    for k in range(len(one) + 1):
        suffix = two[k : k + s]
        if two == one[:k] + suffix + one[k:] and three == one[:k] + suffix * 2 + one[k:]:
            return one[:k], suffix, one[k:]
    return None


# ------------------------------------------------------------------ tests


def _is_repeated(path: Path, t: Template) -> bool:
    """``path`` is ``t.at`` then ``t.hole`` some times (a level inside the nesting)."""
    rest = path[len(t.at) :]
    times, extra = divmod(len(rest), len(t.hole))
    return path[: len(t.at)] == t.at and not extra and times >= 1 and rest == t.hole * times


RAISED = 1000
"""The depth limit under which ``LEGAL`` levels are read and written."""


@contextmanager
def depth_limit(levels: int) -> Iterator[None]:
    """The depth limit set to ``levels``, then back to what it was."""
    previous = max_depth()
    set_max_depth(levels)
    try:
        yield
    finally:
        set_max_depth(previous)


@pytest.fixture
def raised_limit() -> Iterator[None]:
    with depth_limit(RAISED):
        yield


def _assert_refused_at_the_limit(err: DataEncodingError, t: Template) -> None:
    """``err`` is ``too_deep``, says the limit, and is at a level of ``t``'s
    nesting no deeper than the limit."""
    assert err.code == "too_deep", err
    assert f"more than {max_depth()} levels" in err.message, err
    assert _is_repeated(err.path, t), err.path
    assert len(err.path) <= len(t.at) + len(t.hole) * max_depth(), err.path


def _frames(run: Callable[[], object]) -> int:
    """The deepest stack of Python frames ``run()`` reaches (from its own)."""
    depth, deepest = 0, 0

    def profile(_frame: FrameType, event: str, _arg: object) -> None:
        nonlocal depth, deepest
        if event == "call":
            depth += 1
            deepest = max(deepest, depth)
        elif event == "return":
            depth -= 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return deepest


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_level_takes_the_frames_the_recursion_limit_allows_it(
    name: str, raised_limit: None
) -> None:
    """Python's recursion limit is raised for ``FRAMES_PER_LEVEL`` frames a
    level: a level that took more would let Python, not the depth limit,
    refuse a deep input (a service tree's did, before the bound was 16)."""
    t = TEMPLATES[name]
    e = t.encoding()
    nest = nesting(t)

    def per_level(way: str) -> float:
        def frames(n: int) -> int:
            document = t.nested(n)
            if way in ("decode", "_decode_lenient"):  # (the lenient variant's reader)
                return _frames(lambda: getattr(e, way)(nest.at(n)))
            if way == "from_json":
                return _frames(lambda: e.from_json(document))
            value = e.from_json(document)
            return _frames(lambda: getattr(e, way)(value))

        return (frames(30) - frames(10)) / 20

    ways = ("decode", "encode", "length", "to_json", "from_json")
    for way in (*ways, "_decode_lenient", "_encode_marked"):
        assert per_level(way) <= FRAMES_PER_LEVEL, way


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_deep_json_is_refused_at_the_limit(name: str) -> None:
    t = TEMPLATES[name]
    with pytest.raises(JsonError) as info:
        t.encoding().from_json(t.nested(DEEP))
    _assert_refused_at_the_limit(info.value, t)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_deep_bytes_are_refused_at_the_limit_in_small_memory(name: str) -> None:
    t = TEMPLATES[name]
    nest = nesting(t)
    data = nest.at(DEEP)
    near_the_limit = (
        len(nest.at(max_depth() + 2)) - len(nest.end) - len(nest.suffix) * (max_depth() + 1)
    )
    tracemalloc.start()
    try:
        with pytest.raises(DecodeError) as info:
            t.encoding().decode(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.code == "too_deep"
    assert info.value.offset is not None and 0 < info.value.offset < near_the_limit
    # the input is copied once; reading 100 levels takes no more than that
    assert peak < len(data) + 1_000_000, (peak, len(data))


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_the_same_input_decodes_with_the_limit_raised(name: str, raised_limit: None) -> None:
    """The deep input is valid but for its depth: built the same way,
    ``LEGAL`` levels decode under a raised limit, to what ``from_json``
    reads, and encode back to those bytes."""
    t = TEMPLATES[name]
    e = t.encoding()
    data = nesting(t).at(LEGAL)
    value = e.decode(data)
    assert e.encode(value) == data
    assert e.encode(e.from_json(t.nested(LEGAL))) == data
    assert e.length(value) == len(data)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_deep_value_is_refused_by_every_writer(name: str) -> None:
    """Under the default limit, ``encode``, ``length`` and ``to_json`` refuse
    a value ``LEGAL`` levels deep alike, at a level past the limit."""
    t = TEMPLATES[name]
    e = t.encoding()
    with depth_limit(RAISED):
        value = e.from_json(t.nested(LEGAL))
    paths = set()
    for write in (e.encode, e.length, e.to_json):
        with pytest.raises(EncodeError) as info:
            write(value)
        _assert_refused_at_the_limit(info.value, t)
        paths.add(info.value.path)
    assert len(paths) == 1, paths
