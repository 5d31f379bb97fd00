"""Base58Check, the text form of hashes and keys in the node's JSON.

Base58 writes a big-endian number in the digits of :data:`ALPHABET` (no
``0``, ``O``, ``I``, ``l``), each leading zero byte as one ``1``.
Base58Check first appends the first four bytes of ``sha256(sha256(data))``.

Decoding is on the hot path of every JSON header a node sends, so it is
compiled per string length (see :func:`check_decoder`): the digits come out
of one ``bytes.translate``, and the number from a few whole-integer
operations (:func:`_number`), about a third of the cost of the usual
digit-by-digit loop. Encoding takes the digits two at a time.

>>> raw = bytes.fromhex("0134") + bytes(32)
>>> text = check_encode(raw)
>>> text
'BKiHLREqU3JkXfzEDYAkmmfX48gBDtYhMrpA98s7Aq4SzbUAB6M'
>>> check_decoder(len(text), len(raw) + 4, prefix=b"\x01\x34")(text) == bytes(32)
True
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import import_module
from typing import Any

__all__ = ["ALPHABET", "check_decoder", "check_encode", "checksum"]

ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _fast_sha256() -> Any:
    """CPython's own SHA-256 (``_sha256``; ``_sha2`` from 3.12) when present:
    on 34 bytes it costs half of OpenSSL's through :mod:`hashlib`, whose
    per-call setup dominates such short inputs."""
    for name in ("_sha2", "_sha256"):
        try:
            return import_module(name).sha256
        except (ImportError, AttributeError):
            pass
    return import_module("hashlib").sha256


sha256 = _fast_sha256()

_NOT_A_DIGIT = 0xFF
_DIGITS = bytes(ALPHABET.index(chr(c)) if chr(c) in ALPHABET else _NOT_A_DIGIT for c in range(256))
"""``bytes.translate`` table: an ASCII character to its digit, others to 0xFF."""

_PAIRS = [a + b for a in ALPHABET for b in ALPHABET]
"""The two-digit strings, by value (0 .. 58^2 - 1)."""


def checksum(data: bytes) -> bytes:
    """The four Base58Check check bytes of ``data``."""
    digest: bytes = sha256(sha256(data).digest()).digest()
    return digest[:4]


def check_encode(data: bytes) -> str:
    """``data`` and its checksum, in Base58."""
    raw = data + checksum(data)
    n = int.from_bytes(raw, "big")
    pairs = []
    while n:
        n, r = divmod(n, 3364)
        pairs.append(_PAIRS[r])
    digits = "".join(reversed(pairs)).lstrip("1")  # the top pair may start with a zero digit
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + digits


def _number(length: int) -> Callable[[bytes], int]:
    """A function of ``length`` digit values (one per byte) giving the number
    they write, by whole-integer lane arithmetic.

    The digits, left-padded with zeros to a power of two, are read as one
    big-endian integer: one digit per 8-bit lane. Each step joins
    neighbouring lanes in place, ``low + 58^k * high``, into lanes twice as
    wide; a lane never overflows, since 58^k < 2^(8k). After log2(width)
    steps (six for a hash) one lane is left: the number. Each step is five
    operations on the whole integer, done in C, where a digit-by-digit loop
    makes three Python operations per digit.
    """
    width = 1 << max(0, length - 1).bit_length()
    lines = ["def number(d):", "    x = int.from_bytes(PAD + d, 'big')"]
    namespace: dict[str, Any] = {"PAD": bytes(width - length)}
    lane, weight, step = 1, 58, 0
    while lane < width:
        lane_bits = 8 * lane
        group = b"\0" * lane + b"\xff" * lane  # the low half of each doubled lane
        namespace[f"M{step}"] = int.from_bytes(group * (width // (2 * lane)), "big")
        lines.append(f"    x = (x & M{step}) + {weight} * ((x >> {lane_bits}) & M{step})")
        lane, weight, step = 2 * lane, weight * weight, step + 1
    lines.append("    return x")
    exec("\n".join(lines), namespace)
    number: Callable[[bytes], int] = namespace["number"]
    return number


@cache
def check_decoder(length: int, size: int, prefix: bytes = b"") -> Callable[[str], bytes | None]:
    """A decoder of Base58Check texts of exactly ``length`` characters that
    write ``prefix``, a payload, and the checksum, ``size`` bytes in all: it
    returns the payload, or ``None`` when the text is not such a string
    (wrong length or type, a character outside the alphabet, another prefix
    or size, a leading ``1`` that is not a zero byte, a bad checksum). The
    spelling of a number in a given length is unique, so a text that decodes
    is the canonical one."""
    number = _number(length)
    shift = 8 * (size - len(prefix))
    expected = int.from_bytes(prefix, "big")
    skip = len(prefix)
    digits, not_a_digit = _DIGITS, _NOT_A_DIGIT

    def decode(text: str) -> bytes | None:
        if type(text) is not str or len(text) != length or not text.isascii():
            return None
        d = text.encode().translate(digits)
        if not_a_digit in d:
            return None
        n = number(d)
        if n >> shift != expected:  # the prefix, and no more than ``size`` bytes
            return None
        raw = n.to_bytes(size, "big")
        # each leading ``1`` is a zero byte, and each zero byte a ``1``
        if (text[0] == "1" or raw[0] == 0) and (
            length - len(text.lstrip("1")) != size - len(raw.lstrip(b"\0"))
        ):
            return None
        data = raw[:-4]
        if checksum(data) != raw[-4:]:
            return None
        return data[skip:]

    return decode
