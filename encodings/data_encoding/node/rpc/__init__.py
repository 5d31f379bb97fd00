"""The node's RPC directory (the seed's part 4) and its ``/describe`` answer.

>>> from data_encoding.node import rpc
>>> from data_encoding.node.registry import find
>>> tree = rpc.describe("/chains/main/checkpoint", recurse=False)
>>> path = tree["static"]["get_service"]["path"]
>>> [item if isinstance(item, str) else item["name"] for item in path]
['chains', 'chain_id', 'checkpoint']
>>> service_tree = find("rpc.service_tree").encoding
>>> service_tree.to_json(tree)["static"]["get_service"]["meth"]
'GET'

``describe`` of the root with ``recurse`` is what ``GET /describe?recurse=yes``
answers: the whole directory, the block-scoped namespace shown as the
dynamic subtree it is (``{"dynamic": …}``) until a path goes below
``/chains/<chain_id>/blocks/<block_id>``.

The extension namespace, written ``/ext`` in the seed, is published under
the brand's name: ``dune`` unless another is given
(``describe(..., brand="ext")``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...tree.anyjson import json
from ..catalogue.chains import BLOCK_METADATA
from . import alpha, shell
from .args import ARGS, Arg, ArgError
from .directory import Directory, NotFound, Service, Tail, parse_path, path_text
from .query import Query, QueryField

__all__ = [
    "ARGS",
    "BRAND",
    "Arg",
    "ArgError",
    "Directory",
    "NotFound",
    "Query",
    "QueryField",
    "Service",
    "Tail",
    "describe",
    "directory_of",
    "parse_path",
    "path_text",
    "services",
]

BRAND = "dune"
"""The name the seed's ``/ext`` namespace is published under by default."""


def _branded(path: str, brand: str) -> str:
    return f"/{brand}{path[4:]}" if path.startswith("/ext/") else path


def _untyped(method: str, path: str, brand: str, edition: str | None = None) -> Service:
    return Service(
        method,  # type: ignore[arg-type]
        parse_path(_branded(path, brand)),
        output=json,
        input=json if method in ("POST", "PUT") else None,
        typed=False,
        edition=edition,
    )


@cache
def _alpha(brand: str) -> Directory:
    below = Directory()
    for method, paths in (("GET", alpha.GET), ("POST", alpha.POST)):
        for path in paths:
            edition = alpha.EDITIONS.get(path)
            if method == "GET" and path == "/metadata":
                below.register(Service("GET", parse_path(path), BLOCK_METADATA))
            else:
                below.register(_untyped(method, path, brand, edition))
    return below


@cache
def directory_of(brand: str = BRAND) -> Directory:
    """The whole directory, with ``/ext`` published as ``/<brand>``."""
    root = Directory()
    for method, path, query, input, output, description in shell.ROWS:
        root.register(
            Service(
                method,  # type: ignore[arg-type]
                parse_path(path),
                output=output,
                input=input,
                query=Query(query),
                description=description,
            )
        )
    for method, path in shell.UNTYPED:
        root.register(_untyped(method, path, brand))
    for path, description in shell.DYNAMIC:
        below = _alpha(brand) if path.endswith("<block_id>") else None
        root.mount(parse_path(path), description, below)
    return root


def describe(path: str = "/", recurse: bool = True, *, brand: str = BRAND) -> Any:
    """The value of ``rpc.service_tree`` that ``GET /describe<path>?recurse=…``
    answers (:class:`NotFound` when the path names nothing)."""
    return directory_of(brand).describe(path, recurse)


def services(brand: str = BRAND) -> list[tuple[str, Service]]:
    """Every endpoint: its full path (``/chains/<chain_id>/...``) and service."""
    return [(path_text(p), s) for p, s in directory_of(brand).walk()]
