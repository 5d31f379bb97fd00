"""What an operation's receipt says it did: balance updates, frozen balances
and big map changes (``delegate_storage.ml``, ``contract_storage.ml``).

* ``delegate.balance_updates``: a list of the balances an operation changed,
  each a contract's or one of a delegate's frozen ``rewards``, ``fees`` or
  ``deposits`` for a cycle (a union on a one-byte tag: contract 0, rewards
  1, fees 2, deposits 3), then the ``change`` in mutez (an ``int64``:
  negative for a debit; its JSON a decimal string). The same in 004-007.
* ``delegate.frozen_balance``: a delegate's frozen ``deposit``, ``fees`` and
  ``rewards`` (mutez); ``delegate.frozen_balance_by_cycles``: a list of
  them, each with its ``cycle`` first. The same in 004-007.
* ``contract.big_map_diff``: in 004, the one big map of a contract, a list
  of ``{key_hash, key, value}`` (no ``value``: the key was removed); from
  005 on, a list of actions on numbered big maps (``update`` 0, ``remove``
  1, ``copy`` 2, ``alloc`` 3, told apart by ``action``). Keys, values and
  types are Micheline expressions, with the protocol's primitives.

The names the node gives them (``operation_metadata.alpha.balance_updates``,
``contract.big_map_diff`` up to 006) are theirs here too: ``/describe``
shows them.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal, NotRequired, TypedDict, cast

from ...errors import EncodeError
from ...tree.core import Encoding, publish
from ...tree.primitives import constant, int64
from ...tree.records import merge_objs, obj, opt, req
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import case, union
from ...tree.wrappers import conv, def_
from ...tree.zarith import z
from ..hashes import ScriptExprHash, script_expr_hash
from ..keys import PublicKeyHash, public_key_hash
from .contracts import ContractId, contract_id
from .micheline import Node
from .tez import tez
from .values import CYCLE

__all__ = [
    "BALANCE_UPDATES",
    "FROZEN_BALANCE",
    "FROZEN_BALANCE_BY_CYCLES",
    "AthensBigMapUpdate",
    "BalanceUpdate",
    "BigMapAlloc",
    "BigMapCopy",
    "BigMapRemove",
    "BigMapUpdate",
    "ContractUpdate",
    "CycleFrozenBalance",
    "DepositsUpdate",
    "FeesUpdate",
    "FreezerUpdate",
    "FrozenBalance",
    "RewardsUpdate",
    "athens_big_map_diff",
    "big_map_diff",
]

# ------------------------------------------------------------------ balance updates


class ContractUpdate(TypedDict):
    kind: Literal["contract"]
    contract: ContractId
    change: int


class FreezerUpdate(TypedDict):
    """What a change of a delegate's frozen balance says beside its category."""

    kind: Literal["freezer"]
    delegate: PublicKeyHash
    cycle: int
    change: int


class RewardsUpdate(FreezerUpdate):
    category: Literal["rewards"]


class FeesUpdate(FreezerUpdate):
    category: Literal["fees"]


class DepositsUpdate(FreezerUpdate):
    category: Literal["deposits"]


BalanceUpdate = ContractUpdate | RewardsUpdate | FeesUpdate | DepositsUpdate

_NO_AMOUNT = -(2**63)


def _change(mutez: Any) -> Any:
    """``mutez``, unless it is -2^63, which no amount of tez is the opposite
    of (the protocol refuses it)."""
    if mutez == _NO_AMOUNT:
        raise EncodeError("out_of_range", f"a change of {mutez} mutez: no amount is its opposite")
    return mutez


def _freezer(tag: int, category: str) -> Any:
    return case(
        tag,
        category.capitalize(),
        obj(
            req("kind", constant("freezer")),
            req("category", constant(category)),
            req("delegate", public_key_hash),
            req("cycle", CYCLE),
        ),
    )


_BALANCE = def_(
    "operation_metadata.alpha.balance",
    union(
        [
            case(
                0, "Contract", obj(req("kind", constant("contract")), req("contract", contract_id))
            ),
            _freezer(1, "rewards"),
            _freezer(2, "fees"),
            _freezer(3, "deposits"),
        ]
    ),
)

_CHANGE = def_(
    "operation_metadata.alpha.balance_update",
    obj(req("change", conv(_change, _change, int64))),
)

BALANCE_UPDATES = cast(
    Encoding[list[BalanceUpdate]],
    def_("operation_metadata.alpha.balance_updates", list_(merge_objs(_BALANCE, _CHANGE))),
)
"""The balances an operation changed, and by how much (mutez)."""

# ------------------------------------------------------------------ frozen balances


class FrozenBalance(TypedDict):
    deposit: int
    fees: int
    rewards: int


class CycleFrozenBalance(FrozenBalance):
    cycle: int


FROZEN_BALANCE = typed(
    FrozenBalance, obj(req("deposit", tez), req("fees", tez), req("rewards", tez))
)

FROZEN_BALANCE_BY_CYCLES: Encoding[list[CycleFrozenBalance]] = list_(
    typed(CycleFrozenBalance, merge_objs(obj(req("cycle", CYCLE)), FROZEN_BALANCE))
)

# ------------------------------------------------------------------ big map diffs


class AthensBigMapUpdate(TypedDict):
    key_hash: ScriptExprHash
    key: Node
    value: NotRequired[Node | None]


class BigMapUpdate(TypedDict):
    action: Literal["update"]
    big_map: int
    key_hash: ScriptExprHash
    key: Node
    value: NotRequired[Node | None]


class BigMapRemove(TypedDict):
    action: Literal["remove"]
    big_map: int


class BigMapCopy(TypedDict):
    action: Literal["copy"]
    source_big_map: int
    destination_big_map: int


class BigMapAlloc(TypedDict):
    action: Literal["alloc"]
    big_map: int
    key_type: Node
    value_type: Node


@cache
def athens_big_map_diff(expression: Encoding[Node]) -> Encoding[list[AthensBigMapUpdate]]:
    """004's ``contract.big_map_diff``, keys and values Micheline
    ``expression``s (one encoding for each)."""
    update = obj(
        req("key_hash", script_expr_hash), req("key", expression), opt("value", expression)
    )
    return def_("contract.big_map_diff", list_(typed(AthensBigMapUpdate, update)))


@cache
def big_map_diff(
    expression: Encoding[Node], *, named: bool
) -> Encoding[list[BigMapUpdate | BigMapRemove | BigMapCopy | BigMapAlloc]]:
    """``contract.big_map_diff`` from 005 on, keys, values and types
    Micheline ``expression``s; ``named`` ``contract.big_map_diff`` (in
    ``/describe``) as 005 and 006 name it (one encoding for each)."""
    actions = list_(
        union(
            [
                case(
                    0,
                    "update",
                    typed(
                        BigMapUpdate,
                        obj(
                            req("action", constant("update")),
                            req("big_map", z),
                            req("key_hash", script_expr_hash),
                            req("key", expression),
                            opt("value", expression),
                        ),
                    ),
                ),
                case(
                    1,
                    "remove",
                    typed(BigMapRemove, obj(req("action", constant("remove")), req("big_map", z))),
                ),
                case(
                    2,
                    "copy",
                    typed(
                        BigMapCopy,
                        obj(
                            req("action", constant("copy")),
                            req("source_big_map", z),
                            req("destination_big_map", z),
                        ),
                    ),
                ),
                case(
                    3,
                    "alloc",
                    typed(
                        BigMapAlloc,
                        obj(
                            req("action", constant("alloc")),
                            req("big_map", z),
                            req("key_type", expression),
                            req("value_type", expression),
                        ),
                    ),
                ),
            ]
        )
    )
    return def_("contract.big_map_diff", actions) if named else actions


publish(__name__, globals())  # the encodings above pickle by reference
