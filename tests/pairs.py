"""Each composite encoding of the vectors and of ``rich`` built twice: with
its parts inlined into its generated functions, and with every part called
(``PAIRS``); and the helpers that compare their outcomes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

from data_encoding import DataEncodingError, Encoding, RepeatedMembers
from data_encoding.passes import emit
from data_encoding.passes.binary import lowering
from dsl import build
from golden import legacy_records
from hand import VECTORS
from rich import PYTHONISH, RICH, as_subclass, rich_encodings


def _without_inlining(e: Encoding[Any]) -> Encoding[Any]:
    """``e`` (not compiled yet), compiled with every part called rather than inlined."""
    budgets = emit.LINE_BUDGET, lowering.OP_BUDGET
    emit.LINE_BUDGET = lowering.OP_BUDGET = 0
    try:
        e._write, e._read  # noqa: B018  # compiles the parts, recursively
    finally:
        emit.LINE_BUDGET, lowering.OP_BUDGET = budgets
    return e


def _dsl_of_vectors() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for record in legacy_records():
        out.setdefault(record["id"].split("-")[0], record["encoding"])
    return out


PAIRS: dict[str, tuple[Encoding[Any], Encoding[Any]]] = {
    **{
        f"vector:{name}": (VECTORS[name], _without_inlining(build(dsl)))
        for name, dsl in _dsl_of_vectors().items()
    },
    **{f"rich:{name}": (RICH[name], _without_inlining(e)) for name, e in rich_encodings().items()},
}


def outcome(action: Callable[[], Any]) -> Any:
    try:
        return ("ok", action())
    except DataEncodingError as err:
        return (type(err).__name__, err.code, err.offset, err.path)


def _parts(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``value`` (an object giving a name twice is a leaf:
    a key does not tell its members apart)."""
    yield path
    if isinstance(value, RepeatedMembers):
        return
    if isinstance(value, dict):
        for k, x in value.items():
            yield from _parts(x, (*path, k))
    elif isinstance(value, list | tuple):
        for i, x in enumerate(value):
            yield from _parts(x, (*path, i))


def _replace(value: Any, path: tuple[Any, ...], junk: Any) -> Any:
    if not path:
        return junk
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, junk)}
    items = list(value)
    items[head] = _replace(items[head], rest, junk)
    return tuple(items) if isinstance(value, tuple) else items


def spoiled(value: Any, data: st.DataObject) -> Any:
    """``value`` with one part (or the whole) replaced by an arbitrary Python value."""
    path = data.draw(st.sampled_from(list(_parts(value))))
    return _replace(value, path, data.draw(PYTHONISH))


def retyped(value: Any, data: st.DataObject) -> Any:
    """``value`` (JSON) with one part (or the whole) replaced by an equal
    value of a subclass of its type (:func:`rich.as_subclass`), when it has
    a part that can be."""
    paths = [p for p in _parts(value) if as_subclass(_at(value, p)) is not None]
    if not paths:
        return value
    path = data.draw(st.sampled_from(paths))
    return _replace(value, path, as_subclass(_at(value, path)))


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


NAMES = sorted(PAIRS)
