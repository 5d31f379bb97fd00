"""What the command's tests share: the fixture :func:`run` (a plugin of
``tests/conftest.py``), which drives ``main(argv)`` in this process with a
given stdin and captures what it writes."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from data_encoding.cli import main


@dataclass
class Result:
    status: int
    out: bytes
    err: str

    @property
    def text(self) -> str:
        return self.out.decode()


Run = Callable[..., Result]


@pytest.fixture
def run(monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]) -> Run:
    """``run(*argv, stdin=b"")``: the exit status, stdout's bytes and stderr's text."""

    def go(*argv: str, stdin: bytes | str = b"") -> Result:
        raw = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
        status = main(list(argv))
        captured = capsysbinary.readouterr()
        return Result(status, captured.out, captured.err.decode())

    return go
