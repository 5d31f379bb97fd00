"""Values read with ``canonical=False``: the reference's reading, and the bytes it was read from.

Strict decoding refuses bytes that the library would not write (a boolean
byte ``01``, a presence byte ``01``, ``z``'s ``40``, non-zero padding, a
union case the writer would not choose...). The reference reads them, and
so does ``decode(data, canonical=False)``: where a part of the input is not
canonical, the value holds a :class:`NonCanonical` instead of that part's
plain value, with the value the reference reads there and the exact bytes
read. ``encode`` writes those bytes back (so bytes that decode leniently
encode to themselves), ``to_json`` prints the JSON of the reference's
value, and :func:`reference_value` gives the plain value, without markers.

A marker stands for the smallest part whose bytes hold the non-canonical
spot and whose value the library checks by its type before anything else
(a boolean, a ``z``, a padded or ``json`` value, a record, a tuple, a list,
a union told apart by a constant member, an option of those, a length
header's frame): a presence byte marks its record, a union case the union
(its tag with it), a frame's content the frame (its header with it).
Values never reach a ``conv``'s functions or a union's ``match``
predicates with a marker in them: a non-canonical spot below one is marked
at the nearest such part above it (or is the whole value), its value built
from the plain one (``passes/marking.py``).

>>> from data_encoding import obj, req, bool_, uint8
>>> e = obj(req("ok", bool_), req("n", uint8))
>>> value = e.decode(bytes.fromhex("0105"), canonical=False)
>>> value
{'ok': NonCanonical(True, b'\\x01'), 'n': 5}
>>> e.encode(value).hex(), e.to_json(value), reference_value(value)
('0105', {'ok': True, 'n': 5}, {'ok': True, 'n': 5})
"""

from __future__ import annotations

import threading
from typing import Any

__all__ = ["NonCanonical", "has_markers", "reference_value"]


class NonCanonical:
    """A part of a value read with ``canonical=False`` whose bytes are not
    the ones the library writes for it.

    ``value`` is what the reference reads there (it may hold markers of its
    own parts); ``raw`` the exact bytes read, which ``encode`` writes back.
    Two markers are equal when their values and bytes are. A marker is no
    value of any encoding's type: ``encode``, ``length`` and ``to_json``
    take it where a lenient reading puts it (see the module documentation).
    """

    __slots__ = ("_plain", "raw", "value")

    value: Any
    raw: bytes

    def __init__(self, value: Any, raw: bytes) -> None:
        self.value = value
        self.raw = raw
        #: the plain value, once computed (see :func:`reference_value`)
        self._plain: Any = _UNKNOWN

    def __eq__(self, other: object) -> bool:
        if type(other) is not NonCanonical:
            return NotImplemented
        return bool(self.raw == other.raw and self.value == other.value)

    __hash__ = None  # type: ignore[assignment]  # its value may be a dict

    def __repr__(self) -> str:
        return f"NonCanonical({self.value!r}, {self.raw!r})"


_UNKNOWN: Any = object()


def reference_value(value: Any) -> Any:
    """``value`` with every :class:`NonCanonical` in it replaced by its own
    value, recursively: the plain value the reference reads. Parts without
    markers are returned as they are (the same objects).

    >>> reference_value([NonCanonical(True, b"\\x01"), False])
    [True, False]
    """
    kind = type(value)
    if kind is NonCanonical:
        plain = value._plain
        if plain is _UNKNOWN:
            plain = value._plain = reference_value(value.value)
        return plain
    if kind is dict:
        changed = {k: reference_value(x) for k, x in value.items()}
        same = all(changed[k] is x for k, x in value.items())
        return value if same else changed
    if kind is list or kind is tuple:
        items = [reference_value(x) for x in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return items if kind is list else tuple(items)
    return value


def has_markers(value: Any) -> bool:
    """Whether ``value`` holds a :class:`NonCanonical` (in the dicts, lists
    and tuples a lenient reading builds). Any value may be asked (the codecs
    ask it of the values they refuse): the walk is iterative, and goes into
    each container once, so that a value nested deeper than Python's stack,
    or one that holds itself, gets an answer."""
    todo = [value]
    seen: set[int] = set()
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is NonCanonical:
            return True
        if (kind is dict or kind is list or kind is tuple) and id(item) not in seen:
            seen.add(id(item))
            todo.extend(item.values() if kind is dict else item)
    return False


# ------------------------------------------------------------ while reading


class _Counts(threading.local):
    def __init__(self) -> None:  # run in each thread, on its first use
        #: markers made, and markers made where they cannot stay (see
        #: :func:`unheld`) not yet taken by a part that holds them
        self.cell = [0, 0]


_counts = _Counts()


def counts() -> list[int]:
    """The current thread's counts of markers, ``[made, unheld]``: lenient
    readers compare them before and after reading a part to learn, in
    constant time, whether it made markers (a conv's functions must then be
    given the plain value) or left some to hold."""
    return _counts.cell


def marked(cell: list[int], value: Any, raw: bytes) -> NonCanonical:
    """A marker that stays where it is made (its part holds it), for the
    bytes ``raw`` of a part whose value is ``value`` (see :func:`_wider`)."""
    cell[0] += 1
    return _wider(value, raw)


def unheld(cell: list[int], value: Any, raw: bytes) -> NonCanonical:
    """A marker made where it cannot stay (a ``conv``'s value, a union that
    selects its case by predicate): the nearest part above that holds
    markers takes its place (:func:`held`), else it is the whole value."""
    cell[0] += 1
    cell[1] += 1
    return _wider(value, raw)


def held(cell: list[int], unheld_before: int, value: Any, raw: bytes) -> NonCanonical:
    """The marker of a part that holds the markers made below it (those
    left to hold since ``unheld_before``), for its bytes ``raw``."""
    cell[0] += 1
    cell[1] = unheld_before
    return _wider(value, raw)


def _wider(value: Any, raw: bytes) -> NonCanonical:
    """The marker of ``raw``, a part of value ``value``: when ``value`` is
    already the marker of a part inside it (its case, its frame's content),
    its value, for the wider bytes."""
    return NonCanonical(value.value if type(value) is NonCanonical else value, raw)


def unheld_byte(cell: list[int]) -> None:
    """A non-canonical byte that the part reading it does not mark itself
    (an optional field's presence byte): the part above that holds markers
    (its record) is marked instead."""
    cell[0] += 1
    cell[1] += 1


def unheld_value(cell: list[int], value: Any) -> Any:
    """The value of a part whose marker cannot stay (a spliced record's):
    its marker's value, the marker left for the part above to hold."""
    if type(value) is not NonCanonical:
        return value
    cell[1] += 1
    return value.value
