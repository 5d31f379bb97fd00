"""How many random encodings ``from_schema`` rebuilds exactly, and of what
kinds the others are (issue 31's report; the table is in ``ARCHITECTURE.md``).

Run: ``PYTHONPATH=tests:encodings .venv/bin/python tests/rebuild_share.py [N]``
(``N`` random encodings of ``random_dsl``, 3 000 by default, seed fixed).
"""

from __future__ import annotations

import collections
import sys
from typing import Any

from hypothesis import HealthCheck, given, seed, settings

from data_encoding import DefinitionError, Encoding, from_schema
from random_dsl import encodings
from rebuild_kinds import REFUSED_KINDS, difference, unstated


def share(examples: int) -> collections.Counter[str]:
    kinds: collections.Counter[str] = collections.Counter()

    @seed(20261127)
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(encodings())
    def count(built: tuple[Any, Encoding[Any]]) -> None:
        spec, e = built
        missing = unstated(spec)
        if missing is not None:
            kinds[f"bytes the schema does not state: {missing}"] += 1
            return
        schema = e.describe()
        try:
            again = from_schema(schema).describe()
        except DefinitionError as error:
            (kind,) = [k for k in REFUSED_KINDS if k in str(error)]
            kinds[f"refused: {kind}"] += 1
            return
        kinds[difference(schema, again) or "exact"] += 1

    count()
    return kinds


if __name__ == "__main__":
    kinds = share(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
    total = sum(kinds.values())
    print("| encodings | share | kind |\n|---:|---:|---|")
    for kind, n in kinds.most_common():
        print(f"| {n} | {100 * n / total:.1f} % | {kind} |")
