"""``json_to_bytes`` and ``bytes_to_json``: JSON text <-> bytes in one call,
with the library's strict JSON reading and its errors."""

from __future__ import annotations

from typing import Any

import pytest

import data_encoding as de
from data_encoding.errors import DataEncodingError


def _record() -> de.Encoding[Any]:
    return de.obj(
        de.req("level", de.int64), de.req("hash", de.fixed.bytes_(2)), de.opt("name", de.string)
    )


def _error(call: Any, *args: Any) -> tuple[type[DataEncodingError], str, str, tuple[Any, ...]]:
    with pytest.raises(DataEncodingError) as caught:
        call(*args)
    err = caught.value
    return type(err), err.code, str(err), err.path


def test_text_to_bytes_and_back() -> None:
    e = _record()
    text = '{"level": "-5", "hash": "beef", "name": "caf\u00e9"}'
    data = e.json_to_bytes(text)
    assert data.hex() == "fffffffffffffffbbeefff00000005636166c3a9"
    assert e.json_to_bytes(text.encode()) == data  # UTF-8 bytes are text too
    assert e.bytes_to_json(data) == '{"level":"-5","hash":"beef","name":"caf\u00e9"}'
    assert e.bytes_to_json(bytearray(data)) == e.bytes_to_json(memoryview(data))
    assert e.bytes_to_json(memoryview(data)) == '{"level":"-5","hash":"beef","name":"caf\u00e9"}'


def test_text_that_is_not_json_is_invalid_json() -> None:
    e = _record()
    assert _error(e.json_to_bytes, '{"level": "1", "hash": "beef",}') == (
        de.JsonError,
        "invalid_json",
        "not valid JSON: Expecting property name enclosed in double quotes: "
        "line 1 column 31 (char 30)",
        (),
    )
    assert _error(e.json_to_bytes, '{"level": NaN, "hash": "beef"}') == (
        de.JsonError,
        "invalid_json",
        "NaN is not a JSON number",
        (),
    )


def test_members_given_twice_are_refused_where_they_are() -> None:
    e = de.list_(_record())
    text = '[{"level": "1", "hash": "beef"}, {"level": "1", "level": "2", "hash": "beef"}]'
    assert _error(e.json_to_bytes, text) == (
        de.JsonError,
        "duplicate_field",
        "duplicate member 'level' at $[1].level",
        (1, "level"),
    )


def test_errors_are_those_of_the_steps() -> None:
    e = _record()
    assert _error(e.json_to_bytes, '{"level": "1", "hash": "bee"}') == (
        de.JsonError,
        "invalid_hex",
        "'bee' is not lowercase hex with an even number of digits at $.hash",
        ("hash",),
    )
    assert _error(e.json_to_bytes, '{"level": "1", "hash": "beef", "name": "\\udc00"}') == (
        de.JsonError,
        "invalid_utf8",
        "the string has no UTF-8 form (a lone surrogate) at $.name",
        ("name",),
    )
    assert _error(de.check_size(3, de.bytes_).json_to_bytes, '"beefbeef"') == (
        de.EncodeError,  # a JSON value that fits, and a value that cannot be written
        "size_limit_exceeded",
        "size limit exceeded: 8 bytes where at most 3 are allowed",
        (),
    )
    assert _error(e.bytes_to_json, bytes.fromhex("00000000000000010000")) == (
        de.DecodeError,
        "not_enough_data",
        "not enough data: need 1 byte, 0 left at $.name (byte 10)",
        ("name",),
    )
    assert _error(e.bytes_to_json, bytes.fromhex("0000000000000001beef0000")) == (
        de.DecodeError,
        "extra_bytes",
        "extra bytes: the value ends at byte 11 of 12 (byte 11)",
        (),
    )
    assert _error(e.bytes_to_json, "beef") == (
        de.DecodeError,
        "wrong_type",
        "expected bytes, bytearray or memoryview to decode, got str",
        (),
    )
