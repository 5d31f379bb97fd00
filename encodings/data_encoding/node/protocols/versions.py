"""The protocols of the node's era, and how their ids are named.

A protocol's ids are ``proto.<short hash, lower case>.<the node's name>``
(``proto.psdelph1.operation.unsigned``); the node toolchain spells the same
id ``007-PsDELPH1.operation.unsigned``, which
:func:`data_encoding.node.registry.find` accepts too.

>>> DELPHI.id("operation.unsigned"), DELPHI.toolchain_name
('proto.psdelph1.operation.unsigned', '007-PsDELPH1')

:func:`find_protocol` reads a protocol's every spelling (its name, hash,
short hash, toolchain name, number):

>>> find_protocol("007-PsDELPH1") is find_protocol("delphi") is DELPHI
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import DefinitionError
from ...tree.core import Encoding
from ..registry import register

__all__ = [
    "ATHENS",
    "BABYLON",
    "CARTHAGE",
    "DELPHI",
    "PROTOCOLS",
    "IdTable",
    "Protocol",
    "UnknownProtocol",
    "find_protocol",
]


@dataclass(frozen=True)
class Protocol:
    """One protocol: its number in the node's sequence, hash and name."""

    number: int
    #: the protocol hash, Base58Check (``PsDELPH1Kxsx…``)
    hash: str
    #: its release name (``Delphi``)
    name: str

    @property
    def short(self) -> str:
        """The hash's first eight characters (``PsDELPH1``)."""
        return self.hash[:8]

    @property
    def toolchain_name(self) -> str:
        """How the node toolchain names the protocol (``007-PsDELPH1``)."""
        return f"{self.number:03d}-{self.short}"

    @property
    def section(self) -> str:
        """The catalogue section of its ids: payloads the seed's part 4.5
        leaves "not shown"."""
        return f"4.5 Protocol {self.toolchain_name} ({self.name})"

    def id(self, name: str) -> str:
        """The catalogue id of the protocol's encoding ``name``."""
        return f"proto.{self.short.lower()}.{name}"


ATHENS = Protocol(4, "Pt24m4xiPbLDhVgVfABUjirbmda3yohdN82Sp9FeuAXJ4eV9otd", "Athens")
BABYLON = Protocol(5, "PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS", "Babylon")
CARTHAGE = Protocol(6, "PsCARTHAGazKbHtnKfLzQg3kms52kSRpgnDY982a9oYsSXRLQEb", "Carthage")
DELPHI = Protocol(7, "PsDELPH1Kxsxt8f9eWbxQeRxkjfbxoqM52jvs5Y5fBxWWh4ifpo", "Delphi")

PROTOCOLS = (ATHENS, BABYLON, CARTHAGE, DELPHI)
"""In the order the chain activated them."""

_SPELLINGS = {
    spelling.lower(): protocol
    for protocol in PROTOCOLS
    for spelling in (
        protocol.name,
        protocol.hash,
        protocol.short,
        protocol.toolchain_name,
        f"{protocol.number:03d}",
    )
}


class UnknownProtocol(LookupError):
    """:func:`find_protocol` of a spelling that names no protocol of the era
    (the message lists them)."""

    def __init__(self, spelling: str) -> None:
        known = ", ".join(f"{p.toolchain_name} ({p.name})" for p in PROTOCOLS)
        super().__init__(f"unknown protocol {spelling!r}; the protocols are {known}")

    def __str__(self) -> str:
        return str(self.args[0])


def find_protocol(spelling: Protocol | str) -> Protocol:
    """The protocol ``spelling`` names: a :class:`Protocol` itself, or its
    name (``Delphi``), hash, short hash (``PsDELPH1``; its ids spell it
    ``psdelph1``), toolchain name (``007-PsDELPH1``) or number (``007``), in
    any case; :class:`UnknownProtocol` for anything else. There is no
    default, no "current protocol": a caller names the protocol it means.

    >>> find_protocol("PsBabyM1eUXZseaJdmXFApDSBqj8YBfwELoxZHHW77EMcAbbwAS").name
    'Babylon'
    >>> find_protocol("alpha")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    data_encoding...UnknownProtocol: unknown protocol 'alpha'; the protocols are 004-Pt24m4xi ...
    """
    if isinstance(spelling, Protocol):
        return spelling
    found = _SPELLINGS.get(spelling.lower()) if isinstance(spelling, str) else None
    if found is None:
        raise UnknownProtocol(str(spelling))
    return found


IdTable = Mapping[str, tuple[Encoding[Any], str]]
"""A protocol's encodings by the node's name (``"operation.unsigned"``),
each with a one-line description."""


def constant_name(name: str) -> str:
    """The constant that holds a protocol's encoding ``name`` in its module
    (``vote.ballots``: ``VOTE_BALLOTS``)."""
    return name.replace(".", "_").upper()


def id_table(descriptions: Mapping[str, str], constants: Mapping[str, object]) -> IdTable:
    """The ids ``descriptions`` names (``{"operation.unsigned": "one line"}``),
    each with its encoding: the :func:`constant_name` of the protocol
    module's ``constants`` (its globals)."""
    table: dict[str, tuple[Encoding[Any], str]] = {}
    for name, description in descriptions.items():
        found = constants.get(constant_name(name))
        if not isinstance(found, Encoding):
            raise DefinitionError(f"no encoding {constant_name(name)} for the protocol's {name!r}")
        table[name] = (found, description)
    return table


def register_ids(protocol: Protocol, module: str, *tables: IdTable) -> None:
    """Register every encoding of ``tables`` under ``protocol``'s ids, their
    constants in ``module`` (the protocol's module)."""
    for table in tables:
        for name, (encoding, description) in table.items():
            register(protocol.id(name), encoding, description, protocol.section, module)
