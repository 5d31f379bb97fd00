"""Binary schemas in every spelling a node has published, printed back as they came.

Three spellings of the same language exist in real answers
(``tests/vectors/``, ``shared/reference/legacy-dialect.md``):

* legacy (the seed's node, the 2021 mempool answer): ``"Float"`` sizes,
  ``"max_length"``, no ``endianness``;
* data-encoding 0.5.3 (the 2022 mempool answer): ``"Float"`` sizes beside
  ``length_limit``;
* data-encoding 1.0 (its own describe expect tests): ``"Fixed"``,
  ``length_limit``, ``endianness``, ``N`` headers.

Whichever dialect reads a schema, it prints each part back in the words it
came in. The legacy binary form has no words: it writes what it can state and
refuses, with ``not_in_dialect``, what it cannot (a little-endian integer, an
exact sequence length, an ``N`` header); read back, such bytes print in the
legacy words.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from data_encoding import EncodeError, binary_schema, binary_schema_v1
from data_encoding.jsonvalue import loads
from golden import VECTORS, expect_tests, ordered_json

ONE_ZERO = {
    e["source"].rsplit("#", 1)[1]: json.loads(e["binary_schema_json_text"])
    for e in expect_tests()
    if "binary_schema_json_text" in e
}
"""data-encoding 1.0's own describe expect tests: real 1.0 output, by line anchor."""

NOT_IN_LEGACY = {
    "L1158": "an exact sequence length",
    "L1820": "an N size header",
    "L1914": "a little-endian integer",
}
"""The 1.0 schemas the legacy binary form cannot state, and what it names."""


def _legacy_words(j: Any) -> Any:
    """The legacy spelling of a 1.0 schema's JSON: the reference's mechanical
    rewrite (M1 ``Fixed`` -> ``Float``, M2 an ``at-most`` ``length_limit`` ->
    ``max_length``), for schemas that have nothing legacy cannot state."""
    if isinstance(j, list):
        return [_legacy_words(x) for x in j]
    if not isinstance(j, dict):
        return j
    out: dict[str, Any] = {}
    for k, v in j.items():
        if k == "length_limit":
            assert v["kind"] == "at-most"
            out["max_length"] = v["at_most"]
        elif k == "kind" and v == "Fixed":
            out[k] = "Float"
        else:
            out[k] = _legacy_words(v)
    return out


def test_the_one_zero_schemas_cover_every_variant() -> None:
    text = json.dumps(ONE_ZERO)
    assert len(ONE_ZERO) == 32
    assert text.count('"Fixed"') == 86
    assert text.count('"at-most"') == 5
    assert text.count('"exactly"') == 12  # six limits: the word and the key
    assert text.count('"Little"') == 3
    assert text.count('"N"') == 1
    assert '"Float"' not in text


@pytest.mark.parametrize("dialect", [binary_schema, binary_schema_v1], ids=["legacy", "1.0"])
@pytest.mark.parametrize("anchor", sorted(ONE_ZERO))
def test_a_one_zero_schema_prints_back_as_it_came(dialect: Any, anchor: str) -> None:
    j = ONE_ZERO[anchor]
    assert ordered_json(dialect.to_json(dialect.from_json(j))) == ordered_json(j)


@pytest.mark.parametrize("anchor", sorted(ONE_ZERO))
def test_the_legacy_binary_form_states_what_it_can(anchor: str) -> None:
    j = ONE_ZERO[anchor]
    schema = binary_schema.from_json(j)
    assert binary_schema_v1.decode(binary_schema_v1.encode(schema)) == schema
    if anchor in NOT_IN_LEGACY:
        with pytest.raises(EncodeError) as caught:
            binary_schema.encode(schema)
        assert caught.value.code == "not_in_dialect"
        assert caught.value.message == (
            f"the legacy schema dialect cannot state {NOT_IN_LEGACY[anchor]}: use binary_schema_v1"
        )
        return
    back = binary_schema.decode(binary_schema.encode(schema))
    assert back == schema
    assert ordered_json(binary_schema.to_json(back)) == ordered_json(_legacy_words(j))


def _binary_schemas(tree: Any) -> list[Any]:
    """Every ``binary_schema`` member of a ``/describe`` answer, in document order."""
    if isinstance(tree, list):
        return [s for x in tree for s in _binary_schemas(x)]
    if not isinstance(tree, dict):
        return []
    # items(): every member, those an object gives twice included
    return [
        s for k, v in tree.items() for s in ([v] if k == "binary_schema" else _binary_schemas(v))
    ]


def _answer(year: int) -> Any:
    """A real answer as it was sent (the library's reader keeps repeated members)."""
    return loads((VECTORS / f"describe-mempool-{year}.json").read_text())


@pytest.mark.parametrize("year", [2021, 2022])
def test_each_answers_schemas_print_back_in_either_dialect(year: int) -> None:
    schemas = _binary_schemas(_answer(year))
    assert len(schemas) == 21  # every "binary_schema" member of the text
    for dialect in (binary_schema, binary_schema_v1):
        for j in schemas:
            assert ordered_json(dialect.to_json(dialect.from_json(j))) == ordered_json(j)
