"""``data_encoding.parallel``: many inputs through one codec, over worker
processes (a pool of two here), in input order, with the results, values
and errors of the calls made one by one in this process."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from typing import Any

import pytest

from catalogue_ids import own_samples
from data_encoding import (
    DataEncodingError,
    DecodeError,
    DefinitionError,
    conv,
    from_schema,
    obj,
    opt,
    req,
    uint8,
)
from data_encoding.node import registry
from data_encoding.parallel import WINDOW, Failed, decode_many, encode_many, map_many

STATUS = registry.find("admin.daemon_status").encoding
STATUSES = [
    {"id": i, "pid": 1000 + i, "state": "running"}
    if i % 3
    else {"id": i, "pid": -i, "state": "exited", "code": i % 7 or None}
    for i in range(2_500)
]
DATA = [STATUS.encode(v) for v in STATUSES]


def _failure(call: Any, *args: Any) -> DataEncodingError:
    """The error ``call(*args)`` raises."""
    with pytest.raises(DataEncodingError) as caught:
        call(*args)
    return caught.value


@pytest.mark.parametrize("jobs", [1, 2, None])
def test_the_values_and_bytes_of_the_calls_one_by_one_in_order(jobs: int | None) -> None:
    """2 500 items in chunks of 7: the order is kept across 358 chunk
    boundaries, in this process, over two workers and over one per core."""
    assert list(decode_many(STATUS, DATA, jobs=jobs, chunk_size=7)) == STATUSES
    assert list(encode_many(STATUS, STATUSES, jobs=jobs, chunk_size=7)) == DATA
    views = (memoryview(b) for b in DATA[:10])  # a memoryview is sent as its bytes
    assert list(decode_many(STATUS, views, jobs=jobs, chunk_size=3)) == STATUSES[:10]


def _sample(id_and_hex: tuple[str, str]) -> Any:
    """What a worker runs: a catalogue sample's value (a module-level
    function, sent by reference)."""
    id, hex_text = id_and_hex
    return registry.find(id).encoding.decode(bytes.fromhex(hex_text))


def _samples(kind: str) -> list[tuple[str, str]]:
    return [(id, str(s["hex"])) for id, s in own_samples(kind) if "hex" in s]


def test_every_catalogue_sample_comes_back_from_the_workers_as_its_value() -> None:
    """Every id's values pickle: hashes, keys, signatures, Micheline, receipts."""
    samples = _samples("valid")
    assert len(samples) > 400
    expected = [_sample(s) for s in samples]  # first: the workers start with the codecs built
    assert list(map_many(_sample, samples, jobs=2, chunk_size=50)) == expected


def test_every_catalogue_error_comes_back_from_the_workers_as_it_was_raised() -> None:
    """Each invalid sample's error, in its place: its class, code, message,
    offset and path, as the call in this process raises it."""
    samples = _samples("invalid")
    assert len(samples) > 100
    got = list(map_many(_sample, samples, jobs=2, chunk_size=50, keep_going=True))
    expected = [Failed(i, _failure(_sample, s)) for i, s in enumerate(samples)]
    assert [type(f) for f in got] == [Failed] * len(samples)
    assert [repr(f) for f in got] == [repr(f) for f in expected]


def test_a_lenient_reading_comes_back_with_its_markers() -> None:
    exited = "000000030100001092" + "02" + "00000001"  # a presence byte 02: present
    data = [bytes.fromhex(exited), bytes.fromhex(exited[:-2])]
    got = list(decode_many(STATUS, data, jobs=2, keep_going=True, canonical=False))
    assert repr(got[0]) == (  # the record of the presence byte holds the marker
        f"NonCanonical({{'id': 3, 'pid': 4242, 'state': 'exited', 'code': 1}}, {data[0]!r})"
    )
    assert got[0] == STATUS.decode(data[0], canonical=False)
    assert STATUS.encode(got[0]) == data[0]
    assert got[1] == Failed(1, got[1].error)
    lenient = _failure(lambda b: STATUS.decode(b, canonical=False), data[1])
    assert repr(got[1].error) == repr(lenient)


def test_an_encoding_rebuilt_from_a_nodes_schemas_is_sent_as_its_schemas() -> None:
    header = registry.find("shell.block_header")
    e = from_schema(header.encoding.describe(), header.encoding.json_schema())
    sent = pickle.dumps(e)  # as its schemas, rebuilt on the other side
    assert b"data_encoding.passes.schema.rebuild" in sent and b"_unpickled" in sent
    values = [header.encoding.from_json(s["json"]) for s in header.samples["valid"]] * 30
    data = [header.encoding.encode(v) for v in values]
    assert list(decode_many(e, data, jobs=2, chunk_size=4)) == [e.decode(b) for b in data]
    assert list(encode_many(e, values, jobs=2, chunk_size=4)) == data


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_error_is_raised_with_its_index_after_the_values_before_it(
    jobs: int,
) -> None:
    data = [*DATA[:1_500], DATA[1_500][:6], *DATA[1_501:]]
    got = []
    with pytest.raises(DecodeError) as caught:
        for value in decode_many(STATUS, data, jobs=jobs, chunk_size=100):
            got.append(value)
    assert got == STATUSES[:1_500]
    assert repr(caught.value) == (
        "DecodeError(code='not_enough_data', message='not enough data for int31: "
        "need 4 bytes, 1 left', offset=5, path=(1500, 'pid'))"
    )
    assert (
        str(caught.value)
        == "not enough data for int31: need 4 bytes, 1 left at $[1500].pid (byte 5)"
    )


@pytest.mark.parametrize("jobs", [1, 2])
def test_keep_going_puts_a_failed_in_place_of_each_bad_item(jobs: int) -> None:
    bad = {3: b"", 998: DATA[998] + b"\x00", 1_999: DATA[1_999][:4]}
    data = [bad.get(i, b) for i, b in enumerate(DATA)]
    got = list(decode_many(STATUS, data, jobs=jobs, chunk_size=100, keep_going=True))
    failures = {i: _failure(STATUS.decode, b) for i, b in bad.items()}
    assert [repr(v) for v in got] == [
        repr(Failed(i, failures[i])) if i in failures else repr(v) for i, v in enumerate(STATUSES)
    ]
    assert [(f.error.code, f.error.offset, f.error.path) for f in got if isinstance(f, Failed)] == [
        ("not_enough_data", 0, ("id",)),
        ("extra_bytes", 9, ()),
        ("not_enough_data", 4, ()),
    ]


def test_failed_and_the_errors_pickle_as_they_are() -> None:
    failed = Failed(7, DecodeError("unexpected_tag", "unexpected tag 9", offset=4, path=("a", 2)))
    again = pickle.loads(pickle.dumps(failed))
    assert again == Failed(7, again.error) and type(again.error) is DecodeError
    assert repr(again) == repr(failed)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"jobs": 0}, "jobs: an int >= 1, or None for one per core, not 0"),
        ({"jobs": -2}, "jobs: an int >= 1, or None for one per core, not -2"),
        ({"jobs": True}, "jobs: an int >= 1, or None for one per core, not True"),
        ({"chunk_size": 0}, "chunk_size: an int >= 1, not 0"),
    ],
)
def test_what_jobs_and_chunk_size_take(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(DefinitionError) as caught:
        decode_many(STATUS, DATA, **arguments)  # refused by the call, before any item is read
    assert caught.value.message == message


def _plus_one(x: int) -> int:
    return x + 1


def test_what_does_not_pickle_is_refused_by_the_call() -> None:
    e = obj(req("a", conv(_plus_one, lambda x: x - 1, uint8)), opt("b", uint8))
    assert list(decode_many(e, [b"\x05\x00"], jobs=1)) == [{"a": 4, "b": None}]
    with pytest.raises(DefinitionError) as caught:
        decode_many(e, [b"\x05\x00"], jobs=2)
    cause = caught.value.__cause__
    assert caught.value.message == (
        "jobs=2: the work cannot be sent to worker processes, which need it pickled (an "
        "encoding's conv functions and match predicates must be module-level functions, not "
        f"lambdas): {type(cause).__name__}: {cause}"
    )
    assert "test_what_does_not_pickle_is_refused_by_the_call.<locals>.<lambda>" in str(cause)


def _inverse(x: int) -> float:
    return 1 / x


def test_another_exception_in_a_worker_is_raised_here() -> None:
    with pytest.raises(ZeroDivisionError):
        list(map_many(_inverse, [1, 2, 0, 4], jobs=2, chunk_size=1))


# --------------------------------------------------------------- streaming


class _Counted:
    """An endless input that counts the items read from it."""

    def __init__(self) -> None:
        self.read = 0

    def __iter__(self) -> Iterator[bytes]:
        while True:
            self.read += 1
            yield DATA[self.read % len(DATA)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_input_is_read_a_window_of_chunks_ahead(jobs: int) -> None:
    """In process, one item at a time; over two workers, ``WINDOW`` chunks a
    worker sent before the first result, and one more as it comes: never
    the whole input (here endless). Closing the results stops the workers."""
    source = _Counted()
    results = decode_many(STATUS, source, jobs=jobs, chunk_size=10)
    assert source.read == 0  # nothing is read before the first result is asked for
    assert next(results) == STATUSES[1]
    assert source.read == (1 if jobs == 1 else (WINDOW * 2 + 1) * 10)
    results.close()
    assert list(results) == []
