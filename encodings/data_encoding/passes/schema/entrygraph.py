"""Which entries of a binary schema refer to themselves (through others or
not): those that rebuild as ``mu``."""

from __future__ import annotations

from . import values as bs


def recursive_entries(entries: dict[str, bs.Entry]) -> frozenset[str]:
    """The entries that refer to themselves, directly or through others:
    those of a strongly connected component of more than one entry, or
    that refer to themselves (Tarjan's algorithm, iterative: linear in the
    references, whatever the schema's depth)."""
    refs = {name: sorted(_refs(entry.encoding) & entries.keys()) for name, entry in entries.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    recursive: set[str] = set()
    for root in refs:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            name, i = work.pop()
            if i == 0:
                index[name] = low[name] = len(index)
                stack.append(name)
                on_stack.add(name)
            if i < len(refs[name]):
                work.append((name, i + 1))
                child = refs[name][i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[name] = min(low[name], index[child])
                continue
            if work:  # the caller's low takes this entry's
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
                if len(component) > 1 or name in refs[name]:
                    recursive.update(component)
    return frozenset(recursive)


def _refs(enc: bs.Toplevel) -> set[str]:
    fields: list[bs.FieldDescr] = []
    if isinstance(enc, bs.Obj):
        fields = list(enc.fields)
    elif isinstance(enc, bs.Cases):
        fields = [f for c in enc.cases for f in c.fields]
    names: set[str] = set()
    for f in fields:
        layout = f.layout if isinstance(f, bs.NamedField | bs.AnonymousField) else None
        while isinstance(layout, bs.Seq):
            layout = layout.layout
        if isinstance(layout, bs.Ref):
            names.add(layout.name)
    return names
