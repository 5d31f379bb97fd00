"""Transformations: ``conv``, ``def_``, ``mu``, ``delayed`` and ``splitted``.

None of them adds bytes or JSON of its own:

* ``conv(to_wire, from_wire, e)``: values of another type, mapped to and from
  ``e``'s values (a user function that raises becomes an :class:`EncodeError`
  or :class:`DecodeError` with code ``user_function``);
* ``def_(id, e, title=, description=)``: ``e``, named ``id`` in schemas and
  error messages;
* ``mu(name, lambda self: body)``: a recursive encoding; ``self`` stands for
  the whole inside ``body``;
* ``delayed(f)``: ``f()``, called once, the first time the encoding is needed;
* ``splitted(json=a, binary=b)``: ``a``'s JSON form with ``b``'s binary form.

>>> from data_encoding import obj, req, opt, uint8
>>> chain = mu("chain", lambda self: obj(req("v", uint8), opt("next", self)))
>>> chain.encode({"v": 1, "next": {"v": 2, "next": None}}).hex()
'01ff0200'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from ..compiling import compiled
from ..errors import DataEncodingError, DecodeError, EncodeError, JsonError
from ..jsonvalue import JsonValue
from .core import (
    Encoding,
    combinator,
    expect,
    expect_callable,
    expect_encoding,
    identity,
)
from .size import DYNAMIC, VARIABLE, Size

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


T = TypeVar("T")
U = TypeVar("U")


class Wrapper(Encoding[T]):
    """An encoding of one ``inner`` encoding, which it delegates its JSON form
    and cheap checks to: the base of these transformations and of the size
    wrappers (:mod:`.framing`)."""

    inner: Encoding[T]

    def _object_fields(self) -> frozenset[str] | None:
        return self.inner._object_fields()

    def _tuple_arity(self) -> int | None:
        return self.inner._tuple_arity()


def refusal(
    exc: Exception,
    cls: type[EncodeError] | type[DecodeError] | type[JsonError],
    what: str = "a conversion function",
) -> DataEncodingError:
    """The ``cls`` error of a user's function (``what``) that raised ``exc``:
    one of ours recast (:meth:`~DataEncodingError.recast`), without its
    offset (it counted within what the function parsed, not the input: the
    caller places the error at the value), any other a ``user_function``
    error. (Let a ``RecursionError`` through: the depth limit reports it.)"""
    if isinstance(exc, DataEncodingError):
        err = exc.recast(cls)
        err.offset = None
        return err
    return cls("user_function", f"{what} failed: {type(exc).__name__}: {exc}")


class Guarded:
    """A user's predicate kept on an encoding (a case's ``match`` or
    ``json_match``, a ``matching`` union's function), whose failure is the
    library's error: its :func:`refusal` as a ``cls``. It shows, compares
    and pickles as the function it guards."""

    __slots__ = ("cls", "fn", "what")

    def __init__(
        self,
        fn: Callable[[Any], Any],
        cls: type[EncodeError] | type[DecodeError] | type[JsonError],
        what: str,
    ) -> None:
        self.fn, self.cls, self.what = fn, cls, what

    @property
    def __wrapped__(self) -> Callable[[Any], Any]:  # (a call's text shows the function)
        return self.fn

    def __call__(self, value: Any) -> Any:
        try:
            return self.fn(value)
        except RecursionError:
            raise
        except Exception as exc:
            raise refusal(exc, self.cls, self.what) from None

    def __repr__(self) -> str:
        return repr(self.fn)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Guarded) and (self.fn, self.cls, self.what) == (
            other.fn,
            other.cls,
            other.what,
        )

    def __hash__(self) -> int:
        return hash((self.fn, self.cls, self.what))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Guarded, (self.fn, self.cls, self.what))


def guarded(
    fn: Callable[[Any], Any],
    cls: type[EncodeError] | type[DecodeError] | type[JsonError],
    what: str,
) -> Guarded:
    """``fn``, guarded (once: a guarded function is kept as it is)."""
    return fn if isinstance(fn, Guarded) else Guarded(fn, cls, what)


def converted_at(from_wire: Callable[[Any], Any], wire: Any, pos: int) -> Any:
    """``from_wire(wire)``, a value read at ``pos``: its refusal placed there
    (a ``conv``'s reader, generated or not, strict or lenient)."""
    try:
        return from_wire(wire)
    except RecursionError:
        raise
    except Exception as exc:
        raise refusal(exc, DecodeError).at(pos) from None


def guard(
    fn: Callable[[Any], Any], cls: type[EncodeError] | type[DecodeError] | type[JsonError]
) -> Callable[[Any], Any]:
    """``fn`` with any exception but recursion turned into its :func:`refusal`
    (a closure, for the codecs' conversions: called per value, it costs
    half what a :class:`Guarded`'s call does, which pickles and shows as
    its function for the predicates kept on an encoding)."""

    def guarded(value: Any) -> Any:
        try:
            return fn(value)
        except RecursionError:
            raise
        except Exception as exc:
            raise refusal(exc, cls) from None

    return guarded


class Conv(Wrapper[T]):
    def __init__(
        self,
        to_wire: Callable[[T], Any],
        from_wire: Callable[[Any], T],
        inner: Encoding[Any],
        values: Callable[[], SearchStrategy[T]] | None = None,
    ):
        self.to_wire = expect_callable(to_wire, "conv", "to_wire")
        self.from_wire = expect_callable(from_wire, "conv", "from_wire")
        self.inner = expect_encoding(inner, "conv")
        if values is not None:
            expect_callable(values, "conv", "values")
        self.values = values
        self.size = inner.size
        self.nullable = inner.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        return (Conv, (self.to_wire, self.from_wire, self.inner, self.values))


@combinator
def conv(
    to_wire: Callable[[T], U],
    from_wire: Callable[[U], T],
    e: Encoding[U],
    *,
    values: Callable[[], SearchStrategy[T]] | None = None,
) -> Conv[T]:
    """Values of type ``T`` written as ``e``'s values: ``to_wire`` maps them there and
    ``from_wire`` back.

    ``values``, when given, is called (once, lazily, so that Hypothesis stays
    optional) for the Hypothesis strategy of ``T`` values; without it the
    strategy is ``e``'s mapped through ``from_wire``, which suits only a
    ``from_wire`` that takes every ``e`` value.
    """
    return Conv(to_wire, from_wire, e, values)


class Transparent(Wrapper[T]):
    """A wrapper whose binary form and values are exactly ``inner``'s."""


class Def(Transparent[T]):
    def __init__(
        self, id: str, inner: Encoding[T], title: str | None, description: str | None
    ) -> None:
        expect(id, str, "def_", "an id is a str")
        self.id = id
        expect_encoding(inner, f"def_({id!r})")
        self.title = title
        self.description = description
        self.inner = inner._labelled(id)
        if self.inner is not inner:  # a copy that names its errors: it prints as ``inner``
            self.inner._call = inner._call
        self.size = inner.size
        self.nullable = inner.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        return (Def, (self.id, self.inner, self.title, self.description))


@combinator
def def_(
    id: str, e: Encoding[T], *, title: str | None = None, description: str | None = None
) -> Def[T]:
    """``e``, named ``id`` (schemas list it under that name; errors mention it)."""
    return Def(id, e, title, description)


class Delayed(Transparent[T]):
    def __init__(self, f: Callable[[], Encoding[T]]) -> None:
        self.f = expect_callable(f, "delayed", "the function")

    @compiled
    def inner(self) -> Encoding[T]:
        return expect_encoding(self.f(), "delayed")

    def _rebuild(self) -> tuple[Any, ...]:
        # the encoding it stands for, not its function (often a lambda)
        return (Delayed, (partial(identity, self.inner),))

    @property
    def size(self) -> Size:  # type: ignore[override]
        return self.inner.size

    @property
    def nullable(self) -> bool:  # type: ignore[override]
        return self.inner.nullable

    # Not inlined: compiled on first use, when ``f`` has been called.


@combinator
def delayed(f: Callable[[], Encoding[T]]) -> Delayed[T]:
    """The encoding ``f()`` returns, built the first time it is needed."""
    return Delayed(f)


class Mu(Encoding[Any]):
    """A recursive encoding: ``fix(self)`` is its body.

    Each compiled function is published before the body's is compiled
    (:func:`~data_encoding.depth.knot`), so that the body's references to
    ``self`` find it; and each call is one level of nesting, counted
    against :func:`~data_encoding.depth.max_depth`.
    (Only ``mu`` recurses: a ``delayed`` encoding cannot refer to itself, since
    records and lists read their parts' sizes when they are built.)
    """

    def __init__(
        self,
        name: str,
        fix: Callable[[Encoding[Any]], Encoding[Any]],
        title: str | None,
        description: str | None,
    ) -> None:
        expect(name, str, "mu", "a name is a str")
        self.name = name
        self.fix = expect_callable(fix, f"mu({name!r})", "the body function")
        self.title = title
        self.description = description
        # As the reference: assume a dynamic size; if the body then turns out
        # variable, rebuild it knowing that (so its layout checks see the truth).
        self.size = DYNAMIC
        body = expect_encoding(fix(self), f"mu({name!r})")
        if body.size is VARIABLE:
            self.size = VARIABLE
            body = expect_encoding(fix(self), f"mu({name!r})")
        self.body = body
        self.nullable = body.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        # the body goes as state: it refers to the mu, which pickle builds
        # first, from its size class and nullability (the body's combinators
        # read them when built again); its function, often a lambda, is not
        # needed once the body exists
        args = (self.name, self.title, self.description, self.size, self.nullable)
        return (_mu_shell, args, {"body": self.body})

    def _object_fields(self) -> frozenset[str] | None:
        body = self.__dict__.get("body")  # None while the body is being built
        return None if body is None else body._object_fields()

    def _tuple_arity(self) -> int | None:
        body = self.__dict__.get("body")
        return None if body is None else body._tuple_arity()


def _mu_shell(
    name: str, title: str | None, description: str | None, size: Size, nullable: bool
) -> Mu:
    """A mu without its body yet: pickle sets the body as the mu's state."""
    shell: Mu = Mu.__new__(Mu)
    shell.name, shell.title, shell.description = name, title, description
    shell.size, shell.nullable = size, nullable
    shell.fix = identity  # not called again: the body is built
    return shell


@combinator
def mu(
    name: str,
    fix: Callable[[Encoding[Any]], Encoding[Any]],
    *,
    title: str | None = None,
    description: str | None = None,
) -> Mu:
    """A recursive encoding named ``name``: ``fix`` receives the encoding itself."""
    return Mu(name, fix, title, description)


class Splitted(Encoding[T]):
    """One encoding's JSON form with another's binary form: see :func:`splitted`."""

    def __init__(
        self,
        json: Encoding[T],
        binary: Encoding[T],
        values: Callable[[], SearchStrategy[T]] | None = None,
    ) -> None:
        self.json = expect_encoding(json, "splitted")
        self.binary = expect_encoding(binary, "splitted")
        if values is not None:
            expect_callable(values, "splitted", "values")
        self.values = values
        self.size = binary.size
        self.nullable = json.nullable

    def _rebuild(self) -> tuple[Any, ...]:
        return (Splitted, (self.json, self.binary, self.values))


class DirectJson(Splitted[T]):
    """A :class:`Splitted` whose JSON conversion is two plain functions, for
    the node's primitives whose JSON form is a union or a ``conv`` chain
    (timestamps, Base58Check hashes): one call instead of a union's trials
    and the wrappers' layers. ``json`` still describes the form (schemas
    come from it) and the functions must read and print the same values as
    it (their errors may be more precise); the tests compare them."""

    def __init__(
        self,
        json: Encoding[T],
        binary: Encoding[T],
        to_json: Callable[[Any], JsonValue],
        from_json: Callable[[JsonValue], Any],
    ) -> None:
        super().__init__(json, binary)
        self.direct_to_json = to_json
        self.direct_from_json = from_json

    def _rebuild(self) -> tuple[Any, ...]:
        args = (self.json, self.binary, self.direct_to_json, self.direct_from_json)
        return (DirectJson, args)


@combinator
def splitted(
    *,
    json: Encoding[T],
    binary: Encoding[T],
    values: Callable[[], SearchStrategy[T]] | None = None,
) -> Splitted[T]:
    """``json``'s JSON form with ``binary``'s binary form (they share values).

    ``values``, when given, is called (once, lazily) for the Hypothesis
    strategy of the values; without it the strategy is ``binary``'s, which
    suits only a ``json`` that reads back every ``binary`` value.
    """
    return Splitted(json, binary, values)
