"""The strategies pass: a Hypothesis strategy of valid values for any encoding.

One function per node type, chosen by :func:`functools.singledispatch` on
the encoding's class (a subclass takes its parent's unless it registers its
own); the encodings know nothing of this module, which needs Hypothesis
(``pip install 'data-encoding[hypothesis]'``) and is imported only when a
strategy is asked for. Each encoding's strategy is built once and kept on it.

>>> from data_encoding import uint8, string_enum
>>> from_encoding(uint8), from_encoding(string_enum(["a", "b"]))
(integers(min_value=0, max_value=255), sampled_from(['a', 'b']))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial, singledispatch
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ..compiling import built
from ..errors import DataEncodingError
from ..node.hashes import HashBytes
from ..tree.anyjson import Bson
from ..tree.core import Encoding, Predicate
from ..tree.framing import HEADERS, CheckSize, DynamicSize, Wrapper
from ..tree.primitives import Bool, Float, Int, ZeroWidth
from ..tree.records import Obj, Tup
from ..tree.sequences import ListEncoding
from ..tree.strings import RawBytes, text_of
from ..tree.unions import StringEnum, Union
from ..tree.wrappers import Conv, Mu, Splitted
from ..tree.zarith import Zarith
from .choosing import value_selectors

T = TypeVar("T")

__all__ = ["from_encoding"]


def from_encoding(e: Encoding[T]) -> SearchStrategy[T]:
    """A strategy of values ``e`` encodes, and that round-trip through its
    binary and JSON forms (built once, kept on ``e`` like its compiled pieces)."""
    return built(e, "strategies.values", partial(_build, e))


@singledispatch
def _build(e: Encoding[Any]) -> SearchStrategy[Any]:
    raise NotImplementedError(f"no strategy for {type(e).__name__} (a user's encoding class?)")


# ------------------------------------------------------------------ leaves


@_build.register
def _zero_width(e: ZeroWidth) -> SearchStrategy[Any]:
    return st.builds(lambda: e.atom.unpack(None))  # type: ignore[misc]


@_build.register
def _bool(_e: Bool) -> SearchStrategy[bool]:
    return st.booleans()


@_build.register
def _int(e: Int) -> SearchStrategy[int]:
    return st.integers(e.lo, e.hi)


@_build.register
def _float(e: Float) -> SearchStrategy[float]:
    if e.lo is None:
        return st.floats(allow_nan=False, allow_infinity=False)
    return st.floats(e.lo, e.hi, allow_nan=False)


@_build.register
def _zarith(e: Zarith) -> SearchStrategy[int]:
    bound = 2**256
    if e.natural:
        return st.integers(0, 127) | st.integers(0, bound)
    return st.integers(-64, 63) | st.integers(-bound, bound)


@_build.register
def _raw_bytes(e: RawBytes) -> SearchStrategy[Any]:
    limit = e.exact_length if e.exact_length is not None else e.plain_json_limit
    low = e.exact_length or 0
    high = limit if limit is not None else 64
    if not e.text:
        return st.binary(min_size=low, max_size=high)
    utf8 = st.text(st.characters(codec="utf-8"), max_size=high).filter(
        lambda s: low <= len(s.encode()) <= high
    )
    if e.plain_json_limit is not None:
        return utf8
    invalid = st.binary(min_size=low, max_size=high).filter(lambda b: type(text_of(b)) is bytes)
    return utf8 | invalid


@_build.register
def _hash(e: HashBytes) -> SearchStrategy[Any]:
    size = e.hash_type.size
    return st.binary(min_size=size, max_size=size).map(e.hash_type)


@_build.register
def _bson(_e: Bson) -> SearchStrategy[Any]:
    # values that survive BSON unchanged: no array at the root
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**53) + 1, 2**53 - 1)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(st.characters(codec="utf-8"), max_size=8)
    )
    keys = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=4)
    nested = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
        max_leaves=6,
    )
    return scalars | st.dictionaries(keys, nested, max_size=3)


@_build.register
def _string_enum(e: StringEnum) -> SearchStrategy[Any]:
    return st.sampled_from(e.values)


# -------------------------------------------------------------- composites


@_build.register
def _obj(e: Obj) -> SearchStrategy[dict[str, Any]]:
    pieces = []
    for p in e.parts:
        if p.mode == "splice":
            pieces.append(from_encoding(p.enc))
        else:
            value = from_encoding(p.enc)
            if p.mode == "varopt":  # a present value must take bytes
                value = value.filter(_takes_bytes(p.enc))
            if p.mode in ("opt", "varopt"):
                value = st.none() | value
            pieces.append(st.fixed_dictionaries({p.key: value}))

    def merge(dicts: tuple[dict[str, Any], ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for d in dicts:
            out.update(d)
        return out

    return st.tuples(*pieces).map(merge)


def _takes_bytes(e: Encoding[Any]) -> Callable[[Any], bool]:
    return lambda v: e.length(v) > 0


@_build.register
def _tup(e: Tup) -> SearchStrategy[tuple[Any, ...]]:
    pieces = [
        from_encoding(p.enc) if p.mode == "splice" else from_encoding(p.enc).map(lambda x: (x,))
        for p in e.parts
    ]
    return st.tuples(*pieces).map(lambda ts: tuple(x for t in ts for x in t))


@_build.register
def _list(e: ListEncoding) -> SearchStrategy[list[Any]]:
    mode, arg = e.count_mode
    if mode == "exactly":
        return st.lists(from_encoding(e.elt), min_size=arg, max_size=arg)
    cap = 6 if e.max_length is None else min(e.max_length, 6)
    return st.lists(from_encoding(e.elt), max_size=cap)


@_build.register
def _union(e: Union) -> SearchStrategy[Any]:
    # values a case's selector gives to an earlier case would not round-trip
    # through that case: keep, for each case, only the values it wins
    tagged = [
        (c, matches)
        for c, (matches, _) in zip(e.cases, value_selectors(e), strict=True)
        if c.tag is not None
    ]
    selectors = [matches for _, matches in tagged]
    strategies = [
        from_encoding(c.enc).filter(_wins(selectors[i], selectors[:i]))
        for i, (c, _) in enumerate(tagged)
    ]

    # and, in JSON, an earlier case may claim a value's JSON ("-1" of a z
    # case read as a string case): such values have no faithful JSON form
    def json_faithful(value: Any) -> bool:
        try:
            return bool(e.from_json(e.to_json(value)) == value)
        except DataEncodingError:
            return False

    return st.one_of(strategies).filter(json_faithful)


def _wins(own: Predicate, earlier: Sequence[Predicate]) -> Callable[[Any], bool]:
    """Whether a case, and no case before it, selects a value."""
    return lambda v: bool(own(v)) and not any(p(v) for p in earlier)


# ---------------------------------------------------------------- wrappers


@_build.register(Wrapper)
def _wrapper(e: Wrapper[Any]) -> SearchStrategy[Any]:
    return from_encoding(e.inner)


@_build.register(DynamicSize)
def _dynamic_size(e: DynamicSize[Any]) -> SearchStrategy[Any]:
    largest, size_of = HEADERS[e.kind][2], e.inner._size_of
    return from_encoding(e.inner).filter(lambda v: size_of(v) <= largest)


@_build.register(CheckSize)
def _check_size(e: CheckSize[Any]) -> SearchStrategy[Any]:
    limit, size_of = e.limit, e.inner._size_of
    return from_encoding(e.inner).filter(lambda v: size_of(v) <= limit)


@_build.register(Conv)
def _conv(e: Conv[Any]) -> SearchStrategy[Any]:
    if e.values is not None:
        return e.values()
    return from_encoding(e.inner).map(e.from_wire)


@_build.register
def _mu(e: Mu) -> SearchStrategy[Any]:
    return st.deferred(lambda: from_encoding(e.body))


@_build.register(Splitted)
def _splitted(e: Splitted[Any]) -> SearchStrategy[Any]:
    return from_encoding(e.binary)
