"""What the hostile-input tests of the catalogue share
(``tests/node/test_catalogue_hostile_json.py`` and ``..._values.py``):
valid values of each catalogue id, drawn once from its strategy
(derandomised), and a generic walk over a JSON or Python value (dicts,
lists, tuples) that lists every position in it and rebuilds the value with
one position changed, and the loop that tries each change
(:func:`check_changes`).

A *position* is a path as the library writes one in its errors: a tuple of
object keys (``str``) and list or tuple indexes (``int``), ``()`` for the
whole value. :func:`is_prefix` compares paths with their steps' types, so
that an index ``0`` is no key ``"0"``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any, Protocol, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

from data_encoding import Encoding, RepeatedMembers
from data_encoding.node import registry
from data_encoding.strategies import from_encoding

Path = tuple[str | int, ...]


class Changed(Protocol):
    """A changed value (JSON or Python) of a hostile test."""

    @property
    def at(self) -> Path: ...  # where the change is

    @property
    def what(self) -> str: ...  # what was done, for failure messages


C = TypeVar("C", bound=Changed)

EXAMPLES = 10
"""Values drawn per id: the strategy's first ten, the same on every run."""

MAX_POSITIONS = 150
"""The most positions a value tested may have in its JSON form: each change
is read (or written) as a whole document, so a value costs the square of its
size. Only the schemas of ``rpc.binary_schema``, ``rpc.schemas``,
``rpc.service`` and their 1.0 twins draw larger ones (up to about 900
positions), made of the parts their smaller values have too."""

CHANGED_POSITIONS = 6000
"""What the changes of an id's values may cost together, in positions read:
a value of ``p`` positions is changed at each of them, each change read (or
written) whole, ``p**2``. :func:`check_changes` changes the values in the
strategy's order while they fit: all ten for most ids; the first few for
the large records (a protocol's parameters and constants, ``admin.daemons``,
the schemas), whose other values are made of the same parts, and which took
seconds each."""


@cache
def values_of(id: str) -> tuple[Any, ...]:
    """The valid values of catalogue id ``id`` the hostile tests change: of
    its strategy's first ``EXAMPLES`` (the same on every run), those of at
    most ``MAX_POSITIONS`` positions."""
    e = registry.find(id).encoding
    found: list[Any] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(from_encoding(e))
    def collect(value: Any) -> None:
        found.append(value)

    with _only_hypothesis_constants():
        collect()
    return tuple(v for v in found if len(list(positions(e.to_json(v)))) <= MAX_POSITIONS)


@contextmanager
def _only_hypothesis_constants() -> Iterator[None]:
    """Hypothesis without the constants it gathers from the project's loaded
    modules (since 6.131 it sometimes draws one of those): with them, what a
    derandomised test draws depends on which modules the run imported (one
    test file, or the whole suite), and a failure must be the same in every
    run. Hypothesis has no setting for this: its
    internal hook is replaced, when there is one, for the draw only."""
    hook = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if hook is None or cache is None:
        yield  # a version that gathers none
        return
    none = Constants()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(providers, "_get_local_constants", lambda: none)
        cache.cache.clear()  # the pools of constants, with the gathered ones
        try:
            yield
        finally:
            cache.cache.clear()


def positions(value: Any, at: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every position inside ``value`` with what is there, the whole value
    first: a dict's members by key, a list's or tuple's items by index.
    Anything else (a hash, a dataclass, a string) is a leaf, and so is an
    object that gives a name twice (a key does not tell its members apart)."""
    yield at, value
    if isinstance(value, RepeatedMembers):
        return
    if isinstance(value, dict):
        for key, item in value.items():
            yield from positions(item, (*at, key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from positions(item, (*at, i))


def replaced(value: Any, at: Path, new: Any) -> Any:
    """``value`` with what is at ``at`` replaced by ``new``; the containers
    on the way are copies (of their own types), the rest is shared."""
    if not at:
        return new
    step, rest = at[0], at[1:]
    if isinstance(value, dict):
        copy = dict(value)
        copy[step] = replaced(value[step], rest, new)
        return copy
    assert isinstance(step, int) and isinstance(value, list | tuple), (step, type(value))
    items = list(value)
    items[step] = replaced(items[step], rest, new)
    return items if isinstance(value, list) else tuple(items)


def is_prefix(path: Path, of: Path) -> bool:
    """``path`` is ``of`` or one of its ancestors, step for step, types included."""
    return len(path) <= len(of) and same_path(path, of[: len(path)])


def same_path(a: Path, b: Path) -> bool:
    """``a == b``, step for step, types included (an index ``0`` is no key ``"0"``)."""
    return len(a) == len(b) and all(
        type(x) is type(y) and x == y for x, y in zip(a, b, strict=True)
    )


def placed(path: Path, code: str, at: Path, thing: Any) -> bool:
    """Whether an error of ``code`` at ``path`` may blame a change that put
    ``thing`` at ``at``: it is placed at ``at`` or an ancestor (a union that
    cannot pick its case reports its own place); or inside ``thing``, at one
    of its positions, or (``missing_field``) at a member one of its dicts lacks."""
    if is_prefix(path, at):
        return True
    if not is_prefix(at, path):
        return False
    inner = path[len(at) :]
    for q, part in positions(thing):
        if same_path(inner, q):
            return True
        if (
            code == "missing_field"
            and isinstance(part, dict)
            and same_path(inner[:-1], q)
            and isinstance(inner[-1], str)
            and inner[-1] not in part
        ):
            return True
    return False


def _within_budget(e: Encoding[Any], values: Iterable[Any]) -> Iterator[tuple[int, Any]]:
    """The values whose changes fit :data:`CHANGED_POSITIONS` together, in
    order, each with its index among ``values``."""
    spent = 0
    for n, value in enumerate(values):
        cost = sum(1 for _ in positions(e.to_json(value))) ** 2
        if spent + cost <= CHANGED_POSITIONS:
            spent += cost
            yield n, value


def check_changes(
    id: str,
    family: str,
    changes_of: Callable[[Encoding[Any], Any], Iterable[C]],
    problem: Callable[[Encoding[Any], C], str | None],
) -> None:
    """Each change ``changes_of`` makes of each value of ``id`` (those
    within :data:`CHANGED_POSITIONS`) has no ``problem``; skipped when the
    values have no place for a change of ``family``."""
    e = registry.find(id).encoding
    tried, found = 0, []
    for n, value in _within_budget(e, values_of(id)):
        for change in changes_of(e, value):
            tried += 1
            wrong = problem(e, change)
            if wrong is not None:
                found.append(f"value {n}, {change.what} at {change.at}: {wrong}")
    if not tried:
        # (the id is in the test's name: one reason for all ids, one line in -rs)
        pytest.skip(f"no place for the change {family!r} in this id's values")
    assert not found, f"{len(found)} of {tried} changes:\n" + "\n".join(found[:20])
