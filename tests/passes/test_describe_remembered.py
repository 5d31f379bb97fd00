"""``describe`` walks each node once per alike place and does again what the
walk did where the node is met again (``remember=True``, the default): the
same schema as walking the tree unfolded, as the reference does
(``remember=False``), in both dialects."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from catalogue_ids import ENCODING_IDS
from data_encoding import DefinitionError, Encoding, def_, int8, int16, int32, obj, req, tup, uint8
from data_encoding.node import registry
from data_encoding.passes.schema import Dialect
from data_encoding.passes.schema.describe import describe
from data_encoding.passes.schema.jsonguide import NO_PRIMITIVES, Guide
from data_encoding.passes.schema.rebuilder import Rebuilder
from random_dsl import encodings

DIALECTS: tuple[Dialect, ...] = ("legacy", "1.0")


def _both(e: Encoding[Any], dialect: Dialect) -> None:
    try:
        walked = describe(e, dialect, remember=False)
    except DefinitionError as error:
        with pytest.raises(DefinitionError, match="^" + re.escape(str(error)) + "$"):
            describe(e, dialect)
        return
    assert describe(e, dialect) == walked


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("id", ENCODING_IDS)
def test_every_catalogue_id_describes_as_walked_unfolded(id: str, dialect: Dialect) -> None:
    _both(registry.find(id).encoding, dialect)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(encodings())
def test_random_encodings_and_their_rebuilds_describe_as_walked_unfolded(
    built: tuple[Any, Encoding[Any]],
) -> None:
    # a rebuilt encoding uses each entry at every place it is referred
    # from (the same node, met again), named X_<n> by defs or not
    _, e = built
    schema = e.describe()
    try:
        guide: Guide | None = Guide(e.json_schema())
    except DefinitionError:
        guide = None
    rebuilt = [e]
    for anonymous in (True, False):
        for way in (None, guide):
            with contextlib.suppress(DefinitionError):
                rebuilt.append(Rebuilder(schema, way, NO_PRIMITIVES, anonymous).toplevel())
    for each in rebuilt:
        for dialect in DIALECTS:
            _both(each, dialect)


def test_a_def_named_as_the_counter_names_is_not_shifted_with_its_names() -> None:
    # walked first, the subtree's counter gives X_0 .. X_2, and its def is
    # named X_0: met again, its counter's names move on, its def's does not
    inner = obj(
        req("p", tup(int8, int16)),
        req("q", def_("X_0", obj(req("r", tup(uint8, int8)), req("s", int32)))),
    )
    e = obj(req("a", inner), req("b", inner))
    for dialect in DIALECTS:
        _both(e, dialect)
    # (the reference's walk names a counter's entry as the def: both are kept)
    assert [entry.description.title for entry in describe(e).fields] == [
        "X_5",
        "X_4",
        "X_0",
        "X_0",
    ]
