"""Entries shared between schemas: an entry met again in another schema
pair (the same entry, referring to the same entries, with the same JSON) is
the encoding built the first time, not built again.

A node's answer states one protocol's operation in many services (a block,
its operations, a list of them, the preapply and run helpers): each
service's schema pair has its own top, and the same entries below it.
Rebuilt once, the operation is one encoding in all of them (compiled once),
and the ways :func:`.rebuild.rebuild` tries share what they build alike.

What rebuilding an entry reads, so that two places that agree on all of it
build the same encoding (:meth:`.rebuilder.Rebuilder.shared_key`):

* the entry, and the entries it refers to, one through the other, with the
  JSON schema's definition of each one's name (its title and description):
  a digest of the entry *with everything it reaches*
  (:class:`Digests`, along the schema's strongly connected components);
  an entry ``X_<n>`` is digested by what it is, not by its number, which a
  node gives over the whole schema (rebuilt anonymous, it has no name);
* the JSON schema at the place it is referred from, with the definitions it
  refers to and everything they refer to;
* whether the JSON schema's help is taken, and the primitives known;
* the schema's entries it compared with a known primitive's (by name,
  wherever they are): a shared entry is used where they are the same;
* the entries already built in its schema: it uses them as built (with the
  JSON schema of their first place), so an entry that uses one built before
  it, or a ``mu`` it is inside of, is not shared (:class:`Frame`), and a
  shared entry is used only where none of the entries built with it is
  built yet.

A shared entry is used where its entries nest no deeper than
:func:`~data_encoding.max_depth` allows. Schemas of over :data:`AT_MOST`
entries share none (checking that a shared entry's entries are not built
yet costs their number each time), nor do cycles of over
:data:`CYCLE_AT_MOST` entries.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...jsonvalue import dumps
from ...tree.core import Encoding
from . import values as bs
from .describe import numbered_name, renamed
from .entrygraph import components, references
from .jsonguide import Guide, Js, Primitives

KEPT = 4096
"""How many shared entries are kept, the most recently used."""

AT_MOST = 1024
"""The most entries a schema may have to share its entries (real schemas
have at most ~50)."""

CYCLE_AT_MOST = 64
"""The most entries of a cycle (entries that refer to each other) that are
shared: each one's digest reads the whole cycle."""

_PREFIX = "#/definitions/"


@dataclass(frozen=True, slots=True)
class Shared:
    """An entry as built once: ``built``, the entries its build built (itself
    among them), having ``compared`` the schema's entries of some names with
    a known primitive's, ``height`` entries deep, with ``primitives``."""

    built: Mapping[Label, Encoding[Any]]
    compared: Mapping[str, bs.Entry | None]
    height: int
    primitives: Primitives


Label = str | tuple[str, bytes]
"""An entry by its name, but an entry ``X_<n>`` by its digest (``("X", digest)``)."""

_SHARED: OrderedDict[Hashable, Shared] = OrderedDict()
_LOCK = threading.Lock()  # (threads rebuild too)


def found(key: Hashable) -> Shared | None:
    """The entry shared under ``key``, if one is."""
    with _LOCK:
        shared = _SHARED.get(key)
        if shared is not None:
            _SHARED.move_to_end(key)
        return shared


def keep(key: Hashable, shared: Shared) -> None:
    """Share ``shared`` under ``key`` (the least recently used go)."""
    with _LOCK:
        _SHARED[key] = shared
        while len(_SHARED) > KEPT:
            _SHARED.popitem(last=False)


def forget() -> None:
    """Forget every shared entry (what a process starts with)."""
    with _LOCK:
        _SHARED.clear()


class Digests:
    """The digest of each entry of a schema with everything it reaches, and
    of the JSON schema at a place (see the module docstring); ``guide`` the
    JSON schema, if its help is taken.

    An entry named ``X_<n>`` is digested by what it is, not by its name: a
    node numbers its anonymous entries over the whole schema, so that one
    entry may be ``X_8`` in a service's schema and ``X_12`` in another's
    (rebuilt anonymous, they are the same encoding)."""

    def __init__(self, entries: Mapping[str, bs.Entry], guide: Guide | None) -> None:
        self.guide = guide
        self.parts: dict[int, tuple[Any, bytes]] = {}  # the JSON schema's, by identity
        self.definitions = {} if guide is None else _definition_digests(guide.definitions)
        self.entries: dict[str, bytes] = {}  # (an entry not here is not shared)
        graph = references(entries)
        numbered: set[str] = set()  # those that reach one named X_<n>
        for component in components(graph):
            if any(numbered_name(n) or any(s in numbered for s in graph[n]) for n in component):
                numbered.update(component)
            cyclic = len(component) > 1 or component[0] in graph[component[0]]
            if cyclic and len(component) > CYCLE_AT_MOST:
                continue  # not shared
            if any(
                s not in self.entries for n in component for s in graph[n] if s not in component
            ):
                continue  # it reaches one not shared
            for name in component:
                self.entries[name] = self._reaching(name, entries, graph, set(component))
        self.numbered = frozenset(numbered)
        # the entries X_<n> by their digests (None: two are alike)
        self.by_digest: dict[bytes, str | None] = {}
        for name, digest in self.entries.items():
            if numbered_name(name):
                self.by_digest[digest] = None if digest in self.by_digest else name

    def label(self, name: str) -> Label | None:
        """How a shared entry names the entry ``name`` (``None``: not shared)."""
        if not numbered_name(name):
            return name
        digest = self.entries.get(name)
        return None if digest is None else ("X", digest)

    def name_of(self, label: Label) -> str | None:
        """The entry ``label`` names in this schema, if one does (and one only)."""
        if isinstance(label, str):
            return label
        return self.by_digest.get(label[1])

    def _reaching(
        self,
        name: str,
        entries: Mapping[str, bs.Entry],
        graph: Mapping[str, list[str]],
        component: set[str],
    ) -> bytes:
        """The digest of ``name`` with every entry it reaches: those of its
        component by their place from it, the others by their digests."""
        labels: dict[str, str] = {}  # the component's, in the order they are met
        order = [name]
        for member in order:  # grows as it goes
            labels[member] = f"#{len(labels)}" if numbered_name(member) else member
            order.extend(s for s in graph[member] if s in component and s not in order)

        def label(target: str) -> str:
            found = labels.get(target)
            return found if found is not None else self.entries[target].hex()

        parts = []
        for member in order:
            entry = entries[member]
            parts += [
                labels[member].encode(),
                repr(renamed(entry.encoding, label)).encode(),
                repr(entry.description.description).encode(),
                self.definitions.get(member, b""),
            ]
        return _digest(*parts)

    def place(self, js: Js) -> bytes:
        """The digest of the JSON schema ``js`` at a place, with the
        definitions it refers to: each part of the JSON schema digested once
        (a place's is of the parts it holds, which the places inside it
        hold too: digesting each place's text would cost their nesting
        times their size)."""
        if self.guide is None:
            return b""
        found = self.parts.get(id(js))
        if found is not None:
            return found[1]
        work: list[tuple[Any, bool]] = [(js, False)]
        while work:  # (no recursion: an untrusted schema may nest deeply)
            part, ready = work.pop()
            if id(part) in self.parts:
                continue
            if isinstance(part, dict | list) and not ready:
                work.append((part, True))
                work.extend((v, False) for v in (part.values() if isinstance(part, dict) else part))
                continue
            if isinstance(part, dict):
                ref = part.get("$ref")
                referred = (
                    self.definitions.get(ref[len(_PREFIX) :], b"?")
                    if isinstance(ref, str) and ref.startswith(_PREFIX)
                    else b""
                )
                pieces = [b"{", referred]
                for key, value in part.items():
                    pieces += [key.encode(), self.parts[id(value)][1]]
            elif isinstance(part, list):
                pieces = [b"[", *(self.parts[id(value)][1] for value in part)]
            else:
                pieces = [b"=", dumps(part).encode()]
            self.parts[id(part)] = (part, _digest(*pieces))  # (kept: its id stays its own)
        return self.parts[id(js)][1]


def _digest(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "big"))
        h.update(p)
    return h.digest()


def _definition_digests(definitions: Mapping[str, Any]) -> dict[str, bytes]:
    """Each definition's digest, with every definition it refers to."""
    graph = {name: sorted(set(_refs_in(d))) for name, d in definitions.items()}
    of_component: dict[str, bytes] = {}
    digests: dict[str, bytes] = {}
    for component in components(graph):
        members = set(component)
        inside = sorted(_digest(n.encode(), dumps(definitions[n]).encode()) for n in component)
        reached = sorted(
            {
                of_component[s]
                for n in component
                for s in graph[n]
                if s not in members and s in graph
            }
        )
        digest = _digest(*inside, b"|", *reached)
        for name in component:
            of_component[name] = digest
            digests[name] = _digest(name.encode(), digest)
    return digests


def _refs_in(js: Any) -> Iterator[str]:
    """The definitions a JSON schema refers to, anywhere in it."""
    work = [js]
    while work:
        value = work.pop()
        if isinstance(value, dict):
            ref = value.get("$ref")
            if isinstance(ref, str) and ref.startswith(_PREFIX):
                yield ref[len(_PREFIX) :]
            work.extend(value.values())
        elif isinstance(value, list):
            work.extend(value)


@dataclass
class Frame:
    """An entry being built: ``start``, when it began, at ``depth``; the
    deepest its build went; whether it used an entry built before it
    (``external``: it is not shared); the entries built in it (``names``)
    and those it compared with a known primitive's."""

    start: int
    depth: int
    deepest: int
    external: bool = False
    names: list[str] = field(default_factory=list)
    compared: dict[str, bs.Entry | None] = field(default_factory=dict)
