"""The binary schema language's encodings: the values of :mod:`.values`
as a node's ``GET /describe`` publishes them, JSON and binary.

The language is written with the library's own combinators, twice:

* :data:`binary_schema`, the **legacy** dialect the seed's node speaks: a fixed
  size is ``{"size": n, "kind": "Float"}``, a sequence limit is ``"max_length"``,
  integers have no endianness;
* :data:`binary_schema_v1`, the data-encoding 1.0 dialect: ``"Fixed"``,
  ``"length_limit"``, ``"endianness"`` and ``N`` size headers.

Both **read** every spelling real answers use (the legacy words, 1.0's, and
data-encoding 0.5.3's mix of ``"Float"`` and ``length_limit``), so a schema
fetched from any node decodes into the same value, and both **print each part
back in the words it came in**: a part with words of its own (a field's or a
union's size class, a sequence's limit, an integer's endianness, a size
header) remembers, in its ``spelling``, the dialect whose words it was read
in. That memory is not part of the value
(``spelling`` takes no part in ``==``, ``hash`` or ``repr``); a part built by
``describe()`` prints in the writer's words. The binary forms carry no words:
a part read from bytes prints in the words of the dialect that read it, and
a value the legacy binary form cannot state (a little-endian integer, an
``exactly``-limited sequence, an ``N`` header) is an
:class:`~data_encoding.EncodeError` (``not_in_dialect``) there, never a
silent change; it names the encoding that states it: ``binary_schema_v1``,
or, for a legacy schema inside another encoding
(:func:`legacy_binary_schema`), that encoding's 1.0 twin.

>>> from data_encoding import uint8
>>> binary_schema.to_json(uint8.describe())["toplevel"]["fields"][0]["data_kind"]
{'size': 1, 'kind': 'Float'}
>>> binary_schema_v1.to_json(uint8.describe())["toplevel"]["fields"][0]["data_kind"]
{'size': 1, 'kind': 'Fixed'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import EncodeError
from ...tree.core import Encoding, publish
from ...tree.framing import dynamic_size
from ...tree.primitives import constant, float_, int31
from ...tree.records import Field, dft, obj, opt, req, tup
from ...tree.sequences import list_
from ...tree.size import DYNAMIC, VARIABLE, Fixed, Size
from ...tree.strings import string
from ...tree.unions import Case as UnionCase
from ...tree.unions import case, string_enum, union
from ...tree.wrappers import conv, def_, mu
from .values import (
    AnonymousField,
    BinarySchema,
    Bool,
    Bytes,
    Case,
    Cases,
    Description,
    Dialect,
    DynamicSizeField,
    Entry,
    Enum,
    FieldDescr,
    Float,
    Int,
    IntEnum,
    Layout,
    NamedField,
    Obj,
    OptionalField,
    Padding,
    RangedFloat,
    RangedInt,
    Ref,
    Seq,
    String,
    Toplevel,
    ZeroWidth,
)

__all__ = [
    "binary_schema",
    "binary_schema_v1",
    "legacy_binary_schema",
]


# ---------------------------------------------------------------- encodings
#
# Each variant is a record with a constant "kind" member (the JSON
# discriminant), mapped to and from its dataclass by :func:`_variant`. The
# forms that differ between the dialects are built by functions of
# ``modern``. A dialect's unions list the other dialect's forms first, as
# JSON-only cases: reading JSON, each takes what is spelled its way; writing
# JSON, each prints the parts read its way; writing binary, they are
# skipped, and the dialect's own case writes every value or names what it
# cannot state, and the encoding that states it: the ``twin`` the legacy
# forms are built with.

# JSON member names that differ from the dataclass attribute names
_ATTRIBUTE = {"data_kind": "kind", "max_length": "limit"}


def _dialect(modern: bool) -> Dialect:
    return "1.0" if modern else "legacy"


def _wire_value(v: Any) -> Any:
    return list(v) if type(v) is tuple else v


def _writes(cls: type[Any], tag: int | None, spelling: Dialect | None) -> Callable[[Any], bool]:
    """The values of ``cls`` a case writes: all of them for a tagged case, and
    for a JSON-only one those read in its ``spelling``."""
    if tag is not None:
        return lambda v: type(v) is cls

    def read_so(v: Any) -> bool:
        return type(v) is cls and v.spelling == spelling

    return read_so


_Refusal = Callable[[Any], None]
"""A check of what a spelling can state: it raises ``not_in_dialect`` for a
value it cannot (see :func:`_refusal`)."""


def _refusal(twin: str, cannot_state: Callable[[Any], str | None]) -> _Refusal:
    """The check of a legacy form: ``cannot_state(v)`` names what the legacy
    words cannot state about ``v``, if anything; the error names ``twin``, the
    encoding to use instead."""

    def refuse(v: Any) -> None:
        reason = cannot_state(v)
        if reason is not None:
            raise EncodeError(
                "not_in_dialect", f"the legacy schema dialect cannot state {reason}: use {twin}"
            )

    return refuse


def _variant(
    tag: int | None,
    cls: type,
    word: str,
    *fields: Field,
    refuse: _Refusal | None = None,
    spelling: Dialect | None = None,
) -> UnionCase:
    """A union case for ``cls``: a record of ``fields`` whose ``"kind"`` member is ``word``.

    ``refuse(v)`` raises for a ``v`` this spelling cannot state. ``spelling``
    is the dialect whose words ``fields`` are, for a ``cls`` that remembers
    them; ``tag=None`` makes the case JSON-only, printing the values read in
    those words.
    """
    members = [(f.name, _ATTRIBUTE.get(f.name, f.name)) for f in fields if f.name != "kind"]

    def to_wire(v: Any) -> dict[str, Any]:
        if refuse is not None:
            refuse(v)
        wire = {name: _wire_value(getattr(v, attr)) for name, attr in members}
        wire["kind"] = word
        return wire

    def of_wire(d: dict[str, Any]) -> Any:
        args = {attr: d[name] for name, attr in members}
        if spelling is not None:
            args["spelling"] = spelling
        return cls(**{a: tuple(x) if type(x) is list else x for a, x in args.items()})

    return case(tag, word, conv(to_wire, of_wire, obj(*fields)), _writes(cls, tag, spelling))


def _kind_encoding(modern: bool) -> Encoding[Size]:
    """A size class; a fixed size is ``{"size": n, "kind": "Fixed"}`` in 1.0's
    words, ``"Float"`` in legacy's."""

    def unsized(tag: int, word: str, value: Size) -> UnionCase:
        return case(
            tag,
            word,
            conv(lambda _v: {"kind": word}, lambda _d: value, obj(req("kind", constant(word)))),
            lambda v: v is value,
        )

    word = "Fixed" if modern else "Float"
    fixed = case(
        2,
        "Fixed",
        conv(
            lambda v: {"size": v.n, "kind": word},
            lambda d: Fixed(d["size"]),
            obj(req("size", int31), req("kind", constant(word))),
        ),
        lambda v: type(v) is Fixed,
    )
    return union([fixed, unsized(0, "Dynamic", DYNAMIC), unsized(1, "Variable", VARIABLE)])


def _own_kind(modern: bool) -> Encoding[Size]:
    return def_("schema.kind", _kind_encoding(modern))


_INTEGER = string_enum(["Int16", "Int8", "Uint16", "Uint8"])
_INTEGER_EXTENDED = string_enum(["Int64", "Int32", "Int16", "Int8", "Uint16", "Uint8"])
_ENDIANNESS = string_enum(["Big", "Little"])
_TAG_SIZE = string_enum(["Uint16", "Uint8"])


def _little_endian(v: Int | RangedInt) -> str | None:
    return "a little-endian integer" if v.endianness == "Little" else None


def _int_case(modern: bool, tag: int | None, twin: str) -> UnionCase:
    endian = (dft("endianness", _ENDIANNESS, "Big"),) if modern else ()
    return _variant(
        tag,
        Int,
        "Int",
        req("size", _INTEGER_EXTENDED),
        *endian,
        req("kind", constant("Int")),
        refuse=None if modern else _refusal(twin, _little_endian),
        spelling=_dialect(modern),
    )


def _ranged_int_case(modern: bool, tag: int | None, twin: str) -> UnionCase:
    endian = (dft("endianness", _ENDIANNESS, "Big"),) if modern else ()
    return _variant(
        tag,
        RangedInt,
        "RangedInt",
        req("min", int31),
        *endian,
        req("max", int31),
        req("kind", constant("RangedInt")),
        refuse=None if modern else _refusal(twin, _little_endian),
        spelling=_dialect(modern),
    )


def _limit_case(tag: int, word: str, exact: bool) -> UnionCase:
    key = word.replace("-", "_")
    return case(
        tag,
        word,
        conv(
            lambda v: {"kind": word, key: v[0]},
            lambda d: (d[key], exact),
            obj(req("kind", constant(word)), req(key, int31)),
        ),
        lambda v: v is not None and v[1] is exact,
    )


_LENGTH_LIMIT = union(
    [
        case(
            0,
            "no-limit",
            conv(
                lambda _v: {"kind": "no-limit"},
                lambda _d: None,
                obj(req("kind", constant("no-limit"))),
            ),
            lambda v: v is None,
        ),
        _limit_case(1, "at-most", False),
        _limit_case(2, "exactly", True),
    ]
)
"""1.0's sequence limit; values ``None`` or ``(n, exact)``."""


def _seq_case(modern: bool, layout: Encoding[Any], tag: int | None, twin: str) -> UnionCase:
    kind = req("kind", constant("Seq"))
    if not modern:
        return _variant(
            tag,
            Seq,
            "Seq",
            req("layout", layout),
            kind,
            opt("max_length", int31),
            refuse=_refusal(twin, lambda v: "an exact sequence length" if v.exact else None),
            spelling="legacy",
        )
    fields = obj(req("layout", layout), kind, dft("length_limit", _LENGTH_LIMIT, None))

    def to_wire(v: Seq) -> dict[str, Any]:
        limit = None if v.limit is None else (v.limit, v.exact)
        return {"layout": v.layout, "kind": "Seq", "length_limit": limit}

    def of_wire(d: dict[str, Any]) -> Seq:
        limit = d["length_limit"]
        n, exact = (None, False) if limit is None else limit
        return Seq(d["layout"], n, exact, spelling="1.0")

    return case(tag, "Seq", conv(to_wire, of_wire, fields), _writes(Seq, tag, "1.0"))


def _layout_encoding(modern: bool, twin: str) -> Encoding[Layout]:
    def word(tag: int, cls: type, kind: str) -> UnionCase:
        return _variant(tag, cls, kind, req("kind", constant(kind)))

    def body(layout: Encoding[Any]) -> Encoding[Any]:
        # the other dialect's words, JSON only (legacy's integers read as 1.0's do)
        other = [_seq_case(False, layout, None, twin)]
        if not modern:
            other = [
                _int_case(True, None, twin),
                _ranged_int_case(True, None, twin),
                _seq_case(True, layout, None, twin),
            ]
        return union(
            [
                *other,
                word(0, ZeroWidth, "Zero_width"),
                _int_case(modern, 1, twin),
                word(2, Bool, "Bool"),
                _ranged_int_case(modern, 3, twin),
                _variant(
                    4,
                    RangedFloat,
                    "RangedFloat",
                    req("min", float_),
                    req("max", float_),
                    req("kind", constant("RangedFloat")),
                ),
                word(5, Float, "Float"),
                word(6, Bytes, "Bytes"),
                word(7, String, "String"),
                _variant(
                    8,
                    Enum,
                    "Enum",
                    req("size", _INTEGER),
                    req("reference", string),
                    req("kind", constant("Enum")),
                ),
                _seq_case(modern, layout, 9, twin),
                _variant(10, Ref, "Ref", req("name", string), req("kind", constant("Ref"))),
                word(11, Padding, "Padding"),
            ]
        )

    return mu("layout", body)


def _sized_cases(
    modern: bool, layout: Encoding[Any], kind: Encoding[Size], tags: tuple[int, int] | None
) -> list[UnionCase]:
    """The named and anonymous field cases, in ``modern``'s words for a fixed size
    (``tags=None``: JSON only, printing the fields read in those words)."""
    named, anon = tags or (None, None)
    dialect = _dialect(modern)
    return [
        _variant(
            named,
            NamedField,
            "named",
            req("name", string),
            req("layout", layout),
            req("data_kind", kind),
            req("kind", constant("named")),
            spelling=dialect,
        ),
        _variant(
            anon,
            AnonymousField,
            "anon",
            req("layout", layout),
            req("kind", constant("anon")),
            req("data_kind", kind),
            spelling=dialect,
        ),
    ]


def _dyn_case(modern: bool, tag: int | None, twin: str) -> UnionCase:
    headers = ["N", "Uint30", "Uint16", "Uint8"] if modern else ["Uint30", "Uint16", "Uint8"]
    return _variant(
        tag,
        DynamicSizeField,
        "dyn",
        req("kind", constant("dyn")),
        opt("name", string),
        req("num_fields", int31),
        req("size", string_enum(headers)),
        refuse=None
        if modern
        else _refusal(twin, lambda v: "an N size header" if v.size == "N" else None),
        spelling=_dialect(modern),
    )


def _field_encoding(modern: bool, twin: str) -> Encoding[FieldDescr]:
    layout = dynamic_size(_layout_encoding(modern, twin))
    # the other dialect's words, JSON only (legacy's headers read as 1.0's do)
    other = _sized_cases(not modern, layout, _kind_encoding(not modern), None)
    if not modern:
        other.append(_dyn_case(True, None, twin))
    return def_(
        "schema.field",
        union(
            [
                *other,
                *_sized_cases(modern, layout, _own_kind(modern), (0, 1)),
                _dyn_case(modern, 2, twin),
                _variant(
                    3,
                    OptionalField,
                    "option_indicator",
                    req("kind", constant("option_indicator")),
                    req("name", string),
                ),
            ]
        ),
    )


def _cases_case(
    modern: bool, tag: int | None, kind: Encoding[Size], cases: Encoding[Any]
) -> UnionCase:
    """A union's description, in ``modern``'s words for a fixed size (``tag=None``:
    JSON only, printing the unions read in those words)."""
    dialect = _dialect(modern)
    return case(
        tag,
        "Cases",
        conv(
            lambda v: {"tag_size": v.tag_size, "kind": v.kind, "cases": list(v.cases)},
            lambda d: Cases(d["kind"], d["tag_size"], tuple(d["cases"]), spelling=dialect),
            obj(
                req("tag_size", _TAG_SIZE),
                req("kind", dynamic_size(kind)),
                req("cases", cases),
            ),
        ),
        _writes(Cases, tag, dialect),
    )


def _toplevel_encoding(modern: bool, twin: str) -> Encoding[Toplevel]:
    fields = list_(dynamic_size(_field_encoding(modern, twin)))
    case_encoding = def_(
        "union case",
        conv(
            lambda c: {"tag": c.tag, "fields": list(c.fields), "name": c.name},
            lambda d: Case(d["tag"], tuple(d["fields"]), d["name"]),
            obj(req("tag", int31), req("fields", fields), opt("name", string)),
        ),
    )
    cases = list_(case_encoding)
    return union(
        [
            case(
                0,
                "Obj",
                conv(
                    lambda v: {"fields": list(v.fields)},
                    lambda d: Obj(tuple(d["fields"])),
                    obj(req("fields", fields)),
                ),
                lambda v: type(v) is Obj,
            ),
            # the other dialect's words for the size class, JSON only
            _cases_case(not modern, None, _kind_encoding(not modern), cases),
            _cases_case(modern, 1, _own_kind(modern), cases),
            case(
                2,
                "Int_enum",
                conv(
                    lambda v: {"size": v.size, "cases": list(v.cases)},
                    lambda d: IntEnum(d["size"], tuple(d["cases"])),
                    obj(req("size", _INTEGER), req("cases", list_(tup(int31, string)))),
                ),
                lambda v: type(v) is IntEnum,
            ),
        ]
    )


def _schema_encoding(modern: bool, twin: str) -> Encoding[BinarySchema]:
    toplevel = _toplevel_encoding(modern, twin)
    description = conv(
        lambda d: {"title": d.title, "description": d.description},
        lambda d: Description(d["title"], d["description"]),
        obj(req("title", string), opt("description", string)),
    )
    entry = conv(
        lambda e: {"description": e.description, "encoding": e.encoding},
        lambda d: Entry(d["description"], d["encoding"]),
        obj(req("description", description), req("encoding", toplevel)),
    )
    return conv(
        lambda s: {"toplevel": s.toplevel, "fields": list(s.fields)},
        lambda d: BinarySchema(d["toplevel"], tuple(d["fields"])),
        obj(req("toplevel", toplevel), req("fields", list_(entry))),
    )


def legacy_binary_schema(twin: str) -> Encoding[BinarySchema]:
    """The binary schema in the legacy dialect, as :data:`binary_schema`, for an
    encoding that holds it: what it cannot state is refused (``not_in_dialect``)
    naming ``twin``, the name of that encoding's 1.0 twin (the service tree's
    is ``rpc.service_tree_v1``)."""
    return _schema_encoding(modern=False, twin=twin)


binary_schema: Encoding[BinarySchema] = legacy_binary_schema("binary_schema_v1")
"""The binary schema in the legacy dialect the seed's node publishes (reads both)."""

binary_schema_v1: Encoding[BinarySchema] = _schema_encoding(modern=True, twin="binary_schema_v1")
"""The binary schema in data-encoding 1.0's dialect (reads both)."""


publish(__name__, globals())  # the encodings above pickle by reference
