"""Every hash kind of the node's era (``node/prefixes.py``), known by its
name (issue 31): each spells its texts as the table says, has the node's
encoding, is a primitive of ``from_schema`` by its definition's name and
title, and a list of it rebuilds from its schema pair with its Base58 JSON."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from data_encoding import BinarySchema, Fixed, JsonError, from_schema, list_
from data_encoding.jsonvalue import JsonValue, loads
from data_encoding.node import hashes
from data_encoding.node.base58 import check_encode
from data_encoding.node.hashes import HASH_ENCODINGS, HASH_TYPES
from data_encoding.node.prefixes import HASH_KINDS, PREFIXES, Kind
from data_encoding.node.rebuilt import primitives
from data_encoding.passes.schema import values as bs
from golden import DESCRIBE_ANSWERS, VECTORS

KINDS = sorted(HASH_KINDS.items())
IDS = [kind for kind, _ in KINDS]

MESSAGE_RESULTS: list[JsonValue] = [
    # tezos/tezos-mirror, tezt/lib_tezos/constant.ml: tx_rollup_initial_message_result
    "txmr344vtdPzvWsfnoSd3mJ3MCFA5ehKLQs1pK9WGcX4FEACg1rVgC",
    # the same repository, tezt/tests/tx_rollup.ml: a commitment's message result
    "txmr2DouKqJu5o8KEVGe6gLoiw1J3krjsxhf6C2a1kDNTTr8BdKpf2",
]
"""Two message result hashes of Jakarta's transaction rollups, as the node's tests write them."""

REAL_TEXTS = {
    # tezos/tezos-mirror, tezt/lib_tezos/constant.ml (2022): the rollup tests' constants
    "tx_rollup_withdraw_list_hash": "txw1sFoLju3ySMAdY6v1dcHUMqJ4Zxc1kcynC8xkYgCmH6bpNSDhV",
    "tx_rollup_l2_address": "tz4MSfZsn6kMDczShy8PMeB628TNukn9hi2K",
    "bls12_381_public_key_hash": "tz4EECtMxAuJ9UDLaiMZH7G1GCFYUWsj8HZn",
    "bls12_381_public_key": (
        "BLpk1yUiLJ7RezbyViD5ZvWTfQndM3TRRYmvYWkUfH2EJqsLFnzzvpJss6pbuz3U1DDMpk8v16nV"
    ),
}
"""Texts of other kinds that the node's tests write, by kind."""


def _common_start(a: str, b: str) -> str:
    return a[: next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), len(a))]


@pytest.mark.parametrize(("kind", "row"), sorted(PREFIXES.items()), ids=sorted(PREFIXES))
def test_a_kinds_texts_start_and_end_as_the_table_says(kind: str, row: Kind) -> None:
    # the keys' and signatures' rows too: their decoders are made from the rows
    low = check_encode(row.prefix + bytes(row.size))
    high = check_encode(row.prefix + b"\xff" * row.size)
    assert (len(low), len(high)) == (row.length, row.length)
    assert _common_start(low, high) == row.text  # every text starts so, and no more


@pytest.mark.parametrize(("kind", "row"), KINDS, ids=IDS)
def test_a_kinds_type_is_made_of_its_row(kind: str, row: Kind) -> None:
    hash_type = HASH_TYPES[kind]
    assert (hash_type.kind, hash_type.name, hash_type.label) == (kind, row.name, row.title)
    assert (hash_type.prefix, hash_type.size, hash_type.text_prefix) == (
        row.prefix,
        row.size,
        row.text,
    )


@pytest.mark.parametrize(("kind", "row"), KINDS, ids=IDS)
def test_a_kinds_encoding_is_the_nodes(kind: str, row: Kind) -> None:
    e = HASH_ENCODINGS[kind]
    assert e.describe() == BinarySchema(
        bs.Obj((bs.NamedField(row.name, Fixed(row.size), bs.Bytes()),)), ()
    )
    schema = e.json_schema()
    assert isinstance(schema, dict) and isinstance(schema["definitions"], dict)
    assert schema["$ref"] == f"#/definitions/{row.name}"
    assert schema["definitions"][row.name] == {
        "title": f"{row.title} (Base58Check-encoded)",
        "$ref": "#/definitions/unistring",
    }
    for payload in (bytes(row.size), b"\xff" * row.size):
        text = check_encode(row.prefix + payload)
        value = e.from_json(text)
        assert (type(value), value, e.encode(value)) == (HASH_TYPES[kind], payload, payload)
        assert (e.to_json(e.decode(payload)), str(value)) == (text, text)


@pytest.mark.parametrize(("kind", "row"), KINDS, ids=IDS)
def test_a_kind_is_a_primitive_by_its_name_and_title(kind: str, row: Kind) -> None:
    known = primitives()
    assert HASH_ENCODINGS[kind] in known.by_name[row.name]
    assert HASH_ENCODINGS[kind] in known.by_title[f"{row.title} (Base58Check-encoded)"]


@pytest.mark.parametrize(("kind", "row"), KINDS, ids=IDS)
def test_a_list_of_a_kind_rebuilds_with_its_base58_json(kind: str, row: Kind) -> None:
    # in a binary schema, a list of fixed-size bytes is a Seq of Bytes with
    # no size: only the JSON schema's definition names the kind, and its size
    hashes = list_(HASH_ENCODINGS[kind])
    rebuilt = from_schema(hashes.describe(), hashes.json_schema())
    texts: list[JsonValue] = [
        check_encode(row.prefix + bytes(row.size)),
        check_encode(row.prefix + b"\xff" * row.size),
    ]
    data = hashes.encode(hashes.from_json(texts))
    assert rebuilt.to_json(rebuilt.decode(data)) == texts
    assert rebuilt.encode(rebuilt.from_json(texts)) == data
    assert (rebuilt.describe(), rebuilt.json_schema()) == (hashes.describe(), hashes.json_schema())


def test_a_list_of_real_message_result_hashes_rebuilds() -> None:
    hashes = list_(HASH_ENCODINGS["tx_rollup_message_result_hash"])
    rebuilt = from_schema(hashes.describe(), hashes.json_schema())
    data = bytes.fromhex(
        "00000040"
        "971808f601eff6881d1e59d638127e03d6b2d2dc4c399bfb67dc5a99078fb6f8"
        "298406c38d3e3c057664bd80d18c0689022d301e6094db173abef16f4afd4607"
    )
    assert rebuilt.encode(rebuilt.from_json(MESSAGE_RESULTS)).hex() == data.hex()
    assert rebuilt.to_json(rebuilt.decode(data)) == MESSAGE_RESULTS


@pytest.mark.parametrize("kind", sorted(REAL_TEXTS))
def test_real_texts_read_and_print_back(kind: str) -> None:
    e = HASH_ENCODINGS[kind]
    text = REAL_TEXTS[kind]
    assert e.to_json(e.decode(e.encode(e.from_json(text)))) == text


def test_every_name_is_one_kinds() -> None:
    names = [row.name for row in PREFIXES.values()]
    assert len(names) == len(set(names)) == len(PREFIXES)
    assert len({t.__name__ for t in HASH_TYPES.values()}) == len(HASH_TYPES) == len(HASH_KINDS)


def test_a_zk_rollup_is_epx1_and_protocol_015s_zkr1_is_refused() -> None:
    e = HASH_ENCODINGS["zk_rollup_hash"]
    assert e.to_json(e.decode(bytes(20))) == "epx167kFzbPimsDbxUxJbQs4McVJvcd5F7fxC"
    lima = check_encode(bytes.fromhex("01ab54fb") + bytes(20))  # 015's prefix
    assert lima.startswith("zkr1")
    with pytest.raises(JsonError) as caught:
        e.from_json(lima)
    assert (caught.value.code, str(caught.value)) == (
        "invalid_base58",
        f"{lima!r} is not a Base58Check Zk_rollup_hash",
    )


def _base58_definitions(value: JsonValue) -> dict[str, Any]:
    """The definitions titled ``… (Base58Check-encoded)`` anywhere in ``value``."""
    found: dict[str, Any] = {}
    if isinstance(value, dict):
        definitions = value.get("definitions")
        if isinstance(definitions, dict):
            for name, definition in definitions.items():
                title = definition.get("title") if isinstance(definition, dict) else None
                if isinstance(title, str) and title.endswith(" (Base58Check-encoded)"):
                    found[name] = title
        for item in value.values():
            found.update(_base58_definitions(item))
    elif isinstance(value, list):
        for item in value:
            found.update(_base58_definitions(item))
    return found


def test_every_base58_definition_of_the_real_answers_is_known() -> None:
    found: dict[str, Any] = {}
    for name in DESCRIBE_ANSWERS:
        found.update(_base58_definitions(loads((VECTORS / name).read_text(encoding="utf-8"))))
    assert len(found) == 20
    known = primitives()
    for name, title in sorted(found.items()):
        assert name in known.by_name, name
        assert [e for e in known.by_name[name] if e in known.by_title[title]], (name, title)


def test_a_made_kinds_values_and_encoding_pickle_by_name() -> None:
    e = HASH_ENCODINGS["tx_rollup_message_result_hash"]
    value = e.from_json(MESSAGE_RESULTS[0])
    assert repr(value) == f"TxRollupMessageResultHash({MESSAGE_RESULTS[0]!r})"
    assert repr(e) == "hashes.tx_rollup_message_result_hash"
    again = pickle.loads(pickle.dumps(value))
    assert (type(again), again) == (type(value), value)
    assert pickle.loads(pickle.dumps(e)) is e is vars(hashes)["tx_rollup_message_result_hash"]
