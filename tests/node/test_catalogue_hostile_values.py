"""Wrong Python values given to ``encode``, ``length`` and ``to_json`` of
every catalogue id (issue 15).

For every registered encoding, over valid values its strategy draws
(:func:`hostile.values_of`: ten, less those too large to change everywhere
in time, :data:`hostile.CHANGED_POSITIONS`), the value is changed at one
position at a time, at every position inside it (the whole value too;
dicts, lists and tuples are walked, anything else, a hash, a ``datetime``
or a schema dataclass, is one position), and the result given to the three
entry points that take values. The changes, one family per test:

* ``wrong_type``: the thing there replaced by ``None``, ``"x"``, ``b"x"``,
  ``1.5``, ``[]``, ``{}``, an ``object()``, an integer too long to print in
  decimal, ``-1`` or ``True``;
* ``missing_key``, ``extra_key``: a dict with one of its keys left out, or
  with one key more.

What is proved, for each changed value ``v``:

* each entry point returns its kind of result (``encode`` ``bytes``,
  ``length`` an ``int``) or raises :class:`~data_encoding.EncodeError`,
  never another exception, never a partial result;
* an error has no byte ``offset`` and the ``path`` of the change or of one
  of its ancestors (a union that cannot pick its case reports its own
  place), step for step (an index is an ``int``, a key a ``str``); or,
  when the change put a container there, of a position inside it (a
  ``missing_field`` of the ``{}`` put there); a key left out is the change
  at that key's path, a key added likewise, and an error placed there is
  ``missing_field``, ``unexpected_field``;
* ``encode`` and ``length`` agree: both succeed, ``length(v) ==
  len(encode(v))``, or both fail with the same code and path; ``to_json``
  too (the README's "the same bad value gets the same error"), except where
  one form has a limit the other has not (:data:`BINARY_ONLY`,
  :func:`json_only`: an integer Python cannot print has no JSON form, but
  ``n`` and ``z`` write it in binary), each form refusing by its own limit
  when both do (such an integer under a ``check_size``, as an operation's
  counter);
* a value that encodes round-trips: its bytes decode to a value whose bytes
  they are, and its JSON, when it has one, is JSON (its text reads back as
  it) and reads back to a value with those very bytes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from catalogue_ids import ENCODING_IDS
from data_encoding import DataEncodingError, EncodeError, Encoding, ErrorCode
from data_encoding.jsonvalue import dumps, has_decimal_form, loads
from hostile import Path, check_changes, placed, positions, replaced, same_path

WRONG_VALUES: tuple[Any, ...] = (
    None,
    "x",
    b"x",
    1.5,
    [],
    {},
    object(),
    1 << 20_000,  # 6021 digits: beyond sys.get_int_max_str_digits()
    -1,
    True,
)

EXTRA_KEY = "zz_extra"


@dataclass(frozen=True)
class Change:
    """One wrong value: ``value`` is a valid one changed at ``at``."""

    value: Any
    at: Path
    #: what is now at ``at`` (``None`` when nothing is: a key left out)
    thing: Any
    #: what was done (for failure messages)
    what: str
    #: the codes an error placed at ``at`` itself may have (any, when empty)
    codes_at: frozenset[ErrorCode] = frozenset()


BINARY_ONLY: frozenset[ErrorCode] = frozenset(
    {"list_too_long", "array_too_long", "size_limit_exceeded", "empty_optional"}
)
"""Codes of limits only the binary form has (README: ``max_length`` and
``check_size`` are binary limits; a ``varopt`` value that writes no bytes)."""

JSON_ONLY: frozenset[ErrorCode] = frozenset({"ambiguous_json", "not_json"})
"""Codes of what only the JSON form refuses (a union value whose JSON an
earlier case reads, a value with no JSON form)."""


def json_only(err: EncodeError, change: Change) -> bool:
    """Whether ``err`` of ``to_json`` refuses what only the JSON form cannot
    hold: a :data:`JSON_ONLY` code, or the integer put there when Python
    cannot print it in decimal (``out_of_range`` there: ``n`` and ``z``
    hold it in binary)."""
    if err.code in JSON_ONLY:
        return True
    thing = change.thing
    return (
        err.code == "out_of_range"
        and same_path(err.path, change.at)
        and isinstance(thing, int)
        and not has_decimal_form(thing)
    )


def _short(x: object, limit: int = 70) -> str:
    if isinstance(x, int) and x.bit_length() > 200:
        return f"<an int of {x.bit_length()} bits>"
    text = repr(x)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _wrong_type(v: Any) -> Iterator[Change]:
    for at, _ in positions(v):
        for thing in WRONG_VALUES:
            yield Change(replaced(v, at, thing), at, thing, _short(thing))


def _dicts(v: Any) -> Iterator[tuple[Path, dict[str, Any]]]:
    for at, thing in positions(v):
        if isinstance(thing, dict):
            yield at, thing


def _missing_key(v: Any) -> Iterator[Change]:
    for at, thing in _dicts(v):
        for key in thing:
            smaller = {k: x for k, x in thing.items() if k != key}
            yield Change(
                replaced(v, at, smaller),
                (*at, key),
                None,
                f"no {key!r}",
                frozenset({"missing_field"}),
            )


def _extra_key(v: Any) -> Iterator[Change]:
    for at, thing in _dicts(v):
        for extra in (None, 0):
            larger = {**thing, EXTRA_KEY: extra}
            yield Change(
                replaced(v, at, larger),
                (*at, EXTRA_KEY),
                extra,
                f"{EXTRA_KEY!r}: {extra!r} more",
                frozenset({"unexpected_field"}),
            )


CHANGES: dict[str, Callable[[Any], Iterator[Change]]] = {
    "wrong_type": _wrong_type,
    "missing_key": _missing_key,
    "extra_key": _extra_key,
}

# ------------------------------------------------------------ the check

Outcome = tuple[str, Any]
"""``("ok", result)`` or ``("error", EncodeError)``."""


class Unexpected(Exception):
    """An entry point raised what it must not (the message says what)."""


def _outcome(name: str, call: Callable[[], Any]) -> Outcome:
    try:
        return ("ok", call())
    except EncodeError as err:
        return ("error", err)
    except Exception as exc:  # the defect this test exists for
        raise Unexpected(f"{name} raised {type(exc).__name__}: {_short(str(exc), 200)}") from exc


def _same_error(a: DataEncodingError, b: DataEncodingError) -> bool:
    """The same code at the same path (the message may differ)."""
    return a.code == b.code and same_path(a.path, b.path)


def problem(e: Encoding[Any], change: Change) -> str | None:
    """What is wrong with ``encode``, ``length`` and ``to_json`` of
    ``change.value``, or ``None``."""
    v = change.value
    try:
        encoded = _outcome("encode", lambda: e.encode(v))
        length = _outcome("length", lambda: e.length(v))
        json = _outcome("to_json", lambda: e.to_json(v))
    except Unexpected as exc:
        return str(exc)
    for name, (kind, result) in (("encode", encoded), ("length", length), ("to_json", json)):
        if kind == "ok":
            continue
        if result.offset is not None:
            return f"{name}: an error with a byte offset: {result!r}"
        if not placed(result.path, result.code, change.at, change.thing):
            return f"{name}: an error outside the change's path: {result!r}"
        codes = change.codes_at
        if codes and same_path(result.path, change.at) and result.code not in codes:
            return f"{name}: an error at the change whose code is not {sorted(codes)}: {result!r}"
    if encoded[0] == "ok" and type(encoded[1]) is not bytes:
        return f"encode returned a {type(encoded[1]).__name__}"
    if length[0] == "ok" and type(length[1]) is not int:
        return f"length returned a {type(length[1]).__name__}"
    if encoded[0] != length[0]:
        return f"encode and length disagree: {encoded!r} / {length!r}"
    if encoded[0] == "error":
        if not _same_error(encoded[1], length[1]):
            return f"encode and length fail otherwise: {encoded[1]!r} / {length[1]!r}"
        if json[0] == "error":
            # each refusing what only its form cannot hold (an integer
            # beyond a check_size and too long to print) is two right answers
            each_its_own = encoded[1].code in BINARY_ONLY and json_only(json[1], change)
            if not _same_error(encoded[1], json[1]) and not each_its_own:
                return f"encode and to_json fail otherwise: {encoded[1]!r} / {json[1]!r}"
        elif encoded[1].code not in BINARY_ONLY:
            return f"encode fails ({encoded[1]!r}) where to_json gives {_short(json[1])}"
        return None
    raw: bytes = encoded[1]
    if length[1] != len(raw):
        return f"length {length[1]} of a value of {len(raw)} bytes"
    if json[0] == "error" and not json_only(json[1], change):
        return f"to_json fails ({json[1]!r}) where encode gives {raw.hex()[:60]}"
    try:
        if e.encode(e.decode(raw)) != raw:
            return f"{raw.hex()[:60]} decodes to a value written otherwise"
        if json[0] == "ok" and loads(dumps(json[1])) != json[1]:
            return f"to_json gave {_short(json[1])}, whose JSON text reads otherwise"
        if json[0] == "ok" and e.encode(e.from_json(json[1])) != raw:
            return f"its JSON {_short(json[1])} reads back as a value written otherwise"
    except Exception as exc:
        return f"encodes as {raw.hex()[:60]}, which then fails: {type(exc).__name__}: {exc}"
    return None


# ------------------------------------------------------------ the tests


@pytest.mark.parametrize("family", CHANGES)
@pytest.mark.parametrize("id", ENCODING_IDS)
def test_wrong_values_are_written_or_refused_at_their_place(id: str, family: str) -> None:
    check_changes(id, family, lambda e, value: CHANGES[family](value), problem)
