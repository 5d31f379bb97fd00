"""The RPC directory (seed part 4), its /describe tree, address families, and typing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from data_encoding import DefinitionError, empty
from data_encoding.node import PublicKeyHash, output_family, public_key_hash, rpc, set_output_family
from data_encoding.node.catalogue.discovery import SERVICE_TREE
from data_encoding.node.hashes import BlockHash, ChainId

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT / "seeds" / "node-interface.txt").read_text()


def _seed_endpoints() -> set[tuple[str, str]]:
    """(method, path) of every row of the seed's part 4 tables, read from the text."""
    found: set[tuple[str, str]] = set()
    part4 = SEED[SEED.index("## 4. Endpoints") : SEED.index("## 5.")]
    prefix = ""
    for line in part4.splitlines():
        if line.startswith("### 4.5"):
            prefix = "/chains/<chain_id>/blocks/<block_id>"
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) < 2 or not re.fullmatch(r"[A-Z, ]+|any \(dynamic\)", cells[0]):
            continue
        methods = ["GET"] if cells[0].startswith("any") else re.findall(r"[A-Z]+", cells[0])
        text = cells[1]
        for base, verbs in re.findall(r"`([^`]+)/` \+ one of ((?:`[^`]+`(?:, )?)+)", text):
            for verb in re.findall(r"`([^`]+)`", verbs):
                found |= {(m, prefix + base + "/" + verb) for m in methods}
        text = re.sub(r"`[^`]+/` \+ one of (?:`[^`]+`(?:, )?)+", "", text)
        for path in re.findall(r"`(/[^`]*)`", text):
            found |= {(m, (prefix + path).rstrip("/") or "/") for m in methods}
    return found


def test_every_endpoint_of_part_4_is_in_the_directory() -> None:
    ours = {(s.method, p.rstrip("/") or "/") for p, s in rpc.services(brand="ext")}
    # the describe service takes a dynamic tail (the seed writes its prefix), and
    # the mempool is a dynamic subtree (no service of its own to list)
    ours = {(m, p.removesuffix("/<string>*")) for m, p in ours}
    ours.add(("GET", "/chains/<chain_id>/mempool"))
    assert ours == _seed_endpoints()
    assert len(ours) == 170


def test_describe_root_round_trips_in_json_and_binary() -> None:
    tree = rpc.describe("/", recurse=True)
    text: Any = SERVICE_TREE.to_json(tree)
    assert SERVICE_TREE.to_json(SERVICE_TREE.from_json(json.loads(json.dumps(text)))) == text
    assert SERVICE_TREE.to_json(SERVICE_TREE.decode(SERVICE_TREE.encode(tree))) == text
    names = [s["name"] for s in text["static"]["subdirs"]["suffixes"]]
    assert names == sorted(names) and "dune" in names and "ext" not in names


def test_describe_descends_into_the_block_namespace() -> None:
    blocks = rpc.describe("/chains/main/blocks", recurse=True)["static"]["subdirs"]
    assert blocks["dynamic_dispatch"]["arg"]["name"] == "block_id"
    assert blocks["dynamic_dispatch"]["tree"] == {
        "dynamic": "All the RPCs which are specific to the protocol version."
    }
    meta = rpc.describe("/chains/main/blocks/head/metadata", recurse=False)
    assert meta["static"]["get_service"]["path"] == ["metadata"]
    assert rpc.describe("/chains/main/mempool") == {"dynamic": None}
    with pytest.raises(rpc.NotFound):
        rpc.describe("/chains/main/blocks/head/nowhere")
    with pytest.raises(rpc.NotFound):
        rpc.describe("/admin/daemon/notanumber")
    with pytest.raises(rpc.NotFound):
        rpc.describe("/admin", recurse=False)


def test_typed_endpoints_can_be_listed() -> None:
    typed = {(s.method, p) for p, s in rpc.services() if s.typed}
    assert ("GET", "/chains/<chain_id>/checkpoint") in typed
    assert ("POST", "/admin/daemons/register") in typed
    assert ("GET", "/chains/<chain_id>/blocks/<block_id>/metadata") in typed
    assert ("GET", "/network/peers") not in typed
    assert len(typed) == 25


def test_walk_lists_the_services_under_a_concrete_path() -> None:
    directory = rpc.directory_of()
    under = [(s.method, rpc.path_text(p)) for p, s in directory.walk("/chains/main/checkpoint")]
    assert under == [("GET", "/chains/<chain_id>/checkpoint")]
    # into the block-scoped subtree: its services' paths hang below its mount
    hashes = [
        (s.method, rpc.path_text(p)) for p, s in directory.walk("/chains/main/blocks/head/hash")
    ]
    assert hashes == [("GET", "/chains/<chain_id>/blocks/<block_id>/hash")]
    admin = [rpc.path_text(p) for p, _ in directory.walk("/admin")]
    assert admin == [p for p, _ in rpc.services() if p.startswith("/admin/") or p == "/admin"]
    assert len(admin) == 17
    assert list(directory.walk("/")) == list(directory.walk())
    with pytest.raises(rpc.NotFound, match="/admin/nowhere: no 'nowhere' here"):
        directory.walk("/admin/nowhere")  # at once, not on the first service


def test_query_arguments_are_typed() -> None:
    (blocks,) = [s for p, s in rpc.services() if p == "/chains/<chain_id>/blocks"]
    h = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
    parsed = blocks.query.parse(f"length=3&head={h}&head={h}&min_date=1587399600")
    assert parsed["length"] == 3 and [str(x) for x in parsed["head"]] == [h, h]
    assert parsed["min_date"] == 1587399600
    with pytest.raises(rpc.ArgError, match="duplicate"):
        blocks.query.parse("length=1&length=2")
    assert blocks.query.print({"length": 3}) == "length=3"


# ------------------------------------------------------------------ building a directory

A = rpc.ARGS


def _service(method: Any, path: str) -> rpc.Service:
    return rpc.Service(method, rpc.parse_path(path), output=empty)


@pytest.mark.parametrize(
    ("first", "then", "message"),
    [
        (("GET", "/a"), ("GET", "/a"), "GET /a: registered twice"),
        (("GET", "/a/<int>"), ("GET", "/a/b"), "GET /a/b: 'b' beside argument int"),
        (("GET", "/a/b"), ("GET", "/a/<int>"), "GET /a/<int>: argument int beside ['b']"),
        (("GET", "/a/<int>"), ("GET", "/a/<pid>"), "GET /a/<pid>: argument pid where int is"),
        (("GET", "/a/<int>"), ("GET", "/a/<int>*"), "GET /a/<int>*: argument int* where int is"),
        (
            ("GET", "/a/<string>*"),
            ("GET", "/a/<string>*/b"),
            "GET /a/<string>*/b: a path goes through a dynamic subtree or a tail",
        ),
    ],
)
def test_a_path_that_cannot_be_placed_is_refused(
    first: tuple[str, str], then: tuple[str, str], message: str
) -> None:
    d = rpc.Directory()
    d.register(_service(*first))
    with pytest.raises(DefinitionError) as caught:
        d.register(_service(*then))
    assert caught.value.message == message
    d.register(_service("POST", first[1]))  # another method at the same place is fine


def test_dynamic_subtrees_take_their_place_whole() -> None:
    d = rpc.Directory()
    d.register(_service("GET", "/a"))
    with pytest.raises(DefinitionError) as caught:
        d.mount(rpc.parse_path("/a"), None, None)
    assert caught.value.message == "mount /a: the place holds services"
    d.mount(rpc.parse_path("/m"), "on demand", None)
    for path, message in (
        ("/m", "GET /m: the place is a dynamic subtree"),
        ("/m/x", "GET /m/x: a path goes through a dynamic subtree or a tail"),
    ):
        with pytest.raises(DefinitionError) as caught:
            d.register(_service("GET", path))
        assert caught.value.message == message
    with pytest.raises(DefinitionError) as caught:
        d.mount(rpc.parse_path("/m"), None, None)
    assert caught.value.message == "mount /m: the place holds a mount"
    assert d.describe("/m") == {"dynamic": "on demand"}


def test_an_unknown_argument_name_is_refused() -> None:
    with pytest.raises(DefinitionError) as caught:
        rpc.parse_path("/a/<chain>/b")
    assert caught.value.message == "/a/<chain>/b: no argument is named 'chain'"
    path = rpc.parse_path("/a/<chain_id>/<string>*")
    assert path == ("a", A["chain_id"], rpc.Tail(A["string"]))
    assert rpc.path_text(path) == "/a/<chain_id>/<string>*"


# ------------------------------------------------------------------ arguments

BLOCK = "BKpbfCvh777DQHnXjU2sqHvVUNZ7dBAdqEfKkdw8EGSkD9LSYXb"
BAD_BLOCK = (
    "'block_id' expects a block hash or level, or genesis, head, checkpoint, save_point "
    "or caboose, with ~N, -N or +N where the node allows, not "
)
CHAIN = "NetXdQprcVkpaWU"


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("int", "-12", -12),
        ("int", str(2**62 - 1), 2**62 - 1),
        ("bool", "yes", True),
        ("bool", "true", True),
        ("bool", "", True),  # a flag given as ?name
        ("bool", "no", False),
        ("bool", "false", False),
        ("date", "1587399600", 1587399600),
        ("date", "-5", -5),
        ("date", "none", 0),
        ("date", "epoch", 0),
        ("chain_id", "main", "main"),
        ("chain_id", "test", "test"),
        ("block_id", "head", "head"),
        ("block_id", "genesis", "genesis"),
        ("block_id", "head~2", "head~2"),
        ("block_id", "head-10", "head-10"),
        ("block_id", "genesis+7", "genesis+7"),
        ("block_id", "checkpoint", "checkpoint"),
        ("block_id", "save_point~1", "save_point~1"),
        ("block_id", "caboose+2", "caboose+2"),
        ("block_id", f"{BLOCK}~3", f"{BLOCK}~3"),
        ("block_id", f"{BLOCK}+3", f"{BLOCK}+3"),
        ("block_id", "1234", 1234),
        ("block_id", "0", 0),
        ("Unix_signal", "1", 1),
        ("Unix_signal", "64", 64),
        ("size", "0", 0),
        ("size", str(2**30 - 1), 2**30 - 1),
        ("daemon_kind", "endorser", "endorser"),
        ("alias", "bob", "bob"),
        ("list_offset", "3", 3),
        # the protocols' Raw_level_repr.rpc_arg: Int32.of_string_opt
        ("block_level", str(2**31 - 1), 2**31 - 1),
        ("block_level", str(-(2**31)), -(2**31)),
    ],
)
def test_an_argument_reads_its_text(name: str, text: str, value: Any) -> None:
    got = A[name].parse(text)
    assert got == value and type(got) is type(value)


def test_hash_arguments_read_base58check() -> None:
    assert A["chain_id"].parse(CHAIN) == ChainId.from_b58check(CHAIN)
    assert A["block_id"].parse(BLOCK) == BlockHash.from_b58check(BLOCK)
    assert A["block_hash"].parse(BLOCK) == BlockHash.from_b58check(BLOCK)
    assert A["pkh"].parse(TZ1) == A["pkh"].parse(DN1) == PublicKeyHash(bytes(21))


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("int", "12a", "'int' expects an integer, not '12a'"),
        ("int", str(2**62), f"'int' expects an integer in {-(2**62)}..{2**62 - 1}, not {2**62}"),
        ("bool", "maybe", "'bool' expects yes, true, no or false, not 'maybe'"),
        (
            "date",
            "2020-04-20T16:20:00Z",  # the node's date argument is seconds only
            "'date' expects seconds from the epoch (an int64), not '2020-04-20T16:20:00Z'",
        ),
        ("date", str(2**63), f"'date' expects seconds from the epoch (an int64), not '{2**63}'"),
        (
            "chain_id",
            "mainnet",
            "'chain_id' expects main, test or a Base58Check chain_id, not 'mainnet'",
        ),
        *(
            ("block_id", text, BAD_BLOCK + repr(text))
            for text in (
                "head~x",
                "head+1",  # head counts back only
                "genesis~1",  # genesis counts forward only
                "head~1~2",  # one delimiter
                "2147483648",  # a level is an int32
                "-1",
                "",
                BLOCK[:-1] + "Y",  # a bad checksum
            )
        ),
        ("pkh", "tz9x", "'pkh' expects a Base58Check pkh, not 'tz9x'"),
        ("Unix_signal", "0", "'Unix_signal' expects an integer in 1..64, not 0"),
        ("Unix_signal", "65", "'Unix_signal' expects an integer in 1..64, not 65"),
        ("size", "-1", f"'size' expects an integer in 0..{2**30 - 1}, not -1"),
        ("pid", " 1", "'pid' expects an integer, not ' 1'"),
        (
            "block_level",
            str(2**31),
            f"'block_level' expects an integer in {-(2**31)}..{2**31 - 1}, not {2**31}",
        ),
        (
            "daemon_kind",
            "sleeper",
            "'daemon_kind' expects baker, endorser or accuser, not 'sleeper'",
        ),
    ],
)
def test_an_argument_refuses_other_text(name: str, text: str, message: str) -> None:
    with pytest.raises(rpc.ArgError) as caught:
        A[name].parse(text)
    assert str(caught.value) == message


HUGE = "9" * 5000  # beyond the 4300 digits Python's int() takes


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("int", HUGE, f"'int' expects an integer in {-(2**62)}..{2**62 - 1}, not {HUGE[:40]}..."),
        (
            "pid",
            "-" + HUGE,
            f"'pid' expects an integer in {-(2**30)}..{2**30 - 1}, not -{HUGE[:39]}...",
        ),
        ("date", HUGE, f"'date' expects seconds from the epoch (an int64), not {HUGE[:40]!r}"),
        ("block_id", HUGE, BAD_BLOCK + repr(HUGE[:60])),
        ("block_id", "head~" + HUGE, BAD_BLOCK + repr(("head~" + HUGE)[:60])),
    ],
)
def test_a_number_too_long_for_int_is_refused_like_any_out_of_range_one(
    name: str, text: str, message: str
) -> None:
    with pytest.raises(rpc.ArgError) as caught:
        A[name].parse(text)
    assert str(caught.value) == message


def test_arguments_print_what_they_read() -> None:
    assert [A["bool"].print(b) for b in (True, False)] == ["yes", "no"]
    assert A["int"].print(A["int"].parse("-7")) == "-7"
    assert A["chain_id"].print(A["chain_id"].parse(CHAIN)) == CHAIN
    assert A["block_id"].print(A["block_id"].parse("head~2")) == "head~2"
    assert A["Unix_signal"].describe() == {
        "id": "single",
        "name": "Unix_signal",
        "descr": "A Unix signal number",
    }


# ------------------------------------------------------------------ address families

TZ1 = "tz1Ke2h7sDdakHJQh8WX4Z372du1KChsksyU"
DN1 = "dn1G8vdxwTcD7Nqf5ewF8FAj6bRG8iqtTgba"
ZERO = PublicKeyHash(bytes(21))


def test_both_families_read_to_the_same_bytes() -> None:
    assert public_key_hash.from_json(TZ1) == public_key_hash.from_json(DN1) == bytes(21)
    assert public_key_hash.to_json(ZERO) == DN1
    with output_family("tezos"):
        assert public_key_hash.to_json(ZERO) == TZ1
        assert str(PublicKeyHash(bytes(21))) == TZ1
    assert PublicKeyHash(bytes(21)).b58check("tezos") == TZ1
    set_output_family("tezos")
    try:
        assert public_key_hash.to_json(ZERO) == TZ1
    finally:
        set_output_family("dune")


def test_an_output_family_block_is_per_thread() -> None:
    seen: list[Any] = []
    inside, done = threading.Event(), threading.Event()

    def other() -> None:
        inside.wait()
        seen.append(public_key_hash.to_json(ZERO))
        done.set()

    t = threading.Thread(target=other)
    t.start()
    with output_family("tezos"):
        inside.set()
        done.wait()
    t.join()
    assert seen == [DN1]


# ------------------------------------------------------------------ typing

USER_FILE = """
from data_encoding.node.catalogue.chains import BLOCK_HEADER, CHECKPOINT
from data_encoding import obj, req, opt, uint16, string
from data_encoding.tree.typed import typed
from typing import NotRequired, TypedDict

header = BLOCK_HEADER.decode(b"")
header["sav_point"]
level: int = header["level"]
checkpoint = CHECKPOINT.decode(b"")
checkpoint["save_point"]
CHECKPOINT.encode({"block": header, "save_point": 1, "caboose": 0})

class Point(TypedDict):
    id: int
    name: NotRequired[str | None]

POINT = typed(Point, obj(req("id", uint16), opt("name", string)))
POINT.encode({"id": 1, "nmae": "x"})
"""


def test_users_mypy_sees_record_types(tmp_path: Path) -> None:
    (tmp_path / "user.py").write_text(USER_FILE)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(tmp_path / "user.py")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    errors = sorted(
        re.sub(r"^.*user\.py:(\d+): error: ", r"\1: ", line)
        for line in result.stdout.splitlines()
        if ": error:" in line
    )
    assert errors == [
        '12: Missing key "history_mode" for TypedDict "Checkpoint"  [typeddict-item]',
        '19: Extra key "nmae" for TypedDict "Point"  [typeddict-unknown-key]',
        '8: TypedDict "BlockHeader" has no key "sav_point"  [typeddict-item]',
    ], result.stdout
