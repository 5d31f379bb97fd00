"""``json_to_bytes`` and ``bytes_to_json``: JSON text <-> bytes in one call,
with the library's strict JSON reading and its errors."""

from __future__ import annotations

import codecs
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


def test_text_in_any_bytes_like_object() -> None:
    """JSON text is a ``str`` or its UTF-8 bytes, in any bytes-like object
    ``decode`` takes: ``bytes``, ``bytearray``, ``memoryview`` (one that is
    not contiguous too)."""
    e = _record()
    text = '{"level": "-5", "hash": "beef", "name": "caf\u00e9"}'
    utf8 = text.encode()
    data = e.json_to_bytes(text)
    every_other = memoryview(bytes(b for byte in utf8 for b in (byte, 0)))[::2]
    assert not every_other.contiguous
    for raw in (utf8, bytearray(utf8), memoryview(utf8), memoryview(b"--" + utf8)[2:], every_other):
        assert e.json_to_bytes(raw) == data


@pytest.mark.parametrize("text", [None, 7, 1.5, ["{}"], {"a": 1}, ("{}",)])
def test_anything_else_is_the_wrong_type(text: Any) -> None:
    """What is neither text nor bytes is refused as ``decode`` refuses what
    is not bytes: ``wrong_type``, naming its type."""
    assert _error(_record().json_to_bytes, text) == (
        de.JsonError,
        "wrong_type",
        f"expected JSON text (str, bytes, bytearray or memoryview), got {type(text).__name__}",
        (),
    )


TEXT = '"caf\u00e9"'
"""A JSON string, the value of ``string`` the spellings below are refused for."""

NUL = "JSON text is UTF-8, not UTF-16 or UTF-32: a NUL byte at its start"
NOT_UTF8 = "JSON text is not UTF-8: "


@pytest.mark.parametrize(
    ("raw", "message", "offset"),
    [
        pytest.param(
            codecs.BOM_UTF8 + TEXT.encode(),
            "JSON text begins with a byte order mark, which RFC 8259 forbids: EF BB BF",
            0,
            id="utf-8-bom",
        ),
        pytest.param(TEXT.encode("utf-16-le"), NUL, 1, id="utf-16-le"),
        pytest.param(TEXT.encode("utf-16-be"), NUL, 0, id="utf-16-be"),
        pytest.param(TEXT.encode("utf-32-le"), NUL, 1, id="utf-32-le"),
        pytest.param(TEXT.encode("utf-32-be"), NUL, 0, id="utf-32-be"),
        pytest.param(codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"), NUL, 0, id="utf-32-be-bom"),
        pytest.param(TEXT.encode("utf-32"), NOT_UTF8 + "invalid start byte", 0, id="utf-32-bom"),
        pytest.param(TEXT.encode("utf-16"), NOT_UTF8 + "invalid start byte", 0, id="utf-16-bom"),
        pytest.param(
            TEXT.encode("latin-1"), NOT_UTF8 + "invalid continuation byte", 4, id="latin-1"
        ),
        # a surrogate in UTF-8's form, which UTF-8 forbids (CESU-8's)
        pytest.param(b'"\xed\xa0\x80"', NOT_UTF8 + "invalid continuation byte", 1, id="surrogate"),
        pytest.param(TEXT.encode()[:5], NOT_UTF8 + "unexpected end of data", 4, id="cut"),
    ],
)
def test_json_bytes_are_strict_utf8(raw: bytes, message: str, offset: int) -> None:
    """RFC 8259 (8.1): JSON text exchanged is UTF-8, with no byte order mark.
    ``json.loads`` reads UTF-16 and UTF-32 too and skips a byte order mark:
    one value would have several spellings. Refused, at the byte at fault."""
    with pytest.raises(de.JsonError) as caught:
        de.string.json_to_bytes(raw)
    err = caught.value
    assert (err.code, err.message, err.offset, err.path) == ("invalid_utf8", message, offset, ())
    assert str(err) == f"{message} (byte {offset})"
    assert de.string.json_to_bytes(TEXT.encode()) == b"\x00\x00\x00\x05caf\xc3\xa9"


def test_a_str_with_a_byte_order_mark_is_refused_too() -> None:
    """A ``str`` has no encoding, and U+FEFF is no JSON whitespace: the text
    is not JSON."""
    assert _error(de.string.json_to_bytes, "\ufeff" + TEXT) == (
        de.JsonError,
        "invalid_json",
        "JSON text begins with a byte order mark, which RFC 8259 forbids: U+FEFF",
        (),
    )


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
