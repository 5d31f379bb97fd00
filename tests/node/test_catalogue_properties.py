"""Strategy-driven properties of every catalogue id (issue 15).

For every registered id, over values its strategy draws:

* each strict prefix of a value's bytes fails with ``not_enough_data`` at an
  offset inside the prefix (an encoding that runs to the end of its input,
  ``VARIABLE``, may instead read a prefix as a shorter value: then that
  value's bytes are the prefix);
* one byte more fails with ``extra_bytes`` at the exact end of the value;
* **canonicity**: bytes that decode re-encode to those very bytes (bytes
  name at most one value), tried with every single-byte change of a valid
  encoding and with random bytes; anything else fails with a
  ``DecodeError``, never another exception;
* the size class the schema publishes (``describe()``) is the encoding's.

The round trips and ``length`` are ``test_catalogue.py``'s.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_ids import ENCODING_IDS
from data_encoding import DecodeError, Encoding
from data_encoding.node import registry
from data_encoding.passes.schema import (
    AnonymousField,
    DynamicSizeField,
    NamedField,
    Obj,
    OptionalField,
)
from data_encoding.tree.size import DYNAMIC, VARIABLE, Fixed, Size, sequence_size

PROPERTY = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


def _decoded(e: Encoding[Any], raw: bytes) -> tuple[str, Any]:
    """``("ok", value)`` or ``("error", DecodeError)``: any other exception escapes."""
    try:
        return ("ok", e.decode(raw))
    except DecodeError as err:
        return ("error", err)


def _canonical(e: Encoding[Any], raw: bytes) -> None:
    """``raw`` fails to decode, or decodes to a value whose bytes are ``raw``."""
    kind, result = _decoded(e, raw)
    if kind == "ok":
        assert e.encode(result) == raw, f"{raw.hex()} decodes, but re-encodes otherwise"


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_prefixes_fail_for_want_of_data(id: str) -> None:
    e = registry.find(id).encoding

    @PROPERTY
    @given(e.strategy())
    def check(value: Any) -> None:
        raw = e.encode(value)
        for k in range(len(raw)):
            kind, result = _decoded(e, raw[:k])
            if e.size is VARIABLE and kind == "ok":
                assert e.encode(result) == raw[:k]
                continue
            assert kind == "error", f"the {k}-byte prefix of {raw.hex()} decodes"
            assert result.code == "not_enough_data", (k, raw.hex(), result)
            assert result.offset is not None and 0 <= result.offset <= k, (k, raw.hex(), result)

    check()


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_one_byte_more_is_extra(id: str) -> None:
    e = registry.find(id).encoding

    @PROPERTY
    @given(e.strategy(), st.integers(0, 255))
    def check(value: Any, byte: int) -> None:
        raw = e.encode(value)
        longer = raw + bytes([byte])
        if e.size is VARIABLE:  # the value runs to the end of its input
            _canonical(e, longer)
            return
        kind, result = _decoded(e, longer)
        assert kind == "error"
        assert (result.code, result.offset) == ("extra_bytes", len(raw))

    check()


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_single_byte_changes_decode_canonically_or_fail(id: str) -> None:
    e = registry.find(id).encoding

    @PROPERTY
    @given(e.strategy(), st.data())
    def check(value: Any, data: st.DataObject) -> None:
        raw = e.encode(value)
        if not raw:
            return
        at = data.draw(st.integers(0, len(raw) - 1), label="at")
        byte = data.draw(st.integers(0, 255).filter(lambda b: b != raw[at]), label="byte")
        _canonical(e, raw[:at] + bytes([byte]) + raw[at + 1 :])

    check()


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_random_bytes_decode_canonically_or_fail(id: str) -> None:
    e = registry.find(id).encoding

    @PROPERTY
    @given(st.binary(max_size=64))
    def check(raw: bytes) -> None:
        _canonical(e, raw)

    check()


def _schema_size(top: Obj) -> Size:
    """The size class a published layout states: a field after a length
    header (``DynamicSizeField``) or a presence byte (``OptionalField``)
    says where it ends; the others have their own ``kind``."""
    sizes: list[Size] = []
    delimited = False
    for f in top.fields:
        if isinstance(f, DynamicSizeField | OptionalField):
            delimited = True
            continue
        assert isinstance(f, NamedField | AnonymousField)
        sizes.append(DYNAMIC if delimited else f.kind)
        delimited = False
    return sequence_size(sizes, "the published layout")


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_the_published_size_class_is_the_encodings(id: str) -> None:
    e = registry.find(id).encoding
    top = e.describe().toplevel
    assert isinstance(top, Obj)
    assert _schema_size(top) == e.size
    if isinstance(e.size, Fixed):
        assert e.fixed_length == e.size.n


def test_the_readme_names_tests_that_exist() -> None:
    """Each test the README's "What decoding promises" names is a test of the suite."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    section = readme.split("## What decoding promises", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`(test_\w+)`", section))
    defined = {
        m
        for path in (root / "tests").rglob("test_*.py")
        for m in re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE)
    }
    assert len(named) >= 12
    assert named <= defined, named - defined
