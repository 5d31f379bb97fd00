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
  JSON, and a binary schema.

Values are plain dicts (typed below), except binary schemas, which are
:class:`~data_encoding.BinarySchema` values.

The tree is built twice, by one construction over a binary schema encoding:
:data:`SERVICE_TREE` (``rpc.service_tree``) over the legacy dialect the
seed's node speaks, and :data:`SERVICE_TREE_V1` (``rpc.service_tree_v1``) over
data-encoding 1.0's (:data:`~data_encoding.binary_schema_v1`), for the answers
of newer nodes: their ``exactly`` limits, little-endian integers and ``N``
size headers have no legacy binary form. Both read every spelling and print
each schema back in its words (see :mod:`data_encoding.passes.schema`). The
parts that hold a schema have their twins too (``rpc.service`` and
``rpc.service_v1``, ``rpc.schemas`` and ``rpc.schemas_v1``); each legacy one
refuses what its dialect cannot state naming its own twin
(``not_in_dialect``: "... use rpc.service_tree_v1").

>>> SERVICE_TREE.to_json({"dynamic": None})
{'dynamic': None}
>>> SERVICE_TREE.encode("empty").hex()
'02'
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from ...jsonvalue import JsonValue
from ...passes.schema import BinarySchema, binary_schema, binary_schema_v1, legacy_binary_schema
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
    "SCHEMAS_V1",
    "SERVICE",
    "SERVICE_TREE",
    "SERVICE_TREE_V1",
    "SERVICE_V1",
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


def _schemas(schema: Encoding[BinarySchema]) -> Encoding[Schemas]:
    return typed(Schemas, obj(req("json_schema", json), req("binary_schema", schema)))


class Service(TypedDict):
    meth: Method
    path: list[PathItem]
    description: NotRequired[str | bytes | None]
    query: list[QueryItem]
    input: NotRequired[Schemas | None]
    output: Schemas
    error: Schemas


def _service(schemas: Encoding[Schemas]) -> Encoding[Service]:
    return typed(
        Service,
        obj(
            req("meth", METHOD),
            req("path", list_(PATH_ITEM)),
            opt("description", string),
            req("query", list_(QUERY_ITEM)),
            opt("input", schemas),
            req("output", schemas),
            req("error", schemas),
        ),
    )


#: a tree: {"static": StaticDirectory}, {"dynamic": str | None} or "empty"
ServiceTree = dict[str, Any] | Literal["empty"]


def _service_tree(service: Encoding[Service]) -> Encoding[ServiceTree]:
    return mu("service_tree", lambda self: _tree(self, service))


def _tree(self: Encoding[Any], service: Encoding[Service]) -> Encoding[Any]:
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
        opt("get_service", service),
        opt("post_service", service),
        opt("delete_service", service),
        opt("put_service", service),
        opt("patch_service", service),
        opt("subdirs", subdirs),
    )
    return union(
        [
            case(0, "Static", obj(req("static", static))),
            case(1, "Dynamic", obj(req("dynamic", option(string)))),
            case(2, "Empty", constant("empty")),
        ]
    )


def _legacy_schemas(twin: str) -> Encoding[Schemas]:
    """A body's schemas in the legacy dialect, inside the encoding whose 1.0
    twin is named ``twin`` (the schema's refusals name it)."""
    return _schemas(legacy_binary_schema(twin))


# Each legacy id over a schema encoding of its own, so that what it refuses
# names its own twin (a refusal is built where the schema's part is written,
# which knows nothing of what holds it); the 1.0 ones refuse nothing and share.
SCHEMAS = _legacy_schemas("rpc.schemas_v1")
SERVICE = _service(_legacy_schemas("rpc.service_v1"))
SERVICE_TREE = _service_tree(_service(_legacy_schemas("rpc.service_tree_v1")))

SCHEMAS_V1 = _schemas(binary_schema_v1)
SERVICE_V1 = _service(SCHEMAS_V1)
SERVICE_TREE_V1 = _service_tree(SERVICE_V1)


# ------------------------------------------------------------------ registry

_TREE = "2 Service tree"
_DISCOVERY = "4.3 Schema discovery"
_LEGACY = "legacy dialect"
_V1 = "data-encoding 1.0 dialect"

register(
    "rpc.service_tree",
    SERVICE_TREE,
    f"the /describe answer: a tree of services ({_LEGACY})",
    _DISCOVERY,
)
register(
    "rpc.service_tree_v1",
    SERVICE_TREE_V1,
    f"the /describe answer: a tree of services ({_V1})",
    _DISCOVERY,
)
register("rpc.service", SERVICE, f"one service: method, path, query, schemas ({_LEGACY})", _TREE)
register("rpc.service_v1", SERVICE_V1, f"one service: method, path, query, schemas ({_V1})", _TREE)
register("rpc.method", METHOD, "an HTTP method (GET 0 ... PATCH 4)", _TREE)
register("rpc.path_item", PATH_ITEM, "a path segment: static, dynamic or dynamic tail", _TREE)
register("rpc.arg", ARG, "a path or query argument's name and description", _TREE)
register("rpc.query_item", QUERY_ITEM, "a query argument: single, optional, flag or multi", _TREE)
register("rpc.schemas", SCHEMAS, f"a body's JSON schema and binary schema ({_LEGACY})", _TREE)
register("rpc.schemas_v1", SCHEMAS_V1, f"a body's JSON schema and binary schema ({_V1})", _TREE)
register("rpc.binary_schema", binary_schema, f"a binary schema ({_LEGACY})", _TREE)
register("rpc.binary_schema_v1", binary_schema_v1, f"a binary schema ({_V1})", _TREE)


publish(__name__, globals())  # the encodings above pickle by reference
