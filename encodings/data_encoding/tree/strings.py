"""Strings and byte strings.

===================================  ===============================  ==========================
combinator                           binary                           JSON
===================================  ===============================  ==========================
``string`` / ``bytes_``              uint30 byte count, then bytes    see below
``fixed.string(n)`` / ``bytes_(n)``  exactly ``n`` bytes              see below, ``n`` bytes
``variable.string`` / ``bytes_``     the rest of the frame            see below
``bounded.string(n)`` / ``bytes_``   1/2/4-byte count, ``<= n`` bytes  plain string / hex
===================================  ===============================  ==========================

Values: a ``string`` is a ``str`` when its bytes are valid UTF-8 and ``bytes``
otherwise (both are accepted when encoding); its JSON form is the string, or
``{"invalid_utf8_string": [byte, ...]}`` for bytes that are not UTF-8. A
``bytes_`` value is ``bytes``; its JSON form is lowercase hex (strictly:
upper-case hex is refused, so each value has one spelling).

>>> string.encode("hi").hex()
'000000026869'
>>> string.to_json(b"\\xff\\x00")
{'invalid_utf8_string': [255, 0]}
>>> bytes_.from_json("00ff")
b'\\x00\\xff'
"""

from __future__ import annotations

from typing import Any

from ..errors import DefinitionError, EncodeError, JsonError
from ..jsonvalue import JsonValue
from .core import Atom, Encoding, expect, publish
from .framing import HEADERS, CheckSize, DynamicSize, header_for
from .leaves import AtomEncoding, wrong_type, wrong_value_type
from .size import VARIABLE
from .wrappers import Wrapper


def text_of(raw: bytes) -> str | bytes:
    """The ``str`` when ``raw`` is UTF-8, else ``raw`` itself."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def bytes_of_text(value: Any) -> bytes:
    """The UTF-8 bytes of a string value (``str`` or ``bytes``)."""
    if type(value) is str:
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError:
            raise EncodeError(
                "invalid_utf8", "the string has no UTF-8 form (a lone surrogate)"
            ) from None
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    raise wrong_value_type("a str or bytes", value)


def bytes_of_bytes(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    raise wrong_value_type("bytes", value)


def hex_from_json(json: JsonValue) -> bytes:
    if type(json) is not str:
        raise wrong_type("a hex string", json)
    # ``fromhex`` also takes spaces and capitals: the one canonical spelling
    # is the one ``hex`` gives back
    try:
        raw = bytes.fromhex(json)
    except ValueError:
        raw = None
    if raw is None or raw.hex() != json:
        raise JsonError(
            "invalid_hex",
            f"{json[:40]!r} is not lowercase hex with an even number of digits",
        )
    return raw


def unistring_to_json(raw: bytes) -> JsonValue:
    text = text_of(raw)
    if type(text) is str:
        return text
    return {"invalid_utf8_string": list(raw)}


def utf8_of_json(json: str) -> bytes:
    """The UTF-8 bytes of a JSON string (``json.loads`` lets lone surrogates through)."""
    try:
        return json.encode("utf-8")
    except UnicodeEncodeError:
        raise JsonError("invalid_utf8", "the string has no UTF-8 form (a lone surrogate)") from None


def unistring_from_json(json: JsonValue) -> str | bytes:
    if type(json) is str:
        utf8_of_json(json)
        return json
    if type(json) is dict:
        items = json.get("invalid_utf8_string")
        if (
            len(json) == 1
            and type(items) is list
            and all(type(b) is int and 0 <= b <= 255 for b in items)
        ):
            value = text_of(bytes(items))  # type: ignore[arg-type]
            if type(value) is str:  # its one JSON spelling is the string
                raise JsonError(
                    "not_canonical",
                    '{"invalid_utf8_string": [...]} holds valid UTF-8: write it as a JSON string',
                )
            return value
    raise wrong_type('a string or {"invalid_utf8_string": [bytes]}', json)


class RawBytes(Encoding[Any]):
    """Header-less bytes: ``Fixed(n)`` when ``length`` is given, else ``VARIABLE``.

    ``text`` selects the string value model (``str``/``bytes``, unistring JSON)
    over the bytes one (``bytes``, hex JSON); ``plain_json_limit`` gives the
    JSON form of bounded strings: a plain string or hex of at most that many
    bytes, without the ``invalid_utf8_string`` form.
    """

    def __init__(
        self, text: bool, length: int | None = None, plain_json_limit: int | None = None
    ) -> None:
        self.text = text
        self.exact_length = length
        self.plain_json_limit = plain_json_limit
        self.size = VARIABLE
        self.to_bytes = bytes_of_text if text else bytes_of_bytes

    def _rebuild(self) -> tuple[Any, ...]:
        return (RawBytes, (self.text, self.exact_length, self.plain_json_limit))


def wrong_length(cls: type[EncodeError] | type[JsonError], expected: int, found: int) -> Any:
    return cls("wrong_length", f"expected exactly {expected} bytes, got {found}")


class FixedBytes(Wrapper[Any], AtomEncoding[Any]):
    """Exactly ``n`` bytes: an atom (``struct`` code ``"{n}s"``) with length checks;
    its JSON form is that of the header-less bytes it wraps."""

    def __init__(self, text: bool, length: int) -> None:
        name = "fixed.string" if text else "fixed.bytes_"
        expect(length, int, name, "the length is an int")
        if length <= 0:
            raise DefinitionError(f"{name}({length}): the length must be positive")
        self.inner = RawBytes(text, length)
        to_bytes = self.inner.to_bytes

        def check(value: Any) -> None:
            raw = to_bytes(value)
            if len(raw) != length:
                raise wrong_length(EncodeError, length, len(raw))

        def pack(value: Any) -> bytes:
            raw = to_bytes(value)
            if len(raw) != length:  # struct would pad or cut silently
                raise wrong_length(EncodeError, length, len(raw))
            return raw

        AtomEncoding.__init__(
            self,
            Atom(
                f"{length}s",
                length,
                check,
                pack,
                text_of if text else None,
                None if text else lambda x, _: f"type({x}) is bytes and len({x}) == {length}",
            ),
            f"{name}({length})",
        )

    def _rebuild(self) -> tuple[Any, ...]:
        raw: RawBytes = self.inner  # type: ignore[assignment]
        return (type(self), (raw.text, raw.exact_length))


class Bounded(CheckSize[Any]):
    """``bounded.string(n)`` / ``bounded.bytes_(n)``: at most ``n`` bytes.

    Built as the legacy library did: ``check_size(n + header, dynamic_size(
    variable, kind=<narrowest header>))``; its JSON form is a plain string (or
    hex) of at most ``n`` bytes.
    """

    def __init__(self, text: bool, limit: int) -> None:
        expect(limit, int, "bounded.string" if text else "bounded.bytes_", "the bound is an int")
        kind = "string" if text else "bytes_"
        if not 0 < limit <= 2**30 - 1:
            raise DefinitionError(f"bounded.{kind}({limit}): the bound must be in 1 .. 2^30-1")
        self.header = header_for(limit)
        self.max_length = limit
        self.body = RawBytes(text, plain_json_limit=limit)
        super().__init__(limit + HEADERS[self.header][1], DynamicSize(self.body, self.header))

    def _rebuild(self) -> tuple[Any, ...]:
        return (Bounded, (self.body.text, self.max_length))


string: DynamicSize[str | bytes] = DynamicSize(RawBytes(text=True))
"""A string with a 4-byte length header; value ``str`` (``bytes`` if not UTF-8)."""

bytes_: DynamicSize[bytes] = DynamicSize(RawBytes(text=False))
"""Bytes with a 4-byte length header; value ``bytes``, JSON lowercase hex."""

variable_string: RawBytes = RawBytes(text=True)
variable_bytes: RawBytes = RawBytes(text=False)


publish(__name__, globals())  # the encodings above pickle by reference
