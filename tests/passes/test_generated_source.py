"""Generated code can be read: named after what it handles, and registered in
``linecache`` so that tracebacks and ``inspect.getsource`` show its lines."""

from __future__ import annotations

import gc
import inspect
import linecache
import re
import traceback
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
    assert generated.name == "read"
    lines = e._read.__source__.splitlines()  # type: ignore[attr-defined]
    assert generated.lineno is not None
    assert generated.line == lines[generated.lineno - 1].strip()
    assert generated.line  # shown, not blank


def test_the_source_leaves_linecache_with_its_function() -> None:
    e = _record()
    filename = e._write.__code__.co_filename
    assert filename in linecache.cache
    del e
    gc.collect()
    # dropped at the next compile, not by the collection (see test_linecache.py)
    assert _record()._write.__code__.co_filename != filename
    assert filename not in linecache.cache
