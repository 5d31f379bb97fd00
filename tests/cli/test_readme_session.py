"""The README's command-line session is true: each command, run by the
installed ``data-encoding`` script in a shell, prints exactly what the README
shows (stdout and stderr as one stream, as a terminal shows them).

``sample``'s values depend on Hypothesis' version: for it, the count is
checked, and that every line is a valid value whose JSON and hex agree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from data_encoding.node import registry

README = Path(__file__).resolve().parents[2] / "README.md"
SCRIPTS = Path(sys.executable).parent


def _session() -> list[tuple[str, list[str]]]:
    """The commands of the README's piped session, each with its output lines."""
    text = README.read_text(encoding="utf-8")
    block = text.split("A session (piped", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            steps[-1][1].append(line)
    return steps


SESSION = _session()


def test_the_session_is_found() -> None:
    assert len(SESSION) == 16
    assert SESSION[0][0] == "data-encoding list admin.daemon"


def test_the_session_prints_what_the_readme_shows() -> None:
    env = dict(os.environ, PATH=f"{SCRIPTS}{os.pathsep}{os.environ['PATH']}")
    status = 0
    for command, expected in SESSION:
        if command == "echo $?":
            assert [str(status)] == expected, "the exit status before it"
            continue
        run = subprocess.run(
            ["bash", "-c", command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=README.parent,  # the session's files are the repository's
            check=False,
        )
        status = run.returncode
        lines = run.stdout.splitlines()
        if command.startswith("data-encoding sample "):
            _check_samples(command, lines, expected)
        else:
            assert lines == expected, command


def _check_samples(command: str, lines: list[str], shown: list[str]) -> None:
    words = command.split()
    e = registry.find(words[2]).encoding
    assert len(lines) == len(shown) == int(words[words.index("--count") + 1])
    for line in [*lines, *shown]:
        value = json.loads(line)
        assert value.keys() == {"json", "hex"}
        assert e.encode(e.from_json(value["json"])).hex() == value["hex"]
