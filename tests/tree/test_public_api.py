"""The public surface of an encoding stays small: the entry points and the
descriptions; everything the passes use among themselves is private."""

from __future__ import annotations

import data_encoding as de


def test_an_encoding_has_only_its_entry_points_and_descriptions() -> None:
    public = sorted(n for n in dir(de.Encoding) if not n.startswith("_"))
    assert public == [
        "bytes_to_json",
        "decode",
        "decode_json",
        "decode_prefix",
        "describe",
        "encode",
        "encode_json",
        "fixed_length",
        "from_json",
        "json_schema",
        "json_to_bytes",
        "length",
        "nullable",
        "strategy",
        "table",
        "to_json",
    ]
    assert de.uint8.size == de.Fixed(1)  # and its size class, an attribute


def test_no_subclass_adds_a_public_method() -> None:
    """Node types add their parameters (``inner``, ``keys``...), not hooks."""
    found: dict[str, set[str]] = {}

    def walk(cls: type[object]) -> None:
        sub: type[object]
        for sub in cls.__subclasses__():
            methods = {n for n, v in vars(sub).items() if not n.startswith("_") and callable(v)}
            if methods:
                found[sub.__name__] = methods
            walk(sub)

    walk(de.Encoding)
    assert found == {}


def test_the_version_is_the_projects_one_source_of_truth() -> None:
    """``__version__`` is the installed package's metadata, which is pyproject's ``version``."""
    import tomllib
    from importlib.metadata import version
    from pathlib import Path

    project = Path(__file__).resolve().parents[2] / "pyproject.toml"
    declared = tomllib.loads(project.read_text())["project"]["version"]
    assert de.__version__ == version("data-encoding") == declared
