"""The Base58Check kinds of the node's era: data, one row per kind.

A row (:class:`Kind`) gives the bytes Base58Check writes before a payload
(its *prefix*), the payload's size, the characters every text of the kind
starts with and its length, and the kind's encoding as the reference's
``Helpers.MakeEncoder`` publishes it: the ``name`` of its JSON definition
(and of its field in binary schemas), and the ``title``, which the JSON
definition shows followed by ``" (Base58Check-encoded)"``.

Origin: the project's table of the kinds (its notes' ``hash-table.md``),
each row read from ``tezos/tezos-mirror`` (snapshot of 2026-08-21): the
``name``, ``title``, ``b58check_prefix`` and ``size`` of the module that
makes the kind, and the ``Base58.check_encoded_prefix`` assertion beside it,
which states the text's start and length. The files, by row group:

* shell: ``src/lib_crypto/<name>.ml`` (``block_hash.ml``, ...,
  ``crypto_box.ml``), ``src/lib_validation/block_validation.ml``
  (``shell_header_hash``), ``src/lib_crypto/bls.ml`` (BLS12-381);
* ``src/lib_crypto/smart_rollup_*.ml``, ``src/lib_crypto_dal/cryptobox.ml``
  (``DAL_commitment``), for the protocols from 018 on;
* the protocols' own, ``src/proto_NNN/lib_protocol/``: ``contract_hash.ml``,
  ``blinded_public_key_hash.ml``, ``nonce_hash.ml``, ``script_expr_hash.ml``,
  ``state_hash.ml``, ``block_payload_hash.ml``, ``tx_rollup_*.ml`` (with
  ``tx_rollup_prefixes.ml``), ``sc_rollup_*.ml``, ``zk_rollup_repr.ml``,
  ``dal_*.ml``.

Several names spell one prefix (``block_hash`` and ``shell_header_hash``;
``Tx_rollup_l2_address`` and ``Bls12_381.Public_key_hash``; the smart rollup
kinds of protocols 016-017, capitalised, and the same of ``lib_crypto``
from 018 on): each is a kind of its own, known by its name. Names are
case-sensitive (``commitment_hash``, a smart contract rollup's, is not
``Commitment_hash``, a transaction rollup's).

``Zk_rollup_hash`` has had two prefixes under one name and title: ``zkr1``
in protocol 015 alone and ``epx1`` from 016 on (to alpha). A schema pair
cannot tell them apart (the binary form is the same 20 bytes, the JSON
schema a string), so one is chosen: ``epx1``, the prefix of every protocol
since 015, and a ``zkr1…`` text is refused. Little is lost: 015's mainnet
constants leave zk rollups disabled
(``src/proto_015_PtLimaPt/lib_parameters/default_parameters.ml``,
``zk_rollup = {enable = false; ...}``), so its ``zkr1…`` addresses exist on
test networks only.

Left out, as no node of the era shows them as a definition of their own:
the public key hashes of each curve (:mod:`.keys` reads them in both
address families), secret keys, ML-DSA-44 (octez 25, 2026), the unions of
several curves (``Signature.V0.Public_key_hash``... beyond the 2019
``Signature.*`` that :mod:`.keys` and :mod:`.signatures` read) and the
layer-2 daemons' kinds.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

__all__ = ["CURVE_KINDS", "HASH_KINDS", "PREFIXES", "Kind"]


class Kind(NamedTuple):
    """A Base58Check kind: ``prefix`` then ``size`` bytes make a text of
    ``length`` characters that starts with ``text``; its encoding's
    definition is ``name``, titled ``title`` (see the module's notes)."""

    prefix: bytes
    size: int
    text: str
    length: int
    name: str
    title: str


def _kind(prefix: str, size: int, text: str, length: int, name: str, title: str) -> Kind:
    return Kind(bytes.fromhex(prefix), size, text, length, name, title)


HASH_KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        # the shell's (src/lib_crypto/)
        "block_hash": _kind("0134", 32, "B", 51, "block_hash", "A block identifier"),
        "operation_hash": _kind("0574", 32, "o", 51, "Operation_hash", "A Tezos operation ID"),
        "operation_list_hash": _kind(
            "85e9", 32, "Lo", 52, "Operation_list_hash", "A list of operations"
        ),
        "operation_list_list_hash": _kind(
            "1d9f6d", 32, "LLo", 53, "Operation_list_list_hash", "A list of list of operations"
        ),
        "protocol_hash": _kind("02aa", 32, "P", 51, "Protocol_hash", "A Tezos protocol ID"),
        "context_hash": _kind("4fc7", 32, "Co", 52, "Context_hash", "A hash of context"),
        "block_metadata_hash": _kind(
            "eaf9", 32, "bm", 52, "Block_metadata_hash", "A Tezos block metadata ID"
        ),
        "operation_metadata_hash": _kind(
            "05b7", 32, "r", 51, "Operation_metadata_hash", "A Tezos operation metadata ID"
        ),
        "operation_metadata_list_hash": _kind(
            "8627", 32, "Lr", 52, "Operation_metadata_list_hash", "A list of operation metadata"
        ),
        "operation_metadata_list_list_hash": _kind(
            "1d9fb6",
            32,
            "LLr",
            53,
            "Operation_metadata_list_list_hash",
            "A list of list of operation metadata",
        ),
        "chain_id": _kind("575200", 4, "Net", 15, "Chain_id", "Network identifier"),
        "crypto_box_public_key_hash": _kind(
            "9967", 16, "id", 30, "Crypto_box.Public_key_hash", "A Cryptobox public key ID"
        ),
        "shell_header_hash": _kind(
            "0134", 32, "B", 51, "shell_header_hash", "A shell header identifier"
        ),
        # BLS12-381 (src/lib_crypto/bls.ml; the signature's name until octez 14, then after)
        "bls12_381_public_key_hash": _kind(
            "06a1a6", 20, "tz4", 36, "Bls12_381.Public_key_hash", "A Bls12_381 public key hash"
        ),
        "bls12_381_public_key": _kind(
            "069587cc", 48, "BLpk", 76, "Bls12_381.Public_key", "A Bls12_381 public key"
        ),
        "bls12_381_signature_v13": _kind(
            "28ab40cf", 96, "BLsig", 142, "Bls12_381.Signature", "A Bls12_381 signature"
        ),
        "bls12_381_signature": _kind(
            "28ab40cf", 96, "BLsig", 142, "Bls12_381_signature", "A Bls12_381 signature"
        ),
        # the protocols' (src/proto_NNN/lib_protocol/)
        "contract_hash": _kind("025a79", 20, "KT1", 36, "Contract_hash", "A contract ID"),
        "blinded_public_key_hash": _kind(
            "010231df", 20, "btz1", 37, "Blinded public key hash", "A blinded public key hash"
        ),
        "nonce_hash": _kind("45dca9", 32, "nce", 53, "cycle_nonce", "A nonce hash"),
        "script_expr_hash": _kind(
            "0d2c401b", 32, "expr", 54, "script_expr", "A script expression ID"
        ),
        "random_state_hash": _kind("4c40cc", 32, "rng", 53, "random", "A random generation state"),
        "block_payload_hash": _kind(
            "016af2", 32, "vh", 52, "value_hash", "Hash of a consensus value"
        ),
        # transaction rollups, 013-017
        "tx_rollup_hash": _kind("0180781f", 20, "txr1", 37, "Rollup_hash", "A rollup ID"),
        "tx_rollup_l2_address": _kind(
            "06a1a6",
            20,
            "tz4",
            36,
            "Tx_rollup_l2_address",
            "The hash of a BLS public key used to identify a L2 ticket holders",
        ),
        "tx_rollup_inbox_list_hash": _kind(
            "4f94c4", 32, "txi", 53, "Inbox_list_hash", "A merkle root hash for inboxes"
        ),
        "tx_rollup_inbox_message_hash": _kind(
            "4f951e",
            32,
            "txm",
            53,
            "Tx_rollup_inbox_message_hash",
            "The hash of a transaction rollup inbox\u2019s message",
        ),
        "tx_rollup_commitment_hash": _kind(
            "4f9411", 32, "txc", 53, "Commitment_hash", "A commitment ID"
        ),
        "tx_rollup_message_result_hash": _kind(
            "1207ce57", 32, "txmr", 54, "Message_result_hash", "A message result hash"
        ),
        "tx_rollup_message_result_list_hash": _kind(
            "4f9252",
            32,
            "txM",
            53,
            "Message_result_list_hash",
            "A merklised message result list hash",
        ),
        "tx_rollup_withdraw_list_hash": _kind(
            "4f9648", 32, "txw", 53, "Withdraw_list_hash", "A list of withdraw orders"
        ),
        "tx_rollup_context_hash": _kind(
            "118f13",
            32,
            "CTx",
            53,
            "tx_rollup_context_hash",
            "Hash of a transaction rollup context",
        ),
        # smart contract rollups, 013-015
        "sc_rollup_hash": _kind(
            "017684d9", 20, "scr1", 37, "Sc_rollup_hash", "A smart contract rollup address"
        ),
        "sc_rollup_commitment_hash": _kind(
            "11901564",
            32,
            "scc1",
            54,
            "commitment_hash",
            "The hash of a commitment of a smart contract rollup",
        ),
        "sc_rollup_state_hash": _kind(
            "11907aca",
            32,
            "scs1",
            54,
            "state_hash",
            "The hash of the VM state of a smart contract rollup",
        ),
        "sc_rollup_inbox_hash": _kind(
            "03faaeeed0",
            32,
            "scib1",
            55,
            "inbox_hash",
            "The hash of an inbox of a smart contract rollup",
        ),
        "sc_rollup_input_hash": _kind(
            "01767d87", 20, "scd1", 37, "Sc_rollup_input_hash", "A smart contract rollup input hash"
        ),
        # smart rollups: the protocols' of 016-017, then lib_crypto's from 018 on
        "smart_rollup_hash": _kind(
            "067c75", 20, "sr1", 36, "Smart_rollup_hash", "A smart rollup address"
        ),
        "smart_rollup_state_hash_016": _kind(
            "11a5ebf0",
            32,
            "srs1",
            54,
            "Smart_rollup_state_hash",
            "The hash of the VM state of a smart rollup",
        ),
        "smart_rollup_commitment_hash_016": _kind(
            "11a5868a",
            32,
            "src1",
            54,
            "Smart_rollup_commitment_hash",
            "The hash of a commitment of a smart rollup",
        ),
        "smart_rollup_inbox_hash_016": _kind(
            "03ff8a916e",
            32,
            "srib1",
            55,
            "Smart_rollup_inbox_hash",
            "The hash of an inbox of a smart rollup",
        ),
        "smart_rollup_merkelized_payload_hashes_hash_016": _kind(
            "03ff8a918c",
            32,
            "srib2",
            55,
            "Smart_rollup_merkelized_payload_hashes_hash",
            "The merkelized payload hashes' hash of the smart rollup inbox",
        ),
        "smart_rollup_serialized_message_hash": _kind(
            "03ff8a91aa",
            32,
            "srib3",
            55,
            "Smart_rollup_serialized_message_hash",
            "The hash of a serialized message of the smart rollup inbox.",
        ),
        "smart_rollup_input_hash": _kind(
            "01767d87", 20, "scd1", 37, "Smart_rollup_input_hash", "A smart rollup input hash"
        ),
        # the definition inside the reveal hash's union (tag 0, Reveal_data_hash_v0)
        "smart_rollup_reveal_hash": _kind(
            "e6ce80c8c4",
            32,
            "scrrh1",
            56,
            "Smart_rollup_reveal_data_blake2b_hash",
            "A smart rollup reveal hash",
        ),
        "smart_rollup_address_v17": _kind(
            "067c75", 20, "sr1", 36, "Smart_rollup_address", "A smart rollup address"
        ),
        "smart_rollup_address": _kind(
            "067c75", 20, "sr1", 36, "smart_rollup_address", "A smart rollup address"
        ),
        "smart_rollup_commitment_hash": _kind(
            "11a5868a",
            32,
            "src1",
            54,
            "smart_rollup_commitment_hash",
            "The hash of a commitment of a smart rollup",
        ),
        "smart_rollup_state_hash": _kind(
            "11a5ebf0",
            32,
            "srs1",
            54,
            "smart_rollup_state_hash",
            "The hash of the VM state of a smart rollup",
        ),
        "smart_rollup_inbox_hash": _kind(
            "03ff8a916e",
            32,
            "srib1",
            55,
            "smart_rollup_inbox_hash",
            "The hash of an inbox of a smart rollup",
        ),
        "smart_rollup_merkelized_payload_hashes_hash": _kind(
            "03ff8a918c",
            32,
            "srib2",
            55,
            "smart_rollup_merkelized_payload_hashes_hash",
            "The hash of the Merkelized payload hashes of a smart rollup inbox",
        ),
        # zk rollups (see the module's notes)
        "zk_rollup_hash": _kind(
            "0117e07d", 20, "epx1", 37, "Zk_rollup_hash", "A zk rollup address"
        ),
        # the data-availability layer: lib_crypto_dal's commitment, the protocols' hashes
        "dal_commitment": _kind(
            "0274b4", 48, "sh", 74, "DAL_commitment", "Commitment representation for the DAL"
        ),
        "dal_skip_list_content": _kind(
            "02e0485edb",
            32,
            "dash1",
            55,
            "dal_skip_list_content",
            "A hash to represent the content of a cell in the skip list",
        ),
        "dal_skip_list_pointer": _kind(
            "02e0487323",
            32,
            "dask1",
            55,
            "dal_skip_list_pointer",
            "A hash that represents the skip list pointers",
        ),
        "dal_attestation_hash": _kind(
            "380ca5", 32, "dba", 53, "Dal attestation hash", "Dal attestation hash"
        ),
        "dal_attestations_hash": _kind(
            "380ca5", 32, "dba", 53, "DAL attestations hash", "DAL attestations hash"
        ),
    }
)
"""Every hash kind, by the name of its encoding in :mod:`.hashes`."""


CURVE_KINDS: Final[Mapping[str, Kind]] = MappingProxyType(
    {
        "ed25519_public_key": _kind(
            "0d0f25d9", 32, "edpk", 54, "Ed25519.Public_key", "Ed25519 public key"
        ),
        "secp256k1_public_key": _kind(
            "03fee256", 33, "sppk", 55, "Secp256k1.Public_key", "A Secp256k1 public key"
        ),
        "p256_public_key": _kind(
            "03b28b7f", 33, "p2pk", 55, "P256.Public_key", "A P256 public key"
        ),
        "generic_signature": _kind(
            "04822b", 64, "sig", 96, "Signature", "A Ed25519, Secp256k1 or P256 signature"
        ),
        "ed25519_signature": _kind(
            "09f5cd8612", 64, "edsig", 99, "Ed25519", "An Ed25519 signature"
        ),
        "secp256k1_signature": _kind(
            "0d7365133f", 64, "spsig1", 99, "Secp256k1", "A Secp256k1 signature"
        ),
        "p256_signature": _kind("36f02c34", 64, "p2sig", 98, "P256", "A P256 signature"),
    }
)
"""The keys and signatures of the three curves, which :mod:`.signatures`
reads each as one type (a key of any curve, a signature in any spelling)."""


PREFIXES: Final[Mapping[str, Kind]] = MappingProxyType({**HASH_KINDS, **CURVE_KINDS})
"""Every kind (the reference's ``Base58.Prefix``, with the names and titles)."""
