"""``describe()``: the binary schema of an encoding, as the reference computes it.

This follows the reference's ``binary_description.ml`` step for step, because
its output is published by nodes and compared byte for byte:

* two mutually recursive passes over the descriptor tree, :meth:`_Describer.fields`
  (the field list of a body) and :meth:`_Describer.layout` (the layout of a value
  in a field position, possibly creating a named entry);
* anonymous entries are named ``X_<n>`` from one counter, allocated before the
  children for records, padded values, enums, counted lists and size headers,
  after the cases for unions (highest tag first);
* when the tree is walked, a union-find over entry names and a structural
  deduplication give the final names; entries stay in completion order.

The reference walks the tree unfolded: an entry referred to from ten places
is walked ten times, each time numbering its anonymous entries anew (the
deduplication merges them back). A rebuilt operation with its receipts
unfolds to 8 000 fields from 400; so each node met again is not walked
again: what walking it did the first time (the names the counter gave, the
union-find's steps, the entries, the layout) is done again, the counter's
names shifted to where the counter now stands (:class:`_Walked`): the
result is the reference's, at the cost of the entries rather than of every
field of them.

Dialects (``dialect=``):

* ``"legacy"`` (default), the in-tree library of 2019-2020 the seed's node was
  built with: zero-width bodies are one zero-width anonymous field, an empty
  record in a field still gets an (empty) entry, deduplication works
  newest-first with alternating passes, and the old Zarith texts;
* ``"1.0"``, data-encoding 1.0.

Two deliberate deviations, both where the reference is inconsistent:

* legacy never rewrites the top level after deduplication, so it can refer to
  an entry that no longer exists under that name (``obj2 (req a P) (req b P)``
  refers to ``X_0`` and lists only ``X_1``); we rewrite it, so every reference
  resolves;
* a ``mu`` titled differently from its name makes the reference crash
  (``Not_found``), and 1.0 also crashes on a ``mu`` whose body is zero-width; we
  name the entry after the title and give the zero-width body its entry, as
  legacy does.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ... import compiling
from ...errors import DefinitionError
from ...tree.anyjson import Bson
from ...tree.core import Encoding
from ...tree.framing import CheckSize, DynamicSize, HeaderKind, Padded
from ...tree.primitives import Bool, Float, Int, RangedInt, ZeroWidth
from ...tree.primitives import empty as _EMPTY
from ...tree.records import MergeObjs, MergeTups, Obj, Part, Tup
from ...tree.sequences import ListEncoding
from ...tree.size import DYNAMIC, VARIABLE, Fixed
from ...tree.strings import Bounded, FixedBytes, RawBytes
from ...tree.unions import StringEnum, Union
from ...tree.wrappers import Def, Mu
from ...tree.zarith import Zarith
from ..transparent import unwrap
from . import values as bs

# The Zarith entries' texts are data: nodes publish them verbatim.
ZARITH_TEXTS = {
    "legacy": (
        "A variable length sequence of bytes, encoding a Zarith number. Each byte has a "
        "running unary size bit: the most significant bit of each byte tells is this is the "
        "last byte in the sequence (0) or if there is more to read (1). Size bits ignored, "
        "data is then the binary representation of the absolute value of the number in "
        "little endian order.",
        "A variable length sequence of bytes, encoding a Zarith number. Each byte has a "
        "running unary size bit: the most significant bit of each byte tells is this is the "
        "last byte in the sequence (0) or if there is more to read (1). The second most "
        "significant bit of the first byte is reserved for the sign (positive if zero). Size "
        "and sign bits ignored, data is then the binary representation of the absolute value "
        "of the number in little endian order.",
    ),
    "1.0": (
        "A variable-length sequence of bytes encoding a Zarith natural number. Each byte has "
        "a running unary size bit: the most significant bit of each byte indicates whether "
        "this is the last byte in the sequence (0) or whether the sequence continues (1). Size "
        "bits ignored, the data is the binary representation of the number in little-endian "
        "order.",
        "A variable-length sequence of bytes encoding a Zarith integer. Each byte has a "
        "running unary size bit: the most significant bit of each byte indicates whether this "
        "is the last byte in the sequence (0) or whether the sequence continues (1). The "
        "second most significant bit of the first byte is reserved for the sign (0 for "
        "positive, 1 for negative). Size and sign bits ignored, the data is the binary "
        "representation of the absolute value of the number in little-endian order.",
    ),
}

_INT_LAYOUTS: dict[str, bs.Layout] = {
    "int8": bs.Int("Int8"),
    "uint8": bs.Int("Uint8"),
    "int16": bs.Int("Int16"),
    "uint16": bs.Int("Uint16"),
    "int32": bs.Int("Int32"),
    "int64": bs.Int("Int64"),
    "int31": bs.RangedInt(-(2**30), 2**30 - 1),
    "uint30": bs.RangedInt(0, 2**30 - 1),
}

_COUNT_ENCODINGS: dict[str, tuple[Fixed, bs.Layout]] = {
    "Uint30": (Fixed(4), bs.RangedInt(0, 2**30 - 1)),
    "Uint16": (Fixed(2), bs.Int("Uint16")),
    "Uint8": (Fixed(1), bs.Int("Uint8")),
}

_ZERO_WIDTH_FIELD = bs.AnonymousField(Fixed(0), bs.ZeroWidth())

_NUMBERED = re.compile(r"X_[0-9]+")


def numbered_name(name: str) -> bool:
    """Whether ``name`` is one that the counter gives an anonymous entry (``X_<n>``)."""
    return _NUMBERED.fullmatch(name) is not None


def integer_size(lo: int, hi: int) -> str:
    """The reference's ``range_to_size``: the integer type that stores ``[lo, hi]``."""
    if lo < 0:
        return (
            "Int8"
            if lo >= -128 and hi <= 127
            else "Int16"
            if lo >= -32768 and hi <= 32767
            else "Int31"
        )
    span = hi - lo
    return "Uint8" if span <= 255 else "Uint16" if span <= 65535 else "Uint30"


class _UnionFind:
    """The reference's union-find over entry names (its quirks included:
    ``union`` re-roots ``new`` first)."""

    def __init__(self) -> None:
        self._table: dict[str, bs.Description | str] = {}

    def add(self, d: bs.Description) -> None:
        self._table[d.title] = d

    def find(self, name: str) -> bs.Description:
        node = self._table[name]
        while isinstance(node, str):
            node = self._table[node]
        return node

    def union(self, new: bs.Description, existing: str) -> None:
        self.add(new)
        root = self.find(existing)
        if root.title != new.title:
            self._table[root.title] = new.title


_NameStep = tuple[bs.Description, str | None]
"""A step of the union-find while walking: ``(new, None)`` adds ``new``,
``(new, existing)`` unites them."""

_SUBTREES = (Def, Mu, Union, Obj, Tup, ListEncoding)
"""The nodes whose walk is remembered (the others' walks are as cheap as
looking it up)."""


@dataclass(frozen=True, slots=True)
class _Walked:
    """What walking ``node`` (at one name in scope, inside the same ``mu`` nodes)
    did: ``count`` names from the counter, the first ``first``, the
    union-find's ``steps``, the ``entries`` it completed, the numbers of
    the defs named ``X_<n>`` it met, and its ``layout``."""

    node: Encoding[Any]  # kept alive: remembered by its id
    first: int
    count: int
    steps: tuple[_NameStep, ...]
    entries: tuple[tuple[str, bs.Toplevel], ...]
    numbered_defs: tuple[int, ...]
    layout: bs.Layout


class _Describer:
    def __init__(self, dialect: bs.Dialect, *, remember: bool = True) -> None:
        self.legacy = dialect == "legacy"
        self.n_text, self.z_text = ZARITH_TEXTS[dialect]
        self.uf = _UnionFind()
        self.entries: list[tuple[str, bs.Toplevel]] = []  # in completion order
        self.counter = 0
        self.recursives: tuple[str, ...] = ()
        #: the walks remembered, by node, name in scope and recursives (None: none is)
        self.walked: dict[tuple[int, str | None, tuple[str, ...]], _Walked] | None = (
            {} if remember else None
        )
        self.steps: list[_NameStep] = []  # the union-find's, while walking
        # the numbers of the defs named as the counter names (``X_<n>``,
        # rebuilt so), as met: a walk whose counter gave one of them is not
        # remembered (its def would be shifted with the counter's names)
        self.numbered_defs: list[int] = []

    # ------------------------------------------------------------ naming

    def name(self, ref_name: str | None) -> str:
        """``may_new_reference``: the def id in scope, else a fresh ``X_<n>``."""
        if ref_name is None:
            ref_name = f"X_{self.counter}"
            self.counter += 1
        else:
            self.def_name(ref_name)
        self.step(bs.Description(ref_name))
        return ref_name

    def def_name(self, name: str) -> None:
        if numbered_name(name):
            self.numbered_defs.append(int(name[2:]))

    def step(self, new: bs.Description, existing: str | None = None) -> None:
        """A step of the union-find, remembered with the walk."""
        self.steps.append((new, existing))
        if existing is None:
            self.uf.add(new)
        else:
            self.uf.union(new, existing)

    def entry(self, name: str, encoding: bs.Toplevel) -> None:
        self.entries.append((name, encoding))

    def zarith(self, natural: bool) -> bs.Ref:
        title = "N.t" if natural else "Z.t"
        self.step(bs.Description(title, self.n_text if natural else self.z_text))
        self.entry(title, bs.Obj((bs.NamedField(title, DYNAMIC, bs.Bytes()),)))
        return bs.Ref(title)

    # ------------------------------------------------------------ walks met again

    def remembered(self, e: Encoding[Any], ref_name: str | None) -> bs.Layout:
        """``layout(e, ref_name)``, walked once per place in the tree's
        unfolding that is alike (see the module docstring)."""
        assert self.walked is not None
        key = (id(e), ref_name, self.recursives)
        walked = self.walked.get(key)
        if walked is not None and walked.node is e:
            return self.again(walked)
        first, entries, steps, defs = (
            self.counter,
            len(self.entries),
            len(self.steps),
            len(self.numbered_defs),
        )
        layout = self.walk(e, ref_name)
        numbered_defs = tuple(self.numbered_defs[defs:])
        if not any(first <= n < self.counter for n in numbered_defs):
            self.walked[key] = _Walked(
                e,
                first,
                self.counter - first,
                tuple(self.steps[steps:]),
                tuple(self.entries[entries:]),
                numbered_defs,
                layout,
            )
        return layout

    def again(self, walked: _Walked) -> bs.Layout:
        """Do what ``walked`` did, its counter's names shifted to the counter's place."""
        shift = self.counter - walked.first
        self.counter += walked.count
        self.numbered_defs.extend(walked.numbered_defs)
        if not walked.count:  # nothing to shift
            for new, existing in walked.steps:
                self.step(new, existing)
            self.entries.extend(walked.entries)
            return walked.layout
        numbers = range(walked.first, walked.first + walked.count)
        names = {f"X_{n}": f"X_{n + shift}" for n in numbers}

        def shifted(name: str) -> str:
            return names.get(name, name)

        for new, existing in walked.steps:
            moved = bs.Description(shifted(new.title), new.description)
            self.step(moved, None if existing is None else shifted(existing))
        self.entries.extend((shifted(name), renamed(enc, shifted)) for name, enc in walked.entries)
        return renamed_layout(walked.layout, shifted)

    # ------------------------------------------------------------ fields

    def built(self, e: Encoding[Any]) -> Encoding[Any]:
        """``e`` as this dialect's library builds it: 1.0 builds ``bounded.*`` as
        ``dynamic_size(check_size(...))``, legacy the other way round."""
        if isinstance(e, Bounded) and not self.legacy:
            return DynamicSize(e.body, e.header)
        return e

    def through(
        self, e: Encoding[Any], ref_name: str | None
    ) -> tuple[Encoding[Any], str | None] | None:
        """What a transparent wrapper stands for, and the name then in scope."""
        inner = unwrap(e, "binary")
        if inner is None:
            return None
        return inner, e.id if isinstance(e, Def) else ref_name

    def fields(self, e: Encoding[Any], ref_name: str | None) -> list[bs.FieldDescr]:
        e = self.built(e)
        inner = self.through(e, ref_name)
        if inner is not None:
            return self.fields(*inner)
        if isinstance(e, ZeroWidth):
            return [_ZERO_WIDTH_FIELD] if self.legacy else []
        if isinstance(e, DynamicSize):
            body = self.fields(e.inner, None)
            return [bs.DynamicSizeField(None, len(body), e.kind), *body]
        if isinstance(e, Padded):
            return [
                *self.fields(e.inner, ref_name),
                bs.NamedField("padding", Fixed(e.padding), bs.Padding()),
            ]
        if isinstance(e, MergeObjs | MergeTups):
            return [*self.fields(e.left, None), *self.fields(e.right, None)]
        if isinstance(e, Obj):
            if not e.parts:
                return self.fields(_EMPTY, ref_name)
            return [d for p in e.parts for d in self.field(p)]
        if isinstance(e, Tup):
            if not e.parts:
                return self.fields(_EMPTY, ref_name)
            inner_name = ref_name if len(e.parts) == 1 else None  # tup1 passes its name on
            return [d for p in e.parts for d in self.element(p.enc, inner_name)]
        if isinstance(e, ListEncoding):
            return self.list_fields(e)
        if isinstance(e, StringEnum):
            return [bs.AnonymousField(e.size, bs.Ref(self.enum(e, ref_name).reference))]
        if isinstance(e, Union):
            return [bs.AnonymousField(e.size, bs.Ref(self.union(e, None)))]
        if isinstance(e, Mu):
            return [bs.AnonymousField(e.size, bs.Ref(self.mu(e)))]
        return [bs.AnonymousField(e.size, self.layout(e, None))]

    def element(self, e: Encoding[Any], ref_name: str | None) -> list[bs.FieldDescr]:
        """A tuple element (``Tup e``): dropped when zero-width."""
        layout = self.layout(e, ref_name)
        return [] if isinstance(layout, bs.ZeroWidth) else [bs.AnonymousField(e.size, layout)]

    def field(self, p: Part) -> list[bs.FieldDescr]:
        """One record field (the reference's field rules)."""
        key = str(p.key)
        if p.mode == "opt":
            return [
                bs.OptionalField(key),
                bs.NamedField(key, p.enc.size, self.layout(p.enc, None)),
            ]
        if p.mode == "varopt":
            return [bs.NamedField(key, VARIABLE, self.layout(p.enc, None))]
        # req / dft: peel the transparent wrappers down to a size header
        e: Encoding[Any] = p.enc
        def_name: str | None = None
        header: HeaderKind | None = None
        while True:
            e = self.built(e)
            if isinstance(e, DynamicSize):
                header = e.kind
                e = e.inner
                break
            # the reference's field rule peels no check_size
            inner = None if isinstance(e, CheckSize) else unwrap(e, "binary")
            if inner is None:
                break
            if isinstance(e, Def):
                def_name = e.id
            e = inner
        layout = self.layout(e, def_name)
        if isinstance(layout, bs.ZeroWidth):
            return []
        named = bs.NamedField(key, e.size, layout)
        if header is None:
            return [named]
        if def_name is not None:
            self.def_name(def_name)
        return [bs.DynamicSizeField(def_name, 1, header), named]

    def list_fields(self, e: ListEncoding) -> list[bs.FieldDescr]:
        mode, arg = e.count_mode
        seq = bs.AnonymousField(
            VARIABLE,  # even for an exact count: a reference quirk
            bs.Seq(
                self.layout(e.elt, None),
                arg if mode == "exactly" else e.max_length,
                mode == "exactly",
            ),
        )
        if mode != "count":
            return [seq]
        size, layout = _COUNT_ENCODINGS[arg]
        return [bs.AnonymousField(size, layout), seq]

    # ------------------------------------------------------------ layout

    def layout(self, e: Encoding[Any], ref_name: str | None) -> bs.Layout:
        if self.walked is not None and isinstance(e, _SUBTREES):
            return self.remembered(e, ref_name)
        return self.walk(e, ref_name)

    def walk(self, e: Encoding[Any], ref_name: str | None) -> bs.Layout:
        e = self.built(e)
        inner = self.through(e, ref_name)
        if inner is not None:
            return self.layout(*inner)
        if isinstance(e, ZeroWidth):
            return bs.ZeroWidth()
        if isinstance(e, Bool):
            return bs.Bool()
        if isinstance(e, RangedInt):
            return bs.RangedInt(e.lo, e.hi)
        if isinstance(e, Int):
            return _INT_LAYOUTS[e.kind]
        if isinstance(e, Float):
            return bs.Float() if e.lo is None or e.hi is None else bs.RangedFloat(e.lo, e.hi)
        if isinstance(e, Zarith):
            return self.zarith(e.natural)
        if isinstance(e, FixedBytes):
            return self.layout(e.inner, ref_name)
        if isinstance(e, RawBytes):
            return bs.String() if e.text else bs.Bytes()
        if isinstance(e, Bson):
            return bs.String()
        if isinstance(e, StringEnum):
            return self.enum(e, ref_name)
        if isinstance(e, ListEncoding) and e.count_mode[0] != "count":
            (field,) = self.list_fields(e)
            assert isinstance(field, bs.AnonymousField)
            return field.layout
        if isinstance(e, Union):
            return bs.Ref(self.union(e, ref_name))
        if isinstance(e, Mu):
            return bs.Ref(self.mu(e))
        if isinstance(e, Obj) and not isinstance(e, MergeObjs) and len(e.parts) <= 1:
            if not e.parts:
                return bs.ZeroWidth()
            (p,) = e.parts
            if p.mode in ("req", "dft"):
                return self.layout(p.enc, ref_name)
        if isinstance(e, Tup) and not isinstance(e, MergeTups) and len(e.parts) <= 1:
            return self.layout(e.parts[0].enc, ref_name) if e.parts else bs.ZeroWidth()
        if not isinstance(e, (Obj, Tup, Padded, DynamicSize, ListEncoding)):
            raise DefinitionError(f"cannot describe an encoding of type {type(e).__name__}")
        # an entry of its own: named first, then its body
        name = self.name(ref_name)
        body = self.fields(e, None)
        if isinstance(e, (Obj, Tup)) and not body and not self.legacy:
            return bs.ZeroWidth()
        if isinstance(e, (DynamicSize, ListEncoding)):
            self.step(bs.Description(name))  # as the reference (it matters for def ids)
        self.entry(name, bs.Obj(tuple(body)))
        return bs.Ref(name)

    # ------------------------------------------------------------ enums, unions, mu

    def enum(self, e: StringEnum, ref_name: str | None) -> bs.Enum:
        """Name a ``string_enum`` (first) and add its ``IntEnum`` entry."""
        name = self.name(ref_name)
        # one entry value per enum: an enum met at many places (Michelson primitives) is built once
        cases = compiling.built(e, "schema.int_enum", partial(_int_enum, e))
        self.entry(name, cases)
        return bs.Enum(cases.size, name)

    def union(self, e: Union, ref_name: str | None) -> str:
        tag_field = bs.NamedField("Tag", Fixed(e.tag_width), bs.Int(e.tag_size))
        tagged = sorted((c for c in e.cases if c.tag is not None), key=lambda c: c.tag or 0)
        cases = [
            bs.Case(c.tag or 0, (tag_field, *self.fields(c.enc, None)), c.title)
            for c in reversed(tagged)  # the reference folds from the right
        ]
        name = self.name(ref_name)
        self.entry(name, bs.Cases(e.size, e.tag_size, tuple(reversed(cases))))
        return name

    def mu(self, e: Mu) -> str:
        if e.name in self.recursives:
            return e.name
        title = e.title or e.name
        self.def_name(title)
        self.def_name(e.name)
        canonical = bs.Description(title, e.description)
        self.step(canonical)
        if title != e.name:  # deviation: the reference crashes here
            self.step(bs.Description(e.name))
            self.step(canonical, e.name)
        outside = self.recursives
        self.recursives = (*outside, e.name)
        try:
            layout = self.layout(e.body, None)
        finally:
            self.recursives = outside
        if isinstance(layout, bs.Ref):
            self.step(canonical, layout.name)
            return layout.name
        self.step(canonical)
        self.entry(e.name, bs.Obj((bs.AnonymousField(e.body.size, layout),)))
        return e.name

    # ------------------------------------------------------------ finishing

    def fixup(self, enc: bs.Toplevel) -> bs.Toplevel:
        """Rewrite every reference through the union-find."""
        return renamed(enc, self.final_name)

    def final_name(self, name: str) -> str:
        return self.uf.find(name).title

    def dedup_legacy(
        self, entries: list[tuple[str, bs.Toplevel]]
    ) -> list[tuple[bs.Description, bs.Toplevel]]:
        """Legacy deduplication: every pass prepends (so reverses), the first
        pass never ends it, and the first of equal entries in a pass wins."""
        previous = 0
        while True:
            kept, _ = self.dedup_pass(entries)
            kept.reverse()
            entries = [(title, self.fixup(enc)) for title, enc in kept]
            if len(entries) == previous:
                return [(self.uf.find(title), enc) for title, enc in entries]
            previous = len(entries)

    def dedup_v1(
        self, entries: list[tuple[str, bs.Toplevel]]
    ) -> list[tuple[bs.Description, bs.Toplevel]]:
        """1.0 deduplication: in order, the first of equal entries wins; repeat while merging."""
        while True:
            kept, merged = self.dedup_pass(entries)
            entries = [(title, self.fixup(enc)) for title, enc in kept]
            if not merged:
                return [(self.uf.find(title), enc) for title, enc in entries]

    def dedup_pass(
        self, entries: list[tuple[str, bs.Toplevel]]
    ) -> tuple[list[tuple[str, bs.Toplevel]], bool]:
        """One pass of either: the first of equal entries is kept, the names
        of the others united with its; whether any was."""
        seen: dict[bs.Toplevel, bs.Description] = {}
        # the same by identity: most entries of an unfolded tree are met
        # again as the very same value, which is not hashed again
        met: dict[int, bs.Description] = {}
        kept: list[tuple[str, bs.Toplevel]] = []
        merged = False
        for name, enc in entries:
            winner = met.get(id(enc)) or seen.get(enc)
            if winner is not None:
                merged = True
                met[id(enc)] = winner
                self.uf.union(winner, name)
            else:
                d = met[id(enc)] = seen[enc] = self.uf.find(name)
                kept.append((d.title, enc))
        return kept, merged

    def run(self, e: Encoding[Any]) -> bs.BinarySchema:
        toplevel: bs.Toplevel = bs.Obj(tuple(self.fields(e, None)))
        self.uf.add(bs.Description(""))
        dedup = self.dedup_legacy if self.legacy else self.dedup_v1
        toplevel = dedup([("", toplevel)])[0][1]
        # legacy walks its entries newest first, 1.0 in completion order
        entries = self.entries[::-1] if self.legacy else self.entries
        kept = []
        for name, enc in entries:
            if (
                isinstance(enc, bs.Obj)
                and len(enc.fields) == 1
                and isinstance(enc.fields[0], bs.AnonymousField)
                and isinstance(enc.fields[0].layout, bs.Ref)
            ):
                # an alias: its target takes its name
                self.uf.union(self.uf.find(name), enc.fields[0].layout.name)
            else:
                kept.append((name, enc))
        result = dedup(kept)
        if self.legacy:
            result.reverse()
        return bs.BinarySchema(
            self.fixup(toplevel),  # legacy leaves this out; see the module docstring
            tuple(bs.Entry(d, enc) for d, enc in result),
        )


def renamed(enc: bs.Toplevel, rename: Callable[[str], str]) -> bs.Toplevel:
    """``enc``, each entry it refers to renamed by ``rename`` (``enc`` itself
    where no name changes: deduplication renames every entry at each pass)."""
    if isinstance(enc, bs.Obj):
        fields = _renamed_fields(enc.fields, rename)
        return enc if fields is enc.fields else bs.Obj(fields)
    if isinstance(enc, bs.Cases):
        cases = tuple(
            c
            if (fields := _renamed_fields(c.fields, rename)) is c.fields
            else bs.Case(c.tag, fields, c.name)
            for c in enc.cases
        )
        if all(map(operator.is_, cases, enc.cases)):
            return enc
        return bs.Cases(enc.kind, enc.tag_size, cases)
    return enc


def _renamed_fields(
    fields: tuple[bs.FieldDescr, ...], rename: Callable[[str], str]
) -> tuple[bs.FieldDescr, ...]:
    new: list[bs.FieldDescr] | None = None
    for i, f in enumerate(fields):
        # (most fields name no entry: they are passed over at once)
        if isinstance(f, bs.NamedField | bs.AnonymousField) and type(f.layout) in _NAMING:
            layout = renamed_layout(f.layout, rename)
            if layout is not f.layout:
                new = new or list(fields)
                new[i] = (
                    bs.NamedField(f.name, f.kind, layout)
                    if isinstance(f, bs.NamedField)
                    else bs.AnonymousField(f.kind, layout)
                )
    return fields if new is None else tuple(new)


_NAMING = frozenset({bs.Ref, bs.Enum, bs.Seq})
"""The layouts that may name an entry."""


def renamed_layout(layout: bs.Layout, rename: Callable[[str], str]) -> bs.Layout:
    """``layout``, the entry it refers to renamed by ``rename`` (itself if the same)."""
    if isinstance(layout, bs.Ref):
        name = rename(layout.name)
        return layout if name == layout.name else bs.Ref(name)
    if isinstance(layout, bs.Enum):
        name = rename(layout.reference)
        return layout if name == layout.reference else bs.Enum(layout.size, name)
    if isinstance(layout, bs.Seq):
        inner = renamed_layout(layout.layout, rename)
        return layout if inner is layout.layout else bs.Seq(inner, layout.limit, layout.exact)
    return layout


def _int_enum(e: StringEnum) -> bs.IntEnum:
    size = integer_size(0, len(e.strings))
    return bs.IntEnum(size, tuple(enumerate(e.strings)))  # type: ignore[arg-type]


def describe(
    e: Encoding[Any], dialect: bs.Dialect = "legacy", *, remember: bool = True
) -> bs.BinarySchema:
    """The binary schema of ``e`` (see the module docstring); ``remember=False``
    walks every node every time it is met, as the reference does (the same
    schema, slower: the tests' witness)."""
    return _Describer(dialect, remember=remember).run(e)
