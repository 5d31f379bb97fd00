"""Operations of protocols 004-007 (``operation_repr.ml``): one construction,
given each protocol's differences by the protocol's module (:func:`build`).

An operation is the shell's header, its ``branch`` (the block it is meant
to apply on), then the protocol's part: its ``contents``, one content or a
batch of manager operations, then its ``signature`` (64 bytes). The
contents are not size-prefixed: as the reference's reader does, the reader
keeps the frame's last 64 bytes for the signature and reads contents up to
them.

A content is a union on a one-byte tag, told apart in values and JSON by
its ``kind`` member (first in its JSON object):

=====  ===========================  ================================================
tag    kind                         its fields
=====  ===========================  ================================================
0      endorsement                  level
1      seed_nonce_revelation        level, nonce (32 bytes)
2      double_endorsement_evidence  op1, op2: endorsements with their branch and
                                    signature, each size-prefixed
3      double_baking_evidence       bh1, bh2: block headers, each size-prefixed
4      activate_account             pkh (an Ed25519 key hash), secret (20 bytes)
5      proposals                    source, period, proposals
6      ballot                       source, period, proposal, ballot
M      reveal                       the manager fields, public_key
M+1    transaction                  the manager fields, the protocol's transaction
M+2    origination                  the manager fields, the protocol's origination
M+3    delegation                   the manager fields, delegate (optional)
=====  ===========================  ================================================

The manager fields are ``source``, ``fee`` (tez), ``counter``,
``gas_limit`` and ``storage_limit`` (Zarith naturals of at most 10 bytes).
What the protocols do not share, each protocol's module gives to
:func:`build`: the first manager tag ``M`` (7 in 004, 107 from 005 on),
who the ``source`` of a manager operation is (004: any contract; from 005
on: an implicit account's public key hash), and the fields of a
transaction and of an origination (005 gave a transaction's parameters an
entrypoint, and dropped an origination's manager, spendable and
delegatable fields). An internal operation (one a contract emits) is its
``source`` contract and a ``nonce`` (``uint16``), then the manager
operation's ``kind`` (tags 0-3) and its own fields.

Where the reference reads what its writer never writes, or fails, we refuse:

* the contents are one content, or a batch of manager operations only:
  another kind in a batch is ``invalid_value`` (the protocol's ``of_list``
  fails on it); no content at all (the node's reader asserts there is one)
  is ``not_enough_data`` in bytes (they end where the first content should
  be) and ``wrong_length`` in JSON and values;
* a transaction's ``parameters`` (005 on) that mean what no parameters
  mean, entrypoint ``default`` and value ``Unit``, are ``not_canonical``:
  the node reads both alike and writes none
  (:func:`.entrypoints.explicit`);
* an entrypoint of the five builtin names written in the ``named`` form
  (tag 255) is ``not_canonical``, as every union case the writer would not
  choose.

A signature is the :class:`~data_encoding.node.signatures.Signature` read
(the reference's values call 64 zero bytes "no signature", which changes
no byte and no JSON).

>>> from data_encoding.node.protocols import athens, babylon
>>> endorsement = {"branch": bytes(32), "contents": [{"kind": "endorsement", "level": 1331}]}
>>> babylon.OPERATION_UNSIGNED.encode(endorsement).hex()[64:]
'0000000533'
>>> athens.OPERATION_UNSIGNED.encode(endorsement) == babylon.OPERATION_UNSIGNED.encode(endorsement)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Literal,
    NotRequired,
    TypeAlias,
    TypedDict,
    TypeVar,
)

from ...errors import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    ErrorCode,
    JsonError,
)
from ...tree.core import Encoding, publish
from ...tree.fixed import bytes_
from ...tree.framing import check_size, dynamic_size
from ...tree.primitives import constant, uint16
from ...tree.records import merge_objs, obj, opt, req, varopt
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import Case, case, union
from ...tree.variable import bytes_ as variable_bytes
from ...tree.variable import list_ as variable_list
from ...tree.wrappers import conv, def_, splitted
from ...tree.zarith import n
from ..hashes import BlockHash, ProtocolHash, block_hash, protocol_hash
from ..keys import (
    Ed25519PublicKeyHash,
    PublicKeyHash,
    ed25519_public_key_hash,
    public_key_hash,
)
from ..signatures import PublicKey, Signature, public_key, signature
from .blocks import BLOCK_HEADER, BlockHeader
from .contracts import ContractId, contract_id
from .tez import tez
from .values import NONCE, RAW_LEVEL, VOTE_BALLOT, VOTING_PERIOD
from .values import Ballot as BallotName

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "INLINED_ENDORSEMENT",
    "MANAGER_KINDS",
    "OPERATION_IDS",
    "OPERATION_SHELL_HEADER",
    "RAW_OPERATION",
    "SINGLE_KINDS",
    "ActivateAccount",
    "Ballot",
    "CommonContents",
    "ContentsOf",
    "Delegation",
    "DelegationFields",
    "DoubleBakingEvidence",
    "DoubleEndorsementEvidence",
    "Endorsement",
    "InlinedEndorsement",
    "Internal",
    "InternalDelegation",
    "InternalOf",
    "InternalReveal",
    "Manager",
    "Operation",
    "OperationShellHeader",
    "Operations",
    "Proposals",
    "ProtocolData",
    "RawOperation",
    "Reveal",
    "RevealFields",
    "SeedNonceRevelation",
    "UnsignedOperation",
    "batched",
    "build",
]

# ------------------------------------------------------------------ the shell's


class OperationShellHeader(TypedDict):
    branch: BlockHash


class RawOperation(OperationShellHeader):
    """An operation as the shell sees it: the protocol's part as bytes."""

    data: bytes


OPERATION_SHELL_HEADER = typed(
    OperationShellHeader,
    def_(
        "operation.shell_header",
        obj(req("branch", block_hash)),
        description="An operation's shell header.",
    ),
)
RAW_OPERATION = typed(
    RawOperation,
    def_(
        "operation",
        merge_objs(OPERATION_SHELL_HEADER, obj(req("data", variable_bytes))),
        description="An operation. The shell_header part indicates a block an operation is "
        "meant to apply on top of. The proto part is protocol-specific and appears as a "
        "binary blob.",
    ),
)
"""The shell's operation (``operation.raw``): the branch, then the rest as bytes."""

# ------------------------------------------------------------------ the contents all share


class Endorsement(TypedDict):
    kind: Literal["endorsement"]
    level: int


class SeedNonceRevelation(TypedDict):
    kind: Literal["seed_nonce_revelation"]
    level: int
    nonce: bytes


class InlinedEndorsement(OperationShellHeader):
    """An endorsement as evidence carries it: with its branch and signature."""

    operations: Endorsement
    signature: NotRequired[Signature | None]


class DoubleEndorsementEvidence(TypedDict):
    kind: Literal["double_endorsement_evidence"]
    op1: InlinedEndorsement
    op2: InlinedEndorsement


class DoubleBakingEvidence(TypedDict):
    kind: Literal["double_baking_evidence"]
    bh1: BlockHeader
    bh2: BlockHeader


class ActivateAccount(TypedDict):
    kind: Literal["activate_account"]
    pkh: Ed25519PublicKeyHash
    secret: bytes


class Proposals(TypedDict):
    kind: Literal["proposals"]
    source: PublicKeyHash
    period: int
    proposals: list[ProtocolHash]


class Ballot(TypedDict):
    kind: Literal["ballot"]
    source: PublicKeyHash
    period: int
    proposal: ProtocolHash
    ballot: BallotName


CommonContents: TypeAlias = (
    Endorsement
    | SeedNonceRevelation
    | DoubleEndorsementEvidence
    | DoubleBakingEvidence
    | ActivateAccount
    | Proposals
    | Ballot
)
"""The contents every protocol of 004-007 has alike (tags 0-6)."""


def _kind(tag: int, name: str, fields: Encoding[Any], checked: type[Any] | None = None) -> Case:
    """A content's case as the protocols make it: titled with its name
    capitalised, its ``kind`` constant first, then ``fields`` (a record
    whose keys are checked against the ``TypedDict`` ``checked``, if given)."""
    record = merge_objs(obj(req("kind", constant(name))), fields)
    return case(tag, name.capitalize(), record if checked is None else typed(checked, record))


_ENDORSEMENT = _kind(0, "endorsement", obj(req("level", RAW_LEVEL)), Endorsement)

INLINED_ENDORSEMENT = typed(
    InlinedEndorsement,
    def_(
        "inlined.endorsement",
        merge_objs(
            OPERATION_SHELL_HEADER,
            obj(
                req("operations", def_("inlined.endorsement.contents", union([_ENDORSEMENT]))),
                varopt("signature", signature),
            ),
        ),
    ),
)
"""An endorsement inside double endorsement evidence: its one content under
``operations`` (not a list), its signature without a presence byte
(present when bytes remain in its frame)."""

ACTIVATION_CODE_SIZE = 20
"""``Blinded_public_key_hash.activation_code_size``."""

_SINGLE: tuple[tuple[int, str, Encoding[Any], type[Any]], ...] = (
    (
        1,
        "seed_nonce_revelation",
        obj(req("level", RAW_LEVEL), req("nonce", NONCE)),
        SeedNonceRevelation,
    ),
    (
        2,
        "double_endorsement_evidence",
        obj(
            req("op1", dynamic_size(INLINED_ENDORSEMENT)),
            req("op2", dynamic_size(INLINED_ENDORSEMENT)),
        ),
        DoubleEndorsementEvidence,
    ),
    (
        3,
        "double_baking_evidence",
        obj(req("bh1", dynamic_size(BLOCK_HEADER)), req("bh2", dynamic_size(BLOCK_HEADER))),
        DoubleBakingEvidence,
    ),
    (
        4,
        "activate_account",
        obj(req("pkh", ed25519_public_key_hash), req("secret", bytes_(ACTIVATION_CODE_SIZE))),
        ActivateAccount,
    ),
    (
        5,
        "proposals",
        obj(
            req("source", public_key_hash),
            req("period", VOTING_PERIOD),
            req("proposals", list_(protocol_hash)),
        ),
        Proposals,
    ),
    (
        6,
        "ballot",
        obj(
            req("source", public_key_hash),
            req("period", VOTING_PERIOD),
            req("proposal", protocol_hash),
            req("ballot", VOTE_BALLOT),
        ),
        Ballot,
    ),
)
"""The other contents all protocols share, after the endorsement."""

_COMMON_CASES = (_ENDORSEMENT, *(_kind(*row) for row in _SINGLE))

SINGLE_KINDS = ("endorsement", *(name for _, name, _, _ in _SINGLE))
"""The kinds that are an operation's only content (tags 0-6), never batched."""

# ------------------------------------------------------------------ manager operations

MANAGER_KINDS = ("reveal", "transaction", "origination", "delegation")
"""The manager operations, in the order of their tags (``M`` to ``M+3``;
0 to 3 in an internal operation): the only ones batched."""

S = TypeVar("S")
"""Who sends a manager operation: a contract in 004, a public key hash from 005 on."""


class Manager(TypedDict, Generic[S]):
    """What every manager operation begins with."""

    source: S
    fee: int
    counter: int
    gas_limit: int
    storage_limit: int


class RevealFields(TypedDict):
    public_key: PublicKey


class DelegationFields(TypedDict):
    delegate: NotRequired[PublicKeyHash | None]


class Reveal(Manager[S], RevealFields):
    kind: Literal["reveal"]


class Delegation(Manager[S], DelegationFields):
    kind: Literal["delegation"]


TransactionT = TypeVar("TransactionT")
"""A protocol's transactions (their ``TypedDict``)."""
OriginationT = TypeVar("OriginationT")
"""A protocol's originations (their ``TypedDict``)."""

ContentsOf: TypeAlias = CommonContents | Reveal[S] | TransactionT | OriginationT | Delegation[S]
"""A protocol's contents, of who sends its manager operations (``S``) and
its transactions and originations: ``ContentsOf[S, Transaction, Origination]``."""


class Internal(TypedDict):
    """What an internal operation begins with: the contract that emits it,
    and the nonce that tells apart the operations it emits."""

    source: ContractId
    nonce: int


class InternalReveal(Internal, RevealFields):
    kind: Literal["reveal"]


class InternalDelegation(Internal, DelegationFields):
    kind: Literal["delegation"]


InternalOf: TypeAlias = InternalReveal | TransactionT | OriginationT | InternalDelegation
"""A protocol's internal operations, of its internal transactions and
originations: ``InternalOf[InternalTransaction, InternalOrigination]``."""


REVEAL = typed(RevealFields, obj(req("public_key", public_key)))
"""A reveal's own field, the same in 004-007."""
DELEGATION = typed(DelegationFields, obj(opt("delegate", public_key_hash)))
"""A delegation's own field, the same in 004-007 (no delegate: the
delegation is withdrawn)."""

_LIMIT = check_size(10, n)
"""A counter, a gas or a storage limit: a natural of at most 10 bytes."""

# ------------------------------------------------------------------ a protocol's operations

C = TypeVar("C")
"""A protocol's contents (the union of its kinds' ``TypedDict`` s)."""


class ProtocolData(TypedDict, Generic[C]):
    """An operation without its shell header: ``operation.alpha.contents_and_signature``."""

    contents: list[C]
    signature: Signature


class UnsignedOperation(OperationShellHeader, Generic[C]):
    """What a signer signs: ``operation.alpha.unsigned_operation``."""

    contents: list[C]


class Operation(OperationShellHeader, Generic[C]):
    contents: list[C]
    signature: Signature


def _batch(error: type[DataEncodingError], empty: ErrorCode, contents: Any) -> Any:
    """``contents`` if it is one content or a batch of manager operations
    (what the protocol's ``of_list`` takes), else ``error`` (of code
    ``empty`` when it has none). A content of no known kind is left to the
    union, which says what is wrong with it."""
    if type(contents) is not list:
        return contents  # the list's own encoding says what is wrong
    if not contents:
        raise error(empty, "an operation has at least one content, and this one has none")
    if len(contents) > 1:
        for i, content in enumerate(contents):
            kind = content.get("kind") if type(content) is dict else None
            if type(kind) is str and kind in SINGLE_KINDS:
                message = (
                    f"a content of kind {kind!r} is alone in its operation: only manager "
                    f"operations ({', '.join(MANAGER_KINDS)}) are batched"
                )
                raise error("invalid_value", message).within(i)
    return contents


def _is_manager(content: Any) -> bool:
    return content["kind"] in MANAGER_KINDS


def _contents_lists(contents: Encoding[Any]) -> SearchStrategy[list[Any]]:
    """The Hypothesis strategy of valid contents: one content of any kind, or
    a batch of manager operations."""
    from hypothesis import strategies as st

    batches = st.lists(contents.strategy().filter(_is_manager), min_size=2, max_size=3)
    return st.one_of(st.lists(contents.strategy(), min_size=1, max_size=1), batches)


def batched(items: Encoding[list[Any]], content: Encoding[Any], empty: ErrorCode) -> Encoding[Any]:
    """``items`` (a list of ``content`` s, each a union told apart by its
    ``kind``: an operation's contents, or its contents with their results)
    holding one content or a batch of manager operations, as the protocol's
    ``of_list`` takes them: another kind in a batch is ``invalid_value``; no
    content at all is ``wrong_length``, and ``empty`` when reading bytes
    (``not_enough_data`` where the list runs to the end of its frame)."""
    # one rule in each direction; the codes of no content differ by form
    write = partial(_batch, EncodeError, "wrong_length")
    return splitted(
        json=conv(write, partial(_batch, JsonError, "wrong_length"), items),
        binary=conv(write, partial(_batch, DecodeError, empty), items),
        values=partial(_contents_lists, content),
    )


InternalT = TypeVar("InternalT")
"""A protocol's internal operations (the union of their ``TypedDict`` s)."""


@dataclass(frozen=True)
class Operations(Generic[C, InternalT]):
    """One protocol's operations: what its ``operation.*`` ids name, ``C``
    its contents and ``InternalT`` its internal operations (a protocol's
    module states both)."""

    #: ``operation.contents``: one content (``operation.alpha.contents``)
    contents: Encoding[C]
    #: ``operation.contents_list``: the contents, to the end of their frame
    contents_list: Encoding[list[C]]
    #: ``operation.protocol_data``: the contents and the signature
    protocol_data: Encoding[ProtocolData[C]]
    #: ``operation``: the branch, the contents and the signature
    operation: Encoding[Operation[C]]
    #: ``operation.unsigned``: the branch and the contents
    unsigned: Encoding[UnsignedOperation[C]]
    #: ``operation.internal``: a manager operation a contract emits
    internal: Encoding[InternalT]
    #: the cases of :attr:`contents`, in the order of their tags (a receipt
    #: pairs each with its kind's results: :mod:`.results`)
    cases: tuple[Case, ...]
    #: each manager operation's own fields, in the order of :data:`MANAGER_KINDS`
    manager_fields: tuple[Encoding[Any], ...]


def build(
    *,
    first_manager_tag: int,
    source: Encoding[Any],
    transaction: Encoding[Any],
    origination: Encoding[Any],
) -> Operations[Any, Any]:
    """A protocol's operations, from what sets it apart: the tag of its first
    manager operation (a reveal; the others follow), who the ``source`` of
    a manager operation is, and the fields of a transaction and of an
    origination (records: they follow the manager fields)."""
    fields: tuple[Encoding[Any], ...] = (REVEAL, transaction, origination, DELEGATION)
    kinds = tuple(zip(MANAGER_KINDS, fields, strict=True))
    manager = obj(
        req("source", source),
        req("fee", tez),
        req("counter", _LIMIT),
        req("gas_limit", _LIMIT),
        req("storage_limit", _LIMIT),
    )
    managers = [
        _kind(first_manager_tag + i, name, merge_objs(manager, own))
        for i, (name, own) in enumerate(kinds)
    ]
    cases = (*_COMMON_CASES, *managers)
    contents = def_("operation.alpha.contents", union([*cases]))
    contents_list = batched(variable_list(contents), contents, "not_enough_data")
    protocol_data = typed(
        ProtocolData,
        def_(
            "operation.alpha.contents_and_signature",
            obj(req("contents", contents_list), req("signature", signature)),
        ),
    )
    internal = merge_objs(
        obj(req("source", contract_id), req("nonce", uint16)),
        union([_kind(i, name, own) for i, (name, own) in enumerate(kinds)]),
    )
    return Operations(
        contents=contents,
        contents_list=contents_list,
        protocol_data=protocol_data,
        operation=typed(Operation, merge_objs(OPERATION_SHELL_HEADER, protocol_data)),
        unsigned=typed(
            UnsignedOperation,
            def_(
                "operation.alpha.unsigned_operation",
                merge_objs(OPERATION_SHELL_HEADER, obj(req("contents", contents_list))),
            ),
        ),
        internal=def_("operation.alpha.internal_operation", internal),
        cases=cases,
        manager_fields=fields,
    )


# ------------------------------------------------------------------ ids

OPERATION_IDS = {
    "operation": "an operation: its branch, its contents and its signature",
    "operation.contents": "one content of an operation: its kind and its fields",
    "operation.contents_list": "an operation's contents: one, or a batch of manager operations",
    "operation.protocol_data": "an operation's own part: its contents and its signature",
    "operation.raw": "an operation as the shell sees it: its branch, then bytes",
    "operation.internal": "an operation a smart contract emits",
    "operation.unsigned": "an operation to sign: its branch and its contents",
    "block_header": "a block header: the shell's fields, the baker's and the signature",
    "block_header.unsigned": "a block header to sign: the shell's fields and the baker's",
    "block_header.raw": "a block header as the shell sees it: its fields, then bytes",
    "block_header.contents": "a block header's baker fields: priority and nonces",
    "block_header.shell_header": "the shell's fields of a block header",
    "block_header.protocol_data": "a block header's own part: the baker's fields and signature",
}
"""The operations and block headers each protocol of 004-007 registers."""


publish(__name__, globals())  # the encodings above pickle by reference
