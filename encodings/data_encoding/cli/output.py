"""How results, errors and exit statuses are reported.

Results go to stdout, and nothing else does: UTF-8 text whatever the locale
or ``PYTHONIOENCODING`` (:func:`use_utf8`), or the bytes themselves
(``--raw``). JSON is indented when stdout is a terminal (for a person) and on
one line otherwise (for a pipe), ``--compact`` forcing one line; every
output ends with a newline. Errors go to stderr as ``error: <message>``,
after the results before them.

A result that cannot be written (a full disk, a closed stdout) raises
:class:`OutputError` from the function that writes it, and ``main`` reports
it in one line with a status of its own, :data:`OUTPUT_FAILED`.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import TextIO

from ..errors import DataEncodingError, format_path
from ..jsonvalue import JsonValue, dumps
from .inputs import UsageError

OK = 0
"""The command did what it was asked."""
BAD_DATA = 1
"""The data was bad (a value that does not encode, bytes that do not decode,
input that is not text, a batch with a failed line), or nothing was found."""
BAD_USAGE = 2
"""The command line was (an unknown id, option or file; with ``--describe``,
what makes no codec: :mod:`~data_encoding.cli.answers`)."""
OUTPUT_FAILED = 3
"""The output could not be written."""
INTERRUPTED = 130
"""Stopped by Ctrl-C (128 + SIGINT, as shells report it)."""


class OutputError(Exception):
    """The output cannot be written (exit status :data:`OUTPUT_FAILED`); the message says why."""


def use_utf8() -> None:
    """Make stdout and stderr write UTF-8, whatever the locale or
    ``PYTHONIOENCODING`` chose; stdout strictly, so that text with no UTF-8
    form is an :class:`OutputError`, never mangled output."""
    for stream, errors in ((sys.stdout, "strict"), (sys.stderr, "backslashreplace")):
        if isinstance(stream, io.TextIOWrapper):  # not a StringIO of a caller's
            stream.reconfigure(encoding="utf-8", errors=errors)


def _guarded(write: Callable[[TextIO], object]) -> None:
    """``write(stdout)``, a failure to write made an :class:`OutputError` (a
    reader that went away stays a ``BrokenPipeError``: main ends quietly)."""
    out = sys.stdout
    if out is None:  # started with stdout closed
        raise OutputError("cannot write the output: stdout is closed")
    try:
        write(out)
    except BrokenPipeError:
        raise
    except (OSError, UnicodeEncodeError) as exc:
        if isinstance(exc, UnicodeEncodeError):
            why = f"the text has no UTF-8 form ({exc.reason})"
        else:
            why = exc.strerror or str(exc)
        raise OutputError(f"cannot write the output: {why}") from None


def write_text(text: str) -> None:
    """``text`` on stdout."""
    _guarded(lambda out: out.write(text))


def write_line(text: str) -> None:
    """``text`` and a line break on stdout."""
    write_text(text + "\n")


def write_bytes(data: bytes) -> None:
    """``data`` as they are on stdout (``--raw``), after what was written before."""

    def write(out: TextIO) -> None:
        out.flush()
        out.buffer.write(data)
        out.buffer.flush()

    _guarded(write)


def flush() -> None:
    """Write out what stdout still holds."""
    if sys.stdout is not None:
        _guarded(lambda out: out.flush())


def write_file(path: str, text: str) -> None:
    """``text`` as the content of the file at ``path``, in UTF-8:
    :class:`UsageError` when the file cannot be made, :class:`OutputError`
    when it cannot be written."""
    try:
        stream = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise UsageError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    try:
        with stream:
            stream.write(text)
    except OSError as exc:
        raise OutputError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def json_text(value: JsonValue, compact: bool) -> str:
    """``value`` as JSON text: indented, unless ``compact`` or stdout is not a terminal."""
    indent = None if compact or sys.stdout is None or not sys.stdout.isatty() else 2
    return dumps(value, indent=indent)


def print_json(value: JsonValue, compact: bool = False) -> None:
    write_line(json_text(value, compact))


def error_text(err: DataEncodingError) -> str:
    """An error as the command reports it: code, path and byte offset, then the message.

    >>> from data_encoding import DecodeError
    >>> error_text(DecodeError("not_enough_data", "not enough data", offset=5, path=("pid",)))
    'not_enough_data at $.pid (byte 5): not enough data'
    """
    byte = "" if err.offset is None else f" (byte {err.offset})"
    return f"{err.code} at {format_path(err.path)}{byte}: {err.message}"


def print_error(message: str) -> None:
    """``error: <message>`` on stderr, after what stdout holds: where the two
    meet (a terminal, ``2>&1``), results and errors read in the order they
    were made."""
    with suppress(OSError, ValueError):  # stdout's own failure: main's final flush reports it
        if sys.stdout is not None:
            sys.stdout.flush()
    print(f"error: {message}", file=sys.stderr)
