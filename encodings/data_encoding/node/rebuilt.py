"""Encodings rebuilt from what a node publishes, the node's primitives known.

:func:`from_schema` is :func:`data_encoding.passes.schema.rebuild.rebuild`
with :data:`primitives`: where the JSON schema beside a binary schema refers
to a definition named as one of the node's hashes (every kind of
:mod:`.prefixes`), keys, signatures or timestamps (``block_hash``,
``Message_result_hash``, ``Signature.Public_key_hash``,
``timestamp.protocol``...), or a protocol's contract ids, fitness or
Micheline expressions, or whose JSON is the enumeration of strings of a
protocol's ballot (an ``Int8`` in binary), and the binary schema describes
it there (the entries it refers to included), the rebuilt encoding is the
library's own, with its Base58Check, RFC 3339, Micheline or ballot JSON form
and its checks.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from ..jsonvalue import JsonValue
from ..passes.schema import values as bs
from ..passes.schema.jsonschema import json_names
from ..passes.schema.rebuild import Primitives, rebuild
from ..passes.transparent import last_seen
from ..tree.core import Encoding
from ..tree.unions import StringEnum

__all__ = ["from_schema", "primitives"]

_GENERIC = frozenset({"unistring", "int64"})
"""Definitions of the generic layouts, which the binary schema rebuilds alike."""


_OF_PROTOCOLS = frozenset({"micheline.michelson_v1.expression", "contract_id", "fitness"})
"""The primitives the protocols define, each with its own encodings: a
Micheline expression (whose JSON is not what the binary schema says of it:
``{"prim", "args"}`` for a binary record, told apart by its primitives'
table), a contract id (Base58Check of a union), a fitness."""


@cache
def primitives() -> Primitives:
    """The node's primitives, by the name of their JSON schema definition:
    the hashes, keys, signatures and timestamps, and those of the protocols."""
    from . import hashes, keys, registry, signatures, timestamp

    by_name: dict[str, list[Encoding[Any]]] = {}
    by_title: dict[str, list[Encoding[Any]]] = {}
    for module in (hashes, keys, signatures, timestamp):
        for name, value in vars(module).items():
            if isinstance(value, Encoding) and not name.startswith("_"):
                _add(by_name, by_title, value, lambda ref: ref not in _GENERIC)
    by_enum: dict[frozenset[str], list[Encoding[Any]]] = {}
    for entry in registry.entries():
        e = entry.encoding
        names = json_names(e)  # the outermost is its JSON schema's $ref
        if names and names[0] in _OF_PROTOCOLS:  # the others' schemas not computed
            _add(by_name, by_title, e, lambda ref: ref in _OF_PROTOCOLS)
        strings = _enumeration(e)
        if strings is not None and e not in by_enum.setdefault(strings, []):
            by_enum[strings].append(e)
    return Primitives(
        {name: tuple(found) for name, found in by_name.items()},
        {title: tuple(found) for title, found in by_title.items()},
        {strings: tuple(found) for strings, found in by_enum.items()},
    )


def _enumeration(e: Encoding[Any]) -> frozenset[str] | None:
    """The strings of ``e``'s JSON, if it is an enumeration of strings whose
    bytes are not (a ballot: ``yay``, ``nay``, ``pass`` in JSON, an ``Int8``
    in binary); such a JSON schema names no definition: its strings do."""
    json = last_seen(e, "json")
    if not isinstance(json, StringEnum) or isinstance(last_seen(e, "layout"), StringEnum):
        return None
    return frozenset(json.strings)


def _add(
    by_name: dict[str, list[Encoding[Any]]],
    by_title: dict[str, list[Encoding[Any]]],
    e: Encoding[Any],
    wanted: Callable[[str], bool],
) -> None:
    """``e``, under the name of the definition its JSON schema refers to
    (and that definition's title), if ``wanted``."""
    schema = e.json_schema()
    if not isinstance(schema, dict) or not isinstance(schema.get("$ref"), str):
        return
    name = str(schema["$ref"]).rsplit("/", 1)[-1]
    if not wanted(name):
        return
    definitions = schema.get("definitions")
    definition = definitions.get(name) if isinstance(definitions, dict) else None
    title = definition.get("title") if isinstance(definition, dict) else None
    for table, key in ((by_name, name), (by_title, title)):
        if isinstance(key, str) and e not in table.setdefault(key, []):
            table[key].append(e)


def from_schema(
    binary_schema: bs.BinarySchema | JsonValue, json_schema: JsonValue | None = None
) -> Encoding[Any]:
    """The encoding a node's ``{binary_schema, json_schema}`` pair describes
    (:mod:`data_encoding.passes.schema.rebuild`), the node's primitives
    known by name (see the module documentation).

    >>> from data_encoding import from_schema, list_
    >>> from data_encoding.node.hashes import block_hash
    >>> hashes = list_(block_hash)
    >>> from_schema(hashes.describe(), hashes.json_schema()).to_json(
    ...     hashes.decode(bytes.fromhex("00000020" + "00" * 32)))
    ['BKiHLREqU3JkXfzEDYAkmmfX48gBDtYhMrpA98s7Aq4SzbUAB6M']
    """
    return rebuild(binary_schema, json_schema, primitives=primitives())
