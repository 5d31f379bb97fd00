"""The references between the entries of a binary schema: which entries
refer to themselves (through others or not), those that rebuild as ``mu``;
and how large the schema is once its references are unfolded, as every
pass over the rebuilt encoding unfolds them."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from . import values as bs


def recursive_entries(entries: dict[str, bs.Entry]) -> frozenset[str]:
    """The entries that refer to themselves, directly or through others:
    those of a strongly connected component of more than one entry, or
    that refer to themselves."""
    refs = references(entries)
    return frozenset(
        name
        for component in components(refs)
        if len(component) > 1 or component[0] in refs[component[0]]
        for name in component
    )


def references(entries: Mapping[str, bs.Entry]) -> dict[str, list[str]]:
    """The entries each entry refers to, each once, in the order of its fields."""
    return {
        name: [ref for ref in dict.fromkeys(_references(entry.encoding)) if ref in entries]
        for name, entry in entries.items()
    }


def components(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` (each node's
    successors; a successor that is no node is ignored), each after every
    component it reaches (Tarjan's algorithm, iterative: linear in the
    edges, whatever the graph's depth)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            name, i = work.pop()
            if i == 0:
                index[name] = low[name] = len(index)
                stack.append(name)
                on_stack.add(name)
            successors = graph[name]
            while i < len(successors) and successors[i] not in graph:
                i += 1
            if i < len(successors):
                work.append((name, i + 1))
                child = successors[i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[name] = min(low[name], index[child])
                continue
            if work:  # the caller's low takes this node's
                caller = work[-1][0]
                low[caller] = min(low[caller], low[name])
            if low[name] == index[name]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == name:
                        break
                found.append(component)
    return found


def unfolded_size(entries: Mapping[str, bs.Entry], top: bs.Toplevel, limit: int) -> int:
    """The number of fields of ``top`` with its references unfolded, as the
    passes over the rebuilt encoding walk it (``describe``, the codecs'
    generation, ``repr``): an entry counts its fields each time it is
    referred to, but inside itself (a ``mu`` refers to itself). Counted up
    to ``limit`` only (``limit + 1`` says "more"): an entry referred to
    twice by an entry referred to twice... unfolds to exponentially more
    than the schema's size, and no pass should be asked to walk that."""
    fields = {name: len(_entry_fields(entry.encoding)) for name, entry in entries.items()}
    refs = {name: _references(entry.encoding) for name, entry in entries.items()}
    count = len(_entry_fields(top))
    inside: set[str] = set()  # the entries being unfolded, one in the other
    work: list[tuple[str | None, Iterator[str]]] = [(None, iter(_references(top)))]
    while work and count <= limit:
        name, references = work[-1]
        ref = next(references, None)
        if ref is None:
            work.pop()
            inside.discard(name)
        elif ref in fields and ref not in inside:
            count += fields[ref]
            inside.add(ref)
            work.append((ref, iter(refs[ref])))
    return min(count, limit + 1)


def own_size(schema: bs.BinarySchema) -> int:
    """The fields of ``schema``'s top and entries, and its entries: its size
    with nothing unfolded."""
    entries = schema.fields
    return len(_entry_fields(schema.toplevel)) + sum(
        len(_entry_fields(e.encoding)) + 1 for e in entries
    )


def _entry_fields(enc: bs.Toplevel) -> list[bs.FieldDescr]:
    if isinstance(enc, bs.Obj):
        return list(enc.fields)
    if isinstance(enc, bs.Cases):
        return [f for c in enc.cases for f in c.fields]
    return []  # an Int_enum


def _references(enc: bs.Toplevel) -> list[str]:
    """The entries ``enc`` refers to, each as many times as it does (an
    enumeration's entry too: it has no fields, and refers to nothing)."""
    names: list[str] = []
    for f in _entry_fields(enc):
        layout = f.layout if isinstance(f, bs.NamedField | bs.AnonymousField) else None
        while isinstance(layout, bs.Seq):
            layout = layout.layout
        if isinstance(layout, bs.Ref):
            names.append(layout.name)
        elif isinstance(layout, bs.Enum):
            names.append(layout.reference)
    return names
