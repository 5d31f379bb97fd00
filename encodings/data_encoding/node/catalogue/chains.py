"""Chain queries (``/chains/<chain_id>``; seed parts 2 and 4.2).

The block header is the shell's fields then ``protocol_data``, the rest of
its frame (a ``merge_objs`` of the shell record and one variable-size
field, as the node builds it); where a header is a field (``checkpoint``'s
``block``), it is size-prefixed.

Block ``metadata`` is only partly specified: the seed names ``level``
(an object holding ``level``), ``protocol`` and ``next_protocol`` and says
more fields exist. The encoding checks and converts those three (the hashes
become :class:`~data_encoding.node.hashes.ProtocolHash`) and keeps every other
member as it came, in its place; its binary form is the ``json`` encoding's
(BSON), since the seed does not show the node's.

>>> header = BLOCK_HEADER.decode(BLOCK_HEADER.encode({
...     "level": 1, "proto": 1, "predecessor": bytes(32), "timestamp": 0,
...     "validation_pass": 4, "operations_hash": bytes(32), "fitness": [],
...     "context": bytes(32), "protocol_data": b"\\x2a"}))
>>> header["protocol_data"], str(header["predecessor"])[:6]
(b'*', 'BKiHLR')
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Literal, TypedDict, cast

from ...errors import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    JsonError,
    describe_value,
)
from ...jsonvalue import JsonValue, type_name
from ...tree.anyjson import json
from ...tree.core import Encoding, publish
from ...tree.framing import dynamic_size
from ...tree.primitives import empty, int32, uint8
from ...tree.records import merge_objs, obj, req
from ...tree.sequences import list_
from ...tree.typed import typed
from ...tree.unions import string_enum
from ...tree.variable import bytes_ as variable_bytes
from ...tree.wrappers import conv, def_, splitted
from ..fitness import fitness
from ..hashes import (
    BlockHash,
    ContextHash,
    OperationListListHash,
    ProtocolHash,
    block_hash,
    context_hash,
    operation_list_list_hash,
)
from ..registry import register
from ..timestamp import protocol

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "BLOCKS",
    "BLOCK_HEADER",
    "BLOCK_METADATA",
    "CHECKPOINT",
    "EMPTY",
    "HISTORY_MODE",
    "INVALID_BLOCK",
    "INVALID_BLOCKS",
    "SHELL_HEADER",
    "BlockHeader",
    "BlockMetadata",
    "Checkpoint",
    "InvalidBlock",
    "ShellHeader",
]


class ShellHeader(TypedDict):
    level: int
    proto: int
    predecessor: BlockHash
    timestamp: int
    validation_pass: int
    operations_hash: OperationListListHash
    fitness: list[bytes]
    context: ContextHash


class BlockHeader(ShellHeader):
    protocol_data: bytes


_SHELL_FIELDS = obj(
    req("level", int32),
    req("proto", uint8),
    req("predecessor", block_hash),
    req("timestamp", protocol),
    req("validation_pass", uint8),
    req("operations_hash", operation_list_list_hash),
    req("fitness", fitness),
    req("context", context_hash),
)

SHELL_HEADER = typed(ShellHeader, def_("block_header.shell", _SHELL_FIELDS))
BLOCK_HEADER = typed(
    BlockHeader,
    def_("block_header", merge_objs(_SHELL_FIELDS, obj(req("protocol_data", variable_bytes)))),
)

HistoryMode = Literal["archive", "full", "rolling"]
HISTORY_MODE: Encoding[HistoryMode] = string_enum(["archive", "full", "rolling"])


class Checkpoint(TypedDict):
    block: BlockHeader
    save_point: int
    caboose: int
    history_mode: HistoryMode


CHECKPOINT = typed(
    Checkpoint,
    obj(
        req("block", dynamic_size(BLOCK_HEADER)),
        req("save_point", int32),
        req("caboose", int32),
        req("history_mode", HISTORY_MODE),
    ),
)


class InvalidBlock(TypedDict):
    block: BlockHash
    level: int
    errors: JsonValue


INVALID_BLOCK = typed(
    InvalidBlock, obj(req("block", block_hash), req("level", int32), req("errors", json))
)
INVALID_BLOCKS: Encoding[list[InvalidBlock]] = list_(INVALID_BLOCK)

BLOCKS: Encoding[list[list[BlockHash]]] = list_(list_(block_hash))
"""``GET .../blocks``: for each requested head, it and its predecessors."""

EMPTY: Encoding[dict[str, Any]] = empty
"""An answer with no content: 0 bytes, ``{}``."""

# ------------------------------------------------------------------ metadata


class BlockMetadata(TypedDict):
    """The members the seed names (more are kept, untyped)."""

    level: dict[str, Any]
    protocol: ProtocolHash
    next_protocol: ProtocolHash


_INT32 = range(-(2**31), 2**31)


def _metadata_of_json(cls: type[DecodeError] | type[JsonError], found: JsonValue) -> dict[str, Any]:
    if type(found) is not dict:
        raise cls("wrong_type", f"expected an object (block metadata), got {type_name(found)}")
    value: dict[str, Any] = dict(found)
    _check_members(cls, value)
    value["level"] = _level(cls, value["level"])
    for key in ("protocol", "next_protocol"):
        try:
            value[key] = ProtocolHash.from_b58check(value[key])
        except JsonError as exc:
            raise cls(exc.code, exc.message).within(key) from None
    return value


def _metadata_to_json(value: Any) -> JsonValue:
    if not isinstance(value, dict):
        raise EncodeError("wrong_type", f"block metadata is a dict, not {describe_value(value)}")
    _check_members(EncodeError, value)
    out: dict[str, JsonValue] = dict(value)
    out["level"] = _level(EncodeError, value["level"])
    for key in ("protocol", "next_protocol"):
        out[key] = ProtocolHash.b58check_of(value[key])
    return out


def _check_members(cls: type[DataEncodingError], value: dict[str, Any]) -> None:
    for key in ("level", "protocol", "next_protocol"):
        if key not in value:
            raise cls("missing_field", f"block metadata has no {key!r}").within(key)


def _level(cls: type[DataEncodingError], level: Any) -> dict[str, Any]:
    """The metadata's ``level`` member checked, one way or the other: an
    object whose ``level`` is an int32 (which BSON bytes hold as a double)."""
    if type(level) is not dict:
        error = cls(
            "wrong_type", f"expected an object (the metadata's level), got {type_name(level)}"
        )
        raise error.within("level")
    if "level" not in level:
        raise cls("missing_field", "the metadata's level has no 'level'").within("level", "level")
    number = level["level"]
    if cls is DecodeError and type(number) is float and number.is_integer():
        number = int(number)
    if type(number) is not int:
        error = cls("wrong_type", f"expected an int32 level, got {type_name(number)}")
        raise error.within("level", "level")
    if number not in _INT32:
        error = cls("out_of_range", f"level {describe_value(number)} is not an int32")
        raise error.within("level", "level")
    return {**level, "level": number}


def _metadata_values() -> SearchStrategy[Any]:
    from hypothesis import strategies as st

    hashes = st.binary(min_size=32, max_size=32).map(ProtocolHash)
    extra = st.dictionaries(st.sampled_from(["max_operations_ttl", "baker", "x"]), st.text())
    level = st.fixed_dictionaries({"level": st.integers(-(2**31), 2**31 - 1)})
    known = st.fixed_dictionaries({"protocol": hashes, "next_protocol": hashes, "level": level})
    return st.tuples(known, extra).map(lambda d: {**d[1], **d[0]})


def _metadata(cls: type[DecodeError] | type[JsonError]) -> Encoding[Any]:
    """The metadata over ``json``, refusing with ``cls`` (a JSON text's or BSON bytes')."""
    read = cast(Any, partial(_metadata_of_json, cls))
    return conv(_metadata_to_json, read, json, values=_metadata_values)


BLOCK_METADATA: Encoding[BlockMetadata] = splitted(
    json=_metadata(JsonError), binary=_metadata(DecodeError)
)

# ------------------------------------------------------------------ registry

_CHAINS = "4.2 Chains"

register(
    "shell.block_header",
    BLOCK_HEADER,
    "a block header: shell fields, then protocol data",
    "2 Block header",
)
register(
    "shell.block_header.shell", SHELL_HEADER, "a block header's shell fields", "2 Block header"
)
register("chain.history_mode", HISTORY_MODE, "archive, full or rolling", "2 Checkpoint")
register("chain.checkpoint", CHECKPOINT, "a chain's checkpoint and history mode", "2 Checkpoint")
register(
    "chain.invalid_block", INVALID_BLOCK, "a block recorded as invalid", "2 Invalid block record"
)
register("chain.invalid_blocks", INVALID_BLOCKS, "a list of invalid block records", _CHAINS)
register("chain.blocks", BLOCKS, "lists of block hashes, one per requested head", _CHAINS)
register(
    "chain.block_metadata",
    BLOCK_METADATA,
    "a block's metadata (three fields typed, the rest kept)",
    "2 Block metadata",
)
register("rpc.empty", EMPTY, "an empty answer: 0 bytes, {}", "4 Endpoints")


publish(__name__, globals())  # the encodings above pickle by reference
