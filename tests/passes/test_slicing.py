"""The slicing pass (``data_encoding.passes.binary.slicing``): on every catalogue id's
samples, on random values of every id, of the hand encodings (one per
combinator) and of random encodings, the slices cover the bytes exactly and
in order, each leaf's bytes are its value's, and each leaf's JSON is the
decoded value's JSON at its path; on bytes that do not decode, the error is
``decode``'s and the slices stop before it."""

from __future__ import annotations

import inspect
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from catalogue_ids import ENCODING_IDS, OWN_SAMPLES, SAMPLED_IDS
from data_encoding import DecodeError, Encoding, obj, opt, req, string, uint8
from data_encoding.depth import DEFAULT, FRAMES_PER_LEVEL, MARGIN
from data_encoding.errors import PathStep
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.passes.binary.slicing import Sliced, slice_bytes
from hand import HAND
from random_dsl import encodings

_ABSENT = object()


def _at(json: JsonValue, path: tuple[PathStep, ...]) -> object:
    """The member of ``json`` at ``path`` (``_ABSENT`` when there is none)."""
    here: object = json
    for step in path:
        if isinstance(step, int):
            if not isinstance(here, list) or step >= len(here):
                return _ABSENT
            here = here[step]
        else:
            if not isinstance(here, dict) or step not in here:
                return _ABSENT
            here = here[step]
    return here


def check_cover(e: Encoding[Any], data: bytes) -> Sliced:
    """The slices of bytes that decode: in order, covering them, each leaf's
    bytes written by its value."""
    sliced = slice_bytes(e, data)
    assert sliced.error is None
    pos = 0
    for s in sliced.slices:
        assert s.start == pos <= s.end
        pos = s.end
        if s.role == "value":
            assert s.encoding is not None
            assert s.encoding.encode(s.value) == data[s.start : s.end], s
    assert pos == len(data)
    return sliced


def _put(json: JsonValue, path: tuple[PathStep, ...], leaf: JsonValue) -> JsonValue:
    """A copy of ``json`` with ``leaf`` at ``path``, the objects on the way
    made when missing."""
    if not path:
        return leaf
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        assert isinstance(json, list), (json, step)
        return [_put(x, rest, leaf) if i == step else x for i, x in enumerate(json)]
    members = dict(json) if isinstance(json, dict) else {}
    members[step] = _put(members.get(step), rest, leaf)
    return members


def check_json(e: Encoding[Any], data: bytes, sliced: Sliced) -> None:
    """Each leaf's JSON is the decoded value's JSON at the leaf's path; where
    the JSON has no member there (a ``dft`` field at its default, which JSON
    leaves out), the JSON with the leaf's put in reads to the same bytes."""
    whole = e.to_json(e.decode(data))
    for s in sliced.slices:
        if s.role == "value":
            assert s.encoding is not None
            leaf = s.encoding.to_json(s.value)
            found = _at(whole, s.path)
            if found is _ABSENT:
                assert e.encode(e.from_json(_put(whole, s.path, leaf))) == data, s
            else:
                assert leaf == found, s


def check_failure(e: Encoding[Any], data: bytes) -> None:
    """Bytes that may not decode: the error is decode's, the slices end before it."""
    try:
        e.decode(data)
    except DecodeError as err:
        sliced = slice_bytes(e, data)
        assert sliced.error is not None
        assert (sliced.error.code, sliced.error.offset, sliced.error.path) == (
            err.code,
            err.offset,
            err.path,
        )
        pos = 0
        for s in sliced.slices:
            assert s.start == pos <= s.end <= (len(data) if err.offset is None else err.offset)
            pos = s.end
    else:
        check_cover(e, data)


@pytest.mark.parametrize("id", SAMPLED_IDS)
def test_every_id_sample_slices(id: str) -> None:
    e = registry.find(id).encoding
    for sample in OWN_SAMPLES[id]["valid"]:
        data = bytes.fromhex(str(sample["hex"]))
        check_json(e, data, check_cover(e, data))
    for sample in OWN_SAMPLES[id]["invalid"]:
        if "hex" in sample:
            check_failure(e, bytes.fromhex(str(sample["hex"])))


def _places(data: bytes) -> st.SearchStrategy[list[int]]:
    """A few positions in ``data`` (where to cut or spoil it): every one of
    them would make the long values of the service tree slow."""
    if not data:
        return st.just([])
    return st.lists(st.integers(0, len(data) - 1), max_size=6, unique=True)


@pytest.mark.parametrize("id", ENCODING_IDS)
@settings(suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_id_random_values_slice(id: str, data: st.DataObject) -> None:
    e = registry.find(id).encoding
    encoded = e.encode(data.draw(e.strategy()))
    check_json(e, encoded, check_cover(e, encoded))
    for cut in data.draw(_places(encoded)):
        check_failure(e, encoded[:cut])
    check_failure(e, encoded + b"\x00")


@pytest.mark.parametrize("name", list(HAND))
@settings(suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_hand_encodings_slice(name: str, data: st.DataObject) -> None:
    e = HAND[name]
    encoded = e.encode(data.draw(e.strategy()))
    check_cover(e, encoded)
    for i in data.draw(_places(encoded)):
        for b in (0, 1, 0xFF, encoded[i] ^ 1):
            check_failure(e, encoded[:i] + bytes([b]) + encoded[i + 1 :])
        check_failure(e, encoded[:i])


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(encodings(), st.data())
def test_random_encodings_slice(built: tuple[Any, Encoding[Any]], data: st.DataObject) -> None:
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    check_cover(e, encoded)
    check_failure(e, data.draw(st.binary(max_size=40)))
    for i in data.draw(_places(encoded)):
        check_failure(e, encoded[:i] + bytes([encoded[i] ^ 0xFF]) + encoded[i + 1 :])


def test_the_slices_of_a_record() -> None:
    e = obj(req("a", uint8), opt("b", string), req("c", uint8))
    sliced = slice_bytes(e, bytes.fromhex("07ff000000016109"))
    assert [(s.start, s.end, s.path, s.role, s.what, s.value) for s in sliced.slices] == [
        (0, 1, ("a",), "value", "uint8", 7),
        (1, 2, ("b",), "presence", "presence byte", True),
        (2, 6, ("b",), "size", "size header (Uint30)", 1),
        (6, 7, ("b",), "value", "variable.string", "a"),
        (7, 8, ("c",), "value", "uint8", 9),
    ]


def test_the_slices_stop_at_the_failure() -> None:
    e = obj(req("a", uint8), opt("b", string), req("c", uint8))
    sliced = slice_bytes(e, bytes.fromhex("07ff0000000561"))
    assert sliced.error is not None
    assert str(sliced.error) == "length header says 5 bytes but only 1 remain at $.b (byte 2)"
    assert [(s.start, s.end, s.what) for s in sliced.slices] == [
        (0, 1, "uint8"),
        (1, 2, "presence byte"),
    ]


def _tree(wrappers: int, records: int) -> tuple[Encoding[Any], bytes]:
    """A recursive record under ``wrappers`` ``check_size`` per level, its
    recursive field ``records`` records deep, and the bytes of 80 levels."""

    def wrapped(e: Encoding[Any]) -> Encoding[Any]:
        for _ in range(wrappers):
            e = de.check_size(10**6, e)
        return e

    def body(self: Encoding[Any]) -> Encoding[Any]:
        inner = obj(req("a", uint8), opt("child", wrapped(self)))
        for _ in range(records - 1):
            inner = obj(req("o", inner))
        return wrapped(inner)

    e = de.mu(f"tree_{wrappers}_{records}", body)
    value: Any = None
    for _ in range(80):
        value = {"a": 1, "child": value}
        for _ in range(records - 1):
            value = {"o": value}
    return e, e.encode(value)


def test_wrappers_take_no_stack_of_their_own() -> None:
    """Five ``check_size`` per level, 80 levels: the walk goes through
    wrappers in a loop, so it slices whatever decodes (it stopped on Python's
    recursion limit and raised an AssertionError)."""
    e, raw = _tree(wrappers=5, records=1)
    sliced = slice_bytes(e, raw)
    assert sliced.error is None
    assert len(sliced.slices) == 2 * 80  # each level's a and presence byte
    assert sliced.slices[-1].end == len(raw)


def test_a_value_too_deep_for_the_walk_is_a_too_deep_error() -> None:
    """Twelve records per level: decoding inlines them, the walk takes frames
    for each; what it cannot walk is said, not an AssertionError."""
    e, raw = _tree(wrappers=0, records=12)
    # the stack the default depth limit gives (another test may have raised it)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + DEFAULT * FRAMES_PER_LEVEL + MARGIN)
    try:
        assert e.decode(raw) is not None
        sliced = slice_bytes(e, raw)
    finally:
        sys.setrecursionlimit(limit)
    assert sliced.error is not None
    assert sliced.error.code == "too_deep"
    assert str(sliced.error).startswith("the value nests too deeply to slice")
    assert all(s.end <= len(raw) for s in sliced.slices)
