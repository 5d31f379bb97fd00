"""Build our combinators from the encoding DSL of ``shared/vectors/legacy-conformance.jsonl``.

The DSL is documented in ``tests/vectors/FORMAT.md``: a bare string names a
parameterless kind (``"int32"``), an object ``{"kind": K, ...}`` a
parameterised one; ``{"kind": "self", "name": N}`` refers to the enclosing
``mu`` named ``N``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import data_encoding as de
from data_encoding import Encoding

Dsl = str | dict[str, Any]

_SIMPLE: Mapping[str, Encoding[Any]] = {
    "null": de.null,
    "empty": de.empty,
    "unit": de.unit,
    "bool": de.bool_,
    "int8": de.int8,
    "uint8": de.uint8,
    "int16": de.int16,
    "uint16": de.uint16,
    "int31": de.int31,
    "int32": de.int32,
    "int64": de.int64,
    "float": de.float_,
    "n": de.n,
    "z": de.z,
    "string": de.string,
    "bytes": de.bytes_,
    "json": de.json,
}


def build(dsl: Dsl, selves: Mapping[str, Encoding[Any]] | None = None) -> Encoding[Any]:
    """The encoding that ``dsl`` describes."""
    selves = selves or {}
    if isinstance(dsl, str):
        dsl = {"kind": dsl}
    kind = dsl["kind"]
    sub: Callable[[Dsl], Encoding[Any]] = lambda d: build(d, selves)  # noqa: E731
    if kind in ("string", "bytes") and len(dsl) > 1:
        return _string_form(kind, dsl)
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "constant":
        return de.constant(dsl["value"])
    if kind == "ranged_int":
        return de.ranged_int(dsl["min"], dsl["max"])
    if kind == "ranged_float":
        return de.ranged_float(dsl["min"], dsl["max"])
    if kind == "string_enum":
        return de.string_enum(dsl["cases"])
    if kind == "dynamic_size":
        return de.dynamic_size(sub(dsl["enc"]), kind=dsl.get("size", "Uint30"))
    if kind == "check_size":
        return de.check_size(dsl["limit"], sub(dsl["enc"]))
    if kind == "padded":
        return de.padded(sub(dsl["enc"]), dsl["padding"])
    if kind in ("list", "array"):
        return _collection(kind, dsl, sub)
    if kind == "option":
        return de.option(sub(dsl["enc"]))
    if kind == "obj":
        return _obj(dsl["fields"], sub)
    if kind == "tup":
        return _tup([sub(e) for e in dsl["elts"]])
    if kind == "merge_objs":
        return de.merge_objs(sub(dsl["left"]), sub(dsl["right"]))
    if kind == "merge_tups":
        return de.merge_tups(sub(dsl["left"]), sub(dsl["right"]))
    if kind == "union":
        cases = [
            de.case(c["tag"], c["title"], sub(c["enc"]), description=c.get("description"))
            for c in dsl["cases"]
        ]
        return de.union(cases, tag_size=dsl.get("tag_size", "Uint8"))
    if kind == "def":
        return de.def_(
            dsl["name"], sub(dsl["enc"]), title=dsl.get("title"), description=dsl.get("description")
        )
    if kind == "mu":
        name = dsl["name"]
        return de.mu(
            name,
            lambda self: build(dsl["enc"], {**selves, name: self}),
            title=dsl.get("title"),
            description=dsl.get("description"),
        )
    if kind == "self":
        return selves[dsl["name"]]
    if kind == "splitted":
        return de.splitted(json=sub(dsl["json"]), binary=sub(dsl["binary"]))
    if kind == "delayed":
        inner = dsl["enc"]
        return de.delayed(lambda: build(inner, selves))
    raise ValueError(f"unknown DSL kind {kind!r}")


def _string_form(kind: str, dsl: dict[str, Any]) -> Encoding[Any]:
    if "fixed" in dsl:
        return de.fixed.string(dsl["fixed"]) if kind == "string" else de.fixed.bytes_(dsl["fixed"])
    if dsl.get("variable"):
        return de.variable.string if kind == "string" else de.variable.bytes_
    if "max_length" in dsl:
        limit = dsl["max_length"]
        return de.bounded.string(limit) if kind == "string" else de.bounded.bytes_(limit)
    raise ValueError(f"unknown {kind} form {dsl}")


def _collection(
    kind: str, dsl: dict[str, Any], sub: Callable[[Dsl], Encoding[Any]]
) -> Encoding[Any]:
    elt = sub(dsl["enc"])
    max_length = dsl.get("max_length")
    if dsl.get("variable"):
        make = de.variable.list_ if kind == "list" else de.variable.array
        return make(elt, max_length)
    return (de.list_ if kind == "list" else de.array)(elt, max_length)


def _field(f: dict[str, Any], sub: Callable[[Dsl], Encoding[Any]]) -> de.Field:
    enc = sub(f["enc"])
    meta = {"title": f.get("title"), "description": f.get("description")}
    if "req" in f:
        return de.req(f["req"], enc, **meta)
    if "opt" in f:
        return de.opt(f["opt"], enc, **meta)
    if "varopt" in f:
        return de.varopt(f["varopt"], enc, **meta)
    if "dft" in f:
        default = enc.from_json(f["default"])
        return de.dft(f["dft"], enc, default, **meta)
    raise ValueError(f"unknown field {f}")


def _obj(fields: list[dict[str, Any]], sub: Callable[[Dsl], Encoding[Any]]) -> Encoding[Any]:
    # As the README says: more than 10 fields is merge_objs(first 10, the rest).
    if len(fields) > 10:
        return de.merge_objs(_obj(fields[:10], sub), _obj(fields[10:], sub))
    return de.obj(*(_field(f, sub) for f in fields))


def _tup(elements: list[Encoding[Any]]) -> Encoding[Any]:
    if len(elements) > 10:
        return de.merge_tups(_tup(elements[:10]), _tup(elements[10:]))
    return de.tup(*elements)
