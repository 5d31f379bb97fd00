"""Static types for records: an ``obj`` typed with a ``TypedDict``.

Values stay plain dicts (nothing is converted, nothing costs at run time);
only the checker sees the type, so ``mypy --strict`` catches a misspelt key
or a missing required field in code that builds or reads records.

:func:`typed` checks, when the encoding is built, that the ``TypedDict``
says what the record does: its required keys are the ``req`` and ``dft``
fields (always in a decoded value), its ``NotRequired`` keys the ``opt`` and
``varopt`` fields (``None`` or absent when missing).

>>> from typing import NotRequired, TypedDict
>>> from data_encoding import obj, opt, req, string, uint16
>>> class Point(TypedDict):
...     id: int
...     name: NotRequired[str | None]
>>> POINT = typed(Point, obj(req("id", uint16), opt("name", string)))
>>> POINT.decode(bytes.fromhex("000700"))
{'id': 7, 'name': None}
>>> typed(Point, obj(req("id", uint16), req("name", string)))
Traceback (most recent call last):
...
data_encoding.errors.DefinitionError: typed(Point): 'name' is required in the record but ...
"""

from __future__ import annotations

from typing import Any, NotRequired, Required, TypeVar, cast, get_origin, get_type_hints

from ..errors import DefinitionError
from .core import Encoding
from .records import Obj
from .wrappers import Def

__all__ = ["typed"]

T = TypeVar("T")


def _record_keys(e: Encoding[Any], where: str) -> tuple[frozenset[str], frozenset[str]]:
    """The required and the optional keys of record ``e``'s values."""
    while isinstance(e, Def):  # a name changes no key
        e = e.inner
    if not isinstance(e, Obj):
        raise DefinitionError(f"{where}: expected a record (obj or merge_objs), got {e!r}")
    required: set[str] = set()
    optional: set[str] = set()
    for p in e.parts:
        if p.mode == "splice":
            raise DefinitionError(
                f"{where}: the record merges a union (keys {sorted(p.keys)}), whose keys "
                "depend on the case: type each case's record instead"
            )
        (optional if p.mode in ("opt", "varopt") else required).add(str(p.key))
    return frozenset(required), frozenset(optional)


def _declared_keys(td: object, where: str) -> tuple[frozenset[str], frozenset[str]]:
    """A TypedDict's required and ``NotRequired`` keys.

    ``__required_keys__`` alone is wrong on Python 3.11 in a module with
    postponed annotations (``NotRequired`` is then a string it does not
    read), so the qualifiers are read from the evaluated hints too.
    """
    required = getattr(td, "__required_keys__", None)
    optional = getattr(td, "__optional_keys__", None)
    if required is None or optional is None:
        raise DefinitionError(f"{where}: expected a TypedDict class, got {td!r}")
    required, optional = set(required), set(optional)
    try:
        hints = get_type_hints(td, include_extras=True)
    except NameError:  # a name imported for the checker only: trust the class
        hints = {}
    for key, hint in hints.items():
        qualifier = get_origin(hint)
        if qualifier is NotRequired:
            required.discard(key)
            optional.add(key)
        elif qualifier is Required:
            optional.discard(key)
            required.add(key)
    return frozenset(required), frozenset(optional)


def typed(value_type: type[T], e: Encoding[Any]) -> Encoding[T]:
    """``e`` (the same object), typed as an encoding of ``value_type`` values.

    ``value_type`` is a ``TypedDict`` whose keys and optionality are those of
    record ``e``'s fields (:class:`DefinitionError` otherwise).
    """
    where = f"typed({getattr(value_type, '__name__', value_type)})"
    declared_required, declared_optional = _declared_keys(value_type, where)
    required, optional = _record_keys(e, where)
    for key in sorted(required | optional | declared_required | declared_optional):
        if key not in required | optional:
            raise DefinitionError(f"{where}: {key!r} is in the TypedDict but not in the record")
        if key not in declared_required | declared_optional:
            raise DefinitionError(f"{where}: {key!r} is in the record but not in the TypedDict")
        if (key in required) != (key in declared_required):
            word, other = (
                ("required", "NotRequired") if key in required else ("optional", "required")
            )
            raise DefinitionError(
                f"{where}: {key!r} is {word} in the record but {other} in the TypedDict"
            )
    return cast(Encoding[T], e)
