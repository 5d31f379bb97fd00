"""The rebuilding of one schema pair: :class:`Rebuilder` reads a binary
schema's entries and fields into combinators, left to right, guided by the
JSON schema where one is given (see :mod:`.rebuild` for what becomes what)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ...depth import max_depth
from ...errors import DefinitionError
from ...tree import fixed, variable
from ...tree.anyjson import json as any_json
from ...tree.core import Encoding
from ...tree.framing import DynamicSize, HeaderKind, dynamic_size, padded
from ...tree.primitives import (
    bool_,
    empty,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    null,
    ranged_float,
    ranged_int,
    uint8,
    uint16,
    uint30,
)
from ...tree.records import (
    Described,
    Field,
    merge_tups,
    obj,
    opt,
    req,
    tup,
    varopt,
)
from ...tree.sequences import list_with_length
from ...tree.size import DYNAMIC, VARIABLE, Fixed, Size
from ...tree.unions import case, option, string_enum, union
from ...tree.wrappers import Mu, def_, mu, splitted
from ...tree.zarith import Zarith, n, z
from . import sharing
from . import values as bs
from .describe import numbered_name
from .entrygraph import recursive_entries
from .jsonguide import Guide, Js, Primitives
from .jsonschema import BUILTIN_DEFINITIONS, json_names
from .rebuiltparts import (
    NO_FIELDS,
    Item,
    KnownParts,
    as_element,
    entry_of_one,
    is_varopt,
    keyed_case,
    kind_of,
    known_parts,
    merged_record,
    size_header,
    unwrapped_id,
)
from .shapes import shape

_INTS: dict[str, Encoding[int]] = {
    "Int8": int8,
    "Uint8": uint8,
    "Int16": int16,
    "Uint16": uint16,
    "Int32": int32,
    "Int64": int64,
}

_INT31 = (-(2**30), 2**30 - 1)
_UINT30 = (0, 2**30 - 1)

_COUNTS: dict[bs.Layout, tuple[HeaderKind, int]] = {
    bs.Int("Uint8"): ("Uint8", 255),
    bs.Int("Uint16"): ("Uint16", 65535),
    bs.RangedInt(*_UINT30): ("Uint30", 2**30 - 1),
}
"""An anonymous field that is a list's count: the header kind and its largest count."""

_ZARITH = {"N.t": n, "Z.t": z}


def numbered(schema: bs.BinarySchema) -> bool:
    """Whether an entry of ``schema`` is named as ``describe`` numbers the
    anonymous ones: only then does a :class:`Rebuilder` built ``anonymous``
    build otherwise than one that is not."""
    return any(numbered_name(entry.description.title) for entry in schema.fields)


class Rebuilder:
    def __init__(
        self,
        schema: bs.BinarySchema,
        guide: Guide | None,
        primitives: Primitives,
        anonymous: bool,
        digests: sharing.Digests | None = None,
    ) -> None:
        self.schema = schema
        #: whether the entries named ``X_<n>`` are rebuilt anonymous
        self.anonymous = anonymous
        self.guide = guide
        self.primitives = primitives
        self.entries: dict[str, bs.Entry] = {}
        for entry in schema.fields:
            title = entry.description.title
            if title in self.entries:
                raise DefinitionError(f"from_schema: two entries are named {title!r}")
            self.entries[title] = entry
        self.built: dict[str, Encoding[Any]] = {}
        self.selves: dict[str, Encoding[Any]] = {}  # the mus being built
        # entries shared with other schemas (:mod:`.sharing`; None: none is)
        self.digests = digests
        self.frames: list[sharing.Frame] = []  # the entries being built, outermost first
        self.began: dict[str, int] = {}  # when each entry's build began
        self.clock = 0
        self.recursive = recursive_entries(self.entries)
        self.depth = 0  # of the entries being built, one inside the other
        self.shapes: dict[Hashable, Hashable] = {}  # asked again of each candidate primitive

    def toplevel(self) -> Encoding[Any]:
        top = self.schema.toplevel
        if not isinstance(top, bs.Obj):
            raise DefinitionError("from_schema: the toplevel of a binary schema is an Obj")
        root = None if self.guide is None else self.guide.root
        return self.json_named(self.fields(top.fields, "toplevel", js=root), root)

    # ------------------------------------------------------------ entries

    def entry(self, name: str, path: str, js: Js = None) -> Encoding[Any]:
        """The encoding of the entry ``name``, built once (or shared: :mod:`.sharing`)."""
        if name in self.selves:
            self.used(name)
            return self.selves[name]
        if name in self.built:
            self.used(name)
            return self.built[name]
        found = self.entries.get(name)
        if found is None:
            raise DefinitionError(f"from_schema: {path} refers to {name!r}, which no entry is")
        if self.depth >= max_depth():
            # untrusted input: a chain of entries nests encodings as deep
            raise DefinitionError(
                f"from_schema: {path}: entries refer to entries more than {max_depth()} deep "
                "(data_encoding.set_max_depth raises the limit)"
            )
        key = self.shared_key(name, js)
        shared = None if key is None else sharing.found(key)
        if shared is not None and self.fits(shared):
            return self.take(name, shared)
        frame = sharing.Frame(self.began_now(name), self.depth, self.depth + 1)
        self.frames.append(frame)
        self.depth += 1
        try:
            built = self.entry_body(name, found, js)
        finally:
            self.depth -= 1
            self.frames.pop()
        frame.names.append(name)
        if self.frames:
            outer = self.frames[-1]
            outer.names.extend(frame.names)
            outer.compared.update(frame.compared)
            outer.deepest = max(outer.deepest, frame.deepest)
        if key is not None and not frame.external:
            self.share(key, frame)
        return built

    # ------------------------------------------------------------ sharing

    def shared_key(self, name: str, js: Js) -> Hashable | None:
        """What building the entry ``name`` at a place of JSON schema ``js``
        reads (:mod:`.sharing`), ``None`` where entries are not shared."""
        digests = self.digests
        if digests is None or (not self.anonymous and name in digests.numbered):
            return None  # (named, the entries X_<n> are named as this schema numbers them)
        digest = digests.entries.get(name)
        if digest is None:
            return None
        # (the name of an entry X_<n> is not read: it is rebuilt anonymous)
        label = "X" if numbered_name(name) else name
        return (label, digest, digests.place(js), self.guide is not None)

    def fits(self, shared: sharing.Shared) -> bool:
        """Whether ``shared`` is what building its entry here would give:
        none of its entries is built yet, they nest no deeper than allowed,
        and the entries it compared with a known primitive's are the same."""
        assert self.digests is not None
        names = [self.digests.name_of(label) for label in shared.built]
        return (
            shared.primitives is self.primitives
            and self.depth + shared.height <= max_depth()
            and not any(n is None or n in self.built or n in self.selves for n in names)
            and all(self.entries.get(n) == e for n, e in shared.compared.items())
        )

    def take(self, name: str, shared: sharing.Shared) -> Encoding[Any]:
        """The entry ``name`` as ``shared``, with the entries built with it."""
        assert self.digests is not None
        for label, built in shared.built.items():
            taken = self.digests.name_of(label)
            assert taken is not None  # (it fits)
            self.built[taken] = built
            self.began_now(taken)
            if self.frames:
                self.frames[-1].names.append(taken)
        if self.frames:
            outer = self.frames[-1]
            outer.compared.update(shared.compared)
            outer.deepest = max(outer.deepest, self.depth + shared.height)
        return self.built[name]

    def entry_is(self, name: str, entry: bs.Entry) -> bool:
        """Whether the entry ``name`` is ``entry`` (a known primitive's, which
        any entry of the schema may be: what a shared entry compared, it
        is shared where the same holds)."""
        found = self.entries.get(name)
        if self.frames:
            self.frames[-1].compared[name] = found
        return found == entry

    def share(self, key: Hashable, frame: sharing.Frame) -> None:
        """Keep the entry ``frame`` built under ``key``, with the entries
        built with it, by their labels (:meth:`.sharing.Digests.label`)."""
        assert self.digests is not None
        labels = {name: self.digests.label(name) for name in frame.names}
        if None in labels.values() or len(set(labels.values())) < len(labels):
            return  # (an entry not shared, or two entries X_<n> alike: which is which?)
        built = {label: self.built[n] for n, label in labels.items() if label is not None}
        height = frame.deepest - frame.depth
        sharing.keep(key, sharing.Shared(built, frame.compared, height, self.primitives))

    def began_now(self, name: str) -> int:
        """Note that the entry ``name`` is built from now on."""
        self.clock += 1
        self.began[name] = self.clock
        return self.clock

    def used(self, name: str) -> None:
        """The entry ``name`` is used as already built (or being built): the
        entries being built since are not shared (they use it as built here)."""
        began = self.began[name]
        for frame in reversed(self.frames):
            if frame.start <= began:
                break
            frame.external = True

    def entry_body(self, name: str, found: bs.Entry, js: Js) -> Encoding[Any]:
        where = f"fields[{name!r}]"
        zarith = _ZARITH.get(name)
        enc = found.encoding
        if zarith is not None and enc == bs.Obj((bs.NamedField(name, DYNAMIC, bs.Bytes()),)):
            built: Encoding[Any] = zarith
        elif isinstance(enc, bs.IntEnum):  # a string_enum in a field of its own
            return self.enum(bs.Enum(enc.size, name), where)
        elif name in self.recursive or found.description.description is not None:

            def fix(self_: Encoding[Any]) -> Encoding[Any]:
                self.selves[name] = self_
                try:
                    # named by a def_, so that describe names the body's
                    # entry after the mu, not from its counter
                    return def_(name, self.toplevel_encoding(enc, where, js))
                finally:
                    del self.selves[name]

            built = mu(name, fix, description=found.description.description)
        else:
            body = self.toplevel_encoding(enc, where, js)
            if isinstance(enc, bs.Obj) and len(enc.fields) == 1:
                body = entry_of_one(body, enc.fields[0])
            elif isinstance(body, DynamicSize):
                # a record's field rule would peel the def_ and inline the frame
                body = as_element(body)
            built = self.named(name, body)
        self.built[name] = built
        return built

    def named(self, name: str, body: Encoding[Any]) -> Encoding[Any]:
        """The entry ``name`` of ``body``: a ``def_``, but for an entry that
        ``describe`` named from its counter when rebuilt anonymous (a def_
        of a counter's name is another entry, whose name the counter may
        give another too: see :func:`.rebuild.rebuild`)."""
        if self.anonymous and numbered_name(name):
            return body
        # its JSON definition's notes, where the JSON schema has one of that name
        title, description = (None, None) if self.guide is None else self.guide.notes(name)
        return def_(name, body, title=title, description=description)

    def toplevel_encoding(self, enc: bs.Toplevel, path: str, js: Js) -> Encoding[Any]:
        if isinstance(enc, bs.Obj):
            return self.fields(enc.fields, path, js=js)
        if isinstance(enc, bs.Cases):
            return self.cases(enc, path, js)
        raise DefinitionError(f"from_schema: {path} is an Int_enum where a record is expected")

    def cases(self, enc: bs.Cases, path: str, js: Js) -> Encoding[Any]:
        tag = bs.NamedField("Tag", Fixed(1 if enc.tag_size == "Uint8" else 2), bs.Int(enc.tag_size))
        if not enc.cases:
            # JSON only (the node never sends its bytes): any JSON value,
            # which the bytes cannot hold
            return union([case(None, "JSON only", any_json)], enc.tag_size)
        payloads = []
        jsons = self.case_jsons(js, enc.cases)
        for c, js_case in zip(enc.cases, jsons, strict=True):
            where = f"{path}.cases[tag {c.tag}]"
            if not c.fields or c.fields[0] != tag:
                raise DefinitionError(f"from_schema: {where} does not begin with its Tag field")
            title = str(c.tag) if c.name is None else c.name
            payloads.append((c.tag, title, js_case, self.fields(c.fields[1:], where, js=js_case)))
        value = None if self.guide is None else self.guide.non_null(js)
        if value is not None and len(payloads) == 2:
            # an option: its None is null in JSON, its Some the value itself
            # (of the member that is not null: positions do not say which)
            cases = {(c.tag, c.name): c for c in enc.cases}
            some = cases.get((1, "Some"))
            if some is not None and (0, "None") in cases:
                payload = self.fields(some.fields[1:], f"{path}.cases[tag 1]", js=value)
                if not payload.nullable:
                    return option(payload)
        if self.guide is not None and all(js_case is not None for _, _, js_case, _ in payloads):
            # the JSON schema says each case's JSON: the payload's own, which
            # the union tells apart as the node's does (a constant member,
            # the JSON types, else trying each case in turn)
            try:
                return union([case(t, title, p) for t, title, _, p in payloads], enc.tag_size)
            except DefinitionError:
                pass  # cases whose JSON cannot be told apart: keyed below
        return union(
            [case(t, title, keyed_case(title, p)) for t, title, _, p in payloads], enc.tag_size
        )

    def case_jsons(self, js: Js, cases: Sequence[bs.Case]) -> list[Js]:
        """The JSON schema of each of ``cases``: where a case is a union
        alone (its payload one anonymous field of a union's entry), a JSON
        schema lists that union's cases among the others (one ``oneOf``):
        they are matched with its cases, and the case's JSON is theirs."""
        if self.guide is None:
            return [None] * len(cases)
        plain = self.guide.cases(js, cases)
        groups = [self.leaf_cases(c, frozenset()) for c in cases]
        if None not in plain or all(group == [c] for c, group in zip(cases, groups, strict=True)):
            return plain
        found = iter(self.guide.cases(js, [leaf for group in groups for leaf in group]))
        jsons: list[Js] = []
        for c, group in zip(cases, groups, strict=True):
            members = [next(found) for _ in group]
            if group == [c]:
                jsons.append(members[0])
            else:
                complete = all(m is not None for m in members)
                jsons.append({"oneOf": members} if complete else None)
        return jsons if None not in jsons else plain

    def leaf_cases(self, c: bs.Case, seen: frozenset[str]) -> list[bs.Case]:
        """``c``, or the cases of the union it is alone, theirs in turn."""
        rest = c.fields[1:]
        (one,) = rest if len(rest) == 1 else (None,)
        if not isinstance(one, bs.AnonymousField) or not isinstance(one.layout, bs.Ref):
            return [c]
        name = one.layout.name
        found = self.entries.get(name)
        if found is None or not isinstance(found.encoding, bs.Cases) or name in seen:
            return [c]
        inner = found.encoding.cases
        return [leaf for i in inner for leaf in self.leaf_cases(i, seen | {name})] or [c]

    # ------------------------------------------------------------ fields

    def fields(
        self, fields: Sequence[bs.FieldDescr], path: str, start: int = 0, js: Js = None
    ) -> Encoding[Any]:
        """The encoding whose ``describe`` fields are ``fields``, the fields
        ``start``, ``start + 1``... of the list at ``path`` (``js``: its JSON schema)."""
        known = self.primitive(
            js,
            lambda known: known.whole == self.shape(tuple(fields)),
            lambda: self.fields(fields, path, start),
        )
        if known is not None:
            return known
        alone = None if fields or self.guide is None else self.guide.zero_width(js)
        if alone is not None:  # a zero-width value alone (dropped in binary)
            return as_element(alone)
        elements = None if fields or self.guide is None else self.guide.zero_width_elements(js)
        if elements:  # a tuple of zero-width elements (each dropped in binary)
            return tup(*elements) if len(elements) > 1 else as_element(tup(*elements))
        items = self.items(fields, path, start, js)
        if self.one_element(js) and len(items) == 1 and items[0].kind == "anon":
            return tup(items[0].part)  # a tuple of one, as its JSON says (an array)
        return self.joined(self.with_constants(items, fields, js, path), path)

    def one_element(self, js: Js) -> bool:
        """Whether the JSON schema says a tuple of one element (``[x]``)."""
        return self.guide is not None and self.guide.elements(js, 1) != [None]

    def with_constants(
        self, items: list[Item], fields: Sequence[bs.FieldDescr], js: Js, path: str
    ) -> list[Item]:
        """``items`` (of the list at ``path``) with the record's zero-width
        members, which only its JSON schema states, in its members' order."""
        if self.guide is None or kind_of(items, path) == "anon":
            return items
        named = {f.name for f in fields if isinstance(f, bs.NamedField | bs.OptionalField)}
        constants = [
            Item("named", req(name, value))
            for name, value in self.guide.zero_width_members(js)
            if name not in named
        ]
        if not constants:
            return items
        if not all(isinstance(i.part, Field) for i in items):
            return constants + items  # merged records: their members' places are theirs
        order = {name: k for k, name in enumerate(self.guide.properties(js))}
        return sorted(items + constants, key=lambda i: order.get(i.part.name, len(order)))

    def items(
        self, fields: Sequence[bs.FieldDescr], path: str, start: int, js: Js = None
    ) -> list[Item]:
        """``fields`` read left to right into the parts of a record or tuple:
        a size header takes the fields it counts, an option indicator its
        field, a count its sequence, and a padding everything before it."""
        items: list[Item] = []
        anonymous = [k for k, f in enumerate(fields) if isinstance(f, bs.AnonymousField)]
        # beside named fields, an anonymous one is a union merged in, whose
        # JSON is the record's, but not the definition that names the record
        whole = (
            self.guide.body(js) if self.guide is not None and len(anonymous) < len(fields) else js
        )
        elements = dict(zip(anonymous, self.elements(whole, len(anonymous)), strict=True))
        required = None if self.guide is None else self.guide.required(js)
        i = 0
        while i < len(fields):
            f = fields[i]
            where = f"{path}.fields[{start + i}]"
            following = fields[i + 1] if i + 1 < len(fields) else None
            member = (
                None
                if self.guide is None or isinstance(f, bs.AnonymousField)
                else (self.guide.property(js, f.name or ""))
            )
            if isinstance(f, bs.NamedField) and f.layout == bs.Padding():
                if not isinstance(f.kind, Fixed):
                    raise DefinitionError(f"from_schema: {where}: padding of no fixed size")
                kind = kind_of(items, path)
                # what precedes the padding is one padded value, merged
                # with what follows as the parts of a tuple or a record are
                items = [Item(kind, padded(self.joined(items, path), f.kind.n), splice=True)]
                i += 1
            elif isinstance(f, bs.OptionalField):
                if not isinstance(following, bs.NamedField) or following.name != f.name:
                    raise DefinitionError(
                        f"from_schema: {where}: the option indicator of {f.name!r} is not "
                        "followed by its field"
                    )
                # None means absent: a zero-width option is ``empty``
                e = (
                    empty
                    if following.layout == bs.ZeroWidth()
                    else self.layout(following.layout, following.kind, where, member)
                )
                items.append(Item("named", opt(f.name, e)))
                i += 2
            elif isinstance(f, bs.DynamicSizeField):
                body = fields[i + 1 : i + 1 + f.num_fields]
                # a framed element's JSON is its own (a record's members, the record's)
                elements_only = all(isinstance(b, bs.AnonymousField) for b in body)
                at = (elements.get(i + 1) if len(body) == 1 else None) if elements_only else js
                items.append(self.framed(fields, i, path, start, at))
                i += 1 + f.num_fields
            elif isinstance(f, bs.NamedField):
                e = self.layout(f.layout, f.kind, where, member)
                # a variable-size field without presence byte is a varopt
                # where its member is optional (only the JSON schema says)
                optional = required is not None and f.name not in required
                if is_varopt(f, e) or (f.kind is VARIABLE and optional):
                    field = varopt(f.name, empty if f.layout == bs.ZeroWidth() else e)
                else:
                    field = req(f.name, e)
                items.append(Item("named", field))
                i += 1
            else:
                count = count_of(f, following)
                if count is not None:
                    assert isinstance(following, bs.AnonymousField)
                    assert isinstance(following.layout, bs.Seq)
                    elt = self.layout(
                        following.layout.layout,
                        None,
                        f"{path}.fields[{start + i + 1}].layout",
                        None if self.guide is None else self.guide.items(elements[i + 1]),
                    )
                    items.append(Item("anon", list_with_length(count, elt, following.layout.limit)))
                    i += 2
                else:
                    e = self.layout(f.layout, f.kind, where, elements[i])
                    items.append(Item("anon", e, alone=self.alone(f.layout, e)))
                    i += 1
        return self.unions_merged(items, fields)

    def unions_merged(self, items: list[Item], fields: Sequence[bs.FieldDescr]) -> list[Item]:
        """``items``, where they mix named fields with anonymous unions of
        records, with those unions as records merged in (``merge_objs`` of
        a record and a union: each case's members beside the record's)."""
        kinds = {i.kind for i in items}
        if not {"named", "anon"} <= kinds:
            return items
        unions = {
            id(e)
            for f in fields
            if isinstance(f, bs.AnonymousField) and isinstance(f.layout, bs.Ref)
            for e in [self.built.get(f.layout.name)]
            if isinstance(self.entries[f.layout.name].encoding, bs.Cases)
        }
        if not all(i.kind != "anon" or unwrapped_id(i.part) in unions for i in items):
            return items  # a tuple's elements beside fields: refused by the caller
        return [Item("named", i.part, splice=True) if i.kind == "anon" else i for i in items]

    def elements(self, js: Js, count: int) -> list[Js]:
        """The JSON schemas of ``count`` anonymous fields: the value itself
        when it is alone, else a tuple's elements."""
        if self.guide is None:
            return [None] * count
        if count == 1 and not self.one_element(js):
            return [js]
        return self.guide.elements(js, count)

    def framed(
        self, fields: Sequence[bs.FieldDescr], i: int, path: str, start: int, js: Js
    ) -> Item:
        """The size header ``fields[i]`` and the fields it frames."""
        f = fields[i]
        assert isinstance(f, bs.DynamicSizeField)
        where = f"{path}.fields[{start + i}]"
        body = fields[i + 1 : i + 1 + f.num_fields]
        if len(body) != f.num_fields:
            raise DefinitionError(f"from_schema: {where}: fewer fields than its header")
        header = size_header(f, where)
        (one,) = body if len(body) == 1 else (None,)
        if (
            isinstance(one, bs.NamedField | bs.AnonymousField)
            and (header, one.kind, one.layout) == ("Uint30", VARIABLE, bs.String())
            and self.guide is not None
            and self.guide.any_json(
                js if isinstance(one, bs.AnonymousField) else self.guide.property(js, one.name)
            )
        ):
            # a JSON value, in BSON (the ``json`` encoding frames its text)
            value = any_json if f.name is None else def_(f.name, any_json)
            if isinstance(one, bs.NamedField):
                return Item("named", req(one.name, value))
            return Item("anon", value)
        known = self.primitive(
            js,
            lambda known: known.whole == self.shape(tuple(body)),
            lambda: self.fields(body, path, start + i + 1),
        )
        if f.name is None and known is not None:  # a primitive framed alone
            return Item(
                "named" if isinstance(one, bs.NamedField) else "anon",
                dynamic_size(known, header),
                splice=True,
            )
        if f.name is None:
            items = self.items(body, path, start + i + 1, js)
            kind = kind_of(items, path)
            framed = dynamic_size(self.joined(items, path), header)
            return Item(kind, framed, splice=kind == "named" or len(items) > 1)
        # a named header: a ``def_`` around the frame of one record field
        (inner,) = body if len(body) == 1 else (None,)
        if not isinstance(inner, bs.NamedField):
            raise DefinitionError(f"from_schema: {where}: a named size header frames one field")
        member = None if self.guide is None else self.guide.property(js, inner.name)
        inner_path, name = f"{path}.fields[{start + i + 1}]", f.name

        def generic() -> Encoding[Any]:
            layout = self.layout(inner.layout, inner.kind, inner_path, member)
            return def_(name, dynamic_size(layout, header))

        known = self.primitive(  # a primitive in a frame of its own (a fitness)
            member,
            lambda known: known.one_value(self.shape(inner.layout), inner.kind, header),
            generic,
        )
        return Item("named", req(inner.name, generic() if known is None else known))

    def joined(self, items: list[Item], path: str) -> Encoding[Any]:
        """One encoding of ``items``: a tuple (one element alone: itself) or a record."""
        kind = kind_of(items, path)
        if kind is None:
            if len(items) > 1:
                raise DefinitionError(
                    f"from_schema: {path}: parts of no field (paddings, empty frames) in a row"
                )
            return items[0].part if items else NO_FIELDS
        if kind == "named":
            try:
                return merged_record([i.part for i in items])
            except DefinitionError as error:  # a union merged in whose values are not records
                raise DefinitionError(
                    f"from_schema: {path} mixes named and anonymous fields ({error})"
                ) from None
        if len(items) == 1 and not items[0].splice:
            return items[0].alone or items[0].part
        tuples: list[Encoding[Any]] = []
        run: list[Encoding[Any]] = []
        for item in items:
            if item.splice:
                if run:
                    tuples.append(tup(*run))
                    run = []
                tuples.append(item.part)
            else:
                run.append(item.part)
        if run:
            tuples.append(tup(*run))
        return functools.reduce(merge_tups, tuples)

    def alone(self, layout: bs.Layout, e: Encoding[Any]) -> Encoding[Any] | None:
        """How ``e``, of ``layout``, stands alone in a field list: through
        ``tup1``, which passes its name on, where ``describe`` would number
        a union from its counter, inline a record or refer to an enum (but
        to an enum's own entry, which it refers to alone); ``None``: as ``e``."""
        if isinstance(layout, bs.Ref) and self.anonymous and numbered_name(layout.name):
            return None  # describe numbers it alone as it would through tup1 (and it may merge)
        if isinstance(layout, bs.Enum) or (
            isinstance(layout, bs.Ref)
            and not isinstance(e, Mu | Zarith)  # described alone as a Ref already
            and not isinstance(self.entries[layout.name].encoding, bs.IntEnum)
        ):
            return as_element(e)
        return None

    # ------------------------------------------------------------ layouts

    def layout(
        self, layout: bs.Layout, kind: Size | None, path: str, js: Js = None
    ) -> Encoding[Any]:
        """The encoding of ``layout`` in a field of size class ``kind``
        (``js``: its JSON schema)."""
        guide = self.guide
        member = None if guide is None else guide.one_member(js)
        if (
            guide is not None
            and member is not None
            and isinstance(layout, bs.Ref)
            and layout.name in guide.refs(member[1])
        ):
            # a record of one member, which describe shows as its member's
            # entry alone: only its JSON says the member's name
            name, inner = member
            return self.json_named(obj(req(name, self.layout(layout, kind, path, inner))), js)
        return self.json_named(self.layout_of(layout, kind, path, js), js)

    def json_named(self, e: Encoding[Any], js: Js) -> Encoding[Any]:
        """``e``, whose JSON schema names it as ``js`` does (a definition of
        its own, with its title and description), its binary form as it is."""
        if self.guide is None:
            return e
        names = self.guide.refs(js)
        if not names or names[0] in BUILTIN_DEFINITIONS:
            return e
        name = names[0]
        if name in self.primitives.by_name or name in json_names(e):
            return e  # named so already (a definition has one encoding)
        title, description = self.guide.notes(name)
        named = def_(name, e, title=title, description=description)
        return splitted(json=named, binary=e)

    def layout_of(self, layout: bs.Layout, kind: Size | None, path: str, js: Js) -> Encoding[Any]:
        known = self.primitive(
            js,
            lambda known: known.one_value(self.shape(layout), kind, None),
            lambda: self.layout_of(layout, kind, path, None),
        )
        if known is not None:
            return known
        if isinstance(layout, bs.ZeroWidth):
            value = None if self.guide is None else self.guide.zero_width(js)
            return null if value is None else value
        if isinstance(layout, bs.Int | bs.RangedInt) and layout.endianness == "Little":
            raise DefinitionError(
                f"from_schema: {path} is a little-endian integer, which this library cannot read"
            )
        if isinstance(layout, bs.Int):
            return _INTS[layout.size]
        if isinstance(layout, bs.RangedInt):
            bounds = (layout.min, layout.max)
            return (
                int31 if bounds == _INT31 else uint30 if bounds == _UINT30 else ranged_int(*bounds)
            )
        if isinstance(layout, bs.Bool):
            return bool_
        if isinstance(layout, bs.Float):
            return float_
        if isinstance(layout, bs.RangedFloat):
            return ranged_float(layout.min, layout.max)
        if isinstance(layout, bs.Bytes | bs.String):
            text = isinstance(layout, bs.String)
            if isinstance(kind, Fixed):
                return fixed.string(kind.n) if text else fixed.bytes_(kind.n)
            if kind is VARIABLE:
                return variable.string if text else variable.bytes_
            named = [] if self.guide is None else self.guide.refs(js)
            raise DefinitionError(
                f"from_schema: {path}: {type(layout).__name__.lower()} of a dynamic size with no "
                "size header before it: where it ends is not stated"
                + (f" (its JSON schema names {named[0]!r}, not a known primitive)" if named else "")
            )
        if isinstance(layout, bs.Enum):
            return self.enum(layout, path)
        if isinstance(layout, bs.Seq):
            items = None if self.guide is None else self.guide.items(js)
            elt = self.layout(layout.layout, None, f"{path}.layout", items)
            if layout.exact:
                assert layout.limit is not None
                return fixed.list_(layout.limit, elt)
            return variable.list_(elt, layout.limit)
        if isinstance(layout, bs.Ref):
            return self.entry(layout.name, path, js)
        raise DefinitionError(f"from_schema: {path}: a padding where no list of fields is")

    def primitive(
        self,
        js: Js,
        place: Callable[[KnownParts], bool],
        generic: Callable[[], Encoding[Any]],
    ) -> Encoding[Any] | None:
        """The known primitive the JSON schema names at a place (by its
        definition's name or title), if the binary schema describes it
        there, its entries' names aside (``place`` says so of its schema's
        parts). Where its entries are named otherwise (another protocol's
        prefix), its binary schema is the ``generic`` rebuild's, which keeps
        the published names."""
        if self.guide is None:
            return None
        names = self.guide.refs(js)
        titles = self.guide.titles(js)
        strings = self.guide.enumeration(js)
        candidates = [
            *(k for name in names for k in self.primitives.by_name.get(name, ())),
            *(k for title in titles for k in self.primitives.by_title.get(title, ())),
            *(self.primitives.by_enum.get(strings, ()) if strings is not None else ()),
        ]
        for known in candidates:
            parts = known_parts(known)
            if not place(parts):
                continue
            if all(self.entry_is(name, e) for name, e in parts.entries.items()):
                return known  # named alike
            try:
                rebuilt = generic()
            except DefinitionError:  # a list of hashes: the primitive says their size
                return known
            return Described(known, rebuilt) if known.size == rebuilt.size else known
        return None

    def shape(self, value: Hashable) -> Hashable:
        """The shape of ``value`` (a layout, a tuple of fields) in this schema."""
        found = self.shapes.get(value)
        if found is None:
            found = self.shapes[value] = shape(value, self.entries)
        return found

    def enum(self, layout: bs.Enum, path: str) -> Encoding[Any]:
        name = layout.reference
        if name in self.built:
            self.used(name)
        else:
            found = self.entries.get(name)
            if found is None or not isinstance(found.encoding, bs.IntEnum):
                raise DefinitionError(f"from_schema: {path} refers to no Int_enum {name!r}")
            cases = found.encoding.cases
            if [i for i, _ in cases] != list(range(len(cases))):
                raise DefinitionError(
                    f"from_schema: fields[{name!r}]: an Int_enum's cases are numbered 0, 1, ..."
                )
            self.built[name] = self.named(name, string_enum([s for _, s in cases]))
            self.began_now(name)
            if self.frames:
                self.frames[-1].names.append(name)
        return self.built[name]


def count_of(f: bs.FieldDescr, following: bs.FieldDescr | None) -> HeaderKind | None:
    """The header kind, if ``f`` is the count of the ``Seq`` that follows it."""
    count = _COUNTS.get(f.layout) if isinstance(f, bs.AnonymousField) else None
    if count is None or not isinstance(following, bs.AnonymousField):
        return None
    seq = following.layout
    if not isinstance(seq, bs.Seq) or seq.exact or seq.limit is None or seq.limit > count[1]:
        return None
    return count[0]
