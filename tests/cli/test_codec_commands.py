"""What the node toolchain's codec does over every encoding at once, as our
commands do it: ``slice --any`` (its ``slice_all``: the ids that read bytes
exactly) and ``dump`` (its ``dump encodings``: every id's schemas in one
JSON document)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_runner import Run
from data_encoding import binary_schema, binary_schema_v1
from data_encoding.jsonvalue import JsonValue, dumps
from data_encoding.node import registry
from data_encoding.node.protocols import PROTOCOLS
from data_encoding.passes.schema import Dialect
from golden import codec_vectors


def _codec_hex(name: str) -> str:
    """The hex of the node toolchain's codec regression vector ``name`` (its first)."""
    return str(codec_vectors(name)[0]["hex"])


# ------------------------------------------------------------ slice --any


def test_slice_any_finds_the_ids_that_read_a_real_block_header(run: Run) -> None:
    """The shell's header, each protocol's (the same encoding for 004-007),
    its raw form (the shell's), and an operation as the shell sees it (a
    branch, then any bytes)."""
    header = _codec_hex("007-PsDELPH1.block_header")
    r = run("slice", "--any", header)
    assert (r.status, r.err) == (0, "")
    names = ("block_header", "block_header.raw", "operation.raw")
    ids = [*sorted(p.id(name) for p in PROTOCOLS for name in names), "shell.block_header"]
    assert r.text == "\n".join(f"{id}\n" + run("slice", id, header).text for id in ids)


def test_slice_any_lists_every_id_that_reads_the_bytes_exactly(run: Run) -> None:
    fitness = _codec_hex("007-PsDELPH1.fitness")  # a real fitness: 21 bytes
    r = run("slice", "--any", fitness)
    assert (r.status, r.err) == (0, "")
    ids = ["fitness", *sorted(p.id("fitness") for p in PROTOCOLS)]
    ids += ["signature.public_key_hash", "unistring"]
    assert r.text == "\n".join(f"{id}\n" + run("slice", id, fitness).text for id in ids)
    assert r.text.startswith(
        "fitness\n"
        "bytes   size  path  what                  value               hex\n"
        "0..4       4  $     size header (Uint30)  17 bytes            00000011\n"
    )
    assert "\n\nsignature.public_key_hash\n" in r.text
    # the bytes themselves, from stdin
    raw = run("slice", "--any", "--raw", stdin=bytes.fromhex(fitness))
    assert (raw.status, raw.text) == (0, r.text)


def test_slice_any_of_bytes_no_id_reads(run: Run) -> None:
    r = run("slice", "--any", "ffffffffff")
    assert (r.status, r.out, r.err) == (1, b"", "error: no id reads these 5 bytes exactly\n")
    r = run("slice", "--any", "zz")
    assert (r.status, r.err) == (
        1,
        "error: invalid_hex at $: the argument is not hexadecimal: 'z' at byte 0\n",
    )


def test_slice_takes_an_id_or_any(run: Run) -> None:
    r = run("slice", "--any", "block_hash", "00")
    assert (r.status, r.out, r.err) == (
        2,
        b"",
        "error: slice --any tries every id: give it no ID (slice --any [INPUT])\n",
    )
    r = run("slice")
    assert (r.status, r.err) == (2, "error: slice needs an ID, or --any to try every id\n")


# ------------------------------------------------------------------- dump


def _schemas(dialect: Dialect = "legacy") -> JsonValue:
    """Every id's schemas, as the library gives them."""
    language = binary_schema if dialect == "legacy" else binary_schema_v1
    return [
        {
            "id": e.id,
            "json": e.encoding.json_schema(dialect),
            "binary": language.to_json(e.encoding.describe(dialect)),
        }
        for e in registry.entries()
    ]


def test_dump_writes_every_ids_schemas_in_one_document(run: Run) -> None:
    r = run("dump")
    assert (r.status, r.err) == (0, "")
    assert r.text == dumps(_schemas()) + "\n"  # piped: one line
    assert [entry["id"] for entry in json.loads(r.text)] == registry.ids()
    modern = run("dump", "--dialect", "modern")
    assert modern.text == dumps(_schemas("1.0")) + "\n"
    assert modern.text != r.text


def test_dump_to_a_file_is_indented_unless_compact(run: Run, tmp_path: Path) -> None:
    target = tmp_path / "schemas.json"
    r = run("dump", str(target))
    assert (r.status, r.out, r.err) == (0, b"", "")
    assert target.read_text(encoding="utf-8") == dumps(_schemas(), indent=2) + "\n"
    r = run("dump", str(target), "--compact")
    assert target.read_text(encoding="utf-8") == dumps(_schemas()) + "\n"


def test_dump_to_a_file_that_cannot_be_made(run: Run, tmp_path: Path) -> None:
    r = run("dump", f"{tmp_path}/no/such/folder/schemas.json")
    assert (r.status, r.out, r.err) == (
        2,
        b"",
        f"error: cannot write '{tmp_path}/no/such/folder/schemas.json': "
        "No such file or directory\n",
    )
