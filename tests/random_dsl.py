"""Random encodings: Hypothesis strategies of specs in the vectors' DSL (see ``dsl.py``).

A spec is drawn, then built with :func:`dsl.build`; specs whose layout the
library refuses (``DefinitionError``: two variable parts in a row, say) are
drawn again. Names, titles and constants come from :data:`NAMES`, which
mixes plain words with hostile ones: strings that look like Python, the
generator's own variable names, template holes, quotes and non-ASCII text.
No such string may ever change what the generated code does.

>>> from hypothesis import find
>>> spec = find(specs(), lambda s: isinstance(s, dict) and s["kind"] == "obj" and s["fields"])
>>> spec["kind"]
'obj'
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from data_encoding import DefinitionError, Encoding
from dsl import Dsl, build

HOSTILE = [
    "x{}y",
    "{}",
    "{0}",
    "x",
    "v",
    "pos",
    "buf",
    "out",
    "end",
    "_k1",
    "f1",
    "__class__",
    "'",
    '"',
    "\\",
    "a'b\"c",
    "\n",
    "é",
    "kind",
    "",
    " ",
    "None",
    "import os",
]
NAMES: st.SearchStrategy[str] = st.sampled_from(HOSTILE) | st.text(max_size=5)

_PLAIN = [
    "null",
    "empty",
    "unit",
    "bool",
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int31",
    "int32",
    "int64",
    "float",
    "n",
    "z",
    "string",
    "bytes",
    "json",
]


def _leaf() -> st.SearchStrategy[Dsl]:
    sizes = st.integers(1, 4)
    return st.one_of(
        st.sampled_from(_PLAIN),
        st.builds(lambda s: {"kind": "constant", "value": s}, NAMES),
        st.builds(
            lambda lo, span: {"kind": "ranged_int", "min": lo, "max": lo + span},
            st.sampled_from([-(2**30), -300, -5, 0, 100, 1000]),
            st.sampled_from([0, 1, 255, 256, 65535, 70000]),
        ),
        st.just({"kind": "ranged_float", "min": -1.5, "max": 2.0}),
        st.builds(
            lambda cases: {"kind": "string_enum", "cases": cases},
            st.lists(NAMES, min_size=2, max_size=4, unique=True),
        ),
        st.builds(
            lambda kind, k: {"kind": kind, "fixed": k}, st.sampled_from(["string", "bytes"]), sizes
        ),
        st.builds(
            lambda kind, k: {"kind": kind, "max_length": k},
            st.sampled_from(["string", "bytes"]),
            sizes,
        ),
        st.builds(
            lambda kind: {"kind": kind, "variable": True}, st.sampled_from(["string", "bytes"])
        ),
    )


def _field(inner: st.SearchStrategy[Dsl]) -> st.SearchStrategy[dict[str, Any]]:
    return st.builds(
        lambda mode, name, enc: {mode: name, "enc": enc},
        st.sampled_from(["req", "req", "opt", "varopt"]),
        NAMES,
        inner,
    )


def _field_name(field: dict[str, Any]) -> str:
    return next(str(v) for k, v in field.items() if k != "enc")


def _cases(inner: st.SearchStrategy[Dsl]) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Union cases: plain ones, or records told apart by a constant member."""

    def tagged(tags: list[int], titles: list[str], bodies: list[Dsl], key: str) -> list[Any]:
        cases = []
        for i, (tag, title, body) in enumerate(zip(tags, titles, bodies, strict=False)):
            if i % 2 and isinstance(body, dict) and body.get("kind") == "obj":
                constant = {"req": key, "enc": {"kind": "constant", "value": title}}
                fields = [f for f in body["fields"] if key not in f.values()]
                body = {"kind": "obj", "fields": [constant, *fields]}
            cases.append({"tag": tag, "title": title, "enc": body})
        return cases

    return st.builds(
        tagged,
        st.lists(st.integers(0, 255), min_size=1, max_size=4, unique=True),
        st.lists(NAMES, min_size=4, max_size=4, unique=True),
        st.lists(inner, min_size=4, max_size=4),
        NAMES,
    )


def _composite(inner: st.SearchStrategy[Dsl]) -> st.SearchStrategy[Dsl]:
    headers = st.sampled_from(["Uint30", "Uint16", "Uint8"])
    return st.one_of(
        st.builds(
            lambda fields: {"kind": "obj", "fields": fields},
            st.lists(_field(inner), max_size=4, unique_by=_field_name),
        ),
        st.builds(
            lambda elts: {"kind": "tup", "elts": elts}, st.lists(inner, min_size=1, max_size=4)
        ),
        st.builds(
            lambda kind, enc, variable, limit: {
                "kind": kind,
                "enc": enc,
                **({"variable": True} if variable else {}),
                **({"max_length": limit} if limit is not None else {}),
            },
            st.sampled_from(["list", "array"]),
            inner,
            st.booleans(),
            st.none() | st.integers(0, 3),
        ),
        st.builds(lambda enc: {"kind": "option", "enc": enc}, inner),
        st.builds(lambda cases: {"kind": "union", "cases": cases}, _cases(inner)),
        st.builds(
            lambda enc, size: {"kind": "dynamic_size", "enc": enc, "size": size}, inner, headers
        ),
        st.builds(
            lambda enc, limit: {"kind": "check_size", "limit": limit, "enc": enc},
            inner,
            st.integers(0, 40),
        ),
        st.builds(lambda name, enc: {"kind": "def", "name": name, "enc": enc}, NAMES, inner),
        st.builds(lambda enc: {"kind": "delayed", "enc": enc}, inner),
        st.builds(
            lambda enc, k: {"kind": "padded", "padding": k, "enc": enc}, inner, st.integers(1, 2)
        ),
        st.builds(
            lambda left, right: {"kind": "merge_objs", "left": left, "right": right}, inner, inner
        ),
        st.builds(
            lambda left, right: {"kind": "merge_tups", "left": left, "right": right}, inner, inner
        ),
        st.builds(lambda name, leaf: _mu(name, leaf), NAMES, inner),
    )


def _mu(name: str, leaf: Dsl) -> Dsl:
    """A recursive list-like shape around ``leaf``: a leaf, or a node holding itself."""
    me = {"kind": "self", "name": name}
    node = {"kind": "obj", "fields": [{"req": "v", "enc": leaf}, {"opt": "next", "enc": me}]}
    return {
        "kind": "mu",
        "name": name,
        "enc": {
            "kind": "union",
            "cases": [
                {"tag": 0, "title": "leaf", "enc": {"kind": "tup", "elts": [leaf]}},
                {"tag": 1, "title": "node", "enc": node},
            ],
        },
    }


def specs(
    max_leaves: int = 8, leaves: st.SearchStrategy[Dsl] | None = None
) -> st.SearchStrategy[Dsl]:
    """Specs of encodings, valid or not (their leaves drawn from ``leaves``
    when given)."""
    return st.recursive(_leaf() if leaves is None else leaves, _composite, max_leaves=max_leaves)


def _built(spec: Dsl) -> tuple[Dsl, Encoding[Any]] | None:
    try:
        built = build(spec)
        built._read, built._write  # noqa: B018  # compiling builds every delayed part
    except DefinitionError:
        return None
    return spec, built


def encodings(
    max_leaves: int = 8, leaves: st.SearchStrategy[Dsl] | None = None
) -> st.SearchStrategy[tuple[Dsl, Encoding[Any]]]:
    """``(spec, encoding)`` pairs of encodings the library accepts (their
    leaves drawn from ``leaves`` when given)."""
    return specs(max_leaves, leaves).map(_built).filter(lambda built: built is not None)  # type: ignore[return-value]
