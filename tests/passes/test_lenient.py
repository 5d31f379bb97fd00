"""The lenient switch, ``decode(data, canonical=False)``: what the reference
reads where strict decoding refuses, kept so that ``encode`` gives the bytes
back (``data_encoding.noncanonical``, ``passes/lenient.py``).

* Each binary row of README's "Strictness" table, its non-canonical bytes
  built by hand: strict decoding refuses them with its code, at its offset;
  lenient decoding gives the reference's value, marked; ``to_json`` gives
  the reference's JSON, ``encode`` and ``length`` the bytes read.
* The same bytes deep inside records, tuples, lists, options, optional
  fields, unions and recursive encodings; a Micheline primitive written in
  the generic form, alone and in a script, for each protocol.
* No user function (a conv's, a union's predicates) is given a marker.
* Over random encodings: canonical bytes read leniently as strictly; bytes
  made non-canonical at a boolean, presence, padding or ``z`` byte read to
  the value of their canonical form and encode back to themselves; and any
  bytes that read leniently encode back to themselves.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import NonCanonical, reference_value
from data_encoding.jsonvalue import JsonValue, dumps
from data_encoding.node import hashes, keys, registry, timestamp
from data_encoding.passes.binary import lowering
from data_encoding.passes.binary.slicing import slice_bytes
from data_encoding.passes.transparent import unwrap
from data_encoding.tree.framing import HEADERS
from data_encoding.tree.wrappers import Def, DirectJson
from dsl import Dsl
from hand import assert_same
from random_dsl import encodings

# ------------------------------------------------------------ the rows


@dataclass(frozen=True)
class Refused:
    """``to_json`` refuses the value read (the reference's value has no JSON form)."""

    code: str


@dataclass(frozen=True)
class Row:
    """A row of the Strictness table: ``bad`` the reference reads (as
    ``value``, whose JSON is ``json``) and strict decoding refuses (``code``
    at ``offset``); ``good``, a canonical value's bytes and JSON."""

    name: str
    encoding: de.Encoding[Any]
    bad: str
    code: str
    offset: int
    value: Any
    json: JsonValue | Refused
    good: str
    good_json: JsonValue


BOOL = de.bool_
PRESENCE = de.obj(de.opt("b", de.uint16))
PADDED = de.padded(de.uint16, 2)
OVERLAPPING = de.union([de.case(0, "int31", de.int31), de.case(1, "int64", de.int64)])
# a json value: a BSON document in a uint30 frame (4 bytes)
DOUBLE_A = "10000000016100" + "{}" + "00"

ROWS = [
    Row("bool 01", BOOL, "01", "invalid_bool", 0, NonCanonical(True, b"\x01"), True, "00", False),
    Row("bool 7f", BOOL, "7f", "invalid_bool", 0, NonCanonical(True, b"\x7f"), True, "ff", True),
    Row(
        "presence byte",
        PRESENCE,
        "010002",
        "invalid_presence_flag",
        0,
        NonCanonical({"b": 2}, bytes.fromhex("010002")),  # the record: the byte is its own
        {"b": 2},
        "00",
        {},
    ),
    Row(
        "z negative zero", de.z, "40", "negative_zero", 0, NonCanonical(0, b"\x40"), "0", "07", "7"
    ),
    Row(
        "padding",
        PADDED,
        "00070001",
        "invalid_padding",
        3,
        NonCanonical(7, bytes.fromhex("00070001")),
        7,
        "00080000",
        8,
    ),
    Row(
        "union case",  # the README's example: int64's bytes for an int31 value
        OVERLAPPING,
        "010000000000000005",
        "not_canonical",
        0,
        NonCanonical(5, bytes.fromhex("010000000000000005")),
        5,  # the value's JSON: a union's value keeps no trace of the case read
        "0000000005",
        5,
    ),
    Row(
        "BSON -0.0",
        de.json,
        "00000010" + DOUBLE_A.format("0000000000000080"),
        "negative_zero",
        4 + 7,
        NonCanonical({"a": 0}, bytes.fromhex("00000010" + DOUBLE_A.format("0000000000000080"))),
        {"a": 0},
        "00000010" + DOUBLE_A.format("000000000000f03f"),
        {"a": 1},
    ),
    Row(
        "BSON infinity",
        de.json,
        "00000010" + DOUBLE_A.format("000000000000f07f"),
        "invalid_bson",
        4 + 7,
        NonCanonical(
            {"a": float("inf")}, bytes.fromhex("00000010" + DOUBLE_A.format("000000000000f07f"))
        ),
        Refused("not_json"),
        "00000005" + "0500000000",
        {},
    ),
    Row(
        "BSON string not UTF-8",
        de.json,
        "0000000e" + "0e00000002610002000000ff0000",
        "invalid_bson",
        4 + 11,
        NonCanonical({"a": "\udcff"}, bytes.fromhex("0000000e0e00000002610002000000ff0000")),
        Refused("invalid_utf8"),
        "00000005" + "0500000000",
        {},
    ),
    Row(
        "BSON key not UTF-8",
        de.json,
        "00000008" + "080000000aff0000",
        "invalid_bson",
        4 + 5,
        NonCanonical({"\udcff": None}, bytes.fromhex("00000008080000000aff0000")),
        Refused("invalid_utf8"),
        "00000005" + "0500000000",
        {},
    ),
]


def _strict_code(e: de.Encoding[Any], data: bytes) -> tuple[str, int | None]:
    with pytest.raises(de.DecodeError) as refused:
        e.decode(data)
    return refused.value.code, refused.value.offset


def _check_json(e: de.Encoding[Any], value: Any, json: JsonValue | Refused) -> None:
    if isinstance(json, Refused):
        with pytest.raises(de.EncodeError) as refused:
            e.to_json(value)
        assert refused.value.code == json.code
    else:
        assert_same(e.to_json(value), json, "to_json")


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_each_row_strict_refuses_lenient_reads_the_reference(row: Row) -> None:
    e, data = row.encoding, bytes.fromhex(row.bad)
    assert _strict_code(e, data) == (row.code, row.offset)
    value = e.decode(data, canonical=False)
    assert value == row.value
    assert reference_value(value) == row.value.value
    _check_json(e, value, row.json)
    assert e.encode(value) == data
    assert e.length(value) == len(data)
    assert e.decode_prefix(data + b"\x99", canonical=False) == (row.value, len(data))
    good = bytes.fromhex(row.good)  # canonical bytes read alike both ways
    assert_same(e.decode(good, canonical=False), e.decode(good), "canonical bytes")
    assert_same(e.to_json(e.decode(good)), row.good_json, "the good sample's JSON")


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_each_row_straight_to_json(row: Row) -> None:
    """``decode_json`` and ``bytes_to_json`` take the switch too."""
    e, data = row.encoding, bytes.fromhex(row.bad)
    with pytest.raises(de.DecodeError) as refused:
        e.decode_json(data)
    assert refused.value.code == row.code
    if isinstance(row.json, Refused):
        with pytest.raises(de.EncodeError) as no_json:
            e.decode_json(data, canonical=False)
        assert no_json.value.code == row.json.code
    else:
        assert_same(e.decode_json(data, canonical=False), row.json, "decode_json")
        assert e.bytes_to_json(data, canonical=False) == dumps(row.json)


def test_a_uint30_header_of_a_gigabyte_is_a_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """The reference reads a Uint30 header as an int32 and takes any positive
    one as a size. A header from 2^30 states a frame of a gigabyte, which no
    test may allocate: on any shorter input both readings say
    ``not_enough_data``, as the reference does; the frame is read, and
    marked, with the header's bound lowered to 10 bytes (the generated code
    reads ``HEADERS`` when it is built)."""
    for header in ("40000000", "7fffffff", "80000000"):
        data = bytes.fromhex(header + "00")
        assert _strict_code(de.bytes_, data) == ("not_enough_data", 0)
        with pytest.raises(de.DecodeError) as refused:
            de.bytes_.decode(data, canonical=False)
        assert (refused.value.code, refused.value.offset) == ("not_enough_data", 0)

    code, width, _ = HEADERS["Uint30"]
    monkeypatch.setitem(HEADERS, "Uint30", (code, width, 10))
    record = de.obj(de.req("frame", de.dynamic_size(de.variable.bytes_)), de.req("n", de.uint8))
    data = bytes.fromhex("0000000b" + "00" * 11 + "07")
    assert _strict_code(record, data) == ("invalid_size", 0)
    value = record.decode(data, canonical=False)
    # the frame's marker, with its header
    assert value == {"frame": NonCanonical(bytes(11), data[:-1]), "n": 7}
    assert record.encode(value) == data
    assert record.to_json(value) == {"frame": "00" * 11, "n": 7}


@pytest.mark.parametrize("row", ROWS, ids=[r.name for r in ROWS])
def test_each_row_slices_leniently(row: Row) -> None:
    """``slice_bytes(..., canonical=False)`` (``slice --lenient``) reads what
    the lenient decoder reads: no error, slices in order over every byte,
    each leaf's bytes its value's (a marker writes its own bytes); strict
    slicing stops at the strict decoder's error."""
    e, data = row.encoding, bytes.fromhex(row.bad)
    strict = slice_bytes(e, data)
    assert strict.error is not None
    assert (strict.error.code, strict.error.offset) == (row.code, row.offset)
    sliced = slice_bytes(e, data, canonical=False)
    assert sliced.error is None
    assert [(s.start, s.end) for s in sliced.slices] == list(
        itertools.pairwise([0, *(s.end for s in sliced.slices)])
    )
    assert sliced.slices[-1].end == len(data)
    for s in sliced.slices:
        if s.role == "value":
            assert s.encoding is not None
            assert s.encoding.encode(s.value) == data[s.start : s.end], s


def test_a_uint30_header_of_a_gigabyte_slices_leniently(monkeypatch: pytest.MonkeyPatch) -> None:
    """As :func:`test_a_uint30_header_of_a_gigabyte_is_a_size`: the frame
    is a size when slicing leniently."""
    code, width, _ = HEADERS["Uint30"]
    monkeypatch.setitem(HEADERS, "Uint30", (code, width, 10))
    record = de.obj(de.req("frame", de.dynamic_size(de.variable.bytes_)), de.req("n", de.uint8))
    data = bytes.fromhex("0000000b" + "00" * 11 + "07")
    strict = slice_bytes(record, data)
    assert strict.error is not None and strict.error.code == "invalid_size"
    lenient = slice_bytes(record, data, canonical=False)
    assert [(s.start, s.end, s.role) for s in lenient.slices] == [
        (0, 4, "size"),
        (4, 15, "value"),
        (15, 16, "value"),
    ]


# ------------------------------------------------------------ deep inside


@dataclass(frozen=True)
class Container:
    """Where a row's bytes go: the encoding around it, the bytes around
    them, and the JSON around theirs (``good`` and its JSON: a canonical
    sample of the inner encoding, for containers that need two)."""

    name: str
    wrap: Callable[[de.Encoding[Any]], de.Encoding[Any]]
    place: Callable[[str, str], str]
    json: Callable[[JsonValue, JsonValue], JsonValue]
    takes_nullable: bool = True


def _framed(hexa: str) -> str:
    return f"{len(hexa) // 2:08x}" + hexa


CHAIN: dict[int, de.Encoding[Any]] = {}


def _chain(e: de.Encoding[Any]) -> de.Encoding[Any]:
    """Three links of a recursive list, the row's value in the last one."""
    return CHAIN.setdefault(
        id(e), de.mu("chain", lambda self: de.obj(de.req("x", e), de.opt("next", self)))
    )


MEMBER = "kind"

CONTAINERS = [
    Container(
        "record",
        lambda e: de.obj(de.req("before", de.uint16), de.req("x", e), de.req("after", de.bool_)),
        lambda bad, good: "0102" + bad + "ff",
        lambda j, g: {"before": 258, "x": j, "after": True},
    ),
    Container("tuple", lambda e: de.tup(de.uint8, e), lambda b, g: "07" + b, lambda j, g: [7, j]),
    Container(
        "list",
        de.list_,
        lambda bad, good: _framed(good + bad + good),
        lambda j, g: [g, j, g],
    ),
    Container("option", de.option, lambda b, g: "01" + b, lambda j, g: j, takes_nullable=False),
    Container(
        "optional field",
        lambda e: de.obj(de.req("a", de.uint8), de.opt("x", e)),
        lambda b, g: "05ff" + b,
        lambda j, g: {"a": 5, "x": j},
        takes_nullable=False,
    ),
    Container(
        "union told apart by a member",
        lambda e: de.union(
            [
                de.case(3, "some", de.obj(de.req(MEMBER, de.constant("some")), de.req("x", e))),
                de.case(4, "none", de.obj(de.req(MEMBER, de.constant("none")))),
            ]
        ),
        lambda b, g: "03" + b,
        lambda j, g: {MEMBER: "some", "x": j},
    ),
    Container(
        "recursive",
        _chain,
        lambda b, g: g + "ff" + g + "ff" + b + "00",
        lambda j, g: {"x": g, "next": {"x": g, "next": {"x": j}}},
    ),
    Container(
        "list of records in a record",
        lambda e: de.obj(
            de.req("items", de.list_(de.obj(de.req("x", e), de.req("y", de.uint8)))),
            de.req("z", de.z),
        ),
        lambda b, g: _framed(g + "01" + b + "02") + "03",
        lambda j, g: {"items": [{"x": g, "y": 1}, {"x": j, "y": 2}], "z": "3"},
    ),
]

DEEP = [
    (row, where)
    for row in ROWS
    for where in CONTAINERS
    if where.takes_nullable or not row.encoding.nullable
]


@pytest.mark.parametrize(("row", "where"), DEEP, ids=[f"{r.name} in {w.name}" for r, w in DEEP])
def test_each_row_deep_inside(row: Row, where: Container) -> None:
    e = where.wrap(row.encoding)
    data = bytes.fromhex(where.place(row.bad, row.good))
    assert _strict_code(e, data)[0] == row.code
    value = e.decode(data, canonical=False)
    assert e.encode(value) == data
    assert e.length(value) == len(data)
    json = row.json if isinstance(row.json, Refused) else where.json(row.json, row.good_json)
    _check_json(e, value, json)
    # the marker's value is the reference's: the plain value of the good
    # bytes where the row reads alike, and its own where it does not
    good_data = bytes.fromhex(where.place(row.good, row.good))
    assert e.decode(good_data, canonical=False) == e.decode(good_data)


@pytest.mark.parametrize(("row", "where"), DEEP, ids=[f"{r.name} in {w.name}" for r, w in DEEP])
def test_each_row_deep_inside_called_not_inlined(
    row: Row, where: Container, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, every part compiled as a function of its own and called
    (no inlining): the lenient variant of the calls and of the closures."""
    monkeypatch.setattr(lowering, "OP_BUDGET", 0)
    test_each_row_deep_inside(row, where)


BIG = [de.case(i, f"string {i}", de.string) for i in range(2, 10)]
"""Cases enough that a union is read by a closure, not generated code."""


def test_unions_read_by_closures() -> None:
    """A union of more cases than generated code chooses between: its case
    written with another case's tag is unheld; one told apart by a member
    holds its case's marker, widened to the tag."""
    overlapping = de.union([de.case(0, "int31", de.int31), de.case(1, "int64", de.int64), *BIG])
    data = bytes.fromhex("010000000000000005")
    assert _strict_code(overlapping, data) == ("not_canonical", 0)
    assert overlapping.decode(data, canonical=False) == NonCanonical(5, data)
    assert overlapping.encode(overlapping.decode(data, canonical=False)) == data
    kinds = de.union(
        [
            de.case(i, f"k{i}", de.obj(de.req("kind", de.constant(f"k{i}")), de.opt("f", de.bool_)))
            for i in range(10)
        ]
    )
    data = bytes.fromhex("09" + "0201")  # presence byte 02: the case's record, with the tag
    value = kinds.decode(data, canonical=False)
    assert value == NonCanonical({"kind": "k9", "f": NonCanonical(True, b"\x01")}, data)
    assert kinds.encode(value) == data
    assert kinds.to_json(value) == {"kind": "k9", "f": True}


def test_whole_lists_and_wrappers_read_by_closures() -> None:
    """Lists of fixed-width leaves (read by one ``iter_unpack``), ``z``
    lists, ``check_size``, ``padded`` of a conv and ``splitted`` read
    leniently too."""
    flag = de.conv(lambda v: v == "yes", lambda b: "yes" if b else "no", de.bool_)
    as_is = de.conv(lambda b: b, lambda b: b, de.bool_)

    def alone(e: de.Encoding[Any]) -> de.Encoding[Any]:
        return de.obj(de.req("x", e))  # a record to hold an unheld marker

    e = de.obj(
        de.req("bools", de.list_(de.bool_)),
        de.req("flags", de.list_(flag)),  # a list of conv atoms: unheld, the list's
        de.req("zs", de.check_size(10, de.list_(de.z))),
        de.req("padded", alone(de.padded(flag, 1))),  # a conv's padding: unheld
        de.req("split", alone(de.splitted(json=de.bool_, binary=de.bool_))),
        de.req("split_conv", alone(de.splitted(json=as_is, binary=de.bool_))),  # unheld
    )
    data = bytes.fromhex("00000002ff01" + "00000002ff02" + "000000020140" + "0300" + "04" + "05")
    value = e.decode(data, canonical=False)
    assert value["bools"] == [True, NonCanonical(True, b"\x01")]
    assert _marker(value["flags"]) == (["yes", "yes"], bytes.fromhex("00000002ff02"))
    assert value["zs"] == [1, NonCanonical(0, b"\x40")]
    assert _marker(value["padded"]) == ({"x": "yes"}, bytes.fromhex("0300"))
    assert value["split"] == {"x": NonCanonical(True, b"\x04")}  # a marker of the splitted's
    assert _marker(value["split_conv"]) == ({"x": True}, b"\x05")
    assert e.encode(value) == data
    assert e.length(value) == len(data)
    assert e.to_json(value) == {
        "bools": [True, True],
        "flags": [True, True],  # a conv's JSON: its inner value's
        "zs": ["1", "0"],
        "padded": {"x": True},
        "split": {"x": True},
        "split_conv": {"x": True},
    }


def _marker(value: Any) -> tuple[Any, bytes]:
    """A marker's plain value and bytes."""
    assert type(value) is NonCanonical, value
    return reference_value(value), value.raw


def test_markers_stand_where_their_part_holds_them() -> None:
    """A marker stands in place of the part whose bytes hold the spot: the
    boolean; the record whose presence byte it is; the union, with its tag;
    a frame's content, with its header; the nearest record, tuple or list
    above a conv or a union told apart by predicate."""
    record = de.obj(de.req("a", de.bool_), de.opt("b", de.bool_))
    assert record.decode(bytes.fromhex("01ff01"), canonical=False) == {
        "a": NonCanonical(True, b"\x01"),
        "b": NonCanonical(True, b"\x01"),
    }
    assert record.decode(bytes.fromhex("ff0101"), canonical=False) == NonCanonical(
        {"a": True, "b": NonCanonical(True, b"\x01")}, bytes.fromhex("ff0101")
    )
    framed = de.obj(de.req("x", de.list_(de.bool_)), de.req("y", de.option(de.bool_)))
    assert framed.decode(bytes.fromhex("0000000101" + "0102"), canonical=False) == {
        "x": [NonCanonical(True, b"\x01")],
        "y": NonCanonical(True, b"\x01\x02"),  # the option's: its tag and its value
    }
    in_conv = de.obj(de.req("c", de.conv(lambda d: d["v"], lambda v: {"v": v}, de.bool_)))
    value = in_conv.decode(b"\x07", canonical=False)
    assert _marker(value) == ({"c": {"v": True}}, b"\x07")
    in_list = de.obj(de.req("l", de.list_(OVERLAPPING)), de.req("n", de.uint8))
    data = bytes.fromhex("0000000e" + "0000000001" + "010000000000000005" + "09")
    value = in_list.decode(data, canonical=False)
    assert _marker(value["l"]) == ([1, 5], data[:-1])  # the list, with its header
    assert in_list.to_json(value) == {"l": [1, 5], "n": 9}


def test_markers_never_reach_user_functions() -> None:
    """A conv's functions and a union's predicates see plain values only,
    in every direction: where they would meet a marker, the part above that
    holds one stands for them (or the whole value)."""
    seen: list[Any] = []

    def spy(value: Any) -> Any:
        seen.append(value)
        return value

    def is_pair(value: Any) -> bool:
        return isinstance(spy(value), dict)

    def is_flag(value: Any) -> bool:
        return isinstance(spy(value), bool)

    pair = de.conv(spy, spy, de.obj(de.req("a", de.bool_), de.opt("b", de.uint8)))
    choice = de.union(
        [de.case(0, "pair", pair, match=is_pair), de.case(1, "flag", de.bool_, match=is_flag)]
    )
    outer = de.obj(de.req("first", pair), de.req("second", choice), de.req("n", de.uint8))
    wholes = [(pair, "01ff05"), (pair, "ff0205"), (choice, "00ff0105"), (choice, "017f")]
    parts = ["01ff05" + "00ff00" + "09", "ff0205" + "017f" + "09", "ff00" + "00ff0105" + "09"]
    for e, hexa in [*wholes, *((outer, hexa) for hexa in parts)]:
        data = bytes.fromhex(hexa)
        value = e.decode(data, canonical=False)
        # no part below the top holds one: the whole value is the marker
        assert type(value) is NonCanonical and value.raw == data
        assert e.encode(value) == data
        assert e.length(value) == len(data)
        assert e.to_json(value) == e.to_json(reference_value(value))
    assert seen
    assert not [v for v in seen if de.noncanonical.has_markers(v)]


def _direct(e: de.Encoding[Any]) -> bool:
    while isinstance(e, Def):
        e = e.inner
    return isinstance(e, DirectJson)


DIRECT = [
    e
    for module in (hashes, keys, timestamp)
    for e in vars(module).values()
    if isinstance(e, de.Encoding) and _direct(e)
]
"""The library's encodings whose JSON is two functions of its own (``DirectJson``)."""


@settings(deadline=None)
@given(st.sampled_from(DIRECT), st.data())
def test_json_functions_of_the_node_primitives_refuse_markers(
    e: de.Encoding[Any], data: st.DataObject
) -> None:
    """A primitive whose JSON is a function of the library's may hold a
    marker (``marking.holds``): its function refuses one, as it refuses any
    value not of its type, and ``to_json`` then prints the marker's value."""
    assert len(DIRECT) >= 8
    value = data.draw(e.strategy())
    raw = e.encode(value)
    marker = NonCanonical(value, raw)
    assert e.to_json(marker) == e.to_json(value)
    assert (e.encode(marker), e.length(marker)) == (raw, len(raw))


def test_lenient_readers_keep_their_counts_per_thread() -> None:
    """Lenient readers count the markers they make per thread: readers in
    other threads, at the same time, neither see nor disturb them."""
    record = de.list_(de.obj(de.req("c", de.conv(lambda d: d, lambda d: d, de.bool_))))
    clean, marked = bytes.fromhex("00000003ff00ff"), bytes.fromhex("00000003ff01ff")
    failures: list[str] = []

    def read(data: bytes, expected_marker: bool) -> None:
        for _ in range(300):
            value = record.decode(data, canonical=False)
            marked = de.noncanonical.has_markers(value)
            if marked != expected_marker or record.encode(value) != data:
                failures.append(repr(value))

    threads = [threading.Thread(target=read, args=(d, d is marked)) for d in (clean, marked) * 3]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


# ------------------------------------------------------------ Micheline

SCRIPTS = [f"proto.{p}.script" for p in ("pt24m4xi", "psbabym1", "pscartha", "psdelph1")]


def _generic_unit(expr: de.Encoding[Any]) -> tuple[str, str]:
    """``UNIT`` in its short form (tag 3, the primitive's index) and in the
    generic form (tag 9, the index, no arguments, no annotations)."""
    short = expr.encode({"prim": "UNIT"}).hex()
    assert short[:2] == "03"
    return short, "09" + short[2:] + "00000000" + "00000000"


@pytest.mark.parametrize("id", SCRIPTS)
def test_micheline_in_the_generic_form(id: str) -> None:
    """A primitive written in the generic form where the node writes a
    short one (the nodes are a ``matching`` union, whose function names the
    writer's case): the reference reads it; that union cannot hold a
    marker, so the expression, at the top, is one."""
    expr = registry.find(id + ".expr").encoding
    short, generic = _generic_unit(expr)
    data = bytes.fromhex(generic)
    assert _strict_code(expr, data) == ("not_canonical", 0)
    value = expr.decode(data, canonical=False)
    assert value == NonCanonical({"prim": "UNIT"}, data)
    assert expr.to_json(value) == {"prim": "UNIT"}
    assert (expr.encode(value), expr.length(value)) == (data, len(data))
    assert expr.encode(reference_value(value)).hex() == short


@pytest.mark.parametrize("id", SCRIPTS)
def test_micheline_in_the_generic_form_deep_inside_a_script(id: str) -> None:
    """``PAIR (UNIT in the generic form) 5`` as a script's code: the marker
    stands at the script, the nearest part that holds one (the expressions'
    frames hold none: their values are the nodes'); the script reads, and
    prints, as the one with ``UNIT`` in its short form."""
    script, expr = registry.find(id).encoding, registry.find(id + ".expr").encoding
    short, generic = _generic_unit(expr)
    pair = expr.encode({"prim": "PAIR", "args": [{"int": 1}, {"int": 5}]}).hex()
    assert pair.startswith("07") and pair.endswith("0001" + "0005")  # PAIR 1 5, short form

    def script_bytes(unit: str) -> bytes:
        code = pair[:4] + unit + "0005"  # PAIR's tag and index, then its two arguments
        return bytes.fromhex(_framed(code) + _framed("0000"))  # storage: the int 0

    data, canonical = script_bytes(generic), script.decode(script_bytes(short))
    with pytest.raises(de.DecodeError) as refused:
        script.decode(data)
    assert (refused.value.code, refused.value.offset) == ("not_canonical", 4 + 2)
    assert refused.value.path == ("code", "args", 0)
    value = script.decode(data, canonical=False)
    assert _marker(value) == (canonical, data)
    assert canonical["code"] == {"prim": "PAIR", "args": [{"prim": "UNIT"}, {"int": 5}]}
    assert script.to_json(value) == script.to_json(canonical)
    assert script.bytes_to_json(data, canonical=False) == script.bytes_to_json(script_bytes(short))
    assert (script.encode(value), script.length(value)) == (data, len(data))


# ------------------------------------------------------------ random encodings

RANDOM = settings(
    max_examples=max(150, settings().max_examples),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

Built = tuple[Dsl, de.Encoding[Any]]

MARKABLE = encodings(
    leaves=st.sampled_from(["bool", "bool", "z", "uint8", "string"])
    | st.builds(lambda enc: {"kind": "padded", "padding": 1, "enc": enc}, st.just("bool"))
)
"""Random encodings whose leaves are often read leniently (booleans, ``z``,
padding), inside random composites (optional fields among them)."""


def _leaf(e: de.Encoding[Any] | None) -> de.Encoding[Any] | None:
    """The leaf a slice's encoding stands for (through ``def_`` and the like)."""
    while e is not None and unwrap(e, "binary") is not None:
        e = unwrap(e, "binary")
    return e


def _spots(e: de.Encoding[Any], data: bytes) -> list[tuple[int, list[int], int]]:
    """The bytes of ``data`` a reference reads in other forms: each boolean,
    presence byte, padding byte and ``z`` zero, with those other forms and
    its canonical one."""
    spots = []
    for s in slice_bytes(e, data).slices:
        leaf = _leaf(s.encoding)
        if s.role == "presence" and s.value is True:
            spots.append((s.start, [0x01, 0x7F], 0xFF))
        elif s.role == "padding":
            spots += [(i, [0x01, 0x80], 0x00) for i in range(s.start, s.end)]
        elif s.role == "value" and leaf is de.bool_:
            spots.append((s.start, [0x01, 0x7F], 0xFF))
        elif s.role == "value" and leaf is de.z and s.value == 0:
            spots.append((s.start, [0x40], 0x00))
    return spots


def _with(data: bytes, at: int, byte: int) -> bytes:
    return data[:at] + bytes([byte]) + data[at + 1 :]


@RANDOM
@given(encodings(), st.data())
def test_canonical_bytes_read_alike_both_ways(built: Built, data: st.DataObject) -> None:
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    assert_same(e.decode(encoded, canonical=False), e.decode(encoded), "lenient decode")
    assert_same(e._decode_lenient(encoded), e.decode(encoded), "the lenient reader itself")


@RANDOM
@given(MARKABLE, st.data())
def test_bytes_made_non_canonical_read_back_to_themselves(
    built: Built, data: st.DataObject
) -> None:
    """A boolean or presence byte made 01 or 7f, padding made non-zero, a
    ``z`` zero made 40: refused strictly, read leniently to the value of
    the canonical form, which ``encode`` writes back as read."""
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    for at, others, canonical in _spots(e, encoded):
        plain: Any = e.decode(encoded)
        if encoded[at] != canonical:  # a false made true: the canonical true's value
            try:
                plain = e.decode(_with(encoded, at, canonical))
            except de.DecodeError:  # it is written otherwise (a union's case, say)
                plain = None
        for byte in others:
            bad = _with(encoded, at, byte)
            with pytest.raises(de.DecodeError):
                e.decode(bad)
            value = e.decode(bad, canonical=False)
            assert e.encode(value) == bad, value
            assert e.length(value) == len(bad)
            if plain is not None:
                assert_same(reference_value(value), plain, "reference value")


@RANDOM
@given(encodings(), st.data(), st.binary(max_size=16))
def test_what_reads_leniently_encodes_to_itself(
    built: Built, data: st.DataObject, raw: bytes
) -> None:
    """Bytes read with ``canonical=False`` are written back byte for byte;
    bytes it refuses raise :class:`DecodeError` only."""
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    mutations = [_with(encoded, i, x) for i in range(len(encoded)) for x in (1, 0x40, 0x7F)]
    for bad in [raw, *mutations]:
        try:
            value = e.decode(bad, canonical=False)
        except de.DecodeError:
            continue
        assert e.encode(value) == bad, value
        assert e.length(value) == len(bad)
        with contextlib.suppress(de.EncodeError):  # no JSON form (NaN, a lone surrogate)
            # the JSON of the reference's value, never what a fast converter
            # made of a marker
            assert_same(e.to_json(value), e.to_json(reference_value(value)), "to_json")
