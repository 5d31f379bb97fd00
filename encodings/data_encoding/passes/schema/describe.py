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


class _Describer:
    def __init__(self, dialect: bs.Dialect) -> None:
        self.legacy = dialect == "legacy"
        self.n_text, self.z_text = ZARITH_TEXTS[dialect]
        self.uf = _UnionFind()
        self.entries: list[tuple[str, bs.Toplevel]] = []  # in completion order
        self.counter = 0
        self.recursives: list[str] = []

    # ------------------------------------------------------------ naming

    def name(self, ref_name: str | None) -> str:
        """``may_new_reference``: the def id in scope, else a fresh ``X_<n>``."""
        if ref_name is None:
            ref_name = f"X_{self.counter}"
            self.counter += 1
        self.uf.add(bs.Description(ref_name))
        return ref_name

    def entry(self, name: str, encoding: bs.Toplevel) -> None:
        self.entries.append((name, encoding))

    def zarith(self, natural: bool) -> bs.Ref:
        title = "N.t" if natural else "Z.t"
        self.uf.add(bs.Description(title, self.n_text if natural else self.z_text))
        self.entry(title, bs.Obj((bs.NamedField(title, DYNAMIC, bs.Bytes()),)))
        return bs.Ref(title)

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
        return [named] if header is None else [bs.DynamicSizeField(def_name, 1, header), named]

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
            self.uf.add(bs.Description(name))  # as the reference (it matters for def ids)
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
        canonical = bs.Description(title, e.description)
        self.uf.add(canonical)
        if title != e.name:  # deviation: the reference crashes here
            self.uf.add(bs.Description(e.name))
            self.uf.union(canonical, e.name)
        self.recursives.append(e.name)
        try:
            layout = self.layout(e.body, None)
        finally:
            self.recursives.pop()
        if isinstance(layout, bs.Ref):
            self.uf.union(canonical, layout.name)
            return layout.name
        self.uf.add(canonical)
        self.entry(e.name, bs.Obj((bs.AnonymousField(e.body.size, layout),)))
        return e.name

    # ------------------------------------------------------------ finishing

    def fixup(self, enc: bs.Toplevel) -> bs.Toplevel:
        """Rewrite every reference through the union-find."""
        if isinstance(enc, bs.Obj):
            return bs.Obj(tuple(self.fixup_field(f) for f in enc.fields))
        if isinstance(enc, bs.Cases):
            cases = tuple(
                bs.Case(c.tag, tuple(self.fixup_field(f) for f in c.fields), c.name)
                for c in enc.cases
            )
            return bs.Cases(enc.kind, enc.tag_size, cases)
        return enc

    def fixup_field(self, f: bs.FieldDescr) -> bs.FieldDescr:
        if isinstance(f, bs.NamedField):
            return bs.NamedField(f.name, f.kind, self.fixup_layout(f.layout))
        if isinstance(f, bs.AnonymousField):
            return bs.AnonymousField(f.kind, self.fixup_layout(f.layout))
        return f

    def fixup_layout(self, layout: bs.Layout) -> bs.Layout:
        if isinstance(layout, bs.Ref):
            return bs.Ref(self.uf.find(layout.name).title)
        if isinstance(layout, bs.Enum):
            return bs.Enum(layout.size, self.uf.find(layout.reference).title)
        if isinstance(layout, bs.Seq):
            return bs.Seq(self.fixup_layout(layout.layout), layout.limit, layout.exact)
        return layout

    def dedup_legacy(
        self, entries: list[tuple[str, bs.Toplevel]]
    ) -> list[tuple[bs.Description, bs.Toplevel]]:
        """Legacy deduplication: every pass prepends (so reverses), the first
        pass never ends it, and the first of equal entries in a pass wins."""
        previous = 0
        while True:
            seen: dict[bs.Toplevel, bs.Description] = {}
            kept: list[tuple[str, bs.Toplevel]] = []
            for name, enc in entries:
                winner = seen.get(enc)
                if winner is not None:
                    self.uf.union(winner, name)
                else:
                    d = self.uf.find(name)
                    seen[enc] = d
                    kept.append((d.title, enc))
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
            seen: dict[bs.Toplevel, bs.Description] = {}
            kept: list[tuple[str, bs.Toplevel]] = []
            merged = False
            for name, enc in entries:
                winner = seen.get(enc)
                if winner is not None:
                    merged = True
                    self.uf.union(winner, name)
                else:
                    d = self.uf.find(name)
                    seen[enc] = d
                    kept.append((d.title, enc))
            entries = [(title, self.fixup(enc)) for title, enc in kept]
            if not merged:
                return [(self.uf.find(title), enc) for title, enc in entries]

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


def _int_enum(e: StringEnum) -> bs.IntEnum:
    size = integer_size(0, len(e.strings))
    return bs.IntEnum(size, tuple(enumerate(e.strings)))  # type: ignore[arg-type]


def describe(e: Encoding[Any], dialect: bs.Dialect = "legacy") -> bs.BinarySchema:
    """The binary schema of ``e`` (see the module docstring)."""
    return _Describer(dialect).run(e)
