"""The catalogue's index: every record and body of the node, under a stable id.

Ids are dotted and lower-case (``shell.block_header``, ``admin.daemon``,
``rpc.service_tree``...). Each :class:`Entry` gives the encoding, a one-line
description, the part of the seed it implements and its samples (valid
values in JSON and hex, and invalid inputs with the error they give, read
from ``seeds/samples/<id>.json``, shipped in the package: :data:`SAMPLES`).

The catalogue registers itself on first use (:mod:`data_encoding.node.catalogue`);
its encodings are module constants there, so they pickle by reference.

>>> from data_encoding.node import registry
>>> registry.find("chain.checkpoint").section
'2 Checkpoint'
>>> str(registry.UnknownId("chain.checkpont", ["chain.checkpoint"]))
"unknown id 'chain.checkpont'; did you mean 'chain.checkpoint'?"
"""

from __future__ import annotations

import builtins
import difflib
import json
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import DefinitionError
from ..jsonvalue import JsonValue
from ..tree.core import Encoding, import_name

__all__ = ["Entry", "UnknownId", "entries", "find", "id_of", "ids", "register"]

SAMPLES = Path(__file__).resolve().parent / "catalogue" / "samples"
"""Where the samples are: package data, so installed wheels carry them (the
project's ``seeds/samples`` is a link to this folder)."""

_ID = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*")


class UnknownId(LookupError):
    """``find`` of an id that is not registered (the message names close ones)."""

    def __init__(self, id: str, close: list[str]) -> None:
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        super().__init__(f"unknown id {id!r}{hint}")
        self.id = id
        self.close = close

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Entry:
    """One catalogue id."""

    id: str
    encoding: Encoding[Any] = field(repr=False)
    #: one line: what the value is
    description: str
    #: the seed's part and heading, e.g. ``"4.1 Administration"``
    section: str
    #: the module that registered it (where its constant is)
    module: str = field(repr=False, default="")

    @property
    def constant(self) -> str:
        """The constant that holds the encoding, as it is imported
        (``from module import NAME``), where static type checkers see the
        type of its values (``encoding`` is an ``Encoding[Any]``):

        >>> find("chain.checkpoint").constant
        'data_encoding.node.catalogue.chains.CHECKPOINT'
        >>> find("rpc.errors").constant, find("int64").constant
        ('data_encoding.node.catalogue.failures.ERRORS', 'data_encoding.int64')

        The registering module's name for it (the one that spells the id's
        last word when it has several: ``ERROR`` and ``ERRORS`` are one
        encoding), else the package's name for it (:func:`import_name`)."""
        home = sys.modules[self.module] if self.module else None
        names = [n for n, x in vars(home).items() if x is self.encoding] if home else []
        word = self.id.rsplit(".", 1)[-1].upper()
        name = word if word in names else next((n for n in names if n.isupper()), None)
        if name is not None:
            return f"{self.module}.{name}"
        found = import_name(self.encoding)
        if found is None:
            raise DefinitionError(f"catalogue id {self.id!r}: its encoding is no module constant")
        return found

    @cached_property
    def samples(self) -> dict[str, list[dict[str, JsonValue]]]:
        """``{"valid": [{"json", "hex"}...], "invalid": [{"hex" or "json", "error"}...]}``.

        A valid sample may add ``"decoded"``: the JSON its hex reads back to,
        when the binary form holds less (a system time's fraction of a
        second); an ``error`` is ``{"code", "offset", "path"}`` (``path`` as
        ``$.a[2]``)."""
        try:
            text = (SAMPLES / f"{self.id}.json").read_text(encoding="utf-8")
        except FileNotFoundError:
            return {"valid": [], "invalid": []}
        loaded: dict[str, list[dict[str, JsonValue]]] = json.loads(text)
        return loaded


_ENTRIES: dict[str, Entry] = {}
_IDS_BY_ENCODING: dict[int, str] = {}
"""Each registered encoding's id, by the encoding's ``builtins.id`` (an id,
in this module, is a catalogue id): the first the shell's catalogue gave
it, else the first a protocol gave it, whichever registered first."""

_PROTOCOL_IDS = "proto."
"""How every protocol's id starts (``proto.psdelph1.operation``)."""


def register(
    id: str, encoding: Encoding[Any], description: str, section: str, module: str | None = None
) -> None:
    """Add ``id`` (:class:`DefinitionError` when it is taken or malformed).
    ``module`` holds its :attr:`Entry.constant`: by default the module that
    calls ``register``."""
    if _ID.fullmatch(id) is None:
        raise DefinitionError(f"catalogue id {id!r} is not dotted lower-case words")
    if id in _ENTRIES:
        raise DefinitionError(f"catalogue id {id!r} is already registered")
    if not isinstance(encoding, Encoding):
        raise DefinitionError(f"catalogue id {id!r}: expected an encoding, got {encoding!r}")
    if module is None:
        module = str(sys._getframe(1).f_globals.get("__name__", ""))
    _ENTRIES[id] = Entry(id, encoding, description, section, module)
    # a protocol's ``period`` is the shell's ``int64``, and stays named so
    known = _IDS_BY_ENCODING.get(builtins.id(encoding))
    shell = not id.startswith(_PROTOCOL_IDS)
    if known is None or (shell and known.startswith(_PROTOCOL_IDS)):
        _IDS_BY_ENCODING[builtins.id(encoding)] = id


def _load() -> dict[str, Entry]:
    import_module("data_encoding.node.catalogue")  # once: its modules register their ids
    return _ENTRIES


def ids() -> list[str]:
    """Every registered id, sorted."""
    return sorted(_load())


def entries() -> list[Entry]:
    """Every entry, sorted by id."""
    found = _load()
    return [found[i] for i in sorted(found)]


def id_of(encoding: Encoding[Any]) -> str | None:
    """The id ``encoding`` itself is registered under, ``None`` when it has
    none; when it has several, the first the shell's catalogue registered,
    else the first a protocol registered (a protocol's ``period`` is the
    shell's ``int64``, whichever module was imported first).

    >>> from data_encoding import fixed, hashes
    >>> id_of(hashes.block_hash), id_of(fixed.bytes_(32))
    ('block_hash', None)
    """
    _load()
    return _IDS_BY_ENCODING.get(builtins.id(encoding))


_TOOLCHAIN_ID = re.compile(r"[0-9]{3}-([A-Za-z0-9]{8})\.(.+)")
"""The node toolchain's spelling of a protocol's id: ``007-PsDELPH1.operation``."""


def find(id: str) -> Entry:
    """The entry of ``id`` (:class:`UnknownId` naming close ids otherwise).

    A protocol's id may also be spelt as the node toolchain spells it, the
    protocol's number and short hash first:

    >>> find("007-PsDELPH1.script.expr").id
    'proto.psdelph1.script.expr'
    >>> try:
    ...     find("007-PsDELPH1.no_such_name")
    ... except UnknownId as unknown:
    ...     print(unknown.id)
    proto.psdelph1.no_such_name
    """
    found = _load()
    toolchain = _TOOLCHAIN_ID.fullmatch(id)
    if toolchain is not None:
        id = f"{_PROTOCOL_IDS}{toolchain[1].lower()}.{toolchain[2]}"
    try:
        return found[id]
    except KeyError:
        raise UnknownId(id, difflib.get_close_matches(id, found, n=3, cutoff=0.6)) from None
