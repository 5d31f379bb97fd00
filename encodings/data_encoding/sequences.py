"""Lists and arrays.

=====================================  =============================================  =========
combinator                             binary                                         JSON
=====================================  =============================================  =========
``list_(e, max_length=None)``          uint30 **byte** size, then the elements        array
``variable.list_(e, max_length=)``     the elements, to the end of the frame          array
``fixed.list_(n, e)``                  exactly ``n`` elements, no header              array
``list_with_length(kind, e, ...)``     element **count** (Uint8/Uint16/Uint30), elts   array
=====================================  =============================================  =========

``array`` and its variants are the same with "array" in error names (Python
has one list type: values are ``list`` either way). ``max_length`` bounds the
element count in binary (writing and reading), not in JSON, as in the
reference. Elements must not be variable-size (wrap them in
``dynamic_size``) nor zero-width (they could not be counted).

Lists of fixed-width leaves are read and written with one ``struct`` call.

>>> from data_encoding import uint16, string
>>> list_(uint16).encode([1, 2]).hex()
'0000000400010002'
>>> list_with_length("Uint8", uint16).encode([1, 2]).hex()
'0200010002'
"""

from __future__ import annotations

import struct
from typing import Any, Literal

from .core import (
    Encoding,
    Reader,
    Writer,
    combinator,
    expect,
    expect_encoding,
)
from .emit import Gen, Path, Take, compile_reader, compile_writer
from .errors import (
    DataEncodingError,
    DecodeError,
    DefinitionError,
    EncodeError,
    ErrorCode,
    not_enough_data,
)
from .framing import HEADERS, CheckSize, DynamicSize, HeaderKind, header_kind
from .leaves import wrong_value_type
from .size import DYNAMIC, VARIABLE, Fixed, Size

Kind = Literal["list", "array"]


class ListEncoding(Encoding[list[Any]]):
    """Elements one after the other; how many is said by ``length``:

    * ``("frame", None)``: as many as fill the frame (header-less);
    * ``("exactly", n)``: exactly ``n``;
    * ``("count", kind)``: a count header of that kind comes first.
    """

    def __init__(
        self,
        elt: Encoding[Any],
        max_length: int | None,
        kind: Kind,
        length: tuple[str, Any] = ("frame", None),
    ) -> None:
        mode, arg = length
        where = (
            f"{kind}_with_length" if mode == "count" else "array" if kind == "array" else "list_"
        )
        expect_encoding(elt, where)
        if max_length is not None:
            expect(max_length, int, where, "max_length is an int")
        if mode == "exactly":
            expect(arg, int, where, "the length is an int")
        what = f"an {kind}" if kind == "array" else f"a {kind}"
        if elt.size is VARIABLE:
            raise DefinitionError(
                f"cannot insert a variable-size element in {what}: its end could not be "
                "found; wrap the element in dynamic_size()"
            )
        if elt.size == Fixed(0):
            raise DefinitionError(
                f"cannot insert a zero-width element in {what}: the elements could not be counted"
            )
        if max_length is not None and max_length < 0:
            raise DefinitionError(f"{kind}: max_length must not be negative")
        self.elt = elt
        self.max_length = max_length
        self.kind = kind
        self.count_mode = length
        size: Size = VARIABLE
        if mode == "exactly":
            if arg <= 0:
                raise DefinitionError(f"fixed.{kind}_: the length must be positive, not {arg}")
            size = Fixed(arg * elt.size.n) if isinstance(elt.size, Fixed) else DYNAMIC
        elif mode == "count":
            largest = HEADERS[arg][2]
            if max_length is not None and max_length > largest:
                raise DefinitionError(
                    f"{kind}_with_length: max_length {max_length} exceeds what a {arg} "
                    f"count can state ({largest})"
                )
            self.max_length = largest if max_length is None else max_length
            size = DYNAMIC
        self.size = size

    def _rebuild(self) -> tuple[Any, ...]:
        return (ListEncoding, (self.elt, self.max_length, self.kind, self.count_mode))

    def _accepts(self, value: Any) -> bool:
        return type(value) is list

    # ------------------------------------------------------------- binary

    def _too_long(self, cls: type[DecodeError] | type[EncodeError], count: int) -> Any:
        code: ErrorCode = "list_too_long" if self.kind == "list" else "array_too_long"
        return cls(
            code,
            f"{self.kind} too long: {count} elements where at most {self.max_length} are allowed",
        )

    def _read_count(self, buf: bytes, pos: int, end: int) -> tuple[int | None, int]:
        """How many elements to read (``None``: until the frame ends) and where they start."""
        mode, arg = self.count_mode
        if mode == "exactly":
            return int(arg), pos
        if mode == "frame":
            return None, pos
        code, width, _ = HEADERS[arg]
        if end - pos < width:
            raise not_enough_data(pos, width, end, "an element count")
        (count,) = struct.unpack_from(code, buf, pos)
        self._check_count(count, pos + width, end)
        return count, pos + width

    _inlines = True

    @property
    def _reads_whole(self) -> bool:
        """Fixed-width leaf elements: one ``iter_unpack`` reads the list."""
        atom = self.elt._fixed_atom()
        return atom is not None and bool(atom.fmt)

    @property
    def _writes_whole(self) -> bool:
        """One-code number elements: one ``pack`` writes the list."""
        atom = self.elt._fixed_atom()
        return atom is not None and len(atom.fmt) == 1 and atom.exact is not None

    def _inline_read(self, g: Gen, target: str, end: str, path: Path) -> None:
        if self._reads_whole:
            g.call_read(self, target, end, path)
            return
        g.flush_read(end)
        mode, arg = self.count_mode
        count = str(arg)
        if mode == "count":
            code, width, _ = HEADERS[arg]
            count = g.var("count")
            g.take(Take(code[1:], width, count, path=path, what="an element count"))
            g.flush_read(end)
            g.guarded(f"{g.ref(self._check_count)}({count}, pos, {end})", path)
        many = self.elt._many()
        if many is not None and mode == "frame" and self.max_length is None:
            g.guarded(f"{target} = {g.ref(many[1], 'read_many')}(buf, pos, {end})", path)
            g.line(f"pos = {end}")
            g.moved(to=end)
            return
        items, x = g.var("items"), g.var("item")
        g.line(f"{items} = []")
        loop = f"while pos < {end}:" if mode == "frame" else f"for _ in range({count}):"
        with g.block(loop):
            g.moved()
            if mode != "frame":
                with g.block(f"if pos >= {end}:"):
                    g.raise_at(f"{g.ref(not_enough_data)}(pos, 1, {end})", (*path, f"len({items})"))
            elif self.max_length is not None:
                with g.block(f"if len({items}) == {self.max_length}:"):
                    too_long = g.ref(self._too_long)
                    g.raise_at(
                        f"{too_long}({g.ref(DecodeError)}, {self.max_length + 1}).at(pos)", path
                    )
            self.elt._emit_read(g, x, end, (*path, f"len({items})"))
            g.flush_read(end)
            g.line(f"{items}.append({x})")
        g.moved(to=end if mode == "frame" else None)
        g.line(f"{target} = {items}")

    def _check_count(self, count: int, pos: int, end: int) -> None:
        """A count header (read at ``pos`` minus its width) within its limits."""
        width = HEADERS[self.count_mode[1]][1]
        if self.max_length is not None and count > self.max_length:
            raise self._too_long(DecodeError, count).at(pos - width)
        if count > end - pos:  # every element takes at least one byte
            raise DecodeError(
                "not_enough_data",
                f"the {self.kind} claims {count} elements but only {end - pos} bytes remain",
                offset=pos - width,
            )

    def _inline_write(self, g: Gen, v: str, path: Path) -> None:
        if self._writes_whole:
            g.call_write(self, v, path)
            return
        g.flush_write()
        mode, arg = self.count_mode
        # the common case in one test; the check says what is wrong otherwise
        fine = f"type({v}) is list"
        if mode == "exactly":
            fine += f" and len({v}) == {arg}"
        elif self.max_length is not None:
            fine += f" and len({v}) <= {self.max_length}"
        with g.block(f"if not ({fine}):"):
            g.guarded(f"{g.ref(self._check_length)}({v})", path)
        if mode == "count":
            g.line(f"out += {g.ref(struct.Struct(HEADERS[arg][0]).pack)}(len({v}))")
        many = self.elt._many()
        if many is not None:
            g.guarded(f"{g.ref(many[0], 'write_many')}(out, {v})", path)
            return
        x = g.var("item")
        with g.block(f"for {x} in {v}:"):
            self.elt._emit_write(g, x, (*path, f"_index({v}, {x})"))
            g.flush_write()

    def _build_reader(self) -> Reader:
        return self._build_atom_reader() if self._reads_whole else compile_reader(self)

    def _build_atom_reader(self) -> Reader:
        atom = self.elt._fixed_atom()
        assert atom is not None
        width = atom.width
        unit = struct.Struct(">" + atom.fmt)
        unpack = atom.unpack
        max_length = self.max_length
        read_count = self._read_count

        def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
            count, pos = read_count(buf, pos, end)
            if count is None:
                count, extra = divmod(end - pos, width)
                if max_length is not None and (
                    count > max_length or (count == max_length and extra)
                ):
                    raise self._too_long(DecodeError, count + (extra > 0)).at(
                        pos + max_length * width
                    )
                if extra:
                    at = pos + count * width
                    raise not_enough_data(at, width, end).within(count)
            elif end - pos < count * width:
                full = (end - pos) // width
                raise not_enough_data(pos + full * width, width, end).within(full)
            stop = pos + count * width
            raw = [t[0] for t in unit.iter_unpack(memoryview(buf)[pos:stop])]
            if unpack is None:
                return raw, stop
            out = []
            for i, x in enumerate(raw):
                try:
                    out.append(unpack(x))
                except DataEncodingError as err:
                    raise err.shift(pos + i * width).within(i) from None
            return out, stop

        return read

    def _check_length(self, value: Any) -> None:
        if not isinstance(value, list | tuple):
            raise wrong_value_type(f"a {self.kind} (list)", value)
        mode, arg = self.count_mode
        if mode == "exactly" and len(value) != arg:
            raise EncodeError("wrong_length", f"expected exactly {arg} elements, got {len(value)}")
        if self.max_length is not None and len(value) > self.max_length:
            raise self._too_long(EncodeError, len(value))

    def _build_writer(self) -> Writer:
        check_length = self._check_length
        mode, arg = self.count_mode
        header = struct.Struct(HEADERS[arg][0]).pack if mode == "count" else None
        atom = self.elt._fixed_atom()
        if atom is not None and self._writes_whole:
            code, check, pack = atom.fmt, atom.check, atom.pack
            assert pack is not None  # every atom with an exact type converts the others
            exact = {atom.exact}

            def write_fused(out: bytearray, value: Any) -> None:
                check_length(value)
                if header is not None:
                    out += header(len(value))
                try:
                    # values of exactly the type go to struct as they are (a
                    # bool, an int to struct, must not: it takes ``pack``)
                    items = value if set(map(type, value)) <= exact else map(pack, value)
                    out += struct.pack(f">{len(value)}{code}", *items)
                except Exception as exc:  # find the element at fault
                    for i, x in enumerate(value):
                        try:
                            check(x)
                        except DataEncodingError as err:
                            raise err.within(i) from None
                    raise EncodeError("invalid_value", f"cannot write the list: {exc}") from None

            return write_fused

        return compile_writer(self)

    # --------------------------------------------------------------- JSON


def variable_list(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    """Header-less list: the elements fill the frame."""
    return _variable(e, max_length, "list")


def variable_array(e: Encoding[Any], max_length: int | None = None) -> Encoding[list[Any]]:
    return _variable(e, max_length, "array")


def _variable(e: Encoding[Any], max_length: int | None, kind: Kind) -> Encoding[list[Any]]:
    inner = ListEncoding(e, max_length, kind)
    if max_length is not None and isinstance(e.size, Fixed):
        # as the reference does: a byte limit equivalent to the element limit
        return CheckSize(e.size.n * max_length, inner)
    return inner


@combinator
def list_(e: Encoding[Any], max_length: int | None = None) -> DynamicSize[list[Any]]:
    """A list with a uint30 byte-size header (see the module documentation)."""
    return DynamicSize(_variable(e, max_length, "list"))


@combinator
def array(e: Encoding[Any], max_length: int | None = None) -> DynamicSize[list[Any]]:
    """Like :func:`list_`; errors say "array"."""
    return DynamicSize(_variable(e, max_length, "array"))


def fixed_list(n: int, e: Encoding[Any]) -> ListEncoding:
    """Exactly ``n`` elements, no header."""
    return ListEncoding(e, None, "list", ("exactly", n))


def fixed_array(n: int, e: Encoding[Any]) -> ListEncoding:
    return ListEncoding(e, None, "array", ("exactly", n))


@combinator
def list_with_length(
    kind: HeaderKind, e: Encoding[Any], max_length: int | None = None
) -> ListEncoding:
    """A list whose header is its element **count** (``Uint8``, ``Uint16`` or ``Uint30``)."""
    return ListEncoding(e, max_length, "list", ("count", header_kind(kind, "list_with_length")))


@combinator
def array_with_length(
    kind: HeaderKind, e: Encoding[Any], max_length: int | None = None
) -> ListEncoding:
    return ListEncoding(e, max_length, "array", ("count", header_kind(kind, "array_with_length")))
