"""The error tree.

Every failure of this library is a :class:`DataEncodingError` (a ``ValueError``):

* :class:`DefinitionError`: a combinator was used in a way that cannot work
  (raised when the encoding is built, never while encoding or decoding);
* :class:`EncodeError`: a Python value does not fit its encoding (``encode``,
  ``to_json``, ``length``);
* :class:`DecodeError`: bytes do not decode (``decode``, ``decode_prefix``);
* :class:`JsonError`: a JSON value does not fit its encoding (``from_json``).

Each error carries a stable ``code`` (a snake_case word that tests and callers
may match on, one of the closed set :data:`ErrorCode`), the absolute byte
``offset`` where a binary problem was found (``None`` for JSON and for
values, but for JSON text given as bytes that are not UTF-8), and the
``path`` of the field where it happened, as a tuple of object keys (``str``)
and list/tuple indexes (``int``).

Paths are assembled on the way out: the place that detects a problem raises
with an empty path, and every enclosing record, tuple or list adds its own
step (a key or an index) while the exception travels up; a union adds no
step, since its case does not show in the JSON. Success therefore pays
nothing for them, and failure a constant per step: the steps are collected
(innermost first) and the ``path`` tuple is built when it is read, so an
error thousands of levels deep costs time linear in its depth.

>>> err = DecodeError("unexpected_tag", "unexpected tag 7 for union process_state", offset=41)
>>> str(err.within("state"))
'unexpected tag 7 for union process_state at $.state (byte 41)'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, get_args

PathStep = str | int

ErrorCode = Literal[
    # a combinator that cannot be built (DefinitionError)
    "invalid_definition",  # the message says why and how to fix it
    "duplicate_definition",  # two different encodings under one def_ name (json_schema)
    # a binary input's frame
    "not_enough_data",  # the input ends inside a value
    "extra_bytes",  # bytes left after the value (decode reads the whole input)
    "invalid_offset",  # decode_prefix's offset is not in the input
    "invalid_size",  # a length header beyond its width's range (a Uint30 header >= 2^30)
    "size_limit_exceeded",  # a check_size limit, or a length beyond its bound
    "invalid_padding",  # padding bytes that are not zero
    "too_deep",  # nesting beyond depth.max_depth() (mu levels, json levels)
    # a value's form
    "wrong_type",  # a value or JSON of the wrong Python / JSON type
    "wrong_length",  # a fixed-length string, bytes, hash or list of another length
    "too_long",  # beyond a bounded string's maximum
    "list_too_long",  # a list beyond its max_length (the reference's List_too_long)
    "array_too_long",  # an array beyond its max_length (Array_too_long)
    "out_of_range",  # a number beyond its encoding's range
    "invalid_int",  # an integer encoding given what is not an int in range
    "invalid_float",  # a float encoding given what is not a float
    "invalid_bool",  # a bool byte other than 00 and ff
    "invalid_decimal",  # a JSON decimal string that is not one (int64, n, z)
    "negative_natural",  # a negative n
    "trailing_zero",  # a Zarith number with a useless last byte
    "negative_zero",  # -0 where only +0 is canonical (z, BSON floats)
    "invalid_hex",  # a JSON hex string that is not one
    "invalid_base58",  # a Base58Check text that is not one, or of another prefix
    "invalid_timestamp",  # an RFC 3339 text that is not one
    "invalid_json",  # JSON text that does not parse
    "not_json",  # a Python value with no JSON form (NaN, a non-str key...)
    "invalid_bson",  # a json value's BSON bytes that are not BSON
    "invalid_utf8",  # text that is not UTF-8 (or a lone surrogate); JSON text bytes
    # that are not strictly UTF-8 (a byte order mark, UTF-16 or UTF-32)
    "invalid_value",  # a value the struct layer refused for a reason no check names (a fallback)
    "not_canonical",  # bytes or JSON another form of which is the one written
    "ambiguous_json",  # a union value whose JSON an earlier case would read otherwise
    # records and unions
    "missing_field",  # a required field absent
    "unexpected_field",  # a member no field has
    "duplicate_field",  # a JSON object with one key twice
    "invalid_presence_flag",  # an optional field's presence byte other than 00 and ff
    "empty_optional",  # a present varopt whose value writes no bytes
    "unexpected_tag",  # a union tag no case has
    "no_case_matched",  # a value no union case takes
    "user_function",  # a conv function or match predicate that raised
    # schemas
    "not_in_dialect",  # a schema the legacy dialect cannot state
]
"""Every error ``code``: one closed set (a ``code`` outside it is a bug, which
``mypy`` finds at the library's raise sites and an assertion in the generated ones)."""

ERROR_CODES: frozenset[str] = frozenset(get_args(ErrorCode))


def format_path(path: Iterable[PathStep]) -> str:
    """Render a path as ``$.a[2].b`` (keys that are not identifiers are quoted)."""
    out = ["$"]
    for step in path:
        if isinstance(step, int):
            out.append(f"[{step}]")
        elif step.isidentifier():
            out.append(f".{step}")
        else:
            out.append(f"[{step!r}]")
    return "".join(out)


class DataEncodingError(ValueError):
    """Root of every error this library raises."""

    code: ErrorCode
    message: str
    offset: int | None
    #: the path's steps, innermost first: ``within`` appends
    _steps: list[PathStep]

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        offset: int | None = None,
        path: tuple[PathStep, ...] = (),
    ) -> None:
        assert code in ERROR_CODES, code  # the set is closed
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.offset = offset
        self.path = path

    @property
    def path(self) -> tuple[PathStep, ...]:
        """Where the problem is: object keys and list indexes, outermost first."""
        return tuple(reversed(self._steps))

    @path.setter
    def path(self, path: tuple[PathStep, ...]) -> None:
        self._steps = list(reversed(path))

    def within(self, *steps: PathStep) -> DataEncodingError:
        """Prepend path steps (the enclosing field or index; several,
        outermost first, for a part nested in a part); returns ``self``."""
        self._steps.extend(reversed(steps))
        return self

    def outermost(self, n: int) -> tuple[PathStep, ...]:
        """The first ``n`` steps of :attr:`path` (all, when it has fewer),
        without building the rest: what a union looks at, at each level the
        error travels through."""
        return tuple(self._steps[: -n - 1 : -1])

    def at(self, offset: int) -> DataEncodingError:
        """Set the byte offset unless a more precise one is already known."""
        if self.offset is None:
            self.offset = offset
        return self

    def shift(self, base: int) -> DataEncodingError:
        """Make an offset relative to ``base`` absolute (no offset counts as 0).

        Fixed-width leaves report offsets relative to their first byte, since
        they do not know where they are; their caller shifts them.
        """
        self.offset = base + (self.offset or 0)
        return self

    def recast(
        self, cls: type[EncodeError] | type[DecodeError] | type[JsonError]
    ) -> DataEncodingError:
        """This error as a ``cls`` (itself if it is one), with its code,
        message and location: a conversion function may fail with any of the
        library's errors (a JSON parser inside a binary decode), but each
        entry point raises its own class."""
        if isinstance(self, cls):
            return self
        return _rebuild(cls, self.code, self.message, self.offset, self.path)

    @property
    def where(self) -> str:
        """The location part of the message: `` at $.a (byte 4)``, or ``""``."""
        parts = []
        if self.path:
            parts.append(f" at {format_path(self.path)}")
        if self.offset is not None:
            parts.append(f" (byte {self.offset})")
        return "".join(parts)

    def __str__(self) -> str:
        return f"{self.message}{self.where}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(code={self.code!r}, message={self.message!r}, "
            f"offset={self.offset!r}, path={self.path!r})"
        )

    def __reduce__(self) -> tuple[object, ...]:
        return (_rebuild, (type(self), self.code, self.message, self.offset, self.path))


def _rebuild(
    cls: type[DataEncodingError],
    code: ErrorCode,
    message: str,
    offset: int | None,
    path: tuple[PathStep, ...],
) -> DataEncodingError:
    # not through ``cls(...)``: a subclass may take other arguments (DefinitionError)
    err = cls.__new__(cls)
    DataEncodingError.__init__(err, code, message, offset=offset, path=path)
    return err


class DefinitionError(DataEncodingError):
    """A combinator cannot be built this way; the message says how to fix it."""

    def __init__(self, message: str, code: ErrorCode = "invalid_definition") -> None:
        super().__init__(code, message)


class EncodeError(DataEncodingError):
    """A Python value does not fit its encoding."""


class DecodeError(DataEncodingError):
    """Bytes do not decode with this encoding."""


class JsonError(DataEncodingError):
    """A JSON value does not fit its encoding."""


def not_enough_data(pos: int, need: int, end: int, what: str = "") -> DecodeError:
    """``not_enough_data`` at ``pos``: ``need`` bytes wanted before ``end``."""
    have = max(end - pos, 0)
    noun = "byte" if need == 1 else "bytes"
    subject = f" for {what}" if what else ""
    return DecodeError(
        "not_enough_data",
        f"not enough data{subject}: need {need} {noun}, {have} left",
        offset=pos,
    )


def extra_bytes(pos: int, total: int) -> DecodeError:
    """``extra_bytes`` at ``pos``: a whole input's value ended before its ``total`` bytes."""
    return DecodeError(
        "extra_bytes", f"extra bytes: the value ends at byte {pos} of {total}", offset=pos
    )


def past_recursion_limit(
    cls: type[EncodeError] | type[DecodeError] | type[JsonError],
) -> EncodeError | DecodeError | JsonError:
    """The error of a value nested past Python's recursion limit (the entry
    points turn the ``RecursionError`` into it)."""
    return cls("too_deep", "the value is nested too deeply (Python's recursion limit)")


def index_of(seq: Sequence[object], item: object) -> int:
    """The index of ``item`` in ``seq`` by identity: the path step of a list
    element a writer refused (a writer's loop does not count: the first
    occurrence is the one that failed, since the same object fails the same
    way wherever it is)."""
    return next(i for i, x in enumerate(seq) if x is item)


def describe_value(value: object, limit: int = 60) -> str:
    """A short ``repr`` for messages, cut at ``limit`` characters.

    It never fails: an integer too long to show (Python refuses to print
    one of over ``sys.get_int_max_str_digits()`` digits, and printing is
    quadratic below that) is shown by its size, and a value whose ``repr``
    raises by its type.

    >>> describe_value(2**100_000)
    'an integer of 100001 bits'
    >>> describe_value("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."
    """
    if isinstance(value, int) and value.bit_length() > 4 * limit:
        return f"an integer of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a user's object: its repr is not ours to trust
        return f"a {type(value).__name__} (its repr fails)"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def missing_extra(exc: ModuleNotFoundError, package: str, needs: str, extra: str) -> ImportError:
    """What to raise for ``exc``, met importing what needs the optional
    ``package``: when it is that package that is missing, an error saying
    ``needs`` and how to install it (``pip install 'data-encoding[extra]'``);
    else ``exc`` itself (another module is missing: not ours to explain)."""
    if exc.name is None or exc.name.split(".")[0] != package:
        return exc
    return ModuleNotFoundError(
        f"{needs}, which is not installed: pip install 'data-encoding[{extra}]'", name=package
    )
