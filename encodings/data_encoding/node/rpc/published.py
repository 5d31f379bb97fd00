"""A directory read from a node's ``/describe`` answer, with a codec per body.

Any node publishes, for each service, the ``{json_schema, binary_schema}``
pair of its input, output and error (``rpc.service_tree``). Read back with
:meth:`Directory.from_describe <.directory.Directory.from_describe>`, the
answer gives the same :class:`~.directory.Directory` as the catalogue's, so
that ``directory.service("GET", "/chains/main/mempool/pending_operations")``
is a :class:`~.directory.Service` whose ``output`` is an encoding, rebuilt
from its schema pair (:func:`~data_encoding.from_schema`), also for the
services the seed leaves "not shown" and protocols it has never seen.

* A body's encoding is rebuilt on first use (a ``delayed``): reading an
  answer of a few hundred services rebuilds nothing, and a schema the
  library cannot rebuild is a :class:`~data_encoding.DefinitionError` where
  it is used, not where the answer is read. Rebuilt encodings are shared
  (one per schema, however many services and answers state it) and pickle
  as their schema.
* Each service keeps what the node published of it
  (:attr:`~.directory.Service.published`), so ``describe()`` of the
  directory prints the answer back as it was sent.
* An answer describes the subtree of the path it was asked for (``at``),
  with paths relative to it: the directory holds it there as a mounted
  subtree (``describe(at)`` prints it back).
* Path and query arguments keep the node's names and descriptions; an
  argument the library knows (:data:`~.args.ARGS`) parses its values,
  another takes any text.

Each body is rebuilt from both its schemas (:mod:`~data_encoding.node.rebuilt`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ...jsonvalue import JsonValue, loads
from ...passes.schema.values import Dialect
from ...tree.core import Encoding
from ...tree.wrappers import delayed
from ..catalogue.failures import ERROR
from ..rebuilt import from_schema
from ..registry import find
from .args import ARGS, Arg
from .directory import METHODS, Directory, Dynamic, Service, Tail, parse_path
from .query import Query, QueryField

__all__ = ["from_describe"]

TREES: dict[Dialect, str] = {"legacy": "rpc.service_tree", "1.0": "rpc.service_tree_v1"}
"""The encoding of an answer, by the dialect of its binary schemas (JSON
answers read in either: the 1.0 tree reads every spelling)."""


def from_describe(
    answer: JsonValue | str | bytes, *, at: str = "/", dialect: Dialect = "1.0"
) -> Directory:
    """The directory ``answer`` states: the answer to ``GET
    /describe<at>?recurse=yes``, as JSON (a value or its text) or as bytes
    (in the binary form of ``dialect``'s service tree)."""
    tree = find(TREES[dialect]).encoding
    if isinstance(answer, bytes | bytearray | memoryview):
        value = tree.decode(answer)
    else:
        value = tree.from_json(loads(answer) if isinstance(answer, str) else answer)
    root = Directory()
    if not parse_path(at):
        _fill(root, value)
        return root
    # the services' paths are relative to ``at``, as in a mounted subtree
    below = Directory()
    _fill(below, value)
    root.mount(parse_path(at), None, below)
    return root


def _fill(node: Directory, tree: dict[str, Any]) -> None:
    if "dynamic" in tree:
        node.dynamic = Dynamic(tree["dynamic"], None)
        return
    static = tree["static"]
    for method in METHODS:
        published = static.get(f"{method.lower()}_service")
        if published is not None:
            node.services[method] = _service(published)
    subdirs = static.get("subdirs")
    if subdirs is None:
        return
    if "suffixes" in subdirs:
        for suffix in subdirs["suffixes"]:
            child = node.suffixes[suffix["name"]] = Directory()
            _fill(child, suffix["tree"])
    else:
        dispatch = subdirs["dynamic_dispatch"]
        arg = dispatch["arg"]
        child = Directory(tail=arg["id"] == "multiple")
        node.dispatch = (_arg(arg), child)
        _fill(child, dispatch["tree"])


def _service(published: dict[str, Any]) -> Service:
    path = tuple(
        segment
        if isinstance(segment, str)
        else Tail(_arg(segment))
        if segment["id"] == "multiple"
        else _arg(segment)
        for segment in published["path"]
    )
    body, error = published["input"], published["error"]
    return Service(
        published["meth"],
        path,
        output=_body(published["output"]),
        input=None if body is None else _body(body),
        query=Query(tuple(_query_field(q) for q in published["query"])),
        description=published["description"],
        error=ERROR if error is None else _body(error),
        published=published,
    )


def _body(schemas: dict[str, Any]) -> Encoding[Any]:
    """The encoding of a body, rebuilt from its schemas on first use."""
    return delayed(partial(from_schema, schemas["binary_schema"], schemas["json_schema"]))


def _arg(described: dict[str, Any]) -> Arg:
    """An argument as published: the library's of that name parses it."""
    known = ARGS.get(described["name"])
    descr = described["descr"]
    if known is None:
        return Arg(described["name"], descr)
    return Arg(known.name, descr, known.parse, known.print)


def _query_field(published: dict[str, Any]) -> QueryField:
    ((kind, arg),) = published["kind"].items()
    return QueryField(
        published["name"],
        kind,
        ARGS["bool"] if kind == "flag" else _arg(arg),
        published["description"],
    )
