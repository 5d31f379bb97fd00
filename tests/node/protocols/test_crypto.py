"""The protocols' primitives: public keys, signatures, the protocols' hash
kinds, contract ids and amounts of tez (issue 29, branch ``crypto``).

Real values first: the bytes are cut out of the node toolchain's codec
vectors of protocol 007 (``tests/vectors/octez-codec-007.jsonl``, each test
says which record and which bytes), the keys of the three curves come from
the toolchain's own crypto vectors (``src/lib_crypto/test/
key_encoding_vectors.ml``: a key's text with its hash's, which
``blake2b-160`` of the key's bytes must give), and the curves' signature
texts from its tezt tests (``contract_onchain_opcodes.ml``,
``client_commands.ml``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
from functools import cache
from typing import Any

import pytest

import data_encoding as de
from data_encoding import DataEncodingError, DecodeError, EncodeError, JsonError
from data_encoding.node.hashes import (
    BlindedPublicKeyHash,
    ContractHash,
    NonceHash,
    ScriptExprHash,
    blinded_public_key_hash,
    contract_hash,
    nonce_hash,
    script_expr_hash,
)
from data_encoding.node.keys import (
    Ed25519PublicKeyHash,
    PublicKeyHash,
    ed25519_public_key_hash,
    output_family,
)
from data_encoding.node.protocols.contracts import ContractId, contract_id
from data_encoding.node.protocols.tez import MAX_MUTEZ, tez
from data_encoding.node.signatures import (
    Ed25519Signature,
    P256Signature,
    PublicKey,
    Secp256k1Signature,
    Signature,
    public_key,
    signature,
)
from golden import VECTORS


@cache
def records(name: str) -> list[tuple[Any, str]]:
    """The ``(json, hex)`` pairs of ``007-PsDELPH1.<name>`` in the codec vectors."""
    rows = [json.loads(line) for line in (VECTORS / "octez-codec-007.jsonl").open()]
    return [(r["json"], r["hex"]) for r in rows if r["encoding_name"] == f"007-PsDELPH1.{name}"]


def record(name: str, kind: str) -> tuple[Any, str]:
    """The first ``(json, hex)`` of ``name`` whose content is of ``kind``."""
    return next((j, h) for j, h in records(name) if j["contents"][0]["kind"] == kind)


def outcome(action: Any) -> tuple[str, str, int | None, tuple[Any, ...]]:
    with pytest.raises(DataEncodingError) as info:
        action()
    err = info.value
    return type(err).__name__, err.code, err.offset, err.path


# ------------------------------------------------------------ real values

SIGNATURE = "sigbQ5ZNvkjvGssJgoAnUAfY4Wvvg3QZqawBYB1j1VDBNTMBAALnCzRHWzer34bnfmzgHg3EvwdzQKdxgSghB897cono6gbQ"  # noqa: E501
SIGNATURE_HEX = records("operation")[0][1][-128:]  # its bytes, ending each operation


def test_signatures_of_the_operation_vectors() -> None:
    """Every signed operation ends with its 64 signature bytes: the last
    128 hex digits; their text is the generic ``sig…``."""
    for j, h in records("operation"):
        raw = bytes.fromhex(h[-128:])
        assert j["signature"] == SIGNATURE
        value = signature.decode(raw)
        assert type(value) is Signature
        assert signature.to_json(value) == SIGNATURE
        assert signature.encode(signature.from_json(SIGNATURE)) == raw


def test_public_key_of_the_reveal_vector() -> None:
    """A reveal's last field is its public key: tag 00 and 32 bytes, the
    last 66 hex digits of the ``operation.unsigned`` reveal."""
    j, h = record("operation.unsigned", "reveal")
    text = j["contents"][0]["public_key"]
    raw = bytes.fromhex(h[-66:])
    assert raw.hex() == "004798d2cc98473d7e250c898885718afd2e4efbcb1a1595ab9730761ed830de0f"
    key = public_key.decode(raw)
    assert (type(key), key.curve, str(key), public_key.to_json(key)) == (
        PublicKey,
        "ed25519",
        text,
        text,
    )
    assert public_key.encode(public_key.from_json(text)) == raw


def test_ed25519_public_key_hash_of_the_activation_vector() -> None:
    """``activate_account``: the branch (32 bytes), tag 04, then the
    Ed25519 public key hash (20 bytes, hex digits 66 to 106)."""
    j, h = record("operation.unsigned", "activate_account")
    assert h[64:66] == "04"
    raw = bytes.fromhex(h[66:106])
    value = ed25519_public_key_hash.decode(raw)
    assert type(value) is Ed25519PublicKeyHash
    with output_family("tezos"):
        assert ed25519_public_key_hash.to_json(value) == j["contents"][0]["pkh"]
    assert ed25519_public_key_hash.to_json(value) == "dn1a8V6DRnGC5B2EnARBd3g2UXKcj6zrBYFK"
    assert value.b58check("tezos") == "tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv"
    for text in ("tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv", "dn1a8V6DRnGC5B2EnARBd3g2UXKcj6zrBYFK"):
        assert ed25519_public_key_hash.encode(ed25519_public_key_hash.from_json(text)) == raw


def test_blinded_public_key_hash_of_the_activation_vector() -> None:
    """The commitment an activation redeems: ``blake2b-160`` of the Ed25519
    hash keyed by the activation secret (``Blinded_public_key_hash.of_ed25519_pkh``).
    No vector prints a ``btz1…`` text: this one is derived from the real
    activation, in the prefix and length the protocols check (``btz1``, 37)."""
    j, h = record("operation.unsigned", "activate_account")
    secret = bytes.fromhex(j["contents"][0]["secret"])
    assert h[106:] == secret.hex()
    blinded = hashlib.blake2b(bytes.fromhex(h[66:106]), digest_size=20, key=secret).digest()
    value = blinded_public_key_hash.decode(blinded)
    text = blinded_public_key_hash.to_json(value)
    assert text == "btz1izBWhMBCBHpNkaYohQh5nybsBfhSsH1Gi"
    assert (type(value), len(text), blinded_public_key_hash.from_json(text)) == (
        BlindedPublicKeyHash,
        37,
        blinded,
    )


def test_nonce_hash_of_the_block_header_vector() -> None:
    """A header's ``seed_nonce_hash`` (present: ``ff``), then its signature:
    the 32 bytes before the last 64."""
    ((j, h),) = records("block_header")
    assert h[-194:-192] == "ff"
    raw = bytes.fromhex(h[-192:-128])
    value = nonce_hash.decode(raw)
    assert (type(value), nonce_hash.to_json(value)) == (NonceHash, j["seed_nonce_hash"])
    assert nonce_hash.encode(nonce_hash.from_json(j["seed_nonce_hash"])) == raw


def test_script_expr_hash_of_the_big_map_diff_vector() -> None:
    """A big map update: the list's size (4 bytes), tag 00, big map 0 (one
    byte of ``z``), then the key's hash (hex digits 12 to 76)."""
    ((j, h),) = [(j, h) for j, h in records("contract.big_map_diff") if j[0]["action"] == "update"]
    raw = bytes.fromhex(h[12:76])
    value = script_expr_hash.decode(raw)
    assert (type(value), script_expr_hash.to_json(value)) == (ScriptExprHash, j[0]["key_hash"])
    assert script_expr_hash.encode(script_expr_hash.from_json(j[0]["key_hash"])) == raw


@pytest.mark.parametrize("index", [0, 1])
def test_contract_vectors(index: int) -> None:
    """``007-PsDELPH1.contract``: an implicit and an originated contract."""
    j, h = records("contract")[index]
    raw = bytes.fromhex(h)
    value = contract_id.decode(raw)
    assert type(value) is ContractId
    assert value == raw  # the value is its 22 bytes
    with output_family("tezos"):
        assert contract_id.to_json(value) == j == str(value)
    assert contract_id.encode(contract_id.from_json(j)) == raw


def test_contract_parts() -> None:
    implicit = ContractId("tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx")
    originated = ContractId("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat")
    assert implicit.implicit == PublicKeyHash("tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx")
    assert (implicit.originated, originated.implicit) == (None, None)
    assert originated.originated == ContractHash("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat")
    assert contract_hash.encode(originated.originated) == originated[1:21]
    assert str(implicit) == "dn1GLMm5dMXRxCwqmkV22keRCcoWwrrani9F"
    assert implicit.b58check("tezos") == "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"
    # the node's own family is read too, and names the same bytes
    assert ContractId("dn1GLMm5dMXRxCwqmkV22keRCcoWwrrani9F") == implicit


def test_tez_vectors() -> None:
    for j, h in records("tez"):
        assert tez.to_json(tez.decode(bytes.fromhex(h))) == j
        assert tez.encode(tez.from_json(j)).hex() == h
    assert [(j, h) for j, h in records("tez")] == [("7322135", "97f4be03"), ("0", "00")]


def test_amounts_of_the_manager_vectors() -> None:
    """A manager operation: the branch (32 bytes), its tag, the source (21
    bytes), then fee, counter, gas and storage limits in Zarith ``n``, and
    for a transaction the amount, for an origination the balance."""
    n = de.n
    for kind, last in (("transaction", "amount"), ("origination", "balance")):
        j, h = record("operation.unsigned", kind)
        content, raw = j["contents"][0], bytes.fromhex(h)
        fee, pos = tez.decode_prefix(raw, 32 + 1 + 21)
        for _ in range(3):  # counter, gas limit, storage limit
            _, pos = n.decode_prefix(raw, pos)
        amount, end = tez.decode_prefix(raw, pos)
        assert (tez.to_json(fee), tez.to_json(amount)) == (content["fee"], content[last])
        assert tez.encode(amount) == raw[pos:end]
    assert tez.encode(84143).hex() == "af9105"


# ------------------------------------------------------------ every curve

KEYS = [
    # (curve, public key, its public key hash): key_encoding_vectors.ml, each first vector
    (
        "ed25519",
        "edpkufnz668CdgnVC4X5KRvJoXCMgicr29Tjmr5vxGzvMdipwkTZmM",
        "tz1SodoUsWVe1Yey9eMFbqRUtNpBWfir5NRr",
    ),
    (
        "secp256k1",
        "sppk7aFpmJLm3ZxMd3F4osvGBq77R1NeSpiJVnof3Wiv4mt84EBE9aX",
        "tz2SSuN7FRcAurZPSAQS1swNWE8xxf71MTjt",
    ),
    (
        "p256",
        "p2pk66Y3178eHvgWFA4CDsgGPhbkWtwrYCVUKJnsAi41eGP7MbHKv24",
        "tz3ZxowXGSjiVq227GQcwKdz87rKhq62rY4t",
    ),
]


@pytest.mark.parametrize(("curve", "text", "pkh"), KEYS, ids=[k[0] for k in KEYS])
def test_public_keys_of_every_curve(curve: str, text: str, pkh: str) -> None:
    key = public_key.from_json(text)
    tag, size = {"ed25519": (0, 32), "secp256k1": (1, 33), "p256": (2, 33)}[curve]
    raw = public_key.encode(key)
    assert (raw[0], len(raw), key.curve) == (tag, 1 + size, curve)
    if curve != "ed25519":
        assert raw[1] in (2, 3)  # a compressed point
    # the bytes are the key's: its hash is the vector's public key hash
    digest = hashlib.blake2b(raw[1:], digest_size=20).digest()
    assert PublicKeyHash(bytes((tag,)) + digest).b58check("tezos") == pkh
    assert public_key.decode(raw) == key and type(public_key.decode(raw)) is PublicKey
    assert public_key.to_json(public_key.decode(raw)) == text == str(key)
    assert PublicKey(raw) == PublicKey(text) == key
    assert public_key.length(key) == 1 + size


SIGNATURES = [
    (
        Ed25519Signature,
        "edsigtz68o4FdbpvycnAMDLaa7hpmmhjDxhx4Zu3QWHLYJtcY1mVhW9m6CCvsciFXwf1zLmah8fJP51cqaeaciBPGy5osH11AnR",
    ),
    (
        Secp256k1Signature,
        "spsig1PPUFZucuAQybs5wsqsNQ68QNgFaBnVKMFaoZZfi1BtNnuCAWnmL9wVy5HfHkR6AeodjVGxpBVVSYcJKyMURn6K1yknYLm",
    ),
    (
        P256Signature,
        "p2sigvgDSBnN1bUsfwyMvqpJA1cFhE5s5oi7SetJVQ6LJsbFrU2idPvnvwJhf5v9DhM9ZTX1euS9DgWozVw6BTHiK9VcQVpAU8",
    ),
]


@pytest.mark.parametrize(("cls", "text"), SIGNATURES, ids=[s[0].__name__ for s in SIGNATURES])
def test_signature_spellings(cls: type[Signature], text: str) -> None:
    """A curve's text is read as that curve's signature and written back so
    (as the environment does); its bytes say nothing of the curve: read
    from them, it is generic (``sig…``), and any spelling is asked for."""
    value = signature.from_json(text)
    assert type(value) is cls and cls.curve is not None
    assert signature.to_json(value) == text == str(value)
    raw = signature.encode(value)
    read = signature.decode(raw)
    assert type(read) is Signature and read == value
    generic = str(signature.to_json(read))
    assert generic.startswith("sig") and len(generic) == 96
    assert read.b58check(cls.curve) == text and read.b58check() == generic
    assert signature.from_json(generic) == value and type(signature.from_json(generic)) is Signature
    assert Signature(text) == value and type(Signature(text)) is cls


def test_a_signatures_every_spelling() -> None:
    value = Signature(SIGNATURE)
    texts = {curve: value.b58check(curve) for curve in (None, "ed25519", "secp256k1", "p256")}
    assert [t[:6] for t in texts.values()] == ["sigbQ5", "edsigt", "spsig1", "p2siga"]
    for curve, text in texts.items():
        read = signature.from_json(text)
        assert read == value and read.curve == curve
    with pytest.raises(ValueError, match="unknown curve"):
        value.b58check("bls")


# ------------------------------------------------------------ refusals

ED25519_KEY = bytes.fromhex("004798d2cc98473d7e250c898885718afd2e4efbcb1a1595ab9730761ed830de0f")


@pytest.mark.parametrize(
    ("e", "raw", "expected"),
    [
        # a public key: wrong tag, too short for its curve, one byte more
        (public_key, b"\x03" + ED25519_KEY[1:], ("DecodeError", "unexpected_tag", 0, ())),
        (public_key, ED25519_KEY[:-1], ("DecodeError", "not_enough_data", 1, ())),
        (public_key, ED25519_KEY + b"\x00", ("DecodeError", "extra_bytes", 33, ())),
        (public_key, b"\x01" + ED25519_KEY[1:], ("DecodeError", "not_enough_data", 1, ())),
        (public_key, b"", ("DecodeError", "not_enough_data", 0, ())),
        # a signature: 63 or 65 bytes
        (signature, bytes(63), ("DecodeError", "not_enough_data", 0, ())),
        (signature, bytes(65), ("DecodeError", "extra_bytes", 64, ())),
        # a contract: a tag neither 0 nor 1, a curve tag beyond P256, a
        # padding byte that is not zero, one byte short
        (contract_id, bytes.fromhex("02" + "00" * 21), ("DecodeError", "unexpected_tag", 0, ())),
        (contract_id, bytes.fromhex("0003" + "00" * 20), ("DecodeError", "unexpected_tag", 1, ())),
        (
            contract_id,
            bytes.fromhex("0138560805b4c8d7b7fbbafad5c59dbfa3878ca70501"),
            ("DecodeError", "invalid_padding", 21, ()),
        ),
        (contract_id, bytes.fromhex("01" + "00" * 20), ("DecodeError", "not_enough_data", 1, ())),
        # an Ed25519 public key hash: 19 bytes
        (ed25519_public_key_hash, bytes(19), ("DecodeError", "not_enough_data", 0, ())),
        # tez: 2^63 (beyond int64), an n of 11 bytes, a needless last byte
        (tez, bytes.fromhex("80808080808080808001"), ("DecodeError", "out_of_range", 0, ())),
        (tez, bytes.fromhex("ff" * 10 + "01"), ("DecodeError", "size_limit_exceeded", 10, ())),
        (tez, bytes.fromhex("8000"), ("DecodeError", "trailing_zero", 1, ())),
    ],
)
def test_decode_refusals(
    e: de.Encoding[Any], raw: bytes, expected: tuple[str, str, int, tuple[Any, ...]]
) -> None:
    assert outcome(lambda: e.decode(raw)) == expected


def _spoiled(text: str) -> str:
    """``text`` with its last character changed: a bad checksum."""
    return text[:-1] + ("1" if text[-1] != "1" else "2")


@pytest.mark.parametrize(
    ("e", "json_", "code"),
    [
        # bad checksums, every kind
        (public_key, _spoiled(KEYS[0][1]), "invalid_base58"),
        (public_key, _spoiled(KEYS[1][1]), "invalid_base58"),
        (public_key, _spoiled(KEYS[2][1]), "invalid_base58"),
        (signature, _spoiled(SIGNATURE), "invalid_base58"),
        # a curve's prefix is that curve's or nothing: no falling back to sig
        (signature, _spoiled(SIGNATURES[0][1]), "invalid_base58"),
        (signature, _spoiled(SIGNATURES[1][1]), "invalid_base58"),
        (signature, _spoiled(SIGNATURES[2][1]), "invalid_base58"),
        (contract_id, _spoiled("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"), "invalid_base58"),
        (contract_id, _spoiled("tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx"), "invalid_base58"),
        (
            nonce_hash,
            _spoiled("nceUFoeQDgkJCmzdMWh19ZjBYqQD3N9fe6bXQ1ZsUKKvMn7iun5Z3"),
            "invalid_base58",
        ),
        (
            ed25519_public_key_hash,
            _spoiled("tz1ddb9NMYHZi5UzPdzTZMYQQZoMub195zgv"),
            "invalid_base58",
        ),
        # texts of other kinds
        (public_key, "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx", "invalid_base58"),
        (signature, KEYS[0][1], "invalid_base58"),
        (contract_id, "btz1izBWhMBCBHpNkaYohQh5nybsBfhSsH1Gi", "invalid_base58"),
        (contract_hash, "tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx", "invalid_base58"),
        (ed25519_public_key_hash, "tz2SSuN7FRcAurZPSAQS1swNWE8xxf71MTjt", "invalid_base58"),
        (ed25519_public_key_hash, "KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat", "invalid_base58"),
        # not a string
        (public_key, 7, "wrong_type"),
        (signature, None, "wrong_type"),
        (contract_id, ["KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat"], "wrong_type"),
        # tez: beyond int64, negative, not a decimal string
        (tez, str(MAX_MUTEZ + 1), "out_of_range"),
        (tez, "-1", "out_of_range"),
        (tez, 7322135, "wrong_type"),
    ],
)
def test_json_refusals(e: de.Encoding[Any], json_: Any, code: str) -> None:
    assert outcome(lambda: e.from_json(json_)) == ("JsonError", code, None, ())


@pytest.mark.parametrize(
    ("e", "value", "code"),
    [
        (public_key, ED25519_KEY[:-1], "wrong_length"),
        (public_key, b"\x01" + ED25519_KEY[1:], "wrong_length"),  # a Secp256k1 key has 33 bytes
        (public_key, b"\x03" + ED25519_KEY[1:], "out_of_range"),
        (public_key, b"", "wrong_length"),  # no curve has it: the length, not the tag
        (public_key, "edpk", "wrong_type"),
        (signature, bytes(63), "wrong_length"),
        (
            contract_id,
            bytes.fromhex("0138560805b4c8d7b7fbbafad5c59dbfa3878ca70501"),
            "invalid_padding",
        ),
        (contract_id, bytes.fromhex("02" + "00" * 21), "out_of_range"),
        (contract_id, bytes.fromhex("0003" + "00" * 20), "out_of_range"),
        (contract_id, bytes(21), "wrong_length"),
        (tez, MAX_MUTEZ + 1, "out_of_range"),
        (tez, -1, "negative_natural"),
    ],
)
def test_encode_refusals(e: de.Encoding[Any], value: Any, code: str) -> None:
    """``encode`` and ``to_json`` refuse a bad value alike."""
    assert outcome(lambda: e.encode(value)) == ("EncodeError", code, None, ())
    assert outcome(lambda: e.to_json(value)) == ("EncodeError", code, None, ())


def test_tez_range() -> None:
    top = tez.encode(MAX_MUTEZ)
    assert top.hex() == "ffffffffffffffff7f"
    assert tez.decode(top) == MAX_MUTEZ and tez.to_json(MAX_MUTEZ) == "9223372036854775807"


@pytest.mark.parametrize(
    ("cls", "value"),
    [
        (PublicKey, b"\x00" + bytes(31)),
        (PublicKey, b"\x02" + bytes(32)),
        (PublicKey, b"\x03" + bytes(32)),
        (ContractId, bytes(21)),
        (ContractId, b"\x01" + bytes(20) + b"\x01"),
        (ContractId, b"\x00\x03" + bytes(20)),
        (ContractId, b"\x02" + bytes(21)),
    ],
)
def test_constructors_refuse_what_is_no_value(cls: type[bytes], value: bytes) -> None:
    with pytest.raises(ValueError):
        cls(value)


def test_text_constructors() -> None:
    assert PublicKey(KEYS[1][1]).curve == "secp256k1"
    assert repr(PublicKey(KEYS[2][1])) == f"PublicKey({KEYS[2][1]!r})"
    assert repr(ContractId("KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat")) == (
        "ContractId('KT1DieU51jzXLerQx5AqMCiLC1SsCeM8yRat')"
    )
    with pytest.raises(JsonError):
        PublicKey("edpk")
    assert ScriptExprHash(bytes(32)).text_prefix == "expr"


# ------------------------------------------------------------ how they read

PARTS = de.obj(
    de.req("source", contract_id),
    de.req("public_key", public_key),
    de.req("signature", signature),
)


def test_reads_are_generated_and_inlined() -> None:
    """The unions of keys and contracts read each case's bytes in their
    own generated code (a peeked tag, one ``struct`` run, the value's
    construction), calling no other reader; a signature's bytes are taken
    with the fields around it."""
    key_union = public_key.binary.inner.inner  # type: ignore[attr-defined]
    contract_union = contract_id.inner.binary.inner  # type: ignore[attr-defined]
    for union in (key_union, contract_union):
        source = inspect.getsource(union._read)
        assert "_unpack_leaf" in source and "_read" not in source
    decode = inspect.getsource(PARTS.decode)
    assert "64s" in decode


def test_a_record_of_them_round_trips() -> None:
    j, h = record("operation.unsigned", "reveal")
    value = {
        "source": ContractId(j["contents"][0]["source"]),
        "public_key": PublicKey(j["contents"][0]["public_key"]),
        "signature": Signature(SIGNATURE),
    }
    raw = PARTS.encode(value)
    assert raw.hex() == "00" + h[66:108] + h[-66:] + SIGNATURE_HEX
    assert PARTS.decode(raw) == value
    with output_family("tezos"):
        assert PARTS.decode_json(raw) == {
            "source": j["contents"][0]["source"],
            "public_key": j["contents"][0]["public_key"],
            "signature": SIGNATURE,
        }
    with pytest.raises(DecodeError) as info:
        PARTS.decode(raw[:-1])
    assert (info.value.code, info.value.path) == ("not_enough_data", ("signature",))
    with pytest.raises(EncodeError) as error:
        PARTS.encode({**value, "public_key": b"\x05" + bytes(32)})
    assert (error.value.code, error.value.path) == ("out_of_range", ("public_key",))
