"""Generated source in :mod:`linecache` outlives a garbage collection that runs
inside ``linecache.checkcache()`` (which pdb, doctest and tracebacks call):
a generated function that dies then must not take its entry out of the
cache under the loop's feet (``KeyError`` in the standard library)."""

from __future__ import annotations

import gc
import linecache
import os
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
