"""``data-encoding slice``: a binary value's bytes as a table of its parts.

One row per slice (:mod:`data_encoding.passes.binary.slicing`): the byte range (``start..end``,
the end excluded), the size, the field's path, what the bytes are (the leaf's
encoding, by its catalogue id where it is an entry, or the framing: tag,
presence byte, size or count header, padding),
the value they hold as JSON and the bytes in hex (the first 32, then ``...``).
When the bytes do not decode, the rows read before the failure come first,
then the rest of the input as one ``not read`` row, and the error on stderr.

``slice --any`` tries every id, as the node's codec slices with all its
encodings: each id that reads the bytes exactly, with its table.
"""

from __future__ import annotations

from argparse import Namespace

from ..errors import format_path
from ..jsonvalue import dumps
from ..node import registry
from ..passes.binary.slicing import Slice, Sliced, leaf_name, slice_bytes
from .commands import bytes_of_input, encoding_of
from .inputs import UsageError
from .output import BAD_DATA, OK, error_text, print_error, write_line

HEX_BYTES = 32
"""How many bytes of a slice the table shows in hex."""

VALUE_WIDTH = 56
"""How many characters of a value the table shows (a quoted Base58 hash fits)."""

_HEADINGS = ("bytes", "size", "path", "what", "value", "hex")


def shown_what(s: Slice) -> str:
    """What a slice is, as the table shows it: a leaf that is a catalogue entry
    by its id (``chain.history_mode``: what ``list`` and ``describe`` take,
    where the pass names it in Python), else as the pass names it."""
    if s.role == "value":
        assert s.encoding is not None
        return leaf_name(s.encoding, registry.id_of)
    return s.what


def shown_value(s: Slice) -> str:
    """A slice's value as the table shows it."""
    if s.role == "value":
        assert s.encoding is not None
        text = dumps(s.encoding.to_json(s.value))
    elif s.role == "tag":
        text = f"{s.value} ({s.note})"
    elif s.role == "presence":
        text = "present" if s.value else "absent"
    elif s.role == "size":
        text = f"{s.value} byte{'' if s.value == 1 else 's'}"
    elif s.role == "count":
        text = f"{s.value} element{'' if s.value == 1 else 's'}"
    else:
        text = ""
    return text if len(text) <= VALUE_WIDTH else text[: VALUE_WIDTH - 3] + "..."


def shown_hex(data: bytes) -> str:
    return data[:HEX_BYTES].hex() + ("..." if len(data) > HEX_BYTES else "")


def table(rows: list[tuple[str, ...]]) -> str:
    """Aligned columns (the size right-aligned), no trailing spaces."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(_HEADINGS))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if i == 1 else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def sliced_table(data: bytes, sliced: Sliced) -> str:
    """The table of ``data``'s slices: a row per slice, and one for the bytes
    not read when they do not decode."""
    rows: list[tuple[str, ...]] = [_HEADINGS]
    for s in sliced.slices:
        rows.append(
            (
                f"{s.start}..{s.end}",
                str(s.size),
                format_path(s.path),
                shown_what(s),
                shown_value(s),
                shown_hex(data[s.start : s.end]),
            )
        )
    if sliced.error is not None:
        start = sliced.slices[-1].end if sliced.slices else 0
        if start < len(data):
            path = format_path(sliced.error.path)
            rest = data[start:]
            rows.append(
                (f"{start}..{len(data)}", str(len(rest)), path, "not read", "", shown_hex(rest))
            )
    return table(rows)


def slice_command(args: Namespace) -> int:
    """Print the slices of the input as an id (exit status 1, and the error,
    when it does not decode), or, with ``--any``, as every id that reads it."""
    if args.any:
        if args.input is not None:
            raise UsageError("slice --any tries every id: give it no ID (slice --any [INPUT])")
        return slice_any(bytes_of_input(args.id, args.raw), canonical=not args.lenient)
    if args.id is None:
        raise UsageError("slice needs an ID, or --any to try every id")
    e = encoding_of(args.id)
    data = bytes_of_input(args.input, args.raw)
    sliced = slice_bytes(e, data, canonical=not args.lenient)
    write_line(sliced_table(data, sliced))
    if sliced.error is not None:
        print_error(error_text(sliced.error))
        return BAD_DATA
    return OK


def slice_any(data: bytes, canonical: bool = True) -> int:
    """Each id that reads ``data`` exactly, its id on a line and then its
    table, a blank line between two; exit status 1 when none does."""
    read = [
        (entry.id, slice_bytes(entry.encoding, data, canonical=canonical))
        for entry in registry.entries()
    ]
    found = [f"{id}\n{sliced_table(data, sliced)}" for id, sliced in read if sliced.error is None]
    if not found:
        print_error(f"no id reads these {len(data)} byte{'' if len(data) == 1 else 's'} exactly")
        return BAD_DATA
    write_line("\n\n".join(found))
    return OK
