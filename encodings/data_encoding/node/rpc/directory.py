"""Services and the directory tree they hang in, and its ``/describe`` answer.

A :class:`Service` is one endpoint: method, path (static segments, typed
arguments, and possibly a dynamic tail that takes every remaining segment),
query, and the encodings of its input, output and error. Where the seed
does not show a body, it is the ``json`` (any) encoding and the service is
not :attr:`~Service.typed`.

A :class:`Directory` is the tree of paths: each node holds services by
method and either named sub-directories or one argument's dispatch; a node
may instead be a *dynamic subtree*, built on demand by the node (the
block-scoped namespace, the mempool), described as ``{"dynamic": …}`` until
a path descends into it.

:meth:`Directory.describe` answers as the node's RPC layer does (the
reference's ``Resto_directory.describe_directory``): a static node lists its
services, and with ``recurse`` its sub-directories (sorted by name, each
described recursively); a path that crosses a dynamic subtree describes the
subtree's own directory; without ``recurse``, a node with no service is
not found.

Building a directory, a path that cannot be placed (a second service with
the same method and path, a static segment beside an argument, two
arguments at one place, a path through a dynamic subtree, an unknown
argument name) is a :class:`~data_encoding.DefinitionError` that names the
method, the path and why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, NamedTuple

from ...errors import DefinitionError
from ...jsonvalue import JsonValue
from ...passes.schema.values import Dialect
from ...tree.core import Encoding
from ..catalogue.failures import ERROR
from .args import ARGS, Arg, ArgError
from .query import Query

__all__ = ["Directory", "NotFound", "Service", "Tail", "parse_path", "path_text"]

Method = Literal["GET", "POST", "DELETE", "PUT", "PATCH"]
METHODS: tuple[Method, ...] = ("GET", "POST", "DELETE", "PUT", "PATCH")


class NotFound(LookupError):
    """A path that names no directory node."""


@dataclass(frozen=True)
class Tail:
    """A dynamic tail: ``arg`` takes every remaining segment (``<string>*``)."""

    arg: Arg


Segment = str | Arg | Tail


def parse_path(text: str) -> tuple[Segment, ...]:
    """``/a/<chain_id>/b/<string>*`` as segments (arguments from :data:`ARGS`)."""
    out: list[Segment] = []
    for word in text.strip("/").split("/") if text.strip("/") else []:
        if word.startswith("<"):
            name = word[1:].rstrip("*").rstrip(">")
            if name not in ARGS:
                raise DefinitionError(f"{text}: no argument is named {name!r}")
            arg = ARGS[name]
            out.append(Tail(arg) if word.endswith("*") else arg)
        else:
            out.append(word)
    return tuple(out)


def path_text(path: tuple[Segment, ...]) -> str:
    """The inverse of :func:`parse_path`."""
    words = [
        s if isinstance(s, str) else f"<{s.arg.name}>*" if isinstance(s, Tail) else f"<{s.name}>"
        for s in path
    ]
    return "/" + "/".join(words)


def _schemas(e: Encoding[Any]) -> dict[str, Any]:
    return {"json_schema": e.json_schema(), "binary_schema": e.describe()}


@dataclass(frozen=True, eq=False)
class Service:
    """One endpoint."""

    method: Method
    #: relative to the directory it is registered in
    path: tuple[Segment, ...]
    output: Encoding[Any]
    input: Encoding[Any] | None = None
    query: Query = field(default_factory=Query)
    description: str | None = None
    error: Encoding[Any] = ERROR
    #: False when the seed does not show a body (then it is ``json``)
    typed: bool = True
    #: ``None``, or the one edition of the index that lists it (seed part 9)
    edition: str | None = None
    #: what a node's ``/describe`` published of it, when it was read from
    #: there (:meth:`Directory.from_describe`): what :attr:`described` shows
    published: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def path_text(self) -> str:
        return path_text(self.path)

    @cached_property
    def described(self) -> dict[str, Any]:
        """The value ``/describe`` shows for it (``rpc.service``)."""
        if self.published is not None:
            return self.published
        path: list[Any] = [
            s
            if isinstance(s, str)
            else {**s.arg.describe(), "id": "multiple"}
            if isinstance(s, Tail)
            else s.describe()
            for s in self.path
        ]
        return {
            "meth": self.method,
            "path": path,
            "description": self.description,
            "query": [f.describe() for f in self.query.fields],
            "input": None if self.input is None else _schemas(self.input),
            "output": _schemas(self.output),
            "error": _schemas(self.error),
        }


class _Place(NamedTuple):
    """A node of a directory, reached by a concrete path."""

    node: Directory
    #: its path: the segments that lead to it, arguments as such
    here: tuple[Segment, ...]
    #: where the dynamic subtree it is in hangs (what its services' paths follow)
    base: tuple[Segment, ...]


@dataclass
class Dynamic:
    """A subtree the node builds on demand: ``below`` when it is known."""

    description: str | None
    below: Directory | None


@dataclass
class Directory:
    """A node of the tree (the root is the whole directory)."""

    services: dict[Method, Service] = field(default_factory=dict)
    suffixes: dict[str, Directory] = field(default_factory=dict)
    dispatch: tuple[Arg, Directory] | None = None
    tail: bool = False
    dynamic: Dynamic | None = None

    # ------------------------------------------------------------ building

    def _child(self, segment: Segment, where: str) -> Directory:
        if self.dynamic is not None or self.tail:
            raise DefinitionError(f"{where}: a path goes through a dynamic subtree or a tail")
        if isinstance(segment, str):
            if self.dispatch is not None:
                raise DefinitionError(
                    f"{where}: {segment!r} beside argument {self.dispatch[0].name}"
                )
            return self.suffixes.setdefault(segment, Directory())
        arg = segment.arg if isinstance(segment, Tail) else segment
        if self.suffixes:
            raise DefinitionError(f"{where}: argument {arg.name} beside {sorted(self.suffixes)}")
        if self.dispatch is None:
            self.dispatch = (arg, Directory(tail=isinstance(segment, Tail)))
        elif self.dispatch[0] != arg or self.dispatch[1].tail != isinstance(segment, Tail):
            held = self.dispatch[0].name + ("*" if self.dispatch[1].tail else "")
            given = arg.name + ("*" if isinstance(segment, Tail) else "")
            raise DefinitionError(f"{where}: argument {given} where {held} is")
        return self.dispatch[1]

    def _node(self, path: tuple[Segment, ...], where: str) -> Directory:
        node = self
        for segment in path:
            node = node._child(segment, where)
        return node

    def register(self, service: Service) -> None:
        """Add ``service`` at its path (:class:`~data_encoding.DefinitionError` on a conflict)."""
        where = f"{service.method} {service.path_text}"
        node = self._node(service.path, where)
        if node.dynamic is not None:
            raise DefinitionError(f"{where}: the place is a dynamic subtree")
        if service.method in node.services:
            raise DefinitionError(f"{where}: registered twice")
        node.services[service.method] = service

    def mount(
        self, path: tuple[Segment, ...], description: str | None, below: Directory | None
    ) -> None:
        """Make the node at ``path`` a dynamic subtree (``below`` its directory, when known)."""
        node = self._node(path, f"mount {path_text(path)}")
        if node.services or node.suffixes or node.dispatch or node.dynamic:
            taken = [
                what
                for what, there in (
                    ("services", node.services),
                    ("suffixes", node.suffixes),
                    ("an argument", node.dispatch),
                    ("a mount", node.dynamic),
                )
                if there
            ]
            raise DefinitionError(f"mount {path_text(path)}: the place holds {' and '.join(taken)}")
        node.dynamic = Dynamic(description, below)

    @classmethod
    def from_describe(
        cls, answer: JsonValue | str | bytes, *, at: str = "/", dialect: Dialect = "1.0"
    ) -> Directory:
        """The directory a node's ``/describe`` answer states (see
        :mod:`.published`): its JSON (a value or its text) or its binary
        form, the answer to ``GET /describe<at>?recurse=yes``."""
        from .published import from_describe

        return from_describe(answer, at=at, dialect=dialect)

    # ------------------------------------------------------------ reading

    def service(self, method: str, path: str) -> Service:
        """The service that answers ``method path`` (a concrete path:
        ``/chains/main/blocks/head/hash``), or :class:`NotFound`."""
        services: dict[str, Service] = self._find(path).node._landing().services  # type: ignore[assignment]
        found = services.get(method)
        if found is None:
            raise NotFound(f"{method} {path}: no such service")
        return found

    def walk(self, path: str = "/") -> Iterator[tuple[tuple[Segment, ...], Service]]:
        """Every service under the concrete ``path`` (the whole directory by
        default), with its full path, dynamic subtrees included;
        :class:`NotFound` at once when ``path`` names nothing."""
        place = self._find(path)
        return place.node._walk(place.here, place.base)

    def _walk(
        self, here: tuple[Segment, ...], base: tuple[Segment, ...]
    ) -> Iterator[tuple[tuple[Segment, ...], Service]]:
        """The services from this node (at ``here``) down; a service's own
        path is relative to ``base``, where its subtree hangs."""
        for service in self.services.values():
            yield base + service.path, service
        if self.dynamic is not None and self.dynamic.below is not None:
            yield from self.dynamic.below._walk(here, here)
        for name in sorted(self.suffixes):
            yield from self.suffixes[name]._walk((*here, name), base)
        if self.dispatch is not None:
            arg, child = self.dispatch
            yield from child._walk((*here, Tail(arg) if child.tail else arg), base)

    def describe(self, path: str = "/", recurse: bool = True) -> Any:
        """The service tree the node answers to ``GET /describe<path>`` (see the module's notes)."""
        node = self._find(path).node
        if node.dynamic is not None and node.dynamic.below is None:
            return {"dynamic": node.dynamic.description}
        node = node._landing()
        if not recurse and not node.services:
            raise NotFound(f"{path}: no service here (describe it with recurse)")
        return node._tree(recurse)

    def _find(self, path: str) -> _Place:
        """The node of the concrete ``path`` (a dynamic tail's parent for
        a path that goes into the tail) and where it is, or :class:`NotFound`."""
        node = self
        here: tuple[Segment, ...] = ()
        base: tuple[Segment, ...] = ()
        for segment in [s for s in path.split("/") if s]:
            if node._enter() is not node:  # services below hang from here
                node, base = node._enter(), here
            if node.dispatch is not None and node.dispatch[1].tail:
                break  # a dynamic tail takes the rest
            if segment in node.suffixes:
                node, here = node.suffixes[segment], (*here, segment)
            elif node.dispatch is not None:
                arg, node = node.dispatch
                try:
                    arg.parse(segment)
                except ArgError as exc:
                    raise NotFound(f"{path}: {exc}") from None
                here = (*here, arg)
            else:
                raise NotFound(f"{path}: no {segment!r} here")
        return _Place(node, here, base)

    def _landing(self) -> Directory:
        """Where the services of this node's path are: below its mount, in
        its tail (which takes the rest of a path, or nothing)."""
        node = self._enter()
        return node.dispatch[1] if node.dispatch is not None and node.dispatch[1].tail else node

    def _enter(self) -> Directory:
        return self.dynamic.below if self.dynamic is not None and self.dynamic.below else self

    def _tree(self, recurse: bool) -> Any:
        if self.dynamic is not None:
            return {"dynamic": self.dynamic.description}
        static: dict[str, Any] = {
            f"{m.lower()}_service": self.services[m].described
            for m in METHODS
            if m in self.services
        }
        if recurse and self.suffixes:
            static["subdirs"] = {
                "suffixes": [
                    {"name": name, "tree": self.suffixes[name]._tree(True)}
                    for name in sorted(self.suffixes)
                ]
            }
        elif recurse and self.dispatch is not None:
            arg, child = self.dispatch
            static["subdirs"] = {
                "dynamic_dispatch": {"arg": arg.describe(), "tree": child._tree(True)}
            }
        return {"static": static}
