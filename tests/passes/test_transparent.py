"""Which wrappers each pass sees through (``data_encoding.passes.transparent``).

For one instance of every wrapper type, what each question of the passes
answers: the node the wrapper stands for, as the path of attributes that
reaches it (``inner``, ``binary.inner``...), the wrapper itself, or none.
The one-step questions say whether a wrapper is seen through; the loops
(``_written``, ``_readable``, ``emitted_for``) follow them to the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import data_encoding as de
from data_encoding import Encoding, obj, req, tup, uint8
from data_encoding.node import hashes, keys
from data_encoding.passes import choosing
from data_encoding.passes.binary import slicing
from data_encoding.passes.binary.jsonmode import same_both
from data_encoding.passes.binary.marking import lenient_value_node
from data_encoding.passes.binary.rules import same_binary
from data_encoding.passes.json.exact import same_converters
from data_encoding.passes.transparent import emitted_for, unwrap
from data_encoding.tree.records import Described, Named
from data_encoding.tree.wrappers import Mu

_TAGGED = keys.public_key_hash.binary.inner.inner.inner.cases[0].enc.inner  # type: ignore[attr-defined]
"""An Ed25519 key hash's bytes: a tagged fixed-bytes leaf behind its name."""

WRAPPERS: dict[str, Encoding[Any]] = {
    "Def": de.def_("d", uint8),
    "Conv": de.conv(int, str, uint8),
    "Delayed": de.delayed(lambda: uint8),
    "Mu": de.mu("m", lambda self: obj(req("v", uint8), de.opt("next", self))),
    "CheckSize": de.check_size(10, de.variable.string),
    "Bounded": de.bounded.string(5),
    "Splitted": de.splitted(json=de.int31, binary=uint8),
    "DirectJson": hashes.block_hash,
    "Described": Described(tup(uint8), obj(req("a", uint8))),
    "Named": Named("n", uint8),
    "DynamicSize": de.string,
    "Padded": de.padded(uint8, 2),
    "FixedBytes": de.fixed.bytes_(4),
    "TaggedBytes": _TAGGED,
    "HashBytes": hashes.block_hash.binary.inner,  # type: ignore[attr-defined]
}
"""One instance of every wrapper type, real ones (the node's hashes and
keys) where the node has them."""

QUESTIONS: dict[str, Callable[[Encoding[Any]], Encoding[Any] | None]] = {
    "layout": lambda e: unwrap(e, "binary"),
    "json": lambda e: unwrap(e, "json"),
    "binary": same_binary,
    "conv": same_converters,
    "both": same_both,
    "len": lenient_value_node,
    "values": choosing._same_values,
    "writes": choosing._written,
    "reads": choosing._readable,
    "through": slicing._through,
    "e.bin": lambda e: emitted_for(e, same_binary),
    "e.conv": lambda e: emitted_for(e, same_converters),
    "e.both": lambda e: emitted_for(e, same_both),
    "e.len": lambda e: emitted_for(e, lenient_value_node),
}
"""Today's answers to "which node does this wrapper stand for?", by the
name of their column in :data:`ANSWERS`: the binary layout and the JSON form
(``transparent.unwrap``), the node whose pieces the binary codec
(``binary.rules.same_binary``), the JSON converters
(``json.exact.same_converters``), JSON mode (``binary.jsonmode.same_both``) and the
lenient reader (``marking.lenient_value_node``) use, the node whose values
a union's shape tests see (``choosing._same_values``), the record that
writes or reads a case's members (``choosing._written``, ``_readable``), the
node whose bytes a slice shows (``slicing._through``), and the node whose
code each codec emits (``transparent.emitted_for``)."""

ANSWERS = """
wrapper     layout json binary conv both len values writes reads   through e.bin e.conv e.both e.len
Def         i      i    i      i    i    i   i      i      i       i       i     i      i      i
Conv        i      i    -      -    -    -   -      .      i       i       .     .      .      .
Delayed     i      i    i      i    -    i   i      i      i       i       .     .      .      .
Mu          -      -    -      -    -    -   -      m      m       -       .     .      .      .
CheckSize   i      i    -      i    -    -   i      i      i       i       .     i      .      .
Bounded     i      i    -      i    -    -   i      i.i    i.i     i       .     i.i    .      .
Splitted    b      j    b      j    -    -   b      .      j       b       b     j      .      .
DirectJson  b      j    b      -    -    -   b      .      j.i.i.i -       b.i   .      .      .
Described   r      i    i      i    i    i   i      i      i       i       i     i      i      i
Named       r      i    i      i    i    i   i      i      i       i       i     i      i      i
DynamicSize -      i    -      i    -    -   i      i      i       -       .     i      .      .
Padded      -      i    -      i    -    -   i      i      i       -       .     i      .      .
FixedBytes  -      i    -      i    -    -   i      i      i       -       .     i      .      .
TaggedBytes -      i    -      i    -    -   i      i      i       -       .     i      .      .
HashBytes   -      i    -      i    -    -   i      i      i       -       .     i      .      .
"""
"""Each wrapper's answers, a column per question in the order of
:data:`QUESTIONS`: ``-`` none, ``.`` the wrapper itself, else the path of
attributes to the node answered: ``i`` ``inner``, ``b`` ``binary``, ``j``
``json``, ``r`` ``record``, ``m`` a mu's ``body`` (``j.i`` is ``json.inner``)."""

_STEPS = {"i": "inner", "b": "binary", "j": "json", "r": "record", "m": "body"}


def _reached(e: Encoding[Any], node: Encoding[Any] | None) -> str:
    """How ``node`` is reached from ``e``, written as in :data:`ANSWERS`."""
    if node is None:
        return "-"
    paths: list[tuple[str, Encoding[Any]]] = [(".", e)]
    for _ in range(5):
        for path, here in paths:
            if here is node:
                return path
        paths = [
            (step if path == "." else f"{path}.{step}", getattr(here, attribute))
            for path, here in paths
            for step, attribute in _STEPS.items()
            # a bounded string's ``body`` is its ``inner.inner``: named so
            if isinstance(getattr(here, attribute, None), Encoding)
            and (attribute != "body" or isinstance(here, Mu))
        ]
    raise AssertionError(f"{node!r} is not reached from {e!r}")


def _answers() -> dict[str, dict[str, str]]:
    header, *rows = ANSWERS.strip().splitlines()
    questions = header.split()[1:]
    return {
        name: dict(zip(questions, cells, strict=True))
        for name, *cells in (row.split() for row in rows)
    }


def test_every_wrapper_type_has_an_instance_and_a_row() -> None:
    assert [type(e).__name__ for e in WRAPPERS.values()] == list(WRAPPERS)
    assert list(_answers()) == list(WRAPPERS)
    assert ANSWERS.split("\n")[1].split()[1:] == list(QUESTIONS)


@pytest.mark.parametrize("name", WRAPPERS)
def test_what_each_question_sees_through(name: str) -> None:
    e = WRAPPERS[name]
    assert {q: _reached(e, question(e)) for q, question in QUESTIONS.items()} == _answers()[name]
