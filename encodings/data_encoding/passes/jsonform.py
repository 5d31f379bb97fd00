"""The JSON pass: every node's ``to_json`` and ``from_json``.

Each converter has two variants. The *exact* one (:mod:`.jsonexact`) is
built from closures, one per node, and is the one place JSON errors are
built, with their paths. The *fast* one is generated code (:mod:`.jsongen`)
for the composites whose parts can be emitted into one function; it checks
everything the exact one checks but may raise anything on bad input.
:func:`to_json_of` runs the fast one and, when it fails, the exact one from
the start: success costs one pass, and an error two.

Every piece is built once per node and kept on it
(:func:`~data_encoding.compiling.built`), under keys of this pass.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import singledispatch
from typing import Any

from ..compiling import built
from ..tree.anyjson import Bson
from ..tree.core import Encoding, FromJson, ToJson
from ..tree.leaves import AtomEncoding
from ..tree.records import Parts
from ..tree.sequences import ListEncoding
from ..tree.strings import RawBytes
from ..tree.unions import Union
from ..tree.wrappers import Conv, DirectJson, Mu
from ..tree.zarith import Zarith
from .dispatch import takes_default
from .emit import shown
from .jsonexact import Via, exact_from, exact_to, same_converters
from .jsongen import JGen, inline_json
from .transparent import emitted_for

__all__ = [
    "exact_from_json",
    "exact_to_json",
    "fast_from_json",
    "fast_to_json",
    "from_json_of",
    "to_json_of",
]


# ------------------------------------------------------------ the pieces


def exact_to_json(e: Encoding[Any]) -> ToJson:
    """``e``'s exact printer: the precise error, or the JSON value."""
    return built(e, EXACT.to_key, lambda: exact_to(e, EXACT))


def exact_from_json(e: Encoding[Any]) -> FromJson:
    """``e``'s exact reader."""
    return built(e, EXACT.from_key, lambda: exact_from(e, EXACT))


def fast_to_json(e: Encoding[Any]) -> ToJson:
    """``e``'s fast printer: generated when ``e`` emits code, else its exact
    printer over its parts' fast ones (a leaf has only its exact one)."""

    def build() -> ToJson:
        code = inline_json(e) if _composite(e) else None
        if code is not None:
            return _compile(e, "to_json", "v", code.to)
        return exact_to(e, FAST) if _composite(e) else exact_to_json(e)

    return built(e, FAST.to_key, build)


def fast_from_json(e: Encoding[Any]) -> FromJson:
    """``e``'s fast reader (as :func:`fast_to_json`)."""

    def build() -> FromJson:
        code = inline_json(e) if _composite(e) else None
        if code is not None and code.from_ is not None:
            return _compile(e, "from_json", "j", code.from_)
        return exact_from(e, FAST) if _composite(e) else exact_from_json(e)

    return built(e, FAST.from_key, build)


def to_json_of(e: Encoding[Any]) -> ToJson:
    """What ``e.to_json`` runs: the fast printer, then the exact one if it failed."""
    return _first_fast(fast_to_json(e), exact_to_json(e))


def from_json_of(e: Encoding[Any]) -> FromJson:
    """What ``e.from_json`` runs (as :func:`to_json_of`)."""
    return _first_fast(fast_from_json(e), exact_from_json(e))


def _first_fast(fast: Callable[[Any], Any], exact: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``fast``, and on any failure ``exact`` from the start (for its precise error)."""
    if fast is exact:
        return exact

    def convert(value: Any) -> Any:
        try:
            return fast(value)
        except Exception:
            return exact(value)

    return convert


EXACT = Via("json.exact_to", "json.exact_from", exact_to_json, exact_from_json, then=None)
FAST = Via("json.fast_to", "json.fast_from", fast_to_json, fast_from_json, then=EXACT)


@takes_default(
    {
        "a leaf: its converters are its own": (AtomEncoding, RawBytes, Zarith, Bson),
        "its converters are its two functions": (DirectJson,),
    },
    through="converters",
)
@singledispatch
def _composite(e: Encoding[Any]) -> bool:
    """Whether ``e``'s converters are built from its parts' (so that its fast
    variant may differ from its exact one): by default, those of a wrapper
    whose converters are another node's."""
    return same_converters(e) is not None


@_composite.register(Parts)
@_composite.register(ListEncoding)
@_composite.register(Union)
@_composite.register(Mu)
@_composite.register(Conv)
def _parts_composite(e: Encoding[Any]) -> bool:
    # records, lists, unions, recursion and conversions: their parts' converters
    return True


# ------------------------------------------------------------ generated code


def emit_to_json(e: Encoding[Any], g: JGen, v: str) -> str:
    """Emit into ``g`` code that converts variable ``v`` to JSON (inline when
    possible, else a call of ``e``'s fast printer); return an expression of
    the result. The code may raise anything on a bad value."""
    e = emitted_for(e, same_converters)
    code = inline_json(e)
    if code is not None and g.room():
        return code.to(g, v)
    return f"{g.ref(fast_to_json(e), 'to_json')}({v})"


def emit_from_json(e: Encoding[Any], g: JGen, j: str) -> str:
    """Like :func:`emit_to_json`, from the JSON value in variable ``j``."""
    e = emitted_for(e, same_converters)
    code = inline_json(e)
    if code is not None and code.from_ is not None and g.room():
        return code.from_(g, j)
    return f"{g.ref(fast_from_json(e), 'from_json')}({j})"


def _compile(
    e: Encoding[Any], name: str, arg: str, code: Callable[[JGen, str], str]
) -> Callable[[Any], Any]:
    """``e``'s ``code`` as a function ``name(arg)`` of its own."""
    g = JGen(emit_to_json, emit_from_json)
    with g.block(f"def {name}({arg}):"):
        g.line(f"return {code(g, arg)}")
    return g.compile(name, f"{name} of {shown(e)}")
