"""The catalogue: the registry, every id's samples both ways, its schemas and
strategy, and the node's records the seed defines (parts 2 and 4.1-4.3)."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_ids import ENCODING_IDS, KINDS, OWN_SAMPLES, own_samples, sample_key
from data_encoding import DecodeError, DefinitionError, EncodeError, JsonError, binary_schema
from data_encoding.errors import format_path
from data_encoding.jsonvalue import dumps, loads
from data_encoding.node import registry
from data_encoding.node.catalogue import admin, chains
from data_encoding.node.registry import UnknownId

IDS = registry.ids()


def test_ids_are_sorted_dotted_and_cover_the_seed() -> None:
    assert sorted(IDS) == IDS
    expected = {
        "unistring", "signature.public_key_hash", "bignum", "int64", "timestamp.rfc",
        "timestamp.system", "timestamp.protocol", "protocol_hash", "block_hash", "chain_id",
        "context_hash", "operation_list_list_hash", "fitness",
        "admin.account_alias", "admin.accounts", "admin.daemon", "admin.daemons",
        "admin.process_state", "admin.daemon_status", "admin.daemon_description",
        "admin.register_daemon", "admin.start_accuser", "admin.start_baker",
        "admin.start_endorser", "admin.daemon_kind",
        "shell.block_header", "chain.checkpoint", "chain.history_mode", "chain.invalid_block",
        "chain.invalid_blocks", "chain.blocks", "chain.block_metadata", "rpc.empty",
        "rpc.service_tree", "rpc.service", "rpc.schemas", "rpc.binary_schema",
        "rpc.error", "rpc.errors",
    }  # fmt: skip
    assert expected <= set(IDS)


def test_find_names_close_ids() -> None:
    with pytest.raises(UnknownId) as caught:
        registry.find("admin.deamon")
    assert caught.value.close[0] == "admin.daemon"
    assert str(caught.value).startswith("unknown id 'admin.deamon'; did you mean 'admin.daemon'")
    with pytest.raises(UnknownId, match=r"^unknown id 'zzz'$"):
        registry.find("zzz")


def test_register_refuses_a_taken_or_malformed_id() -> None:
    with pytest.raises(DefinitionError, match="already registered"):
        registry.register("admin.daemon", admin.DAEMON, "again", "2 Daemon record")
    with pytest.raises(DefinitionError, match="dotted lower-case"):
        registry.register("Admin.Daemon", admin.DAEMON, "x", "2")


@pytest.mark.parametrize("id", IDS)
def test_every_id_has_samples_and_pickles_by_reference(id: str) -> None:
    entry = registry.find(id)
    assert entry.samples["valid"], f"{id} has no sample"
    assert entry.section[0].isdigit() and entry.description
    assert pickle.loads(pickle.dumps(entry.encoding)) is entry.encoding


def test_every_sample_file_is_its_ids_and_checked_under_its_encoding() -> None:
    """Each sample is checked once per encoding (``catalogue_ids``): every
    sample file, as it is on disk, names its own id, and each of its samples
    is one checked under an id of the very encoding its id names."""
    checked = {
        sample_key(id, kind, sample)
        for id, own in OWN_SAMPLES.items()
        for kind in KINDS
        for sample in own[kind]
    }
    for id in IDS:
        written = json.loads((registry.SAMPLES / f"{id}.json").read_text(encoding="utf-8"))
        assert written["id"] == id
        for kind in KINDS:
            for sample in written[kind]:
                assert sample_key(id, kind, sample) in checked, (id, kind, sample)


@pytest.mark.parametrize(("id", "sample"), own_samples("valid"))
def test_valid_samples_both_ways(id: str, sample: dict[str, Any]) -> None:
    e = registry.find(id).encoding
    raw = bytes.fromhex(sample["hex"])
    assert e.encode(e.from_json(sample["json"])) == raw
    assert e.length(e.from_json(sample["json"])) == len(raw)
    # "decoded": what the bytes read back to, when the binary form holds less
    decoded = sample.get("decoded", sample["json"])
    assert e.to_json(e.decode(raw)) == decoded
    # the JSON text <-> bytes path
    assert e.json_to_bytes(json.dumps(sample["json"], indent=1)) == raw
    text = e.bytes_to_json(raw)
    assert json.loads(text) == decoded
    assert text == json.dumps(e.to_json(e.decode(raw)), separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(("id", "sample"), own_samples("invalid"))
def test_invalid_samples_fail_precisely(id: str, sample: dict[str, Any]) -> None:
    e = registry.find(id).encoding
    found = []
    for direct in (True, False):  # the same error through the JSON text <-> bytes path
        with pytest.raises((DecodeError, JsonError)) as caught:
            if "hex" in sample:
                raw = bytes.fromhex(sample["hex"])
                e.decode(raw) if direct else e.bytes_to_json(raw)
            elif direct:
                e.from_json(sample["json"])
            else:
                e.json_to_bytes(json.dumps(sample["json"]))
        err = caught.value
        found.append({"code": err.code, "offset": err.offset, "path": format_path(err.path)})
    assert found == [sample["error"]] * 2


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_schemas_derive(id: str) -> None:
    e = registry.find(id).encoding
    described = e.describe()
    assert binary_schema.decode(binary_schema.encode(described)) == described
    assert binary_schema.from_json(binary_schema.to_json(described)) == described
    assert json.loads(json.dumps(e.json_schema()))["$schema"].startswith("http://json-schema")
    assert isinstance(e.table(), str) and e.table()


@pytest.mark.parametrize("id", ENCODING_IDS)
def test_strategy_round_trips(id: str) -> None:
    e = registry.find(id).encoding

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(e.strategy())
    def check(v: Any) -> None:
        raw = e.encode(v)
        assert e.decode(raw) == v
        assert len(raw) == e.length(v)
        assert e.from_json(loads(dumps(e.to_json(v)))) == v
        # (to_json of the decoded value: 0.0 and 0 are equal values, not texts)
        assert json.dumps(e.decode_json(raw)) == json.dumps(e.to_json(e.decode(raw)))
        assert e.encode_json(e.to_json(v)) == raw

    check()


# ------------------------------------------------------------------ records


def test_block_header_is_the_real_codecs_raw_header() -> None:
    from golden import codec_vectors

    (row,) = codec_vectors("007-PsDELPH1.block_header.raw")
    value = chains.BLOCK_HEADER.from_json(row["json"])
    assert chains.BLOCK_HEADER.encode(value).hex() == row["hex"]
    assert value["protocol_data"] == bytes.fromhex(row["json"]["protocol_data"])


def test_daemon_record_layout() -> None:
    value = admin.DAEMON.from_json(
        {
            "id": 2,
            "protocols": [],
            "all_active_protocols": True,
            "spawned": False,
            "last_ping": "1970-01-01T00:00:01Z",
            "state": {"pid": 7, "state": "running"},
            "kind": "accuser",
        }
    )
    # common fields (id, protocols' uint30, two bools, int64 ping, state: tag + pid),
    # then the kind's tag and its fields (preserved_levels absent)
    assert admin.DAEMON.encode(value).hex() == (
        "00000002" "00000000" "ff" "00" "0000000000000001" "00" "00000007" "02" "00"
    )  # fmt: skip
    assert dict(value).get("preserved_levels", "absent") is None


def test_process_state_code_is_optional_only_when_exited() -> None:
    assert dict(admin.PROCESS_STATE.from_json({"pid": 1, "state": "exited"})).get("code", 0) is None
    for state in ("stopped", "signaled"):
        with pytest.raises(JsonError):
            admin.PROCESS_STATE.from_json({"pid": 1, "state": state})


def test_block_metadata_keeps_every_member_in_place() -> None:
    p = "PsDELPH1Kxsxt8f9eWbxQeRxkjfbxoqM52jvs5Y5fBxWWh4ifpo"
    text: Any = {
        "a": [1, {"b": None}],
        "protocol": p,
        "level": {"cycle": 3, "level": 9},
        "next_protocol": p,
    }
    value = chains.BLOCK_METADATA.from_json(text)
    assert str(value["protocol"]) == p and value["level"]["level"] == 9
    assert json.dumps(chains.BLOCK_METADATA.to_json(value)) == json.dumps(text)
    back: Any = chains.BLOCK_METADATA.to_json(
        chains.BLOCK_METADATA.decode(chains.BLOCK_METADATA.encode(value))
    )
    assert back["a"] == [1.0, {"b": None}] and back["level"] == {"cycle": 3.0, "level": 9}
    with pytest.raises(JsonError) as caught:
        chains.BLOCK_METADATA.from_json({**text, "level": {"level": 9.0}})
    assert (caught.value.code, caught.value.path) == ("wrong_type", ("level", "level"))
    assert caught.value.message == "expected an int32 level, got number"


@pytest.mark.parametrize(
    ("level", "code", "path"),
    [
        (None, "wrong_type", ("level",)),
        ({"cycle": 3}, "missing_field", ("level", "level")),
        ({"level": "9"}, "wrong_type", ("level", "level")),
        ({"level": 2**31}, "out_of_range", ("level", "level")),
    ],
)
def test_block_metadata_is_written_only_as_it_is_read(level: Any, code: str, path: Any) -> None:
    """The writer checks ``level`` as the reader does: it wrote bytes and JSON
    that decode and ``from_json`` refused."""
    p = bytes(32)
    value: Any = {"protocol": p, "next_protocol": p, "level": level}
    for write in (chains.BLOCK_METADATA.to_json, chains.BLOCK_METADATA.encode):
        with pytest.raises(EncodeError) as caught:
            write(value)
        assert (caught.value.code, caught.value.path) == (code, path)
    no_level: Any = {"protocol": p, "next_protocol": p}
    with pytest.raises(EncodeError) as caught:
        chains.BLOCK_METADATA.encode(no_level)
    assert (caught.value.code, caught.value.path) == ("missing_field", ("level",))


@given(st.lists(st.binary(max_size=3), max_size=3), st.lists(st.binary(max_size=3), max_size=3))
def test_fitness_order_is_the_seeds(a: list[bytes], b: list[bytes]) -> None:
    from data_encoding.node import compare_fitness

    def seed_order(x: list[bytes], y: list[bytes]) -> int:  # the seed's words, literally
        if len(x) != len(y):
            return -1 if len(x) < len(y) else 1
        for u, v in zip(x, y, strict=True):
            if len(u) != len(v):
                return -1 if len(u) < len(v) else 1
            if u != v:
                return -1 if u < v else 1
        return 0

    assert compare_fitness(a, b) == seed_order(a, b)


# ------------------------------------------------------------------ make demo


def test_the_demo_tours_the_command_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    """``make demo``'s output, exactly: ``tests/cli/demo_output.txt`` (when the tour
    changes on purpose, write it again with ``python -m data_encoding.cli.demo``)."""
    from data_encoding.cli import demo
    from golden import VECTORS

    assert demo.main([]) == 0
    out = capsys.readouterr().out
    assert out == (VECTORS.parent / "cli" / "demo_output.txt").read_text()
    lines = out.splitlines()
    corrupt = lines.index("$ data-encoding slice admin.daemon_status 000000030700001092ff00000001")
    assert lines[corrupt + 1 : corrupt + 6] == [
        "bytes  size  path  what      value  hex",
        "0..4      4  $.id  int31     3      00000003",
        "4..14    10  $     not read         0700001092ff00000001",
        "error: unexpected_tag at $ (byte 4): unexpected tag 7 for union process_state "
        "(known tags: [0, 1, 2, 3])",
        "(exit status 1)",
    ]
