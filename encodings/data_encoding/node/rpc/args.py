"""Typed arguments of paths and queries: how a segment of text becomes a value.

An :class:`Arg` has the name the node publishes (``chain_id``,
``Unix_signal``...), an optional description, and a parser and a printer
between the URL text and a Python value. A parser raises
:class:`ArgError` on a text that is not of its type.

>>> CHAIN_ID.parse("main"), str(CHAIN_ID.parse("NetXdQprcVkpaWU"))
('main', 'NetXdQprcVkpaWU')
>>> BLOCK_ID.parse("head~2")
'head~2'
>>> INT.parse("12a")
Traceback (most recent call last):
...
data_encoding.node.rpc.args.ArgError: 'int' expects an integer, not '12a'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..hashes import BlockHash, ChainId, OperationHash, ProtocolHash
from ..keys import PublicKeyHash

__all__ = ["ARGS", "Arg", "ArgError"]


class ArgError(ValueError):
    """A path segment or query value that is not of its argument's type."""


@dataclass(frozen=True)
class Arg:
    """A typed argument (the reference's ``RPC_arg``)."""

    name: str
    descr: str | None = None
    parse: Callable[[str], Any] = field(default=str, repr=False, compare=False)
    print: Callable[[Any], str] = field(default=str, repr=False, compare=False)

    def describe(self) -> dict[str, Any]:
        """The value ``/describe`` shows for it (``rpc.arg``)."""
        return {"id": "single", "name": self.name, "descr": self.descr}


_DECIMAL = re.compile(r"-?[0-9]+")
_LONGEST = 40
"""More digits than any argument's range takes (an int64 has 19)."""
_BEYOND: int = 10**_LONGEST


def _decimal(text: str) -> int | None:
    """``text`` as an integer when it is one in decimal, else ``None``.

    A text of more than :data:`_LONGEST` characters reads as ``±_BEYOND``,
    beyond every argument's range, without being converted: ``int()`` of a
    long text takes quadratic time, and Python refuses over 4300 digits.
    """
    if _DECIMAL.fullmatch(text) is None:
        return None
    if len(text) > _LONGEST:
        return -_BEYOND if text[0] == "-" else _BEYOND
    return int(text)


def _shown(text: str) -> str:
    return text if len(text) <= _LONGEST else text[:_LONGEST] + "..."


def _integer(name: str, low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        value = _decimal(text)
        if value is None:
            raise ArgError(f"{name!r} expects an integer, not {text[:40]!r}")
        if not low <= value <= high:
            raise ArgError(f"{name!r} expects an integer in {low}..{high}, not {_shown(text)}")
        return value

    return parse


def _b58(name: str, cls: Callable[[str], Any], words: tuple[str, ...] = ()) -> Callable[[str], Any]:
    """A Base58Check hash of ``cls``, or one of the alias ``words`` (kept as text)."""
    expected = ", ".join(words) + " or " if words else ""

    def parse(text: str) -> Any:
        if text in words:
            return text
        try:
            return cls(text)
        except ValueError:  # a DataEncodingError too
            raise ArgError(
                f"{name!r} expects {expected}a Base58Check {name}, not {text[:60]!r}"
            ) from None

    return parse


def _word(name: str, words: tuple[str, ...]) -> Callable[[str], str]:
    expected = ", ".join(words[:-1]) + f" or {words[-1]}"

    def parse(text: str) -> str:
        if text not in words:
            raise ArgError(f"{name!r} expects {expected}, not {text[:40]!r}")
        return text

    return parse


_BLOCK_FORM = re.compile(r"(?P<base>[^~+-]+)(?:(?P<delim>[~+-])(?P<n>[0-9]+))?")
_SYMBOLIC = {("genesis", None), ("genesis", "+"), ("head", None), ("head", "~"), ("head", "-")} | {
    (alias, delim)
    for alias in ("checkpoint", "save_point", "caboose")
    for delim in (None, "~", "-", "+")
}
_INT32_MAX = 2**31 - 1
_INT_MAX = 2**62 - 1  # OCaml's 63-bit int


def _block_id(text: str) -> Any:
    """The node's block identifiers (``Block_services.parse_block`` of its era):
    ``genesis`` and ``genesis+N`` (a level); ``head``, ``head~N``, ``head-N``
    (the Nth predecessor); ``checkpoint``, ``save_point`` and ``caboose``, each
    alone or with ``~N``, ``-N`` or ``+N`` (the Nth successor); a level; a block
    hash, alone or with ``~N``, ``-N`` or ``+N``. One delimiter at most; ``N``
    in decimal. A level reads as an ``int`` and a bare hash as a
    :class:`~data_encoding.node.hashes.BlockHash`; every other form as its text."""
    m = _BLOCK_FORM.fullmatch(text)
    if m is not None:
        base, delim, n = m["base"], m["delim"], m["n"]
        count = 0 if n is None else _decimal(n)  # digits: never None
        if count is not None and count <= (_INT32_MAX if base == "genesis" else _INT_MAX):
            if (base, delim) in _SYMBOLIC:
                return text
            level = _decimal(base)
            if delim is None and level is not None and 0 <= level <= _INT32_MAX:
                return level
            try:
                block = BlockHash(base)
            except ValueError:  # a DataEncodingError too
                pass
            else:
                return block if delim is None else text
    raise ArgError(
        "'block_id' expects a block hash or level, or genesis, head, checkpoint, save_point "
        f"or caboose, with ~N, -N or +N where the node allows, not {text[:60]!r}"
    )


def _date(text: str) -> int:
    """The node's ``Time.Protocol.rpc_arg``: seconds from the epoch (an int64),
    or ``none`` / ``epoch`` for 0."""
    if text in ("none", "epoch"):
        return 0
    seconds = _decimal(text)
    if seconds is None or not -(2**63) <= seconds < 2**63:
        raise ArgError(f"'date' expects seconds from the epoch (an int64), not {text[:40]!r}")
    return seconds


def _bool(text: str) -> bool:
    if text in ("yes", "true", ""):
        return True
    if text in ("no", "false"):
        return False
    raise ArgError(f"'bool' expects yes, true, no or false, not {text[:40]!r}")


_INT31 = (-(2**30), 2**30 - 1)
_INT32 = (-(2**31), _INT32_MAX)
_UINT30 = (0, 2**30 - 1)

INT = Arg("int", parse=_integer("int", -_INT_MAX - 1, _INT_MAX))
INT32 = Arg("int32", parse=_integer("int32", *_INT32))
INT64 = Arg("int64", parse=_integer("int64", -(2**63), 2**63 - 1))
BOOL = Arg("bool", parse=_bool, print=lambda b: "yes" if b else "no")
DATE = Arg("date", "A date in seconds from epoch", parse=_date)
CHAIN_ID = Arg(
    "chain_id",
    "A chain identifier. This is either a chain hash in Base58Check notation "
    "or a one the predefined aliases: 'main', 'test'.",
    parse=_b58("chain_id", ChainId, ("main", "test")),
)
BLOCK_ID = Arg(
    "block_id",
    "A block identifier. This is either a block hash in Base58Check notation, "
    "one the predefined aliases: 'genesis', 'head' or a block level (index in "
    "the chain). One might also use 'head~N' or '<hash>~N' where N is an "
    "integer to denote the Nth predecessor of the designated block.Also, "
    "'<hash>+N' denotes the Nth successor of a block.",
    parse=_block_id,
)
BLOCK_HASH = Arg(
    "block_hash", "A block identifier (Base58Check-encoded)", _b58("block_hash", BlockHash)
)
PROTOCOL_HASH = Arg(
    "Protocol_hash",
    "A Tezos protocol ID (Base58Check-encoded)",
    _b58("Protocol_hash", ProtocolHash),
)
OPERATION_HASH = Arg(
    "operation_hash",
    "A Tezos operation ID (Base58Check-encoded)",
    _b58("operation_hash", OperationHash),
)
PKH = Arg(
    "pkh",
    "A Secp256k1 of a Ed25519 public key hash (Base58Check-encoded)",
    _b58("pkh", PublicKeyHash),
)

ARGS: dict[str, Arg] = {
    arg.name: arg
    for arg in (
        INT,
        INT32,
        INT64,
        BOOL,
        DATE,
        CHAIN_ID,
        BLOCK_ID,
        BLOCK_HASH,
        PROTOCOL_HASH,
        OPERATION_HASH,
        PKH,
        Arg("alias", "An account alias", parse=str),
        Arg("id", "A daemon id", parse=_integer("id", *_INT31)),
        Arg("pid", "A process id", parse=_integer("pid", *_INT31)),
        Arg("Unix_signal", "A Unix signal number", parse=_integer("Unix_signal", 1, 64)),
        Arg("size", "A number of bytes", parse=_integer("size", *_UINT30)),
        Arg(
            "daemon_kind",
            "baker, endorser or accuser",
            parse=_word("daemon_kind", ("baker", "endorser", "accuser")),
        ),
        Arg("peer_id", "A cryptographic node identity (Base58Check-encoded)"),
        Arg("point", "A network point (ipv4:port or [ipv6]:port)."),
        Arg("contract_id", "A contract identifier encoded in b58check."),
        Arg("big_map_id", "A big map identifier", parse=_integer("big_map_id", *_INT31)),
        Arg("script_expr", "A script expression ID (Base58Check-encoded)"),
        # Raw_level_repr.rpc_arg: any int32 (a level is checked by the service)
        Arg("block_level", "A level integer", parse=_integer("block_level", *_INT32)),
        Arg("block_cycle", "A cycle integer", parse=_integer("block_cycle", *_INT32)),
        Arg("prefix"),
        Arg(
            "list_offset",
            "Index `n` of the `n`th operation list",
            _integer("list_offset", *_UINT30),
        ),
        Arg(
            "operation_offset",
            "Index `n` of the `n`th operation in the list",
            _integer("operation_offset", *_UINT30),
        ),
        Arg("string"),
    )
}
"""Every argument of the directory, by the name it publishes."""
