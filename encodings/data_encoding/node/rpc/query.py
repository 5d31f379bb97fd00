"""Typed query strings: the arguments after ``?`` and their kinds.

A :class:`QueryField` is ``single`` (one value, with a default), ``optional``
(one value or ``None``), ``flag`` (present or not) or ``multi`` (repeatable:
a list). A :class:`Query` parses a query string into a dict of typed values
(:class:`~data_encoding.node.rpc.args.ArgError` on an unknown, repeated or
ill-typed argument) and prints one back.

>>> from data_encoding.node.rpc.args import ARGS
>>> q = Query((optional("length", ARGS["int"]), multi("head", ARGS["block_hash"])))
>>> q.parse("length=2")
{'length': 2, 'head': []}
>>> q.parse("lenght=2")
Traceback (most recent call last):
...
data_encoding.node.rpc.args.ArgError: unknown query argument 'lenght' (known: length, head)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode

from .args import ARGS, Arg, ArgError

__all__ = ["Query", "QueryField", "flag", "multi", "optional", "single"]

QueryKind = Literal["single", "optional", "flag", "multi"]


@dataclass(frozen=True)
class QueryField:
    """One query argument."""

    name: str
    kind: QueryKind
    arg: Arg = ARGS["bool"]
    description: str | None = None
    #: a ``single`` argument's value when it is absent
    default: Any = None

    def describe(self) -> dict[str, Any]:
        """The value ``/describe`` shows for it (``rpc.query_item``)."""
        kind: dict[str, Any] = (
            {"flag": {}} if self.kind == "flag" else {self.kind: self.arg.describe()}
        )
        return {"name": self.name, "description": self.description, "kind": kind}

    def absent(self) -> Any:
        return {"single": self.default, "optional": None, "flag": False, "multi": []}[self.kind]


def single(name: str, arg: Arg, default: Any, description: str | None = None) -> QueryField:
    return QueryField(name, "single", arg, description, default)


def optional(name: str, arg: Arg, description: str | None = None) -> QueryField:
    return QueryField(name, "optional", arg, description)


def flag(name: str, description: str | None = None) -> QueryField:
    return QueryField(name, "flag", ARGS["bool"], description)


def multi(name: str, arg: Arg, description: str | None = None) -> QueryField:
    return QueryField(name, "multi", arg, description)


@dataclass(frozen=True)
class Query:
    """The query arguments a service takes."""

    fields: tuple[QueryField, ...] = ()

    def parse(self, text: str | Mapping[str, list[str]]) -> dict[str, Any]:
        """The typed values of a query string (``a=1&b=2``) or of a mapping
        from names to their raw values."""
        pairs = (
            parse_qsl(text, keep_blank_values=True)
            if isinstance(text, str)
            else [(k, v) for k, vs in text.items() for v in vs]
        )
        by_name = {f.name: f for f in self.fields}
        values: dict[str, Any] = {}
        for name, raw in pairs:
            f = by_name.get(name)
            if f is None:
                known = ", ".join(by_name) or "none"
                raise ArgError(f"unknown query argument {name!r} (known: {known})")
            if f.kind == "multi":
                values.setdefault(name, []).append(f.arg.parse(raw))
                continue
            if name in values:
                raise ArgError(f"duplicate query argument {name!r}")
            values[name] = f.arg.parse(raw)
        return {f.name: values.get(f.name, f.absent()) for f in self.fields}

    def print(self, values: Mapping[str, Any]) -> str:
        """The query string of ``values`` (absent and default values left out)."""
        pairs: list[tuple[str, str]] = []
        for f in self.fields:
            value = values.get(f.name, f.absent())
            if f.kind == "multi":
                pairs += [(f.name, f.arg.print(v)) for v in value]
            elif f.kind == "flag":
                if value:
                    pairs.append((f.name, "yes"))
            elif value is not None and value != f.absent():
                pairs.append((f.name, f.arg.print(value)))
        return urlencode(pairs)
