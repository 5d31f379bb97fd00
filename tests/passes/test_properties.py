"""Property tests: every encoding round-trips the values its own strategy draws.

Two families of encodings are checked:

* ``HAND``: hand-written encodings covering every combinator of
  ``data_encoding.__all__``;
* ``VECTORS``: every distinct encoding of the reference vectors
  (``legacy-conformance.jsonl``), built through the DSL of ``dsl.build``.

For an encoding ``e`` and a value ``v`` drawn from ``e.strategy()``:

* binary: ``decode(encode(v)) == v``, ``length(v) == len(encode(v))``, and
  ``Fixed(n)`` encodings write exactly ``n`` bytes;
* JSON: ``from_json(to_json(v)) == v``, and the JSON survives a text round trip
  (``json.dumps`` / the library's strict reader, which keeps a member given
  twice) unchanged;
* framing: ``decode_prefix`` finds the value inside a larger buffer, and, for
  encodings that are not variable-size (they know where they end), every
  strict prefix fails with ``not_enough_data`` and one more byte fails with
  ``extra_bytes`` at the end of the value.

Equality is checked twice: with ``==``, and with :func:`same`, which also
tells ``True`` from ``1``, ``str`` from ``bytes``, ``tuple`` from ``list`` and
``0.0`` from ``-0.0`` (JSON numbers still compare by value: an integral
double may come back from BSON as an ``int``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import VARIABLE, DecodeError, Encoding, Fixed
from data_encoding.jsonvalue import loads
from hand import HAND, VECTORS, assert_same, vector_settings

# ------------------------------------------------------------------ helpers


def check_binary(e: Encoding[Any], v: Any) -> None:
    encoded = e.encode(v)
    assert_same(e.decode(encoded), v, "decode(encode(v))")
    assert e.length(v) == len(encoded), (e.length(v), encoded.hex())
    if isinstance(e.size, Fixed):
        assert len(encoded) == e.size.n, (e.size, encoded.hex())
        assert e.fixed_length == e.size.n
    else:
        assert e.fixed_length is None


def check_json(e: Encoding[Any], v: Any) -> None:
    j = e.to_json(v)
    assert_same(e.from_json(j), v, "from_json(to_json(v))")
    text = json.dumps(j, allow_nan=False)
    reparsed = loads(text)
    assert_same(reparsed, j, f"JSON text round trip of {text}")
    assert_same(e.from_json(reparsed), v, f"from_json({text})")


def _decode_error(e: Encoding[Any], data: bytes) -> DecodeError:
    """The error that decoding ``data`` must raise."""
    with pytest.raises(DecodeError) as info:
        e.decode(data)
    return info.value


def check_framing(e: Encoding[Any], v: Any) -> None:
    encoded = e.encode(v)
    if e.size is VARIABLE:
        # a variable-size value runs to the end of the input
        found = e.decode_prefix(b"\xaa\xbb" + encoded, 2)
        assert_same(found, (v, 2 + len(encoded)), "decode_prefix")
        return
    found = e.decode_prefix(b"\xaa\xbb" + encoded + b"\xcc", 2)
    assert_same(found, (v, 2 + len(encoded)), "decode_prefix")
    for cut in range(len(encoded)):
        err = _decode_error(e, encoded[:cut])
        assert err.code == "not_enough_data", (cut, encoded.hex(), repr(err))
    err = _decode_error(e, encoded + b"\x00")
    assert err.code == "extra_bytes", (encoded.hex(), repr(err))
    assert err.offset == len(encoded), (encoded.hex(), repr(err))


def check_all(e: Encoding[Any], v: Any) -> None:
    """Every property; all of them are checked even when one fails."""
    failures: list[Exception] = []
    for check in (check_binary, check_json, check_framing):
        try:
            check(e, v)
        except Exception as exc:
            exc.add_note(f"property: {check.__name__}")
            failures.append(exc)
    if len(failures) == 1:
        raise failures[0]
    if failures:
        raise ExceptionGroup(f"{len(failures)} properties fail", failures)


# -------------------------------------------------------- hand-written encodings


def test_property_hand_encodings_cover_every_combinator() -> None:
    """Every combinator of ``__all__`` is used by some hand-written encoding."""
    covered = {
        "null",
        "empty",
        "unit",
        "constant",
        "bool_",
        "int8",
        "uint8",
        "int16",
        "uint16",
        "int31",
        "int32",
        "int64",
        "uint30",
        "ranged_int",
        "float_",
        "ranged_float",
        "n",
        "z",
        "string",
        "bytes_",
        "fixed",
        "variable",
        "bounded",
        "obj",
        "req",
        "opt",
        "varopt",
        "dft",
        "tup",
        "merge_objs",
        "merge_tups",
        "list_",
        "array",
        "list_with_length",
        "array_with_length",
        "option",
        "union",
        "matching",
        "case",
        "string_enum",
        "conv",
        "def_",
        "mu",
        "delayed",
        "dynamic_size",
        "check_size",
        "padded",
        "splitted",
        "hashes",
        "timestamp",
        "json",
        "binary_schema",
        "binary_schema_v1",
    }
    not_combinators = {
        "max_depth",
        "set_max_depth",
        "DYNAMIC",
        "VARIABLE",
        "Atom",
        "BinarySchema",
        "Case",
        "DataEncodingError",
        "DecodeError",
        "DefinitionError",
        "EncodeError",
        "Encoding",
        "ErrorCode",
        "Field",
        "Fixed",
        "JsonError",
        "NonCanonical",
        "reference_value",
        "from_schema",  # builds encodings from schemas: tests/passes/test_rebuild.py
        "RepeatedMembers",
        "Size",
    }
    assert set(de.__all__) - not_combinators == covered


@pytest.mark.parametrize("name", list(HAND))
@given(data=st.data())
def test_property_hand(name: str, data: st.DataObject) -> None:
    e = HAND[name]
    check_all(e, data.draw(e.strategy(), label="v"))


# ------------------------------------------------------- reference vector encodings


def test_property_vector_encoding_count() -> None:
    assert len(VECTORS) == 117


@pytest.mark.parametrize("name", list(VECTORS))
@vector_settings
@given(data=st.data())
def test_property_vector(name: str, data: st.DataObject) -> None:
    e = VECTORS[name]
    check_all(e, data.draw(e.strategy(), label="v"))
