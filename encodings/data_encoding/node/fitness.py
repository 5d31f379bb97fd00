"""Block fitness: a list of byte strings, and the order the node compares them by.

Value: a ``list`` of ``bytes``. Binary: a ``list_`` (uint30 byte count) of
uint30-length-prefixed byte strings (each one a ``def "fitness.elem"``, as
the node publishes it). JSON: an array of hex strings (the seed's
``^[a-zA-Z0-9]+$``).

The order (the seed's part 2, the reference's ``Fitness.compare``): a shorter
list is smaller; lists of the same length compare element by element, and
elements compare the same way, a shorter byte string being smaller, then
byte by byte.

>>> fitness.encode([b"\\x01", bytes.fromhex("000000000000000a")]).hex()
'00000011000000010100000008000000000000000a'
>>> fitness.to_json([b"\\x01", bytes.fromhex("000000000000000a")])
['01', '000000000000000a']
>>> compare_fitness([b"\\xff"], [b"\\x00", b"\\x00"])
-1
>>> compare_fitness([b"\\x02"], [b"\\x01\\x00"])
-1
>>> sorted([[b"\\x02"], [b"\\x01"]], key=fitness_key)
[[b'\\x01'], [b'\\x02']]
"""

from __future__ import annotations

from collections.abc import Sequence

from ..tree.core import Encoding, publish
from ..tree.sequences import list_
from ..tree.strings import bytes_
from ..tree.wrappers import def_, splitted

__all__ = ["compare_fitness", "fitness", "fitness_key"]

Fitness = list[bytes]


def fitness_key(f: Sequence[bytes]) -> tuple[int, tuple[tuple[int, bytes], ...]]:
    """A sort key with the node's order: ``sorted(fs, key=fitness_key)``."""
    return len(f), tuple((len(b), bytes(b)) for b in f)


def compare_fitness(a: Sequence[bytes], b: Sequence[bytes]) -> int:
    """-1, 0 or 1 as ``a`` is smaller than, equal to or greater than ``b``."""
    ka, kb = fitness_key(a), fitness_key(b)
    return (ka > kb) - (ka < kb)


fitness: Encoding[Fitness] = def_(
    "fitness",
    splitted(json=list_(bytes_), binary=list_(def_("fitness.elem", bytes_))),
    title="Block fitness",
    description=(
        "The fitness, or score, of a block, that allow the Tezos to decide which chain is "
        "the best. A fitness value is a list of byte sequences. They are compared as "
        "follows: shortest lists are smaller; lists of the same length are compared "
        "according to the lexicographical order."
    ),
)
"""``fitness`` (see the module's notes)."""


publish(__name__, globals())  # the encodings above pickle by reference
