"""How an error reads and travels: its ``str`` gives its message, its path
(``$.a[1].b``) and its byte offset; it pickles with its location. And the
``ImportError`` of a strategy without Hypothesis says what to install.
"""

from __future__ import annotations

import pickle
import sys
from collections.abc import Callable

import pytest
from hypothesis import find

import data_encoding as de
from data_encoding import (
    DataEncodingError,
    DecodeError,
    bool_,
    fixed,
    hashes,
    list_,
    obj,
    req,
    string,
    uint8,
)
from failing import NESTED, h


def catch(action: Callable[[], object]) -> DataEncodingError:
    with pytest.raises(DataEncodingError) as info:
        action()
    return info.value


STR_ROWS = [
    pytest.param(
        lambda: NESTED.decode(h("00000002 ff 07")),
        "invalid boolean byte 0x07 (only 0x00 and 0xff) at $.a[1].b (byte 5)",
        id="decode-nested",
    ),
    pytest.param(
        lambda: NESTED.decode_prefix(h("abcd 00000002 ff 07"), 2),
        "invalid boolean byte 0x07 (only 0x00 and 0xff) at $.a[1].b (byte 7)",
        id="decode_prefix-nested",
    ),
    pytest.param(
        lambda: bool_.decode(h("01")),
        "invalid boolean byte 0x01 (only 0x00 and 0xff) (byte 0)",
        id="decode-top",
    ),
    pytest.param(
        lambda: NESTED.from_json({"a": [{"b": True}, {"b": 0}]}),
        "expected a boolean, got integer at $.a[1].b",
        id="json-nested",
    ),
    pytest.param(
        lambda: obj(req("my key", uint8)).from_json({"my key": 300}),
        "300 is out of range for uint8 [0, 255] at $['my key']",
        id="json-quoted-key",
    ),
    pytest.param(
        lambda: uint8.encode(256),
        "256 is out of range for uint8 [0, 255]",
        id="encode-top",
    ),
    # a fixed-length leaf is named as it is written ("a 32-byte bytes" read badly)
    pytest.param(
        lambda: obj(req("h", fixed.bytes_(32))).decode(h("00")),
        "not enough data for fixed.bytes_(32): need 32 bytes, 1 left at $.h (byte 0)",
        id="fixed.bytes-short",
    ),
    pytest.param(
        lambda: fixed.string(3).decode(h("6162")),
        "not enough data for fixed.string(3): need 3 bytes, 2 left (byte 0)",
        id="fixed.string-short",
    ),
    pytest.param(
        lambda: hashes.block_hash.decode(h("00")),
        "not enough data for block_hash: need 32 bytes, 1 left (byte 0)",
        id="hash-short",
    ),
]


@pytest.mark.parametrize(("action", "text"), STR_ROWS)
def test_error_str(action: Callable[[], object], text: str) -> None:
    assert str(catch(action)) == text


def test_error_pickles_with_its_location() -> None:
    err = catch(lambda: NESTED.decode(h("00000002 ff 07")))
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is DecodeError
    assert (back.code, back.message, back.offset, back.path) == (
        "invalid_bool",
        "invalid boolean byte 0x07 (only 0x00 and 0xff)",
        5,
        ("a", 1, "b"),
    )
    assert isinstance(back, ValueError)


def test_a_definition_error_pickles_too() -> None:
    """``DefinitionError`` takes ``(message, code)``: it pickles as its class
    with its fields, like the others (it failed with a ``TypeError``)."""
    err = catch(lambda: obj(req("a", uint8), req("a", uint8)))
    assert type(err) is de.DefinitionError
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is de.DefinitionError
    assert (back.code, back.message, back.offset, back.path) == (
        err.code,
        err.message,
        None,
        (),
    )
    assert back.message == "duplicate field name 'a' in a record"


def test_strategy_without_hypothesis_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in [m for m in sys.modules if m == "hypothesis" or m.startswith("hypothesis.")]:
        monkeypatch.setitem(sys.modules, name, None)  # as if it were not installed
    # and the strategies pass not imported yet, as in a process without Hypothesis
    monkeypatch.delitem(sys.modules, "data_encoding.passes.strategies", raising=False)
    fresh = obj(req("a", uint8), req("b", list_(string)))
    with pytest.raises(ImportError) as info:
        fresh.strategy()
    assert "pip install 'data-encoding[hypothesis]'" in str(info.value)
    assert info.value.name == "hypothesis"
    monkeypatch.undo()
    value = find(fresh.strategy(), lambda v: len(v["b"]) == 1)  # nothing half-built was kept
    assert fresh.decode(fresh.encode(value)) == value
