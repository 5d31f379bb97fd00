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


def _record() -> de.Encoding[Any]:
    return de.obj(de.req("pid", de.int31), de.req("1st key!", de.bool_), de.opt("code", de.uint8))


def test_the_source_is_in_linecache_under_a_name_that_says_what_it_is() -> None:
    e = _record()
    write, read = e._write, e._read
    assert re.fullmatch(
        r"<data_encoding #\d+ writer of obj\(req\('pid', int31\), req\('1st key!', bool_\), "
        r"opt\('code', uint8\)\)>",
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
        "    except RecursionError: raise _too_deep(_EncodeError) from None",
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
        "    except RecursionError: raise _too_deep(_DecodeError) from None",
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
    assert _record()._write.__code__.co_filename != filename
    assert filename not in linecache.cache
