"""A target with a planted defect, for the campaign's test (``test_campaign.py``).

``fuzz/target.py``'s property and set-up, over a catalogue id's encoding
made wrong on purpose: wrapped in a ``conv`` whose writer turns
``"rolling"`` into ``"full"``. Over ``chain.history_mode`` the bytes ``02``
then decode to ``"rolling"`` and re-encode as ``01``, the canonicity defect
a real conversion could have; the property must catch it, and the campaign
report it.

    FUZZ_ID=chain.history_mode python tests/fuzz/planted_target.py [libFuzzer arguments]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # fuzz.target, run as a script

from fuzz import target

if TYPE_CHECKING:
    from data_encoding import Encoding


def _to_wire(mode: Any) -> Any:
    return "full" if mode == "rolling" else mode


def _from_wire(mode: Any) -> Any:
    return mode


def broken(id: str) -> Encoding[Any]:
    """The id's encoding, with the planted defect (built after the target has
    imported the library under instrumentation)."""
    from data_encoding import conv

    return conv(_to_wire, _from_wire, target.catalogue_encoding(id))


if __name__ == "__main__":
    target.main(sys.argv, broken)
