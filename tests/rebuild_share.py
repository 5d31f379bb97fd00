"""How many random encodings ``from_schema`` rebuilds exactly, and of what
kinds the others are (issue 31's report; the table is in the closing notes
and ``ARCHITECTURE.md``).

For each of ``N`` random encodings of ``random_dsl`` (3 000 by default, the
seed fixed), from its binary schema alone, then with its JSON schema too:
exact (the same binary schema, and with the JSON schema the same JSON value
for a value drawn from the encoding), or the kind of difference
(``rebuild_kinds``), or the kind of refusal.

Run: ``PYTHONPATH=tests:encodings .venv/bin/python tests/rebuild_share.py [N]``
"""

from __future__ import annotations

import collections
import sys
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from data_encoding import DataEncodingError, DefinitionError, Encoding, from_schema
from data_encoding.jsonvalue import JsonValue
from random_dsl import encodings
from rebuild_kinds import REFUSED_KINDS, difference, unstated


def share(examples: int) -> dict[str, collections.Counter[str]]:
    kinds: dict[str, collections.Counter[str]] = {
        "binary schema": collections.Counter(),
        "with the JSON schema": collections.Counter(),
    }

    @seed(20261127)
    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(encodings(), st.data())
    def count(built: tuple[Any, Encoding[Any]], data: st.DataObject) -> None:
        spec, e = built
        schema = e.describe()
        try:
            json_schema: JsonValue = e.json_schema()
        except DefinitionError:
            json_schema = None
        value = data.draw(e.strategy())
        for (name, counter), pair in zip(kinds.items(), (None, json_schema), strict=True):
            if name != "binary schema" and pair is None:
                counter["no JSON schema (two definitions of one name)"] += 1
                continue
            try:
                rebuilt = from_schema(schema, pair)
            except DefinitionError as error:
                (kind,) = [k for k in REFUSED_KINDS if k in str(error)]
                counter[f"refused: {kind}"] += 1
                continue
            missing = unstated(spec)
            kind = difference(schema, rebuilt.describe()) or (
                f"bytes the schema does not state: {missing}" if missing else "exact"
            )
            if kind == "exact" and pair is not None:
                data_ = e.encode(value)
                try:
                    same = rebuilt.to_json(rebuilt.decode(data_)) == e.to_json(value)
                except DataEncodingError:
                    same = False
                kind = "exact" if same else "exact bytes, another JSON value"
            counter[kind] += 1

    count()
    return kinds


if __name__ == "__main__":
    for name, counter in share(int(sys.argv[1]) if len(sys.argv) > 1 else 3000).items():
        total = sum(counter.values())
        print(f"\n{name}\n\n| encodings | share | kind |\n|---:|---:|---|")
        for kind, n in counter.most_common():
            print(f"| {n} | {100 * n / total:.1f} % | {kind} |")
