"""Layout tables at the 78-column margin, as the reference's ``Format`` lays them out.

A title and its rule are joined by a break hint. ``Format`` (in its outermost
box, margin 78) keeps a break a space only when the break, and all the text up
to the next break, takes *strictly less* room than what is left of the line:
once the pending text reaches the room left, the break is forced to a newline
(``Format.advance_left``). Only a union entry's title can fit, followed by its
rule and its first case's title (a table always takes more than a line).

Here the entry ``<name> (3 bytes, 16-bit tag)`` is ``len(name) + 22`` columns
and its first case's title ``A (tag 0)`` 9: after the title, the break needs
``1 + (len(name) + 22) + 9`` of the ``78 - (len(name) + 22)`` columns left.
A name of 11 characters leaves 2 spare columns (a space), one of 12 fills the
line exactly (a newline), one of 13 overflows it (a newline).
"""

from __future__ import annotations

import pytest

from data_encoding import bool_, case, def_, obj, req, uint8, union

CASES = """\
A (tag 0)
=========

+-----------------+---------+-------------------------+
| Name            | Size    | Contents                |
+=================+=========+=========================+
| Tag             | 2 bytes | unsigned 16-bit integer |
+-----------------+---------+-------------------------+
| Unnamed field 0 | 1 byte  | unsigned 8-bit integer  |
+-----------------+---------+-------------------------+


B (tag 1)
=========

+-----------------+---------+-------------------------------------+
| Name            | Size    | Contents                            |
+=================+=========+=====================================+
| Tag             | 2 bytes | unsigned 16-bit integer             |
+-----------------+---------+-------------------------------------+
| Unnamed field 0 | 1 byte  | boolean (0 for false, 255 for true) |
+-----------------+---------+-------------------------------------+

"""

TOPS = {
    "proposal_id": """\
+------+---------+--------------+
| Name | Size    | Contents     |
+======+=========+==============+
| x    | 3 bytes | $proposal_id |
+------+---------+--------------+


proposal_id (3 bytes, 16-bit tag) *********************************

""",
    "proposal_ids": """\
+------+---------+---------------+
| Name | Size    | Contents      |
+======+=========+===============+
| x    | 3 bytes | $proposal_ids |
+------+---------+---------------+


proposal_ids (3 bytes, 16-bit tag)
**********************************

""",
    "proposal_list": """\
+------+---------+----------------+
| Name | Size    | Contents       |
+======+=========+================+
| x    | 3 bytes | $proposal_list |
+------+---------+----------------+


proposal_list (3 bytes, 16-bit tag)
***********************************

""",
}


@pytest.mark.parametrize("name", list(TOPS))
def test_a_union_title_keeps_its_rule_only_with_room_to_spare(name: str) -> None:
    cases = union([case(0, "A", uint8), case(1, "B", bool_)], tag_size="Uint16")
    e = obj(req("x", def_(name, cases)))
    assert e.table() == TOPS[name] + CASES
