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

The receipts of whole operations, as the block services answer them:

* ``contents_and_result``: a content with its ``metadata`` last, on the
  content's own tag (``operation.alpha.operation_contents_and_result``); a
  list of them holds one content or a batch of manager operations, as the
  contents do (:func:`~.operations.batched`);
* ``operation_with_metadata`` (the node's ``operation.data_and_metadata``):
  tag 0, the contents with their metadata (size-prefixed), tag 1, the
  contents without (the node kept no receipt); then the ``signature``,
  optional; in JSON and values, the first of the two that takes the
  contents;
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
from typing import Any, Generic, NotRequired, TypeAlias, TypedDict, TypeVar, cast

from ...errors import EncodeError
from ...jsonvalue import JsonValue
from ...tree.core import Encoding, publish
from ...tree.framing import check_size, dynamic_size
from ...tree.primitives import bool_, constant, empty, uint8, uint16
from ...tree.records import Field, dft, merge_objs, obj, opt, req
from ...tree.sequences import list_
from ...tree.unions import case, option, union
from ...tree.variable import list_ as variable_list
from ...tree.wrappers import conv, def_
from ...tree.zarith import n, z
from ..hashes import nonce_hash
from ..keys import public_key_hash
from ..signatures import Signature, signature
from .contracts import contract_id
from .micheline import Node
from .operations import MANAGER_KINDS, SINGLE_KINDS, Operations, batched
from .receipts import BALANCE_UPDATES
from .values import ERRORS, LEVEL, VOTING_PERIOD_KIND

__all__ = [
    "ERROR",
    "RESULT_IDS",
    "BlockHeaderMetadata",
    "ContentsAndResult",
    "InternalOperationResult",
    "Metadata",
    "OperationResult",
    "OperationWithMetadata",
    "Results",
    "build",
]

ERROR: Encoding[JsonValue] = ERRORS
"""An error in a receipt: any JSON (the protocol's ``errors``)."""

_ERRORS = list_(ERROR)

# The values below are dicts, their members as the module's notes list them.
# Which members a result or a metadata has depends on its status, its kind
# and its protocol (one ``TypedDict`` for each would be some thirty classes
# that say what the encodings check already), and no catalogue id types
# them one by one: only an operation with its receipt
# (:class:`OperationWithMetadata`) is a ``TypedDict``.

OperationResult: TypeAlias = dict[str, Any]
"""A manager operation's result: its ``status``; failed, its ``errors``;
applied or backtracked (then with its ``errors``, if any), its kind's
fields (``consumed_gas``...)."""

InternalOperationResult: TypeAlias = dict[str, Any]
"""An internal operation with its result: its ``kind``, ``source`` and
``nonce``, the kind's fields (as in the protocol's ``operation.internal``),
and its ``result`` (:data:`OperationResult`)."""

Metadata: TypeAlias = dict[str, Any]
"""A content's metadata: a manager operation's ``balance_updates``,
``operation_result`` and ``internal_operation_results``; an endorsement's
``balance_updates``, ``delegate`` and ``slots``; a seed nonce
revelation's, an evidence's or an activation's ``balance_updates``; for
proposals and ballots, ``{}``."""

ContentsAndResult: TypeAlias = dict[str, Any]
"""A content of the protocol's ``operation.contents``, with its ``metadata``
(:data:`Metadata`)."""

BlockHeaderMetadata: TypeAlias = dict[str, Any]
"""What the protocol says of a block it applied (``block_header.alpha.metadata``):
``baker``, ``level``, ``voting_period_kind``, ``nonce_hash`` (``None`` if
none), ``consumed_gas``, ``deactivated`` and ``balance_updates``."""


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


def _fields(milligas: bool, *fields: Field) -> Encoding[Any]:
    """A kind's result fields; from 007 on, its two gas counts checked
    against each other."""
    record = obj(*fields)
    return conv(_milligas_fit, _milligas_fit, record) if milligas else record


# ------------------------------------------------------------------ metadata

_BALANCE_UPDATES_METADATA = obj(req("balance_updates", BALANCE_UPDATES))
_SINGLE_METADATA: Mapping[str, Encoding[Metadata]] = {
    "endorsement": obj(
        req("balance_updates", BALANCE_UPDATES),
        req("delegate", public_key_hash),
        req("slots", list_(uint8)),
    ),
    "seed_nonce_revelation": _BALANCE_UPDATES_METADATA,
    "double_endorsement_evidence": _BALANCE_UPDATES_METADATA,
    "double_baking_evidence": _BALANCE_UPDATES_METADATA,
    "activate_account": _BALANCE_UPDATES_METADATA,
    "proposals": empty,
    "ballot": empty,
}
"""The metadata of the contents that are an operation's only one."""


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
    contents_result: Encoding[Metadata]
    #: ``operation.alpha.contents_list_result``
    contents_result_list: Encoding[list[Metadata]]
    #: ``operation.alpha.result``: the results, or ``{}`` (none kept)
    operation_metadata: Encoding[list[Metadata] | dict[str, Any]]
    #: ``operation.alpha.operation_contents_and_result``
    contents_and_result: Encoding[ContentsAndResult]
    #: the contents with their results: one, or a batch of manager operations
    contents_and_result_list: Encoding[list[ContentsAndResult]]
    #: ``operation.alpha.operation_with_metadata`` (``operation.data_and_metadata``)
    operation_with_metadata: Encoding[OperationWithMetadata[C]]
    #: ``block_header.alpha.metadata``
    block_metadata: Encoding[BlockHeaderMetadata]


def _with_metadata(operation: Any) -> bool:
    """Whether ``operation`` (a value or its JSON) holds its contents with
    their metadata, as its first content says: the case that reads it, and
    says what is wrong with the rest (a content without metadata among
    them, or a batch the protocol refuses), where trying both cases would
    end on the other's complaint about the metadata."""
    contents = operation.get("contents") if type(operation) is dict else None
    first = contents[0] if type(contents) is list and contents else None
    return type(first) is dict and "metadata" in first


def _without_metadata(operation: Any) -> bool:
    return not _with_metadata(operation)


def _operation_result(name: str, fields: Encoding[Any]) -> Encoding[OperationResult]:
    """``operation.alpha.operation_result.<name>``: the kind's result by its
    status, ``fields`` those of an applied one."""
    backtracked = obj(req("status", constant("backtracked")), opt("errors", _ERRORS))
    return def_(
        f"operation.alpha.operation_result.{name}",
        union(
            [
                case(0, "Applied", merge_objs(obj(req("status", constant("applied"))), fields)),
                case(1, "Failed", obj(req("status", constant("failed")), req("errors", _ERRORS))),
                case(2, "Skipped", obj(req("status", constant("skipped")))),
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
    applied = (
        _fields(milligas, *gas),
        _fields(
            milligas,
            opt("storage", expression),
            diff,
            *changes,
            *gas,
            *sizes,
            dft("allocated_destination_contract", bool_, False),
        ),
        _fields(
            milligas,
            *((diff,) if originations_diff else ()),
            *changes,
            *gas,
            *sizes,
        ),
        _fields(milligas, *gas),
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
            name: obj(
                req("balance_updates", BALANCE_UPDATES),
                req("operation_result", result),
                dft("internal_operation_results", list_(internal), []),
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
                    _with_metadata,
                    json_match=_with_metadata,
                ),
                case(
                    1,
                    "Operation_without_metadata",
                    obj(
                        req("contents", dynamic_size(operations.contents_list)),
                        opt("signature", signature),
                    ),
                    _without_metadata,
                    json_match=_without_metadata,
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
    block_metadata = def_(
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
