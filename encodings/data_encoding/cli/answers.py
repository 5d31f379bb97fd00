"""A node's ``/describe`` answer as the command line reads it (``--describe
FILE``): the codec of a service's body for ``encode`` and ``decode``, and
the directory ``describe-rpc`` browses.

The answer is read with
:meth:`Directory.from_describe <data_encoding.node.rpc.Directory.from_describe>`:
``--at`` is the path it was asked at (its services' paths start there), and
its form is told by its first byte: the binary form of a service tree
begins with its tag, ``00`` (static) or ``01`` (dynamic), which JSON text
never does (an answer is an object: ``{``, maybe after whitespace), so no
option is needed for it; ``--dialect`` says the words of a binary answer's
schemas (``legacy`` by default, as elsewhere on the command line).

What makes no codec is bad usage (:class:`~.inputs.UsageError`, exit
status 2), since no data was read yet: a file that is not an answer, a
service it does not have, a body the service does not have, a schema the
library cannot rebuild; each a line that says which.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..errors import DataEncodingError, DefinitionError
from ..node.rpc import Directory, NotFound, Service, parse_path, path_text
from ..node.rpc.directory import METHODS, Segment
from ..passes.schema import Dialect
from ..tree.core import Encoding
from .inputs import Input, UsageError, read_file, text_of_input
from .output import error_text

BODIES = ("input", "output", "error")
"""A service's bodies, as options name them (``--output`` is the default)."""

_TAGS = (b"\x00", b"\x01")
"""The first byte of a service tree's binary form: its tag (static, dynamic)."""


@dataclass(frozen=True)
class Answer:
    """The answer in file ``file``, asked at ``at``, its binary form (if it
    is in binary) in ``dialect``'s words."""

    file: str
    at: str
    dialect: Dialect

    def directory(self) -> Directory:
        """The directory the answer states."""
        try:
            parse_path(self.at)
        except DefinitionError as exc:
            raise UsageError(f"--at {exc.message}") from None
        data = read_file(self.file)
        try:
            answer = data if data[:1] in _TAGS else text_of_input(Input(data, repr(self.file)))
            return Directory.from_describe(answer, at=self.at, dialect=self.dialect)
        except DataEncodingError as err:
            raise UsageError(
                f"{self.file!r} is not a /describe answer: {error_text(err)}"
            ) from None

    def not_found(self, exc: NotFound, what: str = "") -> UsageError:
        """``exc`` as the command says it (after ``what``): in which file,
        and that an answer asked below the root needs ``--at``."""
        hint = "; an answer asked below / needs --at PATH" if self.at == "/" else ""
        return UsageError(f"{what}{exc} (in {self.file!r}{hint})")

    def body(self, service: str, body: str) -> Encoding[Any]:
        """The encoding of ``body`` (one of :data:`BODIES`) of ``service``
        (``'METHOD PATH'``)."""
        words = service.split()
        if len(words) != 2 or words[0] not in METHODS:
            raise UsageError(
                f"with --describe, ID is a service, 'METHOD PATH' (METHOD: "
                f"{', '.join(METHODS[:-1])} or {METHODS[-1]}), not {service!r}"
            )
        method, path = words
        try:
            found = self.directory().service(method, path)
        except NotFound as exc:
            raise self.not_found(exc) from None
        e: Encoding[Any] | None = getattr(found, body)
        if e is None:
            raise UsageError(f"{method} {path} takes no {body}")
        problem = rebuild_problem(e)
        if problem is not None:
            raise UsageError(
                f"{method} {path}: its {body} does not rebuild from its schemas: {problem.message}"
            )
        return e


def rebuild_problem(e: Encoding[Any]) -> DefinitionError | None:
    """Why ``e``, a body of an answer, cannot be built (``None`` when it
    can): its schema is rebuilt the first time it is used, as its size is."""
    try:
        e.size  # noqa: B018 (the use that builds it)
    except DefinitionError as err:
        return err
    return None


def listing(services: Iterable[tuple[tuple[Segment, ...], Service]]) -> list[str]:
    """The lines ``describe-rpc --describe`` prints of ``services``: a
    header, then one line each: method, full path, and for each body ``ok``
    (it rebuilds), ``-`` (the service has none) or ``refused`` (its schema
    does not rebuild: ``encode`` and ``decode`` say why)."""
    rows = [("method", "path", *BODIES)] + [
        (service.method, path_text(path), *(_state(getattr(service, b)) for b in BODIES))
        for path, service in services
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    return [
        "  ".join(
            [*(f"{cell:<{width}}" for cell, width in zip(row[:-1], widths, strict=True)), row[-1]]
        )
        for row in rows
    ]


def _state(e: Encoding[Any] | None) -> str:
    return "-" if e is None else "ok" if rebuild_problem(e) is None else "refused"
