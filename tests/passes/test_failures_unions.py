"""How unions fail: a union told apart by a constant member names that
member in its errors; cases that read a member alike read it once; a value
read with a case the writer would not use is refused (one value, one case),
and a value whose JSON form would read back as another has none.
"""

from __future__ import annotations

from typing import Any

import pytest

import data_encoding as de
from data_encoding import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    Encoding,
    JsonError,
    bool_,
    case,
    constant,
    conv,
    int8,
    int31,
    int64,
    list_,
    mu,
    obj,
    opt,
    req,
    string,
    uint8,
    uint16,
    union,
    z,
)
from data_encoding.jsonvalue import RepeatedMembers
from failing import BY_WIDTH, MATCHING, Path, assert_error, h, same

# ------------------------------------------ unions told apart by a constant member


def _kinds(names: list[str]) -> Encoding[Any]:
    return union(
        [
            case(i, name, obj(req("kind", constant(name)), req("id", uint8)))
            for i, name in enumerate(names)
        ]
    )


KINDS = _kinds(["baker", "endorser", "accuser"])
MANY_KINDS = _kinds([f"k{i}" for i in range(12)])  # more cases than are inlined
CONV_KINDS = union(
    [
        case(i, name, conv(same, same, obj(req("kind", constant(name)), req("id", uint8))))
        for i, name in enumerate(["baker", "endorser", "accuser"])
    ]
)


@pytest.mark.parametrize("e", [KINDS, list_(KINDS)], ids=["union", "in-list"])
@pytest.mark.parametrize(
    ("value", "code", "path", "message"),
    [
        (
            {"kind": "sleeper", "id": 1},
            "no_case_matched",
            ("kind",),
            "'sleeper' is not one of 'baker', 'endorser', 'accuser'",
        ),
        ({"id": 1}, "missing_field", ("kind",), "missing field 'kind'"),
        ({"kind": 7, "id": 1}, "no_case_matched", ("kind",), "7 is not one of 'baker', "),
        ([1], "wrong_type", (), "expected an object"),
    ],
    ids=["unknown", "missing", "not-a-string", "not-an-object"],
)
def test_a_union_told_apart_by_a_member_names_it(
    e: Encoding[Any], value: Any, code: str, path: Path, message: str
) -> None:
    inside = (0,) if e is not KINDS else ()
    wrapped = [value] if inside else value
    for action, cls in (
        (e.from_json, JsonError),
        (e.encode, EncodeError),
        (e.to_json, EncodeError),
    ):
        with pytest.raises(DataEncodingError) as info:
            action(wrapped)
        assert_error(info.value, cls, code, None, (*inside, *path))
        assert info.value.message.startswith(message), info.value.message


@pytest.mark.parametrize("e", [KINDS, MANY_KINDS, CONV_KINDS], ids=["inlined", "many", "conv"])
@pytest.mark.parametrize("twice", ["kind", "id"])
def test_a_union_told_apart_by_a_member_refuses_a_member_given_twice(
    e: Encoding[Any], twice: str
) -> None:
    """JSON text with a member twice is refused at that member, as a record
    refuses it (the union said no_case_matched of its 'kind')."""
    members = [("kind", "k0" if e is MANY_KINDS else "baker"), ("id", 1)]
    doubled = RepeatedMembers([*members, (twice, dict(members)[twice])])
    with pytest.raises(JsonError) as info:
        e.from_json(doubled)
    assert_error(info.value, JsonError, "duplicate_field", None, (twice,))
    assert info.value.message == f"duplicate member {twice!r}"


TWINS_DEEP = 12

EITHER = union([case(0, "p", obj(req("p", int8))), case(1, "q", obj(req("q", int8)))])
"""A union of two shapes, whose error is raised by its exact reader even
in the fast pass (a record would bail there)."""


def _twins() -> tuple[Encoding[Any], list[int]]:
    """A recursive union whose first two cases are told apart by shape only
    (both take ``{"next": ...}``) and read ``next`` alike, and how many
    times its leaf has been read or written."""
    count = [0]

    def counted(n: int) -> int:
        count[0] += 1
        return n

    leaf = obj(req("leaf", conv(counted, counted, int8)))
    twins = mu(
        "twins",
        lambda t: union(
            [
                case(0, "plain", obj(req("next", t), opt("x", EITHER))),
                case(1, "marked", obj(req("next", t), opt("x", EITHER), opt("mark", bool_))),
                case(2, "leaf", leaf),
            ]
        ),
    )
    return twins, count


@pytest.mark.parametrize(
    ("x", "at", "codes", "reads"),
    [
        # inside member x, which both cases read alike: one reading
        ({"p": 1000}, ("x", "p"), ("out_of_range", "invalid_int"), 1),
        # at member x itself: the innermost level tries both cases
        ({"r": 1}, ("x",), ("no_case_matched", "no_case_matched"), 2),
    ],
    ids=["inside-x", "at-x"],
)
def test_cases_that_read_a_member_alike_read_it_once(
    x: dict[str, int], at: Path, codes: tuple[str, str], reads: int
) -> None:
    """A case that failed inside a member is not followed by the cases that
    read that member with the same encoding: they would fail there too, and
    trying each of them at each level of a recursion is exponential in the
    depth (the two dialects of a binary schema's ``Seq`` did that: a bad
    layout 14 levels deep took 25 s). The leaf, read once per attempt of
    the innermost level, counts the attempts: as many at 12 levels as at one.
    The fast JSON converters, which do not know where a case failed, try
    one case and leave the rest to the exact ones (``to_json``'s fast pass
    reads the leaf once more; ``from_json``'s fails at ``x`` before it)."""
    value: Any = {"next": {"leaf": 1}, "x": x}
    for _ in range(TWINS_DEEP):
        value = {"next": value}
    where = ("next",) * TWINS_DEEP + at
    json_code, value_code = codes
    for action, cls, code, more in (
        ("from_json", JsonError, json_code, 0),
        ("encode", EncodeError, value_code, 0),
        ("to_json", EncodeError, value_code, 1),
        ("length", EncodeError, value_code, 0),
    ):
        twins, count = _twins()
        with pytest.raises(DataEncodingError) as info:
            getattr(twins, action)(value)
        assert_error(info.value, cls, code, None, where)
        assert count == [reads + more], action


@pytest.mark.parametrize("e", [MANY_KINDS, CONV_KINDS], ids=["many-cases", "conv-cases"])
def test_unions_beyond_the_inlined_ones_name_the_member_too(e: Encoding[Any]) -> None:
    with pytest.raises(JsonError) as info:
        e.from_json({"kind": "sleeper", "id": 1})
    assert_error(info.value, JsonError, "no_case_matched", None, ("kind",))
    # the case named by the member reports its own error
    first = "k0" if e is MANY_KINDS else "baker"
    with pytest.raises(JsonError) as info:
        e.from_json({"kind": first, "id": 300})
    assert_error(info.value, JsonError, "out_of_range", None, ("id",))


def test_union_dispatch_on_constants_keeps_the_loops_errors() -> None:
    """A union told apart by a constant member picks its case by one lookup;
    the errors are those of the case-selection loop."""
    running = de.obj(de.req("state", de.constant("running")), de.req("pid", de.int31))
    exited = de.obj(de.req("state", de.constant("exited")), de.req("pid", de.int31))
    e = de.list_(de.union([de.case(0, "running", running), de.case(1, "exited", exited)]))
    assert e.encode([{"state": "exited", "pid": 7}]).hex() == "000000050100000007"
    with pytest.raises(de.EncodeError) as wrong_pid:
        e.encode([{"state": "running", "pid": 1}, {"state": "exited", "pid": "7"}])
    assert (wrong_pid.value.code, wrong_pid.value.path) == ("wrong_type", (1, "pid"))
    for value, code, path in [
        ({"state": "stopped", "pid": 1}, "no_case_matched", (0, "state")),
        ({"state": ["exited"], "pid": 1}, "no_case_matched", (0, "state")),
        (("exited", 1), "wrong_type", (0,)),
    ]:
        with pytest.raises(de.EncodeError) as unknown:
            e.encode([value])
        assert (unknown.value.code, unknown.value.path) == (code, path)
    with pytest.raises(de.EncodeError) as too_big:
        de.option(exited).encode({"state": "exited", "pid": 2**31})
    assert (too_big.value.code, too_big.value.path) == ("invalid_int", ("pid",))


# ------------------------------------------------ unions: one value, one case

SMALL_BIG = union([case(0, "small", int31), case(1, "big", int64)])
TAG_GAPS = union([case(3, "Three", uint8), case(7, "Seven", string), case(200, "Big", z)])
FEW_FIRST = union([case(0, "few", uint8, lambda v: v < 10), case(1, "many", uint16)])


# (encoding, bytes, offset of the offending tag, path)
@pytest.mark.parametrize(
    ("e", "data", "offset", "path"),
    [
        (SMALL_BIG, "01 0000000000000005", 0, ()),  # 5 is written as a small one
        (BY_WIDTH, "01 0005", 0, ()),
        (FEW_FIRST, "01 0005", 0, ()),  # the first case's predicate claims 5
        (TAG_GAPS, "c8 05", 0, ()),
        (list_(SMALL_BIG), "0000000e 00 00000001 01 ffffffffffffffff", 9, (1,)),
        (MATCHING, "01 0000000000000005", 0, ()),  # the function gives 0 for 5
        (list_(MATCHING), "0000000e 00 00000001 01 ffffffffffffffff", 9, (1,)),
    ],
    ids=["int31-int64", "by-width", "predicate", "uint8-z", "in-list", "matching", "matching-in"],
)
def test_a_value_read_with_a_case_the_writer_would_not_use_is_refused(
    e: Encoding[Any], data: str, offset: int, path: Path
) -> None:
    with pytest.raises(DecodeError) as info:
        e.decode(h(data))
    assert_error(info.value, DecodeError, "not_canonical", offset, path)


@pytest.mark.parametrize(
    ("e", "value", "data"),
    [
        (SMALL_BIG, 2**40, "01 0000010000000000"),
        (SMALL_BIG, -5, "00 fffffffb"),
        (BY_WIDTH, {"x": 300}, "01 012c"),
        (FEW_FIRST, 5, "00 05"),
        (FEW_FIRST, 50, "01 0032"),
        (union([case(0, "i", int31), case(1, "b", bool_)]), True, "01 ff"),
        (MATCHING, 2**40, "01 0000010000000000"),
        (MATCHING, -5, "00 fffffffb"),
    ],
)
def test_every_value_of_an_overlapping_union_keeps_its_case(
    e: Encoding[Any], value: Any, data: str
) -> None:
    assert e.encode(value) == h(data)
    assert e.decode(h(data)) == value
    assert e.encode(e.from_json(e.to_json(value))) == h(data)


def test_a_json_form_that_reads_back_as_another_value_is_refused() -> None:
    """z's JSON "12345" reads back as the string case's "12345": printing it
    would lose the case; the value has no JSON form in this union."""
    for value, data in ((12345, "c8b9c001"), (300, "c8ac04")):
        assert TAG_GAPS.encode(value) == h(data)
        assert TAG_GAPS.decode(h(data)) == value
        with pytest.raises(EncodeError) as info:
            TAG_GAPS.to_json(value)
        assert_error(info.value, EncodeError, "ambiguous_json", None, ())
        assert "'Seven'" in info.value.message
    with pytest.raises(EncodeError) as info:
        list_(TAG_GAPS).to_json([5, 12345])
    assert_error(info.value, EncodeError, "ambiguous_json", None, (1,))
    # a JSON form read back by an earlier case as the same value is fine
    assert FEW_FIRST.from_json(FEW_FIRST.to_json(50)) == 50


def test_a_union_whose_cases_are_all_json_only_reads_no_bytes() -> None:
    # what a node publishes of a JSON-only body (a binary union of no case)
    e = union([case(None, "JSON only", de.json)])
    for strict in (True, False):
        with pytest.raises(DecodeError) as caught:
            e.decode(bytes.fromhex("07"), canonical=strict)
        assert (caught.value.code, str(caught.value)) == (
            "unexpected_tag",
            "unexpected tag 7 for union (known tags: []) (byte 0)",
        )
    with pytest.raises(EncodeError, match="no case of the union matches"):
        e.encode({"a": 1})
    assert e.to_json(e.from_json({"a": [1]})) == {"a": [1]}
