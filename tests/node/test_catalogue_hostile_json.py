"""Hostile JSON given to ``from_json`` of every catalogue id (issue 15).

For every registered encoding, over valid values its strategy draws
(:func:`hostile.values_of`: ten, less those too large to change everywhere
in time, :data:`hostile.CHANGED_POSITIONS`), the JSON ``j = e.to_json(v)``
is changed at one position at a time, at every position inside it (the
whole of ``j`` too), and the result given to ``e.from_json``. The changes, one family per test:

* ``wrong_type``: the thing there replaced by a JSON value of another type
  or shape (``null``, ``true``, ``0``, ``-1``, ``2**64``, ``1.5``, ``""``,
  ``"zz"``, ``"0x"``, an odd-length hex string, ``[]``, ``{}``, a nested
  array);
* ``non_finite``: ``NaN``, ``+inf`` or ``-inf`` (what ``json.loads`` makes of
  ``NaN`` and ``Infinity``), which no encoding may accept;
* ``huge_decimal``: a string of a million nines, which every number must
  refuse without converting it (where any string is taken, it is one); the
  test makes no assertion of time, but a reader that converted it would make
  it take seconds (each refusal takes milliseconds);
* ``base58``: a Base58Check hash, key hash, key or signature with one
  character changed, one character left out or a character added, the bytes
  of another kind (prefix) or another size under a valid checksum: always
  refused, but for the other kinds a value is read from too (a key hash of
  another curve, a contract id from an account's key hash or a ``KT1…``, a
  signature from any of its spellings: :data:`ALSO_READ`);
* ``rfc3339``: an RFC 3339 timestamp made invalid (a month 13, a February
  30, a leap second, no offset, a five-digit year...): always refused;
* ``subclass``: the thing there (a string, a number, an object, an array)
  given as an equal value of a subclass of its type, which ``json.loads``
  never makes: refused with ``wrong_type`` where a JSON type is checked, taken
  inside a ``json`` member, whose values are JSON;
* ``missing_key``, ``extra_key``, ``duplicate_key``: an object with one of
  its members left out, with one member more, or with a member twice (what
  :func:`data_encoding.jsonvalue.loads` makes of such JSON text: a
  :class:`~data_encoding.RepeatedMembers`). A record refuses a member given
  twice; where any JSON is taken (the ``json`` encoding), the object is kept
  whole, and the value read must print back as the changed JSON, member for
  member (a record that read it would print one member, not two).

What is proved: ``from_json`` either succeeds (the change happened to be
valid: an integer in range, a string where any is taken, an optional field
left out), and then the value it read encodes and its JSON, printed as text
and parsed again, reads back to it; or it raises
:class:`~data_encoding.JsonError`, never another exception, with no byte
``offset`` and with the ``path`` of the changed position or of one of its
ancestors (a union that cannot pick its case reports its own place), step
for step (an index is an ``int``, a key a ``str``); or, when the change put
a container there, of a position inside it (a ``missing_field`` of the
``{}`` put there). Where the error is placed at the change itself, its code
is the one the change calls for: ``invalid_base58`` for a hash,
``invalid_timestamp`` for a timestamp. A member left out is the change at
the member's own path (``missing_field`` is reported there, at the key), a
member added or doubled likewise (``unexpected_field``, ``duplicate_field``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from catalogue_ids import ENCODING_IDS
from data_encoding import DataEncodingError, Encoding, ErrorCode, JsonError
from data_encoding.jsonvalue import JsonValue, dumps, loads
from data_encoding.node.base58 import ALPHABET, check_encode
from data_encoding.node.hashes import (
    PREFIXES,
    Base58Hash,
    BlindedPublicKeyHash,
    BlockHash,
    ChainId,
    ContextHash,
    ContractHash,
    NonceHash,
    OperationHash,
    OperationListListHash,
    ProtocolHash,
    ScriptExprHash,
)
from data_encoding.node.keys import ADDRESS_FAMILIES, CURVES, Ed25519PublicKeyHash, PublicKeyHash
from data_encoding.node.protocols.contracts import ContractId
from data_encoding.node.signatures import (
    Ed25519Signature,
    P256Signature,
    PublicKey,
    Secp256k1Signature,
    Signature,
)
from hostile import Path, check_changes, placed, positions, replaced, same_path
from rich import as_subclass

WRONG_TYPES: tuple[JsonValue, ...] = (
    None,
    True,
    0,
    -1,
    2**64,
    1.5,
    "",
    "zz",
    "0x",
    "abc",  # odd-length hex
    [],
    {},
    [[0, [1]], []],
)
NON_FINITE: tuple[float, ...] = (math.nan, math.inf, -math.inf)
HUGE_DECIMAL = "9" * 10**6

EXTRA_KEY = "zz_extra"
EXTRA_MEMBERS: tuple[JsonValue, ...] = (None, 0, "x", {})
"""What the member added to an object holds."""

SIGNATURE_TYPES = (Signature, Ed25519Signature, Secp256k1Signature, P256Signature)
HASH_TYPES: tuple[type[Base58Hash], ...] = (
    BlockHash,
    OperationHash,
    OperationListListHash,
    ProtocolHash,
    ContextHash,
    ChainId,
    NonceHash,
    ScriptExprHash,
    ContractHash,
    BlindedPublicKeyHash,
    *SIGNATURE_TYPES,
)
KEY_PREFIXES = {curve: PREFIXES[f"{curve}_public_key"][0] for curve in CURVES}
ACCOUNT_PREFIXES = frozenset(p for table in ADDRESS_FAMILIES.values() for p in table.values())
KINDS = frozenset({*(t.prefix for t in HASH_TYPES), *ACCOUNT_PREFIXES, *KEY_PREFIXES.values()})
"""The prefix of every kind of text (each address family's its own)."""

ALSO_READ: dict[type[bytes], frozenset[bytes]] = {
    PublicKeyHash: ACCOUNT_PREFIXES,
    Ed25519PublicKeyHash: frozenset(table["ed25519"] for table in ADDRESS_FAMILIES.values()),
    ContractId: ACCOUNT_PREFIXES | {ContractHash.prefix},
    PublicKey: frozenset(KEY_PREFIXES.values()),
    Signature: frozenset(t.prefix for t in SIGNATURE_TYPES),
}
"""The kinds of texts a value of each type is read from (any curve, either
address family; a contract, an account's or a ``KT1…``; a signature, any
spelling): its bytes under another of these prefixes may be a valid text too."""

PRINTED_RFC3339 = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z")
"""What ``to_json`` prints for a timestamp (UTC, an optional fraction)."""

NOT_RFC3339 = (
    "2020-13-01T00:00:00Z",
    "2020-00-10T00:00:00Z",
    "2021-02-29T00:00:00Z",
    "2020-02-30T00:00:00Z",
    "2020-01-01T24:00:00Z",
    "2020-01-01T23:60:00Z",
    "2020-12-31T23:59:60Z",  # a leap second: the protocol has none
    "2020-01-01T00:00:00",  # no offset
    "2020-01-01T00:00:00+24:00",
    "2020-01-01T00:00:00.Z",
    "2020-01-01",
    "20-01-01T00:00:00Z",
    "10000-01-01T00:00:00Z",
    "2020-01-01T00:00:00Z ",
    " 2020-01-01T00:00:00Z",
    "2020-01-01_00:00:00Z",
    "\uff12020-01-01T00:00:00Z",  # a full-width digit
    "2020-01-01T00:00:00Z\n",
)


@dataclass(frozen=True)
class Change:
    """One hostile JSON document: ``json`` is a valid one changed at ``at``."""

    json: JsonValue
    at: Path
    #: what is now at ``at`` (``None`` when nothing is: a member left out)
    thing: JsonValue
    #: what was done (for failure messages)
    what: str
    #: the change can never be valid (a corrupted hash, NaN, a doubled key)
    must_fail: bool
    #: the codes an error placed at ``at`` itself may have (any, when empty)
    codes_at: frozenset[ErrorCode] = frozenset()
    #: when read, the value prints back as ``json`` exactly
    kept: bool = False

    def places(self, err: JsonError) -> bool:
        """Whether ``err`` is placed where this change may be blamed (:func:`hostile.placed`)."""
        return placed(err.path, err.code, self.at, self.thing)


def _short(x: object, limit: int = 70) -> str:
    text = repr(x) if not isinstance(x, str) or len(x) < 10**4 else f"<a string of {len(x)}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _substituted(j: JsonValue, things: tuple[JsonValue, ...], must_fail: bool) -> Iterator[Change]:
    for at, _ in positions(j):
        for thing in things:
            yield Change(replaced(j, at, thing), at, thing, _short(thing), must_fail)


def _wrong_type(j: JsonValue) -> Iterator[Change]:
    return _substituted(j, WRONG_TYPES, must_fail=False)


def _non_finite(j: JsonValue) -> Iterator[Change]:
    return _substituted(j, NON_FINITE, must_fail=True)


def _huge_decimal(j: JsonValue) -> Iterator[Change]:
    return _substituted(j, (HUGE_DECIMAL,), must_fail=False)


def _base58_kind(text: str) -> tuple[bytes, bytes] | None:
    """``(prefix, payload)`` of a hash, key hash, key or signature text."""
    for cls in HASH_TYPES:
        payload = cls._decode(text)
        if payload is not None:
            return cls.prefix, payload
    for read in (PublicKeyHash, PublicKey):
        try:
            value = read(text)
        except JsonError:
            continue
        if read is PublicKey:
            return KEY_PREFIXES[CURVES[value[0]]], bytes(value[1:])
        family = "tezos" if text.startswith("tz") else "dune"
        return ADDRESS_FAMILIES[family][CURVES[value[0]]], bytes(value[1:])
    return None


def _other_digit(c: str) -> str:
    return ALPHABET[(ALPHABET.index(c) + 1) % len(ALPHABET)]


def _corrupted(text: str, prefix: bytes, payload: bytes) -> Iterator[tuple[str, bytes | None]]:
    """Texts made of ``text``, each with the prefix it was given when it is
    ``payload`` under another kind's (``None`` for the others)."""
    for i in sorted({0, 1, 2, 3, len(text) // 2, len(text) - 1}):
        yield text[:i] + _other_digit(text[i]) + text[i + 1 :], None
    for spoiled in (
        text[:-1],
        text + "1",
        text + "z",
        "1" + text,
        text[:5] + "0" + text[6:],  # not a base58 digit
        text[:5] + "l" + text[6:],
        text + " ",
        text.lower(),
        check_encode(prefix + payload[:-1]),
        check_encode(prefix + payload + b"\0"),
        check_encode(prefix),
    ):
        yield spoiled, None
    for other in sorted(KINDS - {prefix}):
        yield check_encode(other + payload), other


def _base58(j: JsonValue, value: Any) -> Iterator[Change]:
    held = dict(positions(value))
    for at, thing in positions(j):
        if type(thing) is not str:
            continue
        kind = _base58_kind(thing)
        if kind is None:
            continue
        also = next((k for t, k in ALSO_READ.items() if isinstance(held.get(at), t)), frozenset())
        for text, other in _corrupted(thing, *kind):
            yield Change(
                replaced(j, at, text),
                at,
                text,
                repr(text),
                must_fail=other not in also,
                codes_at=frozenset({"invalid_base58"}),
            )


def _bad_timestamps(text: str) -> Iterator[str]:
    yield from NOT_RFC3339
    yield text[:-1]  # no Z
    yield text[:5] + "13" + text[7:]  # month 13
    yield text[:10] + "x" + text[11:]
    yield text + "x"
    yield text[:-1] + "+00:60"


def _rfc3339(j: JsonValue) -> Iterator[Change]:
    for at, thing in positions(j):
        if type(thing) is not str or PRINTED_RFC3339.fullmatch(thing) is None:
            continue
        for text in _bad_timestamps(thing):
            yield Change(
                replaced(j, at, text),
                at,
                text,
                repr(text),
                must_fail=True,
                codes_at=frozenset({"invalid_timestamp"}),
            )


def _subclass(j: JsonValue) -> Iterator[Change]:
    for at, thing in positions(j):
        retyped = as_subclass(thing)
        if retyped is None:
            continue
        yield Change(
            replaced(j, at, retyped),
            at,
            retyped,
            f"{type(retyped).__name__}({_short(thing)})",
            must_fail=False,
            codes_at=frozenset({"wrong_type"}),
        )


def _objects(j: JsonValue) -> Iterator[tuple[Path, dict[str, JsonValue]]]:
    for at, thing in positions(j):
        if type(thing) is dict:
            yield at, thing


def _missing_key(j: JsonValue) -> Iterator[Change]:
    for at, thing in _objects(j):
        for key in thing:
            smaller = {k: x for k, x in thing.items() if k != key}
            yield Change(
                replaced(j, at, smaller),
                (*at, key),
                None,
                f"no {key!r}",
                must_fail=False,
                codes_at=frozenset({"missing_field"}),
            )


def _extra_key(j: JsonValue) -> Iterator[Change]:
    for at, thing in _objects(j):
        for extra in EXTRA_MEMBERS:
            larger = {**thing, EXTRA_KEY: extra}
            yield Change(
                replaced(j, at, larger),
                (*at, EXTRA_KEY),
                extra,
                f"{EXTRA_KEY!r}: {extra!r} more",
                must_fail=False,
                codes_at=frozenset({"unexpected_field"}),
            )


def _duplicate_key(j: JsonValue) -> Iterator[Change]:
    for at, thing in _objects(j):
        for key, item in list(thing.items())[:3]:
            members = [f"{dumps(k)}: {dumps(x)}" for k, x in thing.items()]
            text = "{" + ", ".join([*members, f"{dumps(key)}: {dumps(item)}"]) + "}"
            doubled = loads(text)
            yield Change(
                replaced(j, at, doubled),
                (*at, key),
                None,
                f"{key!r} twice",
                must_fail=False,
                codes_at=frozenset({"duplicate_field"}),
                kept=True,
            )


Changes = Callable[[JsonValue, Any], Iterator[Change]]
"""The changes of a family, of a value's JSON (and of the value)."""


def _of_json(changes: Callable[[JsonValue], Iterator[Change]]) -> Changes:
    """A family whose changes depend on the JSON alone."""
    return lambda j, _value: changes(j)


CHANGES: dict[str, Changes] = {
    "wrong_type": _of_json(_wrong_type),
    "non_finite": _of_json(_non_finite),
    "huge_decimal": _of_json(_huge_decimal),
    "base58": _base58,
    "rfc3339": _of_json(_rfc3339),
    "subclass": _of_json(_subclass),
    "missing_key": _of_json(_missing_key),
    "extra_key": _of_json(_extra_key),
    "duplicate_key": _of_json(_duplicate_key),
}

# ------------------------------------------------------------ the check


def _said(err: DataEncodingError) -> tuple[Any, ...]:
    return (type(err).__name__, err.code, err.path, str(err))


def _outcome(action: Callable[[], bytes]) -> tuple[Any, ...]:
    try:
        return ("ok", action())
    except DataEncodingError as err:
        return _said(err)
    except Exception as exc:
        return ("raised", type(exc).__name__)


def problem(e: Encoding[Any], change: Change) -> str | None:
    """What is wrong with ``from_json`` of ``change.json``, or ``None``;
    ``encode_json`` must give what ``encode(from_json(...))`` gives (the
    document is read once by each)."""
    fused = _outcome(lambda: e.encode_json(change.json))
    try:
        result = e.from_json(change.json)
    except JsonError as err:
        if fused != _said(err):
            return f"encode_json gives {_short(fused)}, the composition {_short(_said(err))}"
        if err.offset is not None:
            return f"a JSON error with a byte offset: {err!r}"
        if not change.places(err):
            return f"an error outside the change's path: {err!r}"
        codes = change.codes_at
        if codes and same_path(err.path, change.at) and err.code not in codes:
            return f"an error at the change whose code is not {sorted(codes)}: {err!r}"
        return None
    except Exception as exc:  # the defect this test exists for
        return f"raised {type(exc).__name__}: {_short(str(exc), 200)}"
    composed = _outcome(lambda: e.encode(result))
    if fused != composed:
        return f"encode_json gives {_short(fused)}, the composition {_short(composed)}"
    if change.must_fail:
        return f"accepted, read as {_short(result, 200)}"
    if composed[0] != "ok":
        return f"read as {_short(result)}, which then fails to encode: {_short(composed, 200)}"
    try:
        json = e.to_json(result)
        again = e.from_json(loads(dumps(json)))
    except Exception as exc:
        return f"read as {_short(result)}, which then fails: {type(exc).__name__}: {exc}"
    if again != result:
        return f"read as {_short(result)}, whose JSON reads back as {_short(again)}"
    if change.kept and dumps(json) != dumps(change.json):
        return f"read as {_short(result)}, which prints as {_short(dumps(json), 200)}"
    return None


# ------------------------------------------------------------ the tests


@pytest.mark.parametrize("family", CHANGES)
@pytest.mark.parametrize("id", ENCODING_IDS)
def test_hostile_json_is_read_or_refused_at_its_place(id: str, family: str) -> None:
    check_changes(id, family, lambda e, value: CHANGES[family](e.to_json(value), value), problem)
