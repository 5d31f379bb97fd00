"""A chain's history decoded on Dask: ``python -m chain_history generate``
writes a generated history's partitions, ``decode`` makes them Parquet
datasets on a Dask cluster, ``answer`` answers two questions from them."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from .history import PROTOCOL, generate
from .records import SUFFIXES

DEFAULT_SEED = 20201112


def _where(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="a Dask scheduler's address (tcp://host:8786)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="without --scheduler: the local cluster's processes (default: one per core)",
    )


def parser() -> argparse.ArgumentParser:
    """The command's arguments."""
    main = argparse.ArgumentParser(
        prog="python -m chain_history", description=__doc__.replace("``", "")
    )
    commands = main.add_subparsers(dest="command", required=True)
    made = commands.add_parser("generate", help="write a generated history's partitions")
    made.add_argument("history", type=Path, help="its folder (headers/, operations/)")
    made.add_argument("--blocks", type=int, default=6000, help="(default: 6000)")
    made.add_argument("--partitions", type=int, default=4, help="of each kind (default: 4)")
    made.add_argument("--seed", type=int, default=DEFAULT_SEED, help="(default: %(default)s)")
    made.add_argument(
        "--format",
        choices=[s[1:] for s in SUFFIXES],
        default="bin",
        help="hex lines or uint30-framed records (default: bin)",
    )
    decode = commands.add_parser("decode", help="decode a history into Parquet, on Dask")
    decode.add_argument("history", type=Path, help="the partitions' folder (headers/, operations/)")
    decode.add_argument("dataset", type=Path, help="the Parquet datasets' folder, made")
    decode.add_argument("--protocol", default=PROTOCOL, help=f"the ids' protocol ({PROTOCOL})")
    _where(decode)
    answer = commands.add_parser("answer", help="blocks per priority, transactions per day")
    answer.add_argument("dataset", type=Path, help="the folder decode wrote")
    _where(answer)
    return main


def main(argv: Sequence[str] | None = None) -> None:
    args = parser().parse_args(argv)
    if args.command == "generate":
        history = generate(args.history, args.blocks, args.partitions, args.seed, f".{args.format}")
        print(
            f"{sum(history.headers)} headers and {sum(history.operations)} operations"
            f" in {args.partitions} partitions under {args.history}"
        )
        return
    # what needs Dask is imported only for the commands that use it
    from .cluster import connect
    from .pipeline import decode_history
    from .questions import blocks_per_priority, transactions_per_day

    with connect(args.scheduler, args.workers):
        if args.command == "decode":
            written = decode_history(args.history, args.dataset, args.protocol)
            rows = sum(w.rows for w in written)
            print(f"{rows} rows in {len(written)} files under {args.dataset}")
            return
        print("priority  blocks")
        for priority, blocks in blocks_per_priority(args.dataset).items():
            print(f"{priority:>8}  {blocks:>6}")
        print(f"{'day':<10}  {'transactions':>12}  {'volume (tez)':>18}")
        for day, found in transactions_per_day(args.dataset).items():
            tez, mutez = divmod(found.volume, 1_000_000)
            print(f"{day}  {found.transactions:>12}  {f'{tez:,}.{mutez:06d}':>18}")


if __name__ == "__main__":
    main()
