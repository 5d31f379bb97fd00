"""The binary pass's op IR: what encodings lower to, and how ops render.

A compiled reader or writer is built in two steps (``passes/binary/ops.py``):
the tree is lowered to frozen ops, which are rendered to Python. These tests
pin the lowering of the shapes that matter (a choice with the code after it
copied into its branches, the bound on copies: ``tests/ir_shapes.py``, op for
op) and the rendering of
hand-built blocks (one ``struct`` call per run, a peeked choice).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import struct
from collections.abc import Iterator
from typing import Any, get_args

import pytest

import data_encoding as de
from data_encoding.passes.binary import inline, joining, lowering, render
from data_encoding.passes.binary.ops import (
    AfterReads,
    Block,
    Branch,
    Call,
    Choice,
    Fail,
    Fetch,
    Flush,
    Let,
    Op,
    Peek,
    Put,
    Scope,
    Take,
    const,
    show,
)
from data_encoding.passes.binary.render import new_source, render_function
from data_encoding.passes.choosing import INLINE_CASES
from hand import VECTORS
from ir_shapes import PINS, SHAPES, listing, sections
from rich import RICH

STATE = de.union(
    [
        de.case(
            0, "running", de.obj(de.req("kind", de.constant("running")), de.req("pid", de.int32))
        ),
        de.case(1, "stopped", de.obj(de.req("kind", de.constant("stopped")))),
    ]
)
RECORD = de.obj(de.req("uid", de.uint16), de.req("state", STATE), de.opt("parent", de.int32))


def _walk(block: Block) -> Iterator[Op]:
    for op in block:
        yield op
        if isinstance(op, Choice):
            for b in op.branches:
                yield from _walk(b.body)
        body = getattr(op, "body", None)
        if isinstance(body, tuple):
            yield from _walk(body)


def test_a_record_lowers_to_its_fetches_then_one_run_per_case() -> None:
    ops = lowering.lowered(RECORD, reading=False)
    assert [type(op) for op in ops] == [Fail, Fetch, Let, Fail, Put, Let, Choice]
    fetch = ops[1]
    assert isinstance(fetch, Fetch)
    assert fetch.items == (("uid_1", "uid"), ("state_2", "state"))
    choice = ops[-1]
    assert isinstance(choice, Choice)
    assert choice.peek is None
    assert [b.test for b in choice.branches] == ["kind_4 == 'running'", "kind_4 == 'stopped'", None]
    # each known case starts with its tag, a constant of the run...
    assert choice.branches[0].body[0] == const("B", 0)
    assert choice.branches[1].body[0] == const("B", 1)
    # ... and the option after the union is copied into every branch, the
    # fallback (the case selected by trying) included
    for b in choice.branches:
        last = b.body[-1]
        assert isinstance(last, Choice)
        assert [x.test for x in last.branches] == ["parent_3 is None", None]
        assert last.branches[0].body == (const("B", 0),)
    assert isinstance(choice.branches[2].body[0], Call)


PINNED = sections(PINS.read_text())


@pytest.mark.parametrize("name", list(SHAPES))
@pytest.mark.parametrize("reading", [False, True], ids=["writing", "reading"])
def test_each_shape_lowers_to_its_pinned_ops(name: str, reading: bool) -> None:
    """What follows a choice, copied into its branches or not, op for op
    (``tests/ir_shapes.py`` says which shapes, and how to write the pins)."""
    assert (
        listing(SHAPES[name], reading) == PINNED[f"{name}: {'reading' if reading else 'writing'}"]
    )


def test_the_pins_are_those_of_the_shapes() -> None:
    assert list(PINNED) == [f"{n}: {way}" for n in SHAPES for way in ("writing", "reading")]


def test_reading_a_union_peeks_its_tag() -> None:
    ops = lowering.lowered(RECORD, reading=True)
    assert isinstance(ops[0], Take) and ops[0].target == "uid_1"
    choice = ops[1]
    assert isinstance(choice, Choice)
    assert choice.peek == Peek("tag_4", 1, ("'state'",), "the tag of a union", "end")
    assert [b.test for b in choice.branches] == ["tag_4 == 0", "tag_4 == 1", None]
    assert choice.branches[0].body[0] == Take("1x", 1)  # the peeked tag, read as a pad
    assert choice.branches[2].body[0] == Flush("end")  # the run is read before failing


def test_the_code_after_choices_is_copied_at_most_copies_times() -> None:
    # writing, the union has 5 branches that take what follows (4 cases and
    # the fallback): 5 * 2 = 10 copies after the choice on `a`; the choice
    # on `b` would make 20, so `c` follows it, once in each copy
    u = de.union(
        [de.case(i, f"c{i}", de.obj(de.req("kind", de.constant(f"c{i}")))) for i in range(4)]
    )
    e = de.obj(de.req("u", u), de.opt("a", de.uint8), de.opt("b", de.uint8), de.opt("c", de.uint8))
    assert joining.COPIES == 16
    ops = lowering.lowered(e, reading=False)
    writes_of_c = [op for op in _walk(ops) if isinstance(op, Put) and op.path == ("'c'",)]
    writes_of_b = [op for op in _walk(ops) if isinstance(op, Put) and op.path == ("'b'",)]
    assert (
        len(writes_of_b) == 5 * 2
    )  # in each of the union's 4 cases and its fallback, once per `a`
    assert len(writes_of_c) == 5 * 2  # after the choice on `b` in each: not copied into it
    assert e.decode(e.encode({"u": {"kind": "c2"}, "a": 1, "c": 3})) == {
        "u": {"kind": "c2"},
        "a": 1,
        "b": None,
        "c": 3,
    }


def _render(ops: Block, reading: bool) -> tuple[list[str], Any]:
    source = new_source()
    header = "def read(buf, pos, end):" if reading else "def write(out, v):"
    render_function(source, header, ops, reading, returns="x" if reading else "")
    fn = source.compile("read" if reading else "write", "test block")
    return source.lines, fn


def test_a_run_of_puts_renders_as_one_pack() -> None:
    ops: Block = (Let("a", "v[0]"), Put("H", "a"), const("B", 7), Put("i", "v[1]"))
    lines, write = _render(ops, reading=False)
    assert lines == ["def write(out, v):", "    a = v[0]", "    out += _pack(a, 7, v[1])"]
    out = bytearray()
    write(out, (513, -2))
    assert bytes(out) == struct.pack(">HBi", 513, 7, -2)


def test_constants_alone_render_as_bytes() -> None:
    lines, _ = _render((const("B", 1), const("H", 2)), reading=False)
    assert lines == ["def write(out, v):", "    out += b'\\x01\\x00\\x02'"]


def test_a_peeked_choice_reads_the_run_with_its_tag_in_each_branch() -> None:
    ops: Block = (
        Take("H", 2, "a"),
        Choice(
            (
                Branch("t == 0", (Take("x", 1), AfterReads("x = a"))),
                Branch("t == 1", (Take("x", 1), Take("B", 1, "b"), AfterReads("x = a + b"))),
                Branch(None, (Flush(), Fail(None, "_not_enough(0, 1, 0)", ()))),
            ),
            Peek("t", 1, (), "a tag", "end"),
        ),
    )
    source = new_source()
    source.ref(de.errors.not_enough_data, "not_enough")
    render_function(source, "def read(buf, pos, end):", ops, reading=True, returns="x")
    read = source.compile("read", "test block")
    assert [line for line in source.lines if "unpack" in line] == [
        "        (a, ) = _unpack(buf, pos)",
        "        (a, b, ) = _unpack_2(buf, pos)",
        "        (a, ) = _unpack_3(buf, pos)",
    ]
    assert read(bytes.fromhex("0102 00"), 0, 3) == (0x102, 3)
    assert read(bytes.fromhex("0102 01 05"), 0, 4) == (0x102 + 5, 4)
    with pytest.raises(de.DecodeError) as caught:
        read(bytes.fromhex("0102 01"), 0, 3)  # the tag, then nothing for b
    assert (caught.value.code, caught.value.offset) == ("not_enough_data", 3)
    with pytest.raises(de.DecodeError) as caught:
        read(bytes.fromhex("0102 09"), 0, 3)  # the else branch's error
    assert (caught.value.code, caught.value.offset) == ("not_enough_data", 0)


def test_ops_are_frozen_and_lowering_is_deterministic() -> None:
    for e in [RECORD, *RICH.values()]:
        for reading in (False, True):
            try:
                first = lowering.lowered(e, reading)
            except AssertionError:
                continue  # a leaf or a piece that is not compiled
            assert lowering.lowered(e, reading) == first
    with pytest.raises(dataclasses.FrozenInstanceError):
        const("B", 0).arg = "1"  # type: ignore[misc]


def test_every_op_type_is_used_by_some_lowering() -> None:
    used: set[type] = set()
    for e in [RECORD, *RICH.values(), *VECTORS.values()]:
        for reading in (False, True):
            if inline.inline_ops(e)[1 if reading else 0] is None:
                continue
            used |= {type(op) for op in _walk(lowering.lowered(e, reading))}
    assert used == set(get_args(Op)) - {Scope}  # the lowering's alone: see below


def test_the_join_leaves_no_scope_and_no_mark() -> None:
    for e in [RECORD, *RICH.values(), *VECTORS.values()]:
        for reading, lenient, json in itertools.product((False, True), repeat=3):
            if inline.inline_ops(e)[1 if reading else 0] is None:
                continue
            ops = list(_walk(lowering.lowered(e, reading, json=json, lenient=lenient)))
            assert not any(isinstance(op, Scope) or getattr(op, "joins", False) for op in ops)


TAKEN = Branch("t", (Let("a", "1"),))
FAILING = Branch(None, (Fail(None, "error", ()),))


def test_the_join_copies_what_follows_a_choice_but_not_past_its_scope() -> None:
    block = (
        Scope((Choice((TAKEN,), joins=True), Let("s", "2"))),
        Choice((TAKEN, FAILING), joins=True),
        Let("b", "3"),
    )
    assert joining.join(block, budget=100) == (
        Choice((Branch("t", (Let("a", "1"), Let("s", "2"))),)),
        Choice((Branch("t", (Let("a", "1"), Let("b", "3"))), FAILING)),
    )


def test_the_join_copies_within_its_bounds() -> None:
    after = Let("b", "3")
    wide = Choice(tuple(Branch(f"t{i}", ()) for i in range(joining.COPIES + 1)), joins=True)
    assert joining.join((wide, after), budget=100) == (Choice(wide.branches), after)
    two = Choice((Branch("t", ()), Branch(None, ())), joins=True)
    block = (Let("a", "1"), two, after)
    assert joining.join(block, budget=1) == (Let("a", "1"), Choice(two.branches), after)
    assert joining.join(block, budget=2) == (
        Let("a", "1"),
        Choice((Branch("t", (after,)), Branch(None, (after,)))),
    )
    # copies multiply: 4 * 4 = 16 copies of `after`, a third choice of 2 is not copied
    four = Choice(tuple(Branch(f"t{i}", ()) for i in range(4)), joins=True)
    joined = joining.join((four, four, two, after), budget=10_000)
    assert sum(1 for op in _walk(joined) if op == after) == 16


def test_show_lists_ops_with_their_blocks_indented() -> None:
    text = show(lowering.lowered(de.obj(de.opt("a", de.uint8)), reading=False))
    assert re.sub(r"\(.*", "", text).splitlines() == [
        "Fail",
        "Let",
        "Fail",
        "Choice",
        "    Branch",
        "        Put",
        "    Branch",
        "        Put",
        "        Put",
    ]


def test_a_call_shows_what_it_calls() -> None:
    e = de.obj(de.req("l", de.list_(de.obj(de.req("a", de.string)))))
    calls = [op for op in _walk(lowering.lowered(e, reading=False)) if isinstance(op, Call)]
    assert calls == []  # the list and its elements are inlined
    lowering.OP_BUDGET, budget = 0, lowering.OP_BUDGET
    try:
        (call,) = lowering.lowered(de.obj(de.req("l", de.list_(de.string))), reading=False)[-1:]
    finally:
        lowering.OP_BUDGET = budget
    assert isinstance(call, Call)
    assert re.fullmatch(
        r"Call\(fn=<data_encoding writer of list_\(string\)(?:-\d+)?>, "
        r"var='l_1', path=\(\"'l'\",\)\)",
        repr(call),
    )


# ------------------------------------------------------------------ pieces


FRAMED = de.obj(
    de.req("a", de.uint8),
    de.req("l", de.list_(de.string)),
    de.req("t", de.mu("t", lambda t: de.list_(t))),
    de.req("b", de.int31),
)


def _written(e: de.Encoding[Any], value: Any) -> tuple[str, Any]:
    """What the entry point gives, checked against the writer's bytearray."""
    out = bytearray()
    try:
        e._write(out, value)
    except de.EncodeError as err:
        with pytest.raises(de.EncodeError) as caught:
            e.encode(value)
        assert (caught.value.code, str(caught.value), caught.value.path) == (
            err.code,
            str(err),
            err.path,
        )
        return ("error", (err.code, err.path))
    assert e.encode(value) == bytes(out)
    return ("ok", bytes(out).hex())


def test_an_entry_point_joins_pieces_with_each_frame_size_in_its_run() -> None:
    source = FRAMED.encode.__source__  # type: ignore[attr-defined]
    assert "out = []" in source and "bytearray" in source  # the recursive part's own
    assert re.search(r"out\.append\(_pack\w*\(.*, size_\d+\)\)", source)  # a, then l's size
    assert _written(FRAMED, {"a": 1, "l": ["ab"], "t": [[]], "b": 2}) == (
        "ok",
        "0100000006000000026162000000040000000000000002",
    )
    # past MANY_PIECES elements, a list is written to one bytearray piece
    assert render.MANY_PIECES == 32
    assert "if len(l_" in source and "> 32:" in source
    long = {"a": 1, "l": ["ab"] * 33, "t": [], "b": 2}
    assert _written(FRAMED, long) == (
        "ok",
        f"01{33 * 6:08x}" + "000000026162" * 33 + "0000000000000002",
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # the frame's content is written before ``a`` is packed: ``a`` still fails first
        ({"a": 300, "l": [5], "t": [], "b": 0}, ("invalid_int", ("a",))),
        ({"a": 1, "l": [5], "t": [], "b": 0}, ("wrong_type", ("l", 0))),
        ({"a": True, "l": ["x"], "t": [], "b": 0}, ("wrong_type", ("a",))),
        # past the depth limit inside a frame, after a bad field: the field
        ({"a": 300, "l": [], "t": [[[[]]]], "b": 0}, ("invalid_int", ("a",))),
        ({"a": 1, "l": [], "t": [[[[]]]], "b": 0}, ("too_deep", ("t", 0, 0, 0))),
        ({"a": 1, "l": [], "t": [], "b": 2**31}, ("invalid_int", ("b",))),
        # a long list is written to one bytearray: the same errors
        ({"a": 1, "l": ["x"] * 39 + [5], "t": [], "b": 0}, ("wrong_type", ("l", 39))),
        ({"a": 300, "l": ["x"] * 39 + [5], "t": [], "b": 0}, ("invalid_int", ("a",))),
    ],
)
def test_entry_points_in_pieces_fail_as_the_writer_does(
    value: dict[str, Any], expected: tuple[str, tuple[Any, ...]]
) -> None:
    previous = de.max_depth()
    de.set_max_depth(3)
    try:
        assert _written(FRAMED, value) == ("error", expected)
    finally:
        de.set_max_depth(previous)


def test_a_leaf_that_runs_out_is_named_alike_inlined_or_called() -> None:
    """A leaf's ``not_enough_data`` says what it is, whether the leaf is read
    by its own reader or inlined into a record's run (``make fuzz`` found
    ``decode`` and ``decode_json`` wording it differently: their lowerings
    inline different parts)."""
    messages = []
    for e, data in ((de.int31, b"\x00"), (de.obj(de.req("a", de.int31)), b"\x00")):
        with pytest.raises(de.DecodeError) as caught:
            e.decode(data)
        messages.append(caught.value.message)
    assert messages == ["not enough data for int31: need 4 bytes, 1 left"] * 2


MANY_KINDS = de.union(
    [
        de.case(i, f"c{i}", de.obj(de.req("kind", de.constant(f"c{i}")), de.req("n", de.uint8)))
        for i in range(INLINE_CASES + 3)
    ]
)


def test_many_cases_told_apart_by_a_member_are_written_through_a_table() -> None:
    """More cases than an ``if`` chain takes (``INLINE_CASES``, as an
    operation's contents in the protocols): the writer looks the case up by
    its member's constant, as the reader looks it up by its tag, and builds
    no selection loop (which tries the cases' selectors in order: it made
    encoding an operation group 2.5 times slower)."""
    last = INLINE_CASES + 2
    assert MANY_KINDS.encode({"kind": f"c{last}", "n": 7}) == bytes([last, 7])
    assert MANY_KINDS.length({"kind": "c0", "n": 7}) == 2
    assert "binary.select_write" not in vars(MANY_KINDS)
    # the case's own failure, and nothing of the value written
    out = bytearray(b"x")
    with pytest.raises(de.EncodeError) as caught:
        MANY_KINDS._write(out, {"kind": "c3", "n": 300})
    assert (caught.value.code, caught.value.path, bytes(out)) == ("invalid_int", ("n",), b"x")
    # what the table does not hold takes the selection loop, for its error
    for value, code, path in [
        ({"kind": "c99", "n": 1}, "no_case_matched", ("kind",)),
        ({"kind": ["c1"], "n": 1}, "no_case_matched", ("kind",)),
        (5, "wrong_type", ()),
    ]:
        with pytest.raises(de.EncodeError) as caught:
            MANY_KINDS.encode(value)
        assert (caught.value.code, caught.value.path) == (code, path)
