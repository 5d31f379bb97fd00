"""The command line: its parser, and :func:`main`, which runs a command and
turns what it raises into a message and an exit status
(:mod:`data_encoding.cli.output` lists them)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from textwrap import dedent, indent
from typing import TYPE_CHECKING

from ..errors import DataEncodingError
from ..node.registry import UnknownId
from . import commands, tables
from .inputs import UsageError
from .inspecting import inspect_command
from .output import (
    BAD_DATA,
    BAD_USAGE,
    INTERRUPTED,
    OK,
    OUTPUT_FAILED,
    OutputError,
    error_text,
    flush,
    print_error,
    use_utf8,
    write_line,
    write_text,
)
from .sampling import sample
from .slices import slice_command

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

Command = Callable[[argparse.Namespace], int]

_DESCRIPTION = """\
Encode, decode and describe the values of a Tezos-family node's RPC interface,
by their catalogue id (data-encoding list shows them), or by a service of a
node's /describe answer (--describe).

INPUT is the data itself, @FILE for a file's content, or - (the default) for stdin;
text is UTF-8 (without a byte-order mark), and so is what is written.
Exit status: 0 ok, 1 bad data (or nothing found), 2 bad usage,
3 the output could not be written, 130 interrupted."""

_EXAMPLES = """\
examples:
  data-encoding list admin.
  data-encoding encode admin.daemon_status '{"id": 3, "pid": 7, "state": "running"}'
  data-encoding decode admin.daemon_status 000000030000000007
  data-encoding <command> --help"""


class _Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help fails as any output does: argparse
    itself drops a failure to write it, and exits with status 0."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message and (file is None or file is sys.stdout):
            write_text(message)
        else:
            super()._print_message(message, file)


class _Version(argparse.Action):
    """``--version``: the package's version, read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, argparse.SUPPRESS, nargs=0, help="print the version and exit"
        )

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        from .. import __version__

        write_line(f"{parser.prog} {__version__}")
        parser.exit()


def _add(
    commands_: argparse._SubParsersAction[_Parser],
    name: str,
    run: Command,
    summary: str,
    description: str,
    example: str,
    usage: str | None = None,
) -> argparse.ArgumentParser:
    """A subcommand whose ``--help`` ends with examples."""
    parser = commands_.add_parser(
        name,
        help=summary,
        usage=usage,
        description=description,
        epilog="examples:\n" + indent(dedent(example).strip("\n"), "  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.set_defaults(run=run)
    return parser


def _id(parser: argparse.ArgumentParser, service: bool = False) -> None:
    parser.add_argument(
        "id",
        metavar="ID",
        help="a catalogue id (see: data-encoding list)"
        + ("; with --describe, a service: 'METHOD PATH'" if service else ""),
    )


def _answer(parser: argparse.ArgumentParser, bodies: bool) -> None:
    """``--describe FILE`` and what goes with it: ``--at``, ``--dialect``
    and, with ``bodies``, which body of the service."""
    answer = parser.add_argument_group("a node's /describe answer")
    answer.add_argument(
        "--describe",
        metavar="FILE",
        help="the file of a node's answer to GET /describe<PATH>?recurse=yes, as JSON or "
        "in binary: told by its first byte, since the bytes begin with the tree's tag, "
        "00 or 01, and JSON text never does",
    )
    answer.add_argument(
        "--at",
        metavar="PATH",
        help="the PATH it was asked at (default /): an answer for a subtree "
        "(GET /describe/chains/main/mempool) needs it",
    )
    _dialect(
        answer,
        "the schema words of an answer in binary"
        + ("" if bodies else ", and of what is printed")
        + ": legacy (the seed's node, default) or modern (data-encoding 1.0)",
        None,
    )
    if bodies:
        which = answer.add_mutually_exclusive_group()
        for body, what in (
            ("input", "the service's input"),
            ("output", "its output (the default)"),
            ("error", "its error"),
        ):
            which.add_argument(
                f"--{body}", dest="body", action="store_const", const=body, help=what
            )


def _lenient(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="read non-canonical bytes as the node does (what an indexer needs; "
        "README, Strictness)",
    )


def _lines(parser: argparse.ArgumentParser) -> None:
    batch = parser.add_argument_group("batch mode")
    batch.add_argument(
        "--lines",
        action="store_true",
        help="one input per line of INPUT (a file, or - for stdin), one result per line",
    )
    batch.add_argument(
        "--keep-going",
        action="store_true",
        help="with --lines: go on past bad lines (reported on stderr; exit status 1)",
    )
    batch.add_argument(
        "--jobs",
        type=_positive,
        metavar="N",
        help="with --lines: convert the lines in N worker processes, a chunk at a time "
        "(default 1: in this one); the output, its order and the errors are the same",
    )


def _positive(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}")
    return number


def _dialect(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    help: str = "the schema words: legacy (the seed's node, default) or modern (data-encoding 1.0)",
    default: str | None = "legacy",
) -> None:
    parser.add_argument("--dialect", choices=sorted(commands.DIALECTS), default=default, help=help)


def _compact(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--compact", action="store_true", help="JSON on one line (the default when piped)"
    )


def build_parser() -> tuple[argparse.ArgumentParser, Mapping[str, argparse.ArgumentParser]]:
    """The top parser, and each command's parser by name."""
    parser = _Parser(
        prog="data-encoding",
        description=_DESCRIPTION,
        epilog=_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(title="commands", dest="command", metavar="COMMAND", required=True)

    p = _add(
        sub,
        "list",
        commands.list_ids,
        "list the catalogue's ids",
        "List the catalogue's ids with their seed section and description.",
        """
          data-encoding list 'admin.daemon*'
          data-encoding list checkpoint --json
        """,
    )
    p.add_argument(
        "pattern", metavar="PATTERN", nargs="?", help="a glob (admin.*) or part of an id"
    )
    p.add_argument("--json", action="store_true", help="a JSON array of {id, section, description}")
    _compact(p)

    p = _add(
        sub,
        "describe",
        commands.describe,
        "an id's layout tables, binary schema or JSON Schema",
        "Describe an id: its binary layout as tables (the default), its binary schema "
        "as /describe publishes it, or the JSON Schema of its JSON form.",
        """
          data-encoding describe admin.daemon_status
          data-encoding describe chain.checkpoint --binary-schema --dialect modern
        """,
    )
    _id(p)
    what = p.add_mutually_exclusive_group()
    what.add_argument("--table", action="store_true", help="the layout tables (the default)")
    what.add_argument(
        "--binary-schema", action="store_true", help="the binary schema, as /describe publishes it"
    )
    what.add_argument("--json-schema", action="store_true", help="the JSON Schema (draft-04)")
    _dialect(p)
    _compact(p)

    p = _add(
        sub,
        "encode",
        commands.encode,
        "JSON to hex (or bytes)",
        "Read a JSON value of an id and write its binary form, in hex (or the bytes). "
        "With --describe, of a service's body instead, its codec rebuilt from the binary "
        "schema in a node's /describe answer.",
        """
          data-encoding encode admin.daemon_status '{"id": 3, "pid": 4242, "state": "running"}'
          data-encoding encode chain.checkpoint @checkpoint.json --raw > checkpoint.bin
          data-encoding encode admin.daemon_status --lines statuses.jsonl > statuses.hex
          data-encoding encode --describe rpc.json --input 'POST /chains/main/mempool/filter' '"{}"'
        """,
    )
    _id(p, service=True)
    p.add_argument(
        "input",
        metavar="INPUT",
        nargs="?",
        help="JSON text, @FILE or - (stdin); with --lines, a file or -",
    )
    p.add_argument("--raw", action="store_true", help="write the bytes themselves, not hex")
    _lines(p)
    _answer(p, bodies=True)

    p = _add(
        sub,
        "decode",
        commands.decode,
        "hex (or bytes) to JSON",
        "Read the binary form of an id, in hex (or the bytes), and write its JSON; with "
        "--lenient, bytes it would not write (a boolean byte 01...) read as the node reads them. "
        "With --describe, of a service's body instead, its codec rebuilt from the binary "
        "schema in a node's /describe answer.",
        """
          data-encoding decode admin.daemon_status 000000030000001092
          data-encoding decode chain.checkpoint --raw checkpoint.bin
          data-encoding decode admin.daemon_status --lines --keep-going statuses.hex
          data-encoding decode proto.psdelph1.operation --lines --jobs 4 operations.hex
          data-encoding decode admin.daemon_status --lenient 0000000301000010920200000001
          data-encoding decode shell.block_header --lines headers.hex --to parquet headers.parquet
          data-encoding decode --describe rpc.json 'GET /chains/main/mempool/filter' 000000027b7d
        """,
    )
    _id(p, service=True)
    p.add_argument(
        "input",
        metavar="INPUT",
        nargs="?",
        help="hex (whitespace and 0x allowed), @FILE or - (stdin); with --raw or --lines, "
        "a file or -",
    )
    p.add_argument("--raw", action="store_true", help="read the bytes themselves, not hex")
    _lenient(p)
    _lines(p)
    table = p.add_argument_group("tables (needs data-encoding[arrow])")
    table.add_argument(
        "--to",
        nargs=2,
        metavar=("FORMAT", "FILE"),
        help="with --lines: the values as the rows of a table (data_encoding.arrow), written "
        f"to FILE in FORMAT, parquet or arrow (an Arrow IPC file), {tables.BATCH_ROWS} rows "
        "at a time (a Parquet row group, an Arrow record batch): memory holds one batch; "
        "a bad line has no row",
    )
    table.add_argument(
        "--recursive",
        choices=("refuse", "json"),
        default="refuse",
        help="with --to: a recursive encoding (Micheline) refused (the default), or its JSON text",
    )
    _compact(p)
    _answer(p, bodies=True)

    p = _add(
        sub,
        "slice",
        slice_command,
        "each field's bytes, path and value",
        "Read the binary form of an id, in hex (or the bytes), and print its parts as a "
        "table: each leaf's and each framing byte's range (the end excluded), size, path, "
        "what it is, value and hex. Bytes that do not decode show the parts read up to the "
        "failure, the rest as 'not read', and the error. With --any, try every id: each "
        "that reads the bytes exactly, its id and its table (the node codec's slice of all "
        "its encodings). With --lenient, bytes it would not write read as the node reads "
        "them, as decode --lenient does.",
        """
          data-encoding slice admin.daemon_status 0000000303000010920000000f
          data-encoding slice chain.checkpoint --raw checkpoint.bin
          data-encoding slice --any 00000011000000010100000008000000000000000a
          data-encoding slice admin.daemon_status --lenient 0000000301000010920200000001
        """,
        usage="%(prog)s [-h] [--raw] [--lenient] ID [INPUT]\n"
        "       %(prog)s [-h] [--raw] [--lenient] --any [INPUT]",
    )
    p.add_argument(
        "id",
        metavar="ID",
        nargs="?",
        help="a catalogue id (see: data-encoding list); not with --any",
    )
    p.add_argument(
        "input",
        metavar="INPUT",
        nargs="?",
        help="hex (whitespace and 0x allowed), @FILE or - (stdin); with --raw, a file or -",
    )
    p.add_argument("--raw", action="store_true", help="read the bytes themselves, not hex")
    p.add_argument(
        "--any", action="store_true", help="every id that reads the bytes exactly, with its table"
    )
    _lenient(p)

    p = _add(
        sub,
        "inspect",
        inspect_command,
        "what a signer is asked to sign: kind, chain id, level, contents",
        "Read bytes a signer is asked to sign (a watermark, then a block header or an "
        "operation) strictly, with --protocol's encodings, and print their kind, chain id, "
        "the level a high watermark keeps and a summary of each operation content "
        "(amounts in mutez); bytes the protocol refuses are bad data. Without --protocol, "
        "try every protocol of the era: each reading under the protocols that give it, "
        "then the protocols that refuse the bytes (exit status 1 when all do).",
        """
          data-encoding inspect --protocol 007-PsDELPH1 \\
            027a06a7700e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a80000000533
          data-encoding inspect --protocol delphi --json @to_sign.hex
          data-encoding inspect --raw to_sign.bin
        """,
    )
    p.add_argument(
        "input",
        metavar="INPUT",
        nargs="?",
        help="hex (whitespace and 0x allowed), @FILE or - (stdin); with --raw, a file or -",
    )
    p.add_argument(
        "--protocol",
        metavar="P",
        help="the protocol: its name (delphi), hash, short hash, toolchain name "
        "(007-PsDELPH1) or number (007); default: try each",
    )
    p.add_argument("--raw", action="store_true", help="read the bytes themselves, not hex")
    p.add_argument("--json", action="store_true", help="JSON (the payload's value too)")
    _compact(p)

    p = _add(
        sub,
        "sample",
        sample,
        "random valid values (JSON and hex)",
        "Print random valid values of an id, one JSON object per line: "
        '{"json": <its JSON>, "hex": <its binary form>}. Needs Hypothesis '
        "(pip install 'data-encoding[hypothesis]').",
        """
          data-encoding sample admin.daemon_status --count 3 --seed 7
          data-encoding sample chain.checkpoint --count 2
        """,
    )
    _id(p)
    p.add_argument(
        "--count", type=_positive, default=1, metavar="N", help="how many values (default 1)"
    )
    p.add_argument(
        "--seed", type=int, metavar="S", help="the same values for the same seed (default: random)"
    )

    p = _add(
        sub,
        "describe-rpc",
        commands.describe_rpc,
        "the node's /describe answer for a path",
        "Print what the node answers to GET /describe<PATH>: the service tree of its "
        "RPC directory there, as JSON (or its binary form in hex). With --protocol, the "
        "directory of a node running that protocol: the block-scoped services and the "
        "injection typed as the protocol declares them. With --describe, the node whose "
        "answer FILE is: the services under PATH, one line each, with their method, path "
        "and whether their input, output and error rebuild from their binary schemas (ok; "
        "- when there is none; refused when the library cannot rebuild it: encode and "
        "decode say why); or with --json or --binary, the answer there.",
        """
          data-encoding describe-rpc /chains/main/checkpoint
          data-encoding describe-rpc /admin --recurse
          data-encoding describe-rpc /chains/main/checkpoint --binary
          data-encoding describe-rpc /chains/main/blocks/head/hash --protocol 007-PsDELPH1
          data-encoding describe-rpc --describe rpc.json /chains/main/mempool
          data-encoding describe-rpc --describe mempool.json --at /chains/main/mempool
          data-encoding describe-rpc --describe rpc.json /chains/main/mempool/filter --json
        """,
    )
    p.add_argument(
        "path", metavar="PATH", nargs="?", default="/", help="a path of the directory (default /)"
    )
    p.add_argument(
        "--recurse", action="store_true", help="the whole subtree (?recurse=yes), not one level"
    )
    p.add_argument(
        "--binary",
        action="store_true",
        help="the binary form (rpc.service_tree; with --dialect modern, rpc.service_tree_v1), "
        "in hex",
    )
    p.add_argument(
        "--protocol",
        metavar="P",
        help="the directory of protocol P: 004-Pt24m4xi, 005-PsBabyM1, 006-PsCARTHA or "
        "007-PsDELPH1 (also its short hash, PsDELPH1, or its name, delphi; default: the "
        "seed's directory, block-scoped bodies untyped)",
    )
    p.add_argument(
        "--json", action="store_true", help="with --describe: the answer as JSON, not the list"
    )
    _compact(p)
    _answer(p, bodies=False)

    p = _add(
        sub,
        "dump",
        commands.dump,
        "every id's schemas in one JSON document",
        "Write the JSON Schema and the binary schema of every id as one JSON array of "
        '{"id", "json", "binary"}, in id order (the node codec\'s dump of its encodings): '
        "to FILE, indented unless --compact, or to stdout.",
        """
          data-encoding dump schemas.json
          data-encoding dump --dialect modern --compact > schemas.json
        """,
    )
    p.add_argument(
        "file", metavar="FILE", nargs="?", help="where to write it (default: - for stdout)"
    )
    _dialect(p)
    _compact(p)
    return parser, sub.choices


def _parse(
    parser: argparse.ArgumentParser,
    commands_: Mapping[str, argparse.ArgumentParser],
    words: list[str],
) -> argparse.Namespace:
    """The command line parsed by its command's parser, options and arguments
    in any order (``decode ID --raw FILE``: argparse alone would take ``FILE``
    for a second command), or by the top parser (help, and its errors)."""
    command = commands_.get(words[0]) if words else None
    if command is not None:
        return command.parse_intermixed_args(words[1:])
    return parser.parse_args(words)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``data-encoding`` with ``argv`` (``sys.argv[1:]`` by default); the exit status.

    stdout and stderr are made to write UTF-8 (:func:`~data_encoding.cli.output.use_utf8`)."""
    use_utf8()
    try:
        status = _run(sys.argv[1:] if argv is None else list(argv))
        flush()
    except OutputError as err:
        print_error(str(err))
        _discard_stdout()
        return OUTPUT_FAILED
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        _discard_stdout()
        return OK
    except KeyboardInterrupt:
        return INTERRUPTED
    return status


def _run(words: list[str]) -> int:
    """Parse ``words`` and run the command; what it raised as a message and a status."""
    parser, commands_ = build_parser()
    try:
        args = _parse(parser, commands_, words)
    except SystemExit as exit:  # --help (0), or a usage error argparse reported (2)
        return exit.code if isinstance(exit.code, int) else OK
    run: Command = args.run
    try:
        return run(args)
    except DataEncodingError as err:
        print_error(error_text(err))
        return BAD_DATA
    except (UsageError, UnknownId) as err:
        print_error(str(err))
        return BAD_USAGE


def _discard_stdout() -> None:
    """Point stdout at the null device: what it still holds is dropped when
    Python flushes it at exit, instead of failing again in a traceback."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # none, or not a file (a caller's StringIO)
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
