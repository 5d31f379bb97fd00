"""data_encoding: binary and JSON encodings of a Tezos-family node's RPC interface.

Combinators build immutable encodings; each one encodes and decodes binary
(``encode``, ``decode``, ``decode_prefix``, ``length``) and JSON (``to_json``,
``from_json``), and gives Hypothesis strategies of its values (``strategy``).

>>> from data_encoding import obj, req, opt, uint16, string
>>> e = obj(req("id", uint16), opt("name", string))
>>> e.encode({"id": 7, "name": "baker"}).hex()
'0007ff0000000562616b6572'
>>> e.decode(bytes.fromhex("000700"))
{'id': 7, 'name': None}

``__version__`` is the installed package's version (its metadata, made from
``pyproject.toml``'s ``version``).
"""

from typing import TYPE_CHECKING

from .depth import max_depth, set_max_depth
from .errors import (
    DataEncodingError,
    DecodeError,
    DefinitionError,
    EncodeError,
    ErrorCode,
    JsonError,
)
from .jsonvalue import RepeatedMembers
from .node import hashes, timestamp
from .node.rebuilt import from_schema
from .noncanonical import NonCanonical, reference_value
from .passes.schema import BinarySchema, binary_schema, binary_schema_v1
from .tree import bounded, fixed, variable
from .tree.anyjson import json
from .tree.core import Atom, Encoding
from .tree.framing import check_size, dynamic_size, padded
from .tree.primitives import (
    bool_,
    constant,
    empty,
    float_,
    int8,
    int16,
    int31,
    int32,
    int64,
    null,
    ranged_float,
    ranged_int,
    uint8,
    uint16,
    uint30,
    unit,
)
from .tree.records import Field, dft, merge_objs, merge_tups, obj, opt, req, tup, varopt
from .tree.sequences import array, array_with_length, list_, list_with_length
from .tree.size import DYNAMIC, VARIABLE, Fixed, Size
from .tree.strings import bytes_, string
from .tree.unions import Case, case, matching, option, string_enum, union
from .tree.wrappers import conv, def_, delayed, mu, splitted
from .tree.zarith import n, z

__all__ = [
    "DYNAMIC",
    "VARIABLE",
    "Atom",
    "BinarySchema",
    "Case",
    "DataEncodingError",
    "DecodeError",
    "DefinitionError",
    "EncodeError",
    "Encoding",
    "ErrorCode",
    "Field",
    "Fixed",
    "JsonError",
    "NonCanonical",
    "RepeatedMembers",
    "Size",
    "array",
    "array_with_length",
    "binary_schema",
    "binary_schema_v1",
    "bool_",
    "bounded",
    "bytes_",
    "case",
    "check_size",
    "constant",
    "conv",
    "def_",
    "delayed",
    "dft",
    "dynamic_size",
    "empty",
    "fixed",
    "float_",
    "from_schema",
    "hashes",
    "int8",
    "int16",
    "int31",
    "int32",
    "int64",
    "json",
    "list_",
    "list_with_length",
    "max_depth",
    "matching",
    "merge_objs",
    "merge_tups",
    "mu",
    "n",
    "null",
    "obj",
    "opt",
    "option",
    "padded",
    "ranged_float",
    "ranged_int",
    "reference_value",
    "req",
    "set_max_depth",
    "splitted",
    "string",
    "string_enum",
    "timestamp",
    "tup",
    "uint8",
    "uint16",
    "uint30",
    "union",
    "unit",
    "variable",
    "varopt",
    "z",
]

if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        """``__version__``, read on first use: importlib.metadata takes about
        as long to import as this whole package."""
        if name != "__version__":
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("data-encoding")
        except PackageNotFoundError:  # imported from a source tree, not installed
            found = "0+unknown"
        globals()["__version__"] = found
        return found
