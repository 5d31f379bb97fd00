"""Micheline, the syntax of Michelson scripts and data, over a protocol's
primitive table (``src/lib_micheline/micheline.ml``, the version the
protocols 004 to 007 were built with, ``canonical_encoding_v1``).

An expression is one of five kinds of node; its value is the shape of the
node's JSON:

==================  ===========================================  ===============
node                value                                        binary tag
==================  ===========================================  ===============
integer             ``{"int": 42}`` (Zarith ``z``; JSON string)  0
string              ``{"string": "abc"}``                        1
bytes               ``{"bytes": b"..."}`` (JSON hex)             10
sequence            ``[node, ...]``                              2
primitive           ``{"prim": "PAIR", "args": [...],``          3 to 9
application         ``"annots": ["%a"]}``
==================  ===========================================  ===============

A primitive application is written with the shortest of seven cases, by
its number of arguments and whether it has annotations: 0, 1 or 2
arguments, without (3, 5, 7) or with (4, 6, 8) annotations, else the
generic case (9: any number of arguments, then the annotations). Its tag is
followed by the primitive (one byte: its index in the protocol's table),
the arguments (the generic case: a list with its byte size) and the
annotations (one string, separated by spaces). The nodes are a
:func:`~data_encoding.matching` union: :func:`written_with` names the
writer's case, in one call; the reader refuses a case it would not name
(``not_canonical``: the union's own rule), so that bytes decode to at most
one value.

``args`` and ``annots`` are left out when empty, as the node writes the
JSON; its reader reads them absent or empty alike (``from_json`` gives the
value without them). A value that holds an empty one is not one the
decoder makes, and ``encode``, ``length`` and ``to_json`` refuse it
(``unexpected_field`` at the member). An annotation is a string of at most
255 bytes without a space (the binary form separates them by spaces: an
annotation with one would read back as two, and ``[""]`` as none).

Recursion goes through :func:`~data_encoding.mu`: an expression nests at
most :func:`~data_encoding.max_depth` levels, in every direction.

>>> from data_encoding.node.protocols.delphi import SCRIPT_EXPR
>>> SCRIPT_EXPR.encode({"prim": "PAIR", "args": [{"int": 1}, {"string": "a"}]}).hex()
'07420001010000000161'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple, NotRequired, TypeAlias, TypedDict

from ...errors import DecodeError, EncodeError, JsonError
from ...jsonvalue import JsonValue
from ...tree import bounded, fixed
from ...tree.core import Encoding, publish
from ...tree.framing import dynamic_size
from ...tree.primitives import int31
from ...tree.records import Described, dft, obj, req
from ...tree.sequences import list_
from ...tree.strings import bytes_, string
from ...tree.typed import typed
from ...tree.unions import Case, Matching, case, string_enum, union
from ...tree.wrappers import DirectJson, conv, def_, mu, splitted
from ...tree.zarith import z
from .versions import IdTable

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "ANNOTATIONS",
    "LOCATION",
    "BytesNode",
    "IntNode",
    "Node",
    "PrimNode",
    "Script",
    "ScriptEncodings",
    "StringNode",
    "expression",
    "lazy_expr",
    "pack",
    "packed",
    "primitive",
    "script",
    "script_encodings",
    "script_ids",
    "unpack",
    "written_with",
]


class IntNode(TypedDict):
    int: int


class StringNode(TypedDict):
    #: ``bytes`` when they are not UTF-8 (the library's ``string``)
    string: str | bytes


class BytesNode(TypedDict):
    bytes: bytes


class PrimNode(TypedDict):
    prim: str
    #: left out when empty
    args: NotRequired[list[Node]]
    #: left out when empty
    annots: NotRequired[list[str]]


Node: TypeAlias = IntNode | StringNode | BytesNode | PrimNode | list["Node"]
"""A Micheline expression: a node, a sequence being a list of nodes."""


class Script(TypedDict):
    """A contract's script: its code and its storage, each an expression."""

    code: Node
    storage: Node


LOCATION: Encoding[int] = def_(
    "micheline.location",
    int31,
    title="Canonical location in a Micheline expression",
    description=(
        "The location of a node in a Micheline expression tree in prefix order, with zero "
        "being the root and adding one for every basic node, sequence and primitive "
        "application."
    ),
)
"""A node's place in its expression (``script.loc``)."""


def primitive(names: tuple[str, ...]) -> Encoding[str]:
    """A protocol's primitives, by their index in ``names`` (one byte):
    ``script.prim``."""
    return def_("michelson.v1.primitives", string_enum(list(names)))


# ------------------------------------------------------------ the writer's case

INT, STRING, SEQUENCE, BYTES, GENERIC = 0, 1, 2, 10, 9
#: a primitive application with n arguments (n < 3), without annotations;
#: with annotations: one more
PRIM_WITH_ARGS = (3, 5, 7)
_ABSENT: list[Any] = []  # an absent member reads as empty (one list, never changed)


def written_with(value: Any) -> int | None:
    """The tag of the case the writer writes ``value`` with (``None``: no
    case takes it), as the reference's writer picks it: the shortest case
    of a primitive application. An ``args`` that is no list goes to the
    generic case, and ``annots`` that are no list to a case with
    annotations, which then say what is wrong with them."""
    kind = type(value)
    if kind is dict:
        if "prim" in value:
            # (the decoder calls it on every node it reads: kept short)
            args = value.get("args", _ABSENT)
            count = len(args) if type(args) is list else 3
            if count > 2:
                return GENERIC
            annots = value.get("annots", _ABSENT)
            if type(annots) is list and not annots:
                return PRIM_WITH_ARGS[count]
            return PRIM_WITH_ARGS[count] + 1
        if "int" in value:
            return INT
        if "string" in value:
            return STRING
        if "bytes" in value:
            return BYTES
    elif kind is list:
        return SEQUENCE
    return None


def _is_leaf(tag: int, value: Any) -> bool:
    """Whether ``value`` is written with ``tag``, that of an integer, a
    string, bytes or a sequence (:func:`written_with`, which a primitive
    application is not given: it would look into its arguments)."""
    kind = type(value)
    if kind is list:
        return tag == SEQUENCE
    return kind is dict and "prim" not in value and written_with(value) == tag


def _is_application(value: Any) -> bool:
    """Whether ``value`` is written with a primitive application's case."""
    return type(value) is dict and "prim" in value


# ------------------------------------------------------------ annotations

ANNOTATION_MAX = 255
"""The bytes of one annotation, at most."""


def _checked(annots: Any, cls: type[EncodeError] | type[JsonError] = EncodeError) -> list[str]:
    """``annots``, when the binary form can hold them: strings of at most
    :data:`ANNOTATION_MAX` bytes of UTF-8 without a space, and not
    ``[""]``, which would be written as none (else a ``cls`` error)."""
    if type(annots) is not list:
        raise cls("wrong_type", f"annotations are a list, not {type(annots).__name__}")
    for i, annot in enumerate(annots):
        if type(annot) is not str:
            raise cls("wrong_type", f"an annotation is a str, not {type(annot).__name__}").within(i)
        if " " in annot:
            raise cls(
                "invalid_value", f"the annotation {annot[:40]!r} holds a space (it separates them)"
            ).within(i)
        try:
            size = len(annot.encode("utf-8"))
        except UnicodeEncodeError:
            raise cls("invalid_utf8", "the annotation has no UTF-8 form").within(i) from None
        if size > ANNOTATION_MAX:
            raise cls("too_long", f"an annotation is at most {ANNOTATION_MAX} bytes").within(i)
    if annots == [""]:
        raise cls("invalid_value", 'the annotations [""] would be written as none')
    return annots


def _joined(annots: Any) -> str:
    """The annotations as the binary form writes them: separated by spaces."""
    return " ".join(_checked(annots))


def _split(text: str | bytes) -> list[str]:
    """The annotations of their binary form (none for an empty string)."""
    if type(text) is not str:
        raise DecodeError("invalid_utf8", "the annotations are not UTF-8")
    if not text:
        return []
    annots = text.split(" ")
    # (a character is at most 4 bytes of UTF-8: a short text needs no look)
    if len(text) * 4 > ANNOTATION_MAX and any(
        len(annot.encode("utf-8")) > ANNOTATION_MAX for annot in annots
    ):
        raise DecodeError("too_long", f"an annotation is at most {ANNOTATION_MAX} bytes")
    return annots


def _annots_to_json(annots: Any) -> JsonValue:
    json: list[JsonValue] = [*_checked(annots)]
    return json


def _annots_from_json(json: Any) -> list[str]:
    return list(_checked(json, JsonError))


ANNOTATIONS: Encoding[list[str]] = DirectJson(
    list_(bounded.string(ANNOTATION_MAX)),
    conv(_joined, _split, string),
    _annots_to_json,
    _annots_from_json,
)
"""A primitive application's annotations: in binary one string, the
annotations separated by spaces; in JSON a list of strings. JSON the
binary form cannot hold is refused (the node reads it)."""


# ------------------------------------------------------------ empty members


def _without_empty(value: Any) -> Any:
    """``value`` itself, when it leaves out its empty ``args`` and ``annots``
    (as every value the decoder makes does)."""
    if type(value) is dict:
        for key in ("args", "annots"):
            if value.get(key, None) == []:
                raise EncodeError(
                    "unexpected_field",
                    f"an empty {key!r} is left out of a primitive application",
                ).within(key)
    return value


def _dropping_empty(read: dict[str, Any]) -> PrimNode:
    """A primitive application read with every member: the empty ones left out."""
    node: PrimNode = {"prim": read["prim"]}
    args, annots = read.get("args"), read.get("annots")
    if args:
        node["args"] = args
    if annots:
        node["annots"] = annots
    return node


# ------------------------------------------------------------ expressions


def _with_args(
    prim: Encoding[str], expr: Encoding[Any], names: tuple[str, ...], annotated: bool
) -> Encoding[Any]:
    """A primitive application with ``len(names)`` arguments: its value's
    ``args`` is a list of exactly that many, described as the reference
    describes the case, a field per argument (``arg``, or ``arg1`` and
    ``arg2``: the same bytes)."""
    annots = [req("annots", ANNOTATIONS)] if annotated else []
    return Described(
        obj(req("prim", prim), req("args", fixed.list_(len(names), expr)), *annots),
        obj(req("prim", prim), *(req(name, expr) for name in names), *annots),
    )


def _generic_values(prim: Encoding[str], expr: Encoding[Any]) -> SearchStrategy[PrimNode]:
    """The values the generic case writes: three arguments or more (drawn
    among all its wire values, they would be rare)."""
    from hypothesis import strategies as st

    return st.fixed_dictionaries(
        {"prim": prim.strategy(), "args": st.lists(expr.strategy(), min_size=3, max_size=4)},
        optional={"annots": ANNOTATIONS.strategy().filter(bool)},
    )  # type: ignore[return-value]  # a dict of exactly these keys


def _body(prim: Encoding[str], expr: Encoding[Any]) -> Encoding[Any]:
    """One node, ``expr`` being the expression itself."""
    args = list_(expr)
    with_members = obj(req("prim", prim), dft("args", args, []), dft("annots", ANNOTATIONS, []))
    # the JSON of a value is printed by the case the binary writer picks
    # (so that to_json and encode refuse a value alike), and read by the
    # same test of its shape: its one member (or its being a list) names
    # the case, whose reader then says what is wrong with the rest
    shapes: list[tuple[str, Encoding[Any], Callable[[Any], bool]]] = [
        ("Int", obj(req("int", z)), partial(_is_leaf, INT)),
        ("String", obj(req("string", string)), partial(_is_leaf, STRING)),
        ("Bytes", obj(req("bytes", bytes_)), partial(_is_leaf, BYTES)),
        ("Sequence", args, partial(_is_leaf, SEQUENCE)),
        (
            "Generic prim (any number of args with or without annot)",
            conv(_without_empty, _dropping_empty, with_members),
            _is_application,
        ),
    ]
    # (Case: the library's own predicates, which do not raise, are not guarded)
    json = union([Case(None, title, e, shape, json_match=shape) for title, e, shape in shapes])
    generic = obj(req("prim", prim), req("args", args), dft("annots", ANNOTATIONS, []))
    cases: list[tuple[int, str, Encoding[Any]]] = [
        (INT, "Int", obj(req("int", z))),
        (STRING, "String", obj(req("string", string))),
        (SEQUENCE, "Sequence", args),
        (3, "Prim (no args, annot)", obj(req("prim", prim))),
        (4, "Prim (no args + annot)", obj(req("prim", prim), req("annots", ANNOTATIONS))),
        (5, "Prim (1 arg, no annot)", _with_args(prim, expr, ("arg",), annotated=False)),
        (6, "Prim (1 arg + annot)", _with_args(prim, expr, ("arg",), annotated=True)),
        (7, "Prim (2 args, no annot)", _with_args(prim, expr, ("arg1", "arg2"), annotated=False)),
        (8, "Prim (2 args + annot)", _with_args(prim, expr, ("arg1", "arg2"), annotated=True)),
        (
            GENERIC,
            "Generic prim (any number of args with or without annot)",
            conv(
                _without_empty,
                _dropping_empty,
                generic,
                values=partial(_generic_values, prim, expr),
            ),
        ),
        (BYTES, "Bytes", obj(req("bytes", bytes_))),
    ]
    # (Matching: the library's own function, which does not raise, is not guarded)
    binary = Matching(
        written_with,
        [case(tag, title, e) for tag, title, e in cases],
        # only annotations read empty, or a generic case of two arguments or
        # fewer, are written with another case: the others need no check
        exact_reads=(INT, STRING, SEQUENCE, BYTES, *PRIM_WITH_ARGS),
    )
    return splitted(json=json, binary=binary)


def expression(prim: Encoding[str]) -> Encoding[Node]:
    """The Micheline expressions over the primitives ``prim`` (see
    :func:`primitive`): ``script.expr``."""
    return mu("micheline.michelson_v1.expression", partial(_body, prim))


@cache
def lazy_expr(expr: Encoding[Node]) -> Encoding[Node]:
    """An expression in its binary form's size frame (``script.lazy_expr``:
    4 bytes of size first). The node reads the frame's content only when it
    needs the expression; this library reads it at once, strictly: bytes
    the expression does not read are refused, not kept."""
    return dynamic_size(expr)


def script(expr: Encoding[Node]) -> Encoding[Script]:
    """A contract's code and storage (``script``), each a :func:`lazy_expr`."""
    lazy = lazy_expr(expr)
    return def_("scripted.contracts", typed(Script, obj(req("code", lazy), req("storage", lazy))))


# ------------------------------------------------------------ packed data

PACKED_TAG = 0x05
"""The first byte of ``PACK``ed data (the interpreter's ``UNPACK`` refuses any other)."""


@cache
def packed(expr: Encoding[Node]) -> Encoding[Node]:
    """What the Michelson instructions ``PACK`` make and ``UNPACK`` read
    (``script_ir_translator.ml``, ``pack_data``): the byte ``05``, then the
    expression, the whole input (``UNPACK`` refuses bytes after it); the
    JSON form is the expression's. Built once per expression encoding.

    Its id, ``script.packed``, is this library's name: the node's toolchain
    registers none for packed data."""
    return def_("michelson.packed", union([case(PACKED_TAG, "Packed data", expr)]))


def pack(expr: Encoding[Node], value: Node) -> bytes:
    """The bytes ``PACK`` makes of ``value`` (an expression of ``expr``):

    >>> from data_encoding.node.protocols.delphi import SCRIPT_EXPR
    >>> pack(SCRIPT_EXPR, {"int": 1}).hex()
    '050001'
    """
    return packed(expr).encode(value)


def unpack(expr: Encoding[Node], data: bytes) -> Node:
    """The expression ``data`` packs (:class:`DecodeError` when it is none:
    another first byte than ``05`` is ``unexpected_tag``, bytes after the
    expression ``extra_bytes``)."""
    return packed(expr).decode(data)


# ------------------------------------------------------------ a protocol's


class ScriptEncodings(NamedTuple):
    """A protocol's Micheline encodings, in the order of its constants
    (``SCRIPT, SCRIPT_EXPR, ... = script_encodings(PRIMITIVES)``)."""

    script: Encoding[Script]
    expr: Encoding[Node]
    prim: Encoding[str]
    lazy_expr: Encoding[Node]
    loc: Encoding[int]
    packed: Encoding[Node]


@cache
def script_encodings(primitives: tuple[str, ...]) -> ScriptEncodings:
    """The Micheline encodings over ``primitives``, built once per table:
    two protocols with the same table have the very same encodings."""
    prim = primitive(primitives)
    expr = expression(prim)
    return ScriptEncodings(script(expr), expr, prim, lazy_expr(expr), LOCATION, packed(expr))


def script_ids(primitives: tuple[str, ...]) -> IdTable:
    """The ``script*`` ids of a protocol whose primitives are ``primitives``."""
    e = script_encodings(primitives)
    return {
        "script": (e.script, "a contract's script: its code and storage"),
        "script.expr": (e.expr, "a Micheline expression over the protocol's primitives"),
        "script.prim": (e.prim, "a Michelson primitive, by its index in the protocol's table"),
        "script.lazy_expr": (e.lazy_expr, "a Micheline expression in a size frame"),
        "script.loc": (e.loc, "a node's place in a Micheline expression, in prefix order"),
        # the toolchain registers no id for it: this library's own name
        "script.packed": (e.packed, "PACKed data: 05 then a Micheline expression"),
    }


publish(__name__, globals())  # the encodings above pickle by reference
