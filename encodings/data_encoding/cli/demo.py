"""``make demo``: a short tour of the ``data-encoding`` command on the catalogue's samples.

Each step prints the command line, then what the command prints (its
stdout, and its errors, which it writes to stderr), as a shell session
would show them; long outputs are cut (``[...]`` says where). The commands
run in this process, through :func:`data_encoding.cli.main`, exactly as
``data-encoding <arguments>`` runs them; a long argument (a sample's hex) is
shown by what it is rather than spelled out.

The tour needs the package alone: ``sample``, which needs Hypothesis, is
not in it. Run ``python -m data_encoding.cli.demo`` (or ``make demo``); pass a
JSON file to use another daemon status.
"""

from __future__ import annotations

import io
import shlex
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from ..node import registry
from .app import main as cli

SAMPLE = '{"id": 3, "pid": 4242, "state": "exited", "code": 1}'
"""A daemon status: daemon 3's process 4242 exited with code 1."""

WIDTH = 180
"""Output lines are cut to this many characters..."""

LINES = 20
"""...and outputs to this many lines."""


def run(argv: list[str], shown: list[str] | None = None, stdin: list[str] | None = None) -> str:
    """Run ``data-encoding argv``, print its command line (``shown`` in place
    of ``argv``, if given; ``stdin``'s lines piped in) and its output, cut
    to size; the full output."""
    pipe = f"printf '%s\\n' {' '.join(stdin)} | " if stdin is not None else ""
    print(f"$ {pipe}data-encoding {' '.join(shown or map(shlex.quote, argv))}")
    out = io.StringIO()
    saved = sys.stdin
    lines = "".join(f"{line}\n" for line in stdin or ())
    sys.stdin = io.TextIOWrapper(io.BytesIO(lines.encode()), encoding="utf-8")
    try:
        with redirect_stdout(out), redirect_stderr(out):  # in the order a terminal shows them
            status = cli(argv)
    finally:
        sys.stdin = saved
    printed = out.getvalue().splitlines()
    for line in printed[:LINES]:
        print(line if len(line) <= WIDTH else line[: WIDTH - 5] + "[...]")
    if len(printed) > LINES:
        print(f"[... {len(printed) - LINES} more lines]")
    if status:
        print(f"(exit status {status})")
    print()
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = Path(args[0]).read_text() if args else SAMPLE
    print("A tour of the data-encoding command (data-encoding --help for more).\n")
    run(["list", "admin.daemon"])
    data = run(["encode", "admin.daemon_status", text]).strip()
    run(["decode", "admin.daemon_status", data])
    run(["slice", "admin.daemon_status", data])

    corrupt = data[:8] + "07" + data[10:]  # the process state's tag, after the 4-byte id
    run(["decode", "admin.daemon_status", corrupt])
    run(["slice", "admin.daemon_status", corrupt])
    run(["decode", "admin.daemon_stats", data])

    checkpoint = str(registry.find("chain.checkpoint").samples["valid"][0]["hex"])
    shown = f"<its sample's hex: {len(checkpoint) // 2} bytes>"
    run(["slice", "chain.checkpoint", checkpoint], ["slice", "chain.checkpoint", shown])
    run(["describe", "chain.history_mode"])

    print("# batch mode: one hex string per line of stdin, one JSON per line")
    statuses = ["000000030000001092", "0000000300", "00000004010000000700"]
    run(["decode", "admin.daemon_status", "--lines", "--keep-going"], stdin=statuses)
    run(["describe-rpc", "/chains/main/checkpoint", "--binary"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
