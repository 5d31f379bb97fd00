"""``data-encoding sample``: random valid values of an id, from its Hypothesis strategy.

Hypothesis is imported here only, when the command runs (it is an optional
dependency: ``pip install 'data-encoding[hypothesis]'``). The values are
drawn by running the strategy as Hypothesis runs a test, generation phase
only, without its example database; a ``--seed`` makes the draw repeatable
(for one version of Hypothesis and of the library). Hypothesis starts with
small values and may give fewer than asked when an id has few values.
"""

from __future__ import annotations

from argparse import Namespace
from typing import Any

from ..errors import missing_extra
from ..jsonvalue import dumps
from ..tree.core import Encoding
from .commands import encoding_of
from .inputs import UsageError
from .output import OK, write_line


def draw(e: Encoding[Any], count: int, seed: int | None) -> list[Any]:
    """Up to ``count`` values of ``e``'s strategy (``seed``: the same ones each time)."""
    try:
        from hypothesis import HealthCheck, Phase, given, settings
        from hypothesis import seed as seeded
    except ModuleNotFoundError as exc:
        missing = missing_extra(exc, "hypothesis", "sample needs Hypothesis", "hypothesis")
        if missing is exc:
            raise
        raise UsageError(str(missing)) from None
    found: list[Any] = []

    @settings(
        max_examples=count,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        derandomize=False,  # whatever profile is loaded: random, unless seeded
        suppress_health_check=list(HealthCheck),
    )
    @given(e.strategy())
    def collect(value: Any) -> None:
        found.append(value)

    if seed is not None:
        collect = seeded(seed)(collect)
    collect()
    return found[:count]


def sample(args: Namespace) -> int:
    """One JSON object per line: ``{"json": ..., "hex": ...}`` (the samples files' shape)."""
    e = encoding_of(args.id)
    for value in draw(e, args.count, args.seed):
        write_line(dumps({"json": e.to_json(value), "hex": e.encode(value).hex()}))
    return OK
