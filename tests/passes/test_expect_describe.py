"""The upstream 1.0 ``describe`` expect tests (``data_encoding_expect_tests.json``).

Each OCaml expression is translated by hand into our combinators (the table
:data:`TRANSLATIONS`, keyed by the line anchor of the test's ``source``); the
ones our library cannot express are listed in :data:`UNTRANSLATED` with the
reason, and :func:`test_every_describe_entry_is_accounted_for` checks that the
two tables cover exactly the upstream tests, so none is skipped silently.

For each translated test, in the 1.0 dialect:

* ``binary_schema_v1.to_json(e.describe("1.0"))`` equals the parsed
  ``binary_schema_json_text``, key order included;
* ``e.table("1.0")`` equals ``rendered`` (up to trailing newlines).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from data_encoding import (
    Encoding,
    binary_schema_v1,
    bool_,
    bounded,
    case,
    check_size,
    constant,
    def_,
    empty,
    fixed,
    int31,
    int64,
    list_,
    list_with_length,
    mu,
    null,
    obj,
    opt,
    option,
    padded,
    req,
    string,
    tup,
    uint8,
    uint16,
    union,
)
from golden import expect_tests, ordered_json


def _anchor(entry: dict[str, Any]) -> str:
    """The line anchor of an entry's ``source`` (``...describe.ml#L43`` -> ``L43``)."""
    source: str = entry["source"]
    return source.rsplit("#", 1)[1]


DESCRIBE_ENTRIES: dict[str, dict[str, Any]] = {
    _anchor(t): t for t in expect_tests() if t["file"] == "describe"
}


# ------------------------------------------------------- shared definitions


def tup2_zero_width() -> Encoding[Any]:
    # let tup2_zero_width = Data_encoding.(tup2 (constant "foo") (constant "bar"))
    return tup(constant("foo"), constant("bar"))


def obj2_zero_width() -> Encoding[Any]:
    # let obj2_zero_width =
    #   Data_encoding.(obj2 (req "l" (constant "left")) (req "r" (constant "right")))
    return obj(req("l", constant("left")), req("r", constant("right")))


def _is_tuple(v: Any, length: int) -> bool:
    return isinstance(v, tuple) and len(v) == length


def _weirb_list(mue: Encoding[Any]) -> Encoding[Any]:
    # let bu mue =
    #   mu "weirb-list" (fun e ->
    #       union
    #         [
    #           case ~title:"b" (Tag 64) (tup3 obj2_zero_width uint8 mue)
    #             (function Consb (a, m) -> Some (((), ()), a, m) | Consbb _ -> None)
    #             (fun (((), ()), a, m) -> Consb (a, m));
    #           case ~title:"bb" (Tag 32) (tup2 uint8 e)
    #             (function Consbb (a, m) -> Some (a, m) | Consb _ -> None)
    #             (fun (a, m) -> Consbb (a, m));
    #         ])
    # Values pass through unchanged: Consb is a 3-tuple, Consbb a 2-tuple.
    return mu(
        "weirb-list",
        lambda e: union(
            [
                case(
                    64,
                    "b",
                    tup(obj2_zero_width(), uint8, mue),
                    match=lambda v: _is_tuple(v, 3),
                ),
                case(32, "bb", tup(uint8, e), match=lambda v: _is_tuple(v, 2)),
            ]
        ),
    )


def _weird_list() -> Encoding[Any]:
    # mu "weird-list" (fun e ->
    #     union
    #       [
    #         case ~title:"c" (Tag 128) (tup3 obj2_zero_width uint8 (bu e))
    #           (function Cons (a, m) -> Some (((), ()), a, m) | _ -> None)
    #           (fun (((), ()), a, m) -> Cons (a, m));
    #         case ~title:"s" (Tag 127) (tup2 e uint8)
    #           (function Snoc (m, a) -> Some (m, a) | _ -> None)
    #           (fun (m, a) -> Snoc (m, a));
    #         case ~title:"t" (Tag 126) (tup3 e uint8 uint16)
    #           (function Snocc (m, a, b) -> Some (m, a, b) | _ -> None)
    #           (fun (m, a, b) -> Snocc (m, a, b));
    #         case ~title:"s" (Tag 255) null
    #           (function Stop -> Some () | _ -> None)
    #           (fun () -> Stop);
    #       ])
    # Values pass through unchanged: Cons is a 3-tuple starting with the record of
    # obj2_zero_width, Snoc a 2-tuple, Snocc a 3-tuple of (list, int, int), Stop None.
    return mu(
        "weird-list",
        lambda e: union(
            [
                case(
                    128,
                    "c",
                    tup(obj2_zero_width(), uint8, _weirb_list(e)),
                    match=lambda v: _is_tuple(v, 3) and isinstance(v[0], dict),
                ),
                case(127, "s", tup(e, uint8), match=lambda v: _is_tuple(v, 2)),
                case(
                    126,
                    "t",
                    tup(e, uint8, uint16),
                    match=lambda v: _is_tuple(v, 3) and not isinstance(v[0], dict),
                ),
                case(255, "s", null, match=lambda v: v is None),
            ]
        ),
    )


# ------------------------------------------------------------ translations

TRANSLATIONS: dict[str, Callable[[], Encoding[Any]]] = {
    # dump Data_encoding.empty
    "L43": lambda: empty,
    # dump Data_encoding.(uint8)
    "L49": lambda: uint8,
    # dump Data_encoding.(Fixed.string 12)
    "L65": lambda: fixed.string(12),
    # dump Data_encoding.(def "this" ~title:"titl" ~description:"des" (Bounded.string 22))
    "L83": lambda: def_("this", bounded.string(22), title="titl", description="des"),
    # dump Data_encoding.(constant "foo")
    "L101": lambda: constant("foo"),
    # dump Data_encoding.(tup1 (constant "foo"))
    "L107": lambda: tup(constant("foo")),
    # dump Data_encoding.(tup1 (tup1 (tup1 uint8)))
    "L113": lambda: tup(tup(tup(uint8))),
    # let tup2_zero_width = Data_encoding.(tup2 (constant "foo") (constant "bar")) in
    # dump tup2_zero_width
    "L132": tup2_zero_width,
    # dump (Data_encoding.Fixed.add_padding tup2_zero_width 12)
    "L138": lambda: padded(tup2_zero_width(), 12),
    # dump (Data_encoding.option tup2_zero_width)
    "L154": lambda: option(tup2_zero_width()),
    # dump Data_encoding.(obj2 (req "foo" tup2_zero_width) (req "bar" uint8))
    "L207": lambda: obj(req("foo", tup2_zero_width()), req("bar", uint8)),
    # let obj2_zero_width =
    #   Data_encoding.(obj2 (req "l" (constant "left")) (req "r" (constant "right")))
    # in
    # dump obj2_zero_width
    "L227": obj2_zero_width,
    # dump (Data_encoding.option obj2_zero_width)
    "L233": lambda: option(obj2_zero_width()),
    # dump Data_encoding.(tup2 obj2_zero_width string)
    "L286": lambda: tup(obj2_zero_width(), string),
    # dump Data_encoding.(def "thorn" (check_size 100 (check_size 10 obj2_zero_width)))
    "L320": lambda: def_("thorn", check_size(100, check_size(10, obj2_zero_width()))),
    # dump Data_encoding.(Fixed.(add_padding (tup2 (string 5) (bytes 10)) 4))
    "L326": lambda: padded(tup(fixed.string(5), fixed.bytes_(10)), 4),
    # dump Data_encoding.(obj3 (req "a" uint8) (opt "b" uint16) (req "c" (list string)))
    "L352": lambda: obj(req("a", uint8), opt("b", uint16), req("c", list_(string))),
    # dump Data_encoding.(union [case ~title:"a" (Tag 128) string Option.some Fun.id])
    "L402": lambda: union([case(128, "a", string)]),
    # dump
    #   Data_encoding.(
    #     union
    #       [
    #         case ~title:"l" (Tag 128) uint8 Either.find_left Either.left;
    #         case ~title:"r" (Tag 255) string Either.find_right Either.right;
    #       ])
    # Values pass through unchanged: Left is an int, Right a str.
    "L454": lambda: union(
        [
            case(128, "l", uint8, match=lambda v: isinstance(v, int)),
            case(255, "r", string, match=lambda v: isinstance(v, str)),
        ]
    ),
    # dump Data_encoding.(let bu mue = mu "weirb-list" (...) in mu "weird-list" (...))
    # (the full expression is quoted in _weirb_list and _weird_list above)
    "L570": _weird_list,
    # let obj2_opt_zero =
    #   Data_encoding.(obj2 (opt "l" (constant "left")) (opt "r" (constant "right")))
    # in
    # dump obj2_opt_zero
    "L1638": lambda: obj(opt("l", constant("left")), opt("r", constant("right"))),
    # let list_with_length_16 = Data_encoding.(list_with_length `Uint16 uint8) in
    # dump list_with_length_16
    "L1665": lambda: list_with_length("Uint16", uint8),
    # dump Data_encoding.(tup4 int31 int64 uint8 uint16)
    "L1883": lambda: tup(int31, int64, uint8, uint16),
    # dump Data_encoding.(list_with_length `Uint30 bool)
    "L1946": lambda: list_with_length("Uint30", bool_),
}

_COMPACT = "Compact encodings are not implemented"
_N_HEADER = "`N length/size headers are not implemented (only Uint30, Uint16, Uint8)"

UNTRANSLATED: dict[str, str] = {
    # mu "weirder-list" (fun e -> Compact.(make ~tag_size:`Uint8 (union ~cases_tag_bits:3 ...)))
    "L818": _COMPACT,
    # ... Compact.(make ~tag_size:`Uint8 (list ~bits:3 mu))
    "L1158": _COMPACT,
    # let list_with_length_n = Data_encoding.(list_with_length `N uint8) in ...
    "L1688": _N_HEADER,
    # Data_encoding.(tup2 (list_with_length `N uint8) (list_with_length `N int64))
    "L1732": _N_HEADER,
    # Data_encoding.(dynamic_size ~kind:`N (Variable.list uint8))
    "L1820": _N_HEADER,
    # Data_encoding.Encoding.(lazy_encoding (Bounded.string' ~length_kind:`N Hex 900))
    "L1844": "lazy_encoding, string' representations (Hex) and `N length headers are not "
    "implemented",
    # Data_encoding.Encoding.(lazy_encoding (tup4 unit uint8 unit uint16))
    "L1865": "lazy_encoding is not implemented",
    # Data_encoding.(tup4 Little_endian.int31 Little_endian.int64 uint16 Little_endian.uint16)
    "L1914": "Little_endian integers are not implemented",
}


# ---------------------------------------------------------------- helpers


def test_ordered_json_helper() -> None:
    assert ordered_json({"a": 1, "b": [2.0]}) == ordered_json({"a": 1.0, "b": [2]})
    assert ordered_json({"a": 1, "b": 2}) != ordered_json({"b": 2, "a": 1})
    assert ordered_json([True]) != ordered_json([1])
    assert ordered_json([0]) != ordered_json([False])
    assert ordered_json(None) != ordered_json("null")


# ------------------------------------------------------------------- tests


def test_every_describe_entry_is_accounted_for() -> None:
    assert len(DESCRIBE_ENTRIES) == 32
    assert not TRANSLATIONS.keys() & UNTRANSLATED.keys()
    assert TRANSLATIONS.keys() | UNTRANSLATED.keys() == DESCRIBE_ENTRIES.keys()
    untranslated = {a for a in DESCRIBE_ENTRIES if a not in TRANSLATIONS}
    assert untranslated == set(UNTRANSLATED)


_TRANSLATED = [pytest.param(a, id=a) for a in DESCRIBE_ENTRIES if a in TRANSLATIONS]


@pytest.mark.parametrize("anchor", _TRANSLATED)
def test_describe_schema_json(anchor: str) -> None:
    entry = DESCRIBE_ENTRIES[anchor]
    expected = json.loads(entry["binary_schema_json_text"])
    got = binary_schema_v1.to_json(TRANSLATIONS[anchor]().describe("1.0"))
    assert ordered_json(got) == ordered_json(expected)


@pytest.mark.parametrize("anchor", _TRANSLATED)
def test_describe_table(anchor: str) -> None:
    entry = DESCRIBE_ENTRIES[anchor]
    assert TRANSLATIONS[anchor]().table("1.0").rstrip("\n") == entry["rendered"]
