"""What the failure tables of ``tests/passes/`` (``test_failures_*.py``)
and the tests of errors beside them share.

A table row names an encoding, an input, and the error it must raise:
``(class, code, offset, path)``, checked by :func:`assert_error`. Paths list
the record keys and list/tuple indexes from the root to the failing value.
Inputs are hex with spaces between the fields (:func:`h`); :func:`refuse`
and :func:`same` are user conversions; the encodings below are those the
tables of several modules use.
"""

from __future__ import annotations

from typing import Any

from data_encoding import (
    DataEncodingError,
    bool_,
    case,
    int31,
    int64,
    list_,
    matching,
    obj,
    opt,
    req,
    string,
    string_enum,
    uint8,
    uint16,
    union,
)
from data_encoding.errors import PathStep

Path = tuple[PathStep, ...]


def h(text: str) -> bytes:
    """Bytes from hex written with spaces between the fields, for readability."""
    return bytes.fromhex(text.replace(" ", ""))


def refuse(value: object) -> Any:
    """A user conversion that always fails."""
    raise ValueError(f"refused {value!r}")


def same(value: Any) -> Any:
    return value


def assert_error(
    err: DataEncodingError,
    cls: type[DataEncodingError],
    code: str,
    offset: int | None,
    path: Path,
) -> None:
    assert type(err) is cls, repr(err)
    assert (err.code, err.offset, err.path) == (code, offset, path), repr(err)


# Shared encodings of the tables.
BY_WIDTH = union([case(0, "a", obj(req("x", uint8))), case(1, "b", obj(req("x", uint16)))])
# two shapes that agree on "x": a bad "x" fails both the same way
SAME_X = union(
    [case(0, "a", obj(req("x", uint8), opt("y", uint8))), case(1, "b", obj(req("x", uint8)))]
)
INT_OR_STRING = union([case(0, "a", uint8), case(1, "b", string)])
NESTED = obj(req("a", list_(obj(req("b", bool_)))))
ENUM = string_enum(["a", "b", "c"])


def _by_size(value: Any) -> int | None:
    """The tag of the smallest of MATCHING's cases that holds ``value``."""
    if type(value) is not int:
        return None
    return 0 if -(2**30) <= value < 2**30 else 1 if -(2**63) <= value < 2**63 else 9


# a matching union: its function names the case; 9 is the tag of no case
MATCHING = matching(_by_size, [case(0, "small", int31), case(1, "big", int64)])
