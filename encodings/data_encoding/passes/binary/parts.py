"""Lowering records and tuples to the binary op IR (see :mod:`.lowering`);
their errors are the rule both codecs share (:mod:`..recordrule`).

A record or a tuple is a sequence of :class:`Part` s, lowered one after the
other into the enclosing block: fixed-width leaves join the pending
``struct`` run, an optional field's presence byte becomes a choice (peeked
when reading), and the other parts lower to their own ops, through the
lowering they are given (:meth:`.lowering.Lowering.lower_read`,
``lower_write``): :mod:`.lowering` imports this module, which imports
nothing of it but its types.

Layout rules (checked by :func:`~data_encoding.tree.size.sequence_size` when the
encoding is built): at most one part is variable; the parts after it are
fixed and are read from the end of the frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from typing import TYPE_CHECKING

from ...errors import (
    DecodeError,
    EncodeError,
    not_enough_data,
)
from ...noncanonical import unheld_byte, unheld_value
from ...tree.leaves import wrong_value_type
from ...tree.records import Part
from ...tree.size import VARIABLE, Fixed
from ..emit import tuple_expr
from ..recordrule import bad_arity, key_error, record_value_error, spliced
from .ops import AfterReads, AtEnd, Do, Fail, Fetch, Flush, Let, Path, Peek, SubFrame, Take

if TYPE_CHECKING:  # (the lowering lowers records through this module)
    from .lowering import Lowering


def _stem(p: Part) -> str:
    """The generated variable of a part is named after it: its key (``pid_3``),
    ``item`` for a tuple element (merged operands: ``left_4``, ``right_5``)."""
    return p.key if isinstance(p.key, str) else "item"


# --------------------------------------------------------------- errors


def _bad_flag(pos: int, flag: int) -> DecodeError:
    return DecodeError(
        "invalid_presence_flag",
        f"invalid presence byte 0x{flag:02x} (only 0x00 and 0xff)",
        offset=pos,
    )


def _extra(pos: int, stop: int) -> DecodeError:
    return DecodeError(
        "extra_bytes", f"extra bytes: {stop - pos} unread after the field", offset=pos
    )


def _empty_optional() -> EncodeError:
    return EncodeError(
        "empty_optional",
        "an optional field without presence byte cannot hold a value that encodes to "
        "no bytes: it would read back as absent",
    )


def _step(path: Path, part: Part) -> Path:
    """The path of a part: a splice adds no step (its fields are this record's)."""
    return path if part.mode == "splice" else (*path, repr(part.key))


# --------------------------------------------------------------- reading


def lower_parts_read(
    lw: Lowering,
    parts: Sequence[Part],
    as_dict: bool,
    target: str,
    end: str,
    path: Path,
) -> None:
    """Add the ops reading ``parts`` into a dict (or a tuple) in ``target``."""
    var_index = next((i for i, p in enumerate(parts) if p.size is VARIABLE), None)
    tail = 0
    if var_index is not None:
        for p in parts[var_index + 1 :]:
            assert isinstance(p.size, Fixed)
            tail += p.size.n
    names = [lw.var(_stem(p)) for p in parts]
    for i, p in enumerate(parts):
        name, step, frame = names[i], _step(path, p), end
        if i == var_index and tail:
            frame = lw.var("frame_end")
            error = f"{lw.ref(not_enough_data)}(pos, {tail}, {end})"
            why = "no room for the fixed fields after it"
            lw.add(SubFrame(frame, f"{end} - {tail}", f"{frame} < pos", error, step, end, why))
        # the fields after a part read in a frame of its own (a variable
        # part before a fixed tail) are read in ``end``: its choices take none
        with lw.scope() if frame != end else nullcontext():
            _lower_part_read(lw, p, name, frame, step)
        if i == var_index:
            lw.add(AtEnd(frame, f"{lw.ref(_extra)}(pos, {frame})", step))
    # built once the pending run is read; the fields after this record
    # may join the run meanwhile
    named = list(zip(parts, names, strict=True))
    if lw.lenient:  # a spliced part's values are this record's: so is its marker
        for p, name in named:
            if p.mode == "splice":
                value = f"{lw.ref(unheld_value)}(cells, {name})"
                lw.add(AfterReads(f"{name} = {value}"))
    if lw.json:
        _finish_json(lw, named, as_dict, target)
    elif not as_dict:
        items = [
            name if p.mode != "splice" else f"*{lw.ref(spliced)}({name}, {lw.ref(p)}, False)"
            for p, name in named
        ]
        lw.add(AfterReads(f"{target} = {tuple_expr(items)}"))
    else:
        plain = [f"{p.key!r}: {name}" for p, name in named if p.mode != "splice"]
        lw.add(AfterReads(f"{target} = {{{', '.join(plain)}}}"))
        for p, name in named:
            if p.mode == "splice":
                lw.add(AfterReads(f"{target}.update({lw.ref(spliced)}({name}, {lw.ref(p)}, True))"))


def _lower_part_read(lw: Lowering, p: Part, name: str, frame: str, step: Path) -> None:
    """Add the ops reading part ``p`` into ``name`` in the frame ending at ``frame``."""
    if p.mode == "opt":
        flag = lw.var("tag")
        with lw.choice(2, Peek(flag, 1, step, "", frame)):
            with lw.branch(f"{flag} == 0", frame):
                lw.add(Take("x", 1), Let(name, "None"))
            with lw.branch(f"{flag} == 255", frame):
                lw.add(Take("x", 1))
                lw.lower_read(p.enc, name, frame, step)
            with lw.branch(None, frame):
                if lw.lenient:  # the reference: any other byte is present,
                    # and the record's marker stands for it (see ``marking``)
                    lw.add(Take("x", 1), Do(f"{lw.ref(unheld_byte)}(cells)"))
                    lw.lower_read(p.enc, name, frame, step)
                else:
                    lw.add(Flush(frame), Fail(None, f"{lw.ref(_bad_flag)}(pos, {flag})", step))
    elif p.mode == "varopt":
        lw.add(Flush(frame))
        with lw.choice(2, joins=False):
            with lw.branch(f"pos == {frame}", frame):
                lw.add(Let(name, "None"))
            with lw.branch(None, frame):
                lw.lower_read(p.enc, name, frame, step)
    else:
        lw.lower_read(p.enc, name, frame, step)


def _finish_json(lw: Lowering, named: list[tuple[Part, str]], as_dict: bool, target: str) -> None:
    """The JSON form of a record whose members were read in JSON mode: an
    object, members in the order of the parts, an absent optional one left
    out (as ``to_json`` does); a tuple's array."""
    if not as_dict:
        lw.add(AfterReads(f"{target} = [{', '.join(name for _, name in named)}]"))
        return
    leading: list[str] = []
    rest: list[str] = []
    for p, name in named:
        if p.mode == "req" and not rest:
            leading.append(f"{p.key!r}: {name}")
        elif p.mode == "req":
            rest.append(f"{target}[{p.key!r}] = {name}")
        else:
            rest.append(f"if {name} is not None: {target}[{p.key!r}] = {name}")
    lw.add(AfterReads(f"{target} = {{{', '.join(leading)}}}"))
    lw.add(*(AfterReads(statement) for statement in rest))


# --------------------------------------------------------------- writing


def lower_parts_write(
    lw: Lowering,
    parts: Sequence[Part],
    as_dict: bool,
    keys: frozenset[str],
    v: str,
    path: Path,
) -> None:
    """Add the ops writing the dict (or tuple) in variable ``v``."""
    names = [lw.var(_stem(p)) for p in parts]
    known = lw.dicts.get(v, {}) if as_dict else {}
    # a constant member the union already matched needs no writing nor check
    settled = {
        i
        for i, p in enumerate(parts)
        if p.mode == "req" and p.key in known and getattr(p.enc, "constant", None) == known[p.key]
    }
    if lw.json:  # exactly a JSON object (not a ``RepeatedMembers``) or array
        lw.bail_if(f"type({v}) is not {'dict' if as_dict else 'list'}")
        if as_dict:
            lw.dicts.setdefault(v, {})
    if as_dict:
        _fetch_fields(lw, parts, keys, names, v, path, settled)
    else:
        _fetch_elements(lw, parts, names, v, path)
    if lw.json:  # an optional member is absent, never ``null``
        for p, name in zip(parts, names, strict=True):
            if p.mode in ("opt", "varopt"):
                lw.bail_if(f"{name} is None and {p.key!r} in {v}")

    for i, p in enumerate(parts):
        if i in settled:
            continue
        name, step = names[i], _step(path, p)
        if p.mode == "opt":
            lw.presence(name, 255, p.enc, step)
        elif p.mode == "varopt":
            # no presence byte: a present value must take bytes, or it
            # would read back as absent (one value, one encoding)
            lw.add(Flush())
            with lw.when(f"{name} is not None"):
                mark = lw.var("mark")
                lw.add(Let(mark, "len(out)"))
                with lw.scope():
                    lw.lower_write(p.enc, name, step)
                error = f"{lw.ref(_empty_optional)}()"
                lw.add(Flush(), Fail(f"len(out) == {mark}", error, step))
        else:
            lw.lower_write(p.enc, name, step)


def _fetch_fields(
    lw: Lowering,
    parts: Sequence[Part],
    keys: frozenset[str],
    names: list[str],
    v: str,
    path: Path,
    settled: set[int],
) -> None:
    if v not in lw.dicts:
        error = f"{lw.ref(record_value_error)}({v})"
        lw.add(Fail(f"type({v}) is not dict and {error} is not None", error, path))
    required = [i for i, p in enumerate(parts) if p.mode == "req"]
    key_error_of = f"{lw.ref(key_error)}({lw.ref(parts, 'parts')}, {lw.ref(keys, 'keys')}, {v})"
    if len(required) > len(settled):
        fetched = tuple((names[i], str(parts[i].key)) for i in required if i not in settled)
        lw.add(Fetch(v, fetched, key_error_of, path))
    for i, p in enumerate(parts):
        if p.mode in ("opt", "varopt"):
            lw.add(Let(names[i], f"{v}.get({p.key!r})"))
        elif p.mode == "dft":
            lw.add(Let(names[i], f"{v}.get({p.key!r}, {lw.ref(p.default)})"))
        elif p.mode == "splice":
            # a nested record (a union of objects, say) gets only its own keys
            own = lw.ref(p.keys)
            lw.add(Let(names[i], f"{{k: x for k, x in {v}.items() if k in {own}}}"))
    # every required key was found, so the dict has unknown keys iff it has
    # more than the required ones and the optional ones it holds
    optional = sorted(str(k) for k in keys - {p.key for p in parts if p.mode == "req"})
    if len(optional) <= 4:
        count = " + ".join([str(len(required)), *(f"({k!r} in {v})" for k in optional)])
        test = f"len({v}) > {count}"
    else:
        test = f"len({v}) > {len(required)} and not {v}.keys() <= {lw.ref(keys, 'keys')}"
    lw.add(Fail(test, key_error_of, path))


def _fetch_elements(
    lw: Lowering, parts: Sequence[Part], names: list[str], v: str, path: Path
) -> None:
    arity = sum(p.arity if p.mode == "splice" else 1 for p in parts)
    lw.add(
        Fail(
            f"not isinstance({v}, (tuple, list))",
            f"{lw.ref(wrong_value_type)}('a tuple', {v})",
            path,
        ),
        Fail(f"len({v}) != {arity}", f"{lw.ref(bad_arity)}({arity}, {v})", path),
    )
    index = 0
    for p, name in zip(parts, names, strict=True):
        if p.mode == "splice":
            lw.add(Let(name, f"tuple({v}[{index}:{index + p.arity}])"))
            index += p.arity
        else:
            lw.add(Let(name, f"{v}[{index}]"))
            index += 1
