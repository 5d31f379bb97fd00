"""Every generated source of the vectors', ``rich``'s, the benchmarks' and
the catalogue's encodings, in one text file: run it before and after a
change of the passes and diff the two files (``diff before.txt after.txt``),
to show what the change does to the generated code.

    PYTHONPATH=tests:benchmarks python tests/generated_sources.py OUT.txt

Each encoding's compiled pieces (the binary codec, the JSON converters,
the JSON mode, the lenient reader and the marked writer) are built by
reading them, which compiles their parts too; a source is written once,
under its file name (``<data_encoding writer of obj(...)>``) without the
``-2`` of a second function of that name, the sources sorted, so that the
order in which pieces happen to compile does not show in the diff.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

from data_encoding import DataEncodingError, Encoding
from data_encoding.passes import emit

__all__ = ["PIECES", "encodings", "generated_sources", "main"]

PIECES = (
    "encode",
    "decode",
    "encode_json",
    "decode_json",
    "_read",
    "_write",
    "_size_of",
    "_to_json",
    "_from_json",
    "_to_json_entry",
    "_length_entry",
    "_read_lenient",
    "_read_lenient_whole",
    "_write_marked",
    "_decode_lenient",
    "_encode_marked",
)
"""The compiled attributes of an encoding, each built on first read."""

_SUFFIX = re.compile(r"-\d+>$")


def encodings() -> Iterator[tuple[str, Encoding[Any]]]:
    """The encodings whose sources are diffed, each with its name."""
    from workloads import workloads

    from data_encoding.node import registry
    from hand import VECTORS
    from rich import RICH

    yield from ((f"vector:{name}", e) for name, e in VECTORS.items())
    yield from ((f"rich:{name}", e) for name, e in RICH.items())
    yield from ((f"bench:{w.name}", w.encoding) for w in workloads(scale=1))
    yield from ((f"id:{entry.id}", entry.encoding) for entry in registry.entries())


def generated_sources(named: Iterator[tuple[str, Encoding[Any]]]) -> list[str]:
    """The sources compiled while building every piece of the encodings, each
    headed by its file name (without a ``-2``), sorted; and a line per piece
    that an encoding has none of (its build raised)."""
    sources: set[str] = set()
    compile_ = emit.Source.compile

    def recording(src: emit.Source, name: str, label: str) -> Callable[..., Any]:
        fn = compile_(src, name, label)
        # the file name, without the -2 of a second one alive
        header = _SUFFIX.sub(">", fn.__code__.co_filename)
        sources.add(f"=== {header}\n{fn.__source__}")  # type: ignore[attr-defined]
        return fn

    with patch.object(emit.Source, "compile", recording):
        for name, e in named:
            for piece in PIECES:
                try:
                    getattr(e, piece)
                except DataEncodingError as err:
                    sources.add(f"=== {name}.{piece} raises {type(err).__name__} {err.code}\n")
    return sorted(sources)


def main(argv: list[str]) -> None:
    (out,) = argv
    text = "".join(generated_sources(encodings()))
    Path(out).write_text(text)
    print(f"{text.count('=== <')} sources, {len(text.splitlines())} lines: {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
