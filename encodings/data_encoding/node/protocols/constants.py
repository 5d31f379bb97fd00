"""The protocols' constants, and the parameters a protocol is activated with.

``constants.fixed`` are what a protocol's code fixes, ``constants.parametric``
what its activation chooses (``constants_repr.ml``); ``constants`` is both,
in one record (the fixed fields first). ``parameters`` (``parameters_repr.ml``)
is what activates a protocol: a sandbox's bootstrap accounts, contracts and
commitments, then the parametric constants. Every integer that is an
``int64``, a Zarith number or an amount of mutez is a decimal string in JSON.

Over protocols 004-007:

* fixed: 007 renamed ``max_revelations_per_block`` ``max_anon_ops_per_block``;
* parametric: 005 added the quorum fields (``quorum_min``...
  ``delay_per_missing_endorsement``) at the end; 006 replaced
  ``block_reward`` by ``baking_reward_per_endorsement`` and made
  ``endorsement_reward`` a list (a reward by number of endorsements, or
  by priority); 007's gas limits are whole gas units, the same Zarith bytes;
* parameters: in 004 every parametric constant is optional (a missing one
  is the protocol's default); from 005 on they are all required.

004's optional constants are values as the bytes and JSON hold them: ``None``
where a field is absent, which the protocol reads as its default
(:data:`ATHENS_DEFAULTS`). The reference also writes a field equal to its
default as absent: here a value is written as given, so that bytes and JSON
read back to themselves (both forms read to the same constants in the node).

>>> ATHENS_FIXED.encode(ATHENS_FIXED.from_json({
...     "proof_of_work_nonce_size": 8, "nonce_length": 32, "max_revelations_per_block": 32,
...     "max_operation_data_length": 16384, "max_proposals_per_delegate": 20})).hex()
'0820200000400014'
"""

from __future__ import annotations

from functools import cache
from typing import Any, NotRequired, TypedDict

from ...tree.core import Encoding, publish
from ...tree.primitives import int31, int32, int64, uint8, uint16
from ...tree.records import dft, merge_objs, obj, opt, req, tup
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import case, union
from ...tree.zarith import z
from ..hashes import BlindedPublicKeyHash, blinded_public_key_hash
from ..keys import PublicKeyHash, public_key_hash
from ..signatures import PublicKey, public_key
from .micheline import Script
from .tez import tez

__all__ = [
    "ATHENS_CONSTANTS",
    "ATHENS_DEFAULTS",
    "ATHENS_FIXED",
    "ATHENS_PARAMETRIC",
    "ATHENS_PARAMETRIC_OPTIONS",
    "BABYLON_CONSTANTS",
    "BABYLON_PARAMETRIC",
    "CARTHAGE_CONSTANTS",
    "CARTHAGE_PARAMETRIC",
    "DELPHI_CONSTANTS",
    "DELPHI_FIXED",
    "AthensConstants",
    "AthensFixed",
    "AthensParameters",
    "AthensParametric",
    "AthensParametricOptions",
    "BabylonConstants",
    "BabylonParameters",
    "BabylonParametric",
    "BootstrapAccount",
    "BootstrapContract",
    "CarthageConstants",
    "CarthageParameters",
    "CarthageParametric",
    "Commitment",
    "DelphiConstants",
    "DelphiFixed",
    "FixedCommon",
    "ParametersCommon",
    "ParametricCommon",
    "Quorum",
    "athens_parameters",
    "babylon_parameters",
    "carthage_parameters",
]

# ------------------------------------------------------------------ fixed


class FixedCommon(TypedDict):
    proof_of_work_nonce_size: int
    nonce_length: int
    max_operation_data_length: int
    max_proposals_per_delegate: int


class AthensFixed(FixedCommon):
    max_revelations_per_block: int


class DelphiFixed(FixedCommon):
    max_anon_ops_per_block: int


def _fixed(anonymous_operations: str) -> Encoding[Any]:
    """The fixed constants, the third field named ``anonymous_operations``."""
    return obj(
        req("proof_of_work_nonce_size", uint8),
        req("nonce_length", uint8),
        req(anonymous_operations, uint8),
        req("max_operation_data_length", int31),
        req("max_proposals_per_delegate", uint8),
    )


ATHENS_FIXED = typed(AthensFixed, _fixed("max_revelations_per_block"))
"""004-006."""

DELPHI_FIXED = typed(DelphiFixed, _fixed("max_anon_ops_per_block"))
"""007."""

# ------------------------------------------------------------------ parametric


class ParametricCommon(TypedDict):
    """The parametric constants every protocol of 004-007 has."""

    preserved_cycles: int
    blocks_per_cycle: int
    blocks_per_commitment: int
    blocks_per_roll_snapshot: int
    blocks_per_voting_period: int
    time_between_blocks: list[int]
    endorsers_per_block: int
    hard_gas_limit_per_operation: int
    hard_gas_limit_per_block: int
    proof_of_work_threshold: int
    tokens_per_roll: int
    michelson_maximum_type_size: int
    seed_nonce_revelation_tip: int
    origination_size: int
    block_security_deposit: int
    endorsement_security_deposit: int
    cost_per_byte: int
    hard_storage_limit_per_operation: int
    test_chain_duration: int


class AthensParametric(ParametricCommon):
    block_reward: int
    endorsement_reward: int


class Quorum(TypedDict):
    """The voting and endorsement fields 005 added."""

    quorum_min: int
    quorum_max: int
    min_proposal_quorum: int
    initial_endorsers: int
    delay_per_missing_endorsement: int


class BabylonParametric(AthensParametric, Quorum):
    pass


class CarthageParametric(ParametricCommon, Quorum):
    baking_reward_per_endorsement: list[int]
    endorsement_reward: list[int]


_CYCLES = (
    ("preserved_cycles", uint8),
    ("blocks_per_cycle", int32),
    ("blocks_per_commitment", int32),
    ("blocks_per_roll_snapshot", int32),
    ("blocks_per_voting_period", int32),
    ("time_between_blocks", list_(int64)),
    ("endorsers_per_block", uint16),
    ("hard_gas_limit_per_operation", z),
    ("hard_gas_limit_per_block", z),
    ("proof_of_work_threshold", int64),
    ("tokens_per_roll", tez),
    ("michelson_maximum_type_size", uint16),
    ("seed_nonce_revelation_tip", tez),
    ("origination_size", int31),
    ("block_security_deposit", tez),
    ("endorsement_security_deposit", tez),
)
_ATHENS_REWARDS = (("block_reward", tez), ("endorsement_reward", tez))
_CARTHAGE_REWARDS = (
    ("baking_reward_per_endorsement", list_(tez)),
    ("endorsement_reward", list_(tez)),
)
_STORAGE = (
    ("cost_per_byte", tez),
    ("hard_storage_limit_per_operation", z),
    ("test_chain_duration", int64),
)
_QUORUM = (
    ("quorum_min", int32),
    ("quorum_max", int32),
    ("min_proposal_quorum", int32),
    ("initial_endorsers", uint16),
    ("delay_per_missing_endorsement", int64),
)
"""The parametric constants' fields, in their order, by stretches that
protocols kept or changed."""

_ATHENS = _CYCLES + _ATHENS_REWARDS + _STORAGE


def _required(fields: tuple[tuple[str, Encoding[Any]], ...]) -> Encoding[Any]:
    return obj(*(req(name, e) for name, e in fields))


ATHENS_PARAMETRIC = typed(AthensParametric, _required(_ATHENS))
BABYLON_PARAMETRIC = typed(BabylonParametric, _required(_ATHENS + _QUORUM))
CARTHAGE_PARAMETRIC = typed(
    CarthageParametric, _required(_CYCLES + _CARTHAGE_REWARDS + _STORAGE + _QUORUM)
)
"""006-007."""


class AthensParametricOptions(TypedDict):
    """004's parametric constants as its parameters give them: each may be
    absent (``None``), for the protocol's default (:data:`ATHENS_DEFAULTS`)."""

    preserved_cycles: NotRequired[int | None]
    blocks_per_cycle: NotRequired[int | None]
    blocks_per_commitment: NotRequired[int | None]
    blocks_per_roll_snapshot: NotRequired[int | None]
    blocks_per_voting_period: NotRequired[int | None]
    time_between_blocks: NotRequired[list[int] | None]
    endorsers_per_block: NotRequired[int | None]
    hard_gas_limit_per_operation: NotRequired[int | None]
    hard_gas_limit_per_block: NotRequired[int | None]
    proof_of_work_threshold: NotRequired[int | None]
    tokens_per_roll: NotRequired[int | None]
    michelson_maximum_type_size: NotRequired[int | None]
    seed_nonce_revelation_tip: NotRequired[int | None]
    origination_size: NotRequired[int | None]
    block_security_deposit: NotRequired[int | None]
    endorsement_security_deposit: NotRequired[int | None]
    block_reward: NotRequired[int | None]
    endorsement_reward: NotRequired[int | None]
    cost_per_byte: NotRequired[int | None]
    hard_storage_limit_per_operation: NotRequired[int | None]
    test_chain_duration: NotRequired[int | None]


ATHENS_PARAMETRIC_OPTIONS = typed(
    AthensParametricOptions, obj(*(opt(name, e) for name, e in _ATHENS))
)
"""004's parametric constants in its parameters: each field optional (a
presence byte; absent in JSON)."""

ATHENS_DEFAULTS: AthensParametric = {
    "preserved_cycles": 5,
    "blocks_per_cycle": 4096,
    "blocks_per_commitment": 32,
    "blocks_per_roll_snapshot": 256,
    "blocks_per_voting_period": 32768,
    "time_between_blocks": [60, 75],
    "endorsers_per_block": 32,
    "hard_gas_limit_per_operation": 800_000,
    "hard_gas_limit_per_block": 8_000_000,
    "proof_of_work_threshold": 2**46 - 1,
    "tokens_per_roll": 8_000_000_000,
    "michelson_maximum_type_size": 1000,
    "seed_nonce_revelation_tip": 125_000,
    "origination_size": 257,
    "block_security_deposit": 512_000_000,
    "endorsement_security_deposit": 64_000_000,
    "block_reward": 16_000_000,
    "endorsement_reward": 2_000_000,
    "cost_per_byte": 1_000,
    "hard_storage_limit_per_operation": 60_000,
    "test_chain_duration": 32768 * 60,
}
"""004's defaults (``Constants_repr.default``): what an absent constant of
its parameters stands for. Amounts in mutez."""

# ------------------------------------------------------------------ both


class AthensConstants(AthensFixed, AthensParametric):
    pass


class BabylonConstants(AthensFixed, BabylonParametric):
    pass


class CarthageConstants(AthensFixed, CarthageParametric):
    pass


class DelphiConstants(DelphiFixed, CarthageParametric):
    pass


ATHENS_CONSTANTS = typed(AthensConstants, merge_objs(ATHENS_FIXED, ATHENS_PARAMETRIC))
BABYLON_CONSTANTS = typed(BabylonConstants, merge_objs(ATHENS_FIXED, BABYLON_PARAMETRIC))
CARTHAGE_CONSTANTS = typed(CarthageConstants, merge_objs(ATHENS_FIXED, CARTHAGE_PARAMETRIC))
DELPHI_CONSTANTS = typed(DelphiConstants, merge_objs(DELPHI_FIXED, CARTHAGE_PARAMETRIC))


# ------------------------------------------------------------------ parameters

BootstrapAccount = tuple[PublicKey, int] | tuple[PublicKeyHash, int]
"""An account and its balance (mutez), by its public key or, not revealed
yet, by its hash."""

_BOOTSTRAP_ACCOUNT: Encoding[BootstrapAccount] = union(
    [
        case(0, "Public_key_known", tup(public_key, tez)),
        case(1, "Public_key_unknown", tup(public_key_hash, tez)),
    ]
)


class BootstrapContract(TypedDict):
    delegate: PublicKeyHash
    amount: int
    script: Script


Commitment = tuple[BlindedPublicKeyHash, int]
"""A fundraiser's account (its blinded public key hash) and its amount (mutez)."""


class ParametersCommon(TypedDict):
    """What a protocol's parameters give before its constants."""

    bootstrap_accounts: list[BootstrapAccount]
    bootstrap_contracts: list[BootstrapContract]
    commitments: list[Commitment]
    security_deposit_ramp_up_cycles: NotRequired[int | None]
    no_reward_cycles: NotRequired[int | None]


class AthensParameters(ParametersCommon, AthensParametricOptions):
    pass


class BabylonParameters(ParametersCommon, BabylonParametric):
    pass


class CarthageParameters(ParametersCommon, CarthageParametric):
    pass


def _parameters(script: Encoding[Script], parametric: Encoding[Any]) -> Encoding[Any]:
    """Parameters: the bootstrap accounts, contracts (their ``script``s) and
    commitments, two optional cycle counts, then the ``parametric`` constants."""
    contract = obj(req("delegate", public_key_hash), req("amount", tez), req("script", script))
    return merge_objs(
        obj(
            req("bootstrap_accounts", list_(_BOOTSTRAP_ACCOUNT)),
            dft("bootstrap_contracts", list_(typed(BootstrapContract, contract)), []),
            dft("commitments", list_(tup(blinded_public_key_hash, tez)), []),
            opt("security_deposit_ramp_up_cycles", int31),
            opt("no_reward_cycles", int31),
        ),
        parametric,
    )


@cache
def athens_parameters(script: Encoding[Script]) -> Encoding[AthensParameters]:
    """004's ``parameters``, its contracts' scripts ``script``s (one
    encoding for each): every constant optional."""
    return typed(AthensParameters, _parameters(script, ATHENS_PARAMETRIC_OPTIONS))


@cache
def babylon_parameters(script: Encoding[Script]) -> Encoding[BabylonParameters]:
    """005's ``parameters`` (one encoding for each ``script``)."""
    return typed(BabylonParameters, _parameters(script, BABYLON_PARAMETRIC))


@cache
def carthage_parameters(script: Encoding[Script]) -> Encoding[CarthageParameters]:
    """006's and 007's ``parameters`` (one encoding for each ``script``)."""
    return typed(CarthageParameters, _parameters(script, CARTHAGE_PARAMETRIC))


publish(__name__, globals())  # the encodings above pickle by reference
