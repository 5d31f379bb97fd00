"""Schema discovery: the service tree ``GET /describe`` answers (seed parts 2 and 4.3).

Written with the library's own combinators, as the node's RPC layer writes
it (the reference's ``RPC_encoding``), so a tree reads and prints in JSON and
in binary:

* a **tree** (``mu "service_tree"``) is a union: ``{"static": directory}``
  (tag 0), ``{"dynamic": null | description}`` (tag 1: a subtree built on
  demand, like the block-scoped namespace) or the string ``"empty"`` (tag 2);
* a **static directory** holds up to five services, ``get_service`` …
  ``patch_service`` (each optional), then optional ``subdirs``: either
  ``{"suffixes": [{name, tree}...]}`` (tag 0) or ``{"dynamic_dispatch":
  {arg, tree}}`` (tag 1);
* a **service** is ``{meth, path, description?, query, input?, output,
  error}``; ``meth`` is an enumeration (GET 0, POST 1, DELETE 2, PUT 3,
  PATCH 4); a path item is a string (tag 0), ``{"id": "single", name,
  descr?}`` (tag 1) or ``{"id": "multiple", ...}`` (tag 2, a dynamic tail);
  a query item is ``{name, description?, kind}`` with kind ``{"single":
  arg}`` (0), ``{"optional": arg}`` (1), ``{"flag": {}}`` (2) or
  ``{"multi": arg}`` (3);
* ``input``/``output``/``error`` are ``{json_schema, binary_schema}``: any
  JSON, and the :data:`~data_encoding.binary_schema` encoding's value.

Values are plain dicts (typed below), except binary schemas, which are
:class:`~data_encoding.BinarySchema` values.

>>> SERVICE_TREE.to_json({"dynamic": None})
{'dynamic': None}
>>> SERVICE_TREE.encode("empty").hex()
'02'
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from ...jsonvalue import JsonValue
from ...passes.schema import BinarySchema, binary_schema
from ...tree.anyjson import json
from ...tree.core import Encoding, publish
from ...tree.primitives import constant, empty
from ...tree.records import obj, opt, req
from ...tree.sequences import list_
from ...tree.strings import string
from ...tree.typed import typed
from ...tree.unions import case, option, string_enum, union
from ...tree.wrappers import mu
from ..registry import register

__all__ = [
    "ARG",
    "METHOD",
    "PATH_ITEM",
    "QUERY_ITEM",
    "SCHEMAS",
    "SERVICE",
    "SERVICE_TREE",
    "Arg",
    "Method",
    "QueryItem",
    "Schemas",
    "Service",
    "ServiceTree",
]

Method = Literal["GET", "POST", "DELETE", "PUT", "PATCH"]
METHOD: Encoding[Method] = string_enum(["GET", "POST", "DELETE", "PUT", "PATCH"])


class Arg(TypedDict):
    id: Literal["single"]
    name: str | bytes
    descr: NotRequired[str | bytes | None]


class MultiArg(TypedDict):
    id: Literal["multiple"]
    name: str | bytes
    descr: NotRequired[str | bytes | None]


def _arg(id: str) -> Encoding[Any]:
    return obj(req("id", constant(id)), req("name", string), opt("descr", string))


ARG = typed(Arg, _arg("single"))
MULTI_ARG = typed(MultiArg, _arg("multiple"))

PathItem = str | bytes | Arg | MultiArg
PATH_ITEM: Encoding[PathItem] = union(
    [
        case(0, "PStatic", string),
        case(1, "PDynamic", ARG),
        case(2, "PDynamicTail", MULTI_ARG),
    ]
)

QueryKind = (
    dict[Literal["single"], Arg]
    | dict[Literal["optional"], Arg]
    | dict[Literal["flag"], dict[str, Any]]
    | dict[Literal["multi"], Arg]
)
QUERY_KIND: Encoding[QueryKind] = union(
    [
        case(0, "Single", obj(req("single", ARG))),
        case(1, "Optional", obj(req("optional", ARG))),
        case(2, "Flag", obj(req("flag", empty))),
        case(3, "Multi", obj(req("multi", ARG))),
    ]
)


class QueryItem(TypedDict):
    name: str | bytes
    description: NotRequired[str | bytes | None]
    kind: QueryKind


QUERY_ITEM = typed(
    QueryItem,
    obj(req("name", string), opt("description", string), req("kind", QUERY_KIND)),
)


class Schemas(TypedDict):
    json_schema: JsonValue
    binary_schema: BinarySchema


SCHEMAS = typed(Schemas, obj(req("json_schema", json), req("binary_schema", binary_schema)))


class Service(TypedDict):
    meth: Method
    path: list[PathItem]
    description: NotRequired[str | bytes | None]
    query: list[QueryItem]
    input: NotRequired[Schemas | None]
    output: Schemas
    error: Schemas


SERVICE = typed(
    Service,
    obj(
        req("meth", METHOD),
        req("path", list_(PATH_ITEM)),
        opt("description", string),
        req("query", list_(QUERY_ITEM)),
        opt("input", SCHEMAS),
        req("output", SCHEMAS),
        req("error", SCHEMAS),
    ),
)

#: a tree: {"static": StaticDirectory}, {"dynamic": str | None} or "empty"
ServiceTree = dict[str, Any] | Literal["empty"]


def _tree(self: Encoding[Any]) -> Encoding[Any]:
    subdirs = union(
        [
            case(
                0,
                "Suffixes",
                obj(req("suffixes", list_(obj(req("name", string), req("tree", self))))),
            ),
            case(
                1,
                "Arg",
                obj(req("dynamic_dispatch", obj(req("arg", ARG), req("tree", self)))),
            ),
        ]
    )
    static = obj(
        opt("get_service", SERVICE),
        opt("post_service", SERVICE),
        opt("delete_service", SERVICE),
        opt("put_service", SERVICE),
        opt("patch_service", SERVICE),
        opt("subdirs", subdirs),
    )
    return union(
        [
            case(0, "Static", obj(req("static", static))),
            case(1, "Dynamic", obj(req("dynamic", option(string)))),
            case(2, "Empty", constant("empty")),
        ]
    )


SERVICE_TREE: Encoding[ServiceTree] = mu("service_tree", _tree)


# ------------------------------------------------------------------ registry

_TREE = "2 Service tree"

register(
    "rpc.service_tree",
    SERVICE_TREE,
    "the /describe answer: a tree of services",
    "4.3 Schema discovery",
)
register("rpc.service", SERVICE, "one service: method, path, query, schemas", _TREE)
register("rpc.method", METHOD, "an HTTP method (GET 0 ... PATCH 4)", _TREE)
register("rpc.path_item", PATH_ITEM, "a path segment: static, dynamic or dynamic tail", _TREE)
register("rpc.arg", ARG, "a path or query argument's name and description", _TREE)
register("rpc.query_item", QUERY_ITEM, "a query argument: single, optional, flag or multi", _TREE)
register("rpc.schemas", SCHEMAS, "a body's JSON schema and binary schema", _TREE)
register("rpc.binary_schema", binary_schema, "a binary schema (legacy dialect)", _TREE)


publish(__name__, globals())  # the encodings above pickle by reference
