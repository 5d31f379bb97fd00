"""The node's primitives: Base58Check hashes (``hashes``), RFC 3339
timestamps (``timestamp``) and the Base58Check codec under them.

Golden values are real ones (mainnet's genesis block and chain id, the
Babylon protocol, ...), checked once against pytezos' independent
implementation; schemas are compared with a real node's ``/describe``.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import data_encoding as de
from data_encoding import DecodeError, EncodeError, JsonError
from data_encoding.node.base58 import ALPHABET, check_decoder, check_encode, checksum
from data_encoding.node.hashes import (
    Base58Hash,
    BlockHash,
    ChainId,
    ContextHash,
    OperationHash,
    OperationListListHash,
    ProtocolHash,
    block_hash,
    chain_id,
    context_hash,
    operation_hash,
    operation_list_list_hash,
    protocol_hash,
)
from data_encoding.node.timestamp import (
    MAX_RFC3339,
    MIN_RFC3339,
    parse_rfc3339,
    parse_rfc3339_fields,
    print_rfc3339,
)
from golden import VECTORS

# ------------------------------------------------------------------ Base58


def naive_b58encode(raw: bytes) -> str:
    """Base58 the textbook way: one digit per division (an independent oracle)."""
    n = int.from_bytes(raw, "big")
    digits = ""
    while n:
        n, r = divmod(n, 58)
        digits = ALPHABET[r] + digits
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + digits


@given(
    st.binary(max_size=3)
    .map(lambda z: bytes(len(z)))
    .flatmap(lambda zeros: st.binary(max_size=40).map(lambda b: zeros + b))
)
def test_check_encode_is_textbook_base58check(data: bytes) -> None:
    text = check_encode(data)
    assert text == naive_b58encode(data + checksum(data))
    assert check_decoder(len(text), len(data) + 4)(text) == data
    assert check_decoder(len(text), len(data) + 4, data[:1])(text) == data[1:]


def test_checksum_is_double_sha256() -> None:
    # sha256(sha256(b"")) starts with 5df6e0e2
    assert checksum(b"") == bytes.fromhex("5df6e0e2")


@given(st.binary(min_size=1, max_size=40), st.data())
def test_every_one_character_change_is_refused(data: bytes, draw: st.DataObject) -> None:
    text = check_encode(data)
    decode = check_decoder(len(text), len(data) + 4)
    i = draw.draw(st.integers(0, len(text) - 1), label="position")
    c = draw.draw(st.sampled_from(ALPHABET.replace(text[i], "")), label="digit")
    changed = text[:i] + c + text[i + 1 :]
    # a changed text spells another number: its checksum (or size) gives it away,
    # except with probability 2^-32 per try
    assert decode(changed) is None


@pytest.mark.parametrize(
    "text",
    [
        "0" + check_encode(b"\x01\x02")[1:],  # 0 is not a digit
        "l" + check_encode(b"\x01\x02")[1:],  # nor l
        "é" + check_encode(b"\x01\x02")[1:],  # non-ASCII
        check_encode(b"\x01\x02") + "1",  # one character too many
        check_encode(b"\x01\x02")[:-1],  # one too few
    ],
)
def test_check_decoder_refuses(text: str) -> None:
    assert check_decoder(len(check_encode(b"\x01\x02")), 6)(text) is None


def test_leading_ones_are_zero_bytes_exactly() -> None:
    data = b"\x00\x00\x07"
    text = check_encode(data)
    assert text.startswith("11") and not text.startswith("111")
    assert check_decoder(len(text), 7)(text) == data
    # the same number with a zero byte fewer, one digit longer than it needs:
    # only a "1" can pad it, and a "1" is a zero byte the bytes do not have
    short = check_encode(b"\x00\x07")
    assert check_decoder(len(short) + 1, 6)("1" + short) is None


def test_a_number_too_large_for_the_size_is_refused() -> None:
    text = "z" * 10  # 58^10 - 1 needs 8 bytes
    assert check_decoder(10, 7)(text) is None


# ------------------------------------------------------------------ hashes

GOLDEN: list[tuple[de.Encoding[Any], type[Base58Hash], str, str]] = [
    (
        block_hash,
        BlockHash,
        "BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2",
        "8fcf233671b6a04fcf679d2a381c2544ea6c1ea29ba6157776ed8424c7ccd00b",
    ),
    (
        protocol_hash,
        ProtocolHash,
        "PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS",
        "3d0b4bacb5c3e152a167da26fefc266bd3a0e14fc4e41e6c53623bf482833da2",
    ),
    (
        protocol_hash,
        ProtocolHash,
        "PtCJ7pwoxe8JasnHY8YonnLYjcVHmhiARPJvqcC6VfHT5s8k8sY",
        "c25d8f2446ae4e33cf352b0d82d2fbed1f2df0528efbf22f31f21a052b2a9938",
    ),
    (chain_id, ChainId, "NetXdQprcVkpaWU", "7a06a770"),
    (
        context_hash,
        ContextHash,
        "CoVDyf9y9gHfAkPWofBJffo4X4bWjmehH2LeVonDcCKKzyQYwqdk",
        "4c7319284b55068bb7c4e0b9f8585729db7fb27ab4ca9cff2038a1fc324f650c",
    ),
    (
        operation_list_list_hash,
        OperationListListHash,
        "LLoZS2LW3rEi7KYU4ouBQtorua37aWWCtpDmv1n2x3xoKi6sVXLWp",
        "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8",
    ),
]


@pytest.mark.parametrize(("e", "cls", "text", "hex_"), GOLDEN, ids=lambda x: None)
def test_golden_hashes(e: de.Encoding[Any], cls: type[Base58Hash], text: str, hex_: str) -> None:
    raw = bytes.fromhex(hex_)
    value = e.from_json(text)
    assert type(value) is cls and value == raw
    assert str(value) == text and repr(value) == f"{cls.__name__}({text!r})"
    assert e.to_json(value) == text and e.to_json(raw) == text
    # the direct converters agree with the encoding that describes the JSON form
    json_side: de.Encoding[Any] = e.json  # type: ignore[attr-defined]
    assert json_side.to_json(value) == text and json_side.from_json(text) == value
    assert e.encode(value) == raw and e.encode(raw) == raw
    decoded = e.decode(raw)
    assert type(decoded) is cls and decoded == raw
    assert cls(text) == raw and cls(raw) == raw and type(cls(bytearray(raw))) is cls


def test_hash_constructor_refuses_a_wrong_size() -> None:
    with pytest.raises(ValueError, match="a BlockHash has 32 bytes, not 31"):
        BlockHash(bytes(31))


@pytest.mark.parametrize(
    ("e", "json_", "code", "message"),
    [
        # the genesis block's text, last character changed: bad checksum
        (
            block_hash,
            "BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW3",
            "invalid_base58",
            "'BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW3' is not a Base58Check block_hash",
        ),
        # a valid protocol hash is not a block hash (another prefix)
        (
            block_hash,
            "PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS",
            "invalid_base58",
            "'PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS' is not a Base58Check block_hash",
        ),
        (
            chain_id,
            "NetXdQprcVkpaW",
            "invalid_base58",
            "'NetXdQprcVkpaW' is not a Base58Check Chain_id",
        ),
        (chain_id, "", "invalid_base58", "'' is not a Base58Check Chain_id"),
        (chain_id, 7, "wrong_type", "expected a Base58Check Chain_id, got integer"),
        (
            chain_id,
            {"invalid_utf8_string": [255]},
            "wrong_type",
            "expected a Base58Check Chain_id, got object",
        ),
    ],
)
def test_hash_json_errors(e: de.Encoding[Any], json_: Any, code: str, message: str) -> None:
    with pytest.raises(JsonError) as info:
        e.from_json(json_)
    assert (info.value.code, str(info.value)) == (code, message)


HEADER = de.obj(
    de.req("level", de.int32),
    de.req("predecessor", block_hash),
    de.req("timestamp", de.timestamp.protocol),
    de.req("chain", chain_id),
)
GENESIS = bytes.fromhex(GOLDEN[0][3])


def test_hashes_in_a_record() -> None:
    value = {
        "level": 1,
        "predecessor": BlockHash(GENESIS),
        "timestamp": 0,
        "chain": ChainId(b"zzzz"),
    }
    data = HEADER.encode(value)
    assert data.hex() == "00000001" + GENESIS.hex() + "0000000000000000" + "7a7a7a7a"
    # plain bytes, and bytearray, are written as they are
    as_bytes = {**value, "predecessor": GENESIS, "chain": bytearray(b"zzzz")}
    assert HEADER.encode(as_bytes) == data
    decoded = HEADER.decode(data)
    assert decoded == value and type(decoded["predecessor"]) is BlockHash
    assert HEADER.to_json(value) == {
        "level": 1,
        "predecessor": "BLockGenesisGenesisGenesisGenesisGenesisf79b5d1CoW2",
        "timestamp": "1970-01-01T00:00:00Z",
        "chain": str(ChainId(b"zzzz")),
    }
    assert HEADER.from_json(HEADER.to_json(value)) == value


@pytest.mark.parametrize(
    ("value", "code", "path"),
    [
        ({"predecessor": GENESIS[:-1]}, "wrong_length", ("predecessor",)),
        ({"predecessor": str(BlockHash(GENESIS))}, "wrong_type", ("predecessor",)),
        ({"chain": b"zzzzz"}, "wrong_length", ("chain",)),
    ],
)
def test_hash_encode_errors(value: dict[str, Any], code: str, path: tuple[str, ...]) -> None:
    full = {"level": 1, "predecessor": GENESIS, "timestamp": 0, "chain": b"zzzz", **value}
    for convert in (HEADER.encode, HEADER.to_json):
        with pytest.raises(EncodeError) as info:
            convert(full)
        assert (info.value.code, info.value.path) == (code, path)


def test_hash_json_error_path() -> None:
    json_ = HEADER.to_json({"level": 1, "predecessor": GENESIS, "timestamp": 0, "chain": b"zzzz"})
    assert isinstance(json_, dict)
    with pytest.raises(JsonError) as info:
        HEADER.from_json({**json_, "chain": "NetXdQprcVkpaWV"})
    assert (info.value.code, info.value.path) == ("invalid_base58", ("chain",))


def test_hash_decode_errors() -> None:
    with pytest.raises(DecodeError) as info:
        block_hash.decode(bytes(31))
    assert (info.value.code, info.value.offset) == ("not_enough_data", 0)


def definitions(e: de.Encoding[Any]) -> dict[str, Any]:
    """The ``definitions`` of ``e``'s JSON schema."""
    schema: Any = e.json_schema()
    found: dict[str, Any] = schema["definitions"]
    return found


def _describe_mempool() -> dict[str, Any]:
    with open(VECTORS / "describe-mempool-2021.json") as f:
        tree: dict[str, Any] = json.load(f)
    return tree


def test_operation_hash_schemas_are_the_nodes() -> None:
    """The mempool's first ``post_service`` takes an ``Operation_hash``."""
    service = _describe_mempool()["static"]["subdirs"]["suffixes"][0]["tree"]["static"]
    expected = service["post_service"]["input"]
    assert operation_hash.json_schema() == expected["json_schema"]
    assert de.binary_schema.to_json(operation_hash.describe()) == expected["binary_schema"]


def test_hash_definitions_are_the_nodes() -> None:
    """A real node's JSON definitions of every hash (in the mempool's schemas)."""
    found: dict[str, Any] = {}

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            found.update(x.get("definitions", {}))
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(_describe_mempool())
    hashes: list[tuple[de.Encoding[Any], str]] = [
        (block_hash, "block_hash"),
        (operation_hash, "Operation_hash"),
        (operation_list_list_hash, "Operation_list_list_hash"),
        (protocol_hash, "Protocol_hash"),
        (context_hash, "Context_hash"),
    ]
    for e, name in hashes:
        assert definitions(e)[name] == found[name]
    # the field of a record shows the bytes, not the inner record
    assert de.binary_schema.to_json(de.obj(de.req("branch", block_hash)).describe()) == {
        "toplevel": {
            "fields": [
                {
                    "name": "branch",
                    "layout": {"kind": "Bytes"},
                    "data_kind": {"size": 32, "kind": "Float"},
                    "kind": "named",
                }
            ]
        },
        "fields": [],
    }


def test_hash_types_pickle() -> None:
    import pickle

    h = OperationHash(bytes(range(32)))
    back = pickle.loads(pickle.dumps(h))
    assert type(back) is OperationHash and back == h


# ------------------------------------------------------------------ timestamps

protocol = de.timestamp.protocol


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("2020-09-13T12:26:40Z", 1_600_000_000),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59Z", -1),
        ("2020-09-13t12:26:40z", 1_600_000_000),
        ("2020-09-13 12:26:40Z", 1_600_000_000),
        ("2020-09-13T14:26:40+02:00", 1_600_000_000),
        ("2020-09-13T10:56:40-01:30", 1_600_000_000),
        ("2020-09-13T12:26:40-00:00", 1_600_000_000),
        ("2020-09-13T12:26:40.999999Z", 1_600_000_000),
        ("1969-12-31T23:59:59.5Z", -1),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("0000-01-01T00:00:00Z", MIN_RFC3339),
        ("9999-12-31T23:59:59Z", MAX_RFC3339),
        ("1600000000", 1_600_000_000),
        ("-1", -1),
        ("9223372036854775807", 2**63 - 1),
    ],
)
def test_timestamp_from_json(text: str, seconds: int) -> None:
    assert protocol.from_json(text) == seconds


@pytest.mark.parametrize(
    "text",
    [
        "2019-02-29T00:00:00Z",  # not a leap year
        "1900-02-29T00:00:00Z",
        "2019-04-31T00:00:00Z",
        "2019-13-01T00:00:00Z",
        "2019-00-01T00:00:00Z",
        "2019-01-00T00:00:00Z",
        "2019-01-01T24:00:00Z",
        "2019-01-01T00:60:00Z",
        "2016-12-31T23:59:60Z",  # a leap second: refused (stricter)
        "2019-01-01T00:00:00",  # no offset
        "2019-01-01T00:00:00+1:00",
        "2019-01-01T00:00:00+24:00",
        "2019-01-01T00:00:00+00:60",
        "2019-01-01T00:00:00.Z",
        "2019-01-01T00:00Z",
        "19-01-01T00:00:00Z",
        "2019-01-01T00:00:00Z ",
        "\uff12\uff10\uff11\uff19-01-01T00:00:00Z",  # non-ASCII digits
        "2019-01-01X00:00:00Z",
        "",
        "007",
        "1e9",
        "9223372036854775808",
    ],
)
def test_timestamp_from_json_refuses(text: str) -> None:
    with pytest.raises(JsonError) as info:
        protocol.from_json(text)
    assert info.value.code == "invalid_timestamp"
    assert str(info.value) == f"{text[:40]!r} is neither an RFC 3339 date-time nor an int64"


def test_timestamp_from_json_wrong_type() -> None:
    with pytest.raises(JsonError) as info:
        protocol.from_json(1_600_000_000)
    assert (info.value.code, str(info.value)) == (
        "wrong_type",
        "expected an RFC 3339 date-time or an int64 decimal string, got integer",
    )


@pytest.mark.parametrize(
    ("seconds", "json_"),
    [
        (1_600_000_000, "2020-09-13T12:26:40Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (MIN_RFC3339, "0000-01-01T00:00:00Z"),
        (MAX_RFC3339, "9999-12-31T23:59:59Z"),
        (MIN_RFC3339 - 1, str(MIN_RFC3339 - 1)),  # no RFC 3339 form: the int64 string
        (MAX_RFC3339 + 1, str(MAX_RFC3339 + 1)),
        (2**63 - 1, "9223372036854775807"),
        (-(2**63), "-9223372036854775808"),
    ],
)
def test_timestamp_to_json(seconds: int, json_: str) -> None:
    assert protocol.to_json(seconds) == json_
    assert protocol.from_json(json_) == seconds


@pytest.mark.parametrize(
    ("value", "code"), [(2**63, "invalid_int"), (True, "wrong_type"), ("0", "wrong_type")]
)
def test_timestamp_to_json_errors(value: Any, code: str) -> None:
    """``to_json`` refuses what ``encode`` refuses, with its error (int64's)."""
    with pytest.raises(EncodeError) as info:
        protocol.to_json(value)
    assert info.value.code == code
    with pytest.raises(EncodeError) as binary:
        protocol.encode(value)
    assert (binary.value.code, binary.value.message) == (code, info.value.message)


def test_timestamp_binary() -> None:
    assert protocol.encode(1_600_000_000).hex() == "000000005f5e1000"
    assert protocol.decode(bytes.fromhex("ffffffffffffffff")) == -1


@given(
    st.integers(
        datetime.datetime(1, 1, 1).toordinal(), datetime.datetime(9999, 12, 31).toordinal()
    ),
    st.integers(0, 86_399),
)
def test_rfc3339_agrees_with_datetime(ordinal: int, second: int) -> None:
    moment = datetime.datetime.fromordinal(ordinal).replace(tzinfo=datetime.UTC)
    moment += datetime.timedelta(seconds=second)
    t = int(moment.timestamp())
    text = print_rfc3339(t)
    assert text == f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%SZ")
    assert parse_rfc3339(text) == t


def _digits(n: int) -> st.SearchStrategy[str]:
    return st.integers(0, 10**n - 1).map(lambda v: f"{v:0{n}d}")


@given(
    st.tuples(
        _digits(4),
        st.just("-"),
        _digits(2),
        st.just("-"),
        _digits(2),
        st.sampled_from("Tt "),
        _digits(2),
        st.just(":"),
        _digits(2),
        st.just(":"),
        _digits(2),
        st.sampled_from(["", "."]).flatmap(
            lambda dot: (
                st.just("") if not dot else st.integers(1, 12).flatmap(_digits).map(dot.__add__)
            )
        ),
        st.sampled_from(["Z", "z", "+", "-"]).flatmap(
            lambda z: (
                st.just(z)
                if z in "Zz"
                else st.tuples(_digits(2), _digits(2)).map(lambda hm: f"{z}{hm[0]}:{hm[1]}")
            )
        ),
    ).map("".join)
)
def test_rfc3339_fast_path_agrees_with_the_fields(text: str) -> None:
    """``fromisoformat`` (the fast path) reads what the field reader reads,
    and refuses what it refuses, on every text of RFC 3339's shape."""
    assert parse_rfc3339(text) == parse_rfc3339_fields(text)


@pytest.mark.parametrize(
    "text",
    [
        "1972-02-01t09:11:26Z",
        "1972-02-01T09:11:26z",
        "1972-02-01 09:11:26Z",
        "1972-02-01T09:11:26+00:00",
        "1972-02-01T10:11:26+01:00",
        "1972-02-01T09:11:26-00:00",
        "1972-02-01T09:11:26.9Z",
    ],
)
def test_rfc_bytes_hold_one_spelling(text: str) -> None:
    """JSON reads every RFC 3339 spelling of a moment, as the reference does;
    bytes hold only the one ``encode`` writes, so that bytes name one value
    (the fuzzer found ``t`` for ``T`` decoding, and re-encoding otherwise)."""
    assert de.timestamp.rfc.from_json(text) == 65_783_486
    with pytest.raises(DecodeError) as info:
        de.timestamp.rfc.decode(de.string.encode(text))
    assert (info.value.code, info.value.offset, info.value.path) == ("not_canonical", 0, ())
    assert info.value.message == f"{text!r} is written '1972-02-01T09:11:26Z' in bytes"
    canonical = de.string.encode("1972-02-01T09:11:26Z")
    assert de.timestamp.rfc.decode(canonical) == 65_783_486
    assert de.timestamp.rfc.encode(65_783_486) == canonical


@given(st.integers(-(2**63), 2**63 - 1))
def test_direct_timestamp_json_agrees_with_its_union(t: int) -> None:
    """The direct converters and the union that describes the form agree."""
    assert isinstance(protocol, de.Encoding)
    union = protocol.inner.json  # type: ignore[attr-defined]
    j = protocol.to_json(t)
    assert union.to_json(t) == j
    assert union.from_json(j) == t == protocol.from_json(j)
    assert protocol.from_json(str(t)) == union.from_json(str(t)) == t


def test_timestamp_schemas() -> None:
    assert definitions(protocol)["timestamp.protocol"] == {
        "description": "A timestamp as seen by the protocol: second-level precision, epoch based.",
        "oneOf": [{"$ref": "#/definitions/timestamp.rfc"}, {"$ref": "#/definitions/int64"}],
    }
    assert definitions(protocol)["timestamp.rfc"] == {
        "title": "RFC 3339 formatted timestamp",
        "description": "A date in RFC 3339 notation.",
        "$ref": "#/definitions/unistring",
    }
    assert de.binary_schema.to_json(de.obj(de.req("t", protocol)).describe()) == {
        "toplevel": {
            "fields": [
                {
                    "name": "t",
                    "layout": {"size": "Int64", "kind": "Int"},
                    "data_kind": {"size": 8, "kind": "Float"},
                    "kind": "named",
                }
            ]
        },
        "fields": [],
    }
