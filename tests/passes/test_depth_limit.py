"""Deep input and the one depth limit: pathologically deep input fails with
``too_deep`` rather than ``RecursionError``, in every direction; a value
``max_depth()`` levels deep goes every way and one level more is
``too_deep``; the limit is checked and counted per thread, and 100 000
legal levels go both ways in a thread with a large stack.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import data_encoding as de
from data_encoding import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    Encoding,
    JsonError,
    case,
    conv,
    json,
    list_,
    mu,
    obj,
    opt,
    req,
    tup,
    uint8,
    union,
)
from deep import at_depth
from failing import same

# ---------------------------------------------------------------- deep input

DEPTH = 100_000
LISTS = mu("lists", lambda self: list_(self))


def deep_list_bytes(depth: int) -> bytes:
    """``depth`` nested list_ headers around an empty list: each says 4 more bytes."""
    return b"".join((4 * k).to_bytes(4, "big") for k in range(depth, 0, -1)) + bytes(4)


def deep_json_list(depth: int) -> list[Any]:
    root: list[Any] = []
    inner = root
    for _ in range(depth):
        nested: list[Any] = []
        inner.append(nested)
        inner = nested
    return root


def test_shallow_nesting_works() -> None:
    """The deep inputs below are well-formed: at small depth they decode."""
    assert LISTS.decode(deep_list_bytes(3)) == [[[[]]]]
    assert LISTS.from_json(deep_json_list(3)) == [[[[]]]]
    assert LISTS.encode([[[[]]]]) == deep_list_bytes(3)


def test_deep_binary_input_is_too_deep() -> None:
    with pytest.raises(DecodeError) as info:
        LISTS.decode(deep_list_bytes(DEPTH))
    assert info.value.code == "too_deep"
    chain = mu("chain", lambda self: obj(req("v", uint8), opt("next", self)))
    with pytest.raises(DecodeError) as info:
        chain.decode(b"\x01\xff" * DEPTH + b"\x01\x00")
    assert info.value.code == "too_deep"


def test_deep_bson_is_too_deep() -> None:
    # each level: a document holding one embedded document under the key "a"
    levels = b"".join((5 + 8 * k).to_bytes(4, "little") + b"\x03a\x00" for k in range(DEPTH, 0, -1))
    document = levels + b"\x05\x00\x00\x00\x00" + bytes(DEPTH)
    with pytest.raises(DecodeError) as info:
        json.decode(len(document).to_bytes(4, "big") + document)
    # the first document past the limit: after the 4-byte frame, 7 bytes a level
    offset = 4 + 7 * de.max_depth()
    assert (info.value.code, info.value.offset, info.value.path) == ("too_deep", offset, ())


def test_deep_json_and_values_are_too_deep() -> None:
    deep = deep_json_list(DEPTH)
    with pytest.raises(JsonError) as json_info:
        LISTS.from_json(deep)
    assert json_info.value.code == "too_deep"
    with pytest.raises(JsonError) as json_info:
        json.from_json(deep)
    assert json_info.value.code == "too_deep"
    for action in (LISTS.encode, LISTS.to_json, LISTS.length, json.encode, json.to_json):
        with pytest.raises(EncodeError) as encode_info:
            action(deep)
        assert encode_info.value.code == "too_deep"


# ------------------------------------------------------------- one depth limit


def _chain(self: Encoding[Any]) -> Encoding[Any]:
    return obj(req("v", uint8), opt("next", self))


def _tried_union(self: Encoding[Any]) -> Encoding[Any]:
    # no constant member: writing selects the case by trying (more frames per level)
    return union([case(0, "leaf", uint8), case(1, "node", tup(self, uint8))])


def _converted_chain(self: Encoding[Any]) -> Encoding[Any]:
    return conv(same, same, de.def_("link", obj(req("v", uint8), opt("next", self))))


def _nested_chain(levels: int) -> Any:
    value: Any = {"v": 1, "next": None}
    for _ in range(levels - 1):
        value = {"v": 1, "next": value}
    return value


def _nested_lists(levels: int) -> Any:
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def _nested_pairs(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels - 1):
        value = (value, 2)
    return value


def _around_chain(data: bytes) -> bytes:
    return b"\x01\xff" + data  # v = 1, next present: the value before


def _around_pair(data: bytes) -> bytes:
    return b"\x01" + data + b"\x02"  # the node case, the pair, then 2


def _around_list(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data  # a list holding the value


def _around_bson(data: bytes) -> bytes:
    """A json value one level deeper: {"k": the value} (a root array)."""
    body = b"\x04k\x00" + data[4:]  # the root document, as an array under "k"
    document = (len(body) + 5).to_bytes(4, "little") + body + b"\x00"
    return len(document).to_bytes(4, "big") + document


# (encoding, a value nested ``levels`` deep, its bytes one level deeper): each
# pass through a recursive encoding, and each array or object of a json value,
# is one level
NESTINGS = [
    pytest.param(mu("chain", _chain), _nested_chain, _around_chain, id="mu-record"),
    pytest.param(mu("lists", lambda self: list_(self)), _nested_lists, _around_list, id="mu-list"),
    pytest.param(mu("tried", _tried_union), _nested_pairs, _around_pair, id="mu-tried-union"),
    pytest.param(mu("conv", _converted_chain), _nested_chain, _around_chain, id="mu-conv"),
    pytest.param(json, _nested_lists, _around_bson, id="json"),
]


@pytest.mark.parametrize("limit", [None, 30, 600])
@pytest.mark.parametrize(("e", "nested", "around"), NESTINGS)
def test_one_depth_limit_for_every_direction(
    e: Encoding[Any],
    nested: Callable[[int], Any],
    around: Callable[[bytes], bytes],
    limit: int | None,
) -> None:
    """A value nested max_depth() levels deep goes every way; one level more
    is too_deep every way: decode, encode, length, to_json and from_json."""
    previous = de.max_depth()
    try:
        if limit is not None:
            de.set_max_depth(limit)
        levels = de.max_depth()
        value = nested(levels)
        data = e.encode(value)
        assert e.length(value) == len(data)
        assert e.encode(e.decode(data)) == data
        assert e.encode(e.from_json(e.to_json(value))) == data
        deeper = nested(levels + 1)
        attempts: list[tuple[Callable[[Any], object], Any]] = [
            (e.decode, around(data)),
            (e.encode, deeper),
            (e.length, deeper),
            (e.to_json, deeper),
            (e.from_json, _json_of(deeper)),
        ]
        for action, arg in attempts:
            with pytest.raises(DataEncodingError) as info:
                action(arg)
            assert info.value.code == "too_deep", (action, info.value)
            assert f"more than {levels} levels" in info.value.message
    finally:
        de.set_max_depth(previous)


def _json_of(value: Any) -> Any:
    """The JSON of a value of these shapes (tuples as arrays), built without
    the library (the library would refuse it)."""
    if isinstance(value, dict):
        return {k: _json_of(v) for k, v in value.items() if v is not None}
    if isinstance(value, tuple | list):
        return [_json_of(v) for v in value]
    return value


def test_the_depth_limit_is_checked() -> None:
    previous = de.max_depth()
    try:
        for bad in (0, -1, True, 2.5, "10"):
            with pytest.raises(de.DefinitionError):
                de.set_max_depth(bad)  # type: ignore[arg-type]
        assert de.max_depth() == previous
    finally:
        de.set_max_depth(previous)


def test_each_thread_counts_its_own_levels() -> None:
    """Threads decoding at the limit at once all succeed: the level is per
    thread. The reader is compiled by the first of them, on first use: the
    others wait for it (a recursive encoding's function is published before
    its body is compiled)."""
    chain = mu("chain", _chain)
    data = chain.encode(_nested_chain(de.max_depth()))
    barrier = threading.Barrier(4)

    def work() -> int:
        barrier.wait()
        return sum(chain.decode(data)["v"] for _ in range(200))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often: in the middle of decodes
    try:
        with ThreadPoolExecutor(4) as pool:
            assert list(pool.map(lambda _: work(), range(4))) == [200] * 4
    finally:
        sys.setswitchinterval(interval)


LEGAL_DEEP = 100_000


def test_a_hundred_thousand_legal_levels_in_a_thread_with_a_large_stack() -> None:
    """Deep but legal input is a matter of the limit and of the stack: with
    the limit raised, 100 000 levels of lists go both ways in a thread whose
    stack holds them (the main thread's 8 MB crash CPython at 25 000 levels:
    the README says so)."""
    lists = mu("lists", lambda self: list_(self))
    value: list[Any] = []
    for _ in range(LEGAL_DEEP - 1):
        value = [value]

    def both_ways() -> tuple[int, int, bool]:
        data = lists.encode(value)
        return len(data), lists.length(value), lists.decode(data) == value

    assert at_depth(LEGAL_DEEP, both_ways) == (4 * LEGAL_DEEP, 4 * LEGAL_DEEP, True)
