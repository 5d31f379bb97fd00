"""Timestamps as the node writes them: ``timestamp.protocol``, ``timestamp.system``
and ``timestamp.rfc``.

The value is an ``int``, seconds since 1970-01-01T00:00:00Z (the protocol's
second precision). Binary: a big-endian ``int64``. JSON, as the node of the
seed's era defines ``timestamp.protocol`` (a ``splitted`` of ``int64`` and a
union of two JSON-only cases):

* printed as an RFC 3339 string in UTC, ``"2020-09-13T12:26:40Z"``;
* read from an RFC 3339 string, or from an ``int64`` decimal string
  (``"1600000000"``).

Reading RFC 3339 accepts what the reference (OCaml's ``Ptime``) accepts:
``T``, ``t`` or a space between date and time, ``Z``/``z`` or a ``±hh:mm``
offset (``-00:00`` is UTC), and a fraction of a second, which is dropped
(the time is floored to the second). A four-digit year is required.
Stricter than the reference: a leap second (``:60``) is refused, since the
protocol's seconds have none.

One deliberate deviation: a value outside years 0000-9999 has no RFC 3339
form; the legacy library then fails to print it, while we print its
``int64`` string (as later node versions do), which reads back.

>>> protocol.to_json(1_600_000_000)
'2020-09-13T12:26:40Z'
>>> protocol.from_json("2020-09-13T14:26:40+02:00")
1600000000
>>> protocol.from_json("1600000000")
1600000000
>>> protocol.encode(1_600_000_000).hex()
'000000005f5e1000'

``timestamp.system`` is the node's own clock (a daemon's ``last_ping``), with
sub-second precision. Its value is an aware :class:`datetime.datetime`
(microseconds, years 0001-9999: Python's range, one year narrower than the
reference's, which also has year 0000). JSON: RFC 3339 in UTC, with the
fraction of a second when there is one (trailing zeros dropped); read from
RFC 3339 (any offset; fraction digits beyond the microsecond must be zeros,
since nothing could hold them) or an ``int64`` decimal string. Binary: the
second, floored, as a big-endian ``int64``, as the reference writes it: the
fraction does not cross the binary form.

>>> t = system.from_json("2020-04-20T18:20:00.25+02:00")
>>> t
datetime.datetime(2020, 4, 20, 16, 20, 0, 250000, tzinfo=datetime.timezone.utc)
>>> system.to_json(t)
'2020-04-20T16:20:00.25Z'
>>> system.decode(system.encode(t))
datetime.datetime(2020, 4, 20, 16, 20, tzinfo=datetime.timezone.utc)
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..errors import DecodeError, EncodeError, JsonError, describe_value
from ..jsonvalue import JsonValue
from ..tree.core import Encoding, publish
from ..tree.leaves import wrong_type, wrong_value_type
from ..tree.primitives import decimal_from_json, int64
from ..tree.strings import string
from ..tree.unions import Case, case, union
from ..tree.wrappers import DirectJson, conv, def_, splitted

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "MAX_RFC3339",
    "MIN_RFC3339",
    "parse_rfc3339",
    "print_rfc3339",
    "protocol",
    "rfc",
    "system",
]

_DAY = 86_400


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date (any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146_097 + day_of_era - 719_468


def _civil_from_days(days: int) -> tuple[int, int, int]:
    """The inverse of :func:`_days_from_civil`: ``(year, month, day)``."""
    days += 719_468
    era = days // 146_097
    day_of_era = days - era * 146_097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36_524 - day_of_era // 146_096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    return year_of_era + era * 400 + (month <= 2), month, day


MIN_RFC3339 = _days_from_civil(0, 1, 1) * _DAY
"""The first second with an RFC 3339 form: 0000-01-01T00:00:00Z."""
MAX_RFC3339 = _days_from_civil(10_000, 1, 1) * _DAY - 1
"""The last one: 9999-12-31T23:59:59Z."""

_MONTH_DAYS = (0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)


def _leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]+)?"
    r"(?:[Zz]|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))"  # fromisoformat takes +00:60
)


def parse_rfc3339(text: str) -> int | None:
    """The second (floored) an RFC 3339 date-time names, or ``None`` when
    ``text`` is not one (see the module's notes).

    The common forms go through :meth:`datetime.datetime.fromisoformat` (C)
    once the text has RFC 3339's shape; what it refuses (year 0000,
    lower-case ``t``/``z``, more than six fraction digits, and the invalid
    dates and times) is read field by field by :func:`parse_rfc3339_fields`.
    A test checks that the two agree.
    """
    if _RFC3339.fullmatch(text) is None:
        return None
    try:
        return (_fromisoformat(text) - _EPOCH) // _SECOND
    except ValueError:
        return parse_rfc3339_fields(text)


def parse_rfc3339_fields(text: str) -> int | None:
    """:func:`parse_rfc3339`, reading and checking each field itself."""
    match = _RFC3339.fullmatch(text)
    if match is None:
        return None
    year, month, day, hour, minute, second, sign, off_h, off_m = match.groups()
    y, mo, d = int(year), int(month), int(day)
    if not 1 <= mo <= 12 or not 1 <= d <= _MONTH_DAYS[mo] + (mo == 2 and _leap(y)):
        return None
    h, mi, s = int(hour), int(minute), int(second)
    if h > 23 or mi > 59 or s > 59:
        return None
    t = _days_from_civil(y, mo, d) * _DAY + h * 3600 + mi * 60 + s
    if sign is None:
        return t
    offset = int(off_h) * 3600 + int(off_m) * 60
    return t - offset if sign == "+" else t + offset


_fromisoformat = datetime.fromisoformat
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SECOND = timedelta(seconds=1)


def print_rfc3339(t: int) -> str:
    """The RFC 3339 form of second ``t`` in UTC; ``t`` must be within
    :data:`MIN_RFC3339` .. :data:`MAX_RFC3339`."""
    days, seconds = divmod(t, _DAY)
    year, month, day = _civil_from_days(days)
    hour, seconds = divmod(seconds, 3600)
    minute, second = divmod(seconds, 60)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def _seconds(low: int, high: int) -> SearchStrategy[int]:
    from hypothesis import strategies as st

    return st.integers(low, high)


def _has_rfc3339(value: Any) -> bool:
    return type(value) is int and MIN_RFC3339 <= value <= MAX_RFC3339


def _rfc_of_seconds(value: Any) -> str:
    if type(value) is not int:
        raise wrong_value_type("an int", value)
    if not MIN_RFC3339 <= value <= MAX_RFC3339:
        raise EncodeError(
            "out_of_range", f"{describe_value(value)} is outside years 0000-9999: no RFC 3339 form"
        )
    return print_rfc3339(value)


def _seconds_of_rfc(text: Any) -> int:
    if type(text) is not str:
        raise wrong_type("an RFC 3339 date-time", text)
    t = parse_rfc3339(text)
    if t is None:
        raise JsonError("invalid_timestamp", f"{text[:40]!r} is not an RFC 3339 date-time")
    return t


def _seconds_of_rfc_bytes(text: Any) -> int:
    """:func:`_seconds_of_rfc`, of the one spelling ``encode`` writes: bytes
    name one value (JSON reads every spelling of a moment, as the reference
    does, and prints one)."""
    t = _seconds_of_rfc(text)
    written = print_rfc3339(t)
    if text != written:
        raise DecodeError("not_canonical", f"{text[:40]!r} is written {written!r} in bytes")
    return t


rfc: Encoding[int] = def_(
    "timestamp.rfc",
    splitted(
        json=conv(_rfc_of_seconds, _seconds_of_rfc, string),
        binary=conv(_rfc_of_seconds, _seconds_of_rfc_bytes, string),
        values=lambda: _seconds(MIN_RFC3339, MAX_RFC3339),
    ),
    title="RFC 3339 formatted timestamp",
    description="A date in RFC 3339 notation.",
)
"""An RFC 3339 string: as JSON, any spelling; as bytes (``string``'s), the one
printed."""


def _to_json(value: Any) -> JsonValue:
    if type(value) is int and MIN_RFC3339 <= value <= MAX_RFC3339:
        return print_rfc3339(value)
    # the binary side's checks and errors: one bad value, one error (its
    # converter's, not ``int64.to_json``, which would print a lenient
    # reading's marker as its value: this function must refuse one)
    return int64._to_json(value)


def _from_json(json: JsonValue) -> int:
    if type(json) is not str:
        raise wrong_type("an RFC 3339 date-time or an int64 decimal string", json)
    t = parse_rfc3339(json)
    return _seconds_of_int64(json) if t is None else t


def _seconds_of_int64(json: str) -> int:
    """The seconds of a text that is not RFC 3339: an ``int64`` decimal string."""
    try:
        seconds: int = int64_from_json(json)
    except JsonError:
        raise JsonError(
            "invalid_timestamp", f"{json[:40]!r} is neither an RFC 3339 date-time nor an int64"
        ) from None
    return seconds


int64_from_json = decimal_from_json(int64.lo, int64.hi, int64.kind)


protocol: Encoding[int] = def_(
    "timestamp.protocol",
    DirectJson(
        json=union(
            [
                # (Case: the library's own predicate is not guarded)
                Case(None, "RFC encoding", rfc, match=_has_rfc3339),
                case(None, "Second since epoch", int64),
            ]
        ),
        binary=int64,
        to_json=_to_json,
        from_json=_from_json,
    ),
    description="A timestamp as seen by the protocol: second-level precision, epoch based.",
)
"""``timestamp.protocol``: seconds since the epoch (see the module's notes)."""


# ------------------------------------------------------------------ system

_FRACTION = re.compile(r":[0-9]{2}\.([0-9]+)")  # the seconds' fraction (the date has no ':')
_MICROSECOND = timedelta(microseconds=1)


def _datetime_of_seconds(seconds: int, microseconds: int = 0) -> datetime:
    """``OverflowError`` outside years 0001-9999."""
    return _EPOCH + timedelta(seconds=seconds, microseconds=microseconds)


def _system_microseconds(value: Any) -> int:
    if type(value) is not datetime or value.tzinfo is None:
        raise wrong_value_type("an aware datetime.datetime", value)
    return (value - _EPOCH) // _MICROSECOND


def _system_seconds(value: Any) -> int:
    return _system_microseconds(value) // 1_000_000


def _system_of_seconds(seconds: int) -> datetime:
    try:
        return _datetime_of_seconds(seconds)
    except OverflowError:
        raise DecodeError(
            "out_of_range", f"second {seconds} is outside years 0001-9999 (a system time)"
        ) from None


def _whole_seconds() -> SearchStrategy[datetime]:
    """System times the binary form holds (whole seconds)."""
    from hypothesis import strategies as st

    return st.datetimes(timezones=st.just(UTC)).map(lambda t: t.replace(microsecond=0))


def _system_to_json(value: Any) -> str:
    seconds, microseconds = divmod(_system_microseconds(value), 1_000_000)
    text = print_rfc3339(seconds)
    if microseconds:
        text = f"{text[:-1]}.{microseconds:06d}".rstrip("0") + "Z"
    return text


def _system_from_json(json: object) -> datetime:
    if type(json) is not str:
        raise wrong_type("an RFC 3339 date-time or an int64 decimal string", json)
    seconds = parse_rfc3339(json)
    microseconds = 0
    if seconds is None:
        seconds = _seconds_of_int64(json)
    else:
        fraction = _FRACTION.search(json)
        if fraction is not None:
            digits = fraction.group(1)
            if digits[6:].strip("0"):
                raise JsonError(
                    "invalid_timestamp",
                    f"{json[:40]!r} is more precise than a microsecond (a system time)",
                )
            microseconds = int(digits[:6].ljust(6, "0"))
    try:
        return _datetime_of_seconds(seconds, microseconds)
    except OverflowError:
        raise JsonError(
            "out_of_range", f"{json[:40]!r} is outside years 0001-9999 (a system time)"
        ) from None


def _system() -> Encoding[datetime]:
    seconds = conv(_system_seconds, _system_of_seconds, int64, values=_whole_seconds)
    return def_(
        "timestamp.system",
        DirectJson(
            json=union(
                [
                    case(None, "RFC encoding", conv(_system_to_json, _system_from_json, string)),
                    case(None, "Second since epoch", seconds),
                ]
            ),
            binary=seconds,
            to_json=_system_to_json,
            from_json=_system_from_json,
        ),
        description="A timestamp as seen by the underlying, local computer: "
        "subsecond-level precision, epoch based.",
    )


system: Encoding[datetime] = _system()
"""``timestamp.system``: an aware ``datetime`` (see the module's notes)."""


publish(__name__, globals())  # the encodings above pickle by reference
