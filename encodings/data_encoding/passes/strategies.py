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

from collections.abc import Callable
from functools import partial, singledispatch
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from ..compiling import built
from ..errors import DataEncodingError, DefinitionError, EncodeError, describe_value
from ..jsonvalue import RepeatedMembers
from ..tree.anyjson import Bson
from ..tree.core import Encoding
from ..tree.framing import HEADERS, CheckSize, DynamicSize
from ..tree.primitives import Bool, Float, Int, ZeroWidth
from ..tree.records import Obj, Tup
from ..tree.sequences import ListEncoding
from ..tree.strings import FixedBytes, RawBytes, text_of
from ..tree.unions import StringEnum, Union
from ..tree.wrappers import Conv, Mu, Splitted, Wrapper
from ..tree.zarith import Zarith
from .binary.rules import canonical
from .dispatch import takes_default
from .json.composites import json_checks

T = TypeVar("T")

__all__ = ["binary_values", "from_encoding"]


def from_encoding(e: Encoding[T]) -> SearchStrategy[T]:
    """A strategy of values ``e`` encodes, and that round-trip through its
    binary and JSON forms (built once, kept on ``e`` like its compiled pieces)."""
    return _values(e, True)


def binary_values(e: Encoding[T]) -> SearchStrategy[T]:
    """A strategy of values that round-trip through ``e``'s binary form (what
    a ``splitted`` draws for its binary side: its JSON form is another's)."""
    return _values(e, False)


def _values(e: Encoding[T], json: bool) -> SearchStrategy[T]:
    """``e``'s values; with ``json`` false, values of its binary form only
    (the binary side of a ``splitted``, whose JSON form is another's)."""
    key = "strategies.values" if json else "strategies.binary_values"
    return built(e, key, partial(_build, e, json))


@takes_default({})
@singledispatch
def _build(e: Encoding[Any], json: bool) -> SearchStrategy[Any]:
    raise NotImplementedError(f"no strategy for {type(e).__name__} (a user's encoding class?)")


# ------------------------------------------------------------------ leaves


@_build.register
def _zero_width_strategy(e: ZeroWidth, json: bool) -> SearchStrategy[Any]:
    return st.builds(lambda: e.atom.unpack(None))  # type: ignore[misc]


@_build.register
def _bool_strategy(_e: Bool, json: bool) -> SearchStrategy[bool]:
    return st.booleans()


@_build.register
def _int_strategy(e: Int, json: bool) -> SearchStrategy[int]:
    return st.integers(e.lo, e.hi)


@_build.register
def _float_strategy(e: Float, json: bool) -> SearchStrategy[float]:
    if e.lo is None:
        return st.floats(allow_nan=False, allow_infinity=False)
    return st.floats(e.lo, e.hi, allow_nan=False)


@_build.register
def _zarith_strategy(e: Zarith, json: bool) -> SearchStrategy[int]:
    bound = 2**256
    if e.natural:
        return st.integers(0, 127) | st.integers(0, bound)
    return st.integers(-64, 63) | st.integers(-bound, bound)


@_build.register
def _raw_bytes_strategy(e: RawBytes, json: bool) -> SearchStrategy[Any]:
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
def _fixed_bytes_strategy(e: FixedBytes, json: bool) -> SearchStrategy[Any]:
    """Fixed bytes read as a value of their own (a hash, a key: its atom's
    ``unpack`` makes it from any bytes of its width) draw the values they
    read; plain bytes and strings those of their header-less bytes."""
    raw: RawBytes = e.inner  # type: ignore[assignment]
    unpack = e.atom.unpack
    if unpack is None or raw.text:
        return _values(raw, json)
    return st.binary(min_size=e.atom.width, max_size=e.atom.width).map(unpack)


@_build.register
def _bson_strategy(_e: Bson, json: bool) -> SearchStrategy[Any]:
    # values that survive BSON unchanged: no array at the root
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**53) + 1, 2**53 - 1)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(st.characters(codec="utf-8"), max_size=8)
    )
    keys = st.text(st.characters(codec="utf-8", exclude_characters="\x00"), max_size=4)

    def objects(members: SearchStrategy[Any]) -> SearchStrategy[Any]:
        # some give a name twice, as real answers do (kept whole: RepeatedMembers)
        repeated = st.builds(
            _repeat_first, st.lists(st.tuples(keys, members), min_size=1, max_size=2), members
        )
        return st.dictionaries(keys, members, max_size=3) | repeated

    nested = st.recursive(
        scalars, lambda inner: st.lists(inner, max_size=3) | objects(inner), max_leaves=6
    )
    return scalars | objects(nested)


def _repeat_first(members: list[tuple[str, Any]], again: Any) -> RepeatedMembers:
    """These members and the first one's name once more, with ``again``."""
    return RepeatedMembers([*members, (members[0][0], again)])


@_build.register
def _string_enum_strategy(e: StringEnum, json: bool) -> SearchStrategy[Any]:
    return st.sampled_from(e.values)


# -------------------------------------------------------------- composites


@_build.register
def _obj_strategy(e: Obj, json: bool) -> SearchStrategy[dict[str, Any]]:
    pieces = []
    for p in e.parts:
        if p.mode == "splice":
            pieces.append(_values(p.enc, json))
        else:
            value = _values(p.enc, json)
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
def _tup_strategy(e: Tup, json: bool) -> SearchStrategy[tuple[Any, ...]]:
    pieces = [
        _values(p.enc, json) if p.mode == "splice" else _values(p.enc, json).map(lambda x: (x,))
        for p in e.parts
    ]
    return st.tuples(*pieces).map(lambda ts: tuple(x for t in ts for x in t))


@_build.register
def _list_strategy(e: ListEncoding, json: bool) -> SearchStrategy[list[Any]]:
    mode, arg = e.count_mode
    if mode == "exactly":
        return st.lists(_values(e.elt, json), min_size=arg, max_size=arg)
    cap = 6 if e.max_length is None else min(e.max_length, 6)
    return st.lists(_values(e.elt, json), max_size=cap)


@_build.register
def _union_strategy(e: Union, json: bool) -> SearchStrategy[Any]:
    # a case's values are those the writer writes with that case (an earlier
    # case may take some of them) and, with ``json``, that have a JSON form
    # of their own (an earlier case may read some of their JSON); nothing
    # else is filtered: a value that fails otherwise is a defect to report
    written_with = canonical(e)
    has_json = json and json_checks(e) is not None
    strategies = []
    for c in e.tagged:
        values = _values(c.enc, json)
        if written_with is not None and c.tag is not None:  # (always tagged)
            values = values.filter(_Named(f"written_with_case({c.tag})", written_with[c.tag]))
        if has_json:
            values = values.filter(_Named("has_own_json", partial(_has_own_json, e)))
        strategies.append(values)
    return st.one_of(strategies)


class _Named:
    """A function given to a strategy (a filter, a map), shown by a short
    name: a strategy's ``repr`` shows them, and the encoding each holds would
    take kilobytes."""

    __slots__ = ("fn", "name")

    def __init__(self, name: str, fn: Callable[[Any], Any]) -> None:
        self.name, self.fn = name, fn

    def __call__(self, value: Any) -> Any:
        return self.fn(value)

    def __repr__(self) -> str:
        return self.name


def _has_own_json(u: Union, value: Any) -> bool:
    """Whether ``u`` prints ``value``'s JSON (it refuses one that an earlier
    case would read back as another value)."""
    try:
        u.to_json(value)
    except EncodeError as err:
        if err.code == "ambiguous_json" and not err.path:
            return False
        raise
    return True


# ---------------------------------------------------------------- wrappers


@_build.register(Wrapper)
def _wrapper_strategy(e: Wrapper[Any], json: bool) -> SearchStrategy[Any]:
    return _values(e.inner, json)


@_build.register(DynamicSize)
def _dynamic_size_strategy(e: DynamicSize[Any], json: bool) -> SearchStrategy[Any]:
    largest, size_of = HEADERS[e.kind][2], e.inner._size_of
    return _values(e.inner, json).filter(lambda v: size_of(v) <= largest)


@_build.register(CheckSize)
def _check_size_strategy(e: CheckSize[Any], json: bool) -> SearchStrategy[Any]:
    limit, size_of = e.limit, e.inner._size_of
    return _values(e.inner, json).filter(lambda v: size_of(v) <= limit)


@_build.register(Conv)
def _conv_strategy(e: Conv[Any], json: bool) -> SearchStrategy[Any]:
    if e.values is not None:
        return e.values()
    # the wire side's values, through ``from_wire``: a wire value it refuses
    # (raises for) is not a value; one that does not come back through
    # ``to_wire`` is the user's to say (``values=``)
    return _values(e.inner, json).map(_Named("from_wire", partial(_from_wire, e))).filter(_is_value)


_REFUSED = object()


def _is_value(value: Any) -> bool:
    return value is not _REFUSED


def _from_wire(e: Conv[Any], wire: Any) -> Any:
    try:
        value = e.from_wire(wire)
    except RecursionError:
        raise
    except Exception:
        return _REFUSED
    try:
        back = e.from_wire(e.to_wire(value))
    except RecursionError:
        raise
    except Exception as exc:
        back = exc
    if back != value:
        raise _no_values(
            e,
            "conv",
            f"{describe_value(value)} (read from {describe_value(wire)}) comes back as "
            f"{describe_value(back)}",
        )
    return value


def _no_values(e: Encoding[Any], combinator: str, why: str) -> DefinitionError:
    return DefinitionError(
        f"{e!r}: {why}; give the {combinator} its values: "
        f"{combinator}(..., values=<a strategy factory>)"
    )


@_build.register
def _mu_strategy(e: Mu, json: bool) -> SearchStrategy[Any]:
    return st.deferred(lambda: _values(e.body, json))


@_build.register(Splitted)
def _splitted_strategy(e: Splitted[Any], json: bool) -> SearchStrategy[Any]:
    if e.values is not None:
        return e.values()
    # the binary side's values, which the JSON side must take as they are
    values = binary_values(e.binary)
    return values.map(_Named("json_side_takes", partial(_json_takes, e))) if json else values


def _json_takes(e: Splitted[Any], value: Any) -> Any:
    try:
        back = e.from_json(e.to_json(value))
    except DataEncodingError as err:
        back = err
    if back != value:
        raise _no_values(
            e,
            "splitted",
            f"its JSON side reads {describe_value(value)} of its binary side as "
            f"{describe_value(back)}",
        )
    return value
