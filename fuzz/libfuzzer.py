"""One libFuzzer run of the target over one id, and what its output says.

libFuzzer reports on stderr: a status line per event (``#70960 DONE cov:
1898 ft: 2284 corp: 287/20Kb ...``) and, with ``-print_final_stats=1``, a
last block of ``stat::name: value`` lines, written whether the run ends on
time or on a finding. A finding is a file libFuzzer writes under
``-artifact_prefix``: ``crash-<sha1>`` (an exception left the target),
``timeout-<sha1>`` (one input ran past ``-timeout``), ``oom-<sha1>`` (the
process went past ``-rss_limit_mb``).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

FINDING_PREFIXES = ("crash-", "timeout-", "oom-", "leak-", "slow-unit-")

LOG_NAME = "libfuzzer.log"
"""The run's whole output, kept in the id's findings folder (it is no input)."""

_STAT = re.compile(r"^stat::(\w+):\s*(\d+)\s*$", re.MULTILINE)
_STATUS = re.compile(r"^#\d+\s+\w+\s+cov: (\d+) ft: (\d+)", re.MULTILINE)


@dataclass(frozen=True)
class Stats:
    """What a run's output says (``None``: not in the output)."""

    executions: int | None
    exec_per_sec: int | None
    new_units: int | None
    peak_rss_mb: int | None
    #: coverage counters and features hit, from the last status line
    cov: int | None
    ft: int | None


def parse(output: str) -> Stats:
    """The figures of a libFuzzer run's output."""
    stats = {name: int(value) for name, value in _STAT.findall(output)}
    status = _STATUS.findall(output)
    cov, ft = (int(status[-1][0]), int(status[-1][1])) if status else (None, None)
    return Stats(
        executions=stats.get("number_of_executed_units"),
        exec_per_sec=stats.get("average_exec_per_sec"),
        new_units=stats.get("new_units_added"),
        peak_rss_mb=stats.get("peak_rss_mb"),
        cov=cov,
        ft=ft,
    )


@dataclass(frozen=True)
class Limits:
    """libFuzzer's flags for one run."""

    seconds: int
    #: seconds one input may take before it is a ``timeout-`` finding
    timeout: int
    rss_limit_mb: int
    #: libFuzzer's random seed (``None``: its own choice)
    seed: int | None


@dataclass(frozen=True)
class Run:
    """One id's run: its figures, its new findings and its exit status."""

    id: str
    stats: Stats
    findings: list[Path]
    returncode: int
    log: Path

    @property
    def failed(self) -> bool:
        """A finding, or a run that did not end as a campaign ends (it
        stopped before fuzzing, or libFuzzer gave no final statistics)."""
        return bool(self.findings) or self.returncode != 0 or self.stats.executions is None


def _findings(folder: Path) -> dict[Path, int]:
    return {
        path: path.stat().st_mtime_ns
        for path in folder.iterdir()
        if path.name.startswith(FINDING_PREFIXES)
    }


def command(target: Path, corpus: Path, findings: Path, limits: Limits) -> list[str]:
    """The target's command line for one run (the id goes in the environment)."""
    argv = [
        sys.executable,
        str(target),
        str(corpus),
        f"-max_total_time={limits.seconds}",
        f"-artifact_prefix={findings}{os.sep}",
        f"-timeout={limits.timeout}",
        f"-rss_limit_mb={limits.rss_limit_mb}",
        "-print_final_stats=1",
    ]
    if limits.seed is not None:
        argv.append(f"-seed={limits.seed}")
    return argv


def reproduce(target: Path, id: str, finding: Path, variable: str) -> str:
    """The shell command that runs the property on one finding again."""
    return f"{variable}={shlex.quote(id)} {shlex.join([sys.executable, str(target), str(finding)])}"


def run(target: Path, id: str, corpus: Path, findings: Path, limits: Limits, variable: str) -> Run:
    """Fuzz ``id`` for ``limits.seconds``, growing ``corpus``; new findings go
    to ``findings``, with the run's output (:data:`LOG_NAME`).

    Findings are the files written during this run, new or rewritten (the
    same input found again keeps its name): those of earlier runs stay in the
    folder but are not this run's."""
    findings.mkdir(parents=True, exist_ok=True)
    before = _findings(findings)
    log = findings / LOG_NAME
    env = {**os.environ, variable: id}
    # the time to import and instrument the library comes before libFuzzer's
    # clock starts; a hung process is stopped well after both
    budget = limits.seconds + limits.timeout + 300
    with log.open("wb") as out:
        try:
            done = subprocess.run(
                command(target, corpus, findings, limits),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                timeout=budget,
                check=False,
            )
            returncode = done.returncode
        except subprocess.TimeoutExpired:
            returncode = -1
    after = _findings(findings)
    new = sorted(path for path, mtime in after.items() if before.get(path) != mtime)
    output = log.read_text(encoding="utf-8", errors="replace")
    return Run(id, parse(output), new, returncode, log)


def reason(log: Path, finding: Path) -> str:
    """One line saying why ``finding`` is one, from the run's output: the
    exception that left the target, else libFuzzer's error line."""
    lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    for i, line in enumerate(lines):
        if "Uncaught Python exception" in line and i + 1 < len(lines):
            return lines[i + 1].strip()
    for line in lines:
        if "ERROR: libFuzzer:" in line:
            return line.split("ERROR: ", 1)[1].strip()
    return finding.name.split("-", 1)[0]
