"""Encodings the tests share: ``HAND``, hand-written ones covering every
combinator of ``data_encoding.__all__``, and ``VECTORS``, every distinct
encoding of the reference vectors; and :func:`assert_same`, equality that
also compares types."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hypothesis import settings

import data_encoding as de
from data_encoding import Encoding, RepeatedMembers
from dsl import build
from golden import legacy_records

# ------------------------------------------------------------ user types (conv)


@dataclass(frozen=True)
class Point:
    x: int
    y: int


def _point_to_wire(p: Point) -> tuple[int, int]:
    return (p.x, p.y)


def _point_from_wire(t: tuple[Any, ...]) -> Point:
    return Point(t[0], t[1])


@dataclass(frozen=True)
class Celsius:
    degrees: int


def _celsius_to_wire(c: Celsius) -> int:
    return c.degrees


def _label_to_wire(s: str) -> int:
    return int(s)


# ----------------------------------------------------------------- encodings


def _small(v: Any) -> bool:
    return isinstance(v, int) and 0 <= v <= 255


def _negative(v: Any) -> bool:
    return isinstance(v, int) and v < 0


def _large(v: Any) -> bool:
    return isinstance(v, int) and v > 255


def _by_magnitude(v: Any) -> int | None:
    """The tag of ``union_match``'s case for ``v``, as a ``matching`` union's function."""
    return next((tag for tag, test in enumerate((_small, _negative, _large)) if test(v)), None)


def _starts_with_bool(v: Any) -> bool:
    return isinstance(v, tuple | list) and len(v) == 2 and isinstance(v[0], bool)


def _starts_with_text(v: Any) -> bool:
    return isinstance(v, tuple | list) and len(v) == 2 and isinstance(v[0], str | bytes)


def _hand_encodings() -> dict[str, Encoding[Any]]:
    """Hand-written encodings: every combinator of ``data_encoding.__all__``."""
    point = de.conv(_point_to_wire, _point_from_wire, de.tup(de.int32, de.int32))
    celsius = de.conv(_celsius_to_wire, Celsius, de.int16)
    label = de.conv(_label_to_wire, str, de.uint16)
    running = de.obj(de.req("state", de.constant("running")), de.req("pid", de.int31))
    exited = de.obj(
        de.req("state", de.constant("exited")),
        de.req("code", de.uint8),
        de.opt("reason", de.string),
    )
    process = de.union([de.case(0, "running", running), de.case(1, "exited", exited)])
    chain = de.mu("chain", lambda self: de.obj(de.req("v", de.uint8), de.opt("next", self)))
    tree = de.mu(
        "tree",
        lambda self: de.union(
            [de.case(0, "leaf", de.uint16), de.case(1, "node", de.tup(self, self))]
        ),
    )
    # a recursive encoding whose body is variable-size (``mu`` rebuilds it)
    frame_list = de.mu(
        "frame_list", lambda self: de.obj(de.req("h", de.uint8), de.varopt("t", self))
    )
    rose = de.mu(
        "rose",
        lambda self: de.obj(
            de.req("label", de.bounded.string(8)), de.req("kids", de.list_(self, max_length=3))
        ),
    )
    with_var_string = de.obj(de.req("a", de.uint8), de.req("s", de.variable.string))
    with_var_tail = de.obj(
        de.req("b", de.variable.bytes_), de.req("t", de.int32), de.req("f", de.bool_)
    )
    var_list_tail = de.tup(de.variable.list_(de.uint16), de.bool_)
    var_array_tail = de.obj(
        de.req("x", de.variable.array(de.n, max_length=4)), de.req("y", de.uint16)
    )
    varopt_middle = de.obj(de.req("a", de.uint8), de.varopt("b", de.uint16), de.req("c", de.bool_))
    opt_variable = de.obj(de.req("id", de.uint16), de.opt("payload", de.variable.string))
    enum300 = de.string_enum([f"c{i}" for i in range(300)])
    fixed_union = de.union([de.case(0, "int", de.int64), de.case(1, "float", de.float_)])

    encodings: dict[str, Encoding[Any]] = {
        # ---- leaves
        "null": de.null,
        "empty": de.empty,
        "unit": de.unit,
        "constant": de.constant("baker"),
        "bool": de.bool_,
        "int8": de.int8,
        "uint8": de.uint8,
        "int16": de.int16,
        "uint16": de.uint16,
        "int31": de.int31,
        "int32": de.int32,
        "int64": de.int64,
        "uint30": de.uint30,
        "ranged_int_signed8": de.ranged_int(-100, 100),
        "ranged_int_signed16": de.ranged_int(-200, 200),
        "ranged_int_signed31": de.ranged_int(-100_000, 100_000),
        "ranged_int_unsigned": de.ranged_int(0, 10),
        "ranged_int_shift8": de.ranged_int(100, 355),
        "ranged_int_shift16": de.ranged_int(1000, 60000),
        "ranged_int_shift30": de.ranged_int(5, 2**30 - 1),
        "float": de.float_,
        "ranged_float": de.ranged_float(-1.5, 2.5),
        "ranged_float_point": de.ranged_float(3.0, 3.0),
        "ranged_float_wide": de.ranged_float(0, 1e10),
        "n": de.n,
        "z": de.z,
        "string": de.string,
        "bytes": de.bytes_,
        # ---- fixed
        "fixed_string": de.fixed.string(5),
        "fixed_bytes": de.fixed.bytes_(4),
        "fixed_list_uint16": de.fixed.list_(3, de.uint16),
        "fixed_list_bool": de.fixed.list_(2, de.bool_),
        "fixed_array_string": de.fixed.array(2, de.string),
        "fixed_list_obj": de.fixed.list_(2, de.obj(de.req("a", de.int8), de.req("b", de.int64))),
        # ---- variable, at the root and inside records
        "variable_string": de.variable.string,
        "variable_bytes": de.variable.bytes_,
        "variable_list": de.variable.list_(de.int32),
        "variable_array_max": de.variable.array(de.string, max_length=3),
        "obj_variable_string": with_var_string,
        "obj_variable_bytes_fixed_tail": with_var_tail,
        "tup_variable_list_fixed_tail": var_list_tail,
        "obj_variable_array_fixed_tail": var_array_tail,
        "obj_varopt_middle": varopt_middle,
        "obj_variable_zero_width_tail": de.obj(
            de.req("s", de.variable.bytes_),
            de.req("u", de.unit),
            de.req("k", de.constant("c")),
            de.req("b", de.uint8),
        ),
        "obj_varopt_zero_width_tail": de.obj(de.varopt("v", de.uint16), de.req("n", de.null)),
        "obj_opt_variable": opt_variable,
        "dyn_obj_variable_string": de.dynamic_size(with_var_string),
        "dyn_obj_variable_bytes_fixed_tail": de.dynamic_size(with_var_tail, kind="Uint16"),
        "dyn_tup_variable_list_fixed_tail": de.dynamic_size(var_list_tail, kind="Uint8"),
        "dyn_obj_variable_array_fixed_tail": de.dynamic_size(var_array_tail),
        "dyn_obj_varopt_middle": de.dynamic_size(varopt_middle, kind="Uint8"),
        # ---- bounded
        "bounded_string": de.bounded.string(10),
        "bounded_bytes_u16": de.bounded.bytes_(300),
        "bounded_string_u30": de.bounded.string(70000),
        # ---- records and tuples
        "obj_fields": de.obj(
            de.req("a", de.uint8),
            de.opt("b", de.uint16),
            de.dft("c", de.int32, 7),
            de.opt("s", de.string),
            de.dft("name", de.string, "hello"),
        ),
        "obj_varopt": de.obj(de.req("a", de.int8), de.varopt("v", de.uint16)),
        "obj_varopt_string": de.obj(de.opt("a", de.bool_), de.varopt("v", de.string)),
        "obj_zero_width": de.obj(
            de.req("u", de.unit),
            de.req("k", de.constant("x")),
            de.req("b", de.uint8),
            de.req("n", de.null),
            de.req("e", de.empty),
        ),
        "obj_dft_list": de.obj(de.dft("l", de.list_(de.uint8), [1, 2]), de.req("z", de.z)),
        # (an opt of an option is refused: None would mean absent and present)
        "obj_opt_zero_width_and_option": de.obj(
            de.opt("k", de.constant("x")), de.req("o", de.option(de.uint8))
        ),
        "tup": de.tup(de.uint8, de.string, de.bool_),
        "tup1": de.tup(de.n),
        "tup_nested": de.tup(de.tup(de.uint8, de.int16), de.option(de.string)),
        "merge_objs": de.merge_objs(
            de.obj(de.req("a", de.bool_), de.opt("o", de.z)),
            de.obj(de.req("b", de.int16), de.dft("d", de.uint8, 0)),
        ),
        "merge_objs_union": de.merge_objs(de.obj(de.req("id", de.uint16)), process),
        "merge_objs_empty": de.merge_objs(de.empty, de.obj(de.req("a", de.string))),
        "merge_objs_unit": de.merge_objs(de.obj(de.req("a", de.uint8)), de.unit),
        "merge_objs_def": de.merge_objs(
            de.def_("base", de.obj(de.req("a", de.uint8), de.opt("b", de.string))),
            de.obj(de.req("c", de.int16)),
        ),
        "merge_objs_nested": de.merge_objs(
            de.merge_objs(de.obj(de.req("x", de.uint8)), de.obj(de.opt("y", de.z))),
            de.obj(de.dft("w", de.bool_, False)),
        ),
        "merge_tups": de.merge_tups(de.tup(de.uint8, de.int8), de.tup(de.bool_)),
        "merge_tups_nested": de.merge_tups(
            de.tup(de.string), de.merge_tups(de.tup(de.n), de.tup(de.float_, de.uint16))
        ),
        # ---- lists and arrays
        "list_uint16": de.list_(de.uint16),
        "list_max_string": de.list_(de.string, max_length=3),
        "list_obj": de.list_(de.obj(de.req("a", de.uint8), de.opt("b", de.string))),
        "list_of_lists": de.list_(de.list_(de.int8)),
        "array_int64": de.array(de.int64),
        "array_max_bool": de.array(de.bool_, max_length=4),
        "list_with_length_u8": de.list_with_length("Uint8", de.uint16),
        "list_with_length_u16_max": de.list_with_length("Uint16", de.string, max_length=5),
        "array_with_length_u30": de.array_with_length("Uint30", de.n),
        "array_with_length_u8_bool": de.array_with_length("Uint8", de.bool_),
        "array_with_length_u8_max": de.array_with_length("Uint8", de.option(de.int8), max_length=4),
        "list_int31": de.list_(de.int31),
        "list_ranged_signed": de.list_(de.ranged_int(-100, 100)),
        "fixed_list_shifted": de.fixed.list_(3, de.ranged_int(100, 355)),
        "list_padded": de.list_(de.padded(de.uint8, 1)),
        "list_fixed_string": de.list_(de.fixed.string(2)),
        "list_check_size": de.list_(de.check_size(10, de.bounded.string(5))),
        "dyn_variable_list_max": de.dynamic_size(
            de.variable.list_(de.uint16, max_length=3), kind="Uint8"
        ),
        # ---- option and unions
        "option_uint8": de.option(de.uint8),
        "option_string": de.option(de.string),
        "option_obj": de.option(de.obj(de.req("a", de.uint8), de.opt("b", de.bool_))),
        "option_list": de.option(de.list_(de.int8)),
        "union_u8": de.union(
            [
                de.case(0, "byte", de.uint8),
                de.case(1, "text", de.string),
                de.case(2, "pair", de.tup(de.uint16, de.bool_)),
                de.case(255, "list", de.list_(de.uint8)),
            ]
        ),
        "union_u16": de.union(
            [
                de.case(0, "zero", de.uint8),
                de.case(256, "wide", de.string),
                de.case(0x1234, "flag", de.bool_),
                de.case(65535, "last", de.obj(de.req("last", de.int64))),
            ],
            tag_size="Uint16",
        ),
        "union_fixed": fixed_union,
        "padded_union": de.padded(fixed_union, 2),
        "merge_tups_union": de.merge_tups(
            de.tup(de.uint8),
            de.union(
                [
                    de.case(0, "flag", de.tup(de.bool_, de.uint8), match=_starts_with_bool),
                    de.case(1, "text", de.tup(de.string, de.int8), match=_starts_with_text),
                ]
            ),
        ),
        "union_constant_kinds": process,
        "union_match": de.union(
            [
                de.case(0, "small", de.uint8, match=_small),
                de.case(1, "negative", de.int16, match=_negative),
                de.case(2, "large", de.int64, match=_large),
            ]
        ),
        "matching": de.matching(
            _by_magnitude,
            [
                de.case(0, "small", de.uint8),
                de.case(1, "negative", de.int16),
                de.case(2, "large", de.int64),
            ],
        ),
        "union_json_only_case": de.union(
            [
                de.case(0, "num", de.uint8),
                de.case(1, "flag", de.bool_),
                de.case(None, "text", de.string),
            ]
        ),
        "union_of_unions": de.union(
            [
                de.case(0, "inner", de.union([de.case(0, "a", de.int8), de.case(1, "b", de.n)])),
                de.case(1, "flag", de.bool_),
            ]
        ),
        "string_enum_list": de.string_enum(["alpha", "beta", "gamma"]),
        "string_enum_mapping": de.string_enum({"one": 1, "two": 2, "three": 3}),
        "string_enum_300": enum300,
        "obj_enum": de.obj(de.req("e", enum300), de.req("f", de.string_enum(["x", "y"]))),
        # ---- transformations
        "conv_dataclass": point,
        "conv_atom": celsius,
        "conv_in_obj": de.obj(de.req("t", celsius), de.req("u", de.uint8), de.req("l", label)),
        "conv_in_list": de.list_(celsius),
        "conv_in_fixed_list": de.fixed.list_(2, label),
        "def": de.def_("point", point, title="Point", description="A point."),
        "def_union": de.def_("process", process),
        "mu_list": chain,
        "mu_tree": tree,
        "mu_variable": frame_list,
        "mu_rose": rose,
        "mu_in_obj": de.obj(de.req("id", de.uint8), de.req("tree", tree)),
        "mu_nested_lists": de.mu("nested", lambda self: de.list_(self, max_length=3)),
        "delayed_obj": de.delayed(lambda: de.obj(de.req("a", de.uint8), de.opt("b", de.string))),
        "delayed_atom_in_obj": de.obj(
            de.req("a", de.delayed(lambda: de.uint16)), de.req("b", de.int8)
        ),
        # ---- framing
        "dynamic_size_u30": de.dynamic_size(de.variable.bytes_),
        "dynamic_size_u16": de.dynamic_size(de.string, kind="Uint16"),
        "dynamic_size_u8": de.dynamic_size(de.variable.list_(de.uint8), kind="Uint8"),
        "dynamic_size_fixed": de.dynamic_size(de.uint16, kind="Uint8"),
        "dynamic_size_empty": de.dynamic_size(de.empty),
        "dynamic_size_u8_strings": de.dynamic_size(de.list_(de.string), kind="Uint8"),
        "dynamic_size_u8_long_list": de.dynamic_size(de.list_(de.fixed.bytes_(64)), kind="Uint8"),
        "dynamic_size_nested": de.dynamic_size(
            de.dynamic_size(de.variable.string, kind="Uint8"), kind="Uint16"
        ),
        "check_size": de.check_size(100, de.string),
        "check_size_obj": de.check_size(
            40, de.obj(de.req("a", de.uint8), de.req("b", de.bounded.bytes_(20)))
        ),
        "check_size_fixed": de.check_size(8, de.int64),
        "padded": de.padded(de.uint16, 3),
        "padded_obj": de.padded(de.obj(de.req("x", de.int16), de.req("ok", de.bool_)), 2),
        "padded_string": de.padded(de.fixed.string(3), 1),
        "obj_padded": de.obj(de.req("p", de.padded(de.uint8, 2)), de.req("q", de.int8)),
        "splitted": de.splitted(json=de.bytes_, binary=de.fixed.bytes_(4)),
        "splitted_int": de.splitted(json=de.n, binary=de.uint16),
        # ---- the node's primitives
        "block_hash": de.hashes.block_hash,
        "chain_id": de.hashes.chain_id,
        "timestamp": de.timestamp.protocol,
        "obj_hashes": de.obj(
            de.req("level", de.int32),
            de.req("predecessor", de.hashes.block_hash),
            de.req("timestamp", de.timestamp.protocol),
            de.req("protocols", de.list_(de.hashes.protocol_hash)),
            de.opt("chain", de.hashes.chain_id),
            de.req("context", de.hashes.context_hash),
        ),
        "list_operation_hashes": de.list_(de.hashes.operation_hash),
        # ---- any JSON
        "json": de.json,
        "obj_json": de.obj(de.req("meta", de.json), de.req("id", de.uint8)),
        "list_json": de.list_(de.json),
        # ---- the schema language, in both dialects
        "binary_schema": de.binary_schema,
        "binary_schema_v1": de.binary_schema_v1,
    }
    return encodings


HAND = _hand_encodings()


def _vector_encodings() -> dict[str, Encoding[Any]]:
    """Every distinct encoding of the reference vectors, by the name in its ids."""
    out: dict[str, Encoding[Any]] = {}
    for record in legacy_records():
        name = record["id"].split("-")[0]
        if name not in out:
            out[name] = build(record["encoding"])
    return out


VECTORS = _vector_encodings()


def same(a: object, b: object) -> bool:
    """Structural equality that also compares types (see the module docstring)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        if isinstance(a, float) and isinstance(b, float):
            return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
        return a == b
    if isinstance(a, list | tuple):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, RepeatedMembers):  # every member, in order
        return (
            isinstance(b, RepeatedMembers)
            and len(a.members) == len(b.members)
            and all(
                k == j and same(x, y) for (k, x), (j, y) in zip(a.members, b.members, strict=True)
            )
        )
    if isinstance(a, dict):
        return type(a) is type(b) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def assert_same(found: object, expected: object, what: str) -> None:
    assert found == expected, f"{what}: {found!r} != {expected!r}"
    assert same(found, expected), f"{what}: {found!r} differs in type from {expected!r}"


#: the vector encodings are many: half the examples of the profile
vector_settings = settings(max_examples=max(1, settings().max_examples // 2))
