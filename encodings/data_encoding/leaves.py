"""Shared machinery of the leaf encodings: fixed-width atoms and error helpers.

A leaf that is an :class:`~data_encoding.core.Atom` gets its reader, writer
and sizer from :class:`AtomEncoding`, so each leaf only states its struct
code, its checks and its JSON form.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

from .core import Atom, Encoding, Guard, Reader, Sizer, Writer
from .emit import Gen, Path, Put, Take
from .errors import (
    DecodeError,
    EncodeError,
    JsonError,
    describe_value,
    not_enough_data,
    type_name,
)
from .jsonvalue import JsonValue
from .size import Fixed

T = TypeVar("T")


def wrong_type(expected: str, got: object) -> JsonError:
    return JsonError("wrong_type", f"expected {expected}, got {type_name(got)}")


def wrong_value_type(expected: str, got: object) -> EncodeError:
    return EncodeError(
        "wrong_type", f"expected {expected}, got {type(got).__name__} {describe_value(got)}"
    )


class AtomEncoding(Encoding[T]):
    """A fixed-width leaf: everything derives from its :class:`Atom`."""

    _atom: Atom
    _what: str

    def __init__(self, atom: Atom, what: str) -> None:
        self._atom = atom
        self._what = what
        self.size = Fixed(atom.width)

    def _fixed_atom(self) -> Atom:
        return self._atom

    _inlines = True

    def _inline_write(self, g: Gen, v: str, path: Path) -> None:
        self._put(g, v, path, self._atom.pack_guard)

    def _put(self, g: Gen, v: str, path: Path, pack_guard: Guard | None) -> None:
        """Queue the write of ``v``; ``pack_guard(v)`` holds when ``pack``
        would return ``v`` unchanged."""
        atom = self._atom
        guard = pack_guard(v) if pack_guard else None
        check = g.ref(atom.check, "check")
        if not atom.fmt:  # a zero-width constant: the guard is the whole test
            g.put(Put(atom.fmt, None, v, check, guard, path))
            return
        if atom.pack is None:
            g.put(Put(atom.fmt, v, v, check, path=path))
            return
        pack = f"{g.ref(atom.pack, 'pack_leaf')}({v})"
        arg = pack if guard is None else f"({v} if {guard} else {pack})"
        # a packed byte string has the width: pack checked its length
        g.put(Put(atom.fmt, arg, v, check, path=path, ready=atom.fmt.endswith("s")))

    def _inline_read(self, g: Gen, target: str, end: str, path: Path) -> None:
        atom = self._atom
        unpack = atom.unpack
        if not atom.fmt:
            assert unpack is not None
            value = unpack(None)
            if value is None or type(value) in (str, int, bool):
                g.take(Take("", 0, target, literal=repr(value), path=path))
            else:  # a fresh object each time (``{}``)
                g.take(Take("", 0, target, unpack=g.ref(unpack, "unpack_leaf"), path=path))
            return
        guard = atom.unpack_guard(target) if atom.unpack_guard else None
        name = g.ref(unpack, "unpack_leaf") if unpack is not None else None
        g.take(Take(atom.fmt, atom.width, target, name, guard, path=path))

    def _build_reader(self) -> Reader:
        atom = self._atom
        width = atom.width
        unpack = atom.unpack
        what = self._what
        if not atom.fmt:
            assert unpack is not None

            def read_zero(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
                return unpack(None), pos

            return read_zero
        unpack_from = struct.Struct(">" + atom.fmt).unpack_from

        if unpack is None:

            def read_plain(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
                if end - pos < width:
                    raise not_enough_data(pos, width, end, what)
                return unpack_from(buf, pos)[0], pos + width

            return read_plain

        def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            if end - pos < width:
                raise not_enough_data(pos, width, end, what)
            (raw,) = unpack_from(buf, pos)
            try:
                return unpack(raw), pos + width
            except DecodeError as err:
                raise err.shift(pos) from None

        return read

    def _build_writer(self) -> Writer:
        atom = self._atom
        check = atom.check
        pack_value = atom.pack
        exact = atom.exact
        if not atom.fmt:

            def write_zero(out: bytearray, value: Any) -> None:
                check(value)

            return write_zero
        pack = struct.Struct(">" + atom.fmt).pack

        def write(out: bytearray, value: Any) -> None:
            try:
                if pack_value is not None and type(value) is not exact:
                    value = pack_value(value)
                out += pack(value)
            except Exception as exc:  # struct.error, TypeError, a pack function's refusal
                refuse(check, value, exc)

        return write

    def _build_sizer(self) -> Sizer:
        check = self._atom.check
        width = self._atom.width

        def size_of(value: Any) -> int:
            check(value)
            return width

        return size_of


def refuse(check: Callable[[Any], None], value: Any, exc: Exception) -> NoReturn:
    """Turn a low-level failure to write ``value`` into the precise :class:`EncodeError`.

    Runs only after the fast path failed: ``check`` raises the error that names
    the problem; if it finds none, the original failure is reported as is.
    """
    check(value)
    if isinstance(exc, EncodeError):
        raise exc
    raise EncodeError("invalid_value", f"cannot write {describe_value(value)}: {exc}") from None


def is_integer(value: object) -> bool:
    """An ``int`` (a subclass too), but not a ``bool``: JSON tells them apart,
    and so does every encoding (``True`` is no 1)."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def int_check(lo: int, hi: int, name: str) -> Callable[[Any], None]:
    """A check that a value is an integer (not a ``bool``) within ``[lo, hi]``."""

    def check(value: Any) -> None:
        if not is_integer(value):
            raise wrong_value_type(f"an integer ({name})", value)
        if not lo <= value <= hi:
            raise EncodeError(
                "invalid_int", f"{describe_value(value)} is out of range for {name} [{lo}, {hi}]"
            )

    return check


def int_to_json(check: Callable[[Any], None]) -> Callable[[Any], JsonValue]:
    return checked(check, int)


def checked(check: Callable[[Any], None], convert: Callable[[Any], T]) -> Callable[[Any], T]:
    """``convert`` of a value that passes ``check``: the ``pack`` of a number,
    whose exact type is the common case (an ``int`` subclass is converted)."""

    def checked_convert(value: Any) -> T:
        check(value)
        return convert(value)

    return checked_convert


def int_from_json(lo: int, hi: int, name: str) -> Callable[[JsonValue], int]:
    def from_json(json: JsonValue) -> int:
        if type(json) is not int:
            raise wrong_type(f"an integer ({name})", json)
        if not lo <= json <= hi:
            raise JsonError(
                "out_of_range", f"{describe_value(json)} is out of range for {name} [{lo}, {hi}]"
            )
        return json

    return from_json
