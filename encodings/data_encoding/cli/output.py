"""How results and errors are printed.

JSON goes to stdout indented when stdout is a terminal (for a person) and on
one line otherwise (for a pipe), ``--compact`` forcing one line; every
output ends with a newline. Errors go to stderr as ``error: <message>``.
"""

from __future__ import annotations

import sys

from ..errors import DataEncodingError, format_path
from ..jsonvalue import JsonValue, dumps


def json_text(value: JsonValue, compact: bool) -> str:
    """``value`` as JSON text: indented, unless ``compact`` or stdout is not a terminal."""
    indent = None if compact or not sys.stdout.isatty() else 2
    return dumps(value, indent=indent)


def print_json(value: JsonValue, compact: bool = False) -> None:
    print(json_text(value, compact))


def error_text(err: DataEncodingError) -> str:
    """An error as the command reports it: code, path and byte offset, then the message.

    >>> from data_encoding import DecodeError
    >>> error_text(DecodeError("not_enough_data", "not enough data", offset=5, path=("pid",)))
    'not_enough_data at $.pid (byte 5): not enough data'
    """
    byte = "" if err.offset is None else f" (byte {err.offset})"
    return f"{err.code} at {format_path(err.path)}{byte}: {err.message}"


def print_error(message: str) -> None:
    """``error: <message>`` on stderr."""
    print(f"error: {message}", file=sys.stderr)
