"""Generated source in :mod:`linecache` outlives a garbage collection that runs
inside ``linecache.checkcache()`` (which pdb, doctest and tracebacks call):
a generated function that dies then must not take its entry out of the
cache under the loop's feet (``KeyError`` in the standard library)."""

from __future__ import annotations

import gc
import linecache
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from data_encoding import list_, mu


def test_a_collection_during_checkcache_does_not_break_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real = tmp_path / "real.py"
    real.write_text("x = 1\n")
    linecache.getlines(str(real))  # a file checkcache stats, before the generated entries
    gc.disable()  # the encoding below dies when we say
    try:
        e = mu("lists", lambda self: list_(self))
        assert e.encode([[]]) == bytes.fromhex("0000000400000000")  # compiled: in the cache
        generated = [name for name in linecache.cache if "mu('lists'" in name]
        assert generated
        del e  # garbage (a cycle), collected by the next collection
        stat = os.stat
        collected: list[Any] = []

        def collecting_stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
            if not collected:  # once, in the middle of checkcache's loop over the cache
                collected.append(path)
                gc.collect()
            return stat(path, *args, **kwargs)

        monkeypatch.setattr(os, "stat", collecting_stat)
        linecache.checkcache()
        assert collected  # a file was checked, and the encoding died then
    finally:
        gc.enable()


_NAMES_OF_A_RUN = """
import sys
from functools import partial

import data_encoding as de

if sys.argv[1:] == ["after-another"]:
    de.tup(de.uint8, de.string)._write  # compiled first: the run's first function


def pick(tag, value):
    return tag


e = de.obj(*(de.req(f"field_{i}", de.uint8) for i in range(9)))
same = de.obj(*(de.req(f"field_{i}", de.uint8) for i in range(9)))
named = de.def_("ab", de.matching(partial(pick, 1), [de.case(1, "b", de.string)]))
for f in (e._write, e._read, same._write, named._write):
    print(f.__code__.co_filename)
"""


def test_generated_file_names_are_the_same_in_every_run() -> None:
    """A generated function's file name is what it compiles, cut at a token
    boundary, with no counter nor address: the same in two fresh processes
    (a second function of the same name in a process gets ``-2``), whatever
    the process compiled before."""
    runs = [
        subprocess.run(
            [sys.executable, "-c", _NAMES_OF_A_RUN, *first],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
        for first in ([], ["after-another"])
    ]
    assert runs[0] == runs[1]
    fields = "obj(req('field_0', uint8), req('field_1', uint8), req('field_2', uint8), req(..."
    assert runs[0] == [
        f"<data_encoding writer of {fields}>",
        f"<data_encoding reader of {fields}>",
        f"<data_encoding writer of {fields}-2>",
        "<data_encoding writer of matching(partial(pick, 1), [case(1, 'b', string)])>",
    ]
