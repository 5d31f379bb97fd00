"""Every ``encode_json_to_hex`` / ``decode_hex_to_json`` record of the reference vectors.

``encode_json_to_hex``: ``from_json`` then ``encode``; ``decode_hex_to_json``:
``decode`` then ``to_json``. An ``ok`` answer must be reproduced exactly; an
error answer must be an error of the matching kind and constructor.

One deliberate deviation (README, "Strictness"): the reference reads an empty
BSON array below the root of a ``json`` value as ``{}``, the reading of an
empty document too; here it reads back as ``[]``. Where that is the only
difference, the decoded value must be exactly what the paired encode record
wrote, and the reference's answer exactly that value read the reference's way.
"""

from __future__ import annotations

from typing import Any

import pytest

from data_encoding import DataEncodingError, DecodeError, EncodeError, JsonError
from dsl import build
from golden import json_equal, legacy_records

# The reference's error constructor -> our stable error code.
CODES = {
    "Not_enough_data": "not_enough_data",
    "Extra_bytes": "extra_bytes",
    "Unexpected_tag": "unexpected_tag",
    "No_case_matched": "no_case_matched",
    "Trailing_zero": "trailing_zero",
    "Invalid_int": "invalid_int",
    "Invalid_float": "invalid_float",
    "Size_limit_exceeded": "size_limit_exceeded",
    "List_too_long": "list_too_long",
    "Array_too_long": "array_too_long",
}
# The legacy *reader* swaps the two names (README, "Quirk"); its writer does not.
READ_QUIRK = {"List_too_long": "array_too_long", "Array_too_long": "list_too_long"}
KINDS: dict[str, type[DataEncodingError]] = {
    "json_destruct": JsonError,
    "binary_write": EncodeError,
    "binary_read": DecodeError,
}

RECORDS = [r for r in legacy_records() if r["op"] in ("encode_json_to_hex", "decode_hex_to_json")]
# decode_hex_to_json-k reads the bytes that encode_json_to_hex-k wrote from this JSON
WRITTEN = {
    r["id"].replace("-encode_json_to_hex-", "-decode_hex_to_json-"): r["json"]
    for r in RECORDS
    if r["op"] == "encode_json_to_hex"
}


def read_by_the_reference(value: Any, root: bool = True) -> Any:
    """A JSON value read back from BSON as the reference does: an empty array
    below the root is ``{}``."""
    if isinstance(value, list):
        return [read_by_the_reference(v, False) for v in value] if value or root else {}
    if isinstance(value, dict):
        return {k: read_by_the_reference(v, False) for k, v in value.items()}
    return value


def run(record: dict[str, Any]) -> Any:
    encoding = build(record["encoding"])
    if record["op"] == "encode_json_to_hex":
        return encoding.encode(encoding.from_json(record["json"])).hex()
    return encoding.to_json(encoding.decode(bytes.fromhex(record["hex"])))


def _holds_an_empty_array(value: Any) -> bool:
    if isinstance(value, list):
        return not value or any(_holds_an_empty_array(v) for v in value)
    return isinstance(value, dict) and any(_holds_an_empty_array(v) for v in value.values())


def _members(value: dict[str, Any] | list[Any]) -> list[Any]:
    return list(value.values()) if isinstance(value, dict) else value


BSON_EMPTY_ARRAYS = {
    r["id"]
    for r in RECORDS
    if r["op"] == "decode_hex_to_json"
    and r["encoding"] == "json"
    and isinstance(WRITTEN.get(r["id"]), dict | list)
    and any(_holds_an_empty_array(v) for v in _members(WRITTEN[r["id"]]))
}
"""The decode records of ``json`` values holding an empty array below the root."""


def test_record_count() -> None:
    assert len(RECORDS) == 519 + 706
    assert sorted(BSON_EMPTY_ARRAYS) == ["json-decode_hex_to_json-8"]


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_record(record: dict[str, Any]) -> None:
    answer = record["answer"]
    if "ok" in answer:
        result = run(record)
        if record["id"] in BSON_EMPTY_ARRAYS:
            written = WRITTEN[record["id"]]
            assert json_equal(result, written), (result, written)
            assert json_equal(read_by_the_reference(written), answer["ok"])
            return
        assert json_equal(result, answer["ok"]), (result, answer["ok"])
        return
    with pytest.raises(DataEncodingError) as info:
        run(record)
    err = info.value
    assert isinstance(err, KINDS[answer["error_kind"]]), repr(err)
    detail = answer.get("error_detail")
    if detail is None:
        return
    constructor = detail["constructor"]
    reading = answer["error_kind"] == "binary_read"
    expected = (READ_QUIRK if reading else {}).get(constructor, CODES[constructor])
    assert err.code == expected, repr(err)
    if constructor == "Unexpected_tag":
        assert f"unexpected tag {detail['tag']} " in err.message
    if constructor == "Invalid_int":
        assert err.message.startswith(f"{detail['v']} is out of range [{detail['min']}, ")
        assert err.message.endswith(f", {detail['max']}]")
