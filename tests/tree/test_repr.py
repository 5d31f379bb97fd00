"""An encoding prints as the call that built it.

A public constant prints as its name, a combinator's result as the call as
written (arguments as given, keywords as given), so that ``repr`` can be read
back: evaluated where ``data_encoding``'s names are in scope, it builds an
encoding that describes and encodes alike.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding.node.catalogue import admin
from random_dsl import encodings

NAMES: dict[str, Any] = {name: getattr(de, name) for name in de.__all__}
NAMES.update(fixed=de.fixed, bounded=de.bounded, variable=de.variable, hashes=de.hashes)


def _point() -> de.Encoding[Any]:
    return de.obj(de.req("x", de.uint16), de.req("y", de.uint16))


def _points(self: de.Encoding[Any]) -> de.Encoding[Any]:
    return de.option(de.tup(_point(), self))


@pytest.mark.parametrize(
    ("build", "text"),
    [
        (lambda: de.uint8, "uint8"),
        (lambda: de.hashes.block_hash, "hashes.block_hash"),
        (lambda: admin.PROCESS_STATE, "node.catalogue.admin.PROCESS_STATE"),
        (
            lambda: de.obj(de.req("id", de.uint16), de.opt("name", de.string)),
            "obj(req('id', uint16), opt('name', string))",
        ),
        (
            lambda: de.obj(de.dft("k", de.uint8, 3, title="K"), de.varopt("v", de.n)),
            "obj(dft('k', uint8, 3, title='K'), varopt('v', n))",
        ),
        (lambda: de.list_(de.uint8, max_length=3), "list_(uint8, max_length=3)"),
        (lambda: de.array_with_length("Uint8", de.z), "array_with_length('Uint8', z)"),
        (
            lambda: de.union([de.case(0, "a", de.uint8), de.case(1, "b", de.string)], "Uint16"),
            "union([case(0, 'a', uint8), case(1, 'b', string)], 'Uint16')",
        ),
        (
            lambda: de.matching(len, [de.case(0, "a", de.uint8), de.case(1, "b", de.string)]),
            "matching(len, [case(0, 'a', uint8), case(1, 'b', string)])",
        ),
        (lambda: de.conv(int, int, de.uint8), "conv(int, int, uint8)"),
        (lambda: de.def_("x", de.option(de.uint8)), "def_('x', option(uint8))"),
        (lambda: de.dynamic_size(de.string, kind="Uint8"), "dynamic_size(string, kind='Uint8')"),
        (lambda: de.check_size(10, de.bytes_), "check_size(10, bytes_)"),
        (lambda: de.padded(de.uint8, 2), "padded(uint8, 2)"),
        (lambda: de.ranged_int(-3, 300), "ranged_int(-3, 300)"),
        (lambda: de.ranged_float(0.5, 1.0), "ranged_float(0.5, 1.0)"),
        (lambda: de.constant("x{}y"), "constant('x{}y')"),
        (lambda: de.string_enum(["a", "b"]), "string_enum(['a', 'b'])"),
        (lambda: de.tup(de.uint8, de.bool_), "tup(uint8, bool_)"),
        (
            lambda: de.merge_objs(_point(), de.obj(de.req("z", de.int8))),
            "merge_objs(obj(req('x', uint16), req('y', uint16)), obj(req('z', int8)))",
        ),
        (lambda: de.fixed.string(3), "fixed.string(3)"),
        (lambda: de.bounded.bytes_(4), "bounded.bytes_(4)"),
        (lambda: de.variable.list_(de.n), "variable.list_(n)"),
        (lambda: de.mu("l", _points), "mu('l', _points)"),
        (lambda: de.variable.string, "variable.string"),
        (
            lambda: de.splitted(json=de.int31, binary=de.uint8),
            "splitted(json=int31, binary=uint8)",
        ),
    ],
)
def test_an_encoding_prints_as_the_call_that_built_it(build: Any, text: str) -> None:
    e = build()
    assert repr(e) == text
    if "catalogue" not in text and "_point" not in text:  # names outside the package
        again = eval(text, NAMES)
        assert repr(again) == text
        assert again.describe() == e.describe()


def test_a_constant_keeps_its_name_inside_calls() -> None:
    """Passing a published constant to a combinator does not rename it."""
    de.check_size(10, de.uint8)
    assert repr(de.uint8) == "uint8"
    assert repr(de.conv(_same, _same, de.uint8)) == "conv(_same, _same, uint8)"


def _same(value: Any) -> Any:
    return value


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(encodings(), st.data())
def test_a_random_encodings_repr_rebuilds_it(built: Any, data: st.DataObject) -> None:
    _, e = built
    text = repr(e)
    if "<" in text:  # a function with no name to write (a mu's lambda)
        return
    again = eval(text, NAMES)
    assert repr(again) == text
    assert again.describe() == e.describe()
    v = data.draw(e.strategy())
    assert again.encode(v) == e.encode(v)


def _pick(tag: int, value: object) -> int:
    return tag


def test_a_partial_prints_as_its_call_and_a_named_union_as_its_own() -> None:
    """No address in a repr: a ``functools.partial`` argument prints as the
    call that made it; the copy of a union that ``def_`` names (for its
    errors) prints as the call that built the union, as the union does."""
    cases = [de.case(0, "a", de.uint8), de.case(1, "b", de.string)]
    u = de.matching(partial(_pick, 1), cases, exact_reads=[1])
    text = (
        "matching(partial(_pick, 1), [case(0, 'a', uint8), case(1, 'b', string)], exact_reads=[1])"
    )
    assert repr(u) == text
    named = de.def_("ab", u)
    assert named.inner is not u  # a copy, labelled 'ab'
    assert repr(named.inner) == text
    assert repr(de.def_("ab", de.union(cases)).inner) == (
        "union([case(0, 'a', uint8), case(1, 'b', string)])"
    )
