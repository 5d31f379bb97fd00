"""Generated code at its edges: the fields after a branching part are
written and read in the right frame, and user text (constants, keys, case
names) reaches generated code as data, never as code.
"""

from __future__ import annotations

from typing import Any

import pytest

import data_encoding as de
from data_encoding import (
    DecodeError,
    Encoding,
    case,
    constant,
    obj,
    opt,
    option,
    req,
    tup,
    uint8,
    uint16,
    union,
    variable,
)
from failing import assert_error, h

BRANCHING_VAROPT = de.obj(
    de.varopt("a", de.union([de.case(0, "a", de.uint8), de.case(1, "b", de.bool_)])),
    de.req("b", de.uint16),
)


def test_fields_after_a_branching_varopt_are_written_and_read() -> None:
    """A varopt field whose encoding branches (a union) used to hand the rest
    of the record to branches it never emitted: the fields after it were
    dropped when writing, and reading raised ``NameError``."""
    assert BRANCHING_VAROPT.encode({"a": 5, "b": 7}).hex() == "00050007"
    assert BRANCHING_VAROPT.encode({"a": None, "b": 7}).hex() == "0007"
    assert BRANCHING_VAROPT.decode(h("00050007")) == {"a": 5, "b": 7}
    assert BRANCHING_VAROPT.decode(h("0007")) == {"a": None, "b": 7}
    with pytest.raises(DecodeError) as info:
        BRANCHING_VAROPT.decode(b"")
    assert_error(info.value, DecodeError, "not_enough_data", 0, ("a",))


@pytest.mark.parametrize(
    ("e", "data"),
    [
        (tup(union([case(0, "a", variable.list_(uint8))]), uint16), "00 0102 0007"),
        (tup(option(variable.bytes_), uint16), "01 0102 0007"),
        (
            obj(req("a", obj(req("u", union([case(0, "b", variable.string)])))), req("t", uint16)),
            "00 0102 0007",
        ),
    ],
    ids=["union", "option", "nested"],
)
def test_a_fixed_tail_after_a_branching_variable_part_is_read_in_the_whole_frame(
    e: Encoding[Any], data: str
) -> None:
    """The fields after a variable part are read from the end of the frame;
    they must not be read in the variable part's own, shorter frame."""
    value = e.decode(h(data))
    assert e.encode(e.from_json(e.to_json(value))) == h(data)


@pytest.mark.parametrize("text", ["x{}y", "{}", "{0}", "'", '"', "\\", "\n", "None", "x"])
def test_user_strings_are_data_in_generated_code(text: str) -> None:
    """Constants, keys and titles reach generated code as values, never as code."""
    e = obj(req("k", constant(text)), req(text or "_", uint8), opt("o", constant(text)))
    value = {"k": text, text or "_": 1, "o": text}
    data = e.encode(value)
    assert data.hex() == "01ff"
    assert e.decode(data) == value
    assert e.from_json(e.to_json(value)) == value
    named = union([case(0, text, obj(req("kind", constant(text)), req("v", uint8)))])
    assert named.decode(named.encode({"kind": text, "v": 2})) == {"kind": text, "v": 2}
