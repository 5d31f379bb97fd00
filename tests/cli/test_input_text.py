"""How the command reads its input: bytes from every source, whatever the
locale; text decoded strictly (UTF-8, no byte-order mark), with one error for
input that is not such text, in every mode; hex parsed in memory bounded by a
small multiple of the input, failing at the first bad character."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_runner import Result, Run

NOT_UTF8_STDIN = (
    "error: invalid_utf8 at $: standard input is not UTF-8 text: byte 0 is 0xff; "
    "for bytes, use --raw\n"
)

# ---------------------------------------------------------------- locales

LOCALES = ["C", "C.UTF-8", "en_US.UTF-8", "POSIX"]

_SAME_AS = {"POSIX": "C"}
"""The locales ``setlocale`` names otherwise."""

_LOCALE_VARIABLES = ("LANG", "LANGUAGE", "LOCPATH", "PYTHONIOENCODING", "PYTHONUTF8")


def _environment(name: str, locpath: Path | None = None) -> dict[str, str]:
    """This process's environment with ``LC_ALL=name`` and nothing else that
    chooses a locale or Python's text encodings."""
    chosen = [k for k in os.environ if k.startswith("LC_") or k in _LOCALE_VARIABLES]
    env = {k: v for k, v in os.environ.items() if k not in chosen}
    env["LC_ALL"] = name
    if locpath is not None:
        env["LOCPATH"] = str(locpath)
    return env


def _locale_in_effect(env: dict[str, str]) -> str:
    """The ``LC_CTYPE`` a Python started with ``env`` runs under ('' if it cannot set it)."""
    code = (
        "import locale\n"
        "try:\n"
        "    print(locale.setlocale(locale.LC_CTYPE, ''))\n"
        "except locale.Error:\n"
        "    print()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture(scope="module")
def locale_env(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, str]]:
    """The environment of each locale of :data:`LOCALES`. ``en_US.UTF-8`` is
    often not installed (as in slim containers): it is then built into a
    temporary ``LOCPATH`` with ``localedef``, and the test skips only where
    that cannot be done."""

    def env_of(name: str) -> dict[str, str]:
        env = _environment(name)
        if name != "en_US.UTF-8" or _locale_in_effect(env) == name:
            return env
        locpath = tmp_path_factory.mktemp("locales")
        try:
            built = subprocess.run(
                ["localedef", "-i", "en_US", "-f", "UTF-8", str(locpath / name)],
                capture_output=True,
                text=True,
                check=False,
            )
        except FileNotFoundError:
            pytest.skip("en_US.UTF-8 is not installed here, and there is no localedef to build it")
        env = _environment(name, locpath)
        if _locale_in_effect(env) != name:
            pytest.skip(
                f"en_US.UTF-8 is not installed here, and localedef could not build it: "
                f"{built.stderr.strip()}"
            )
        return env

    return env_of


def _command(env: dict[str, str], *argv: str | bytes, stdin: bytes = b"") -> Result:
    done = subprocess.run(
        [sys.executable, "-m", "data_encoding", *argv],
        input=stdin,
        capture_output=True,
        env=env,
        check=False,
    )
    return Result(done.returncode, done.stdout, done.stderr.decode("utf-8"))


@pytest.mark.parametrize("name", LOCALES)
def test_the_command_reads_and_writes_alike_in_every_locale(
    locale_env: Callable[[str], dict[str, str]], name: str
) -> None:
    env = locale_env(name)
    assert _locale_in_effect(env) == _SAME_AS.get(name, name)
    # bytes that are not UTF-8 on stdin (under en_US.UTF-8 this was a traceback)
    r = _command(env, "decode", "shell.block_header", stdin=b"\xff\xfe00")
    assert (r.status, r.out, r.err) == (1, b"", NOT_UTF8_STDIN)
    # text that is UTF-8, from an argument and from stdin, and out
    r = _command(env, "encode", "unistring", '"é"')
    assert (r.status, r.out, r.err) == (0, b"00000002c3a9\n", "")
    r = _command(env, "encode", "unistring", stdin='"é"'.encode())
    assert (r.status, r.out, r.err) == (0, b"00000002c3a9\n", "")
    r = _command(env, "decode", "unistring", "00000002c3a9")
    assert (r.status, r.out, r.err) == (0, '"é"\n'.encode(), "")
    # an argument that is not UTF-8 (the bytes the shell gave), and one that is
    r = _command(env, "decode", "int64", b"0\xff")
    assert (r.status, r.out, r.err) == (
        1,
        b"",
        "error: invalid_utf8 at $: the argument is not UTF-8 text: byte 1 is 0xff\n",
    )
    r = _command(env, "decode", "int64", "00é")
    assert (r.status, r.err) == (
        1,
        "error: invalid_hex at $: the argument is not hexadecimal: 'é' at byte 2\n",
    )


# ------------------------------------------------- one error, every source


def test_input_that_is_not_utf8_is_one_error_from_every_source(run: Run, tmp_path: Path) -> None:
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\xff\x00")
    r = run("decode", "int64", stdin=b"\xff\x00")
    assert (r.status, r.out, r.err) == (1, b"", NOT_UTF8_STDIN)
    r = run("slice", "int64", f"@{binary}")
    assert (r.status, r.out, r.err) == (
        1,
        b"",
        f"error: invalid_utf8 at $: '{binary}' is not UTF-8 text: byte 0 is 0xff; "
        "for bytes, use --raw\n",
    )
    # in batch mode, the line (--lines cannot take --raw: no hint)
    r = run("decode", "int64", "--lines", "--keep-going", stdin=b"0000000000000001\n00\xc3\n")
    assert r.status == 1
    assert r.err == (
        "error: line 2: invalid_utf8 at $: the line is not UTF-8 text: byte 2 is 0xc3\n"
        "error: 1 of 2 lines failed (lines 2)\n"
    )
    # JSON text: encode reads text whatever --raw (which is about its output) says
    for raw in ([], ["--raw"]):
        r = run("encode", "int64", f"@{binary}", *raw)
        assert (r.status, r.out, r.err) == (
            1,
            b"",
            f"error: invalid_utf8 at $: '{binary}' is not UTF-8 text: byte 0 is 0xff\n",
        )
    r = run("encode", "unistring", stdin=b'"\xed\xa0\x80"')  # an encoded surrogate
    assert r.err == "error: invalid_utf8 at $: standard input is not UTF-8 text: byte 1 is 0xed\n"


def test_a_byte_order_mark_is_refused_with_its_own_message(run: Run, tmp_path: Path) -> None:
    bom = b"\xef\xbb\xbf"
    (tmp_path / "v.json").write_bytes(bom + b'"1"')
    r = run("encode", "int64", f"@{tmp_path}/v.json")
    assert (r.status, r.out, r.err) == (
        1,
        b"",
        f"error: invalid_utf8 at $: '{tmp_path}/v.json' starts with a byte-order mark "
        "(ef bb bf): remove it\n",
    )
    r = run("decode", "int64", stdin=bom + b"0000000000000001")
    assert r.err == (
        "error: invalid_utf8 at $: standard input starts with a byte-order mark (ef bb bf): "
        "remove it\n"
    )
    # not at the start, it is a character like any other
    r = run("decode", "int64", stdin=b"00" + bom)
    assert r.err == (
        "error: invalid_hex at $: standard input is not hexadecimal: '\\ufeff' at byte 2\n"
    )


def test_hex_fails_at_the_first_bad_character(run: Run) -> None:
    r = run("decode", "int64", "00 0g 0\xff")
    assert (r.status, r.err) == (
        1,
        "error: invalid_hex at $: the argument is not hexadecimal: 'g' at byte 4\n",
    )
    r = run("decode", "int64", stdin=b" 0x00 0\n0 \xff 0g")
    assert r.err == (
        "error: invalid_utf8 at $: standard input is not UTF-8 text: byte 10 is 0xff; "
        "for bytes, use --raw\n"
    )
    r = run("decode", "int64", "0x0x00")  # one 0x only
    assert r.err == "error: invalid_hex at $: the argument is not hexadecimal: 'x' at byte 3\n"
    r = run("decode", "int64", "000")
    assert r.err == "error: invalid_hex at $: the argument has an odd number of hex digits (3)\n"
    r = run("decode", "int64", "0 x 0000 0000 0000 0001")  # the 0x is one word
    assert r.err == "error: invalid_hex at $: the argument is not hexadecimal: 'x' at byte 2\n"
    r = run("decode", "int64", " 0X0000 0000 0000 0001\n")
    assert (r.status, r.text) == (0, '"1"\n')


def test_raw_does_not_take_hex_for_a_file_name(run: Run) -> None:
    r = run("decode", "admin.daemon_status", "--raw", "000000030000001092")
    assert (r.status, r.out, r.err) == (
        2,
        b"",
        "error: cannot read '000000030000001092': No such file or directory "
        "(with --raw, INPUT is a file or -, not the data itself)\n",
    )
    r = run("decode", "shell.block_header", "--raw", "00" * 200)
    assert r.err == (
        "error: cannot read '0000000000000000000000000000000000000...': File name too long "
        "(with --raw, INPUT is a file or -, not the data itself)\n"
    )


# ----------------------------------------------------------------- memory


def _peak(call: Callable[[], object]) -> int:
    """The most memory Python held at once, above what it held before, during ``call()``."""
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


MB = 1 << 20


def test_hex_of_a_big_file_is_read_in_about_twice_its_size(run: Run, tmp_path: Path) -> None:
    """9 MB of ``0x00 00 ...``: the file, its digits and their bytes (it took 27 times
    the input when the whitespace was stripped by a regular expression on text)."""
    source = tmp_path / "big.hex"
    source.write_bytes(b"0x" + b"00 " * (3 * MB))
    size = source.stat().st_size
    result: list[Result] = []
    peak = _peak(lambda: result.append(run("decode", "int64", f"@{source}")))
    assert (result[0].status, result[0].err) == (
        1,
        f"error: extra_bytes at $ (byte 8): extra bytes: the value ends at byte 8 of {3 * MB}\n",
    )
    assert peak < 2.5 * size, peak / size


def test_bytes_piped_without_raw_fail_at_once_in_bounded_memory(run: Run) -> None:
    """8 MB of bytes on stdin, the first not UTF-8: the error says so at once,
    and the input is never widened to text (it was read as text: a traceback
    under a strict locale, else four bytes a character before the error)."""
    data = bytes(range(255, -1, -1)) * (32 * 1024)
    result: list[Result] = []
    peak = _peak(lambda: result.append(run("decode", "int64", stdin=data)))
    assert (result[0].status, result[0].err) == (1, NOT_UTF8_STDIN)
    assert peak < 2.5 * len(data), peak / len(data)
