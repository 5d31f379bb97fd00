"""Generated code can be read: named after what it handles, and registered in
``linecache`` so that tracebacks and ``inspect.getsource`` show its lines."""

from __future__ import annotations

import gc
import inspect
import linecache
import re
import traceback
import weakref
from typing import Any

import pytest

import data_encoding as de
from data_encoding.passes.json.fast import fast_to_json


def _record() -> de.Encoding[Any]:
    return de.obj(de.req("pid", de.int31), de.req("1st key!", de.bool_), de.opt("code", de.uint8))


def test_the_source_is_in_linecache_under_a_name_that_says_what_it_is() -> None:
    e = _record()
    write, read = e._write, e._read
    assert re.fullmatch(
        r"<data_encoding writer of obj\(req\('pid', int31\), req\('1st key!', bool_\), "
        r"opt\('code', uint8\)\)(?:-\d+)?>",
        write.__code__.co_filename,
    )
    assert "reader of obj(" in read.__code__.co_filename
    assert inspect.getsource(write) == write.__source__  # type: ignore[attr-defined]
    assert linecache.getline(read.__code__.co_filename, 1) == "def read(buf, pos, end):\n"


def test_variables_are_named_after_the_fields() -> None:
    source = _record()._write.__source__  # type: ignore[attr-defined]
    assert "pid_1 = v['pid']" in source
    assert "st_key_2 = v['1st key!']" in source  # any text made an identifier
    assert "code_3 = v.get('code')" in source
    assert re.search(r"\b_k\d", source) is None  # objects are named too: _pack, _key_error...
    assert "_key_error(_parts, _keys, v)" in source


def test_a_traceback_through_generated_code_shows_its_line() -> None:
    e = _record()
    with pytest.raises(de.DecodeError) as caught:
        e.decode(bytes.fromhex("0000000102"))  # a bool byte 02
    frames = traceback.extract_tb(caught.value.__traceback__)
    (generated,) = [f for f in frames if f.filename.startswith("<data_encoding")]
    assert generated.name == "decode"  # the entry point: the reader's body, inlined
    lines = e.decode.__source__.splitlines()  # type: ignore[attr-defined]
    assert generated.lineno is not None
    assert generated.line == lines[generated.lineno - 1].strip()
    assert generated.line  # shown, not blank


def test_the_entry_points_render_the_generated_codecs_ops() -> None:
    """``e.encode`` and ``e.decode`` are functions kept on the encoding; for a
    generated codec, its writer's (reader's) ops rendered in the entry's own
    frame, so that the call is the only call. ``encode`` collects ``bytes``
    pieces and joins them once. The lenient variant is reached on failure
    only: a value with markers goes to the marked encoder, input refused
    with ``canonical=False`` to the lenient decoder."""
    e = _record()
    write_body = e._write.__source__.splitlines()[1:]  # type: ignore[attr-defined]
    read_body = e._read.__source__.splitlines()[1:-1]  # type: ignore[attr-defined]
    encode_lines = e.encode.__source__.splitlines()  # type: ignore[attr-defined]
    decode_lines = e.decode.__source__.splitlines()  # type: ignore[attr-defined]
    assert encode_lines[:3] == ["def encode(v):", "    out = []", "    try:"]
    pieces = [re.sub(r"^(\s*)out \+= (.*)$", r"\1out.append(\2)", line) for line in write_body]
    assert pieces != write_body  # it writes
    assert encode_lines[3 : 3 + len(write_body)] == ["    " + line for line in pieces]
    assert encode_lines[3 + len(write_body) :] == [
        "    except RecursionError: raise _past_recursion_limit(_EncodeError) from None",
        "    except _Err:",
        "        if not _has_markers(v): raise",
        "        return _marked(_root, v)",
        "    return b''.join(out)",
    ]
    assert decode_lines[:5] == [
        "def decode(buf, canonical=True):",
        "    if type(buf) is not bytes: buf = _input_bytes(buf)",
        "    pos = 0",
        "    end = len(buf)",
        "    try:",
    ]
    assert decode_lines[5 : 5 + len(read_body)] == ["    " + line for line in read_body]
    assert decode_lines[5 + len(read_body) :] == [
        "    except RecursionError: raise _past_recursion_limit(_DecodeError) from None",
        "    except _Err:",
        "        if canonical: raise",
        "        return _lenient(_root, buf)",
        "    if pos != len(buf): raise _extra_bytes(pos, len(buf))",
        "    return x",
    ]
    assert e.__dict__["encode"] is e.encode and e.__dict__["decode"] is e.decode


def test_entry_points_of_codecs_that_are_not_generated_call_them() -> None:
    """A leaf's reader and writer are closures: its entry points call them."""
    assert not hasattr(de.uint16.encode, "__source__")
    assert de.uint16.encode(300) == b"\x01\x2c"
    assert de.uint16.decode(bytearray(b"\x01\x2c")) == 300
    with pytest.raises(de.DecodeError) as caught:
        de.uint16.decode(b"\x01\x2c\x00")
    assert (caught.value.code, caught.value.offset) == ("extra_bytes", 2)
    assert str(caught.value) == "extra bytes: the value ends at byte 2 of 3 (byte 2)"


def test_generated_functions_die_with_their_encoding() -> None:
    """The bodies kept for the entry points do not keep the functions alive."""
    e = _record()
    e.encode(e.decode(bytes.fromhex("000000010000")))
    alive = [weakref.ref(f) for f in (e._write, e._read, e.encode, e.decode)]
    del e
    gc.collect()
    assert [ref() for ref in alive] == [None] * 4


def test_the_source_leaves_linecache_with_its_function() -> None:
    e = _record()
    filename = e._write.__code__.co_filename
    assert filename in linecache.cache
    del e
    gc.collect()
    # dropped at the next compile, not by the collection (see test_linecache.py)
    assert de.tup(de.uint8, de.int8)._write.__code__.co_filename != filename
    assert filename not in linecache.cache
    assert _record()._write.__code__.co_filename == filename  # its name is free again


# ------------------------------------------------ what makes the hot paths cheap


def _chain() -> de.Encoding[Any]:
    return de.mu("chain", lambda self: de.obj(de.req("v", de.uint8), de.opt("next", self)))


def test_a_recursive_encodings_code_counts_its_own_levels_and_calls_itself() -> None:
    """The reader and writer of a ``mu`` are its body's code with the level
    count around it, and call themselves: no wrapper's frame a level. The
    limit is where it was: ``max_depth()`` levels read and written, one more
    refused at the level's offset."""
    chain, levels = _chain(), de.max_depth()
    deepest = b"\x01\xff" * (levels - 1) + b"\x01\x00"
    value = chain.decode(deepest)
    assert chain.encode(value) == deepest
    pieces: list[Any] = [chain._read, chain._write]
    for piece in pieces:
        source = piece.__source__
        assert source.splitlines()[1] == "    depth_cell = _levels.cell"
        assert "nested " in piece.__code__.co_filename
        assert any(v is piece for v in piece.__globals__.values())  # it calls itself
    with pytest.raises(de.DecodeError) as read:
        chain.decode(b"\x01\xff" * levels + b"\x01\x00")
    error = read.value
    assert (error.code, error.offset, len(error.path)) == ("too_deep", 2 * levels, levels)
    with pytest.raises(de.EncodeError) as written:
        chain.encode({"v": 1, "next": value})
    assert (written.value.code, len(written.value.path)) == ("too_deep", levels)
    # a failure deep down leaves the count where it was: the next call reads as deep
    assert chain.decode(deepest) == value


def test_an_enumeration_is_read_and_written_by_an_index() -> None:
    enum = de.string_enum(["a", "b", "c"])
    record = de.obj(de.req("n", de.uint16), de.req("e", enum))
    assert "e_2 = _cases[e_2]" in record._read.__source__  # type: ignore[attr-defined]
    assert re.search(r"_index(_\d+)?\[e_2\]", record._write.__source__)  # type: ignore[attr-defined]
    assert record.decode(bytes.fromhex("000102")) == {"n": 1, "e": "c"}
    assert record.encode({"n": 1, "e": "b"}).hex() == "000101"
    with pytest.raises(de.DecodeError) as read:
        record.decode(bytes.fromhex("000103"))
    assert (read.value.code, read.value.offset, read.value.path) == ("no_case_matched", 2, ("e",))
    wrong: object
    for wrong in ("d", [], None):
        with pytest.raises(de.EncodeError) as written:
            record.encode({"n": 1, "e": wrong})
        assert (written.value.code, written.value.path) == ("no_case_matched", ("e",))
    # values that are not strings are looked up by type too: 1 is not True
    typed = de.obj(de.req("e", de.string_enum({"one": 1, "two": 2})))
    assert not re.search(r"_index(_\d+)?\[", typed._write.__source__)  # type: ignore[attr-defined]
    assert typed.encode({"e": 2}).hex() == "01"
    with pytest.raises(de.EncodeError):
        typed.encode({"e": True})


def test_one_byte_is_read_by_an_index_and_a_short_list_without_a_loop() -> None:
    pair = de.obj(de.req("tag", de.uint8), de.req("args", de.fixed.list_(2, de.int31)))
    source = pair._read.__source__  # type: ignore[attr-defined]
    assert "tag_1 = buf[pos]" in source
    assert "for _ in" not in source
    assert pair.decode(bytes.fromhex("070000000100000002")) == {"tag": 7, "args": [1, 2]}


def test_a_matching_union_checks_the_cases_not_read_exactly() -> None:
    """``exact_reads``: the cases whose reader gives only values their writer
    writes with them are not checked; the others are (``not_canonical``)."""
    calls: list[object] = []

    def smallest(value: Any) -> int:
        calls.append(value)
        return 0 if -(2**30) <= value < 2**30 else 1

    cases = [de.case(0, "small", de.int31), de.case(1, "large", de.int64)]
    u = de.list_(de.matching(smallest, cases, exact_reads=[0]))
    assert u.decode(bytes.fromhex("0000000e0000000005010000010000000000")) == [5, 2**40]
    assert calls == [2**40]
    with pytest.raises(de.DecodeError) as read:
        u.decode(bytes.fromhex("00000009010000000000000005"))
    assert (read.value.code, read.value.offset, read.value.path) == ("not_canonical", 4, (0,))
    with pytest.raises(de.DefinitionError, match=r"exact_reads names no case's tag: \[2\]"):
        de.matching(smallest, cases, exact_reads=[0, 2])


def test_the_dense_guards_say_why_beside_them() -> None:
    """A guard whose reason a reader of a traceback cannot see at once has a
    comment beside it: a record's member count, a frame's bounds, the room a
    variable field leaves for the fixed ones after it."""
    record = de.obj(de.req("a", de.uint8), de.opt("b", de.uint8))
    lines = fast_to_json(record).__source__.splitlines()  # type: ignore[attr-defined]
    assert "    if len(v) > 1 + ('b' in v): raise _Bail  # a member that no field names" in lines
    framed = de.obj(de.req("s", de.variable.string), de.req("n", de.uint8))
    lines = framed._read.__source__.splitlines()  # type: ignore[attr-defined]
    assert "    if frame_end_3 < pos:  # no room for the fixed fields after it" in lines
    lines = de.dynamic_size(de.string)._read.__source__.splitlines()  # type: ignore[attr-defined]
    assert (
        "    if stop_2 > end or size_1 > 1073741823:"
        "  # the frame runs past its end, or past its header's bound"
    ) in lines
