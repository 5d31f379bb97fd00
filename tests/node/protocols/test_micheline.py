"""Micheline of the protocols 004 to 007 (``data_encoding.node.protocols.micheline``):
every node shape's bytes and JSON, the real scripts of the 007 vectors,
``PACK``ed data with the hashes the node's client gives them, the strict
reader's refusals, and each protocol's primitive table.

The cases are each drawn by the strategy in ``tests/passes/test_strategies.py``
(``test_every_case_is_drawn``, which walks to the Micheline unions of the
catalogue); the depth limit is tested at the limit by
``tests/node/test_catalogue_deep.py``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from data_encoding import DecodeError, EncodeError, JsonError
from data_encoding.errors import format_path
from data_encoding.node.base58 import check_encode
from data_encoding.node.protocols import athens, babylon, carthage, delphi
from data_encoding.node.protocols.micheline import (
    Node,
    PrimNode,
    pack,
    unpack,
    written_with,
)
from data_encoding.passes.binary.rules import canonical
from data_encoding.tree.unions import Union
from data_encoding.tree.wrappers import Mu, Splitted
from golden import VECTORS

EXPR = delphi.SCRIPT_EXPR

# ------------------------------------------------------------ every node shape

SHAPES: list[tuple[Node, Any, str]] = [
    # (value, JSON, hex): the tags 0 to 10, each case once
    ({"int": -5}, {"int": "-5"}, "0045"),
    ({"string": "abc"}, {"string": "abc"}, "0100000003616263"),
    ([{"int": 1}], [{"int": "1"}], "02000000020001"),
    ({"prim": "UNIT"}, {"prim": "UNIT"}, "034f"),
    ({"prim": "UNIT", "annots": ["@a"]}, {"prim": "UNIT", "annots": ["@a"]}, "044f000000024061"),
    (
        {"prim": "option", "args": [{"prim": "nat"}]},
        {"prim": "option", "args": [{"prim": "nat"}]},
        "05630362",
    ),
    (
        {"prim": "option", "args": [{"prim": "nat"}], "annots": [":x"]},
        {"prim": "option", "args": [{"prim": "nat"}], "annots": [":x"]},
        "06630362000000023a78",
    ),
    (
        {"prim": "pair", "args": [{"prim": "nat"}, {"prim": "int"}]},
        {"prim": "pair", "args": [{"prim": "nat"}, {"prim": "int"}]},
        "07650362035b",
    ),
    (
        {"prim": "pair", "args": [{"prim": "nat"}, {"prim": "int"}], "annots": ["%a", "%b"]},
        {"prim": "pair", "args": [{"prim": "nat"}, {"prim": "int"}], "annots": ["%a", "%b"]},
        "08650362035b000000052561202562",
    ),
    (
        {"prim": "LAMBDA", "args": [{"prim": "unit"}, {"prim": "unit"}, []]},
        {"prim": "LAMBDA", "args": [{"prim": "unit"}, {"prim": "unit"}, []]},
        "093100000009036c036c020000000000000000",
    ),
    ({"bytes": b"\x00\xff"}, {"bytes": "00ff"}, "0a0000000200ff"),
]


@pytest.mark.parametrize(("value", "json", "hex"), SHAPES)
def test_every_node_shape_has_the_references_bytes_and_json(
    value: Node, json: Any, hex: str
) -> None:
    raw = bytes.fromhex(hex)
    assert EXPR.encode(value) == raw
    assert EXPR.decode(raw) == value
    assert EXPR.to_json(value) == json
    assert EXPR.from_json(json) == value
    assert written_with(value) == raw[0]


def test_the_shapes_cover_the_eleven_cases() -> None:
    assert sorted(bytes.fromhex(hex)[0] for _, _, hex in SHAPES) == list(range(11))


def test_the_generic_case_writes_its_annotations_or_an_empty_string() -> None:
    three: PrimNode = {"prim": "LAMBDA", "args": [{"prim": "unit"}, {"prim": "unit"}, []]}
    assert EXPR.encode({**three, "annots": ["@f"]}).hex() == (
        "093100000009036c036c0200000000000000024066"
    )
    assert EXPR.encode(three).hex().endswith("0200000000" + "00000000")


def test_annotations_are_split_on_spaces_empty_ones_kept() -> None:
    # " %a" reads as two annotations, the first empty, and writes back the same
    value: Node = {"prim": "UNIT", "annots": ["", "%a"]}
    raw = bytes.fromhex("044f000000032025" + "61")
    assert EXPR.decode(raw) == value
    assert EXPR.encode(value) == raw


# ------------------------------------------------------------ real scripts


def _vector(name: str, has: str) -> dict[str, Any]:
    lines = (VECTORS / "octez-codec-007.jsonl").read_text().splitlines()
    rows: list[dict[str, Any]] = [json.loads(line) for line in lines]
    (row,) = [r for r in rows if r["encoding_name"] == f"007-PsDELPH1.{name}" and has in r["json"]]
    return row


def test_the_origination_script_of_the_007_vectors() -> None:
    row = _vector("operation.internal", "script")
    script = delphi.SCRIPT.from_json(row["json"]["script"])
    raw = delphi.SCRIPT.encode(script)
    # the script is the operation's last field
    assert row["hex"].endswith(raw.hex())
    assert raw.hex() == (
        "00000020020000001b050003680501056303680502020000000a03160346053d036d0342"
        "0000000e0200000009010000000474657374"
    )
    assert delphi.SCRIPT.to_json(delphi.SCRIPT.decode(raw)) == row["json"]["script"]
    assert script["storage"] == [{"string": "test"}]


def test_the_transaction_parameters_of_the_007_vectors() -> None:
    row = _vector("operation.internal", "parameters")
    value = row["json"]["parameters"]["value"]
    raw = delphi.SCRIPT_LAZY_EXPR.encode(delphi.SCRIPT_LAZY_EXPR.from_json(value))
    assert raw.hex() == "000000070200000002034f"
    assert row["hex"].endswith(raw.hex())


def test_the_big_map_diff_expressions_of_the_007_vectors() -> None:
    lines = (VECTORS / "octez-codec-007.jsonl").read_text().splitlines()
    rows = [r for r in map(json.loads, lines) if r["encoding_name"].endswith("big_map_diff")]
    found = [
        (diff[key], EXPR.encode(EXPR.from_json(diff[key])).hex(), row["hex"])
        for row in rows
        for diff in row["json"]
        for key in ("key_type", "value_type", "key", "value")
        if key in diff
    ]
    assert [(j, h) for j, h, _ in found] == [
        ([{"prim": "nat"}], "02000000020362"),
        ([{"prim": "unit"}], "0200000002036c"),
        ([{"int": "1"}], "02000000020001"),
        ([{"prim": "UNIT"}], "0200000002034f"),
    ]
    assert all(h in whole for _, h, whole in found)


# ------------------------------------------------------------ packed data

PACKED = [
    # (JSON, packed hex, the node client's Script-expression-ID-Hash): from the
    # 007 client's regression tests (the pair: test_hash_consistency_michelson_cli)
    # and from tezt's hash_data outputs (values whose bytes no protocol changed)
    (
        {
            "prim": "Pair",
            "args": [
                {"int": "22220000000"},
                {"prim": "Pair", "args": [{"int": "1513140540"}, {"int": "34"}]},
            ],
        },
        "0507070080acd2c6a501070700bcc485a30b0022",
        "expruenXhGp5JQoHJTGv4DzBR8Zm3HGvea8Q8BaMPywsY2bxrHAEgC",
    ),
    ({"int": "1"}, "050001", "expru2dKqDfZG8hu4wNGkiyunvq2hdSKuVYtcKta7BWP6Q18oNxKjS"),
    ({"int": "-1"}, "050041", "expru57wdzZCHCeGnKwUzxCJjG1HjveGXp1CCusScXEMq9kbidSvDG"),
    (
        {"int": "-9223372036854775808"},
        "0500c0808080808080808002",
        "exprv3Fy2Seq49zs6JYAGd9zGkFFqiACPjyyHf3sCZFFRnxVvYKUPz",
    ),
    ({"prim": "False"}, "050303", "exprvDnoPjyKeR9FSnvwYg5a1v6mDyB6TmnATwWySSP6VmJxrzQb9E"),
    (
        [{"prim": "True"}, {"prim": "False"}],
        "050200000004030a0303",
        "exprvAgoBrfufCNYoqAjdTcW2zD965bvLPD76xT7bVBNSn9SU6UgVd",
    ),
    (
        {"bytes": "abcdef42"},
        "050a00000004abcdef42",
        "exprtbzFhHQHhmEMHRqKi6k1fzAQYiVtuCXauZvM1VrN1p8iJLhJeG",
    ),
]

_EXPR_PREFIX = bytes([13, 44, 64, 27])
"""The Base58Check prefix of a script expression hash (``expr``)."""


@pytest.mark.parametrize(("json", "hex", "hash"), PACKED)
def test_packed_data_and_its_script_expression_hash(json: Any, hex: str, hash: str) -> None:
    value = EXPR.from_json(json)
    raw = pack(EXPR, value)
    assert raw.hex() == hex
    assert unpack(EXPR, raw) == value
    assert delphi.SCRIPT_PACKED.encode(value) == raw
    digest = hashlib.blake2b(raw, digest_size=32).digest()
    assert check_encode(_EXPR_PREFIX + digest) == hash


def test_pack_of_the_int_1_and_of_a_real_pair_of_lists() -> None:
    assert pack(EXPR, {"int": 1}) == bytes.fromhex("050001")
    # the 007 client's packunpack.tz: (Pair (Pair "toto" {3;7;9;1}) {1;2;3})
    raw = bytes.fromhex(
        "05070707070100000004746f746f020000000800030007000900010200000006000100020003"
    )
    assert unpack(EXPR, raw) == {
        "prim": "Pair",
        "args": [
            {"prim": "Pair", "args": [{"string": "toto"}, [{"int": n} for n in (3, 7, 9, 1)]]},
            [{"int": 1}, {"int": 2}, {"int": 3}],
        ],
    }


def _refusal(read: Any, data: Any) -> tuple[str, int | None, str]:
    with pytest.raises((DecodeError, JsonError, EncodeError)) as caught:
        read(data)
    err = caught.value
    return err.code, err.offset, format_path(err.path)


def test_unpack_refuses_what_the_interpreter_refuses() -> None:
    # the same data with two more bytes, which UNPACK refuses (the 007 test)
    raw = "05070707070100000004746f746f0200000008000300070009000102000000060001000200030004"
    assert _refusal(lambda h: unpack(EXPR, bytes.fromhex(h)), raw) == ("extra_bytes", 38, "$")
    # another first byte (an operation's watermark)
    assert _refusal(lambda h: unpack(EXPR, bytes.fromhex(h)), "030001") == (
        "unexpected_tag",
        0,
        "$",
    )
    assert _refusal(lambda h: unpack(EXPR, bytes.fromhex(h)), "") == ("not_enough_data", 0, "$")


def test_an_annotation_that_is_not_utf8_is_refused() -> None:
    # the 007 client's bad_annot test: "{ UNIT ; PAIR ; CAR %faa }" packed, its
    # last two bytes made 0xff (UNPACK returns None: the type checker refuses it)
    raw = bytes.fromhex("05020000000e034f03420416000000042566ffff")
    assert _refusal(lambda b: unpack(EXPR, b), raw) == ("invalid_utf8", 12, "$[2].annots")


# ------------------------------------------------------------ the strict reader

REFUSED = [
    # (hex, code, offset, path)
    ("094f0000000000000000", "not_canonical", 0, "$"),  # no args, no annots: tag 3
    ("044f00000000", "not_canonical", 0, "$"),  # annotations, but none: tag 3
    ("0965000000040362035b00000000", "not_canonical", 0, "$"),  # two args: tag 7
    ("09650000000403620362000000024061", "not_canonical", 0, "$"),  # two args, annots: 8
    ("0200000005094f000000", "not_enough_data", 7, "$[0].args"),  # args' size cut
    ("020000000a094f0000000000000000", "not_canonical", 5, "$[0]"),
    ("0b", "unexpected_tag", 0, "$"),
    ("0376", "no_case_matched", 1, "$.prim"),  # beyond the 118 primitives
    ("034f00", "extra_bytes", 2, "$"),
    ("0200000003034f", "not_enough_data", 1, "$"),
    ("044f00000100" + "61" * 256, "too_long", 2, "$.annots"),
    ("0040", "negative_zero", 1, "$.int"),
]


@pytest.mark.parametrize(("hex", "code", "offset", "path"), REFUSED)
def test_the_reader_refuses_precisely(hex: str, code: str, offset: int, path: str) -> None:
    assert _refusal(EXPR.decode, bytes.fromhex(hex)) == (code, offset, path)


def test_a_generic_form_is_refused_by_the_unions_rule() -> None:
    """Not a check of Micheline's own: the union's canonical-case rule, which
    compares the case read with the one ``written_with`` gives."""
    body = EXPR.body if isinstance(EXPR, Mu) else None
    assert isinstance(body, Splitted) and isinstance(body.binary, Union)
    checks = canonical(body.binary)
    assert checks is not None
    generic = {"prim": "UNIT", "args": [], "annots": []}
    assert [tag for tag, check in checks.items() if check({"prim": "UNIT"})] == [3]
    assert not checks[9](generic)
    with pytest.raises(DecodeError) as caught:
        EXPR.decode(bytes.fromhex("094f0000000000000000"))
    assert caught.value.message == (
        "not canonical: the value read with case 'Generic prim (any number of args with or "
        "without annot)' (tag 9) of union is written with another case"
    )


def test_a_primitive_of_babylon_is_unknown_to_athens() -> None:
    dig = bytes.fromhex("0570" + "0001")  # DIG 1
    assert babylon.SCRIPT_EXPR.decode(dig) == {"prim": "DIG", "args": [{"int": 1}]}
    assert _refusal(athens.SCRIPT_EXPR.decode, dig) == ("no_case_matched", 1, "$.prim")
    assert _refusal(athens.SCRIPT_EXPR.from_json, {"prim": "DIG"}) == (
        "no_case_matched",
        None,
        "$.prim",
    )
    with pytest.raises(EncodeError):
        athens.SCRIPT_EXPR.encode({"prim": "DIG"})


# ------------------------------------------------------------ values and JSON


def test_json_reads_empty_members_as_absent_ones() -> None:
    assert EXPR.from_json({"prim": "UNIT", "args": [], "annots": []}) == {"prim": "UNIT"}
    assert EXPR.from_json({"prim": "Some", "args": [{"int": "1"}], "annots": []}) == {
        "prim": "Some",
        "args": [{"int": 1}],
    }


@pytest.mark.parametrize(
    ("value", "path"),
    [
        ({"prim": "UNIT", "args": []}, "$.args"),
        ({"prim": "UNIT", "annots": []}, "$.annots"),
        ({"prim": "pair", "args": [{"int": 1}, {"int": 2}], "annots": []}, "$.annots"),
        ({"prim": "LAMBDA", "args": [{"int": 1}, {"int": 2}, []], "annots": []}, "$.annots"),
    ],
)
def test_a_value_with_an_empty_member_is_refused_alike(value: Any, path: str) -> None:
    """The decoder never makes one: encode, length and to_json refuse it at the member."""
    for convert in (EXPR.encode, EXPR.length, EXPR.to_json):
        assert _refusal(convert, value) == ("unexpected_field", None, path)


@pytest.mark.parametrize(
    ("annots", "code", "path"),
    [
        (["%a b"], "invalid_value", "$.annots[0]"),  # would read back as two
        ([""], "invalid_value", "$.annots"),  # would read back as none
        (["a" * 256], "too_long", "$.annots[0]"),
        (["%a", 5], "wrong_type", "$.annots[1]"),
    ],
)
def test_annotations_the_binary_form_cannot_hold_are_refused(
    annots: Any, code: str, path: str
) -> None:
    value = {"prim": "UNIT", "annots": annots}
    for convert in (EXPR.encode, EXPR.to_json, EXPR.from_json):
        assert _refusal(convert, value) == (code, None, path)


def test_a_node_of_no_kind_is_refused() -> None:
    for convert in (EXPR.encode, EXPR.to_json):
        assert _refusal(convert, {"nat": 1}) == ("no_case_matched", None, "$")
        assert _refusal(convert, ({"int": 1},)) == ("no_case_matched", None, "$")


# ------------------------------------------------------------ the protocols


def test_each_protocol_states_its_primitive_table() -> None:
    assert len(athens.PRIMITIVES) == 112
    assert athens.PRIMITIVES[:3] == ("parameter", "storage", "code")
    assert athens.PRIMITIVES[-2:] == ("address", "SLICE")
    assert babylon.PRIMITIVES[:112] == athens.PRIMITIVES
    assert babylon.PRIMITIVES[112:] == (
        "DIG",
        "DUG",
        "EMPTY_BIG_MAP",
        "APPLY",
        "chain_id",
        "CHAIN_ID",
    )
    assert carthage.PRIMITIVES is babylon.PRIMITIVES
    assert delphi.PRIMITIVES is carthage.PRIMITIVES
    assert babylon.SCRIPT_PRIM.encode("CHAIN_ID") == bytes([117])


def test_a_protocol_with_its_predecessors_table_has_its_encodings() -> None:
    names = ["SCRIPT", "SCRIPT_EXPR", "SCRIPT_PRIM", "SCRIPT_LAZY_EXPR", "SCRIPT_LOC"]
    for name in [*names, "SCRIPT_PACKED"]:
        assert getattr(delphi, name) is getattr(carthage, name) is getattr(babylon, name)
        if name != "SCRIPT_LOC":
            assert getattr(babylon, name) is not getattr(athens, name)
    assert athens.SCRIPT_LOC is babylon.SCRIPT_LOC


def test_the_binary_schema_names_the_references_fields() -> None:
    """The cases with one or two arguments are described as the reference
    describes them (``arg``, ``arg1`` and ``arg2``), the values holding ``args``."""
    text = EXPR.table()
    assert "Prim (2 args, no annot) (tag 7)" in text
    for field in ("arg1", "arg2", "annots"):
        assert f"| {field} " in text
    assert "micheline.michelson_v1.expression" in text
    assert "michelson.v1.primitives" in text
