"""The generated (fast) JSON converters against the exact ones.

``to_json`` and ``from_json`` first run generated code (``data_encoding.passes.json.fast``)
that says nothing about errors, and on any failure rerun the exact
converters. The rule that makes this correct: on any input, the fast variant
either fails or returns exactly what the exact variant returns. Each
distinct encoding of the reference vectors and the rich encodings of the
failure tests are given valid values, values with one part spoiled, valid
JSON and JSON with one part spoiled; the fast variant must succeed on the
valid ones (else it would be dead weight) and agree with the exact one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import Encoding
from data_encoding.passes.json.fast import (
    exact_from_json,
    exact_to_json,
    fast_from_json,
    fast_to_json,
)
from pairs import NAMES as BINARY_NAMES
from pairs import PAIRS, outcome, spoiled
from rich import FUZZ, PYTHONISH, rich_encodings

ENCODINGS: dict[str, Encoding[Any]] = {name: PAIRS[name][0] for name in BINARY_NAMES}
NAMES = sorted(ENCODINGS)


def _agrees(fast: Callable[[Any], Any], exact: Callable[[Any], Any], x: Any) -> Any:
    """The exact result, after checking that ``fast`` fails or gives the same."""
    expected = outcome(lambda: exact(x))
    try:
        got = fast(x)
    except Exception:  # any failure: the exact variant will run
        return expected
    assert expected == ("ok", got), "the fast variant accepted what the exact one does not"
    assert type(got) is type(expected[1])
    return expected


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_to_json_agrees(name: str, data: st.DataObject) -> None:
    e = ENCODINGS[name]
    value = data.draw(e.strategy())
    assert fast_to_json(e)(value) == exact_to_json(e)(value)  # valid: no bail
    for v in (value, spoiled(value, data)):
        expected = _agrees(fast_to_json(e), exact_to_json(e), v)
        assert outcome(partial(e.to_json, v)) == expected


@FUZZ
@given(st.sampled_from(NAMES), st.data())
def test_from_json_agrees(name: str, data: st.DataObject) -> None:
    e = ENCODINGS[name]
    json = e.to_json(data.draw(e.strategy()))
    assert fast_from_json(e)(json) == exact_from_json(e)(json)  # valid: no bail
    for j in (json, spoiled(json, data), data.draw(PYTHONISH)):
        expected = _agrees(fast_from_json(e), exact_from_json(e), j)
        assert outcome(partial(e.from_json, j)) == expected


def test_composites_are_generated() -> None:
    record = rich_encodings()["record"]
    source = fast_from_json(record).__source__  # type: ignore[attr-defined]
    assert "raise _Bail" in source
    assert fast_to_json(record) is not exact_to_json(record)
    assert fast_to_json(de.int31) is exact_to_json(de.int31)  # a leaf has one variant


PID = de.req("pid", de.int31)
CODE = de.opt("code", de.int8)
STATE = de.union(
    [
        de.case(0, "running", de.obj(de.req("state", de.constant("running")), PID)),
        de.case(1, "exited", de.obj(de.req("state", de.constant("exited")), PID, CODE)),
    ]
)
RECORDS = de.list_(de.obj(de.req("uid", de.uint16), de.req("state", STATE)))


@pytest.mark.parametrize(
    ("json", "expected"),
    [
        # the fast code bails; the exact one names the element, the member, the problem
        (
            [{"uid": 1, "state": {"state": "exited", "pid": 2, "code": 300}}],
            ("JsonError", "out_of_range", None, (0, "state", "code")),
        ),
        (
            [{"uid": 1, "state": {"state": "running", "pid": 2}}, {"uid": -1, "state": None}],
            ("JsonError", "out_of_range", None, (1, "uid")),
        ),
        (
            [{"uid": 1, "state": {"state": "halted", "pid": 2}}],
            ("JsonError", "no_case_matched", None, (0, "state", "state")),
        ),
        (
            [{"uid": 1, "state": {"state": "running", "pid": 2, "code": 0}}],
            ("JsonError", "unexpected_field", None, (0, "state", "code")),
        ),
    ],
)
def test_errors_come_from_the_exact_converter(json: Any, expected: tuple[Any, ...]) -> None:
    assert outcome(lambda: RECORDS.from_json(json)) == expected


def test_a_failure_reruns_the_exact_converter_once() -> None:
    """The exact pass is the only rerun: a failure deep in a recursive value
    costs two passes, not one more per level."""
    calls = []

    def counted(v: int) -> int:
        calls.append(v)
        return v

    leaf = de.obj(de.req("kind", de.constant("leaf")), de.req("v", de.conv(counted, int, de.int8)))

    def node(self: Encoding[Any]) -> Encoding[Any]:
        return de.obj(de.req("kind", de.constant("node")), de.req("l", self), de.req("r", self))

    tree = de.mu(
        "tree", lambda self: de.union([de.case(0, "leaf", leaf), de.case(1, "node", node(self))])
    )
    value: dict[str, Any] = {"kind": "leaf", "v": 1000}  # out of int8's range
    depth = 12
    for _ in range(depth):
        value = {"kind": "node", "l": value, "r": {"kind": "leaf", "v": 1}}
    with pytest.raises(de.EncodeError) as info:
        tree.to_json(value)
    assert info.value.path == ("l",) * depth + ("v",)
    # the bad leaf is the first one reached: once fast, once exact
    assert calls == [1000, 1000]


def _is(kind: type, value: Any) -> bool:
    return type(value) is kind


NUMBER_OR_TEXT = de.union(
    [
        de.case(0, "number", de.int31, partial(_is, int), json_match=partial(_is, int)),
        de.case(1, "text", de.string, partial(_is, str), json_match=partial(_is, str)),
    ]
)


def test_a_union_whose_cases_name_their_json_reads_it_in_generated_code() -> None:
    """Each case's ``json_match`` is one test in the generated reader, the
    case it names read there; what fails goes to the exact converter."""
    items = de.list_(NUMBER_OR_TEXT)
    lines = fast_from_json(items).__source__.splitlines()  # type: ignore[attr-defined]
    assert lines[4:6] == [
        "        if _json_match(item_2):",
        "            if type(item_2) is not int"
        " or not -1073741824 <= item_2 <= 1073741823: raise _Bail",
    ]
    assert lines[7:11] == [
        "        elif _json_match_2(item_2):",
        "            result_3 = _from_json(item_2)",
        "        else:",
        "            raise _Bail",
    ]
    assert items.from_json([5, "a", -7]) == [5, "a", -7]
    assert fast_from_json(items)([5, "a"]) == [5, "a"]  # no bail
    # the case named reads (its error is final), none named: no case
    assert outcome(lambda: items.from_json([1, 2**40])) == (
        "JsonError",
        "out_of_range",
        None,
        (1,),
    )
    assert outcome(lambda: items.from_json(["a", 1.5]))[:2] == ("JsonError", "no_case_matched")
    assert fast_to_json(NUMBER_OR_TEXT) is not exact_to_json(NUMBER_OR_TEXT)


def test_its_printer_too_and_json_another_case_names_goes_to_the_exact_one() -> None:
    lines = fast_to_json(NUMBER_OR_TEXT).__source__.splitlines()  # type: ignore[attr-defined]
    assert lines[1] == "    if _match(v):"
    assert lines[4:7] == [  # the JSON of case 2 must not be case 1's
        "    elif _match_2(v):",
        "        result_1 = _to_json(v)",
        "        if _json_match(result_1): raise _Bail",
    ]
    assert fast_to_json(NUMBER_OR_TEXT)("a") == "a"
    assert NUMBER_OR_TEXT.to_json(5) == 5
    # a value of case "digits" prints as a number, which case "number" reads
    digits = de.union(
        [
            de.case(0, "number", de.int31, partial(_is, int), json_match=partial(_is, int)),
            de.case(
                1, "digits", de.conv(int, str, de.int31), partial(_is, str), json_match=str.isdigit
            ),
        ]
    )
    assert outcome(lambda: digits.to_json("12")) == ("EncodeError", "ambiguous_json", None, ())
