"""Where a command's input comes from, and how its bytes are read as text or hex.

An ``INPUT`` argument is the data itself, ``@path`` for a file's content,
or ``-`` (or no argument at all) for the standard input, as with ``curl``'s
``-d``. With ``--raw`` or ``--lines`` it is a file (``path`` or ``@path``)
or ``-``, never the data itself.

Every input is read as bytes, from every source and whatever the locale (an
argument as the bytes the shell passed: :func:`os.fsencode`), and this
module alone decides what they say: text is UTF-8, strictly, with no
byte-order mark. Input that is not such text is one error, ``invalid_utf8``
(bad data: exit status 1), wherever it comes from and in every mode, which
names the source (the argument, standard input, the file, the line) and the
first bad byte, and suggests ``--raw`` where the command could read the bytes
themselves.

Bytes given as text are hexadecimal: whitespace anywhere (a hex dump
wrapped over lines) and one leading ``0x`` are ignored. Hex is parsed on the
bytes, never widened to text: it takes the input, its digits and the bytes
they stand for (about twice the input at most), and the first bad character
is the one reported, with its byte position.
"""

from __future__ import annotations

import binascii
import codecs
import errno
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import DecodeError

RAW_HINT = "; for bytes, use --raw"
"""How a message about input that is not text ends, for a command that reads
bytes with ``--raw`` and was not given it."""

_SHOWN = 40
"""How many characters a message shows of a file's name too long to be one
(data given where a file is expected, such as hex with ``--raw``)."""

_WHITESPACE = b" \t\n\r\x0b\x0c"
_PREFIX = re.compile(rb"[ \t\n\r\x0b\x0c]*0[xX]")
_NOT_HEX = re.compile(rb"[^0-9a-fA-F \t\n\r\x0b\x0c]")


class UsageError(Exception):
    """The command line asks for something that cannot be done (exit status 2)."""


@dataclass(frozen=True)
class Input:
    """An input's bytes, and where they come from."""

    data: bytes
    #: the source as messages name it: ``the argument``, ``standard input``,
    #: ``'path'``, ``the line``
    where: str
    #: how a message about input that is not text ends (:data:`RAW_HINT` or nothing)
    hint: str = ""


def read_input(arg: str | None, hint: str = "") -> Input:
    """``INPUT``: the argument itself, a file (``@path``) or stdin (``-``, absent).

    ``hint`` ends a message about input that is not text, except for the
    argument, which ``--raw`` would take for a file's name."""
    if arg is None or arg == "-":
        return Input(_stdin().read(), "standard input", hint)
    if arg.startswith("@"):
        path = arg[1:]
        return Input(read_file(path), repr(path), hint)
    return Input(os.fsencode(arg), "the argument")


@contextmanager
def open_input(arg: str | None, option: str) -> Iterator[tuple[BinaryIO, int | None]]:
    """``INPUT`` as a binary stream, a file (``path``, ``@path``) or stdin
    (``-``, absent), with its size when it is a file; ``option`` (``--raw``,
    ``--lines``) is what makes ``INPUT`` a file, which a message names."""
    if arg is None or arg == "-":
        yield _stdin(), None
        return
    path = arg.removeprefix("@")
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below, after the with's body)
    except OSError as exc:
        if path != arg:
            raise _unreadable(path, exc) from None
        # a file's name, or the data itself given where a file is expected
        too_long = exc.errno == errno.ENAMETOOLONG
        shown = path[: _SHOWN - 3] + "..." if too_long and len(path) > _SHOWN else path
        raise _unreadable(
            shown, exc, f" (with {option}, INPUT is a file or -, not the data itself)"
        ) from None
    with stream:
        yield stream, os.fstat(stream.fileno()).st_size


def read_raw(arg: str | None) -> bytes:
    """``INPUT`` as bytes (``--raw``): a file (``path``, ``@path``) or stdin (``-``, absent)."""
    with open_input(arg, "--raw") as (stream, _):
        return stream.read()


def text_of_input(source: Input) -> str:
    """The text of ``source``: UTF-8, strictly, without a byte-order mark
    (else :class:`DecodeError` ``invalid_utf8``)."""
    data = source.data
    if data.startswith(codecs.BOM_UTF8):
        raise _byte_order_mark(source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(source, exc.start) from None


def hex_of(source: Input) -> bytes:
    """The bytes ``source``'s hex stands for (whitespace and one leading ``0x``
    ignored); :class:`DecodeError` at its first bad character otherwise:
    ``invalid_utf8`` where the text is not UTF-8, else ``invalid_hex``.

    >>> hex_of(Input(b" 0x00ff\\n1 2 ", "the argument"))
    b'\\x00\\xff\\x12'
    """
    data = source.data
    prefix = _PREFIX.match(data)
    digits = memoryview(data.translate(None, _WHITESPACE))[2 if prefix else 0 :]
    try:
        return binascii.unhexlify(digits)
    except binascii.Error:
        pass
    bad = _NOT_HEX.search(data, prefix.end() if prefix else 0)
    if bad is None:
        raise DecodeError(
            "invalid_hex", f"{source.where} has an odd number of hex digits ({len(digits)})"
        )
    at = bad.start()
    if at == 0 and data.startswith(codecs.BOM_UTF8):
        raise _byte_order_mark(source)
    try:  # the character there, if the bytes there are one (those before are ASCII)
        character, _ = codecs.utf_8_decode(data[at : at + 4], "strict", False)
    except UnicodeDecodeError:
        character = ""
    if not character:
        raise _not_utf8(source, at)
    raise DecodeError(
        "invalid_hex", f"{source.where} is not hexadecimal: {character[0]!r} at byte {at}"
    )


def _not_utf8(source: Input, at: int) -> DecodeError:
    return DecodeError(
        "invalid_utf8",
        f"{source.where} is not UTF-8 text: byte {at} is 0x{source.data[at]:02x}{source.hint}",
    )


def _byte_order_mark(source: Input) -> DecodeError:
    return DecodeError(
        "invalid_utf8", f"{source.where} starts with a byte-order mark (ef bb bf): remove it"
    )


def _stdin() -> BinaryIO:
    if sys.stdin is None:  # started with stdin closed
        raise UsageError("there is no standard input to read")
    return sys.stdin.buffer


def _unreadable(path: str, exc: OSError, why: str = "") -> UsageError:
    return UsageError(f"cannot read {path!r}: {exc.strerror or exc}{why}")


def read_file(path: str) -> bytes:
    """The bytes of the file at ``path`` (:class:`UsageError` when it cannot be read)."""
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise _unreadable(path, exc) from None
