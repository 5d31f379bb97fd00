"""The commands that read the catalogue and the directory: ``list``,
``describe``, ``encode``, ``decode``, ``dump``, ``describe-rpc``; and what ``slice``
and ``sample`` share with them (:func:`encoding_of`, :func:`bytes_of_input`).

Each takes the parsed command line and returns the exit status; errors are
raised (:mod:`data_encoding.cli.app` reports them).
"""

from __future__ import annotations

from argparse import Namespace
from fnmatch import fnmatchcase
from functools import partial
from typing import TYPE_CHECKING, Any

from ..jsonvalue import JsonValue, dumps
from ..node import registry
from ..passes.schema import Dialect
from ..tree.core import Encoding
from .batch import run_lines
from .inputs import RAW_HINT, Input, UsageError, hex_of, read_input, read_raw, text_of_input
from .output import BAD_DATA, OK, print_error, print_json, write_bytes, write_file, write_line
from .tables import decode_to_table

if TYPE_CHECKING:
    from .answers import Answer

DIALECTS: dict[str, Dialect] = {"legacy": "legacy", "modern": "1.0"}
"""The command line's words for the schema dialects
(:data:`data_encoding.passes.schema.Dialect`)."""


def encoding_of(id: str) -> Encoding[Any]:
    """The encoding of catalogue ``id`` (else
    :class:`~data_encoding.node.registry.UnknownId`)."""
    return registry.find(id).encoding


def entries_matching(pattern: str | None) -> list[registry.Entry]:
    """The entries whose id matches ``pattern``: a glob when it has ``*?[``,
    else a substring; every entry without one."""
    entries = registry.entries()
    if pattern is None:
        return entries
    if any(c in pattern for c in "*?["):
        return [e for e in entries if fnmatchcase(e.id, pattern)]
    return [e for e in entries if pattern in e.id]


def list_ids(args: Namespace) -> int:
    """Every id (or those matching the pattern) with its seed section, its
    description and the typed constant that holds its encoding."""
    found = entries_matching(args.pattern)
    if not found:  # nothing found, as grep says it: not a usage error
        print_error(f"no id matches {args.pattern!r} (data-encoding list shows them all)")
        return BAD_DATA
    if args.json:
        rows: JsonValue = [
            {
                "id": e.id,
                "section": e.section,
                "description": e.description,
                "constant": e.constant,
            }
            for e in found
        ]
        print_json(rows, args.compact)
        return OK
    id_width = max(len(e.id) for e in found)
    section_width = max(len(e.section) for e in found)
    description_width = max(len(e.description) for e in found)
    for e in found:
        write_line(
            f"{e.id:<{id_width}}  {e.section:<{section_width}}  "
            f"{e.description:<{description_width}}  {e.constant}"
        )
    return OK


def binary_schema_json(e: Encoding[Any], dialect: Dialect) -> JsonValue:
    """``e``'s binary schema as ``/describe`` publishes it, in ``dialect``'s words."""
    from ..passes.schema import binary_schema, binary_schema_v1

    language = binary_schema if dialect == "legacy" else binary_schema_v1
    return language.to_json(e.describe(dialect))


def describe(args: Namespace) -> int:
    """The layout tables (by default, under a line that says what the id is
    and where its typed constant is), the binary schema or the JSON Schema of
    an id."""
    entry = registry.find(args.id)
    e = entry.encoding
    dialect = DIALECTS[args.dialect]
    if args.binary_schema:
        print_json(binary_schema_json(e, dialect), args.compact)
    elif args.json_schema:
        print_json(e.json_schema(dialect), args.compact)
    else:
        module, name = entry.constant.rsplit(".", 1)
        write_line(f"{entry.id} ({entry.section}): {entry.description}")
        write_line(f"from {module} import {name}\n")
        # the tables end with blank lines (between sections): one newline is enough
        write_line(e.table(dialect).rstrip("\n"))
    return OK


def refuse_answer_options(args: Namespace, *dests: str) -> None:
    """A :class:`UsageError` when an option of ``dests`` (``at``, ``body``,
    ``dialect``) is given without ``--describe``."""
    if args.describe is not None:
        return
    for dest in dests:
        given = getattr(args, dest)
        if given is not None:
            option = f"--{given}" if dest == "body" else f"--{dest}"
            raise UsageError(f"{option} goes with --describe (a node's /describe answer)")


def _answer(args: Namespace) -> Answer:
    """The answer ``--describe`` names, as ``--at`` and ``--dialect`` say."""
    from .answers import Answer  # the directory: only --describe needs it

    return Answer(args.describe, args.at or "/", DIALECTS[args.dialect or "legacy"])


def codec_of(args: Namespace) -> Encoding[Any]:
    """The encoding ``encode`` and ``decode`` use: catalogue ``ID``'s, or with
    ``--describe``, a body (``--output`` by default) of the service ``ID``
    names in that answer."""
    refuse_answer_options(args, "at", "body", "dialect")
    if args.describe is None:
        return encoding_of(args.id)
    return _answer(args).body(args.id, args.body or "output")


def _batch(args: Namespace) -> int:
    """How many processes convert the lines of ``--lines`` (``--jobs``, 1 by default)."""
    if args.raw:
        raise UsageError("--lines reads and writes text: it cannot be used with --raw")
    return args.jobs or 1


def _one_input(args: Namespace) -> None:
    """Without ``--lines``: there is one input, and no ``--jobs``."""
    if args.jobs is not None:
        raise UsageError("--jobs converts lines in worker processes: it needs --lines")


# What a line becomes, as functions of the line alone (partials of these):
# with --jobs, they are sent to the worker processes, so they must pickle.


def _encode_line(e: Encoding[Any], line: Input) -> str:
    return e.json_to_bytes(text_of_input(line)).hex()


def _decode_line(e: Encoding[Any], canonical: bool, line: Input) -> str:
    return e.bytes_to_json(hex_of(line), canonical=canonical)


def encode(args: Namespace) -> int:
    """JSON in, hex (or the bytes, ``--raw``) out; ``--lines``: one JSON value per line."""
    e = codec_of(args)
    if args.lines:
        jobs = _batch(args)
        return run_lines(args.input, partial(_encode_line, e), args.keep_going, jobs=jobs)
    _one_input(args)
    # no hint: --raw is about encode's output, its input is text
    data = e.json_to_bytes(text_of_input(read_input(args.input)))
    if args.raw:
        write_bytes(data)
    else:
        write_line(data.hex())
    return OK


def bytes_of_input(arg: str | None, raw: bool) -> bytes:
    """The bytes ``INPUT`` gives: its hex, or the bytes themselves with ``--raw``."""
    return read_raw(arg) if raw else hex_of(read_input(arg, RAW_HINT))


def decode(args: Namespace) -> int:
    """Hex (or bytes, ``--raw``) in, JSON out; ``--lines``: one hex string per
    line (``--to``: a row each, of a Parquet or Arrow file); ``--lenient``:
    what the reference reads (``canonical=False``)."""
    e = codec_of(args)
    canonical = not args.lenient
    if args.to is not None:
        if not args.lines:
            raise UsageError("--to writes the lines' values: it needs --lines")
        return decode_to_table(args, e, canonical, _batch(args))
    if args.lines:
        jobs = _batch(args)
        return run_lines(
            args.input, partial(_decode_line, e, canonical), args.keep_going, jobs=jobs
        )
    _one_input(args)
    print_json(
        e.decode_json(bytes_of_input(args.input, args.raw), canonical=canonical), args.compact
    )
    return OK


def dump(args: Namespace) -> int:
    """Every id's schemas in one JSON document, ``[{"id", "json", "binary"}...]``
    in id order (the node codec's ``dump encodings``): to a file, indented
    unless ``--compact``, or to stdout."""
    dialect = DIALECTS[args.dialect]
    schemas: JsonValue = [
        {
            "id": entry.id,
            "json": entry.encoding.json_schema(dialect),
            "binary": binary_schema_json(entry.encoding, dialect),
        }
        for entry in registry.entries()
    ]
    if args.file is None or args.file == "-":
        print_json(schemas, args.compact)
    else:  # a file is read and diffed by people, unless told otherwise
        write_file(args.file, dumps(schemas, indent=None if args.compact else 2) + "\n")
    return OK


def describe_rpc(args: Namespace) -> int:
    """What the node answers to ``GET /describe<PATH>`` (a node running
    ``--protocol``, if given): JSON, or the binary form in hex. With
    ``--describe``, the node whose answer that file is; there, unless
    ``--json`` or ``--binary``, the services under ``PATH``, one line each
    (:func:`~.answers.listing`)."""
    from ..node import rpc  # the directory: only this command needs it
    from ..node.rpc.published import TREES

    refuse_answer_options(args, "at")
    answer = None if args.describe is None else _answer(args)
    if answer is None:
        try:
            directory = rpc.directory_of(protocol=args.protocol)
        except rpc.UnknownProtocol as exc:
            raise UsageError(str(exc)) from None
    elif args.protocol is not None:
        raise UsageError("--protocol types the catalogue's directory: not with --describe")
    else:
        directory = answer.directory()
    try:
        if answer is not None and not (args.json or args.binary):
            from .answers import listing

            for line in listing(directory.walk(args.path)):
                write_line(line)
            return OK
        tree = directory.describe(args.path, args.recurse)
    except rpc.NotFound as exc:
        if answer is None:
            raise UsageError(f"no RPC at {exc}") from None
        raise answer.not_found(exc, "no RPC at ") from None
    service_tree = registry.find(TREES[DIALECTS[args.dialect or "legacy"]]).encoding
    if args.binary:
        write_line(service_tree.encode(tree).hex())
    else:
        print_json(service_tree.to_json(tree), args.compact)
    return OK
