"""Encodings pickle, before and after use, and work in other processes.

An encoding pickles as the call that built it: what it compiled on first use
(closures, generated code) is not pickled, and is compiled again when the
copy is first used. The library's public encodings (``uint8``, ``string``,
``binary_schema``...) pickle by reference and unpickle to themselves. A
``mu`` pickles its body (so its function need not pickle), a ``delayed``
the encoding it stands for. User functions (``conv``, ``match``) must
pickle like any Python object: module-level functions do, lambdas do not.
"""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor
from importlib import import_module
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import Encoding
from data_encoding.tree.core import _public
from hand import HAND, VECTORS, assert_same
from rich import rich_encodings

PUBLIC = (
    {name: value for name, value in vars(de).items() if isinstance(value, Encoding)}
    | {
        f"hashes.{name}": value
        for name, value in vars(de.hashes).items()
        if isinstance(value, Encoding)
    }
    | {
        f"timestamp.{name}": value
        for name, value in vars(de.timestamp).items()
        if isinstance(value, Encoding)
    }
)


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_encodings_pickle_by_reference(name: str) -> None:
    e = PUBLIC[name]
    assert pickle.loads(pickle.dumps(e)) is e
    e._read, e._write, e._to_json  # noqa: B018  # used: its compiled pieces exist
    assert pickle.loads(pickle.dumps(e)) is e
    # a reference, not a copy: the module and the name it is published under
    rebuild, (module, attribute) = e.__reduce__()
    assert rebuild is _public
    assert getattr(import_module(module), attribute) is e


ENCODINGS = {
    **{f"hand:{name}": e for name, e in HAND.items()},
    **{f"vector:{name}": e for name, e in VECTORS.items()},
    **{f"rich:{name}": e for name, e in rich_encodings().items()},
}


@settings(max_examples=max(100, settings().max_examples))
@given(st.sampled_from(sorted(ENCODINGS)), st.data())
def test_an_encoding_pickles_before_and_after_use(name: str, data: st.DataObject) -> None:
    original = ENCODINGS[name]
    fresh = pickle.loads(pickle.dumps(original))  # maybe never used yet
    value = data.draw(fresh.strategy())
    encoded = fresh.encode(value)
    for e in (fresh, pickle.loads(pickle.dumps(fresh))):  # used, then its copy
        assert e.encode(value) == encoded
        assert_same(e.decode(encoded), value, "decode(encode(v))")
        assert_same(e.from_json(e.to_json(value)), value, "from_json(to_json(v))")
        assert e.describe() == original.describe()


def _decode_all(e: Encoding[Any], chunks: list[bytes]) -> list[Any]:
    return [e.decode(chunk) for chunk in chunks]


def test_encodings_decode_in_worker_processes() -> None:
    """An encoding goes to a process pool (spawned processes share nothing)."""
    e = rich_encodings()["states"]
    values = [[{"uid": i, "state": {"s": "run", "pid": i}, "parent": None}] for i in range(20)]
    chunks = [e.encode(v) for v in values]
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn) as pool:
        halves = list(pool.map(_decode_all, [e, e], [chunks[:10], chunks[10:]]))
    assert halves[0] + halves[1] == values


def _small(value: Any) -> bool:
    return isinstance(value, int) and value < 256


def _tag(value: Any) -> int:
    return 0 if isinstance(value, int) else 1


def test_user_predicates_pickle_and_print_as_given() -> None:
    # (the library keeps them guarded: their failures are user_function errors)
    u = de.union(
        [de.case(0, "small", de.uint8, _small, json_match=_small), de.case(1, "s", de.string)]
    )
    m = de.matching(_tag, [de.case(0, "n", de.uint8), de.case(1, "s", de.string)])
    assert (
        repr(u)
        == "union([case(0, 'small', uint8, _small, json_match=_small), case(1, 's', string)])"
    )
    assert repr(m) == "matching(_tag, [case(0, 'n', uint8), case(1, 's', string)])"
    for e in (u, m):
        copy = pickle.loads(pickle.dumps(e))
        assert copy.encode(5) == e.encode(5) == b"\x00\x05"
        assert copy.encode("x") == e.encode("x") == b"\x01\x00\x00\x00\x01x"
