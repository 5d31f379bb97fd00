"""The JSON pass's entry, and its fast converters: every node's ``to_json``
and ``from_json``.

Each converter has two variants. The *exact* one (:mod:`.exact`, the
composites' in :mod:`.composites`) is built from closures, one per node, and
is the one place JSON errors are built, with their paths. The *fast* one is
generated here for the composites whose parts can be emitted into one
function; it checks everything the exact one checks but may raise anything
on bad input. :func:`to_json_of` (what ``e.to_json`` runs) runs the fast one
and, when it fails, the exact one from the start: success costs one pass,
and an error two. Every piece is built once per node and kept on it
(:func:`~data_encoding.compiling.built`), under keys of this pass.

A record, tuple, list, union or option compiles its JSON conversion into one
Python function, its parts emitting their code into it (:func:`inline_json`,
through :meth:`JGen.to_json` and :meth:`JGen.from_json`; as the binary pass
does, but straight from the nodes: a converter has no ``struct`` runs to
fuse, so it needs no op IR): a record becomes a dict display of its members'
conversions, a union an ``if`` chain on its constant member, an integer a
type and range test, so that converting ``{uid, state: union, parent:
option}`` costs one function call, not one per part.

The generated code says nothing about what is wrong: on any failure it
raises (:class:`~..leafjson.Bail`, or whatever a converter it calls raised),
and the exact converter runs from the start, which raises the precise error
with its path. So success pays for no path and no message, and a failure
costs one more pass. Parts that are not inlined are called through their
own fast variant, so that the exact pass, not a cascade of retries, is the
only rerun.

The rule that keeps both variants in step: the fast one accepts exactly the
values the exact one accepts and returns an equal result, or bails. It may
bail on valid but unusual input (a ``dict`` subclass, say); the exact
variant then converts it. ``tests/passes/test_jsongen.py`` compares both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial, singledispatch
from typing import TYPE_CHECKING, Any, NamedTuple

from ...compiling import built
from ...tree.anyjson import Bson
from ...tree.core import Encoding, FromJson, ToJson
from ...tree.leaves import AtomEncoding
from ...tree.primitives import Bool, Float, Int, ZeroWidth
from ...tree.records import Parts
from ...tree.sequences import ListEncoding
from ...tree.strings import RawBytes
from ...tree.unions import Option, StringEnum, Union
from ...tree.wrappers import Conv, DirectJson, Mu
from ...tree.zarith import Zarith
from ..choosing import by_constant
from ..dispatch import takes_default
from ..emit import Source, shown
from ..leafjson import Bail, in_range, read_leaf, refused_length, same_bool
from ..transparent import emitted_for
from .exact import Via, exact_from, exact_to, same_converters

if TYPE_CHECKING:
    from ...tree.records import Part

__all__ = [
    "JGen",
    "exact_from_json",
    "exact_to_json",
    "fast_from_json",
    "fast_to_json",
    "from_json_of",
    "inline_json",
    "to_json_of",
]


class JGen(Source):
    """A JSON converter being generated; its parts are emitted into it by
    :meth:`to_json` and :meth:`from_json` (inline, or called)."""

    def __init__(self) -> None:
        super().__init__({"_Bail": Bail})
        #: variables known to hold exactly a ``dict`` (a union chose the case
        #: by a member), with the members known to equal a constant
        self.dicts: dict[str, dict[str, str]] = {}

    def to_json(self, enc: Encoding[Any], v: str) -> str:
        """Emit the conversion of variable ``v`` to ``enc``'s JSON (inline
        when possible, else a call of its fast printer); return an
        expression of the result. The code may raise anything on a bad value."""
        enc = emitted_for(enc, same_converters)
        code = inline_json(enc)
        if code is not None and self.room():
            return code.to(self, v)
        return f"{self.ref(fast_to_json(enc), 'to_json')}({v})"

    def from_json(self, enc: Encoding[Any], j: str) -> str:
        """Emit the reading of JSON variable ``j`` as ``enc``'s (as :meth:`to_json`)."""
        enc = emitted_for(enc, same_converters)
        code = inline_json(enc)
        if code is not None and code.from_ is not None and self.room():
            return code.from_(self, j)
        return f"{self.ref(fast_from_json(enc), 'from_json')}({j})"

    def bail_if(self, condition: str, why: str | None = None) -> None:
        self.line(f"if {condition}: raise _Bail" + (f"  # {why}" if why else ""))

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
    g.bail_if(
        f"len({v}) > {' + '.join([str(required), *optional])}",
        "a member that no field names",
    )
    return names


def record_to_json(parts: Sequence[Part], g: JGen, v: str) -> str:
    """A record's JSON object: absent optional members and members equal to
    their default are left out, the others in the order of the parts."""
    names = _fetch_members(g, parts, v, defaults=True)
    leading: list[str] = []  # the members before the first optional one
    out: str | None = None
    for p, x in zip(parts, names, strict=True):
        key = repr(p.key)
        if p.mode == "req":
            json = _known_constant(g, v, p) or g.to_json(p.enc, str(x))
            if out is None:
                leading.append(f"{key}: {json}")
            else:
                g.line(f"{out}[{key}] = {json}")
            continue
        if out is None:
            out = g.var("out")
            g.line(f"{out} = {{{', '.join(leading)}}}")
        if p.mode == "dft":
            json = g.bind(g.to_json(p.enc, str(x)))
            g.line(f"if {x} != {g.ref(p.default, 'default')}: {out}[{key}] = {json}")
        else:
            with g.block(f"if {x} is not None:"):
                g.line(f"{out}[{key}] = {g.to_json(p.enc, str(x))}")
    return out if out is not None else f"{{{', '.join(leading)}}}"


def record_from_json(parts: Sequence[Part], g: JGen, j: str) -> str:
    """A record's value from its JSON object: every member is in the dict, an
    absent optional one as ``None`` (or its default)."""
    names = _fetch_members(g, parts, j, defaults=False)
    members = []
    for p, x in zip(parts, names, strict=True):
        known = _known_constant(g, j, p)
        if known is not None:
            value = known
        elif p.mode == "req":
            value = g.from_json(p.enc, str(x))
        else:
            value = g.var(str(p.key))
            with g.block(f"if {p.key!r} in {j}:"):
                member = g.bind(f"{j}[{p.key!r}]")
                g.line(f"{value} = {g.from_json(p.enc, member)}")
            absent = g.ref(p.default, "default") if p.mode == "dft" else "None"
            with g.block("else:"):
                g.line(f"{value} = {absent}")
        members.append(f"{p.key!r}: {value}")
    return f"{{{', '.join(members)}}}"


def tuple_to_json(parts: Sequence[Part], g: JGen, v: str) -> str:
    """A tuple's JSON array (a ``list`` value takes the exact converter)."""
    g.bail_if(f"type({v}) is not tuple")
    return f"[{', '.join(_elements(g, parts, v, lambda p, x: g.to_json(p.enc, x)))}]"


def tuple_from_json(parts: Sequence[Part], g: JGen, j: str) -> str:
    g.bail_if(f"type({j}) is not list")
    items = _elements(g, parts, j, lambda p, x: g.from_json(p.enc, x))
    return f"({', '.join(items)},)"


def _elements(
    g: JGen, parts: Sequence[Part], v: str, convert: Callable[[Part, str], str]
) -> list[str]:
    """Unpack sequence ``v`` (a wrong length raises ``ValueError``) and convert
    each element."""
    names = [g.var("item") for _ in parts]
    g.line(f"{', '.join(names)}, = {v}")
    return [convert(p, x) for p, x in zip(parts, names, strict=True)]


# ------------------------------------------------------------ what each node emits


class Inline(NamedTuple):
    """The code a node emits into a generated converter: each function takes
    the generator and the variable holding the value (or the JSON), emits
    lines, and returns an expression of the result (evaluated once)."""

    to: Callable[[JGen, str], str]
    #: ``None``: the reader is called (a leaf's is its exact reader)
    from_: Callable[[JGen, str], str] | None


@takes_default(
    {
        "a leaf whose exact converter is called": (Float, StringEnum, Zarith, Bson),
        "called: the user's functions around its inner node's fast converter": (Conv,),
        "called: its two functions": (DirectJson,),
        "called: each level of a recursion is a call": (Mu,),
    },
    through="converters",
)
@singledispatch
def inline_json(e: Encoding[Any]) -> Inline | None:
    """The code ``e`` emits, or ``None`` when it is called instead."""
    return None


@inline_json.register
def _zero_width_inline(e: ZeroWidth) -> Inline | None:
    read = read_leaf(e)
    return None if read is None else Inline(read, read)  # checked alike both ways


@inline_json.register
def _bool_inline(e: Bool) -> Inline:
    return Inline(same_bool, same_bool)


@inline_json.register
def _int_inline(e: Int) -> Inline:
    def to(g: JGen, v: str) -> str:
        g.bail_if(in_range(e, v))
        return f"str({v})" if e.json_string else v

    return Inline(to, read_leaf(e))


@inline_json.register
def _raw_bytes_inline(e: RawBytes) -> Inline | None:
    read = read_leaf(e)
    if read is None:  # a string
        return None

    def to(g: JGen, v: str) -> str:
        g.bail_if(f"type({v}) is not bytes{refused_length(e, v)}")
        return f"{v}.hex()"

    return Inline(to, read)


@inline_json.register(Parts)
def _parts_inline(e: Parts[Any]) -> Inline | None:
    if any(p.mode == "splice" for p in e.parts):  # left to the exact closures
        return None
    if e.as_dict:
        return Inline(partial(record_to_json, e.parts), partial(record_from_json, e.parts))
    return Inline(partial(tuple_to_json, e.parts), partial(tuple_from_json, e.parts))


@inline_json.register
def _list_inline(e: ListEncoding) -> Inline:
    mode, count = e.count_mode

    def to(g: JGen, v: str) -> str:
        g.bail_if(f"type({v}) is not list")  # a tuple takes the exact converter
        return g.each(v, lambda x: g.to_json(e.elt, x))

    def from_(g: JGen, j: str) -> str:
        g.bail_if(f"type({j}) is not list")
        if mode == "exactly":
            g.bail_if(f"len({j}) != {count}")
        return g.each(j, lambda x: g.from_json(e.elt, x))

    return Inline(to, from_)


@inline_json.register
def _union_inline(u: Union) -> Inline | None:
    """One ``if`` per case on the constant member of a dict; anything else
    bails (generated only when every case is told apart that way). Else,
    when every case names its values and its JSON (``match`` and
    ``json_match``), one ``if`` per case on that test, the first that holds
    converting, as the exact converters do; the JSON printed must be named
    by no earlier case (else the exact printer says whether it reads back)."""
    member = by_constant(u)
    if member is None or len(u.tagged) != len(u.cases):
        if all(c.match is not None and c.json_match is not None for c in u.cases):
            return Inline(partial(_named_case_to, u), partial(_named_case_from, u))
        return None
    key, cases = member

    def choice(g: JGen, v: str, convert: Callable[[Encoding[Any]], str]) -> str:
        constant, result = g.var("kind"), g.var("result")
        g.line(f"{constant} = {v}.get({key!r}) if type({v}) is dict else None")
        known = g.dicts.get(v)
        for i, (name, c) in enumerate(cases):
            with g.block(f"{'elif' if i else 'if'} {constant} == {name!r}:"):
                g.dicts[v] = {key: name}
                g.line(f"{result} = {convert(c.enc)}")
        g.dicts.pop(v)
        if known is not None:
            g.dicts[v] = known
        with g.block("else:"):
            g.line("raise _Bail")
        return result

    return Inline(
        lambda g, v: choice(g, v, lambda enc: g.to_json(enc, v)),
        lambda g, j: choice(g, j, lambda enc: g.from_json(enc, j)),
    )


def _named_case_to(u: Union, g: JGen, v: str) -> str:
    """The JSON of value ``v`` by the first case of ``u`` whose ``match``
    holds (as :func:`_named_case_from`)."""
    result = g.var("result")
    earlier: list[str] = []
    for i, c in enumerate(u.cases):
        with g.block(f"{'elif' if i else 'if'} {g.ref(c.match, 'match')}({v}):"):
            g.line(f"{result} = {g.to_json(c.enc, v)}")
            if earlier:
                g.bail_if(" or ".join(f"{test}({result})" for test in earlier))
        earlier.append(g.ref(c.json_match, "json_match"))
    with g.block("else:"):
        g.line("raise _Bail")
    return result


def _named_case_from(u: Union, g: JGen, j: str) -> str:
    """The reading of JSON ``j`` by the first case of ``u`` whose
    ``json_match`` holds (every case has one: :func:`_union_inline`)."""
    result = g.var("result")
    for i, c in enumerate(u.cases):
        with g.block(f"{'elif' if i else 'if'} {g.ref(c.json_match, 'json_match')}({j}):"):
            g.line(f"{result} = {g.from_json(c.enc, j)}")
    with g.block("else:"):
        g.line("raise _Bail")
    return result


@inline_json.register
def _option_inline(u: Option) -> Inline:
    """``None`` for JSON ``null`` and back, else the value's conversion."""
    some = u.cases[0].enc

    def choice(g: JGen, v: str, convert: Callable[[str], str]) -> str:
        result = g.var("result")
        with g.block(f"if {v} is None:"):
            g.line(f"{result} = None")
        with g.block("else:"):
            g.line(f"{result} = {convert(v)}")
        return result

    return Inline(
        lambda g, v: choice(g, v, lambda x: g.to_json(some, x)),
        lambda g, j: choice(g, j, lambda x: g.from_json(some, x)),
    )


# ------------------------------------------------------------ the pieces (the entry)


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


def _compile(
    e: Encoding[Any], name: str, arg: str, code: Callable[[JGen, str], str]
) -> Callable[[Any], Any]:
    """``e``'s ``code`` as a function ``name(arg)`` of its own."""
    g = JGen()
    with g.block(f"def {name}({arg}):"):
        g.line(f"return {code(g, arg)}")
    return g.compile(name, f"{name} of {shown(e)}")
