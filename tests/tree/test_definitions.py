"""Construction-time errors: combinators refuse layouts that cannot work.

Every refusal is a :class:`DefinitionError` (code ``invalid_definition``, no
offset, no path) raised when the encoding is built, and its message says
what is wrong and, where there is one, how to fix it. The positive side checks
the size classes of valid layouts next to the refused ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import data_encoding
from data_encoding import (
    DYNAMIC,
    VARIABLE,
    DataEncodingError,
    DecodeError,
    DefinitionError,
    Encoding,
    Fixed,
    JsonError,
    Size,
    array,
    binary_schema,
    bool_,
    bounded,
    bytes_,
    case,
    check_size,
    constant,
    conv,
    def_,
    delayed,
    dynamic_size,
    empty,
    fixed,
    float_,
    int8,
    int16,
    int32,
    int64,
    json,
    list_,
    list_with_length,
    merge_objs,
    merge_tups,
    mu,
    n,
    null,
    obj,
    opt,
    option,
    padded,
    ranged_float,
    ranged_int,
    req,
    string,
    string_enum,
    tup,
    uint8,
    uint16,
    union,
    unit,
    variable,
    varopt,
    z,
)

Build = Callable[[], object]

# (how to build it, a fragment the message must contain)
REFUSED = [
    # two variable-size parts, or a dynamic part after a variable one
    pytest.param(
        lambda: tup(variable.string, variable.string),
        "two variable-size elements in one layout; wrap one of them in dynamic_size()",
        id="tup-two-variable",
    ),
    pytest.param(
        lambda: obj(req("a", variable.string), req("b", n)),
        "a dynamic-size element follows a variable-size one",
        id="obj-variable-then-dynamic",
    ),
    pytest.param(
        lambda: obj(req("a", variable.string), req("b", n)),
        "or wrap the variable one in dynamic_size()",
        id="obj-variable-then-dynamic-fix",
    ),
    pytest.param(
        lambda: obj(opt("a", variable.string), opt("b", variable.bytes_)),
        "two variable-size elements",
        id="obj-two-varopt",
    ),
    pytest.param(
        lambda: obj(varopt("a", uint8), req("b", z)),
        "a dynamic-size element follows a variable-size one",
        id="obj-varopt-then-dynamic",
    ),
    pytest.param(
        lambda: tup(variable.bytes_, uint8, string),
        "a dynamic-size element follows a variable-size one",
        id="tup-variable-fixed-dynamic",
    ),
    pytest.param(
        lambda: merge_objs(obj(req("a", variable.string)), obj(req("b", variable.string))),
        "two variable-size elements",
        id="merge_objs-two-variable",
    ),
    pytest.param(
        lambda: merge_tups(tup(variable.bytes_), tup(uint8, bytes_)),
        "a dynamic-size element follows a variable-size one",
        id="merge_tups-variable-then-dynamic",
    ),
    pytest.param(
        lambda: mu("m", lambda self: obj(req("a", variable.string), opt("next", self))),
        "dynamic_size()",
        id="mu-variable-then-self",
    ),
    pytest.param(
        # the body is variable, so the recursive field is too: nothing marks where it ends
        lambda: mu("m", lambda self: obj(opt("next", self), req("a", variable.string))),
        "two variable-size elements",
        id="mu-variable-body-then-variable",
    ),
    # list elements: not variable-size, not zero-width
    pytest.param(
        lambda: list_(variable.string),
        "cannot insert a variable-size element in a list: its end could not be found; "
        "wrap the element in dynamic_size()",
        id="list-variable",
    ),
    pytest.param(
        lambda: array(obj(req("a", variable.bytes_))),
        "variable-size element in an array",
        id="array-variable-record",
    ),
    pytest.param(lambda: list_(null), "zero-width element in a list", id="list-null"),
    pytest.param(lambda: list_(unit), "zero-width element in a list", id="list-unit"),
    pytest.param(lambda: list_(empty), "zero-width element in a list", id="list-empty"),
    pytest.param(lambda: list_(obj()), "zero-width element in a list", id="list-obj()"),
    pytest.param(lambda: list_(constant("x")), "zero-width element", id="list-constant"),
    pytest.param(lambda: variable.list_(empty), "zero-width element", id="variable.list-empty"),
    pytest.param(lambda: fixed.list_(2, tup(null)), "zero-width element", id="fixed.list-tup"),
    pytest.param(
        lambda: list_with_length("Uint8", unit), "zero-width element", id="list_with_length-unit"
    ),
    # option of something that can already be None (its JSON would be ambiguous)
    pytest.param(lambda: option(option(uint8)), "use a union", id="option-option"),
    pytest.param(lambda: option(null), "cannot nest nullable encodings", id="option-null"),
    pytest.param(lambda: option(unit), "cannot nest nullable encodings", id="option-unit"),
    pytest.param(lambda: option(json), "cannot nest nullable encodings", id="option-json"),
    pytest.param(
        lambda: option(union([case(0, "none", null), case(1, "int", uint8)])),
        "cannot nest nullable encodings",
        id="option-nullable-union",
    ),
    pytest.param(
        lambda: option(def_("maybe", option(uint8))),
        "cannot nest nullable encodings",
        id="option-def-option",
    ),
    pytest.param(
        lambda: option(conv(lambda v: v, lambda v: v, null)),
        "cannot nest nullable encodings",
        id="option-conv-null",
    ),
    # unions
    pytest.param(lambda: union([]), "union: empty list of cases", id="union-empty"),
    pytest.param(
        lambda: union([case(0, "a", uint8), case(0, "b", uint16)]),
        "the tag 0 appears twice",
        id="duplicate-tags",
    ),
    pytest.param(
        lambda: union([case(256, "a", uint8)]),
        "the tag 256 does not fit a Uint8 tag (0 .. 255)",
        id="tag-256-uint8",
    ),
    pytest.param(
        lambda: union([case(65536, "a", uint8)], tag_size="Uint16"),
        "the tag 65536 does not fit a Uint16 tag (0 .. 65535)",
        id="tag-65536-uint16",
    ),
    pytest.param(lambda: case(-1, "a", uint8), "must not be negative", id="negative-tag"),
    pytest.param(
        lambda: union([case(0, "a", uint8)], tag_size="Uint32"),  # type: ignore[arg-type]
        "tag_size must be 'Uint8' or 'Uint16'",
        id="tag_size-Uint32",
    ),
    pytest.param(
        lambda: union([uint8]),  # type: ignore[list-item]
        "union takes cases made by case()",
        id="union-not-a-case",
    ),
    # fixed sizes and padding
    pytest.param(lambda: fixed.string(0), "(0): the length must be positive", id="string-0"),
    pytest.param(lambda: fixed.bytes_(-1), "(-1): the length must be positive", id="bytes--1"),
    pytest.param(lambda: fixed.list_(0, uint8), "must be positive, not 0", id="fixed.list-0"),
    pytest.param(
        lambda: padded(string, 2),
        "padded: cannot pad an encoding of size DYNAMIC; only fixed sizes can be",
        id="padded-string",
    ),
    pytest.param(
        lambda: padded(variable.bytes_, 1), "only fixed sizes can be", id="padded-variable"
    ),
    pytest.param(lambda: padded(uint8, 0), "the padding must be positive, not 0", id="padded-0"),
    # ranges
    pytest.param(
        lambda: ranged_int(-(2**30) - 1, 0),
        "bounds must satisfy -1073741824 <= lo <= hi <= 1073741823",
        id="ranged_int-below-int31",
    ),
    pytest.param(lambda: ranged_int(0, 2**30), "bounds must satisfy", id="ranged_int-above-int31"),
    pytest.param(lambda: ranged_int(5, 1), "ranged_int(5, 1)", id="ranged_int-inverted"),
    pytest.param(
        lambda: ranged_float(float("nan"), 1.0),
        "bounds must be finite with lo <= hi",
        id="ranged_float-nan-lo",
    ),
    pytest.param(
        lambda: ranged_float(0.0, float("nan")), "must be finite", id="ranged_float-nan-hi"
    ),
    pytest.param(lambda: ranged_float(0.0, float("inf")), "must be finite", id="ranged_float-inf"),
    pytest.param(lambda: ranged_float(1.0, 0.0), "lo <= hi", id="ranged_float-inverted"),
    # enumerations and constants
    pytest.param(lambda: string_enum([]), "use constant for a single one", id="string_enum-empty"),
    pytest.param(lambda: string_enum(["a"]), "needs at least two cases", id="string_enum-one"),
    pytest.param(
        lambda: string_enum(["a", "a"]), "duplicate case strings", id="string_enum-duplicate"
    ),
    pytest.param(
        lambda: constant(5),  # type: ignore[arg-type]
        "constant() takes a string, not int",
        id="constant-int",
    ),
    # records, tuples and their merges
    pytest.param(
        lambda: merge_objs(int8, obj(req("a", uint8))),
        "merge_objs: left operand is not an object",
        id="merge_objs-int8-left",
    ),
    pytest.param(
        lambda: merge_objs(obj(req("a", uint8)), list_(uint8)),
        "merge_objs: right operand is not an object",
        id="merge_objs-list-right",
    ),
    pytest.param(
        lambda: merge_tups(uint8, tup(uint8)),
        "merge_tups: left operand is not a tuple",
        id="merge_tups-uint8-left",
    ),
    pytest.param(
        lambda: merge_tups(tup(uint8), obj(req("a", uint8))),
        "merge_tups: right operand is not a tuple",
        id="merge_tups-obj-right",
    ),
    pytest.param(
        lambda: obj(req("a", uint8), opt("a", uint16)),
        "duplicate field name 'a' in a record",
        id="obj-duplicate-field",
    ),
    pytest.param(
        lambda: merge_objs(obj(req("a", uint8)), obj(req("b", bool_), req("a", uint16))),
        "duplicate field name 'a'",
        id="merge_objs-duplicate-field",
    ),
    pytest.param(
        lambda: merge_objs(
            obj(req("kind", string)),
            union([case(0, "x", obj(req("kind", uint8))), case(1, "y", obj(req("y", uint8)))]),
        ),
        "duplicate field name 'kind'",
        id="merge_objs-duplicate-in-union",
    ),
    pytest.param(
        lambda: obj(uint8),  # type: ignore[arg-type]
        "obj() takes fields made by req/opt/varopt/dft",
        id="obj-not-a-field",
    ),
    pytest.param(lambda: tup(), "use unit for nothing", id="tup-empty"),
    # sizes and headers
    pytest.param(
        lambda: check_size(-1, uint8), "the limit must not be negative, not -1", id="check_size"
    ),
    pytest.param(
        lambda: bounded.string(0),
        "bounded.string(0): the bound must be in 1 .. 2^30-1",
        id="bounded.string-0",
    ),
    pytest.param(
        lambda: bounded.bytes_(2**30), "the bound must be in 1 .. 2^30-1", id="bounded.bytes-2^30"
    ),
    pytest.param(
        lambda: dynamic_size(uint8, kind="Uint64"),  # type: ignore[arg-type]
        "dynamic_size: kind must be one of ['Uint16', 'Uint30', 'Uint8']",
        id="dynamic_size-Uint64",
    ),
    pytest.param(
        lambda: list_with_length("Uint8", uint8, max_length=300),
        "max_length 300 exceeds what a Uint8 count can state (255)",
        id="list_with_length-300",
    ),
    pytest.param(
        lambda: list_with_length("Uint16", uint8, max_length=65536),
        "exceeds what a Uint16 count can state (65535)",
        id="list_with_length-65536",
    ),
    pytest.param(
        lambda: list_with_length("Uint64", uint8),  # type: ignore[arg-type]
        "kind must be one of",
        id="list_with_length-Uint64",
    ),
    pytest.param(
        lambda: list_(uint8, max_length=-1), "max_length must not be negative", id="max_length--1"
    ),
    # an optional field whose values include None: None already means "absent"
    *(
        pytest.param(
            lambda e=e, field=field: field("fee", e),
            f"{field.__name__}('fee'): None is one of the values of its encoding",
            id=f"{field.__name__}-{name}",
        )
        for field in (opt, varopt)
        for name, e in [
            ("unit", unit),
            ("null", null),
            ("json", json),
            ("option", option(uint8)),
            ("union", union([case(0, "none", null), case(1, "some", uint8)])),
            ("def", def_("nothing", unit)),
        ]
    ),
]


def _constant_five(_self: Encoding[Any]) -> Any:
    return 5


# arguments of the wrong type (called through ``A``, the package typed ``Any``,
# as an untyped caller would): a DefinitionError naming the argument, never a
# TypeError or AttributeError from inside the library
A: Any = data_encoding
WRONG_ARGUMENTS = [
    pytest.param(
        lambda: A.obj(A.req("a", int)), "req('a'): expected an encoding, got type", id="req"
    ),
    pytest.param(lambda: A.opt("a", 5), "opt('a'): expected an encoding, got int", id="opt"),
    pytest.param(lambda: A.varopt("a", None), "varopt('a'): expected an encoding", id="varopt"),
    pytest.param(lambda: A.dft("a", "x", 1), "dft('a'): expected an encoding", id="dft"),
    pytest.param(lambda: A.req(5, uint8), "req: a field name is a str, not int", id="req-name"),
    pytest.param(lambda: A.tup(uint8, int), "tup: expected an encoding, got type", id="tup"),
    pytest.param(
        lambda: A.merge_objs(int, A.obj()), "merge_objs: expected an encoding", id="merge_objs"
    ),
    pytest.param(
        lambda: A.merge_tups(A.tup(uint8), "x"), "merge_tups: expected an encoding", id="merge_tups"
    ),
    pytest.param(lambda: A.list_(int), "list_: expected an encoding", id="list"),
    pytest.param(lambda: A.array(None), "array: expected an encoding", id="array"),
    pytest.param(lambda: A.variable.list_(3), "list_: expected an encoding", id="variable-list"),
    pytest.param(lambda: A.fixed.list_(2, int), "list_: expected an encoding", id="fixed-list"),
    pytest.param(
        lambda: A.list_with_length("Uint8", int),
        "list_with_length: expected an encoding",
        id="list_with_length",
    ),
    pytest.param(
        lambda: A.list_(uint8, max_length="3"), "max_length is an int, not str", id="max_length"
    ),
    pytest.param(
        lambda: A.fixed.list_("2", uint8), "the length is an int, not str", id="fixed-list-n"
    ),
    pytest.param(lambda: A.option(int), "option: expected an encoding", id="option"),
    pytest.param(lambda: A.case(0, "a", int), "case('a'): expected an encoding", id="case"),
    pytest.param(
        lambda: A.case("0", "a", uint8), "a tag is an int or None, not str", id="case-tag"
    ),
    pytest.param(lambda: A.case(0, 5, uint8), "a case title is a str, not int", id="case-title"),
    pytest.param(lambda: A.union(5), "union takes a list of cases", id="union"),
    pytest.param(lambda: A.conv(len, len, int), "conv: expected an encoding", id="conv"),
    pytest.param(lambda: A.conv(5, len, uint8), "conv: to_wire is not callable", id="conv-fn"),
    pytest.param(lambda: A.def_("x", int), "def_('x'): expected an encoding", id="def"),
    pytest.param(lambda: A.def_(5, uint8), "def_: an id is a str, not int", id="def-id"),
    pytest.param(
        lambda: A.mu("m", _constant_five), "mu('m'): expected an encoding, got int", id="mu"
    ),
    pytest.param(
        lambda: A.dynamic_size(int), "dynamic_size: expected an encoding", id="dynamic_size"
    ),
    pytest.param(
        lambda: A.check_size(10, int), "check_size: expected an encoding", id="check_size"
    ),
    pytest.param(
        lambda: A.check_size("10", uint8), "the limit is an int, not str", id="check_size-limit"
    ),
    pytest.param(lambda: A.padded(int, 2), "padded: expected an encoding", id="padded"),
    pytest.param(lambda: A.padded(uint8, "2"), "the padding is an int, not str", id="padded-n"),
    pytest.param(
        lambda: A.splitted(json=int, binary=uint8), "splitted: expected an encoding", id="splitted"
    ),
    pytest.param(lambda: A.fixed.bytes_("3"), "the length is an int, not str", id="fixed-bytes"),
    pytest.param(lambda: A.bounded.string("x"), "the bound is an int, not str", id="bounded"),
    pytest.param(lambda: A.ranged_int("a", 3), "the bounds are ints, not str", id="ranged_int"),
    pytest.param(
        lambda: A.ranged_float("a", 1.0), "the bounds are numbers, not str", id="ranged_float"
    ),
    pytest.param(lambda: A.string_enum([1, 2]), "the cases are strings, not int", id="string_enum"),
]


@pytest.mark.parametrize(("build", "fragment"), WRONG_ARGUMENTS)
def test_wrong_arguments_are_definition_errors(build: Build, fragment: str) -> None:
    test_refused_at_construction(build, fragment)


def test_a_delayed_body_that_is_no_encoding_fails_at_first_use() -> None:
    broken = A.delayed(lambda: 5)
    with pytest.raises(DefinitionError) as info:
        broken.encode(1)
    assert "delayed: expected an encoding, got int" in info.value.message


@pytest.mark.parametrize(("build", "fragment"), REFUSED)
def test_refused_at_construction(build: Build, fragment: str) -> None:
    with pytest.raises(DefinitionError) as info:
        build()
    err = info.value
    assert type(err) is DefinitionError
    assert isinstance(err, DataEncodingError)
    assert isinstance(err, ValueError)
    assert (err.code, err.offset, err.path) == ("invalid_definition", None, ())
    assert fragment in err.message, err.message
    assert str(err) == err.message  # no location: nothing was being read or written


# --------------------------------------------------------------- accepted side

# (how to build it, its size class): the neighbours of the refused layouts
ACCEPTED = [
    pytest.param(lambda: tup(uint8, variable.string, uint16), VARIABLE, id="tup-variable-middle"),
    pytest.param(
        lambda: tup(dynamic_size(variable.string), variable.string), VARIABLE, id="tup-framed"
    ),
    pytest.param(lambda: obj(req("a", n), req("b", variable.string)), VARIABLE, id="obj-dyn-var"),
    pytest.param(
        lambda: obj(req("a", dynamic_size(variable.string)), req("b", n)), DYNAMIC, id="obj-fix"
    ),
    pytest.param(lambda: obj(req("a", variable.string), req("b", uint8)), VARIABLE, id="obj-tail"),
    pytest.param(
        lambda: obj(req("a", uint8), req("b", int32), req("c", float_), req("d", bool_)),
        Fixed(14),
        id="obj-fixed",
    ),
    pytest.param(lambda: tup(int64, uint16, fixed.bytes_(3)), Fixed(13), id="tup-fixed"),
    pytest.param(lambda: obj(), Fixed(0), id="obj-empty"),
    pytest.param(
        lambda: union([case(0, "a", uint16), case(1, "b", int16)]), Fixed(3), id="union-same-width"
    ),
    pytest.param(
        lambda: union([case(0, "a", uint16), case(1, "b", int16)], tag_size="Uint16"),
        Fixed(4),
        id="union-same-width-uint16-tag",
    ),
    pytest.param(
        lambda: union([case(0, "a", uint16), case(1, "b", uint8)]), DYNAMIC, id="union-widths"
    ),
    pytest.param(
        lambda: union([case(0, "a", variable.string), case(1, "b", uint8)]),
        VARIABLE,
        id="union-variable-case",
    ),
    pytest.param(lambda: union([case(255, "a", uint8)]), Fixed(2), id="tag-255-uint8"),
    pytest.param(
        lambda: union([case(65535, "a", uint8)], tag_size="Uint16"), Fixed(3), id="tag-65535"
    ),
    pytest.param(lambda: option(uint8), DYNAMIC, id="option-uint8"),
    pytest.param(lambda: option(empty), Fixed(1), id="option-empty"),
    pytest.param(lambda: option(obj(opt("a", uint8))), DYNAMIC, id="option-record"),
    pytest.param(lambda: string, DYNAMIC, id="string"),
    pytest.param(lambda: bytes_, DYNAMIC, id="bytes"),
    pytest.param(lambda: variable.string, VARIABLE, id="variable.string"),
    pytest.param(lambda: fixed.string(1), Fixed(1), id="fixed.string-1"),
    pytest.param(lambda: bounded.string(255), DYNAMIC, id="bounded.string-255"),
    pytest.param(lambda: list_(uint8), DYNAMIC, id="list"),
    pytest.param(lambda: list_(dynamic_size(variable.string)), DYNAMIC, id="list-framed"),
    pytest.param(lambda: variable.list_(uint8), VARIABLE, id="variable.list"),
    pytest.param(lambda: fixed.list_(3, uint16), Fixed(6), id="fixed.list"),
    pytest.param(lambda: fixed.list_(3, n), DYNAMIC, id="fixed.list-n"),
    pytest.param(lambda: list_with_length("Uint8", uint8, max_length=255), DYNAMIC, id="lwl-255"),
    pytest.param(lambda: padded(uint8, 3), Fixed(4), id="padded"),
    pytest.param(lambda: padded(obj(req("a", uint16)), 1), Fixed(3), id="padded-record"),
    pytest.param(lambda: ranged_int(-(2**30), 2**30 - 1), Fixed(4), id="ranged_int-int31"),
    pytest.param(lambda: ranged_int(100, 355), Fixed(1), id="ranged_int-shifted-byte"),
    pytest.param(lambda: ranged_int(-200, 200), Fixed(2), id="ranged_int-int16"),
    pytest.param(lambda: ranged_int(5, 5), Fixed(1), id="ranged_int-single"),
    pytest.param(lambda: ranged_float(0.0, 0.0), Fixed(8), id="ranged_float-point"),
    pytest.param(lambda: string_enum(["a", "b"]), Fixed(1), id="string_enum-2"),
    pytest.param(lambda: string_enum([str(i) for i in range(256)]), Fixed(2), id="string_enum-256"),
    pytest.param(lambda: check_size(0, unit), Fixed(0), id="check_size-0"),
    pytest.param(lambda: check_size(10, string), DYNAMIC, id="check_size-string"),
    pytest.param(lambda: bounded.bytes_(2**30 - 1), DYNAMIC, id="bounded-largest"),
    pytest.param(lambda: dynamic_size(variable.string, kind="Uint8"), DYNAMIC, id="dynamic_size"),
    pytest.param(lambda: merge_objs(unit, obj(req("a", uint8))), Fixed(1), id="merge_objs-unit"),
    pytest.param(
        lambda: merge_objs(obj(req("a", uint8)), obj(req("b", string))), DYNAMIC, id="merge_objs"
    ),
    pytest.param(lambda: merge_tups(tup(uint8), tup(uint16)), Fixed(3), id="merge_tups"),
    pytest.param(lambda: mu("chain", lambda self: option(self)), DYNAMIC, id="mu-option"),
]


@pytest.mark.parametrize(("build", "size"), ACCEPTED)
def test_accepted_layout_size(build: Callable[[], Encoding[Any]], size: Size) -> None:
    enc = build()
    assert enc.size == size
    assert enc.fixed_length == (size.n if isinstance(size, Fixed) else None)


def test_variable_element_in_the_middle_round_trips() -> None:
    """The fixed tail after a variable element is read from the end of the frame."""
    enc = tup(uint8, variable.string, uint16)
    assert enc.size is VARIABLE
    assert enc.encode((1, "ab", 2)) == bytes.fromhex("01 6162 0002")
    assert enc.decode(bytes.fromhex("01 6162 0002")) == (1, "ab", 2)
    assert enc.decode(bytes.fromhex("01 0002")) == (1, "", 2)


def test_union_sizes_are_tag_plus_case() -> None:
    same_width = union([case(0, "a", uint16), case(1, "b", int16)])
    assert same_width.encode(7) == bytes.fromhex("00 0007")
    assert same_width.decode(bytes.fromhex("01 fff9")) == -7
    widths = union([case(0, "a", uint16), case(1, "b", uint8)])
    assert widths.encode(7) == bytes.fromhex("00 0007")
    assert widths.decode(bytes.fromhex("00 0007")) == 7
    with pytest.raises(DecodeError) as info:  # 7 is written with case "a"
        widths.decode(bytes.fromhex("01 07"))
    assert (info.value.code, info.value.offset) == ("not_canonical", 0)


def test_boundary_tags_are_written() -> None:
    assert union([case(255, "a", uint8)]).encode(1) == bytes.fromhex("ff 01")
    assert union([case(65535, "a", uint8)], tag_size="Uint16").encode(1) == bytes.fromhex("ffff 01")


def test_fixed_record_size_is_the_sum_and_matches_encode() -> None:
    enc = obj(req("a", uint8), req("b", int32), req("c", float_), req("d", bool_))
    value = {"a": 1, "b": -2, "c": 0.5, "d": True}
    data = enc.encode(value)
    assert data == bytes.fromhex("01 fffffffe 3fe0000000000000 ff")
    assert len(data) == enc.length(value) == 14
    assert enc.decode(data) == value


def test_definition_errors_are_raised_at_build_time_only() -> None:
    """An encoding that was built fine never raises DefinitionError while in use."""
    enc = obj(req("a", list_(option(uint8))), req("b", union([case(0, "x", z)])))
    value = {"a": [None, 3], "b": -5}
    assert enc.decode(enc.encode(value)) == value
    assert enc.from_json(enc.to_json(value)) == value
    for bad in (b"", b"\x00\x00\x00\x01\x07", b"\xff" * 9):
        with pytest.raises(DataEncodingError) as info:
            enc.decode(bad)
        assert not isinstance(info.value, DefinitionError)


def test_dynamic_size_refuses_a_fixed_body_its_header_cannot_state() -> None:
    with pytest.raises(DefinitionError) as info:
        dynamic_size(fixed.bytes_(300), kind="Uint8")
    assert "300-byte value never fits a Uint8 header" in info.value.message
    assert dynamic_size(fixed.bytes_(255), kind="Uint8").encode(bytes(255))[:1] == b"\xff"


# ------------------------------------------------------- merging wrapped operands


def _doubled(d: dict[str, Any]) -> dict[str, Any]:
    return {"a": d["a"] * 2}


def _halved(d: dict[str, Any]) -> dict[str, Any]:
    return {"a": d["a"] // 2}


def _chain(self: Encoding[Any]) -> Encoding[Any]:
    return obj(req("a", uint8), opt("next", self))


# (operand, its value, its bytes): merged with obj(req("b", uint16)) = {"b": 7}
WRAPPED_OBJECTS = [
    pytest.param(def_("base", obj(req("a", uint8))), {"a": 1}, "01", id="def"),
    pytest.param(
        dynamic_size(obj(req("a", uint8), req("s", string))),
        {"a": 1, "s": "x"},
        "00000006 01 00000001 78",
        id="dynamic_size",
    ),
    pytest.param(check_size(10, obj(req("a", uint8))), {"a": 1}, "01", id="check_size"),
    pytest.param(conv(_halved, _doubled, obj(req("a", uint8))), {"a": 4}, "02", id="conv"),
    pytest.param(mu("m", _chain), {"a": 1, "next": {"a": 2, "next": None}}, "01 ff 02 00", id="mu"),
    pytest.param(delayed(lambda: obj(req("a", uint8))), {"a": 1}, "01", id="delayed"),
]


@pytest.mark.parametrize(("operand", "value", "data"), WRAPPED_OBJECTS)
def test_merge_objs_takes_wrapped_objects(operand: Encoding[Any], value: Any, data: str) -> None:
    """As the reference does: an object under def_, dynamic_size, check_size,
    conv (whose functions see and give dicts of its fields), mu or delayed."""
    for e, merged, raw in (
        (merge_objs(operand, obj(req("b", uint16))), {**value, "b": 7}, data + "0007"),
        (merge_objs(obj(req("b", uint16)), operand), {"b": 7, **value}, "0007" + data),
    ):
        assert e.encode(merged) == bytes.fromhex(raw.replace(" ", ""))
        assert e.decode(e.encode(merged)) == merged
        assert e.from_json(e.to_json(merged)) == merged
        schema = e.describe()
        assert binary_schema.from_json(binary_schema.to_json(schema)) == schema
        assert e.table()
        json_schema: Any = e.json_schema()
        assert sorted(json_schema["properties"]) == sorted(merged)


def test_a_named_record_merges_its_fields() -> None:
    """A ``def_`` names a record without changing its bytes or values (the
    reference's binary description lists its fields, as its JSON schema
    lists its members): merged, its fields are the merge's own, read and
    written inline like them (the protocols merge named records: an
    operation is its named shell header merged with its named contents),
    not as a nested value whose dict is copied in."""
    inner = merge_objs(def_("a", obj(req("a", uint8))), obj(req("s", string)))
    e = merge_objs(def_("outer", inner), obj(req("b", uint16)))
    assert [p.key for p in e.parts] == ["a", "s", "b"]
    assert [p.mode for p in e.parts] == ["req"] * 3
    assert e.decode(bytes.fromhex("01 00000001 78 0007")) == {"a": 1, "s": "x", "b": 7}


def test_merge_tups_takes_wrapped_tuples() -> None:
    e = merge_tups(dynamic_size(tup(uint8, string)), tup(uint8))
    assert e.encode((1, "x", 2)).hex() == "00000006" + "01" + "0000000178" + "02"
    assert e.decode(e.encode((1, "x", 2))) == (1, "x", 2)
    assert e.from_json([1, "x", 2]) == (1, "x", 2)
    schema = e.describe()
    assert binary_schema.from_json(binary_schema.to_json(schema)) == schema
    json_schema: Any = e.json_schema()
    assert len(json_schema["items"]) == 3


def test_a_merged_conv_that_gives_no_dict_is_a_user_error() -> None:
    e = merge_objs(conv(_halved, lambda d: [d["a"]], obj(req("a", uint8))), obj(req("b", uint8)))
    with pytest.raises(DecodeError) as info:
        e.decode(bytes.fromhex("0102"))
    with pytest.raises(JsonError) as json_info:
        e.from_json({"a": 1, "b": 2})
    for err in (info.value, json_info.value):
        assert err.code == "user_function"
        assert "a dict of its fields" in err.message
