"""The strategies pass as a public API (issue 15).

* every tagged case of every union (catalogue, rich, hand-written and
  vector encodings) is drawn: a case is reached, not filtered away;
* a union keeps a value out of a case only for a stated reason (an earlier
  case takes the value, or its JSON), not because it fails to round-trip: a
  broken ``conv`` inside a union is reported, not hidden;
* ``conv`` and ``splitted`` take a user's strategy (``values=``); without
  one, a wire-side value that does not come back through the user's
  functions is an error that says to give one.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

import data_encoding as de
from data_encoding import DefinitionError, Encoding
from data_encoding.node import registry
from data_encoding.node.hashes import BlockHash, HashBytes, TaggedBytes
from data_encoding.node.protocols.contracts import ContractId
from data_encoding.passes.strategies import binary_values
from data_encoding.strategies import from_encoding
from data_encoding.tree.records import Part
from data_encoding.tree.unions import Case, Union
from data_encoding.tree.wrappers import Mu, Splitted
from hand import HAND, VECTORS
from rich import rich_encodings

SEARCH = settings(
    max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
DRAW = settings(SEARCH, max_examples=500)
"""The draws a union's cases may take to appear (the search stops once all
have): Hypothesis draws the branches of a union unevenly when some of its
cases' values are large, as an operation's eleven kinds of contents
(block headers, scripts), of which one took over 200 draws to appear."""


def parts_of(e: Encoding[Any]) -> Iterator[Encoding[Any]]:
    """The encodings whose values make ``e``'s (a ``splitted``'s binary side only)."""
    if isinstance(e, Mu):
        yield e.body
        return
    if isinstance(e, Splitted):
        yield e.binary
        return
    pending: list[Any] = list(e._rebuild()[1])
    while pending:
        arg = pending.pop()
        if isinstance(arg, Encoding):
            yield arg
        elif isinstance(arg, Part | Case):
            yield arg.enc
        elif isinstance(arg, tuple | list):
            pending.extend(arg)


Found = tuple[Union, bool]
"""A union, and whether its values are drawn for its JSON form too (not
under a ``splitted``'s binary side)."""


def unions_in(roots: dict[str, Encoding[Any]]) -> dict[str, Found]:
    """Every union reachable from ``roots``, named by where it was first found."""
    found: dict[str, Found] = {}
    seen: set[tuple[int, bool]] = set()
    pending = [(name, e, True) for name, e in roots.items()]
    while pending:
        name, e, json = pending.pop()
        if (id(e), json) in seen:
            continue
        seen.add((id(e), json))
        if isinstance(e, Union) and len(e.tagged) > 1:
            found[f"{name}/{len(found)}"] = (e, json)
        under = json and not isinstance(e, Splitted)
        pending.extend((name, part, under) for part in parts_of(e))
    return found


def _roots() -> dict[str, Encoding[Any]]:
    catalogue = {entry.id: entry.encoding for entry in registry.entries()}
    return catalogue | rich_encodings() | HAND | VECTORS


UNIONS = unions_in(_roots())


def tag_of(u: Union, value: Any) -> int:
    return int.from_bytes(u.encode(value)[: u.tag_width], "big")


class AllDrawn(Exception):
    """Every case wanted has been drawn: the search can stop."""


def tags_drawn(u: Union, values: SearchStrategy[Any], wanted: set[int]) -> set[int]:
    """The tags of ``u``'s cases that ``values`` draws (it stops once it has
    drawn ``wanted``)."""
    drawn: set[int] = set()

    # generation only: shrinking a found value (a whole service tree) would
    # cost more than the search
    @given(values)
    @settings(DRAW, phases=[Phase.generate])
    def draw(value: Any) -> None:
        drawn.add(tag_of(u, value))
        if drawn >= wanted:
            raise AllDrawn

    with contextlib.suppress(AllDrawn):
        draw()
    return drawn


SHADOWED_IN_JSON = {("union_tag_gaps", "Big")}
"""Cases none of whose values has a JSON form of its own: an earlier case
reads all of their JSON (a ``z`` after a ``string``: "12" is a string)."""


@pytest.mark.parametrize("name", sorted(UNIONS))
def test_every_case_is_drawn(name: str) -> None:
    u, json = UNIONS[name]
    root = name.split("/")[0]
    shadowed = {c.tag for c in u.tagged if json and (root, c.title) in SHADOWED_IN_JSON}
    tags = {c.tag for c in u.tagged if c.tag is not None}
    drawn = tags_drawn(u, from_encoding(u) if json else binary_values(u), tags - shadowed)
    never = [f"{c.title!r} (tag {c.tag})" for c in u.tagged if c.tag not in drawn | shadowed]
    assert not never, f"cases of {name} never drawn: {', '.join(never)}"
    assert not drawn & shadowed


@pytest.mark.parametrize("root, title", sorted(SHADOWED_IN_JSON))
def test_a_case_shadowed_in_json_is_drawn_for_binary(root: str, title: str) -> None:
    """... and its values' JSON is refused as ambiguous (so it is not drawn)."""
    ((u, _),) = [(u, json) for name, (u, json) in UNIONS.items() if name.startswith(root + "/")]
    (c,) = [c for c in u.tagged if c.title == title]
    assert c.tag is not None
    assert c.tag in tags_drawn(u, binary_values(u), {c.tag})
    value = find(binary_values(u), lambda v: tag_of(u, v) == c.tag, settings=SEARCH)
    with pytest.raises(de.EncodeError) as info:
        u.to_json(value)
    assert info.value.code == "ambiguous_json"


MICHELINE = (
    "Int",
    "String",
    "Sequence",
    "Prim (no args, annot)",
    "Prim (no args + annot)",
    "Prim (1 arg, no annot)",
    "Prim (1 arg + annot)",
    "Prim (2 args, no annot)",
    "Prim (2 args + annot)",
    "Generic prim (any number of args with or without annot)",
    "Bytes",
)
"""A Micheline node's binary cases, titled as the reference titles them."""

CONTENTS = (
    "Endorsement",
    "Seed_nonce_revelation",
    "Double_endorsement_evidence",
    "Double_baking_evidence",
    "Activate_account",
    "Proposals",
    "Ballot",
    "Reveal",
    "Transaction",
    "Origination",
    "Delegation",
)
"""An operation's contents (protocols 004-007), titled as the reference titles them."""

CURVES = ("Ed25519", "Secp256k1", "P256")

RESULT = ("Applied", "Failed", "Skipped", "Backtracked")
"""A manager operation's result, by its status (protocols 004-007)."""

INTERNAL_RESULT = ("reveal", "transaction", "origination", "delegation")
"""An internal operation's result, titled by its kind as the reference titles it."""


def test_the_walk_finds_the_catalogues_unions() -> None:
    """The parametrisation above covers the catalogue, not only test encodings,
    and draws a union for its binary form alone only under a ``splitted``."""
    catalogue = unions_in({entry.id: entry.encoding for entry in registry.entries()})
    # drawn for their binary form only: the unions under public key hashes'
    # splitted, Micheline nodes' (one per primitive table: 004's, 005's), and
    # operations' contents lists' (one per generation, 004's and 005's), with
    # the unions their contents hold (public keys', public key hashes' and
    # contracts' curves and kinds, 005's entrypoints); and the lists of
    # contents with their results (one per generation of results: 004's,
    # 005's, 007's), with the unions those hold (each kind's result, the
    # internal results, balance updates, big map diffs)
    binary_only = [tuple(c.title for c in u.tagged) for u, json in catalogue.values() if not json]
    assert sorted(binary_only) == sorted(
        [
            *[CURVES] * 3,
            *[MICHELINE] * 2,
            *[CONTENTS] * 5,
            ("Implicit", "Originated"),
            ("default", "root", "do", "set_delegate", "remove_delegate", "named"),
            *[RESULT] * 12,
            *[INTERNAL_RESULT] * 3,
            ("Contract", "Rewards", "Fees", "Deposits"),
            ("update", "remove", "copy", "alloc"),
        ]
    )
    assert {tuple(c.title for c in u.tagged) for u, _ in catalogue.values()} == {
        CURVES,
        MICHELINE,
        CONTENTS,
        ("Reveal", "Transaction", "Origination", "Delegation"),
        ("default", "root", "do", "set_delegate", "remove_delegate", "named"),
        ("Implicit", "Originated"),
        ("Limited", "Unaccounted"),
        ("Proposal", "Testing_vote", "Testing", "Promotion_vote"),
        ("running", "exited", "stopped", "signaled"),
        ("baker", "endorser", "accuser"),
        ("Obj", "Cases", "Int_enum"),
        ("named", "anon", "dyn", "option_indicator"),
        (
            "Zero_width",
            "Int",
            "Bool",
            "RangedInt",
            "RangedFloat",
            "Float",
            "Bytes",
            "String",
            "Enum",
            "Seq",
            "Ref",
            "Padding",
        ),
        ("no-limit", "at-most", "exactly"),
        ("Fixed", "Dynamic", "Variable"),
        ("PStatic", "PDynamic", "PDynamicTail"),
        ("Single", "Optional", "Flag", "Multi"),
        ("Static", "Dynamic", "Empty"),
        ("Suffixes", "Arg"),
        ("Some", "None"),
        ("Implicit", "Originated"),
        ("Limited", "Unaccounted"),
        ("Proposal", "Testing_vote", "Testing", "Promotion_vote"),
        ("Contract", "Rewards", "Fees", "Deposits"),
        ("update", "remove", "copy", "alloc"),
        ("Public_key_known", "Public_key_unknown"),
        RESULT,
        INTERNAL_RESULT,
        ("Operation_with_metadata", "Operation_without_metadata"),
    }


# ------------------------------------------- fixed bytes: the values they read


def drawn(e: Encoding[Any]) -> list[Any]:
    """50 values of ``e``'s strategy (the same 50 on every run)."""
    values: list[Any] = []

    @settings(SEARCH, max_examples=50, derandomize=True, phases=[Phase.generate])
    @given(from_encoding(e))
    def draw(value: Any) -> None:
        values.append(value)

    draw()
    return values


def test_fixed_bytes_read_as_a_value_of_their_own_draw_what_they_read() -> None:
    """A hash's or a tagged key's leaf (its atom's ``unpack`` makes the value
    from any bytes of its width: a ``node`` type the pass does not name)
    draws values of its type, constant bytes included; plain fixed bytes draw
    bytes, and a fixed string text or bytes that are not UTF-8."""
    hashes = drawn(HashBytes(BlockHash))
    assert {(type(v), len(v)) for v in hashes} == {(BlockHash, 32)}
    tagged = drawn(TaggedBytes(ContractId, 20, "Contract_hash", b"\x01", b"\x00"))
    assert {(type(v), len(v), v[0], v[-1]) for v in tagged} == {(ContractId, 22, 1, 0)}
    assert len(set(hashes)) > 40 and len(set(tagged)) > 40  # not one constant value
    assert {(type(v), len(v)) for v in drawn(de.fixed.bytes_(3))} == {(bytes, 3)}
    assert {type(v) for v in drawn(de.fixed.string(3))} == {str, bytes}


# ------------------------------------------------ conv, splitted: user values


def test_conv_takes_a_users_strategy() -> None:
    tenths = de.conv(
        lambda c: round(c * 10),
        lambda t: t / 10,
        de.int16,
        values=lambda: st.integers(-300, 300).map(lambda t: t / 10),
    )
    value = find(from_encoding(tenths), lambda v: v < -20)
    assert value == -20.1
    assert tenths.decode(tenths.encode(value)) == value


def _lossy() -> Encoding[str]:
    # values are lower-case words; the wire side draws any text: "A" comes
    # back as "a", so the wire side's values are not this conv's values
    return de.conv(str.lower, str, de.string)


def test_conv_without_values_says_its_wire_values_do_not_come_back() -> None:
    with pytest.raises(DefinitionError) as info:
        find(from_encoding(_lossy()), lambda v: v != v.lower())
    message = str(info.value)
    assert message.startswith("conv(str.lower, str, string): ")
    assert "comes back as" in message
    assert message.endswith("give the conv its values: conv(..., values=<a strategy factory>)")


def test_a_union_reports_a_broken_conv_instead_of_hiding_it() -> None:
    """Before, the union quietly filtered the values that did not round-trip."""
    u = de.union([de.case(0, "n", de.uint8), de.case(1, "word", _lossy())])
    with pytest.raises(DefinitionError) as info:
        find(from_encoding(u), lambda v: isinstance(v, str) and v != v.lower(), settings=SEARCH)
    assert "give the conv its values" in str(info.value)


def test_a_conv_refusing_some_wire_values_draws_the_others() -> None:
    """A ``from_wire`` that raises refuses that wire value (a checked conv):
    it is not a value, and the others are drawn."""

    def even(n: int) -> int:
        if n % 2:
            raise ValueError("odd")
        return n

    e = de.conv(even, even, de.uint8)

    @given(from_encoding(e))
    @settings(max_examples=50, database=None)
    def check(v: int) -> None:
        assert v % 2 == 0
        assert e.decode(e.encode(v)) == v

    check()


def test_splitted_takes_a_users_strategy() -> None:
    json_side = de.conv(str, int, de.string)
    e = de.splitted(json=json_side, binary=de.uint8, values=lambda: st.integers(0, 9))
    drawn = find(from_encoding(e), lambda v: v > 5)
    assert drawn == 6
    assert (e.encode(drawn), e.to_json(drawn)) == (b"\x06", "6")


def test_splitted_without_values_says_its_json_side_refuses_a_value() -> None:
    e = de.splitted(json=de.string_enum(["a", "b"]), binary=de.string)
    with pytest.raises(DefinitionError) as info:
        find(from_encoding(e), lambda v: True)
    message = str(info.value)
    assert message.startswith("splitted(json=string_enum(['a', 'b']), binary=string): ")
    assert message.endswith(
        "give the splitted its values: splitted(..., values=<a strategy factory>)"
    )


def test_values_must_be_a_factory() -> None:
    with pytest.raises(DefinitionError) as info:
        de.splitted(json=de.uint8, binary=de.uint8, values=st.integers())  # type: ignore[arg-type]
    assert str(info.value) == "splitted: values is not callable (LazyStrategy)"
