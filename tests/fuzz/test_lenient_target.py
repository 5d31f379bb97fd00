"""``make fuzz``'s second target, the lenient reader's (``fuzz/lenient_target.py``).

Its property holds on non-canonical bytes of each kind the reference
reads, and on random encodings' bytes changed at one byte; each way it can
break, planted, is found; ``fuzz/run.py --lenient`` runs it, run short.
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import data_encoding as de
from data_encoding.node import registry
from dsl import Dsl
from fuzz import libfuzzer, run
from fuzz.lenient_target import check
from random_dsl import encodings


def _record() -> de.Encoding[Any]:
    """A record of what a reference reads in several forms (a new one at
    each call: its own compiled functions, which a test may replace)."""
    return de.obj(de.req("ok", de.bool_), de.opt("n", de.uint8), de.req("z", de.z))


RECORD = _record()


def test_non_canonical_bytes_of_each_kind_hold() -> None:
    """A boolean, presence byte or ``z`` the writer would not write, a
    Micheline primitive in the generic form: read leniently, back to
    themselves, refused strictly for strictness; canonical bytes and bytes
    both refuse hold too."""
    one_input = check("record", RECORD)
    for hexa in ("00ff0700", "01ff0700", "00020740", "ff0700", "0000", "00ff07000000"):
        one_input(bytes.fromhex(hexa))
    expr = registry.find("proto.psdelph1.script.expr").encoding
    unit = expr.encode({"prim": "UNIT"}).hex()
    one_input = check("expr", expr)
    for hexa in (unit, "09" + unit[2:] + "00000000" + "00000000", "09" + unit[2:]):
        one_input(bytes.fromhex(hexa))


def test_values_without_a_repr_or_equal_to_nothing_hold() -> None:
    """Values are compared by type and content, never by ``repr`` alone: a
    number past Python's printing limit has none (the campaign's findings in
    ``bignum`` and ``gas``), a NaN equals nothing, in a schema's dataclass too."""
    long_n = b"\xff" * 2100 + b"\x01"
    check("n", de.n)(long_n)
    check("record", de.obj(de.req("ok", de.bool_), de.req("n", de.n)))(b"\x01" + long_n)
    check("float", de.tup(de.float_, de.bool_))(bytes.fromhex("7ff8000000000000" + "01"))
    schema = registry.find("rpc.binary_schema").encoding
    written = schema.encode(de.ranged_float(0.25, 1.0).describe()).hex()
    nan_bound = written.replace(struct.pack(">d", 0.25).hex(), struct.pack(">d", math.nan).hex())
    check("schema", schema)(bytes.fromhex(nan_bound))


def _decoder(strict: de.DecodeError | None, lenient: de.DecodeError | None) -> Any:
    """A planted ``decode``: it raises ``strict`` when canonical, ``lenient``
    when not (``None``: it decodes as :data:`RECORD`)."""

    def decode(data: bytes, canonical: bool = True) -> Any:
        planted = strict if canonical else lenient
        if planted is not None:
            raise planted
        return RECORD.decode(data, canonical=canonical)

    return decode


def _planted(code: Any, offset: int) -> de.DecodeError:
    return de.DecodeError(code, "planted", offset=offset)


@pytest.mark.parametrize(
    ("wrong", "data", "found"),
    [
        (
            {"_decode_lenient": lambda data: RECORD._read_lenient(b"", 0, 0)},
            "00ff0700",
            "record: input 00ff0700: read strictly, refused leniently: "
            "not enough data for bool: need 1 byte, 0 left at $.ok (byte 0)",
        ),
        (
            {"_decode_lenient": lambda data: {"ok": True, "n": 7, "z": 0}},
            "00ff0700",
            "record: input 00ff0700 reads leniently, but re-encodes to ffff0700",
        ),
        (
            {"decode": _decoder(_planted("unexpected_tag", 0), None)},
            "01ff0700",
            "record: input 01ff0700 reads leniently, but the strict reader refuses it "
            "with unexpected_tag: planted (byte 0)",
        ),
        (
            {"decode": _decoder(_planted("invalid_bool", 0), None)},
            "00ff0700",
            "record: input 00ff0700 reads leniently, but the strict reader refuses it "
            "(planted (byte 0)), yet it holds no marker",
        ),
        (
            {"decode": _decoder(None, _planted("not_enough_data", 1))},
            "00ff07",
            "record: input 00ff07: refused strictly (('DecodeError', 'not_enough_data', 3, "
            "('z',), 'not enough data for integer: need 1 byte, 0 left at $.z (byte 3)')), "
            "leniently (('DecodeError', 'not_enough_data', 1, (), 'planted (byte 1)'))",
        ),
    ],
    ids=[
        "strict reads, lenient refuses",
        "read otherwise",
        "refused strictly for another reason",
        "refused strictly, no marker",
        "refused otherwise",
    ],
)
def test_each_broken_promise_is_found(wrong: dict[str, Any], data: str, found: str) -> None:
    e = _record()
    e.__dict__.update(wrong)
    with pytest.raises(AssertionError) as caught:
        check("record", e)(bytes.fromhex(data))
    assert str(caught.value) == found


@settings(
    max_examples=max(150, settings().max_examples),  # the fuzz profile's 5000 in make fuzz
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(encodings(), st.data())
def test_the_property_holds_over_random_encodings(
    built: tuple[Dsl, de.Encoding[Any]], data: st.DataObject
) -> None:
    """Bytes of a value, each byte changed to ``01``, ``40`` or ``7f`` (a
    boolean or presence byte the writer would not write, ``z``'s ``40``)."""
    _, e = built
    encoded = e.encode(data.draw(e.strategy()))
    one_input = check("random", e)
    for i in range(len(encoded)):
        for byte in (0x01, 0x40, 0x7F):
            one_input(encoded[:i] + bytes([byte]) + encoded[i + 1 :])


def test_a_short_lenient_campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lenient`` runs the lenient target, which starts and fuzzes."""
    id = "proto.psdelph1.script.prim"
    targets: list[Path] = []

    def spied(target: Path, *args: Any) -> libfuzzer.Run:
        targets.append(target)
        return real(target, *args)

    real = libfuzzer.run
    monkeypatch.setattr(libfuzzer, "run", spied)
    corpus, findings, saved = tmp_path / "corpus", tmp_path / "findings", tmp_path / "report.json"
    argv = ["--lenient", "--seconds", "1", "--seed", "1", "--ids", id]
    argv += ["--corpus", str(corpus), "--findings", str(findings), "--report", str(saved)]

    assert run.main(argv) == 0

    assert targets == [run.HERE / "lenient_target.py"]
    row = json.loads(saved.read_text())["ids"][id]
    assert row["inputs"] > 0 and row["findings"] == [] and row["returncode"] == 0
