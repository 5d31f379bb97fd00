"""Where a command's input comes from, and how its text is read.

An ``INPUT`` argument is the data itself, ``@path`` for a file's content,
or ``-`` (or no argument at all) for the standard input, as with ``curl``'s
``-d``. Bytes given as text are hexadecimal: whitespace anywhere (a hex
dump wrapped over lines) and one leading ``0x`` are ignored.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from ..errors import DecodeError

_SPACE = re.compile(r"\s+")


class UsageError(Exception):
    """The command line asks for something that cannot be done (exit status 2)."""


def _unreadable(path: str, exc: OSError) -> UsageError:
    return UsageError(f"cannot read {path!r}: {exc.strerror or exc}")


def read_file(path: str) -> bytes:
    """The bytes of the file at ``path`` (:class:`UsageError` when it cannot be read)."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc) from None


def read_text(arg: str | None) -> str:
    """``INPUT`` as text: the argument itself, a file's (``@path``) or stdin's (``-``, absent)."""
    if arg is None or arg == "-":
        return sys.stdin.read()
    if arg.startswith("@"):
        return _utf8(read_file(arg[1:]), arg[1:])
    return arg


@contextmanager
def open_input(arg: str | None) -> Iterator[tuple[BinaryIO, int | None]]:
    """``INPUT`` as a binary stream, a file (``path``, ``@path``) or stdin
    (``-``, absent), with its size when it is a file."""
    if arg is None or arg == "-":
        yield sys.stdin.buffer, None
        return
    path = arg.removeprefix("@")
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below, after the with's body)
    except OSError as exc:
        raise _unreadable(path, exc) from None
    with stream:
        yield stream, os.fstat(stream.fileno()).st_size


def read_raw(arg: str | None) -> bytes:
    """``INPUT`` as bytes (``--raw``): a file (``path``, ``@path``) or stdin (``-``, absent)."""
    with open_input(arg) as (stream, _):
        return stream.read()


def _utf8(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path!r} is not UTF-8 text (byte {exc.start}); use --raw?") from None


def parse_hex(text: str) -> bytes:
    """The bytes a hex text stands for (whitespace and a ``0x`` prefix allowed);
    :class:`DecodeError` (``invalid_hex``) naming the first bad character otherwise.

    >>> parse_hex(" 0x00ff\\n12 ")
    b'\\x00\\xff\\x12'
    """
    try:
        return bytes.fromhex(text)  # the common case: no 0x, no space inside a byte
    except ValueError:
        pass
    digits = _SPACE.sub("", text)
    if digits[:2] in ("0x", "0X"):
        digits = digits[2:]
    try:
        return bytes.fromhex(digits)
    except ValueError:
        pass
    bad = next((i for i, c in enumerate(digits) if c not in "0123456789abcdefABCDEF"), None)
    if bad is not None:
        raise DecodeError(
            "invalid_hex", f"not hexadecimal: {digits[bad]!r} at hex digit {bad + 1}"
        ) from None
    raise DecodeError(
        "invalid_hex", f"not hexadecimal: an odd number of hex digits ({len(digits)})"
    ) from None
