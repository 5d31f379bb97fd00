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


def test_results_come_before_the_errors_that_follow_them_in_one_stream() -> None:
    """stdout is flushed before an error is written, so that where the two meet
    (a terminal, ``2>&1``) they read in the order they were made, buffered or not."""
    r = _shell("data-encoding slice admin.daemon_status 0000000301000010920000 2>&1")
    assert (r.status, r.out.decode()) == (
        1,
        "bytes   size  path     what                value       hex\n"
        "0..4       4  $.id     int31               3           00000003\n"
        "4..5       1  $        tag                 1 (exited)  01\n"
        "5..9       4  $.pid    int31               4242        00001092\n"
        "9..9       0  $.state  constant('exited')  \"exited\"\n"
        "9..10      1  $.code   presence byte       absent      00\n"
        "10..11     1  $        not read                        00\n"
        "error: extra_bytes at $ (byte 10): extra bytes: the value ends at byte 10 of 11\n",
    )
    r = _shell(
        "printf '%s\\n' 0000000000000001 zz 0000000000000002 "
        "| data-encoding decode int64 --lines --keep-going 2>&1"
    )
    assert (r.status, r.out.decode()) == (
        1,
        '"1"\n'
        "\n"
        "error: line 2: invalid_hex at $: the line is not hexadecimal: 'z' at byte 0\n"
        '"2"\n'
        "error: 1 of 3 lines failed (lines 2)\n",
    )
