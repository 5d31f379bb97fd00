"""Rich encodings (every kind of part, mixed), and the strategies of
arbitrary and mutated inputs the fuzz-style tests share."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from data_encoding import (
    Encoding,
    bool_,
    bounded,
    bytes_,
    case,
    constant,
    dft,
    dynamic_size,
    fixed,
    float_,
    int8,
    int16,
    int31,
    int64,
    json,
    list_,
    list_with_length,
    merge_objs,
    mu,
    n,
    obj,
    opt,
    option,
    padded,
    ranged_float,
    ranged_int,
    req,
    string,
    string_enum,
    tup,
    uint8,
    uint16,
    union,
    variable,
    z,
)
from data_encoding.jsonvalue import JsonValue


def rich_encodings() -> dict[str, Encoding[Any]]:
    """Encodings that mix every kind of part, built afresh at each call."""
    tree = mu(
        "tree",
        lambda self: union(
            [
                case(0, "leaf", obj(req("kind", constant("leaf")), req("v", z))),
                case(1, "node", obj(req("kind", constant("node")), req("l", self), req("r", self))),
            ]
        ),
    )
    opt_b = obj(req("a", uint8), opt("b", uint8))
    return {
        "record": obj(
            req("a", uint8),
            opt("b", string),
            req("u", union([case(0, "i", int31), case(1, "s", string), case(2, "o", opt_b)])),
            req("l", list_(n)),
            dft("d", int16, 5),
            req("f", float_),
            req("e", string_enum(["a", "b", "c"])),
        ),
        "tree": tree,
        "lists": list_(tup(option(uint16), bytes_, z)),
        "json": obj(req("j", json), req("t", int64), opt("o", fixed.bytes_(2))),
        "layout": tup(uint8, variable.list_(bool_), uint16),
        "bounded": obj(
            req("s", bounded.string(5)),
            req("p", padded(int8, 2)),
            req("r", ranged_int(-5, 300)),
            req("rf", ranged_float(0.0, 1.0)),
        ),
        "counted": list_with_length("Uint8", dynamic_size(string, kind="Uint16"), max_length=4),
        "merged": merge_objs(
            obj(req("a", uint8)),
            union([case(0, "x", obj(req("x", n))), case(1, "y", obj(req("y", z)))]),
        ),
        "states": list_(
            obj(
                req("uid", uint16),
                req(
                    "state",
                    union(
                        [
                            case(0, "run", obj(req("s", constant("run")), req("pid", int31))),
                            case(
                                1,
                                "exit",
                                obj(req("s", constant("exit")), opt("code", int31)),
                            ),
                        ]
                    ),
                ),
                req("parent", option(int31)),
            )
        ),
    }


RICH = rich_encodings()

KEYS = st.sampled_from(["a", "b", "u", "l", "d", "f", "e", "kind", "v", "r", "j", "t", "o", "x"])
# Text without lone surrogates: those are covered by the explicit rows above.


class BadRepr:
    """A value whose ``repr`` fails: messages must not depend on it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")


# Integers beyond Python's int_max_str_digits have no decimal form at all
# (built when drawn: even Hypothesis cannot print a strategy holding them).
HUGE = st.sampled_from([5000, -5000, 100_000]).map(lambda k: (k // abs(k)) * 10 ** abs(k))
JSONISH: st.SearchStrategy[JsonValue] = st.recursive(
    st.none() | st.booleans() | st.integers() | HUGE | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(KEYS | st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=12,
)
PYTHONISH: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | HUGE
    | st.floats()
    | st.text(max_size=6)
    | st.binary(max_size=6)
    | st.builds(BadRepr),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(KEYS | st.text(max_size=2), inner, max_size=4)
    ),
    max_leaves=12,
)


# Subclasses of the JSON types: JSON that ``json.loads`` never makes. Only
# ``json``, whose values are JSON, takes them; every other encoding refuses
# them (``wrong_type``), ``from_json`` and ``encode_json`` alike.
class JsonStr(str):
    pass


class JsonInt(int):
    pass


class JsonFloat(float):
    pass


class JsonDict(dict[str, Any]):
    pass


class JsonList(list[Any]):
    pass


_SUBCLASSES: dict[type, type] = {
    str: JsonStr,
    int: JsonInt,
    float: JsonFloat,
    dict: JsonDict,
    list: JsonList,
}


def as_subclass(json: Any) -> Any | None:
    """``json`` (a JSON value), as an equal value of a subclass of its type
    (its members and items unchanged); ``None`` for ``null`` and booleans
    (``bool`` has no subclass)."""
    subclass = _SUBCLASSES.get(type(json))
    return None if subclass is None else subclass(json)


# At least 200 examples; more under a larger profile (conftest's "fuzz").
FUZZ = settings(
    max_examples=max(200, settings().max_examples),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def mutated(enc: Encoding[Any]) -> st.SearchStrategy[bytes]:
    """Random bytes, or a valid encoding with one byte replaced and possibly cut short."""

    def mutate(data: bytes, where: int, byte: int, cut: int) -> bytes:
        if not data:
            return bytes([byte])
        i = where % len(data)
        changed = data[:i] + bytes([byte]) + data[i + 1 :]
        return changed[: len(changed) - cut]

    valid = enc.strategy().map(enc.encode)
    edited = st.builds(mutate, valid, st.integers(0, 10**6), st.integers(0, 255), st.integers(0, 2))
    return st.binary(max_size=48) | edited
