"""A transaction's entrypoint and parameters, from protocol 005 (Babylon)
on (``contract_repr.ml``'s entrypoint encoding, ``operation_repr.ml``'s
parameters).

An entrypoint is its name in JSON; in binary, the tag of one of the five
builtin names (0 to 4), or 255 then the name. The builtin names written in
the named form (tag 255) are ``not_canonical``, as every union case the
writer would not choose. Parameters that mean what no parameters mean are
refused (:func:`explicit`).
"""

from __future__ import annotations

from functools import partial
from typing import Any, TypeVar

from ...errors import DataEncodingError, EncodeError
from ...tree.bounded import string as bounded_string
from ...tree.core import Encoding, publish
from ...tree.primitives import constant
from ...tree.unions import case, union
from ...tree.wrappers import conv, def_

__all__ = ["BUILTIN_ENTRYPOINTS", "ENTRYPOINT", "NO_PARAMETERS", "explicit"]

BUILTIN_ENTRYPOINTS = ("default", "root", "do", "set_delegate", "remove_delegate")
"""The entrypoints written as their tag alone (0 to 4)."""

ENTRYPOINT: Encoding[str] = def_(
    "entrypoint",
    union(
        [case(tag, name, constant(name)) for tag, name in enumerate(BUILTIN_ENTRYPOINTS)]
        + [case(255, "named", bounded_string(31))]
    ),
    title="entrypoint",
    description="Named entrypoint to a Michelson smart contract",
)
"""A transaction's entrypoint (005 on): JSON, its name; binary, the tag of a
builtin name, or 255 then the name (a string of at most 31 bytes)."""

NO_PARAMETERS = {"entrypoint": "default", "value": {"prim": "Unit"}}
"""The JSON of parameters that mean none: Micheline's ``Unit`` (no
argument, no annotation) given to the ``default`` entrypoint."""

P = TypeVar("P")


def _explicit(parameters: Encoding[Any], value: Any) -> Any:
    """``value`` (a transaction's ``parameters``) unless it means what no
    parameters mean (:data:`NO_PARAMETERS`)."""
    if type(value) is dict and value.get("entrypoint") == "default":
        try:
            said = parameters.to_json(value)
        except DataEncodingError:
            return value  # the record's own encoding says what is wrong
        if said == NO_PARAMETERS:
            raise EncodeError(
                "not_canonical",
                "parameters of entrypoint 'default' and value Unit mean no parameters: "
                "leave them out (the protocol writes none)",
            )
    return value


def explicit(parameters: Encoding[P]) -> Encoding[P]:
    """A transaction's ``parameters`` (from 005 on: an ``entrypoint`` and a
    ``value``), refused (``not_canonical``) when they mean what no
    parameters mean (:data:`NO_PARAMETERS`): the protocol reads both alike,
    and writes none."""
    check = partial(_explicit, parameters)
    return conv(check, check, parameters)


publish(__name__, globals())  # the encodings above pickle by reference
