"""The libFuzzer target of the lenient reader (``decode(data, canonical=False)``), one id.

Usage, as ``fuzz/target.py``'s (``fuzz/run.py --lenient`` runs it)::

    FUZZ_ID=proto.psdelph1.script.expr python fuzz/lenient_target.py [libFuzzer flags] [inputs]

The property, on every input ``data`` (``check``), between the strict
reader (``decode(data)``) and the lenient one (``decode(data,
canonical=False)``, whose reader ``e._decode_lenient`` is called on
canonical input too: ``decode`` does not reach it there):

* the lenient reader raises nothing but a ``DecodeError``, and refuses
  exactly what the strict reader refuses for another reason than
  strictness: the same error (type, code, offset, path, message);
* what it reads, ``v``, is written back as ``data``: ``encode(v) == data``,
  ``length(v) == len(data)`` (the reference's round trip);
* the strict reader reads the same value (same types, same order:
  ``same``), and ``v`` then holds no ``NonCanonical``; or it refuses
  ``data`` with one of the codes of the Strictness table's binary rows
  (:data:`STRICT_ONLY`), and ``v`` holds a marker;
* ``v``'s JSON is that of the reference's value (``reference_value(v)``),
  the same JSON or the same error, and ``decode_json(data,
  canonical=False)`` gives it too;
* the reference's value is a value of the encoding: written, its bytes read
  back strictly as it; or, where it holds what bytes hold and JSON cannot
  (a BSON NaN, text that is not UTF-8), ``encode`` refuses it with
  ``to_json``'s code.

Any other exception, and the ``AssertionError`` of a broken property,
leaves the target: libFuzzer saves the input and stops.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # fuzz.target, run as a script

from fuzz.target import main, said, shown, written_otherwise

if TYPE_CHECKING:
    from data_encoding import Encoding
    from data_encoding.errors import ErrorCode
    from data_encoding.jsonvalue import JsonValue

STRICT_ONLY: frozenset[ErrorCode] = frozenset(
    {
        "invalid_bool",
        "invalid_presence_flag",
        "negative_zero",
        "invalid_padding",
        "invalid_size",
        "invalid_bson",
        "not_canonical",
    }
)
"""The codes with which strict decoding refuses bytes the reference reads:
the binary rows of the README's "Strictness" table (a boolean or presence
byte but ``00``/``ff``; ``z``'s ``40`` and BSON's ``-0.0``; non-zero
padding; a Uint30 header from 2^30; BSON NaN, infinities and text that is
not UTF-8; a union case the writer would not choose, a Micheline primitive
in the generic form, a transaction's default parameters). The strict mode
adds these errors, and no other, to the reference's."""


def _json_of(action: Callable[[], JsonValue]) -> tuple[Any, ...]:
    """The JSON text ``action()`` gives (``("ok", text)``), or the library error it raises."""
    from data_encoding import DataEncodingError
    from data_encoding.jsonvalue import dumps

    try:
        return ("ok", dumps(action()))
    except DataEncodingError as err:
        return said(err)


def same(a: Any, b: Any) -> bool:
    """``a`` and ``b`` are one value: of the same types throughout, equal, in
    the same order. A NaN is itself and ``-0.0`` no ``0.0``, a schema's
    dataclass holding one too (compared by ``repr``); integers by value (one
    past Python's printing limit has no ``repr``)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if type(a) is list or type(a) is tuple:
        return len(a) == len(b) and all(map(same, a, b))
    if type(a) is int:
        return bool(a == b)
    return repr(a) == repr(b)


def broken(e: Encoding[Any], data: bytes, value: Any, strict: Any) -> str | None:
    """What is wrong with ``value``, which the lenient reader read from
    ``data`` (``None``: nothing); ``strict`` is the strict reader's value,
    or the ``DecodeError`` it raised."""
    from data_encoding import DecodeError, EncodeError, reference_value
    from data_encoding.errors import describe_value
    from data_encoding.noncanonical import has_markers

    wrong = written_otherwise(e, data, value)
    if wrong is not None:
        return wrong
    if not isinstance(strict, DecodeError):
        if not same(strict, value):
            return f"the strict reader reads {describe_value(strict)}"
    elif strict.code not in STRICT_ONLY:
        return f"the strict reader refuses it with {strict.code}: {strict}"
    elif not has_markers(value):
        return f"the strict reader refuses it ({strict}), yet it holds no marker"
    plain = reference_value(value)
    json = _json_of(lambda: e.to_json(value))
    if json != _json_of(lambda: e.to_json(plain)):
        return f"its JSON {json} is not its reference value's"
    fused = _json_of(lambda: e.decode_json(data, canonical=False))
    if fused != json:
        return f"decode_json gives {fused}, to_json {json}"
    try:
        written = e.encode(plain)
    except EncodeError as err:
        if json[:2] != ("EncodeError", err.code):
            return f"its reference value cannot be written: {err}"
        return None  # no JSON form and no bytes of its own (a BSON NaN)
    reread = e.decode(written)
    if not same(reread, plain):
        return (
            f"its reference value, written {written.hex()}, reads back as {describe_value(reread)}"
        )
    return None


def check(id: str, e: Encoding[Any]) -> Callable[[bytes], None]:
    """The property over ``e``, as libFuzzer calls it (see the module's
    documentation); a broken one is an ``AssertionError`` naming ``id``, the
    input in hex and what went wrong."""
    from data_encoding import DecodeError

    read_lenient = e._decode_lenient
    e._encode_marked  # noqa: B018  (built now: made on the first marker, it would be timed)

    def one_input(data: bytes) -> None:
        strict: Any
        try:
            strict = e.decode(data)
        except DecodeError as err:
            strict = err
        refused = isinstance(strict, DecodeError)
        where = f"{id}: input {shown(data)}"
        try:
            # decode does not reach the lenient reader on input it reads strictly
            value = e.decode(data, canonical=False) if refused else read_lenient(data)
        except DecodeError as err:
            if not refused:
                raise AssertionError(f"{where}: read strictly, refused leniently: {err}") from None
            if strict.code not in STRICT_ONLY and said(strict) != said(err):
                raise AssertionError(
                    f"{where}: refused strictly ({said(strict)}), leniently ({said(err)})"
                ) from None
            return
        try:
            wrong = broken(e, data, value, strict)
        except Exception as err:
            failed = f"{type(err).__name__}: {err}"
            raise AssertionError(f"{where} reads leniently, then {failed}") from err
        if wrong is not None:
            raise AssertionError(f"{where} reads leniently, but {wrong}")

    return one_input


if __name__ == "__main__":
    main(sys.argv, property=check)
