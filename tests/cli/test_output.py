"""How the command writes: UTF-8 on stdout whatever the locale or
``PYTHONIOENCODING``, and output it cannot write (a full disk, a closed
stdout) reported in one ``error:`` line with an exit status of its own, in
every command and mode, never a traceback. Run as the real command, in a
subprocess: the failures are those of the process's own stdout."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import Result

FULL = "error: cannot write the output: No space left on device\n"


SCRIPTS = Path(sys.executable).parent


def _shell(line: str, buffered: bool = True, **env: str) -> Result:
    """``line`` run by ``sh`` with the installed ``data-encoding`` first on its
    ``PATH`` and ``env`` added to the environment; Python's stdout buffered
    (as it is by default), or not (``PYTHONUNBUFFERED``)."""
    path = f"{SCRIPTS}{os.pathsep}{os.environ['PATH']}"
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        environment["PYTHONUNBUFFERED"] = "1"
    done = subprocess.run(
        ["sh", "-c", line],
        capture_output=True,
        env={**environment, "PATH": path, **env},
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr.decode("utf-8"))


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize(
    "command",
    [
        "data-encoding list",  # a little: buffered, it fails when stdout is flushed at exit
        "data-encoding describe-rpc --recurse",  # much: it fails while writing
        "data-encoding encode int64 '\"1\"' --raw",  # bytes
        "data-encoding --help",  # argparse's own
        "yes 0000000000000001 | head -n 5000 | data-encoding decode int64 --lines",  # streamed
        "data-encoding list --json",
    ],
)
def test_a_full_disk_is_one_error_line_and_status_3(command: str, buffered: bool) -> None:
    r = _shell(f"{command} > /dev/full", buffered)
    assert (r.status, r.out, r.err) == (3, b"", FULL)


def test_a_full_disk_under_a_file_the_command_writes_is_status_3_too() -> None:
    r = _shell("data-encoding dump /dev/full")
    assert (r.status, r.out, r.err) == (
        3,
        b"",
        "error: cannot write '/dev/full': No space left on device\n",
    )


def test_a_closed_stdout_is_one_error_line_and_status_3() -> None:
    r = _shell("data-encoding list int64 >&-")
    assert (r.status, r.err) == (3, "error: cannot write the output: stdout is closed\n")


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    r = _shell("data-encoding describe-rpc --recurse | head -c 10")
    assert (r.status, r.out, r.err) == (0, b'{"static":', "")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_output_is_utf8_whatever_the_stream_encoding(encoding: str) -> None:
    r = _shell("data-encoding decode unistring 00000004e282ac21", PYTHONIOENCODING=encoding)
    assert (r.status, r.out, r.err) == (0, '"€!"\n'.encode(), "")
    r = _shell("data-encoding decode int64 0€", PYTHONIOENCODING=encoding)
    assert (r.status, r.out, r.err) == (
        1,
        b"",
        "error: invalid_hex at $: the argument is not hexadecimal: '€' at byte 1\n",
    )
