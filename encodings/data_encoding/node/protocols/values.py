"""The protocols' small values: levels, cycles, votes, gas, seeds and nonces.

Each encoding here is one protocol's (the ``*_repr.ml`` modules of
``src/proto_00N_*/lib_protocol``), used as it is by every protocol whose
layout is the same; the protocol modules (:mod:`.athens`...) say which is
whose. Over protocols 004-007:

* ``roll``, ``cycle``, ``raw_level`` and ``voting_period`` are ``int32``
  (``voting_period`` became a record only with protocol 008); ``period``
  (seconds) is an ``int64``: JSON, a decimal string;
* ``level`` is the same seven-field record in all four;
* ``gas`` is a union of a Zarith number (the gas remaining; in milligas from
  007 on, the same bytes) and ``"unaccounted"``; ``gas.cost`` was a record
  of six Zarith counts up to 006 (:data:`ATHENS_GAS_COST`) and is one
  Zarith number of milligas from 007 on (:data:`DELPHI_GAS_COST`);
* ``vote.ballot`` is an ``int8`` in binary (0 yay, 1 nay, 2 pass) and its
  name in JSON;
* ``seed`` and ``nonce`` are 32 bytes (hex in JSON);
* ``fitness`` and ``timestamp`` are the shell's (:mod:`data_encoding.node.fitness`,
  ``timestamp.protocol``), ``errors`` any JSON (``rpc.error``).

The four ``int32`` ids are four encodings of their own, with ``int32``'s
bytes, JSON and schema: an encoding registered under an id names its bytes
in ``data-encoding slice``, and ``int32`` is every 32-bit integer of the
catalogue, not a cycle.

>>> LEVEL.encode({"level": 1331, "level_position": 1330, "cycle": 10, "cycle_position": 51,
...               "voting_period": 0, "voting_period_position": 1330,
...               "expected_commitment": False}).hex()
'00000533000005320000000a00000033000000000000053200'
>>> GAS.to_json(1238), GAS.encode("unaccounted").hex()
('1238', '01')
>>> VOTE_BALLOT.encode("pass").hex(), VOTE_BALLOT.to_json("pass")
('02', 'pass')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypedDict

from ...errors import DecodeError, EncodeError, describe_value
from ...jsonvalue import JsonValue
from ...tree.anyjson import json
from ...tree.core import Encoding, publish
from ...tree.fixed import bytes_
from ...tree.primitives import Int, bool_, constant, int8, int32, int64
from ...tree.records import obj, req
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import case, string_enum, union
from ...tree.wrappers import conv, splitted
from ...tree.zarith import z
from ..fitness import Fitness, fitness
from ..keys import PublicKeyHash, public_key_hash
from ..timestamp import protocol

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "ATHENS_GAS_COST",
    "CYCLE",
    "DELPHI_GAS_COST",
    "ERRORS",
    "FITNESS",
    "GAS",
    "LEVEL",
    "NONCE",
    "PERIOD",
    "RAW_LEVEL",
    "ROLL",
    "SEED",
    "TIMESTAMP",
    "VALUE_IDS",
    "VOTE_BALLOT",
    "VOTE_BALLOTS",
    "VOTE_LISTINGS",
    "VOTING_PERIOD",
    "VOTING_PERIOD_KIND",
    "AthensGasCost",
    "Ballot",
    "Ballots",
    "Level",
    "Listing",
    "VotingPeriodKind",
]


def _int32() -> Encoding[int]:
    """An encoding of its own with ``int32``'s bytes, JSON and schema."""
    return Int(int32.kind, "i", int32.lo, int32.hi)


ROLL = _int32()
CYCLE = _int32()
RAW_LEVEL = _int32()
VOTING_PERIOD = _int32()

PERIOD: Encoding[int] = int64
"""A duration in seconds."""

FITNESS: Encoding[Fitness] = fitness
TIMESTAMP: Encoding[int] = protocol
ERRORS: Encoding[JsonValue] = json
"""An error of the protocol: any JSON (``GET /errors`` lists their kinds)."""

SEED: Encoding[bytes] = bytes_(32)
"""A cycle's random seed (a 32-byte state hash)."""

NONCE: Encoding[bytes] = bytes_(32)
"""A seed nonce, revealed after its hash was committed in a block header."""

# ------------------------------------------------------------------ level


class Level(TypedDict):
    level: int
    level_position: int
    cycle: int
    cycle_position: int
    voting_period: int
    voting_period_position: int
    expected_commitment: bool


LEVEL = typed(
    Level,
    obj(
        req(
            "level",
            RAW_LEVEL,
            description="The level of the block relative to genesis. "
            "This is also the Shell's notion of level",
        ),
        req(
            "level_position",
            int32,
            description="The level of the block relative to the block that starts "
            "protocol alpha. This is specific to the protocol alpha. "
            "Other protocols might or might not include a similar notion.",
        ),
        req(
            "cycle",
            CYCLE,
            description="The current cycle's number. Note that cycles are a "
            "protocol-specific notion. As a result, the cycle number starts at 0 "
            "with the first block of protocol alpha.",
        ),
        req(
            "cycle_position",
            int32,
            description="The current level of the block relative to the first block "
            "of the current cycle.",
        ),
        req(
            "voting_period",
            VOTING_PERIOD,
            description="The current voting period's index. Note that cycles are a "
            "protocol-specific notion. As a result, the voting period index starts at 0 "
            "with the first block of protocol alpha.",
        ),
        req(
            "voting_period_position",
            int32,
            description="The current level of the block relative to the first block "
            "of the current voting period.",
        ),
        req(
            "expected_commitment",
            bool_,
            description="Tells wether the baker of this block has to commit a seed nonce hash.",
        ),
    ),
)
"""A block's level, and where it lies in its cycle and voting period."""

# ------------------------------------------------------------------ votes

VotingPeriodKind = Literal["proposal", "testing_vote", "testing", "promotion_vote"]

VOTING_PERIOD_KIND: Encoding[VotingPeriodKind] = union(
    [
        case(0, "Proposal", constant("proposal")),
        case(1, "Testing_vote", constant("testing_vote")),
        case(2, "Testing", constant("testing")),
        case(3, "Promotion_vote", constant("promotion_vote")),
    ]
)

Ballot = Literal["yay", "nay", "pass"]

_BALLOTS: tuple[Ballot, ...] = ("yay", "nay", "pass")


def _ballot_number(ballot: Ballot) -> int:
    try:
        return _BALLOTS.index(ballot)
    except ValueError:
        raise EncodeError(
            "no_case_matched", f"{describe_value(ballot)} is not one of 'yay', 'nay', 'pass'"
        ) from None


def _ballot_of_number(number: int) -> Ballot:
    if 0 <= number < len(_BALLOTS):
        return _BALLOTS[number]
    raise DecodeError("no_case_matched", f"ballot {number} is none of 0 (yay), 1 (nay), 2 (pass)")


def _ballots() -> SearchStrategy[Ballot]:
    from hypothesis import strategies as st

    return st.sampled_from(_BALLOTS)


VOTE_BALLOT: Encoding[Ballot] = splitted(
    json=string_enum(_BALLOTS),
    binary=conv(_ballot_number, _ballot_of_number, int8),
    values=_ballots,  # three of int8's 256 values
)
"""A ballot: an ``int8`` in binary (as the protocol writes it), its name in JSON."""

Ballots = TypedDict("Ballots", {"yay": int, "nay": int, "pass": int})
"""The rolls that voted each way (``pass`` is a Python keyword: no class syntax)."""

VOTE_BALLOTS = typed(Ballots, obj(req("yay", int32), req("nay", int32), req("pass", int32)))


class Listing(TypedDict):
    pkh: PublicKeyHash
    rolls: int


VOTE_LISTINGS: Encoding[list[Listing]] = list_(
    typed(Listing, obj(req("pkh", public_key_hash), req("rolls", int32)))
)
"""The delegates that may vote, with their rolls."""

# ------------------------------------------------------------------ gas

GAS: Encoding[int | Literal["unaccounted"]] = union(
    [case(0, "Limited", z), case(1, "Unaccounted", constant("unaccounted"))]
)
"""The gas an operation has left, or ``"unaccounted"``."""


class AthensGasCost(TypedDict):
    allocations: int
    steps: int
    reads: int
    writes: int
    bytes_read: int
    bytes_written: int


ATHENS_GAS_COST = typed(
    AthensGasCost,
    obj(
        req("allocations", z),
        req("steps", z),
        req("reads", z),
        req("writes", z),
        req("bytes_read", z),
        req("bytes_written", z),
    ),
)
"""A gas cost up to 006: the counts it weighs (``gas_limit_repr.ml``)."""

DELPHI_GAS_COST: Encoding[int] = z
"""A gas cost from 007 on: milligas."""

# ------------------------------------------------------------------ ids

VALUE_IDS = {
    "parameters": "the parameters a protocol is activated with (a sandbox's)",
    "tez": "an amount of mutez",
    "roll": "a roll's number",
    "fitness": "a block's fitness",
    "timestamp": "a protocol timestamp, second precision",
    "raw_level": "a block's level",
    "vote.ballot": "a ballot: yay, nay or pass",
    "vote.ballots": "the rolls that voted yay, nay and pass",
    "vote.listings": "the delegates that may vote, with their rolls",
    "seed": "a cycle's random seed",
    "gas": "the gas an operation has left, or unaccounted",
    "gas.cost": "a gas cost",
    "contract": "a contract: implicit (a public key hash) or originated (KT1)",
    "contract.big_map_diff": "the changes an operation made to big maps",
    "delegate.frozen_balance": "a delegate's frozen deposits, fees and rewards",
    "delegate.balance_updates": "the balances an operation changed, and by how much",
    "delegate.frozen_balance_by_cycles": "a delegate's frozen balances, by cycle",
    "level": "a block's level, and where it lies in its cycle and voting period",
    "period": "a duration in seconds",
    "cycle": "a cycle's number",
    "constants": "the protocol's constants, fixed and parametric",
    "constants.fixed": "the protocol's fixed constants",
    "constants.parametric": "the protocol's parametric constants",
    "nonce": "a seed nonce",
    "voting_period": "a voting period's index",
    "voting_period.kind": "the kind of a voting period",
    "errors": "an error of the protocol (any JSON; GET /errors lists their kinds)",
}
"""The ids of the values and receipts every protocol of 004-007 registers
(the ``Registration`` block of its client context), and their descriptions."""


publish(__name__, globals())  # the encodings above pickle by reference
