"""Operation receipts of protocols 004-007 (``apply_results.ml``): what
applying an operation did, and a block's own metadata; one construction,
given each protocol's operations and differences by the protocol's module
(:func:`build`).

A manager operation's result (``operation.alpha.operation_result.<kind>``)
is a union on a one-byte tag, told apart by its ``status``:

===  ===========  =====================================================
tag  status       its fields
===  ===========  =====================================================
0    applied      the kind's fields (below)
1    failed       ``errors``: why
2    skipped      none: an earlier operation of its batch failed
3    backtracked  ``errors`` (optional), then the kind's fields: it was
                  applied, then undone when a later one failed
===  ===========  =====================================================

The kind's fields, all but ``storage`` and ``big_map_diff`` with a default
(written always in binary, left out of the JSON when they hold it):

* every kind: ``consumed_gas`` (``z`` up to 006; from 007 on a natural,
  then ``consumed_milligas``, the same gas in milligas, of which it is the
  ceiling: a pair that disagrees is ``invalid_value``, where the reference
  fails an assertion);
* a transaction: ``storage`` (the contract's new storage), ``big_map_diff``,
  ``balance_updates``, ``originated_contracts``, then after the gas
  ``storage_size``, ``paid_storage_size_diff`` (``z``) and
  ``allocated_destination_contract`` (a bool);
* an origination: ``big_map_diff`` (from 005 on), ``balance_updates``,
  ``originated_contracts``, then after the gas ``storage_size`` and
  ``paid_storage_size_diff``.

A content's metadata is, for a manager operation, its ``balance_updates``
(the fees), its ``operation_result``, and the ``internal_operation_results``
of the operations its contract emitted (each its kind, ``source``,
``nonce``, the kind's fields and its ``result``; tags 0-3); for an
endorsement, its ``balance_updates``, ``delegate`` and ``slots`` (a list of
``uint8``); for a seed nonce revelation, evidence or an activation, its
``balance_updates``; for proposals and ballots, nothing (``{}``).

The receipts of the block services (the ``Operation_with_metadata`` ids):

* ``contents_and_result``: a content with its ``metadata`` last, on the
  content's own tag (``operation.alpha.operation_contents_and_result``); a
  list of them holds one content or a batch of manager operations, as the
  contents do (:func:`~.operations.batched`);
* ``operation_with_metadata`` (the node's ``operation.data_and_metadata``):
  tag 0, the contents with their metadata (size-prefixed), tag 1, the
  contents without (the node kept no receipt); then the ``signature``,
  optional; in JSON, the first of the two that reads the contents;
* ``operation_metadata`` (``operation.alpha.result``): tag 0, the results
  alone (each with its ``kind``, in a size-prefixed list: JSON, an array);
  tag 1, none (``{}``);
* ``block_metadata`` (``block_header.alpha.metadata``): the ``baker``,
  ``level``, ``voting_period_kind``, ``nonce_hash`` (or null),
  ``consumed_gas`` (a natural of at most 10 bytes up to 006; milligas from
  007 on), the ``deactivated`` delegates and the ``balance_updates``.

An error is the node's ``error``: any JSON, in binary the
:mod:`~data_encoding.tree.anyjson` encoding's BSON frame (the protocol's
``errors`` id, :data:`~.values.ERRORS`). Nodes released before July 2021
framed each one a second time (a uint30 size before it); the toolchain of
today, whose regression tests the 007 vectors come from, does not.

The protocols' toolchains register none of these ids; the node's later
toolchains register ``operation.data_and_metadata``, the name it has here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, NotRequired, TypeAlias, TypedDict, TypeVar, cast

from ...errors import EncodeError
from ...jsonvalue import JsonValue
from ...tree.core import Encoding, publish
from ...tree.framing import check_size, dynamic_size
from ...tree.primitives import bool_, constant, empty, uint8, uint16
from ...tree.records import Field, dft, merge_objs, obj, opt, req
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import case, option, union
from ...tree.variable import list_ as variable_list
from ...tree.wrappers import conv, def_
from ...tree.zarith import n, z
from ..hashes import NonceHash, nonce_hash
from ..keys import PublicKeyHash, public_key_hash
from ..signatures import Signature, signature
from .contracts import ContractId, contract_id
from .micheline import Node
from .operations import MANAGER_KINDS, SINGLE_KINDS, Operations, batched
from .receipts import BALANCE_UPDATES, AthensBigMapUpdate, BalanceUpdate, BigMapAction
from .values import ERRORS, LEVEL, VOTING_PERIOD_KIND, Level, VotingPeriodKind

__all__ = [
    "ERROR",
    "RESULT_IDS",
    "AthensOriginationResult",
    "BalanceUpdatesMetadata",
    "BlockHeaderMetadata",
    "ContentsAndResult",
    "DelphiOriginationResult",
    "DelphiTransactionResult",
    "EndorsementMetadata",
    "Failed",
    "GasResult",
    "InternalOperationResult",
    "ManagerMetadata",
    "MilligasResult",
    "OperationResult",
    "OperationWithMetadata",
    "OriginationResult",
    "Results",
    "Skipped",
    "TransactionResult",
    "build",
]

ERROR: Encoding[JsonValue] = ERRORS
"""An error in a receipt: any JSON (the protocol's ``errors``)."""

_ERRORS = list_(ERROR)

# ------------------------------------------------------------------ the kinds' fields


class GasResult(TypedDict):
    """A reveal's or a delegation's result up to 006: the gas it used."""

    consumed_gas: int


class MilligasResult(GasResult):
    """A reveal's or a delegation's result from 007 on: its gas, whole and
    in milligas."""

    consumed_milligas: int


BigMapDiff: TypeAlias = list[AthensBigMapUpdate] | list[BigMapAction]
"""A protocol's ``contract.big_map_diff``: 004's, or the actions from 005 on."""


class TransactionResult(TypedDict):
    """A transaction's result up to 006."""

    storage: NotRequired[Node | None]
    big_map_diff: NotRequired[BigMapDiff | None]
    balance_updates: list[BalanceUpdate]
    originated_contracts: list[ContractId]
    consumed_gas: int
    storage_size: int
    paid_storage_size_diff: int
    allocated_destination_contract: bool


class DelphiTransactionResult(TransactionResult):
    consumed_milligas: int


class AthensOriginationResult(TypedDict):
    """An origination's result in 004: no big map diff."""

    balance_updates: list[BalanceUpdate]
    originated_contracts: list[ContractId]
    consumed_gas: int
    storage_size: int
    paid_storage_size_diff: int


class OriginationResult(AthensOriginationResult):
    """An origination's result in 005 and 006."""

    big_map_diff: NotRequired[BigMapDiff | None]


class DelphiOriginationResult(OriginationResult):
    consumed_milligas: int


class Failed(TypedDict):
    status: Literal["failed"]
    errors: list[JsonValue]


class Skipped(TypedDict):
    status: Literal["skipped"]


OperationResult: TypeAlias = dict[str, Any]
"""A manager operation's result: its ``status``; :class:`Failed` and
:class:`Skipped` as those say, applied and backtracked the fields of its
kind's result (:class:`TransactionResult`...) beside it, backtracked with
``errors`` too. (One ``TypedDict`` for each status, kind and protocol would
be 24 classes that say no more than the union does.)"""

InternalOperationResult: TypeAlias = dict[str, Any]
"""An internal operation with its result: its ``kind``, ``source`` and
``nonce``, the kind's fields (as :data:`~.operations.MANAGER_KINDS` in
the protocol's ``operation.internal``), and its ``result``
(:data:`OperationResult`)."""

ContentsAndResult: TypeAlias = dict[str, Any]
"""A content of the protocol's ``operation.contents`` with its
``metadata`` (:class:`ManagerMetadata`, :class:`EndorsementMetadata`,
:class:`BalanceUpdatesMetadata`, or ``{}``)."""


def _milligas_fit(fields: Any) -> Any:
    """``fields`` (a result's, from 007 on), unless its ``consumed_gas`` is
    not the ceiling of its ``consumed_milligas`` (in gas units: 1000
    milligas): the reference's reader fails an assertion on them."""
    if type(fields) is dict:
        gas, milligas = fields.get("consumed_gas"), fields.get("consumed_milligas")
        if type(gas) is int and type(milligas) is int and gas != -(-milligas // 1000):
            raise EncodeError(
                "invalid_value",
                f"consumed_gas {gas} is not the ceiling of consumed_milligas {milligas} "
                "(in units of 1000 milligas)",
            ).within("consumed_gas")
    return fields


def _gas(milligas: bool) -> tuple[Field, ...]:
    if milligas:
        return dft("consumed_gas", n, 0), dft("consumed_milligas", n, 0)
    return (dft("consumed_gas", z, 0),)


def _fields(value_type: type[Any], milligas: bool, *fields: Field) -> Encoding[Any]:
    """A kind's result fields, typed ``value_type``; from 007 on, its two gas
    counts checked against each other."""
    record = typed(value_type, obj(*fields))
    return conv(_milligas_fit, _milligas_fit, record) if milligas else record


# ------------------------------------------------------------------ metadata


class BalanceUpdatesMetadata(TypedDict):
    """A seed nonce revelation's, an evidence's or an activation's metadata."""

    balance_updates: list[BalanceUpdate]


class EndorsementMetadata(BalanceUpdatesMetadata):
    delegate: PublicKeyHash
    slots: list[int]


class ManagerMetadata(BalanceUpdatesMetadata):
    """A manager operation's metadata: its fees, its result, and those of the
    operations its contract emitted."""

    operation_result: OperationResult
    internal_operation_results: list[InternalOperationResult]


_BALANCE_UPDATES_METADATA = typed(
    BalanceUpdatesMetadata, obj(req("balance_updates", BALANCE_UPDATES))
)
_SINGLE_METADATA: Mapping[str, Encoding[Any]] = {
    "endorsement": typed(
        EndorsementMetadata,
        obj(
            req("balance_updates", BALANCE_UPDATES),
            req("delegate", public_key_hash),
            req("slots", list_(uint8)),
        ),
    ),
    "seed_nonce_revelation": _BALANCE_UPDATES_METADATA,
    "double_endorsement_evidence": _BALANCE_UPDATES_METADATA,
    "double_baking_evidence": _BALANCE_UPDATES_METADATA,
    "activate_account": _BALANCE_UPDATES_METADATA,
    "proposals": empty,
    "ballot": empty,
}
"""The metadata of the contents that are an operation's only one."""


class BlockHeaderMetadata(TypedDict):
    """What the protocol says of a block it applied (``block_header.alpha.metadata``)."""

    baker: PublicKeyHash
    level: Level
    voting_period_kind: VotingPeriodKind
    nonce_hash: NonceHash | None
    consumed_gas: int
    deactivated: list[PublicKeyHash]
    balance_updates: list[BalanceUpdate]


C = TypeVar("C")
"""A protocol's contents (the union of its kinds' ``TypedDict`` s)."""


class OperationWithMetadata(TypedDict, Generic[C]):
    """An operation's own part with its receipt
    (``operation.alpha.operation_with_metadata``): its contents each with
    its ``metadata``, or without when the node kept none."""

    contents: list[ContentsAndResult] | list[C]
    signature: NotRequired[Signature | None]


# ------------------------------------------------------------------ a protocol's receipts


@dataclass(frozen=True)
class Results(Generic[C]):
    """One protocol's receipts (see the module's notes), ``C`` its contents."""

    #: ``operation.alpha.operation_result.<kind>``, by manager kind
    operation_results: Mapping[str, Encoding[OperationResult]]
    #: ``operation.alpha.internal_operation_result``
    internal_operation_result: Encoding[InternalOperationResult]
    #: ``operation.alpha.contents_result``: a content's metadata, with its kind
    contents_result: Encoding[dict[str, Any]]
    #: ``operation.alpha.contents_list_result``
    contents_result_list: Encoding[list[dict[str, Any]]]
    #: ``operation.alpha.result``: the results, or ``{}`` (none kept)
    operation_metadata: Encoding[list[dict[str, Any]] | dict[str, Any]]
    #: ``operation.alpha.operation_contents_and_result``
    contents_and_result: Encoding[ContentsAndResult]
    #: the contents with their results: one, or a batch of manager operations
    contents_and_result_list: Encoding[list[ContentsAndResult]]
    #: ``operation.alpha.operation_with_metadata`` (``operation.data_and_metadata``)
    operation_with_metadata: Encoding[OperationWithMetadata[C]]
    #: ``block_header.alpha.metadata``
    block_metadata: Encoding[BlockHeaderMetadata]


def _operation_result(name: str, fields: Encoding[Any]) -> Encoding[OperationResult]:
    """``operation.alpha.operation_result.<name>``: the kind's result by its
    status, ``fields`` those of an applied one."""
    backtracked = obj(req("status", constant("backtracked")), opt("errors", _ERRORS))
    return def_(
        f"operation.alpha.operation_result.{name}",
        union(
            [
                case(0, "Applied", merge_objs(obj(req("status", constant("applied"))), fields)),
                case(
                    1,
                    "Failed",
                    typed(Failed, obj(req("status", constant("failed")), req("errors", _ERRORS))),
                ),
                case(2, "Skipped", typed(Skipped, obj(req("status", constant("skipped"))))),
                case(3, "Backtracked", merge_objs(backtracked, fields)),
            ]
        ),
    )


def build(
    operations: Operations[C, Any],
    *,
    expression: Encoding[Node],
    big_map_diff: Encoding[Any],
    originations_diff: bool,
    milligas: bool,
) -> Results[C]:
    """A protocol's receipts, from its ``operations`` and what sets it
    apart: Micheline ``expression`` (a transaction's new storage), its
    ``big_map_diff``, whether an origination's result has one
    (``originations_diff``: from 005 on), and whether its results count gas
    in ``milligas`` too (from 007 on)."""
    gas = _gas(milligas)
    changes = (
        dft("balance_updates", BALANCE_UPDATES, []),
        dft("originated_contracts", list_(contract_id), []),
    )
    sizes = (dft("storage_size", z, 0), dft("paid_storage_size_diff", z, 0))
    diff = opt("big_map_diff", big_map_diff)
    kinds: tuple[type[Any], type[Any], type[Any]]
    if milligas:
        kinds = (MilligasResult, DelphiTransactionResult, DelphiOriginationResult)
    elif originations_diff:
        kinds = (GasResult, TransactionResult, OriginationResult)
    else:
        kinds = (GasResult, TransactionResult, AthensOriginationResult)
    gas_only, transaction, origination = kinds
    applied = (
        _fields(gas_only, milligas, *gas),
        _fields(
            transaction,
            milligas,
            opt("storage", expression),
            diff,
            *changes,
            *gas,
            *sizes,
            dft("allocated_destination_contract", bool_, False),
        ),
        _fields(
            origination,
            milligas,
            *((diff,) if originations_diff else ()),
            *changes,
            *gas,
            *sizes,
        ),
        _fields(gas_only, milligas, *gas),
    )
    results = {
        name: _operation_result(name, fields)
        for name, fields in zip(MANAGER_KINDS, applied, strict=True)
    }
    internal = def_(
        "operation.alpha.internal_operation_result",
        union(
            [
                case(
                    tag,
                    name,
                    merge_objs(
                        obj(
                            req("kind", constant(name)),
                            req("source", contract_id),
                            req("nonce", uint16),
                        ),
                        merge_objs(own, obj(req("result", results[name]))),
                    ),
                )
                for tag, (name, own) in enumerate(
                    zip(MANAGER_KINDS, operations.manager_fields, strict=True)
                )
            ]
        ),
    )
    metadata = {
        **_SINGLE_METADATA,
        **{
            name: typed(
                ManagerMetadata,
                obj(
                    req("balance_updates", BALANCE_UPDATES),
                    req("operation_result", result),
                    dft("internal_operation_results", list_(internal), []),
                ),
            )
            for name, result in results.items()
        },
    }
    kinds_of = list(zip(operations.cases, (*SINGLE_KINDS, *MANAGER_KINDS), strict=True))
    contents_result = def_(
        "operation.alpha.contents_result",
        union(
            [
                case(c.tag, c.title, merge_objs(obj(req("kind", constant(name))), metadata[name]))
                for c, name in kinds_of
            ]
        ),
    )
    contents_result_list = def_(
        "operation.alpha.contents_list_result",
        batched(list_(contents_result), contents_result, "wrong_length"),
    )
    contents_and_result = def_(
        "operation.alpha.operation_contents_and_result",
        union(
            [
                case(c.tag, c.title, merge_objs(c.enc, obj(req("metadata", metadata[name]))))
                for c, name in kinds_of
            ]
        ),
    )
    contents_and_result_list = batched(
        variable_list(contents_and_result), contents_and_result, "not_enough_data"
    )
    with_metadata = def_(
        "operation.alpha.operation_with_metadata",
        union(
            [
                case(
                    0,
                    "Operation_with_metadata",
                    obj(
                        req("contents", dynamic_size(contents_and_result_list)),
                        opt("signature", signature),
                    ),
                ),
                case(
                    1,
                    "Operation_without_metadata",
                    obj(
                        req("contents", dynamic_size(operations.contents_list)),
                        opt("signature", signature),
                    ),
                ),
            ]
        ),
    )
    operation_metadata = def_(
        "operation.alpha.result",
        union(
            [
                case(0, "Operation_metadata", contents_result_list),
                case(1, "No_operation_metadata", empty),
            ]
        ),
    )
    block_metadata = typed(
        BlockHeaderMetadata,
        def_(
            "block_header.alpha.metadata",
            obj(
                req("baker", public_key_hash),
                req("level", LEVEL),
                req("voting_period_kind", VOTING_PERIOD_KIND),
                req("nonce_hash", option(nonce_hash)),
                req("consumed_gas", n if milligas else check_size(10, n)),
                req("deactivated", list_(public_key_hash)),
                req("balance_updates", BALANCE_UPDATES),
            ),
        ),
    )
    return Results(
        operation_results=results,
        internal_operation_result=internal,
        contents_result=contents_result,
        contents_result_list=contents_result_list,
        operation_metadata=operation_metadata,
        contents_and_result=contents_and_result,
        contents_and_result_list=contents_and_result_list,
        operation_with_metadata=cast(Encoding[OperationWithMetadata[C]], with_metadata),
        block_metadata=block_metadata,
    )


# ------------------------------------------------------------------ ids

RESULT_IDS = {
    "operation.data_and_metadata": (
        "an operation's own part with its receipt: each content with its metadata "
        "(or none kept), and its signature"
    ),
}
"""The receipt each protocol of 004-007 registers here, under the name the
node's later toolchains give it (its own toolchain registers none)."""


publish(__name__, globals())  # the encodings above pickle by reference
