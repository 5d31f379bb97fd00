"""The protocols' values and receipts (issue 29): every id of protocols
004-007 that is neither ``script*``, ``operation*`` nor ``block_header*``.

The node toolchain's own vectors of protocol 007 (``octez-codec-007.jsonl``)
read and write exactly, through both spellings of their ids.
"""

from __future__ import annotations

import pytest

from data_encoding import DecodeError, JsonError, binary_schema, int32, int64, json, z
from data_encoding.jsonvalue import JsonValue
from data_encoding.node import registry
from data_encoding.node.fitness import fitness
from data_encoding.node.protocols import (
    ATHENS,
    DELPHI,
    PROTOCOLS,
    athens,
    babylon,
    carthage,
    constants,
    delphi,
    receipts,
    values,
)
from data_encoding.node.registry import UnknownId
from data_encoding.node.timestamp import protocol
from data_encoding.tree.wrappers import Def
from golden import codec_vectors

VALUE_NAMES = {
    "contract",
    "contract.big_map_diff",
    "cycle",
    "delegate.balance_updates",
    "delegate.frozen_balance",
    "delegate.frozen_balance_by_cycles",
    "fitness",
    "gas",
    "gas.cost",
    "level",
    "nonce",
    "period",
    "raw_level",
    "roll",
    "seed",
    "tez",
    "timestamp",
    "vote.ballot",
    "vote.ballots",
    "vote.listings",
    "voting_period",
    "voting_period.kind",
}
"""The names of this part's ids that the 007 vectors give values of."""


VALUE_VECTORS = [r for r in codec_vectors() if r["encoding_name"].split(".", 1)[1] in VALUE_NAMES]
"""The 007 vectors of this part's ids (each is read and written exactly in
``test_vectors_007.py``)."""


def test_the_vectors_give_every_value_id_of_007() -> None:
    names = {r["encoding_name"].split(".", 1)[1] for r in VALUE_VECTORS}
    assert names == VALUE_NAMES
    assert len(VALUE_VECTORS) == 44


def test_an_unknown_name_in_the_toolchains_spelling_names_the_protocols_close_ids() -> None:
    with pytest.raises(UnknownId) as caught:
        registry.find("007-PsDELPH1.cycles")
    assert (caught.value.id, caught.value.close[0]) == ("proto.psdelph1.cycles", DELPHI.id("cycle"))


def test_an_encoding_the_shell_registers_too_keeps_the_shells_id() -> None:
    """A slice names a leaf by the id its encoding is registered under (the
    first): an int64 is ``int64``, not a protocol's ``period``, and no
    protocol's id names every ``int32`` of the catalogue."""
    assert [registry.id_of(e) for e in (int64, z, json, fitness, protocol)] == [
        "int64",
        "bignum",
        "rpc.error",
        "fitness",
        "timestamp.protocol",
    ]
    assert registry.id_of(int32) is None
    assert registry.id_of(values.CYCLE) == "proto.pt24m4xi.cycle"
    assert registry.id_of(values.ROLL) == "proto.pt24m4xi.roll"


def test_a_ballot_is_an_int8_in_binary_as_the_protocol_writes_it() -> None:
    """``Vote_repr.ballot_encoding``: an ``int8`` in binary (the node describes
    it so), the ballot's name in JSON; a byte of no ballot is refused."""
    ballot = values.VOTE_BALLOT
    schema = binary_schema.to_json(ballot.describe())
    assert schema == {
        "toplevel": {
            "fields": [
                {
                    "layout": {"size": "Int8", "kind": "Int"},
                    "kind": "anon",
                    "data_kind": {"size": 1, "kind": "Float"},
                }
            ]
        },
        "fields": [],
    }
    assert [ballot.encode(b).hex() for b in ("yay", "nay", "pass")] == ["00", "01", "02"]
    for raw, number in ((b"\x03", 3), (b"\xff", -1)):
        with pytest.raises(DecodeError) as caught:
            ballot.decode(raw)
        assert (caught.value.code, caught.value.offset) == ("no_case_matched", 0)
        assert caught.value.message == f"ballot {number} is none of 0 (yay), 1 (nay), 2 (pass)"


SHARED = {
    "gas.cost": ["004 005 006", "007"],
    "contract.big_map_diff": ["004", "005 006", "007"],
    "constants.fixed": ["004 005 006", "007"],
    "constants.parametric": ["004", "005", "006 007"],
    "constants": ["004", "005", "006", "007"],
    "parameters": ["004", "005", "006 007"],
}
"""The protocols that share each encoding whose layout changed over 004-007
(the others: one for all four), as their ``*_repr.ml`` say."""


@pytest.mark.parametrize("name", values.VALUE_IDS)
def test_a_protocol_has_its_predecessors_very_encoding_where_the_layout_is_the_same(
    name: str,
) -> None:
    groups = [[int(number) for number in g.split()] for g in SHARED.get(name, ["4 5 6 7"])]
    of = {p.number: registry.find(p.id(name)).encoding for p in PROTOCOLS}
    assert sorted(n for g in groups for n in g) == sorted(of)
    for group in groups:
        assert all(of[n] is of[group[0]] for n in group), (name, group)
    firsts = [of[g[0]] for g in groups]
    assert len({id(e) for e in firsts}) == len(groups), name


def test_a_protocols_receipts_and_parameters_read_its_own_micheline() -> None:
    """Big map keys, values and types, and bootstrap contracts' scripts, are
    written with the protocol's own primitives (005 added six)."""
    assert athens.CONTRACT_BIG_MAP_DIFF is receipts.athens_big_map_diff(athens.SCRIPT_EXPR)
    for module in (babylon, carthage):
        diff = receipts.big_map_diff(module.SCRIPT_EXPR, named=True)
        assert module.CONTRACT_BIG_MAP_DIFF is diff
    assert delphi.CONTRACT_BIG_MAP_DIFF is receipts.big_map_diff(delphi.SCRIPT_EXPR, named=False)
    assert athens.PARAMETERS is constants.athens_parameters(athens.SCRIPT)
    assert babylon.PARAMETERS is constants.babylon_parameters(babylon.SCRIPT)
    for module in (carthage, delphi):
        assert module.PARAMETERS is constants.carthage_parameters(module.SCRIPT)
    with pytest.raises(JsonError) as caught:
        athens.CONTRACT_BIG_MAP_DIFF.from_json(
            [
                {
                    "key_hash": "exprv6UsC1sN3Fk2XfgcJCL8NCerP5rCGy1PRESZAqr7L2JdzX55EN",
                    "key": {"prim": "DIG"},
                }
            ]
        )
    assert caught.value.path == (0, "key", "prim")


def test_big_map_diffs_are_named_as_the_node_names_them() -> None:
    """``contract.big_map_diff`` is a ``def`` in 004-006's sources, not in 007's."""
    named = [isinstance(m.CONTRACT_BIG_MAP_DIFF, Def) for m in (athens, babylon, carthage, delphi)]
    assert named == [True, True, True, False]
    assert [m.CONTRACT_BIG_MAP_DIFF.id for m in (athens, babylon)] == ["contract.big_map_diff"] * 2
    carthages = carthage.CONTRACT_BIG_MAP_DIFF  # 007's: the very list, unnamed
    assert isinstance(carthages, Def) and delphi.CONTRACT_BIG_MAP_DIFF is carthages.inner


def test_athens_parameters_leave_out_the_constants_that_keep_their_default() -> None:
    """004's parameters give a constant only where it differs from the
    protocol's default: absent, it reads ``None``; given, it is written as
    given (a presence byte and the value), its default too."""
    mainnet = registry.find(ATHENS.id("constants.parametric")).samples["valid"][0]["json"]
    assert constants.ATHENS_PARAMETRIC.from_json(mainnet) == constants.ATHENS_DEFAULTS
    sandbox: dict[str, JsonValue] = {"bootstrap_accounts": [], "preserved_cycles": 2}
    value = athens.PARAMETERS.from_json(sandbox)
    assert value["preserved_cycles"] == 2 and value["blocks_per_cycle"] is None
    assert value["bootstrap_contracts"] == [] and value["commitments"] == []
    assert athens.PARAMETERS.to_json(value) == sandbox
    given = athens.PARAMETERS.from_json({**sandbox, "blocks_per_cycle": 4096})
    raw = athens.PARAMETERS.encode(given)
    assert raw.hex().startswith("00000000" * 3 + "0000ff02ff0000100000")
    assert athens.PARAMETERS.decode(raw) == given
