"""The package as users install it: a wheel built from the project's own files.

The wheel must carry everything the library reads at run time (the typing
marker and the catalogue's samples), and an installation from it alone, in a
fresh virtual environment, must find every id's samples.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from data_encoding.node import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of the project, built from a copy (the build writes beside its sources)."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "encodings",
        source / "encodings",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            str(work / "dist"),
            str(source),
        ],
        check=True,
    )
    (built,) = (work / "dist").glob("data_encoding-*.whl")
    return built


def test_the_wheel_carries_the_samples_and_the_typing_marker(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    samples = {n for n in names if n.startswith("data_encoding/node/catalogue/samples/")}
    assert samples == {f"data_encoding/node/catalogue/samples/{id}.json" for id in registry.ids()}
    assert "data_encoding/py.typed" in names


def test_an_installed_wheel_finds_every_ids_samples_and_runs_the_command(
    wheel: Path, tmp_path: Path
) -> None:
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", wheel],
        check=True,
    )
    script = (
        "from data_encoding.node import registry\n"
        "import data_encoding, importlib.metadata as m\n"
        "print(data_encoding.__file__)\n"
        "print(sum(len(registry.find(i).samples['valid']) for i in registry.ids()))\n"
        "print(data_encoding.__version__)\n"
        "for url in m.metadata('data-encoding').get_all('Project-URL'):\n"
        "    print(url)\n"
    )
    out = subprocess.run(
        [python, "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path
    ).stdout.splitlines()
    assert out[0].startswith(str(tmp_path / "env"))  # the installed copy, not the project's
    assert int(out[1]) == sum(len(registry.find(i).samples["valid"]) for i in registry.ids())
    # its version and project URLs, from the wheel's metadata
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert list(declared["urls"]) == ["Repository", "Documentation", "Issues"]
    assert out[2:] == [
        declared["version"],
        *(f"{label}, {url}" for label, url in declared["urls"].items()),
    ]
    # the console script, without Hypothesis (not a dependency): sample says so
    command = tmp_path / "env" / "bin" / "data-encoding"
    done = subprocess.run(
        [command, "decode", "admin.daemon_status", "000000030000001092"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        '{"id":3,"pid":4242,"state":"running"}\n',
        "",
    )
    done = subprocess.run([command, "--version"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, f"data-encoding {declared['version']}\n")
    done = subprocess.run([command, "sample", "int64"], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (
        2,
        "",
        "error: sample needs Hypothesis, which is not installed: "
        "pip install 'data-encoding[hypothesis]'\n",
    )
