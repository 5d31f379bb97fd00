"""``rebuild`` (public as ``data_encoding.from_schema``): an encoding rebuilt
from a binary schema, the inverse of :mod:`.describe`.

A schema is a :class:`~.values.BinarySchema` or its JSON form as a node
publishes it, in any dialect (:data:`~.language.binary_schema_v1` reads every
spelling). The rebuilt encoding reads and writes the bytes the schema
states, and describes itself as that schema: ``from_schema(s).describe() ==
s`` for ``s`` that ``describe()`` made (in the dialect it was made in), but
for the kinds ``tests/rebuild_kinds.py`` lists (96 to 97 % of random
encodings rebuild exactly, 78 to 79 % with the same JSON too when their
JSON schema is given: ``tests/rebuild_share.py``, whose sample moves with
the code): a ``mu``'s entry among others comes out
in another order or numbered otherwise, zero-width anonymous fields beside
others (legacy's merged empty records) are dropped. The schema itself leaves unstated an
optional field of a variable-size value (no presence byte: rebuilt as a
required field) and a size header around a zero-width field (dropped with it).
One schema pair is rebuilt once (the last :data:`REBUILT_KEPT` are kept),
and its encoding pickles as the pair; an entry met again in another pair
(an operation in each service of a node's answer that states one) is the
encoding built the first time (:mod:`.sharing`).

The entries ``describe`` named from its counter (``X_<n>``) were anonymous:
they are rebuilt anonymous, so that ``describe`` numbers them again; where it
then numbers them otherwise, they are named by a ``def_`` of their name.
Of the ways to rebuild (the JSON schema's help taken or not, those entries
anonymous or named when some are), the first that describes as the schema in
legacy's words is kept; else the first exact in 1.0's words; else the first
*alike*: the same bytes and named entries, its entries in another order
(legacy's deduplication runs newest first, and a 1.0 schema lists its
entries as they complete) or an anonymous one numbered otherwise; else the
first that builds, the binary schema's alone preferred.

Each part of the schema becomes the combinator the reference describes so:

=======================================  ==========================================
schema                                   combinator
=======================================  ==========================================
``Zero_width``                           ``null`` (JSON ``null``; see below)
``Int`` ``Int8`` .. ``Int64``            ``int8`` .. ``int64`` (``int64``: JSON a
                                         decimal string, as the reference's)
``RangedInt`` -2^30..2^30-1 / 0..2^30-1  ``int31`` / ``uint30``
other ``RangedInt``, ``RangedFloat``     ``ranged_int``, ``ranged_float``
``Float``, ``Bool``                      ``float_``, ``bool_``
``Bytes`` / ``String`` of ``Fixed n``    ``fixed.bytes_(n)`` / ``fixed.string(n)``
... of ``Variable``                      ``variable.bytes_`` / ``variable.string``
``dyn`` header + its fields              ``dynamic_size(..., kind)``
``Seq`` (no limit / ``at-most n``)       ``variable.list_(e, n)``
``Seq`` ``exactly n``                    ``fixed.list_(n, e)``
count field then ``Seq``                 ``list_with_length(kind, e, n)``
``Enum`` + its ``Int_enum`` entry        ``def_(entry, string_enum(strings))``
``option_indicator`` + named field       ``opt(name, e)``
``named`` field, ``Variable``, alone     ``req`` (or ``varopt``: no byte says it)
named fields                             ``obj`` (``merge_objs`` around ``dyn``)
anonymous fields                         ``tup`` (one alone: itself)
a ``padding`` field                      ``padded(what precedes it, n)``
no field                                 the value ``{}`` (JSON ``{}``)
an entry (``Ref``)                       ``def_(title, e)``
a recursive entry, or one with a         ``mu(title, ...)``
description
``N.t`` / ``Z.t``                        ``n`` / ``z``
``Cases``                                ``union`` of ``case(tag, name, ...)``
=======================================  ==========================================

What the binary schema does not say, the **JSON schema** published beside
it says, when it is given (:mod:`.jsonguide`): a record's zero-width members
(constants, empty objects, nulls) and their order; a union case's JSON, its
payload's own (matched by title, else by position; a case that is a union
alone takes its cases' members), the union choosing among them as the
node's does (a constant member, a JSON type, else trying each case in turn),
or keyed by name where even that cannot tell them apart; a record of one
member, which ``describe`` shows as its member alone; a ``Variable`` field
not required in JSON is a ``varopt``; a framed string whose JSON is not a
string is a JSON value in BSON (``json``); a ``oneOf`` of no binary case is
JSON only; its definitions' names and titles; and the places that are
*primitives* the caller knows by their definition's name or title, or by
the strings of an enumeration whose bytes are no enumeration (a ballot)
(:class:`Primitives`: the node's hashes, keys, timestamps...), used where the
binary schema describes them (their entries' names aside: :mod:`.shapes`;
where those differ, described as the published schema says). Without it:

* a **union case's value** is ``{name: payload}`` and its JSON
  ``{"name": payload}``: the binary schema drops what tells cases apart in
  JSON (a constant ``kind`` member is zero-width), so the case's name does;
  a case without a name is named by its tag (``"3"``);
* a **zero-width** layout is ``null`` (an ``option``'s ``None`` is then
  ``null``, as the reference's); a union of no case, a JSON-only union
  (any JSON value, whose bytes no tag starts);
* a top-level union (a lone anonymous field of a union, where ``describe``
  numbers the union itself) keeps its entry's name by being described
  through ``tup1`` (its bytes and JSON are the union's);
* an anonymous count field (``Uint8``, ``Uint16``, ``RangedInt 0..2^30-1``)
  right before an ``at-most`` ``Seq`` the count can state is the
  sequence's count (``list_with_length``), never a separate integer: the
  schema says the same of both.

Where the schema does not determine the bytes, or names what the library
cannot read, :class:`~data_encoding.DefinitionError` says what and where (the
path in the schema): a ``Dynamic`` field with no ``dyn`` header (a list of
hashes: a ``Seq`` does not state its elements' size), a ``Ref`` to no entry,
two entries of one name, a little-endian integer, a record that mixes named
and anonymous fields (a record merged with a union of records), a padding
of nothing beside fields, an ``N`` size header (the library has no ``N``
frames), entries nested more than :func:`~data_encoding.max_depth` deep, and
a schema that unfolds to more than :data:`UNFOLDING` times its own size (its
entries referred to several times by entries referred to several times: every
pass over its encoding would walk exponentially more than the schema states),
refused before anything is built.
"""

from __future__ import annotations

import functools
from typing import Any

from ...errors import DefinitionError
from ...jsonvalue import JsonValue, dumps, loads
from ...tree.core import Encoding, made_by
from . import values as bs
from .describe import numbered_name
from .entrygraph import own_size, unfolded_size
from .jsonguide import NO_PRIMITIVES, Guide, Primitives
from .language import binary_schema_v1
from .rebuilder import Rebuilder, numbered
from .shapes import shape
from .sharing import AT_MOST as SHARING_AT_MOST
from .sharing import Digests
from .values import Dialect

__all__ = ["UNFOLDING", "NO_PRIMITIVES", "Primitives", "rebuild"]

REBUILT_KEPT = 4096
"""How many rebuilt encodings are kept, the most recently used (a node's
whole ``/describe`` answer has a few hundred schemas)."""

UNFOLDING = 128
"""How many times its own fields a schema may have once its references are
unfolded, as every pass over its encoding walks them
(:func:`.entrygraph.unfolded_size`): the schemas nodes publish have at most
43 times (the ``/describe`` service's own output, whose schema language
refers to its layouts from every field kind; a Delphi operation with its
receipts: 20 times, 8 047 fields), while a schema whose entries each refer
twice to the next unfolds to 2^depth: a cost out of proportion to its size,
on a node's answer that the library must read safely."""


def rebuild(
    schema: bs.BinarySchema | JsonValue,
    json_schema: JsonValue | None = None,
    *,
    primitives: Primitives = NO_PRIMITIVES,
) -> Encoding[Any]:
    """The encoding ``schema`` describes (see the module docstring for the
    forms): a :class:`~data_encoding.BinarySchema` value, or its JSON form in
    any dialect, with the ``json_schema`` published beside it when given
    (:mod:`.jsonguide`: what it adds), the ``primitives`` known by name.
    Raises :class:`~data_encoding.DefinitionError` where the pair does not
    determine the bytes, naming the place in the schema."""
    if not isinstance(schema, bs.BinarySchema):
        schema = binary_schema_v1.from_json(schema)
    text = None if json_schema is None else dumps(json_schema)
    return _rebuilt(schema, text, primitives)


@functools.lru_cache(maxsize=REBUILT_KEPT)
def _rebuilt(
    schema: bs.BinarySchema, json_text: str | None, primitives: Primitives
) -> Encoding[Any]:
    # one encoding per schema pair (a pair met in two answers, or two
    # protocols, is compiled once); it pickles as the pair, and is rebuilt
    # (from this cache) on the other side
    _refuse_unfolding(schema)
    guide = None if json_text is None else Guide(loads(json_text))
    # the first of the ways to rebuild that describes as the schema
    # (legacy's words first): the entries named ``X_<n>`` anonymous (describe
    # numbers them again) or named by a def_; the JSON schema's help taken,
    # or, where it would change the bytes' schema, left
    namings = (True, False) if numbered(schema) else (True,)  # else the two are one
    ways = [(use_json, anonymous) for use_json in (True, False) for anonymous in namings]
    if guide is None:
        ways = [way for way in ways if not way[0]]
    one_zero: Encoding[Any] | None = None  # exact in 1.0's words
    # alike in legacy's words: its entries in another order (legacy's
    # deduplication runs newest first, so that mutually recursive entries
    # may come out otherwise; a 1.0 schema's are in completion order) or an
    # anonymous one numbered otherwise (first met at another place): kept
    # once the same JSON help's named way is tried too
    alike: tuple[bool, Encoding[Any]] | None = None
    inexact: tuple[bool, Encoding[Any]] | None = None
    refused: DefinitionError | None = None
    digests: dict[bool, Digests | None] = {}  # of the entries, with the JSON's help or not
    for use_json, anonymous in ways:
        if one_zero is not None and not use_json:
            break  # the JSON's help kept
        if alike is not None and (use_json != alike[0] or anonymous):
            break
        if use_json not in digests:
            digests[use_json] = _digests(schema, guide if use_json else None)
        rebuilder = Rebuilder(
            schema, guide if use_json else None, primitives, anonymous, digests[use_json]
        )
        try:
            built = rebuilder.toplevel()
        except DefinitionError as error:  # the first way's error is the one said
            refused = refused or error
            continue
        legacy = _described(built, "legacy")
        if legacy == schema:
            return made_by(built, _unpickled, schema, json_text, primitives)
        is_alike = legacy is not None and _alike(legacy, schema)
        if alike is None and is_alike:
            alike = (use_json, built)  # (1.0's words asked of the named way, if one follows)
        elif (alike is None or is_alike) and one_zero is None and _exact_in_1_0(built, schema):
            # (after an alike way, the named way's 1.0 words can be the schema's
            # only if its legacy words are alike too: it differs by names alone)
            one_zero = built
        elif inexact is None or (inexact[0] and not use_json):
            inexact = (use_json, built)  # none exact: the binary schema alone is the safer guide
    best = one_zero or next((way[1] for way in (alike, inexact) if way is not None), None)
    if best is None:
        assert refused is not None
        raise refused
    return made_by(best, _unpickled, schema, json_text, primitives)


def _digests(schema: bs.BinarySchema, guide: Guide | None) -> Digests | None:
    """What each entry's rebuilding reads (:mod:`.sharing`), ``None`` where
    the schema shares no entry."""
    if len(schema.fields) > SHARING_AT_MOST:
        return None
    return Digests({e.description.title: e for e in schema.fields}, guide)


def _refuse_unfolding(schema: bs.BinarySchema) -> None:
    """Refuse ``schema`` if it unfolds to over :data:`UNFOLDING` times its
    own size (before anything is built: counting stops at the limit)."""
    entries = {entry.description.title: entry for entry in schema.fields}
    limit = UNFOLDING * own_size(schema)
    if unfolded_size(entries, schema.toplevel, limit) > limit:
        raise DefinitionError(
            f"from_schema: unfolded as its codec walks it, the schema has over {UNFOLDING} times "
            "its own fields (entries referred to several times by entries referred to several "
            "times): refused, its cost would be out of proportion to its size"
        )


def _described(e: Encoding[Any], dialect: Dialect) -> bs.BinarySchema | None:
    """The binary schema of ``e`` in ``dialect``'s words, ``None`` if it has none."""
    try:
        return e.describe(dialect)
    except DefinitionError:
        return None


def _exact_in_1_0(e: Encoding[Any], schema: bs.BinarySchema) -> bool:
    return _described(e, "1.0") == schema


def _alike(described: bs.BinarySchema, schema: bs.BinarySchema) -> bool:
    """Whether ``described`` is ``schema`` but for the order of its entries
    and the numbers of its anonymous ones (``X_<n>``): the same bytes, the
    same named entries."""
    if described == schema:
        return True
    if len(described.fields) != len(schema.fields):
        return False
    ours = {e.description.title: e for e in described.fields}
    theirs = {e.description.title: e for e in schema.fields}
    return {name for name in ours if not numbered_name(name)} == {
        name for name in theirs if not numbered_name(name)
    } and shape(described.toplevel, ours) == shape(schema.toplevel, theirs)


def _unpickled(
    schema: bs.BinarySchema, json_text: str | None, primitives: Primitives
) -> Encoding[Any]:
    return _rebuilt(schema, json_text, primitives)
