"""``data-encoding inspect``: what a signer is asked to sign
(:func:`data_encoding.signer.inspect`), and which protocols read it so.

With ``--protocol``, the bytes are read with that protocol alone, as a
signer reads them; bytes it refuses are bad data (exit status 1, the error
as ``decode`` reports one). Without it, every protocol of the era is tried,
never one picked for the user: the output is each reading, under the
protocols that give it (005, 006 and 007 read most operations alike; 004's
manager operations are other bytes), then each protocol that refuses the
bytes, with its error. The status is 0 when one protocol or more read them,
1 when none does.

A reading, as text: the protocols, the kind and its watermark byte, the
chain id, the level a high watermark keeps (``-`` where there is none),
then one line per operation content with its summary's fields (amounts in
mutez). With ``--json``: ``{"protocols", "kind", "chain_id", "level",
"contents", "value"}``, ``value`` being the payload's JSON (its catalogue id
``proto.<protocol>.block_header.unsigned`` or ``.operation.unsigned``);
without ``--protocol``, ``{"readings": [...], "refused": [{"protocol",
"error": {"code", "path", "offset", "message"}}]}``.
"""

from __future__ import annotations

from argparse import Namespace

from ..errors import DecodeError, format_path
from ..jsonvalue import JsonValue, dumps
from ..node.protocols import PROTOCOLS, Protocol, UnknownProtocol, find_protocol
from ..signer import WATERMARKS, Content, Inspected, inspect
from .commands import bytes_of_input, encoding_of
from .inputs import UsageError
from .output import BAD_DATA, OK, error_text, print_error, print_json, write_line

_NUMBERS = frozenset({"level"})
"""The content fields whose JSON is a number; the others that hold integers
(amounts, counters, limits: Zarith numbers in the node's JSON) are decimal
strings."""


def inspect_command(args: Namespace) -> int:
    """Inspect the input with ``--protocol``, or with every protocol of the era."""
    if args.protocol is not None:
        try:
            protocol = find_protocol(args.protocol)
        except UnknownProtocol as err:
            raise UsageError(str(err)) from None
        found = inspect(bytes_of_input(args.input, args.raw), protocol)
        if args.json:
            print_json(reading_json([protocol], found), args.compact)
        else:
            write_line("\n".join(reading_lines([protocol], found)))
        return OK
    return _survey(bytes_of_input(args.input, args.raw), args.json, args.compact)


def _survey(data: bytes, as_json: bool, compact: bool) -> int:
    """Every protocol's reading of ``data``: those that give the same one
    together, then the refusals."""
    readings: dict[str, tuple[list[Protocol], Inspected]] = {}
    refused: list[tuple[Protocol, DecodeError]] = []
    for protocol in PROTOCOLS:
        try:
            found = inspect(data, protocol)
        except DecodeError as err:
            refused.append((protocol, err))
            continue
        same = readings.setdefault(dumps(reading_json([], found)), ([], found))
        same[0].append(protocol)
    if not readings:
        errors = {error_text(err) for _, err in refused}
        if len(errors) == 1:  # the same for all (a watermark no protocol has)
            print_error(errors.pop())
        else:
            print_error("no protocol of the era reads these bytes")
            for protocol, refusal in refused:
                print_error(f"{_name(protocol)}: {error_text(refusal)}")
        return BAD_DATA
    if as_json:
        print_json(
            {
                "readings": [reading_json(*reading) for reading in readings.values()],
                "refused": [
                    {"protocol": protocol.toolchain_name, "error": _error_json(err)}
                    for protocol, err in refused
                ],
            },
            compact,
        )
        return OK
    blocks = ["\n".join(reading_lines(*reading)) for reading in readings.values()]
    refusals = [f"refused by {_name(protocol)}: {error_text(err)}" for protocol, err in refused]
    write_line("\n\n".join(blocks + (["\n".join(refusals)] if refusals else [])))
    return OK


def reading_json(protocols: list[Protocol], found: Inspected) -> dict[str, JsonValue]:
    """A reading as JSON (``protocols``: the protocols that give it)."""
    payload = encoding_of(found.payload_id)
    return {
        "protocols": [protocol.toolchain_name for protocol in protocols],
        "kind": found.kind,
        "chain_id": None if found.chain_id is None else str(found.chain_id),
        "level": found.level,
        "contents": [dict(content_fields(content)) for content in found.contents],
        "value": payload.to_json(found.value),
    }


def reading_lines(protocols: list[Protocol], found: Inspected) -> list[str]:
    """A reading as lines of text: a label, then what it labels."""
    rows = [
        ("protocols", ", ".join(map(_name, protocols))),
        ("kind", f"{found.kind} (watermark {WATERMARKS[found.kind]:02x})"),
        ("chain id", "-" if found.chain_id is None else str(found.chain_id)),
        ("level", "-" if found.level is None else str(found.level)),
    ]
    for i, content in enumerate(found.contents):
        pairs = [f"{name} {value}" for name, value in content_fields(content) if name != "kind"]
        rows.append((f"content {i}", "  ".join([content.kind, *pairs])))
    width = max(len(label) for label, _ in rows)
    return [f"{label:<{width}}  {text}" for label, text in rows]


def content_fields(content: Content) -> list[tuple[str, JsonValue]]:
    """A content's kind and the fields it has, as JSON: a key, a key's hash
    or a contract as its text, a number as the node's JSON has it."""
    return [
        (name, value if isinstance(value, int) and name in _NUMBERS else str(value))
        for name, value in content.present()
    ]


def _name(protocol: Protocol) -> str:
    return f"{protocol.toolchain_name} ({protocol.name})"


def _error_json(err: DecodeError) -> JsonValue:
    return {
        "code": err.code,
        "path": format_path(err.path),
        "offset": err.offset,
        "message": err.message,
    }
