"""Every ``encode_json_to_hex`` / ``decode_hex_to_json`` record of the reference vectors.

``encode_json_to_hex``: ``from_json`` then ``encode``; ``decode_hex_to_json``:
``decode`` then ``to_json``. An ``ok`` answer must be reproduced exactly; an
error answer must be an error of the matching kind and constructor.
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


def run(record: dict[str, Any]) -> Any:
    encoding = build(record["encoding"])
    if record["op"] == "encode_json_to_hex":
        return encoding.encode(encoding.from_json(record["json"])).hex()
    return encoding.to_json(encoding.decode(bytes.fromhex(record["hex"])))


def test_record_count() -> None:
    assert len(RECORDS) == 519 + 706


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_record(record: dict[str, Any]) -> None:
    answer = record["answer"]
    if "ok" in answer:
        result = run(record)
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
