"""The :class:`Encoding` base class: the nodes' public entry points.

An encoding is an immutable node of a tree built by the combinators. The
first time it is used, the passes (``passes/``) compile it, once, into plain
functions kept on it, and every later call runs only those:

* a reader ``read(buf, pos, end) -> (value, new_pos)`` over a ``bytes`` buffer,
  with an absolute position and the end of the current frame;
* a writer ``write(out, value)`` that appends to one ``bytearray``;
* a sizer ``size_of(value) -> int``;
* ``to_json(value)`` and ``from_json(json)``.

Fixed-width leaves (integers, booleans, floats, fixed byte strings) also
describe themselves as an :class:`Atom` (a ``struct`` format code plus
conversions), so that records, tuples and lists fuse runs of them into one
precompiled :class:`struct.Struct`.

Why ``bytes`` and not ``memoryview`` for reading: slicing ``bytes`` yields the
``bytes`` values we return without a second copy, and ``struct.unpack_from``
and ``int.from_bytes`` accept it directly.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..compiling import built, compiled
from ..errors import (
    DataEncodingError,
    DecodeError,
    DefinitionError,
    EncodeError,
    JsonError,
    describe_value,
    missing_extra,
    past_recursion_limit,
)
from ..jsonvalue import JsonText, JsonValue, dumps, loads
from ..noncanonical import has_markers, reference_value
from .size import Fixed, Size

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from ..passes.schema import BinarySchema, Dialect

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
C = TypeVar("C")

Reader = Callable[[bytes, int, int], tuple[Any, int]]
Writer = Callable[[bytearray, Any], None]
Sizer = Callable[[Any], int]
ToJson = Callable[[Any], JsonValue]
FromJson = Callable[[JsonValue], Any]
Predicate = Callable[[Any], bool]
ManyReader = Callable[[bytes, int, int], list[Any]]

BytesLike = bytes | bytearray | memoryview


class Decoder(Protocol[T_co]):
    """``e.decode``: see :attr:`Encoding.decode`."""

    def __call__(self, data: BytesLike, /, *, canonical: bool = True) -> T_co: ...


class JsonDecoder(Protocol):
    """``e.decode_json``: see :attr:`Encoding.decode_json`."""

    def __call__(self, data: BytesLike, /, *, canonical: bool = True) -> JsonValue: ...


Namer = Callable[[object], str]
"""The name generated code knows an object by (it is put in the code's environment)."""

Guard = Callable[[str, Namer], str]
"""An expression for generated code, given the name of the variable it tests
and a namer for the objects it refers to (never spliced in as text)."""


@dataclass(frozen=True, slots=True)
class Atom:
    """A fixed-width leaf that can be fused into a larger ``struct`` format.

    ``fmt`` is a big-endian ``struct`` code without the byte-order prefix
    (``""`` for a zero-width leaf, which then takes no struct argument).
    ``check(value)`` raises the precise :class:`EncodeError` for a value that
    cannot be written; fused writers call it only after ``struct`` failed, to
    say which field was wrong. ``pack`` turns a value into the struct argument
    and ``unpack`` a struct result into a value (for zero-width leaves it
    receives ``None`` and returns the constant value); either may be ``None``
    for the identity (``pack_guard`` and ``unpack_guard`` let generated code
    skip the call in the common case). ``unpack`` raises :class:`DecodeError`
    with an offset relative to the atom's first byte (``None`` meaning 0).

    A guard is a function of the name of the variable holding the value
    (and of a namer, for objects it refers to), returning a Python
    expression: generated code is never made by filling holes in a text, so
    no string of the user's can turn into code.
    """

    fmt: str
    width: int
    check: Callable[[Any], None]
    pack: Callable[[Any], Any] | None = None
    unpack: Callable[[Any], Any] | None = None
    #: for generated code: the expression, over the variable it is given, that
    #: holds when ``pack`` would return the value unchanged, so that it can be
    #: packed without calling ``pack``
    pack_guard: Guard | None = None
    #: the same for ``unpack``: holds when ``unpack`` would return the raw value
    unpack_guard: Guard | None = None
    #: ``unpack`` as a table, for an enumeration: ``unpack(i)`` is
    #: ``unpack_table[i]`` for every ``i`` below its length and refuses the
    #: others, so that generated code indexes it where it would call ``unpack``
    unpack_table: tuple[Any, ...] | None = None
    #: ``pack`` as a table, the other way: ``pack(v)`` is ``pack_table[v]``
    #: for every key, and refuses every value the table has no key for
    pack_table: Mapping[Any, int] | None = None
    #: values of exactly this type go to ``struct`` as they are (it checks
    #: them); others through ``pack``: a whole list of them takes one call
    exact: type | None = None


CallParts = str | tuple[str, tuple[Any, ...], dict[str, Any]]
"""A call as a repr shows it: a name alone, or a name, its arguments and
its keyword arguments."""


class Called:
    """An object whose repr is the call that made it (:meth:`_call_parts`),
    written in pieces: the start of a huge one (a name of a generated
    function) costs its own length only (:func:`repr_start`)."""

    __slots__ = ()

    def _call_parts(self) -> CallParts:
        raise NotImplementedError

    def __repr__(self) -> str:
        return "".join(_call_pieces(self._call_parts()))


class Encoding(Called, Generic[T]):
    """A binary and JSON encoding of Python values of type ``T``.

    Subclasses (the node types) set :attr:`size` and hold their parameters;
    the passes build the functions the entry points run, kept on the node.
    """

    #: Fixed(n), DYNAMIC or VARIABLE.
    size: Size
    #: JSON ``null`` is one of its values (``option`` refuses such encodings).
    nullable: bool = False

    # ----------------------------------------------------------------- public

    # ``encode`` and ``decode`` (and their JSON-mode twins) are the hottest
    # calls: each is a function built on first use and kept on the encoding
    # (as ``_read`` is), so that ``e.encode(value)`` calls it directly,
    # without a method around it. For a generated codec it is the codec's
    # ops rendered as a function of its own, its output, the extra-bytes
    # check and the recursion guard inline. (Reading the attribute builds
    # it: an encoding that has no writer raises there.)

    @compiled
    def encode(self) -> Callable[[T], bytes]:
        """``encode(value)``: the binary form of ``value``; raises :class:`EncodeError`."""
        from ..passes.binary import build_encoder

        return build_encoder(self)

    @compiled
    def decode(self) -> Decoder[T]:
        """``decode(data, *, canonical=True)``: decode ``data`` (``bytes``,
        ``bytearray`` or ``memoryview``) entirely; raises :class:`DecodeError`
        (``extra_bytes`` when bytes are left over).

        Decoding is canonical: bytes that the library would not write for
        the value they hold are refused (README, "Strictness"); that is what
        a signer wants. ``canonical=False`` reads them as the reference does
        (an indexer reading what the node accepted): where a part is not
        canonical the value holds a
        :class:`~data_encoding.noncanonical.NonCanonical` with the value the
        reference reads and the bytes read, so that ``encode`` gives ``data``
        back; canonical input reads as with ``canonical=True``, as fast."""
        from ..passes.binary import build_decoder

        return build_decoder(self)

    def decode_prefix(
        self, data: BytesLike, offset: int = 0, *, canonical: bool = True
    ) -> tuple[T, int]:
        """Decode one value starting at ``offset``; returns it and where it ends.

        A variable-size encoding runs to the end of ``data``. ``canonical``:
        as :attr:`decode`'s.
        """
        buf = data if type(data) is bytes else input_bytes(data)
        if type(offset) is not int or not 0 <= offset <= len(buf):
            raise DecodeError(
                "invalid_offset",
                f"offset {describe_value(offset)} is not in the input ({len(buf)} bytes)",
            )
        try:
            try:
                return self._read(buf, offset, len(buf))
            except DataEncodingError:
                if canonical:
                    raise
            return self._read_lenient_whole(buf, offset, len(buf))
        except RecursionError:
            raise past_recursion_limit(DecodeError) from None

    def length(self, value: T) -> int:
        """The number of bytes ``encode(value)`` produces (checked like
        ``encode``; a value read with ``canonical=False`` too)."""
        try:
            try:
                return self._length_entry(value)
            except DataEncodingError:
                if not has_markers(value):
                    raise
            return self._marked_length(value)
        except RecursionError:
            raise past_recursion_limit(EncodeError) from None

    def to_json(self, value: T) -> JsonValue:
        """The JSON form of ``value``, as Python JSON values; raises
        :class:`EncodeError`. Of a value read with ``canonical=False``, the
        JSON of what the reference reads."""
        try:
            try:
                return self._to_json_entry(value)
            except DataEncodingError:
                if not has_markers(value):
                    raise
            return self._marked_to_json(value)
        except RecursionError:
            raise past_recursion_limit(EncodeError) from None

    def from_json(self, json: JsonValue) -> T:
        """Read a JSON value (as :func:`json.loads` gives it); raises :class:`JsonError`."""
        try:
            return self._from_json(json)  # type: ignore[no-any-return]
        except RecursionError:
            raise past_recursion_limit(JsonError) from None

    @compiled
    def decode_json(self) -> JsonDecoder:
        """``decode_json(data, *, canonical=True)``: the JSON form of the
        value ``data`` holds, what ``to_json(decode(data, canonical=...))``
        gives (and raises), built as the bytes are read, without the value
        in between."""
        from ..passes.binary import compile_json_decoder

        return compile_json_decoder(self)

    @compiled
    def encode_json(self) -> Callable[[JsonValue], bytes]:
        """``encode_json(json)``: the binary form of the value whose JSON form
        is ``json``, what ``encode(from_json(json))`` gives (and raises),
        written from the JSON without the value in between."""
        from ..passes.binary import compile_json_encoder

        return compile_json_encoder(self)

    def json_to_bytes(self, text: JsonText) -> bytes:
        """The binary form of the value whose JSON text is ``text`` (a
        ``str``, or its UTF-8 bytes in any bytes-like object): what an RPC
        proxy or a signer does with the node's JSON.

        It is ``encode_json(loads(text))``, read as strictly as
        :func:`data_encoding.jsonvalue.loads` reads (no ``NaN``; a member
        given twice kept, which ``json`` takes and a record refuses; bytes in
        UTF-8 with no byte order mark): invalid text raises
        :class:`JsonError` (``invalid_json``, ``invalid_utf8``, or
        ``wrong_type`` for what is not text), a JSON value that does not fit
        :class:`JsonError`, a value that cannot be written
        :class:`EncodeError`. (Text only: a JSON string value would be text
        too; a parsed value goes to ``encode_json``.)

        >>> from data_encoding import obj, req, uint8, bytes_
        >>> obj(req("a", uint8), req("b", bytes_)).json_to_bytes('{"a": 7, "b": "beef"}').hex()
        '0700000002beef'
        """
        return self.encode_json(loads(text))

    def bytes_to_json(self, data: BytesLike, *, canonical: bool = True) -> str:
        """The compact JSON text of the value whose binary form is ``data``:
        ``dumps(decode_json(data, canonical=canonical))`` (UTF-8 kept as it is).

        >>> from data_encoding import obj, req, uint8, bytes_
        >>> obj(req("a", uint8), req("b", bytes_)).bytes_to_json(bytes.fromhex("0700000002beef"))
        '{"a":7,"b":"beef"}'
        """
        return dumps(self.decode_json(data, canonical=canonical))

    def strategy(self) -> SearchStrategy[T]:
        """A Hypothesis strategy of valid values (needs the ``hypothesis`` package:
        ``pip install 'data-encoding[hypothesis]'``)."""
        try:
            from ..passes.strategies import from_encoding
        except ModuleNotFoundError as exc:
            needs = "Encoding.strategy() needs Hypothesis"
            raise missing_extra(exc, "hypothesis", needs, "hypothesis") from None
        return from_encoding(self)

    def describe(self, dialect: Dialect = "legacy") -> BinarySchema:
        """The binary schema, a value of :data:`~data_encoding.binary_schema`
        (``binary_schema.to_json(e.describe())`` is what ``/describe`` publishes).

        ``dialect="1.0"`` follows data-encoding 1.0 instead of the legacy library.
        """
        from ..passes.schema.describe import describe

        # kept: a schema is a frozen value, and asked again (a rebuilt
        # encoding is checked by it; a primitive is matched by it)
        return built(self, f"schema.describe.{dialect}", functools.partial(describe, self, dialect))

    def table(self, dialect: Dialect = "legacy") -> str:
        """The human-readable layout tables of the binary form (``octez-codec describe``)."""
        from ..passes.schema.table import render

        return render(self.describe(dialect), dialect)

    def json_schema(self, dialect: Dialect = "legacy") -> JsonValue:
        """The JSON Schema (draft-04) of the JSON form."""
        from ..passes.schema.jsonschema import json_schema

        return json_schema(self, dialect)

    # ---------------------------------------------------------------- repr

    #: how the public call that built it was written (see :func:`combinator`)
    _call: Call | None = None
    #: the call that pickles it, when it is no combinator's (see :func:`made_by`)
    _made: tuple[Callable[..., Any], tuple[Any, ...]] | None = None

    def _call_parts(self) -> CallParts:
        """The call that built it, its repr: a public module constant by its
        shortest name (``uint8``, ``hashes.block_hash``), else the
        combinator call (``obj(req('id', uint16), opt('name', string))``),
        else the constructor call of an internal node."""
        public = _PUBLIC.get(id(self))
        if public is not None and public[0] is self:
            return min((_public_name(*where) for where in public[1]), key=len)
        if self._call is not None:
            return self._call.parts()
        try:
            made = self._rebuild()
        except NotImplementedError:  # a user's subclass that does not say how
            return f"<{type(self).__name__}>"
        return (type(self).__name__, made[1], {})

    # ------------------------------------------------------------- pickling

    def __reduce__(self) -> tuple[Any, ...]:
        """An encoding pickles as the call that built it (what it compiled is
        compiled again on first use); a public one, by reference."""
        public = _PUBLIC.get(id(self))
        if public is not None and public[0] is self:
            return (_public, public[1][0])
        if self._made is not None:
            return self._made
        return self._rebuild()

    def _rebuild(self) -> tuple[Any, ...]:
        """``(callable, args)`` (or ``(..., state)``) that builds this encoding again."""
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")

    @property
    def fixed_length(self) -> int | None:
        """``n`` when the size class is ``Fixed(n)``, else ``None``."""
        return self.size.n if isinstance(self.size, Fixed) else None

    # ------------------------------------------------------- compiled pieces
    # Each is built by its pass (``passes/binary/``, ``passes/json/``)
    # on first use, and kept here: the entry points above call them.

    @compiled
    def _read(self) -> Reader:
        from ..passes.binary import build_reader

        return build_reader(self)

    @compiled
    def _write(self) -> Writer:
        from ..passes.binary import build_writer

        return build_writer(self)

    @compiled
    def _size_of(self) -> Sizer:
        from ..passes.binary import build_sizer

        return build_sizer(self)

    @compiled
    def _to_json(self) -> ToJson:
        from ..passes.json import to_json_of

        return to_json_of(self)

    # The lenient variant (``canonical=False``, ``passes/lenient.py``): its
    # reader and writer, and the entry points that reach them, built on
    # first use only (the strict ones above reach them on failure).

    @compiled
    def _read_lenient(self) -> Reader:
        from ..passes.binary import build_lenient_reader

        return build_lenient_reader(self)

    @compiled
    def _read_lenient_whole(self) -> Reader:
        from ..passes.binary import build_whole_reader

        return build_whole_reader(self)

    @compiled
    def _write_marked(self) -> Writer:
        from ..passes.binary import build_marked_writer

        return build_marked_writer(self)

    @compiled
    def _decode_lenient(self) -> Callable[[BytesLike], T]:
        from ..passes.binary import build_lenient_decoder

        return build_lenient_decoder(self)

    @compiled
    def _encode_marked(self) -> Callable[[Any], bytes]:
        from ..passes.binary import build_marked_encoder

        return build_marked_encoder(self)

    @compiled
    def _to_json_entry(self) -> ToJson:
        from ..passes.binary import marker_first

        return marker_first(self, self._to_json, lambda: self._marked_to_json)

    def _marked_to_json(self, value: Any) -> JsonValue:
        # a marker prints as its value: the JSON of the reference's reading
        return self._to_json(reference_value(value))

    @compiled
    def _length_entry(self) -> Sizer:
        from ..passes.binary import marker_first

        return marker_first(self, self._size_of, lambda: self._marked_length)

    def _marked_length(self, value: Any) -> int:
        return len(self._encode_marked(value))

    @compiled
    def _from_json(self) -> FromJson:
        from ..passes.json import from_json_of

        return from_json_of(self)

    # ------------------------------------------------- protocol for subclasses

    def _object_fields(self) -> frozenset[str] | None:
        """The keys of this encoding's dict values, when it is a record-like
        encoding that ``merge_objs`` can merge; ``None`` otherwise."""
        return None

    def _tuple_arity(self) -> int | None:
        """The length of this encoding's tuple values, when ``merge_tups`` can merge it."""
        return None

    def _labelled(self, name: str) -> Encoding[T]:
        """This encoding, with ``name`` used in its error messages (see ``def_``)."""
        return self


_PUBLIC: dict[int, tuple[Encoding[Any], list[tuple[str, str]]]] = {}
"""The public encodings (module-level ones), by id: the encoding, and each
(module, name) it is published under, the first one first."""


def publish(module: str, names: dict[str, Any]) -> None:
    """Let the encodings among ``module``'s ``names`` (its globals) pickle by
    reference: they unpickle to themselves."""
    for name, value in names.items():
        if isinstance(value, Encoding) and not name.startswith("_"):
            _PUBLIC.setdefault(id(value), (value, []))[1].append((module, name))


def made_by(e: Encoding[T], call: Callable[..., Encoding[T]], *args: Any) -> Encoding[T]:
    """Let ``e``, which ``call(*args)`` returns, pickle as that call (an
    encoding built from data, whose parts hold functions that cannot
    pickle: ``from_schema``'s): ``call`` rebuilds it on the other side."""
    e._made = (call, args)
    return e


def import_name(e: Encoding[Any]) -> str | None:
    """Where the published constant ``e`` is imported from, as
    ``module.name`` (``from module import name``): the package's own name
    for it, else the module it was first published in; ``None`` when ``e``
    is no published constant.

    >>> from data_encoding import int64, hashes
    >>> import_name(int64), import_name(hashes.block_hash)
    ('data_encoding.int64', 'data_encoding.node.hashes.block_hash')
    """
    public = _PUBLIC.get(id(e))
    if public is None or public[0] is not e:
        return None
    top = importlib.import_module("data_encoding")
    exported = next((n for _, n in public[1] if n in top.__all__ and getattr(top, n) is e), None)
    return f"{top.__name__}.{exported}" if exported is not None else ".".join(public[1][0])


def _public_name(module: str, name: str) -> str:
    """How a user names ``module.name``: bare when the package exports it at
    its top; by the name the package gives its module (``fixed.string``,
    ``hashes.block_hash``); else by its path below the package."""
    top = importlib.import_module("data_encoding")
    public = getattr(top, "__all__", ())
    home = importlib.import_module(module)
    if name in public and getattr(top, name) is getattr(home, name):
        return name
    for exported in public:
        if getattr(top, exported) is home:
            return f"{exported}.{name}"
    return f"{module.removeprefix(top.__name__ + '.')}.{name}"


def _argument_pieces(value: object) -> Iterator[str]:
    """``value`` as it would be written in a call, in pieces."""
    if type(value).__repr__ is Called.__repr__:
        yield from _call_pieces(value._call_parts())  # type: ignore[attr-defined]
    elif isinstance(value, list | tuple):
        yield "[" if isinstance(value, list) else "("
        for i, item in enumerate(value):
            yield ", " if i else ""
            yield from _argument_pieces(item)
        yield "]" if isinstance(value, list) else ("," if len(value) == 1 else "") + ")"
    elif isinstance(value, functools.partial):  # its own repr holds the function's address
        yield from _call_pieces(("partial", (value.func, *value.args), value.keywords))
    elif callable(value) and hasattr(value, "__wrapped__"):  # (a user's function, guarded)
        yield from _argument_pieces(value.__wrapped__)
    elif isinstance(value, type) or (callable(value) and hasattr(value, "__qualname__")):
        name = str(getattr(value, "__qualname__", value))
        # a local function by its own name (``<lambda>``), a method by its class's
        yield str(getattr(value, "__name__", name)) if "<locals>" in name else name
    else:
        yield repr(value)


def _call_pieces(parts: CallParts) -> Iterator[str]:
    if isinstance(parts, str):
        yield parts
        return
    name, args, kwargs = parts
    yield f"{name}("
    for i, arg in enumerate(args):
        yield ", " if i else ""
        yield from _argument_pieces(arg)
    for i, (key, arg) in enumerate(kwargs.items()):
        yield f"{', ' if i or args else ''}{key}="
        yield from _argument_pieces(arg)
    yield ")"


def call_text(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """``name(arg, ..., key=value)``, each argument as it would be written."""
    return "".join(_call_pieces((name, args, kwargs)))


def repr_start(value: object, width: int) -> tuple[str, bool]:
    """The start of ``repr(value)``, ``width`` characters or more (all of
    it when shorter), and whether it is all of it: only that much is
    written, however large the value (an encoding's repr unfolds what it
    shares: a name of a generated function needs its start only)."""
    text, n = [], 0
    for piece in _argument_pieces(value):
        text.append(piece)
        n += len(piece)
        if n > width:
            return "".join(text), False
    return "".join(text), True


@dataclass(frozen=True)
class Call:
    """A public combinator call, as written: the function and its arguments."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]

    def parts(self) -> CallParts:
        return (
            _public_name(self.function.__module__, self.function.__name__),
            self.args,
            self.kwargs,
        )


F = TypeVar("F", bound=Callable[..., Any])


def combinator(function: F) -> F:
    """Make a public combinator remember its calls, so that what it builds
    prints as the call (``repr``; every combinator builds a new node)."""

    @functools.wraps(function)
    def build(*args: Any, **kwargs: Any) -> Any:
        made = function(*args, **kwargs)
        made._call = Call(build, args, kwargs)
        return made

    return build  # type: ignore[return-value]


def _public(module: str, name: str) -> Encoding[Any]:
    found: Encoding[Any] = getattr(importlib.import_module(module), name)
    return found


def identity(value: T) -> T:
    return value


def expect_encoding(value: object, where: str) -> Encoding[Any]:
    """``value``, when it is an encoding; ``where`` names the combinator and
    argument for the :class:`DefinitionError` raised otherwise."""
    if isinstance(value, Encoding):
        return value
    raise DefinitionError(
        f"{where}: expected an encoding, got {type(value).__name__} {describe_value(value)}"
    )


def expect(value: object, kind: type | tuple[type, ...], where: str, what: str) -> None:
    """Raise a :class:`DefinitionError` saying ``where: what`` unless ``value``
    is a ``kind`` (never a ``bool``, though Python counts it as an ``int``)."""
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DefinitionError(f"{where}: {what}, not {type(value).__name__}")


def expect_callable(value: C, where: str, what: str) -> C:
    """``value``, when it is callable (else a :class:`DefinitionError`)."""
    if callable(value):
        return value
    raise DefinitionError(f"{where}: {what} is not callable ({type(value).__name__})")


def input_bytes(data: object) -> bytes:
    """The bytes to decode: a bytes-like object, copied (anything else is refused)."""
    if isinstance(data, bytes | bytearray | memoryview):
        return bytes(data)
    raise DecodeError(
        "wrong_type",
        f"expected bytes, bytearray or memoryview to decode, got {type(data).__name__}",
    )
