"""``make fuzz``'s coverage-guided campaign: libFuzzer (atheris) over each catalogue id.

    python fuzz/run.py                                  # one id per encoding, 10 seconds each
    python fuzz/run.py --seconds 60 --ids 'admin.*' chain.blocks
    python fuzz/run.py --ids rpc.service_tree --seconds 600 --jobs 2
    python fuzz/run.py --lenient --ids 'proto.*'        # the lenient reader

For each id, in turn (``--jobs`` at once): its corpus folder
(``fuzz/corpus/<id>``) is seeded when empty (:mod:`fuzz.seeding`), then
the target runs under libFuzzer for ``--seconds``, adding what it finds new
to the corpus, so that the next campaign starts from there. The target is
``fuzz/target.py`` (strict decoding and the JSON round trip), or with
``--lenient`` ``fuzz/lenient_target.py`` (``decode(data,
canonical=False)``: what it reads is written back as read, and the strict
reader reads the same or refuses it for strictness); both grow one corpus.
Findings (``crash-*``, ``timeout-*``, ``oom-*``) and the run's output
(``libfuzzer.log``) go to ``fuzz/findings/<id>`` (``--lenient``:
``fuzz/findings/lenient/<id>``). The report is a row per id (seeded files,
corpus size, inputs run, exec/s, coverage, findings, peak RSS), the totals,
and each finding with the command that reproduces it.

Exit status: 0 when no run found anything, 1 when one did (or a run failed
to start or finish), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # fuzz.* when run as a script

from data_encoding.node import registry
from fuzz import libfuzzer, report, seeding
from fuzz.target import ID_VARIABLE

HERE = Path(__file__).resolve().parent


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fuzz/run.py",
        description="Fuzz the catalogue's decoders with libFuzzer (atheris), one id at a time.",
    )
    parser.add_argument("--seconds", type=int, default=10, help="fuzzing time per id")
    parser.add_argument(
        "--ids",
        nargs="+",
        default=[],
        metavar="ID",
        help="ids or globs ('admin.*'), by spaces or commas (default: one id per encoding)",
    )
    parser.add_argument(
        "--corpus", type=Path, default=HERE / "corpus", help="one corpus folder per id in there"
    )
    parser.add_argument(
        "--findings",
        type=Path,
        help="one folder of findings (and the run's log) per id in there "
        "(default: fuzz/findings, with --lenient fuzz/findings/lenient)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="ids fuzzed at once")
    parser.add_argument("--seed", type=int, help="libFuzzer's random seed (default: its own)")
    parser.add_argument(
        "--timeout", type=int, default=10, help="seconds one input may take (a timeout finding)"
    )
    parser.add_argument("--rss-limit-mb", type=int, default=2048, help="memory limit per run")
    parser.add_argument(
        "--drawn", type=int, default=20, help="strategy values among an empty corpus' seeds"
    )
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="fuzz the lenient reader, decode(data, canonical=False) (fuzz/lenient_target.py)",
    )
    parser.add_argument(
        "--target",
        type=Path,
        help="the libFuzzer target (default: fuzz/target.py; with --lenient, "
        "fuzz/lenient_target.py)",
    )
    parser.add_argument("--report", type=Path, help="also write the report there, as JSON")
    return parser


def select(patterns: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """The ids the patterns name, in the catalogue's order; for none, one id
    per distinct encoding (the first registered of the ids that name it: a
    protocol's ``tez`` is its predecessor's very encoding, fuzzed once)."""
    known = registry.ids()
    words = [word for pattern in patterns for word in pattern.split(",") if word]
    if not words:
        return [id for id in known if registry.id_of(registry.find(id).encoding) == id]
    chosen: set[str] = set()
    for word in words:
        matched = fnmatch.filter(known, word)
        if not matched:
            parser.error(f"--ids: no id matches {word!r}")
        chosen.update(matched)
    return [id for id in known if id in chosen]


def main(argv: list[str] | None = None) -> int:
    """Run the campaign, print its report; 1 when anything was found."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.seconds < 1 or args.jobs < 1:
        parser.error("--seconds and --jobs must be at least 1")
    ids = select(args.ids, parser)
    limits = libfuzzer.Limits(args.seconds, args.timeout, args.rss_limit_mb, args.seed)
    target: Path = args.target or HERE / ("lenient_target.py" if args.lenient else "target.py")
    findings: Path = args.findings or HERE / "findings" / ("lenient" if args.lenient else "")

    # Hypothesis draws the seeds here, in this thread: it is no thread-safe library
    seeded = {id: seeding.seed(registry.find(id), args.corpus / id, args.drawn) for id in ids}

    def fuzz(id: str) -> libfuzzer.Run:
        done = libfuzzer.run(target, id, args.corpus / id, findings / id, limits, ID_VARIABLE)
        print(
            f"{id}: {done.stats.executions} inputs, {len(done.findings)} findings",
            file=sys.stderr,
            flush=True,
        )
        return done

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        runs = list(pool.map(fuzz, ids))
    rows = [
        report.Row(run, seeded[run.id], sum(1 for _ in (args.corpus / run.id).iterdir()))
        for run in runs
    ]
    print(report.table(rows))
    print()
    print(report.summary(report.totals(rows)))
    found = report.findings(rows, target, ID_VARIABLE)
    if found:
        print()
        print(found)
    if args.report is not None:
        args.report.write_text(json.dumps(report.as_json(rows), indent=1) + "\n")
    return 1 if any(run.failed for run in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
