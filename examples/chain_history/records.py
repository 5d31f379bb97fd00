"""The raw inputs: a partition is a file of records, each one value's bytes.

Two formats, told by the file's suffix:

* ``.hex``: a record per line, its bytes in hexadecimal (what
  ``data-encoding decode ID --lines`` reads, and what the node's
  ``/header/raw`` RPC answers, once its JSON quotes are taken off); blank
  lines are skipped;
* ``.bin``: records one after the other, each preceded by its length as a
  4-byte big-endian ``uint30``, as the node frames them on the wire: each
  is a value of :data:`FRAMED`, the library's ``bytes_`` (the node's
  ``bytes``), so that a length past ``2^30 - 1`` or past the file's end is
  refused with its offset, as any frame is.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from data_encoding import bytes_

__all__ = ["FRAMED", "SUFFIXES", "read_records", "write_records"]

FRAMED = bytes_
"""One record of a ``.bin`` file: a ``uint30`` length, then the record's bytes."""

SUFFIXES = (".hex", ".bin")
"""The formats of a partition, by the suffix of its file."""


def _suffix(path: Path) -> str:
    if path.suffix not in SUFFIXES:
        raise ValueError(f"{path}: a partition is a {' or '.join(SUFFIXES)} file")
    return path.suffix


def read_records(path: Path) -> Iterator[bytes]:
    """The records of the partition at ``path``, in the file's order.

    The file is read whole (a partition's raw bytes are the smallest form
    of its data); the records are made one at a time from it. A line that is
    not hexadecimal raises ``ValueError`` with its number; a bad frame the
    library's ``DecodeError``, at its offset in the file.
    """
    suffix = _suffix(path)
    data = path.read_bytes()
    if suffix == ".hex":
        for number, line in enumerate(data.splitlines(), 1):
            if line.strip():
                try:
                    yield bytes.fromhex(line.decode("ascii"))
                except (UnicodeDecodeError, ValueError):
                    raise ValueError(f"{path}: line {number} is not hexadecimal") from None
        return
    offset = 0
    while offset < len(data):
        record, offset = FRAMED.decode_prefix(data, offset)
        yield record


def write_records(path: Path, records: Iterable[bytes]) -> None:
    """Write ``records`` to a partition at ``path``, in the format its suffix names."""
    if _suffix(path) == ".hex":
        path.write_text("".join(f"{record.hex()}\n" for record in records), encoding="ascii")
    else:
        path.write_bytes(b"".join(FRAMED.encode(record) for record in records))
