"""``json``: any JSON value.

JSON: the value itself (an object that gives a member name twice is a
:class:`~data_encoding.jsonvalue.RepeatedMembers`, kept whole as the
reference keeps it). Binary: a BSON document in a uint30 length-prefixed
frame, as the reference writes it (see :mod:`data_encoding.tree.bson`). Every
number is a double (an integral one reads back as an ``int``, -0.0 as 0), and
an array at the root, which BSON cannot mark, reads back as an object keyed
``"0"``, ``"1"``, ... as in the reference. Below the root, arrays keep their
type, the empty one too (the reference reads that one as ``{}``).

>>> json.encode({"a": True}).hex()
'00000009090000000861000100'
>>> json.decode(json.encode([1, 2]))
{'0': 1, '1': 2}
>>> json.decode(json.encode({"k": []}))
{'k': []}
"""

from __future__ import annotations

import math
from typing import Any

from .. import depth
from ..errors import DataEncodingError, EncodeError, JsonError, describe_value
from ..jsonvalue import JsonValue, has_decimal_form, type_name
from .core import Encoding, publish
from .framing import DynamicSize
from .size import VARIABLE


def check_json(value: Any, cls: type[EncodeError] | type[JsonError]) -> None:
    """Raise ``cls`` unless ``value`` is a JSON value (finite numbers, string
    keys) nested no deeper than the depth limit allows (see :mod:`.depth`)."""
    _check(value, cls, depth.level())


def _check(value: Any, cls: type[EncodeError] | type[JsonError], level: int) -> None:
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not has_decimal_form(value):
            raise cls(
                "out_of_range",
                f"{describe_value(value)} has no decimal form (sys.get_int_max_str_digits())",
            )
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise cls("invalid_utf8", "the string has no UTF-8 form (a lone surrogate)") from None
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise cls("not_json", f"{describe_value(value)} is not a JSON number")
        return
    if isinstance(value, list | dict) and level >= depth.max_depth():
        raise depth.past_depth_limit(cls)
    if isinstance(value, list):
        for i, item in enumerate(value):
            try:
                _check(item, cls, level + 1)
            except DataEncodingError as err:
                raise err.within(i) from None
        return
    if isinstance(value, dict):
        for key, item in value.items():  # every member of a RepeatedMembers
            if not isinstance(key, str):
                raise cls("not_json", f"object key {key!r} is not a string")
            _check(key, cls, level)
            try:
                _check(item, cls, level + 1)
            except DataEncodingError as err:
                raise err.within(key) from None
        return
    raise cls("not_json", f"a {type_name(value)} is not a JSON value")


class Bson(Encoding[JsonValue]):
    """Any JSON value as a header-less BSON document (variable size)."""

    def __init__(self) -> None:
        self.size = VARIABLE
        self.nullable = True

    def _rebuild(self) -> tuple[Any, ...]:
        return (Bson, ())


json: DynamicSize[JsonValue] = DynamicSize(Bson())
"""Any JSON value; binary: BSON in a uint30 length-prefixed frame."""


publish(__name__, globals())  # the encodings above pickle by reference
