"""Only the library's errors leave, each entry point's own class:
``decode`` raises ``DecodeError``, ``from_json`` ``JsonError``, ``encode``,
``to_json`` and ``length`` ``EncodeError``, whatever the input (numbers
without a decimal form, objects whose ``repr`` raises, a conversion raising
another entry point's error). Fuzz tests check it over the rich encodings
and arbitrary inputs. Beside it: ``decode`` takes any bytes-like input, a
binary schema's float bounds are finite, and each code of the closed set is
raised somewhere in the package.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    JsonError,
    conv,
    float_,
    int31,
    int64,
    json,
    n,
    obj,
    ranged_float,
    req,
    string,
    uint8,
    uint16,
    z,
)
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from failing import ENUM, assert_error, same
from rich import FUZZ, JSONISH, PYTHONISH, RICH, BadRepr, mutated

BIG = 10**5000  # no decimal form: str() and repr() of it raise ValueError
UNTYPED: Any = de  # the package as an untyped caller sees it

# (action, error class, code): every public entry point raises only its own errors
FOREIGN_ROWS = [
    pytest.param(lambda: int31.from_json(BIG), JsonError, "out_of_range", id="int31-from-json"),
    pytest.param(lambda: float_.from_json(BIG), JsonError, "out_of_range", id="float-from-json"),
    pytest.param(lambda: uint8.encode(BIG), EncodeError, "invalid_int", id="uint8-encode"),
    pytest.param(lambda: uint8.to_json(-BIG), EncodeError, "invalid_int", id="uint8-to-json"),
    pytest.param(lambda: int64.encode(BIG), EncodeError, "invalid_int", id="int64-encode"),
    pytest.param(lambda: n.encode(-BIG), EncodeError, "negative_natural", id="n-negative"),
    pytest.param(lambda: z.to_json(BIG), EncodeError, "out_of_range", id="z-to-json"),
    pytest.param(lambda: json.encode(BIG), EncodeError, "out_of_range", id="json-encode"),
    pytest.param(lambda: json.to_json(BIG), EncodeError, "out_of_range", id="json-to-json"),
    pytest.param(
        # int64's error, as encode gives it
        lambda: de.timestamp.protocol.to_json(BIG),
        EncodeError,
        "invalid_int",
        id="timestamp",
    ),
    pytest.param(lambda: float_.to_json(10**400), EncodeError, "out_of_range", id="float-to-json"),
    pytest.param(lambda: float_.encode(10**400), EncodeError, "out_of_range", id="float-encode"),
    pytest.param(lambda: float_.length(10**400), EncodeError, "out_of_range", id="float-length"),
    pytest.param(lambda: ENUM.encode(BadRepr()), EncodeError, "no_case_matched", id="bad-repr"),
    pytest.param(
        lambda: UNTYPED.uint8.encode(BadRepr()), EncodeError, "wrong_type", id="bad-repr-int"
    ),
    pytest.param(lambda: UNTYPED.uint16.decode("0001"), DecodeError, "wrong_type", id="decode-str"),
    pytest.param(lambda: UNTYPED.uint16.decode(None), DecodeError, "wrong_type", id="decode-none"),
    pytest.param(
        lambda: UNTYPED.uint16.decode_prefix([0, 1]),
        DecodeError,
        "wrong_type",
        id="decode-prefix-list",
    ),
]


@pytest.mark.parametrize(("action", "cls", "code"), FOREIGN_ROWS)
def test_only_library_errors_leave(action: Callable[[], object], cls: type, code: str) -> None:
    with pytest.raises(DataEncodingError) as info:
        action()
    assert (type(info.value), info.value.code) == (cls, code), repr(info.value)
    assert info.value.message in str(info.value)  # the message itself can be printed


def test_decode_takes_any_bytes_like_input() -> None:
    assert uint16.decode(bytearray(b"\x00\x01")) == 1
    assert uint16.decode(memoryview(b"\x00\x01")) == 1
    assert uint16.decode_prefix(memoryview(b"\x07\x00\x01"), 1) == (1, 3)


def test_schema_float_bounds_are_finite() -> None:
    """A RangedFloat layout's bounds are read as numbers that ``to_json`` can print."""
    published = de.binary_schema.to_json(ranged_float(-1.0, 1.0).describe())
    assert isinstance(published, dict)
    assert de.binary_schema.to_json(de.binary_schema.from_json(published)) == published
    layout = published["toplevel"]["fields"][0]["layout"]  # type: ignore[call-overload,index]
    assert layout == {"min": -1.0, "max": 1.0, "kind": "RangedFloat"}
    layout["min"] = float("nan")
    with pytest.raises(JsonError) as info:
        de.binary_schema.from_json(published)
    assert_error(
        info.value, JsonError, "not_json", None, ("toplevel", "fields", 0, "layout", "min")
    )


def _raising(cls: type[de.DataEncodingError]) -> Callable[[Any], Any]:
    """A conversion that refuses its value with one of the library's errors."""

    def convert(value: Any) -> Any:
        raise cls("invalid_timestamp", f"{value!r} is not a date", offset=3)

    return convert


@pytest.mark.parametrize("raised", [de.JsonError, de.EncodeError, de.DecodeError])
def test_a_conversion_raising_another_entry_points_error_raises_this_ones(
    raised: type[de.DataEncodingError],
) -> None:
    """A conversion may parse with the library (a JSON parser inside a
    binary decode): whatever class it raises, each entry point raises its
    own, with the conversion's code and message; ``decode`` locates it at
    the wire value (an offset the conversion gives counts within what it
    parsed, not the input), and JSON errors have no offset."""
    reading = conv(same, _raising(raised), uint8)
    writing = conv(_raising(raised), same, uint8)
    actions: list[tuple[Callable[[], object], type[DataEncodingError]]] = [
        (lambda: obj(req("a", uint8), req("b", reading)).decode(b"\x01\x05"), DecodeError),
        (lambda: reading.from_json(5), JsonError),
        (lambda: writing.encode(5), EncodeError),
        (lambda: writing.length(5), EncodeError),
        (lambda: writing.to_json(5), EncodeError),
    ]
    for action, cls in actions:
        with pytest.raises(cls) as caught:
            action()
        assert type(caught.value) is cls
        assert (caught.value.code, caught.value.message) == ("invalid_timestamp", "5 is not a date")
    with pytest.raises(DecodeError) as located:
        obj(req("a", uint16), req("b", conv(same, _raising(raised), string))).decode(
            bytes.fromhex("0001 00000001 61")
        )
    assert (located.value.offset, located.value.path) == (2, ("b",))
    with pytest.raises(DecodeError) as fused:  # a conversion of a fixed-width leaf
        obj(req("a", uint16), req("b", reading)).decode(b"\x00\x01\x05")
    assert (fused.value.offset, fused.value.path) == (2, ("b",))
    with pytest.raises(JsonError) as in_json:
        obj(req("b", reading)).from_json({"b": 5})
    assert (in_json.value.offset, in_json.value.path) == (None, ("b",))


def test_a_bad_rfc3339_text_in_bytes_is_a_decode_error() -> None:
    """Found by the catalogue's properties: an empty string where an RFC 3339
    date-time was expected raised a ``JsonError`` out of ``decode``."""
    rfc = registry.find("timestamp.rfc").encoding
    with pytest.raises(DecodeError) as caught:
        rfc.decode(bytes(4))
    assert (caught.value.code, caught.value.offset) == ("invalid_timestamp", 0)


def test_every_error_code_is_raised_somewhere() -> None:
    """The closed set has no dead word: each code appears in the package
    outside ``errors.py`` (``invalid_definition`` is ``DefinitionError``'s own)."""
    from pathlib import Path

    from data_encoding.errors import ERROR_CODES

    package = Path(de.__file__).parent
    source = "\n".join(p.read_text() for p in package.rglob("*.py") if p.name != "errors.py")
    unused = {c for c in ERROR_CODES if f'"{c}"' not in source}
    assert unused == {"invalid_definition"}
    with pytest.raises(AssertionError):
        de.DecodeError("not_a_code", "x")  # type: ignore[arg-type]


# ------------------------------------------------------------------- fuzzing


NAMES = st.sampled_from(sorted(RICH))


@FUZZ
@given(NAMES.flatmap(lambda name: st.tuples(st.just(name), mutated(RICH[name]))), st.integers(0, 3))
def test_fuzz_decode_raises_only_decode_error(case_: tuple[str, bytes], start: int) -> None:
    name, data = case_
    enc = RICH[name]
    try:
        enc.decode(data)
    except DecodeError as err:
        assert err.offset is None or 0 <= err.offset <= len(data)
    with contextlib.suppress(DecodeError):
        enc.decode_prefix(b"\x00" * start + data, start)


@FUZZ
@given(NAMES, JSONISH)
def test_fuzz_from_json_raises_only_json_error(name: str, value: JsonValue) -> None:
    try:
        RICH[name].from_json(value)
    except JsonError as err:
        assert err.offset is None


@FUZZ
@given(NAMES, PYTHONISH)
def test_fuzz_encode_raises_only_encode_error(name: str, value: Any) -> None:
    enc = RICH[name]
    for action in (enc.encode, enc.to_json, enc.length):
        try:
            action(value)
        except EncodeError as err:
            assert err.offset is None
