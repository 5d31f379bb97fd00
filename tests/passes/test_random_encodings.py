"""Properties over random encodings (``random_dsl``), whose names, titles and
constants include hostile strings (template holes, quotes, the generated
code's own variable names).

For an encoding ``e`` the library accepts and a value ``v`` of its strategy:

* ``decode(encode(v))`` and ``from_json(to_json(v))`` give ``v`` back, and
  ``length(v) == len(encode(v))``;
* ``encode(from_json(to_json(v))) == encode(v)``;
* mutated and truncated bytes raise :class:`DecodeError` and nothing else,
  and bytes that decode are canonical: ``encode(decode(b)) == b``;
* a spoiled value gets the same error from ``encode``, ``length`` and
  ``to_json``;
* the encoding pickles, and its copy encodes alike.
"""

from __future__ import annotations

import pickle
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from dsl import Dsl
from hand import assert_same
from pairs import spoiled
from random_dsl import encodings

RANDOM = settings(
    max_examples=max(150, settings().max_examples),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

Built = tuple[Dsl, de.Encoding[Any]]


def _mutations(data: bytes) -> list[bytes]:
    """Every strict prefix, and each byte replaced by 00, 01, ff and itself ^ 1."""
    out = [data[:i] for i in range(len(data))]
    for i, b in enumerate(data):
        out += [data[:i] + bytes([x]) + data[i + 1 :] for x in {0, 1, 0xFF, b ^ 1}]
    return out


@RANDOM
@given(encodings(), st.data())
def test_values_round_trip(built: Built, data: st.DataObject) -> None:
    _, e = built
    v = data.draw(e.strategy())
    encoded = e.encode(v)
    assert_same(e.decode(encoded), v, "decode(encode(v))")
    assert e.length(v) == len(encoded)
    assert_same(e.from_json(e.to_json(v)), v, "from_json(to_json(v))")
    assert e.encode(e.from_json(e.to_json(v))) == encoded


@RANDOM
@given(encodings(), st.data(), st.binary(max_size=16))
def test_bad_bytes_raise_only_decode_errors(built: Built, data: st.DataObject, raw: bytes) -> None:
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    for bad in [raw, *_mutations(encoded)]:
        try:
            value = e.decode(bad)
        except de.DecodeError:
            continue
        assert e.encode(value) == bad, value


# Errors that exist in one direction only: limits of the binary form, and
# values that have no JSON form (or no BSON form).
BINARY_ONLY = {
    "list_too_long",
    "array_too_long",
    "size_limit_exceeded",
    "empty_optional",
    "no_case_matched",  # a value of a JSON-only union case
    "out_of_range",  # an integer that BSON cannot hold exactly
}
JSON_ONLY = {"not_json", "out_of_range", "ambiguous_json"}  # NaN; long numbers; a lost case


def _error(action: Any, value: Any) -> tuple[str, tuple[Any, ...]] | None:
    try:
        action(value)
    except de.EncodeError as err:
        return err.code, err.path
    return None


@RANDOM
@given(encodings(), st.data())
def test_encode_length_and_to_json_blame_the_same_part(built: Built, data: st.DataObject) -> None:
    """One bad value, one error: the same code at the same path, whichever
    direction finds it (unless only one direction has that limit)."""
    _, e = built
    value = spoiled(data.draw(e.strategy()), data)
    binary, length, json = (
        _error(e.encode, value),
        _error(e.length, value),
        _error(e.to_json, value),
    )
    assert length == binary
    if binary is not None and json is not None:
        if binary[0] not in BINARY_ONLY and json[0] not in JSON_ONLY:
            assert binary == json
    elif binary is not None:
        assert binary[0] in BINARY_ONLY, binary
    elif json is not None:
        assert json[0] in JSON_ONLY, json


@RANDOM
@given(encodings(), st.data())
def test_encodings_pickle(built: Built, data: st.DataObject) -> None:
    _, e = built
    v = data.draw(e.strategy())
    copy = pickle.loads(pickle.dumps(e))
    assert copy.encode(v) == e.encode(v)
    if _error(e.to_json, v) is None:
        assert copy.to_json(v) == e.to_json(v)
