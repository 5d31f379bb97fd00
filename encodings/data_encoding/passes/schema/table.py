"""``table()``: a binary schema as the reference prints it (``Binary_schema.pp``).

One table of ``Name | Size | Contents`` rows for the top level, then one per
entry under an underlined title (``*``); a union entry has one table per case
under a title ``<case> (tag <n>)`` underlined with ``=``; an enumeration has a
``Case number | Encoded string`` table. Anonymous fields are numbered per
table, and zero-width ones are left out.

The reference prints through OCaml's ``Format`` with a 78-column margin: the
space between a title and its underline is a break hint, which becomes a
newline unless everything up to the next title takes strictly less room than
the rest of the line (so a short union title followed by a short case title
stays on one line). :func:`_flow` reproduces that rule.

Dialects: legacy writes no endianness (``signed 16-bit integer``) and prints an
empty table as its header; 1.0 writes ``big-endian`` for multi-byte integers
and replaces an empty table with a sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...tree.size import DYNAMIC, Fixed, Size
from . import values as bs
from .describe import integer_size

_MARGIN = 78
_BREAK = None  # a Format break hint between a title and its underline
_EMPTY = "This value's binary representation is empty. It takes zero (0) bytes of output."
_HEADERS = ("Name", "Size", "Contents")
_ENUM_HEADERS = ("Case number", "Encoded string")
_INT_WORDS = {
    "Int8": "signed 8-bit",
    "Uint8": "unsigned 8-bit",
    "Int16": "signed 16-bit",
    "Uint16": "unsigned 16-bit",
    "Int31": "signed 31-bit",
    "Uint30": "unsigned 30-bit",
    "Int32": "signed 32-bit",
    "Int64": "signed 64-bit",
}
_HEADER_WIDTHS = {"Uint30": 4, "Uint16": 2, "Uint8": 1}
_BOOLEAN = "boolean (0 for false, 255 for true)"

Token = str | None


class _Printer:
    def __init__(self, dialect: bs.Dialect) -> None:
        self.modern = dialect == "1.0"

    # ------------------------------------------------------------- words

    def integer(self, size: str, endianness: str = "Big") -> str:
        words = _INT_WORDS[size]
        if self.modern and size not in ("Int8", "Uint8"):
            words += " big-endian" if endianness == "Big" else " little-endian"
        return words + " integer"

    @staticmethod
    def size(kind: Size) -> str:
        if isinstance(kind, Fixed):
            return "1 byte" if kind.n == 1 else f"{kind.n} bytes"
        return "Determined from data" if kind is DYNAMIC else "Variable"

    def layout(self, layout: bs.Layout) -> str:
        if isinstance(layout, bs.Int):
            return self.integer(layout.size, layout.endianness)
        if isinstance(layout, bs.RangedInt):
            lo, hi = layout.min, layout.max
            text = (
                f"{self.integer(integer_size(lo, hi), layout.endianness)} in the range {lo} to {hi}"
            )
            return text + (f" (shifted by {lo})" if lo > 0 else "")
        if isinstance(layout, bs.RangedFloat):
            bounds = f"{layout.min:f} to {layout.max:f}"
            return f"double-precision floating-point number, in the range {bounds}"
        if isinstance(layout, bs.Enum):
            return f"{self.integer(layout.size)} encoding an enumeration (see {layout.reference})"
        if isinstance(layout, bs.Seq):
            limit = ""
            if layout.limit is not None:
                limit = f"{'exactly' if layout.exact else 'at most'} {layout.limit} "
            return f"sequence of {limit}{self.layout(layout.layout)}"
        if isinstance(layout, bs.Ref):
            return f"${layout.name}"
        return _WORDS[type(layout)]

    # ------------------------------------------------------------- tables

    def rows(self, fields: tuple[bs.FieldDescr, ...]) -> list[tuple[str, ...]]:
        rows: list[tuple[str, ...]] = []
        anonymous = 0
        for f in fields:
            if isinstance(f, bs.NamedField):
                rows.append((f.name, self.size(f.kind), self.layout(f.layout)))
            elif isinstance(f, bs.AnonymousField):
                if f.kind == Fixed(0):
                    continue  # zero-width: no row, and no number
                rows.append(
                    (f"Unnamed field {anonymous}", self.size(f.kind), self.layout(f.layout))
                )
                anonymous += 1
            elif isinstance(f, bs.DynamicSizeField):
                if f.num_fields != 1:
                    name = f"# bytes in next {f.num_fields} fields"
                elif f.name is not None:
                    name = f'# bytes in field "{f.name}"'
                else:
                    name = "# bytes in next field"
                if f.size == "N":
                    rows.append((name, "Determined from data", "$N.t"))
                else:
                    width = _HEADER_WIDTHS[f.size]
                    rows.append((name, self.size(Fixed(width)), self.integer(f.size)))
            else:
                rows.append((f'? presence of field "{f.name}"', "1 byte", _BOOLEAN))
        return rows

    def table(
        self, headers: tuple[str, ...], rows: Sequence[tuple[str, ...]], in_case: bool
    ) -> str:
        if not rows and self.modern:
            return _EMPTY + ("\n\n" if in_case else "\n")
        widths = [max(len(r[i]) for r in (headers, *rows)) for i in range(len(headers))]

        def line(pad: str) -> str:
            return "+" + "".join(pad * (w + 2) + "+" for w in widths)

        def row(cells: tuple[str, ...]) -> str:
            return "|" + "".join(f" {c.ljust(w)} |" for c, w in zip(cells, widths, strict=True))

        body = "\n".join(f"{row(r)}\n{line('-')}" for r in rows)
        return f"{line('-')}\n{row(headers)}\n{line('=')}\n{body}\n\n"

    # ------------------------------------------------------------- document

    def entry(self, entry: bs.Entry) -> list[Token]:
        d, enc = entry.description, entry.encoding
        tokens: list[Token] = []
        if isinstance(enc, bs.Cases):
            title = (
                f"{d.title} ({self.size(enc.kind)}, {8 if enc.tag_size == 'Uint8' else 16}-bit tag)"
            )
        elif isinstance(enc, bs.IntEnum):
            title = f"{d.title} (Enumeration: {self.integer(enc.size)}):"
        else:
            title = d.title
        tokens += _title(title, "*")
        if d.description is not None:
            tokens.append(d.description + "\n\n")
        tokens += self.body(enc)
        return tokens

    def body(self, enc: bs.Toplevel) -> list[Token]:
        if isinstance(enc, bs.Obj):
            return [self.table(_HEADERS, self.rows(enc.fields), in_case=False)]
        if isinstance(enc, bs.IntEnum):
            rows = [(str(i), s) for i, s in enc.cases]
            return [self.table(_ENUM_HEADERS, rows, in_case=False)]
        tokens: list[Token] = []
        for i, c in enumerate(enc.cases):
            if i:
                tokens.append("\n")
            tokens += _title(
                f"{c.name} (tag {c.tag})" if c.name is not None else f"Tag {c.tag}", "="
            )
            tokens.append(self.table(_HEADERS, self.rows(c.fields), in_case=True))
        return tokens

    def document(self, schema: bs.BinarySchema) -> str:
        tokens = self.body(schema.toplevel)
        tokens.append("\n")
        for i, entry in enumerate(schema.fields):
            if i:
                tokens.append("\n")
            tokens += self.entry(entry)
        return _flow(tokens)


_WORDS: dict[type, str] = {
    bs.ZeroWidth: "",
    bs.Bool: _BOOLEAN,
    bs.Float: "double-precision floating-point number",
    bs.Bytes: "bytes",
    bs.String: "bytes",
    bs.Padding: "padding",
}


def _title(title: str, underline: str) -> list[Token]:
    return [title, _BREAK, underline * len(title) + "\n\n"]


def _flow(tokens: list[Token]) -> str:
    """Lay out break hints as OCaml's ``Format`` does in its outermost box: a
    break is a space when it and the text up to the next break (forced
    newlines count for nothing) take strictly less room than what is left of
    the line, else a newline (``Format.advance_left`` forces a pending break
    to a newline once it and the text after it reach the room left); the last
    break is always a newline (``Format`` flushes pending breaks as newlines)."""
    out: list[str] = []
    column = 0
    for i, token in enumerate(tokens):
        if token is not None:
            out.append(token)
            last_newline = token.rfind("\n")
            column = column + len(token) if last_newline < 0 else len(token) - last_newline - 1
            continue
        size, fits = 1, False
        for later in tokens[i + 1 :]:
            if later is None:
                fits = size < _MARGIN - column
                break
            size += len(later) - later.count("\n")
            if size >= _MARGIN - column:
                break
        out.append(" " if fits else "\n")
        column = column + 1 if fits else 0
    return "".join(out)


def render(schema: bs.BinarySchema, dialect: bs.Dialect = "legacy") -> str:
    """The layout tables of ``schema`` (see the module docstring)."""
    return _Printer(dialect).document(schema)
