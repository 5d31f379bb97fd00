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

The seed shows none of the block-scoped bodies. The directory of a node
running one of the protocols 004-007 (``describe(..., protocol="007-PsDELPH1")``,
:func:`directory_of`) keeps the seed's paths and types their bodies, and
the injection's, as the protocol declares them (:mod:`.protocol`):

>>> hash = rpc.describe("/chains/main/blocks/head/hash", recurse=False, protocol="delphi")
>>> hash["static"]["get_service"]["output"]["json_schema"]["$ref"]
'#/definitions/block_hash'
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ...tree.anyjson import json
from ..catalogue.chains import BLOCK_METADATA
from ..protocols.versions import Protocol, UnknownProtocol, find_protocol
from . import alpha, shell
from .args import ARGS, Arg, ArgError
from .directory import Directory, NotFound, Service, Tail, parse_path, path_text
from .protocol import INJECTION, declared
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
    "UnknownProtocol",
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
def _block(brand: str, protocol: Protocol | None) -> Directory:
    """The block-scoped directory: the seed's services, typed where
    ``protocol`` declares them."""
    typed = {} if protocol is None else declared(protocol)
    below = Directory()
    for method, path in alpha.SERVICES:
        service = typed.get((method, path))
        if service is None and method == "GET" and path == "/metadata":
            service = Service("GET", parse_path(path), BLOCK_METADATA)
        below.register(service or _untyped(method, path, brand, alpha.EDITIONS.get(path)))
    return below


@cache
def _directory(brand: str, protocol: Protocol | None) -> Directory:
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
    typed = {} if protocol is None else declared(protocol, INJECTION, shell.UNTYPED)
    for method, path in shell.UNTYPED:
        root.register(typed.get((method, path)) or _untyped(method, path, brand))
    for path, description in shell.DYNAMIC:
        below = _block(brand, protocol) if path.endswith("<block_id>") else None
        root.mount(parse_path(path), description, below)
    return root


def directory_of(brand: str = BRAND, protocol: Protocol | str | None = None) -> Directory:
    """The whole directory, with ``/ext`` published as ``/<brand>``: the
    seed's, or, for a ``protocol`` (a
    :class:`~data_encoding.node.protocols.Protocol`, or a name
    :func:`~data_encoding.node.protocols.find_protocol` knows: ``007-PsDELPH1``),
    with the services typed as that protocol declares them (:mod:`.protocol`)."""
    return _directory(brand, None if protocol is None else find_protocol(protocol))


def describe(
    path: str = "/",
    recurse: bool = True,
    *,
    brand: str = BRAND,
    protocol: Protocol | str | None = None,
) -> Any:
    """The value of ``rpc.service_tree`` that ``GET /describe<path>?recurse=…``
    answers (:class:`NotFound` when the path names nothing), in the directory
    of ``protocol`` if one is given (:func:`directory_of`)."""
    return directory_of(brand, protocol).describe(path, recurse)


def services(
    brand: str = BRAND, protocol: Protocol | str | None = None
) -> list[tuple[str, Service]]:
    """Every endpoint: its full path (``/chains/<chain_id>/...``) and service."""
    return [(path_text(p), s) for p, s in directory_of(brand, protocol).walk()]
