"""Generated JSON converters: the fast variant of ``to_json`` and ``from_json``.

A record, tuple, list, union or option compiles its JSON conversion into one
Python function, its parts emitting their code into it (as the binary
generator of :mod:`data_encoding.emit` does): a record becomes a dict display
of its members' conversions, a union an ``if`` chain on its constant member,
an integer a type and range test, so that converting ``{uid, state: union,
parent: option}`` costs one function call, not one per part.

The generated code checks everything the exact converters (the closures each
encoding builds with :data:`~data_encoding.core.EXACT`) check, but says
nothing about what is wrong: on any failure it raises (:class:`Bail`, or
whatever a converter it calls raised). ``Encoding._to_json`` then runs the
exact converter from the start, which raises the precise error with its path.
So success pays for no path and no message, and a failure costs one more
pass. Parts that are not inlined are called through their own fast variant,
so that the exact pass, not a cascade of retries, is the only rerun.

The rule that keeps both variants in step: the fast one accepts exactly the
values the exact one accepts and returns an equal result, or bails. It may
bail on valid but unusual input (a ``dict`` subclass, say); the exact
variant then converts it. ``tests/test_jsongen.py`` compares both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .emit import Source, shown

if TYPE_CHECKING:
    from .codegen import Part
    from .core import Encoding, FromJson, ToJson


class Bail(Exception):
    """The generated converter gives up: the exact one will say why."""


class JGen(Source):
    """A JSON converter being generated."""

    def __init__(self) -> None:
        super().__init__({"_Bail": Bail})
        #: variables known to hold exactly a ``dict`` (a union chose the case
        #: by a member), with the members known to equal a constant
        self.dicts: dict[str, dict[str, str]] = {}

    def bail_if(self, condition: str) -> None:
        self.line(f"if {condition}: raise _Bail")

    def bind(self, expr: str, prefix: str = "json") -> str:
        """``expr`` in a variable (itself when it already is one)."""
        if expr.isidentifier():
            return expr
        name = self.var(prefix)
        self.line(f"{name} = {expr}")
        return name

    def each(self, items: str, convert: Callable[[str], str]) -> str:
        """A list of ``convert`` applied to every element of list ``items``: a
        comprehension when the conversion is one expression, else a loop."""
        start = len(self.lines)
        out, x = self.var("items"), self.var("item")
        self.line(f"{out} = []")
        with self.block(f"for {x} in {items}:"):
            body = len(self.lines)
            element = convert(x)
            if len(self.lines) == body:
                del self.lines[start:]
                return f"[{element} for {x} in {items}]"
            self.line(f"{out}.append({element})")
        return out


def compile_to_json(enc: Encoding[Any]) -> ToJson:
    """``enc``'s fast ``to_json``: its inline form as a function of its own."""
    g = JGen()
    with g.block("def to_json(v):"):
        g.line(f"return {enc._inline_to_json(g, 'v')}")
    return g.compile("to_json", f"to_json of {shown(enc)}")


def compile_from_json(enc: Encoding[Any]) -> FromJson:
    """``enc``'s fast ``from_json``: its inline form as a function of its own."""
    g = JGen()
    with g.block("def from_json(j):"):
        g.line(f"return {enc._inline_from_json(g, 'j')}")
    return g.compile("from_json", f"from_json of {shown(enc)}")


# ------------------------------------------------------------ records and tuples


def _known_constant(g: JGen, v: str, p: Part) -> str | None:
    """The literal of member ``p`` of dict ``v`` when a union already chose
    the case by it (its value is known to be that constant)."""
    constant = getattr(p.enc, "constant", None)
    if p.mode == "req" and constant is not None and g.dicts.get(v, {}).get(str(p.key)) == constant:
        return repr(constant)
    return None


def _fetch_members(g: JGen, parts: Sequence[Part], v: str, defaults: bool) -> list[str | None]:
    """Read the members of dict ``v`` into variables and check that it has no
    other key; an absent required member raises ``KeyError``. With
    ``defaults``, optional members are read too (``None`` or the default when
    absent); without, their variables are ``None`` in the result."""
    if v not in g.dicts:
        g.bail_if(f"type({v}) is not dict")
    names: list[str | None] = []
    optional: list[str] = []
    required = 0
    for p in parts:
        if p.mode == "req":
            required += 1
            if _known_constant(g, v, p) is not None:
                names.append(None)
                continue
        else:
            optional.append(f"({p.key!r} in {v})")
            if not defaults:
                names.append(None)
                continue
        x = g.var(str(p.key))
        if p.mode == "req":
            g.line(f"{x} = {v}[{p.key!r}]")
        elif p.mode == "dft":
            g.line(f"{x} = {v}.get({p.key!r}, {g.ref(p.default, 'default')})")
        else:
            g.line(f"{x} = {v}.get({p.key!r})")
        names.append(x)
    g.bail_if(f"len({v}) > {' + '.join([str(required), *optional])}")
    return names


def record_to_json(g: JGen, parts: Sequence[Part], v: str) -> str:
    """A record's JSON object: absent optional members and members equal to
    their default are left out, the others in the order of the parts."""
    names = _fetch_members(g, parts, v, defaults=True)
    leading: list[str] = []  # the members before the first optional one
    out: str | None = None
    for p, x in zip(parts, names, strict=True):
        key = repr(p.key)
        if p.mode == "req":
            json = _known_constant(g, v, p) or p.enc._emit_to_json(g, str(x))
            if out is None:
                leading.append(f"{key}: {json}")
            else:
                g.line(f"{out}[{key}] = {json}")
            continue
        if out is None:
            out = g.var("out")
            g.line(f"{out} = {{{', '.join(leading)}}}")
        if p.mode == "dft":
            json = g.bind(p.enc._emit_to_json(g, str(x)))
            g.line(f"if {x} != {g.ref(p.default, 'default')}: {out}[{key}] = {json}")
        else:
            with g.block(f"if {x} is not None:"):
                g.line(f"{out}[{key}] = {p.enc._emit_to_json(g, str(x))}")
    return out if out is not None else f"{{{', '.join(leading)}}}"


def record_from_json(g: JGen, parts: Sequence[Part], j: str) -> str:
    """A record's value from its JSON object: every member is in the dict, an
    absent optional one as ``None`` (or its default)."""
    names = _fetch_members(g, parts, j, defaults=False)
    members = []
    for p, x in zip(parts, names, strict=True):
        known = _known_constant(g, j, p)
        if known is not None:
            value = known
        elif p.mode == "req":
            value = p.enc._emit_from_json(g, str(x))
        else:
            value = g.var(str(p.key))
            with g.block(f"if {p.key!r} in {j}:"):
                member = g.bind(f"{j}[{p.key!r}]")
                g.line(f"{value} = {p.enc._emit_from_json(g, member)}")
            absent = g.ref(p.default, "default") if p.mode == "dft" else "None"
            with g.block("else:"):
                g.line(f"{value} = {absent}")
        members.append(f"{p.key!r}: {value}")
    return f"{{{', '.join(members)}}}"


def tuple_to_json(g: JGen, parts: Sequence[Part], v: str) -> str:
    """A tuple's JSON array (a ``list`` value takes the exact converter)."""
    g.bail_if(f"type({v}) is not tuple")
    return f"[{', '.join(_elements(g, parts, v, lambda p, x: p.enc._emit_to_json(g, x)))}]"


def tuple_from_json(g: JGen, parts: Sequence[Part], j: str) -> str:
    g.bail_if(f"type({j}) is not list")
    items = _elements(g, parts, j, lambda p, x: p.enc._emit_from_json(g, x))
    return f"({', '.join(items)},)"


def _elements(
    g: JGen, parts: Sequence[Part], v: str, convert: Callable[[Part, str], str]
) -> list[str]:
    """Unpack sequence ``v`` (a wrong length raises ``ValueError``) and convert
    each element."""
    names = [g.var("item") for _ in parts]
    g.line(f"{', '.join(names)}, = {v}")
    return [convert(p, x) for p, x in zip(parts, names, strict=True)]
