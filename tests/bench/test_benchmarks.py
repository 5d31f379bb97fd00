"""The benchmark suite runs (``--quick``): every row checks that the
implementations agree before timing them. No time is asserted here: speed
targets live in ``benchmarks/README.md``, measured by ``make bench``."""

from __future__ import annotations

import gc
import hashlib
import importlib
import importlib.util
import json
import os
import re
import sys
import threading
from functools import partial
from types import SimpleNamespace
from typing import Any

import protocol_rows
import pytest
import pytezos_codecs
import run
import scaling
from handwritten import micheline_codec
from protocol_workloads import (
    CONTRACTS,
    DATA,
    DELPHI,
    VECTORS,
    batch_headers,
    batch_operations,
    micheline_sets,
    operation_groups,
)
from timing import Row

import data_encoding as de
from data_encoding.node.protocols import delphi


def test_quick_benchmark_run_checks_and_reports_every_row(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # what the suite left on the heap is not the benchmark's: frozen, the
    # collector does not walk it at every collection of the timing loops
    gc.collect()
    gc.freeze()
    # the protocol rows compile recursive encodings (Micheline), which raise
    # the recursion limit once for the process to fit the depth limit, as
    # set_max_depth does: raised first, what is compared is the deep series'
    de.set_max_depth(de.max_depth())
    limits = de.max_depth(), sys.getrecursionlimit(), threading.stack_size()
    try:
        rows = run.main(["--quick"])
    finally:
        gc.unfreeze()
    # the deep series raised all three for its own threads only
    assert (de.max_depth(), sys.getrecursionlimit(), threading.stack_size()) == limits
    out = capsys.readouterr().out
    assert_deep_rows(out)
    assert_refusal_rows(out)
    peers = ["hand-written"]
    if importlib.util.find_spec("construct") is not None:
        peers += ["construct", "construct (compiled)"]
    pytezos = ["pytezos"] if importlib.util.find_spec("pytezos") is not None else []
    json_peer = "hand-written + " + ("orjson" if importlib.util.find_spec("orjson") else "json")
    binary = [
        (f"{name}: {op}", subject, peer)
        for name in ("block_header", "zarith_z", "records")
        for op in ("encode", "decode")
        for subject in ("ours", "hand-written")  # the ceiling: hand-written against the peers
        for peer in peers + (pytezos if name == "zarith_z" else [])
        if peer != subject
    ]
    assert [(r.task, r.subject, r.other) for r in rows if not r.task.startswith("operation ")] == (
        binary
        + [("block_header: node json->bytes", "ours", peer) for peer in pytezos]
        + [
            (f"{name}: {op}", "ours", json_peer)
            for name in ("block_header", "records")
            for op in ("json->bytes", "bytes->json")
        ]
        + expected_micheline_rows(bool(pytezos))
    )
    assert_forging_rows([r for r in rows if r.task.startswith("operation ")], bool(pytezos))
    assert all(len(r.ratios) == 3 and all(x > 0 for x in r.ratios) for r in rows)
    assert_batch_rows(out)


MICHELINE_SETS = (
    "19 catalogue samples (188 B)",
    "scrutable_reservoir.tz (722 B)",
    "forward.tz (1,747 B)",
    "fa12_reference.tz (4,569 B)",
)
"""The Micheline rows' sets of expressions, with their size in binary."""


def expected_micheline_rows(pytezos: bool) -> list[tuple[str, str, str]]:
    """(task, subject, other) of the Micheline rows: for each set, ``parse``
    and ``encode`` against the hand-written codec and pytezos, and the
    ceiling (hand-written against pytezos); then ``json->bytes`` and
    ``bytes->json`` against pytezos. Without pytezos, the hand-written rows alone."""
    against = [("ours", "hand-written")]
    if pytezos:
        against += [("ours", "pytezos"), ("hand-written", "pytezos")]
    rows = []
    for name in MICHELINE_SETS:
        rows += [
            (f"micheline {name}: {op}", *pair) for op in ("parse", "encode") for pair in against
        ]
        if pytezos:
            rows += [
                (f"micheline {name}: {op}", "ours", "pytezos")
                for op in ("json->bytes", "bytes->json")
            ]
    return rows


DELPHI_KINDS = {
    "activate_account",
    "ballot",
    "delegation",
    "double_baking_evidence",
    "double_endorsement_evidence",
    "endorsement",
    "origination",
    "proposals",
    "reveal",
    "seed_nonce_revelation",
    "transaction",
}
"""Every kind of contents of protocol 007's operations."""

FORGING_TASK = re.compile(r"operation ([a-z_+]+) \((\d+) groups\): (json->bytes|encode)")


def assert_forging_rows(rows: list[Row], pytezos: bool) -> None:
    """The quick run's forging rows, which depend on what the installed
    pytezos forges (``test_forging_times_only_...`` pins the selection): a
    ``json->bytes`` and an ``encode`` row against pytezos per kind of
    contents, then ``mixed``, which has the groups of all of them."""
    if not pytezos:
        assert rows == []
        return
    tasks = [FORGING_TASK.fullmatch(r.task) for r in rows]
    assert all(t is not None for t in tasks) and {(r.subject, r.other) for r in rows} == {
        ("ours", "pytezos")
    }
    found = [(t[1], int(t[2]), t[3]) for t in tasks if t is not None]
    assert [op for _, _, op in found] == ["json->bytes", "encode"] * (len(found) // 2)
    kinds = found[::2]
    assert found[1::2] == [(k, n, "encode") for k, n, _ in kinds]
    *each_kind, (mixed, everything, _) = kinds
    assert mixed == "mixed" and everything == sum(n for _, n, _ in each_kind)
    assert {part for k, _, _ in each_kind for part in k.split("+")} <= DELPHI_KINDS


def assert_batch_rows(out: str) -> None:
    """The batch table of the quick run: its four runs of 2 000 operations
    (the pool with a worker per core), times and rates positive, a peak
    for the first only; the scaling factor; the input, every kind of
    contents of protocol 007 in it."""
    rows = [cells(line) for line in out.splitlines() if line.startswith(("| one ", "| Process"))]
    workers = os.cpu_count()
    assert [r[:2] for r in rows] == [
        ["one process, values kept", "2,000"],
        ["one process, values kept, collector off", "2,000"],
        ["one process, chunks of 100", "2,000"],
        [f"ProcessPoolExecutor, {workers} workers, the same chunks", "2,000"],
    ]
    assert all(number(r[2]) > 0 and number(r[3].replace(",", "")) > 0 for r in rows)
    assert number(rows[0][4]) > 0 and rows[0][5].endswith(" B")
    assert [r[4:] for r in rows[1:]] == [["—", "—"]] * 3
    scaling_factor = r"^Scaling factor \(one process in chunks / the pool\): (\S+), "
    factor = re.search(
        scaling_factor + r"with (\d+) workers, one per core \(os\.cpu_count\(\) = (\d+)\)\.$",
        out,
        re.M,
    )
    assert factor is not None and float(factor[1]) > 0 and factor[2] == factor[3] == str(workers)
    contents = re.search(r"^Input: 2,000 operations, [0-9.]+ MB; contents: (.*)\.$", out, re.M)
    assert contents is not None
    assert {part.split()[0] for part in contents[1].split(", ")} == DELPHI_KINDS
    assert_decode_many_rows(out)


def assert_decode_many_rows(out: str) -> None:
    """decode_many's table of the quick run: for the headers, then the
    operations, values then JSON text, a row with one job and one with a
    worker per core, rates positive, the second with its scaling factor."""
    assert (
        "\ndecode_many (values) and map_many of bytes_to_json (JSON text), one worker "
        "(jobs=1: in this process) and one per core:\n"
    ) in out
    rows = [
        cells(line) for line in out.splitlines() if line.startswith(("| shell", "| operations"))
    ]
    workers = str(os.cpu_count())
    sizes = {
        "shell block headers": sum(map(len, batch_headers(2_000))),
        "operations": sum(map(len, batch_operations(2_000)[0])),
    }
    assert [r[:4] for r in rows] == [
        [f"{workload} ({size / 1e6:.1f} MB)", kind, jobs, "2,000"]
        for workload, size in sizes.items()
        for kind in ("values", "JSON text")
        for jobs in ("1", workers)
    ]
    assert all(number(r[4]) > 0 and number(r[5].replace(",", "")) > 0 < number(r[6]) for r in rows)
    assert [r[7] for r in rows[::2]] == ["—"] * 4
    assert all(number(r[7]) > 0 for r in rows[1::2])


def cells(line: str) -> list[str]:
    """The cells of a markdown table row."""
    return [c.strip() for c in line.strip().strip("|").split("|")]


def number(cell: str) -> float:
    """The number that begins a cell ("0.812 µs / level", "8.97 (RSS)")."""
    return float(cell.split()[0])


def assert_deep_rows(out: str) -> None:
    """The scaling table printed by the quick run has the deep series: a row
    per operation and depth, positive, its peaks marked as RSS and the mark
    explained, and a linearity row per operation."""
    assert scaling.QUICK_SIZES.depths == (1_000, 10_000)
    rows = [cells(line) for line in out.splitlines() if line.startswith("| deep lists |")]
    sizes = [
        [op, size] for size in ("1,000 levels", "10,000 levels") for op in ("encode", "decode")
    ]
    assert [r[1:3] for r in rows[:4]] == sizes
    for row in rows[:4]:
        assert len(row) == 9
        assert row[4].endswith(" µs / level") and row[6].endswith(" µs / level")
        assert row[7].endswith(" (RSS)") and row[8].endswith(" B / level (RSS)")
        assert all(number(c) > 0 for c in row[3:])
    linearity = rows[4:]
    assert [r[1:3] for r in linearity] == [
        [op, "1,000 levels → 10,000 levels"] for op in ("encode", "decode")
    ]
    for row in linearity:
        assert len(row) == 6 and row[5].endswith(" (RSS)")
        assert all(number(c) > 0 for c in row[3:])
    assert scaling.RSS_NOTE in out


REFUSAL_OPS = (
    [(scaling.REFUSED, op) for op in ("decode", "encode", "length", "to_json", "from_json")]
    + [(scaling.TRIED, op) for op in ("encode", "length", "to_json", "from_json")]
    + [(scaling.PLAIN, f"{frames} frames a level") for frames in (3, 7)]
)


def assert_refusal_rows(out: str) -> None:
    """The scaling table printed by the quick run has the refusals at depth
    after the deep series: a row per direction and depth, its times positive
    and per level, no peak; and a linearity row per direction."""
    assert scaling.QUICK_SIZES.refusals == (100, 1_000)
    series = {series for series, _ in REFUSAL_OPS}
    rows = [cells(line) for line in out.splitlines() if line.startswith("|")]
    rows = [row for row in rows if row[0] in series]
    assert [tuple(r[:3]) for r in rows[:22]] == [
        (series, op, size) for size in ("100 levels", "1,000 levels") for series, op in REFUSAL_OPS
    ]
    for row in rows[:22]:
        assert len(row) == 9
        assert row[4].endswith(" µs / level") and row[6].endswith(" µs / level")
        assert all(number(row[c]) > 0 for c in (3, 4, 5, 6))
        assert row[7:] == ["—", "—"]
    linearity = rows[22:]
    assert [tuple(r[:3]) for r in linearity] == [
        (series, op, "100 levels → 1,000 levels") for series, op in REFUSAL_OPS
    ]
    for row in linearity:
        assert len(row) == 6 and number(row[3]) > 0 and number(row[4]) > 0 and row[5] == "—"


def test_each_refusal_must_be_the_error_expected_with_its_full_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The refusal series checks, before timing, that each direction raises
    exactly the error expected, its path of ``depth - 1`` steps: one that
    accepts its input, or raises another error, or one at another path, stops
    the run."""
    depth = 50
    cases = scaling.refusals(depth)
    full = (0,) * (depth - 1)
    assert [(c.series, c.op) for c in cases] == REFUSAL_OPS
    assert [c.expected for c in cases] == [
        (de.DecodeError, "not_enough_data", full),
        *[(de.EncodeError, "wrong_type", full)] * 3,
        (de.JsonError, "wrong_type", full),
        *[(de.EncodeError, "no_case_matched", full)] * 3,
        (de.JsonError, "no_case_matched", full),
        *[(scaling.PlainRefusal, "wrong_type", full)] * 2,
    ]
    expected = "deep lists, refused encode at 50: expected EncodeError wrong_type at a path"
    for outcome, said in [
        (None, "no error"),
        (
            (de.EncodeError, "too_deep", full),
            "EncodeError too_deep at a path of 49 steps among {0}",
        ),
        (
            (de.EncodeError, "wrong_type", full[1:]),
            "EncodeError wrong_type at a path of 48 steps among {0}",
        ),
    ]:
        wrong = cases[1]._replace(refuse=partial(lambda outcome: outcome, outcome))
        monkeypatch.setattr(scaling, "refusals", lambda depth, wrong=wrong: [*cases, wrong])
        message = f"{expected} of 49 steps among {{0}}, got {said}"
        with pytest.raises(AssertionError, match=f"^{re.escape(message)}$"):
            scaling.measure_refusals(depth)


def test_pytezos_codecs_put_the_recursion_limit_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """Importing pytezos raises the process's recursion limit to 100000; the
    benchmark puts it back, since the library's ``too_deep`` errors depend on
    it. A stand-in module does what pytezos does, so this runs without it."""

    def import_like_pytezos(name: str) -> Any:
        sys.setrecursionlimit(100_000)
        return SimpleNamespace(
            forge_int=lambda v: b"",
            unforge_int=lambda b: (0, 1),
            forge_block_header=lambda j: b"",
            forge_operation_group=lambda group: b"group",
            forge_base58=lambda text: text.encode(),
            forge_micheline=lambda j: b"expression",
            unforge_micheline=lambda b: {"int": "1"},
        )

    monkeypatch.setattr(importlib, "import_module", import_like_pytezos)
    limit = sys.getrecursionlimit()
    assert set(pytezos_codecs.codecs()) == {"zarith_z"}
    assert sys.getrecursionlimit() == limit
    assert pytezos_codecs.block_header_forger()({}) == b""
    assert sys.getrecursionlimit() == limit
    forge = pytezos_codecs.operation_forger()
    assert sys.getrecursionlimit() == limit
    # a signed group: its signature's bytes appended, as OperationGroup.binary_payload does
    assert forge({"branch": "B"}) == b"group"
    assert forge({"branch": "B", "signature": "sig"}) == b"groupsig"
    encode, decode = pytezos_codecs.micheline_codec()
    assert sys.getrecursionlimit() == limit
    assert (encode([]), decode(b"")) == (b"expression", {"int": "1"})


def test_forging_times_only_the_kinds_that_pytezos_forges_as_the_node_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A kind of contents gets its rows only when every one of its groups
    is forged as the node forges it; ``mixed`` has all those groups; the
    notes say, for 007 and 004, what was forged alike, could not be forged,
    or was forged otherwise. The stand-in pytezos forges as the node of 007
    does (its latest protocol, as pytezos'), but cannot forge a ballot or a
    proposal, and writes a reveal with one byte more; it knows no JSON of
    007's groups but theirs (a ``KeyError``). So this runs without pytezos."""
    delphi_bytes = {canonical(g.json): g.data for g in operation_groups(DELPHI)}

    def forge(group: dict[str, Any]) -> bytes:
        kinds = {content["kind"] for content in group["contents"]}
        if kinds & {"ballot", "proposals"}:
            raise NotImplementedError(kinds)
        data = delphi_bytes[canonical(group)]
        return data + b"\x00" if "reveal" in kinds else data

    monkeypatch.setattr(pytezos_codecs, "operation_forger", lambda: forge)
    rows, notes = protocol_rows.forging_rows(1, 0.0)
    timed = [
        ("activate_account", 2),
        ("delegation", 4),
        ("double_baking_evidence", 2),
        ("double_endorsement_evidence", 2),
        ("endorsement", 2),
        ("origination", 2),
        ("seed_nonce_revelation", 2),
        ("transaction", 4),
    ]
    assert [(r.task, r.subject, r.other) for r in rows] == [
        (f"operation {kinds} ({n} groups): {op}", "ours", "pytezos")
        for kinds, n in [*timed, ("mixed", 20)]
        for op in ("json->bytes", "encode")
    ]
    same = ", ".join(f"{kinds} ({n})" for kinds, n in timed)
    assert notes[0] == (
        f"pytezos on psdelph1's 28 operation groups: same bytes: {same};"
        " cannot (NotImplementedError): ballot (2), proposals (2);"
        " other bytes: reveal (2), reveal+transaction (2)"
    )
    # 004's manager operations: its reveal, plain transaction and delegation
    # have 007's JSON but other bytes (004's tags and sources); its
    # transaction with parameters (an expression, no entrypoint), its
    # originations (a manager, spendable and delegatable flags) and its
    # reveal+transaction group have JSON that no 007 group has
    assert notes[1] == (
        "pytezos on pt24m4xi's 28 operation groups: same bytes: activate_account (2),"
        " double_baking_evidence (2), double_endorsement_evidence (2), endorsement (2),"
        " seed_nonce_revelation (2); cannot (NotImplementedError): ballot (2), proposals (2);"
        " other bytes: reveal (2), transaction (2), delegation (2);"
        " cannot (KeyError): transaction (2), origination (4), reveal+transaction (2)"
    )


def canonical(value: Any) -> str:
    """A JSON value as text, its members sorted: a key for equal values."""
    return json.dumps(value, sort_keys=True)


def test_micheline_rows_check_every_codec_against_ours_first() -> None:
    """``check_micheline`` stops the run when a codec writes other bytes or
    reads another value than ours: the hand-written codec over Delphi's
    primitives in the wrong order, a reader that gives the JSON form where
    our value is due. pytezos' value is the JSON form."""
    e = delphi.SCRIPT_EXPR
    values = [e.from_json({"prim": "PAIR", "args": [{"int": "1"}, {"string": "a"}]})]
    encode, decode = micheline_codec(delphi.PRIMITIVES)

    def as_json(data: bytes) -> Any:
        return e.to_json(e.decode(data))

    protocol_rows.check_micheline("pair", values, {"hand-written": (encode, decode)})
    protocol_rows.check_micheline(
        "pair", values, {"pytezos": (lambda j: e.encode(e.from_json(j)), as_json)}
    )
    reversed_table = micheline_codec(delphi.PRIMITIVES[::-1])
    for codec, wrong in [
        (reversed_table, "bytes differ"),
        ((encode, as_json), "decoded value differs"),
    ]:
        with pytest.raises(AssertionError, match=f"^pair: hand-written {wrong} from ours$"):
            protocol_rows.check_micheline("pair", values, {"hand-written": codec})


def test_protocol_workloads_are_the_real_groups_and_the_contracts_of_data_readme() -> None:
    """The operation groups are the 007 vectors' (signed, then unsigned, in
    file order), then the catalogue's two that are not among them, its JSON
    in the Tezos address family; every kind of 007 is there. The Micheline
    sets are the 19 catalogue samples, then the three contracts of
    ``benchmarks/data``, whose files are those that its README describes.
    The batch cycles the signed groups, each operation a ``bytes`` object
    of its own; its headers are the vectors' block header, each a ``bytes``
    object of its own."""
    groups = operation_groups()
    assert [g.id for g in groups] == (
        ["proto.psdelph1.operation"] * 13
        + ["proto.psdelph1.operation.unsigned"] * 13
        + ["proto.psdelph1.operation.unsigned", "proto.psdelph1.operation"]
    )
    assert {kind for g in groups for kind in g.kinds.split("+")} == DELPHI_KINDS
    assert [g.kinds for g in groups[-2:]] == ["reveal+transaction"] * 2
    assert groups[-1].json["contents"][0]["source"] == "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
    e = delphi.SCRIPT_EXPR
    sets = micheline_sets()
    sizes = [sum(len(e.encode(e.from_json(j))) for j in s.expressions) for s in sets]
    assert [f"{s.name} ({size:,} B)" for s, size in zip(sets, sizes, strict=True)] == list(
        MICHELINE_SETS
    )
    readme = (DATA / "README.md").read_text(encoding="utf-8")
    for name, size in zip(CONTRACTS, sizes[1:], strict=True):
        digest = hashlib.sha256((DATA / f"{name}.json").read_bytes()).hexdigest()
        spelled = f"{size:,}".replace(",", " ")  # the README's thousands separator
        assert f"| `{name}.json` |" in readme and f"| {spelled} bytes | `{digest}` |" in readme
    operations, kinds = batch_operations(30)
    signed = groups[:13] + groups[-1:]
    assert operations == [signed[i % 14].data for i in range(30)]
    assert len({id(data) for data in operations}) == 30
    # 30 operations of one content each, but the two reveal+transaction groups
    assert sum(kinds.values()) == 32 and set(kinds) == DELPHI_KINDS
    # the header: the catalogue's sample, the 007 vectors' block header
    with open(VECTORS, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    (header,) = [r["hex"] for r in rows if r["encoding_name"] == "007-PsDELPH1.block_header"]
    headers = batch_headers(3)
    assert headers == [bytes.fromhex(header)] * 3 and len({id(h) for h in headers}) == 3


def test_floors_remove_each_kind_of_check_and_keep_the_results() -> None:
    """Every step of ``floors.py`` removes something from the generated code
    of the workloads that have it (a step that finds nothing is left out, so
    the rows say which), and every variant still gives the same result."""
    import floors

    rows = floors.main(["--quick"])
    assert [(r.task, r.other) for r in rows] == [
        (f"{task}", "hand-written")
        for task in (
            "block_header: encode, as generated",
            "block_header: encode, without int guards",
            "block_header: encode, and bytes guards",
            "block_header: encode, and shape checks",
            "block_header: decode, as generated",
            "block_header: decode, and length checks",
            "records: encode, as generated",
            "records: encode, without int guards",
            "records: encode, and shape checks",
            "records: decode, as generated",
            "records: decode, without int31 ranges",
            "records: decode, and length checks",
        )
    ]
