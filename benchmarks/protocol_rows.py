"""The rows of issue 29: forging operations and reading and writing Micheline, against pytezos.

**Forging** (:func:`forging_rows`): Delphi's operation groups of
:func:`~protocol_workloads.operation_groups` to bytes, a row per kind of
contents that pytezos forges as the node does, then one of all their
groups (``mixed``). pytezos' ``forge_operation_group`` forges from the
node's JSON (:func:`pytezos_codecs.operation_forger`); so does ours in the
``json->bytes`` rows: ``encode(from_json(j))``, the value built on the
way. The ``encode`` rows time ours from the value (``encode(v)``) against
the same pytezos calls: what a program that holds the value pays. The
three run interleaved; a call forges every group of its row.

Before timing, every group is checked: ours must give the node's bytes from
its JSON and from its value, and read them back to that value; pytezos'
bytes are compared with the node's, and a kind whose groups it cannot
forge, or forges otherwise, gets no row but a note (what it could not do,
and how many groups). Athens' (004) groups are checked the same way, for
the notes only: pytezos forges no protocol but its latest.

**Micheline** (:func:`micheline_rows`): each set of
:func:`~protocol_workloads.micheline_sets` with Delphi's ``script.expr``:

* ``parse``: ours ``decode``, the hand-written reader
  (:func:`handwritten.micheline_codec`: our value's shape, nothing
  checked), pytezos' ``unforge_micheline``; ours and the hand-written one
  must read the same value, and pytezos the value's JSON form (``to_json``:
  ``{"int": "42"}``, hex bytes), since that is its value;
* ``encode``: each from its own value: ours and the hand-written writer
  from ours, pytezos' ``forge_micheline`` from the JSON form;
* ``json->bytes``: ours ``encode(from_json(j))`` against ``forge_micheline(j)``;
* ``bytes->json``: ours ``decode_json(data)`` (the JSON form, as our JSON
  mode reads it) against ``unforge_micheline(data)``: the same output, the
  like-for-like reading.

Every implementation must give the same bytes. The hand-written codec
against pytezos, from the same runs, is the ceiling (``run.py``).

    python benchmarks/protocol_rows.py            # 31 repeats
    python benchmarks/protocol_rows.py --quick    # a smoke run
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pytezos_codecs
from handwritten import Codec, micheline_codec
from protocol_workloads import DELPHI, OperationGroup, micheline_sets, operation_groups
from timing import Call, Row, calls_per_repeat, compare, ratio_rows, table, timed

from data_encoding.node import registry
from data_encoding.node.protocols import delphi

__all__ = ["ATHENS", "SAME", "check_micheline", "each", "forging_rows", "micheline_rows", "verdict"]

ATHENS = "pt24m4xi"
"""The protocol whose groups are checked for the notes only."""

SAME = "same bytes"
"""The verdict on a group that pytezos forges as the node does."""


def each(function: Callable[[Any], object], items: Sequence[Any]) -> Call:
    """A call of ``function`` on every one of ``items``, in turn."""

    def call() -> None:
        for item in items:
            function(item)

    return call


# ------------------------------------------------------------ forging


def _check_ours(group: OperationGroup) -> None:
    e = registry.find(group.id).encoding
    value = e.from_json(group.json)
    if e.encode(value) != group.data:
        raise AssertionError(f"{group.id} {group.kinds}: our bytes differ from the node's")
    if e.decode(group.data) != value:
        raise AssertionError(f"{group.id} {group.kinds}: our decoded value differs")


def verdict(forge: Callable[[dict[str, Any]], bytes], group: OperationGroup) -> str:
    """How pytezos forges ``group``: :data:`SAME`, ``"other bytes"``, or
    ``"cannot (<the exception's class>)"``."""
    try:
        data = forge(group.json)
    except Exception as err:  # what it raises is what the note reports
        return f"cannot ({type(err).__name__})"
    return SAME if data == group.data else "other bytes"


def _note(protocol: str, verdicts: Sequence[tuple[OperationGroup, str]]) -> str:
    """What pytezos did with ``protocol``'s groups, verdict by verdict: each
    kind of contents, and its number of groups in parentheses."""
    by_verdict: dict[str, dict[str, int]] = {}
    for group, said in verdicts:
        kinds = by_verdict.setdefault(said, {})
        kinds[group.kinds] = kinds.get(group.kinds, 0) + 1
    parts = [
        f"{said}: " + ", ".join(f"{kinds} ({n})" for kinds, n in counts.items())
        for said, counts in by_verdict.items()
    ]
    return f"pytezos on {protocol}'s {len(verdicts)} operation groups: " + "; ".join(parts)


def _forge_rows(
    task: str,
    groups: Sequence[OperationGroup],
    forge: Callable[[dict[str, Any]], bytes],
    repeats: int,
    budget: float,
) -> list[Row]:
    """Ours from the JSON, ours from the value and pytezos from the JSON,
    interleaved: the ``json->bytes`` and ``encode`` rows of ``groups``."""
    pairs = []
    for g in groups:
        e = registry.find(g.id).encoding
        pairs.append((e, g.json, e.from_json(g.json)))

    def ours_from_json() -> None:
        for e, j, _ in pairs:
            e.encode(e.from_json(j))

    def ours_from_value() -> None:
        for e, _, v in pairs:
            e.encode(v)

    calls = [ours_from_json, ours_from_value, each(forge, [g.json for g in groups])]
    ours_json, ours_value, theirs = timed(calls, repeats, calls_per_repeat(calls, budget))
    return ratio_rows(f"{task}: json->bytes", "ours", ours_json, {"pytezos": theirs}) + ratio_rows(
        f"{task}: encode", "ours", ours_value, {"pytezos": theirs}
    )


def forging_rows(repeats: int, budget: float) -> tuple[list[Row], list[str]]:
    """The forging rows of Delphi's groups, by kind then ``mixed``, and the
    notes on what pytezos could not forge as the node does; none when
    pytezos is missing (``run.py`` says so)."""
    try:
        forge = pytezos_codecs.operation_forger()
    except ImportError:
        return [], []
    verdicts: dict[str, list[tuple[OperationGroup, str]]] = {}
    for protocol in (DELPHI, ATHENS):
        groups = operation_groups(protocol)
        for group in groups:
            _check_ours(group)
        verdicts[protocol] = [(group, verdict(forge, group)) for group in groups]
    by_kinds: dict[str, list[tuple[OperationGroup, str]]] = {}
    for group, said in verdicts[DELPHI]:
        by_kinds.setdefault(group.kinds, []).append((group, said))
    timed_kinds = {
        kinds: [group for group, _ in pairs]
        for kinds, pairs in by_kinds.items()
        if all(said == SAME for _, said in pairs)
    }
    forged = [group for groups in timed_kinds.values() for group in groups]
    rows: list[Row] = []
    for kinds, groups in [*timed_kinds.items(), ("mixed", forged)]:
        task = f"operation {kinds} ({len(groups)} groups)"
        rows += _forge_rows(task, groups, forge, repeats, budget)
    return rows, [_note(protocol, said) for protocol, said in verdicts.items()]


# ------------------------------------------------------------ Micheline


def check_micheline(name: str, values: Iterable[Any], codecs: dict[str, Codec]) -> None:
    """Every codec of ``codecs`` gives our bytes of each of ``values`` and
    reads them back to the value (pytezos: to its JSON form)."""
    e = delphi.SCRIPT_EXPR
    for value in values:
        data = e.encode(value)
        if e.decode(data) != value:
            raise AssertionError(f"{name}: our decoded value differs")
        for other, (encode, decode) in codecs.items():
            # pytezos' value is the JSON form
            mine = e.to_json(value) if other == "pytezos" else value
            if encode(mine) != data:
                raise AssertionError(f"{name}: {other} bytes differ from ours")
            if decode(data) != mine:
                raise AssertionError(f"{name}: {other} decoded value differs from ours")


def micheline_rows(repeats: int, budget: float) -> list[Row]:
    """The ``parse``, ``encode`` and (with pytezos) ``json->bytes`` and
    ``bytes->json`` rows of every set of Micheline expressions, and their
    ceiling rows."""
    e = delphi.SCRIPT_EXPR
    codecs = {"hand-written": micheline_codec(delphi.PRIMITIVES)}
    with contextlib.suppress(ImportError):  # run.py says that pytezos is missing
        codecs["pytezos"] = pytezos_codecs.micheline_codec()
    rows: list[Row] = []
    for s in micheline_sets():
        values = [e.from_json(j) for j in s.expressions]
        datas = [e.encode(v) for v in values]
        jsons = [e.to_json(v) for v in values]
        check_micheline(s.name, values, codecs)
        task = f"micheline {s.name} ({sum(map(len, datas)):,} B)"
        inputs: dict[str, Sequence[Any]] = {"hand-written": values, "pytezos": jsons}
        writers = {k: each(c[0], inputs[k]) for k, c in codecs.items()}
        tasks: list[tuple[str, Call, dict[str, Call]]] = [
            ("parse", each(e.decode, datas), {k: each(c[1], datas) for k, c in codecs.items()}),
            ("encode", each(e.encode, values), writers),
        ]
        if "pytezos" in codecs:
            from_json = each(lambda j: e.encode(e.from_json(j)), jsons)
            tasks.append(("json->bytes", from_json, {"pytezos": each(codecs["pytezos"][0], jsons)}))
            unforge = each(codecs["pytezos"][1], datas)
            tasks.append(("bytes->json", each(e.decode_json, datas), {"pytezos": unforge}))
        for op, ours, others in tasks:
            number = calls_per_repeat([ours, *others.values()], budget)
            baseline = "hand-written" if "hand-written" in others else None
            rows += compare(f"{task}: {op}", ours, others, repeats, number, baseline)
    return rows


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run")
    args = parser.parse_args(argv)
    repeats, budget = (3, 0.002) if args.quick else (31, 0.02)
    rows, notes = forging_rows(repeats, budget)
    rows += micheline_rows(repeats, budget)
    print(table([r for r in rows if r.subject == "ours"]))
    print("\nThe ceiling: the hand-written codec against pytezos, from the same runs:\n")
    print(table([r for r in rows if r.subject != "ours"]))
    for note in notes:
        print(f"\n{note}")
    return rows


if __name__ == "__main__":
    main()
