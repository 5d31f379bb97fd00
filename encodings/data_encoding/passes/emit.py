"""What every generated function shares: its source, and the helpers its errors use.

The binary pass (:mod:`.binary.lowering`, :mod:`.binary.render`) and the JSON pass
(:mod:`.json.fast`) compile each composite into **one** Python function, the
way one would write it by hand for that exact shape. :class:`Source` is such
a function being written: its lines, the objects it names (one readable name
each, in its environment), fresh local variables, and its compilation, with
the source registered in :mod:`linecache` so that tracebacks show its lines.

The helpers below run only when generated code fails: they find the precise
error of a fused ``struct`` call (the first field at fault, as a field-by-field
codec would report it) and prepend the path the generated code knows
statically. Nothing on the success path pays for paths or offsets.
"""

from __future__ import annotations

import linecache
import re
import struct
import threading
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import DataEncodingError, DecodeError, EncodeError, PathStep, not_enough_data
from ..tree.core import repr_start

if TYPE_CHECKING:
    from ..tree.core import Encoding

#: Beyond this many lines a JSON converter stops inlining its parts and calls
#: them (each part still compiles itself): bounds the code of very large trees.
LINE_BUDGET = 800

_taken: set[str] = set()
"""The file names of the generated functions alive (or dead since the last
compile): a function is named by what it compiles, ``-2``, ``-3``... after
the name when that is taken."""

_naming = threading.Lock()

_dead: list[str] = []
"""The file names of generated functions that died, dropped from
:mod:`linecache` at the next compile."""


def at(err: DataEncodingError, path: tuple[PathStep, ...]) -> DataEncodingError:
    """Prepend ``path`` to the error's path; returns the error."""
    return err.within(*path)


def put_failure(
    items: Sequence[tuple[Callable[[Any], None] | None, Any, tuple[PathStep, ...]]],
    exc: Exception,
) -> DataEncodingError | RecursionError:
    """The precise error of a fused write that failed: the first field whose
    check fails (else ``exc`` itself, a ``RecursionError`` included)."""
    for check, value, path in items:
        if check is None:
            continue
        try:
            check(value)
        except DataEncodingError as err:
            return at(err, path)
    if isinstance(exc, DataEncodingError | RecursionError):
        return exc
    return EncodeError("invalid_value", f"cannot write the fields: {exc}")


def short_read(
    buf: bytes,
    items: Sequence[tuple[int, str, Callable[[Any], Any] | None, tuple[PathStep, ...], str]],
    pos: int,
    end: int,
) -> DataEncodingError:
    """The error of a fused read that does not fit, as a field-by-field read
    would report it: the first field that is invalid or runs out.

    ``items`` are ``(width, struct code, unpack, path, what)``.
    """
    for width, code, unpack, path, what in items:
        if end - pos < width:
            return at(not_enough_data(pos, width, end, what), path)
        if unpack is not None and width:
            try:
                unpack(struct.unpack_from(">" + code, buf, pos)[0])
            except DataEncodingError as err:
                return at(err.shift(pos), path)
        pos += width
    return not_enough_data(pos, 0, end)


def unpack_failure(
    unpack: Callable[[Any], Any], raw: Any, offset: int, path: tuple[PathStep, ...]
) -> DataEncodingError:
    """The error ``unpack`` raises for ``raw`` (called when its guard failed)."""
    try:
        unpack(raw)
    except DataEncodingError as err:
        return at(err.shift(offset), path)
    return DecodeError("invalid_value", f"invalid value {raw!r}", offset=offset)


def tuple_expr(items: Sequence[str]) -> str:
    return "(" + "".join(f"{x}, " for x in items) + ")"


def _identifier(text: str) -> str:
    """``text`` as the start of a Python identifier: ASCII letters, digits and
    ``_`` only, leading underscores and digits dropped (``"<lambda>"`` ->
    ``"lambda"``, ``"1st key"`` -> ``"st_key"``)."""
    return re.sub(r"^[\d_]+", "", re.sub(r"\W|[^\x00-\x7f]", "_", text).strip("_"))


class Source:
    """A Python function being generated: its lines and the objects it names."""

    def __init__(self, env: dict[str, Any]) -> None:
        self.lines: list[str] = []
        self.env = env
        self.depth = 0
        self._count = 0
        self._names: dict[int, str] = {}

    def ref(self, obj: Any, stem: str | None = None) -> str:
        """A name for ``obj`` in the generated code (one per object): ``stem``,
        or what the object calls itself (``_not_enough_data``, ``_DecodeError``,
        ``_frozenset``), numbered when taken. Names of the environment start
        with ``_``; local variables never do."""
        name = self._names.get(id(obj))
        if name is None:
            own = getattr(obj, "__name__", None)
            base = "_" + _identifier(stem or (own if isinstance(own, str) else type(obj).__name__))
            name, n = base, 1
            while name in self.env:
                n += 1
                name = f"{base}_{n}"
            self.env[name] = obj
            self._names[id(obj)] = name
        return name

    def var(self, stem: str = "v") -> str:
        """A fresh local variable name: ``stem`` (a field's name, say, which
        may be any text) made an identifier, numbered."""
        self._count += 1
        return f"{_identifier(stem)[:24] or 'v'}_{self._count}"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self.line(header)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1

    def room(self) -> bool:
        """Whether a part may still be inlined (else it is called)."""
        return len(self.lines) < LINE_BUDGET

    def compile(self, name: str, label: str) -> Callable[..., Any]:
        """Compile the lines into the function ``name``. The source is
        registered in :mod:`linecache` under a file name that says what it is
        (``<data_encoding writer of obj(req('pid', int31), ...)>``: the same
        in every run, ``-2`` after it for a second one alive), so tracebacks
        and ``inspect.getsource`` show it, until the function dies (the
        entry goes at the next compile after that)."""
        code = "\n".join(self.lines) + "\n"
        filename = _file_name(label)
        exec(compile(code, filename, "exec"), self.env)
        fn: Callable[..., Any] = self.env[name]
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        # not popped by the finalizer itself: it may run in the middle of
        # linecache.checkcache(), whose loop then fails with a KeyError
        weakref.finalize(fn, _dead.append, filename)
        fn.__source__ = code  # type: ignore[attr-defined]  # kept for debugging
        return fn


def _file_name(label: str) -> str:
    """The file name of a function that compiles ``label``: ``<data_encoding
    label>``, or ``<data_encoding label-2>``... when a function alive has
    it (as cattrs names its generated code), so that a name says the same
    thing in every run; the names of the functions that died are free again."""
    with _naming:
        while _dead:  # the functions that died since the last compile
            dead = _dead.pop()
            _taken.discard(dead)
            linecache.cache.pop(dead, None)
        filename, n = f"<data_encoding {label}>", 1
        while filename in _taken:
            n += 1
            filename = f"<data_encoding {label}-{n}>"
        _taken.add(filename)
        return filename


_ADDRESS = re.compile(r" at 0x[0-9a-f]+")

_BOUNDARY = re.compile(r".*[ ,(\[]")


def shown(enc: Encoding[Any], width: int = 80) -> str:
    """The encoding, as its call, cut for a file name to ``width``
    characters or so after a space, comma or opening bracket (not inside a
    name), ``...`` saying where. An object's address, which a repr not
    ours may hold, is left out: it changes from run to run."""
    start, whole = repr_start(enc, width + 40)  # room for an address left out
    text = _ADDRESS.sub("", start)
    if whole and len(text) <= width:
        return text
    cut = _BOUNDARY.match(text, 0, width - 3)
    return (cut.group().rstrip() if cut else text[: width - 3]) + "..."
