"""Generated code against the same encodings compiled without inlining.

A composite compiles into one function with its parts inlined (see
``data_encoding.passes.binary.ops``): fused ``struct`` runs across records, union tags
and presence bytes peeked inside a run, loops with inlined bodies. With the
budgets at zero, every part is instead a call of its own compiled
function. The two code paths differ; their results must not.

Each distinct encoding of the reference vectors, plus the rich encodings of
the failure tests, is built twice, once each way, and both are given the
same inputs: valid values and values with one part spoiled (``encode``),
valid and mutated bytes (``decode``). They must give the same bytes and
values, or the same error: class, code, offset and path.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import Encoding
from pairs import NAMES, PAIRS, outcome, spoiled
from rich import FUZZ, mutated


def test_pairs_are_distinct_objects() -> None:
    """The comparison means something: composite pairs are two compilations."""
    distinct = [name for name, (a, b) in PAIRS.items() if a is not b]
    assert len(distinct) >= 100
    inlined, plain = PAIRS["rich:record"]
    assert "_pack" in inlined._write.__source__  # type: ignore[attr-defined]
    assert "_pack" not in plain._write.__source__  # type: ignore[attr-defined]


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_encode_agrees(name: str, data: st.DataObject) -> None:
    inlined, plain = PAIRS[name]
    value = data.draw(inlined.strategy())
    for v in (value, spoiled(value, data)):
        assert outcome(partial(inlined.encode, v)) == outcome(partial(plain.encode, v))


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_decode_agrees(name: str, data: st.DataObject) -> None:
    inlined, plain = PAIRS[name]
    raw = data.draw(mutated(inlined))
    assert outcome(lambda: inlined.decode(raw)) == outcome(lambda: plain.decode(raw))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # uid, then tag 7 at byte 2: the tag's error once uid is read
        ("00010700000001", ("DecodeError", "unexpected_tag", 2, ("state",))),
        # a presence byte 0x01 for "code" of the exited case
        ("0001010000000101", ("DecodeError", "invalid_presence_flag", 7, ("state", "code"))),
        # cut inside pid: not enough data for pid, at its first byte
        ("00010000", ("DecodeError", "not_enough_data", 3, ("state", "pid"))),
    ],
)
def test_peeked_choices_report_like_calls(raw: str, expected: tuple[Any, ...]) -> None:
    assert outcome(lambda: UID_STATE.decode(bytes.fromhex(raw))) == expected


def test_fields_fail_in_order_across_a_fused_run() -> None:
    # uid is wrong and so is the case (no pid): uid comes first, though its
    # bytes wait to be packed with the case's
    value = {"uid": 70000, "state": {"state": "running"}}
    assert outcome(lambda: UID_STATE.encode(value)) == (
        "EncodeError",
        "invalid_int",
        None,
        ("uid",),
    )
    value = {"uid": 7, "state": {"state": "running"}}
    assert outcome(lambda: UID_STATE.encode(value)) == (
        "EncodeError",
        "missing_field",
        None,
        ("state", "pid"),
    )


PID = de.req("pid", de.int31)
CODE = de.opt("code", de.int31)
STATE = de.union(
    [
        de.case(0, "running", de.obj(de.req("state", de.constant("running")), PID)),
        de.case(1, "exited", de.obj(de.req("state", de.constant("exited")), PID, CODE)),
    ]
)
UID_STATE = de.obj(de.req("uid", de.uint16), de.req("state", STATE))


@pytest.mark.parametrize(
    ("e", "value", "other"),
    [
        # alone in its run: appended as it is
        (de.obj(de.req("h", de.fixed.bytes_(3))), {}, bytearray(b"xyz")),
        (
            de.obj(de.req("a", de.uint8), de.req("h", de.fixed.bytes_(3)), de.req("b", de.int8)),
            {"a": 1, "b": -1},
            bytearray(b"xyz"),
        ),
        (de.obj(de.req("h", de.hashes.chain_id)), {}, de.hashes.ChainId(b"xyzw")),
        (
            de.obj(de.req("a", de.uint8), de.req("h", de.hashes.chain_id)),
            {"a": 1},
            bytearray(b"xyzw"),
        ),
    ],
    ids=["alone", "fused", "hash-alone", "hash-fused"],
)
def test_fixed_bytes_take_any_bytes_value(
    e: Encoding[Any], value: dict[str, Any], other: bytes | bytearray
) -> None:
    """A fused write packs exact ``bytes`` as they are and converts the rest
    (``bytearray``, the hash types) as the leaf alone would; a wrong length
    still fails with the leaf's error."""
    data = e.encode({**value, "h": bytes(other)})
    assert e.encode({**value, "h": other}) == data
    with pytest.raises(de.EncodeError) as info:
        e.encode({**value, "h": bytearray(b"too long")})
    assert (info.value.code, info.value.path) == ("wrong_length", ("h",))
