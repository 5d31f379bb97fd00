"""The inline code of records and tuples (see :mod:`data_encoding.passes.emit`).

A record or a tuple is a sequence of :class:`Part` s, emitted one after the
other into the enclosing generated function: fixed-width leaves join the
pending ``struct`` run, an optional field's presence byte becomes a choice
(peeked when reading), and the other parts emit their own code.

Layout rules (checked by :func:`~data_encoding.tree.size.sequence_size` when the
encoding is built): at most one part is variable; the parts after it are
fixed and are read from the end of the frame.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..errors import (
    DataEncodingError,
    DecodeError,
    EncodeError,
    JsonError,
    describe_value,
    not_enough_data,
)
from ..jsonvalue import DuplicateKeys
from ..tree.core import Then
from ..tree.leaves import wrong_value_type
from ..tree.records import Part
from ..tree.size import VARIABLE, Fixed
from .emit import Gen, Path, Take, tuple_expr


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


def key_error(
    parts: Sequence[Part],
    keys: frozenset[str],
    value: dict[Any, Any],
    cls: type[EncodeError] | type[JsonError] = EncodeError,
) -> DataEncodingError | None:
    """The one error for a record's dict (or JSON object) whose keys are not
    the record's, whichever direction finds it: the first key, in the value's
    order, that is no field; else the first required field, in field order,
    that is missing; ``None`` when the keys are right."""
    if isinstance(value, DuplicateKeys):
        return JsonError("duplicate_field", f"duplicate member {value.duplicate!r}").within(
            value.duplicate
        )
    for key in value:
        if key not in keys:
            return cls("unexpected_field", f"unexpected field {describe_value(key)}").within(key)
    for part in parts:
        if part.mode == "req" and part.key not in value:
            return cls("missing_field", f"missing field {part.key!r}").within(part.key)
    return None


def spliced(
    value: Any,
    part: Part,
    as_dict: bool,
    cls: type[DecodeError] | type[JsonError] = DecodeError,
) -> Any:
    """The value read for a spliced operand of ``merge_objs`` (``as_dict``: a
    dict of its fields) or ``merge_tups`` (a tuple of its elements), checked:
    a ``conv`` operand's function gives it, and nothing else may be merged."""
    if as_dict:
        if isinstance(value, dict) and value.keys() <= part.keys:
            return value
        what = "a dict of its fields"
    elif isinstance(value, tuple | list) and len(value) == part.arity:
        return value
    else:
        what = f"a tuple of its {part.arity} elements"
    into = "a record" if as_dict else "a tuple"
    raise cls(
        "user_function", f"a conversion merged into {into} gave {describe_value(value)}, not {what}"
    )


def bad_arity(
    expected: int, value: Any, cls: type[EncodeError] | type[JsonError] = EncodeError
) -> DataEncodingError:
    return cls(
        "wrong_length",
        f"expected a tuple of {expected} elements, got {len(value)}: {describe_value(value)}",
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


def _forks(g: Gen, part: Part) -> bool:
    """Whether to hand the code after ``part`` to it, to copy into each of its
    branches (bounded: the rest is otherwise emitted once, after the join).

    A ``varopt`` part never takes it: its value is read or written inside an
    ``if`` of its own, so the rest must come after that ``if``.
    """
    if part.mode == "varopt":
        return False
    return (part.mode == "opt" or g.may_fork(part.enc)) and g.may_copy(2)


def emit_read(
    g: Gen,
    parts: Sequence[Part],
    as_dict: bool,
    target: str,
    end: str,
    path: Path,
    then: Then = None,
) -> None:
    """Emit the reading of ``parts`` into a dict (or a tuple) in ``target``,
    then ``then()``."""
    var_index = next((i for i, p in enumerate(parts) if p.size is VARIABLE), None)
    tail = 0
    if var_index is not None:
        for p in parts[var_index + 1 :]:
            assert isinstance(p.size, Fixed)
            tail += p.size.n
    names = [g.var(_stem(p)) for p in parts]

    def rest(first: int) -> None:
        for i in range(first, len(parts)):
            p, name, step, frame = parts[i], names[i], _step(path, parts[i]), end
            if i == var_index and tail:
                g.flush_read(end)
                frame = g.var("frame_end")
                g.moved()  # a new frame: what a peek checked was in the old one
                g.line(f"{frame} = {end} - {tail}")
                with g.block(f"if {frame} < pos:"):
                    g.raise_at(f"{g.ref(not_enough_data)}(pos, {tail}, {end})", step)

            def after(i: int = i, frame: str = frame, step: Path = step) -> None:
                if i == var_index:
                    g.flush_read(frame)
                    if g.ended != frame:
                        with g.block(f"if pos != {frame}:"):
                            g.raise_at(f"{g.ref(_extra)}(pos, {frame})", step)
                    g.moved()

            def after_then(i: int = i, after: Callable[[], None] = after) -> None:
                after()
                rest(i + 1)

            # the rest is read in ``end``: a part read in a frame of its own
            # (a variable part before a fixed tail) must not take it along
            follow = after_then if frame == end and _forks(g, p) else None
            if p.mode == "opt":
                flag = g.peek(1, step, "", frame)
                with g.choice(2, follow) as more:
                    with g.branch(f"if {flag} == 0:", frame):
                        g.take(Take("x", 1))
                        g.line(f"{name} = None")
                        if more is not None:
                            more()
                    with g.branch(f"elif {flag} == 255:", frame):
                        g.take(Take("x", 1))
                        g.read(p.enc, name, frame, step, more)
                    with g.branch("else:", frame):
                        g.flush_read(frame)
                        g.raise_at(f"{g.ref(_bad_flag)}(pos, {flag})", step)
            elif p.mode == "varopt":
                g.flush_read(frame)
                with g.block(f"if pos == {frame}:"):
                    g.line(f"{name} = None")
                with g.block("else:"):
                    g.read(p.enc, name, frame, step)
                    g.flush_read(frame)
                g.moved()
            else:
                g.read(p.enc, name, frame, step, follow)
            if follow is not None:
                return  # the rest went with the part
            after()
        finish()

    def finish() -> None:
        # built once the pending run is read; the fields after this record
        # may join the run meanwhile
        named = list(zip(parts, names, strict=True))
        if not as_dict:
            items = [
                name if p.mode != "splice" else f"*{g.ref(spliced)}({name}, {g.ref(p)}, False)"
                for p, name in named
            ]
            g.after_reads(f"{target} = {tuple_expr(items)}")
        else:
            plain = [f"{p.key!r}: {name}" for p, name in named if p.mode != "splice"]
            g.after_reads(f"{target} = {{{', '.join(plain)}}}")
            for p, name in named:
                if p.mode == "splice":
                    g.after_reads(f"{target}.update({g.ref(spliced)}({name}, {g.ref(p)}, True))")
        if then is not None:
            then()

    rest(0)


# --------------------------------------------------------------- writing


def emit_write(
    g: Gen,
    parts: Sequence[Part],
    as_dict: bool,
    keys: frozenset[str],
    v: str,
    path: Path,
    then: Then = None,
) -> None:
    """Emit the writing of the dict (or tuple) in variable ``v``, then ``then()``."""
    names = [g.var(_stem(p)) for p in parts]
    known = g.dicts.get(v, {}) if as_dict else {}
    # a constant member the union already matched needs no writing nor check
    settled = {
        i
        for i, p in enumerate(parts)
        if p.mode == "req" and p.key in known and getattr(p.enc, "constant", None) == known[p.key]
    }
    if as_dict:
        _fetch_fields(g, parts, keys, names, v, path, settled)
    else:
        _fetch_elements(g, parts, names, v, path)

    def rest(first: int) -> None:
        for i in range(first, len(parts)):
            if i in settled:
                continue
            p, name, step = parts[i], names[i], _step(path, parts[i])
            follow = partial(rest, i + 1) if _forks(g, p) else None
            if p.mode == "opt":
                g.presence(name, 255, p.enc, step, follow)
            elif p.mode == "varopt":
                # no presence byte: a present value must take bytes, or it
                # would read back as absent (one value, one encoding)
                g.flush_write()
                with g.block(f"if {name} is not None:"):
                    mark = g.var("mark")
                    g.line(f"{mark} = len(out)")
                    g.write(p.enc, name, step)
                    g.flush_write()
                    with g.block(f"if len(out) == {mark}:"):
                        g.raise_at(f"{g.ref(_empty_optional)}()", step)
            else:
                g.write(p.enc, name, step, follow)
            if follow is not None:
                return  # the rest went with the part
        if then is not None:
            then()

    rest(0)


def _fetch_fields(
    g: Gen,
    parts: Sequence[Part],
    keys: frozenset[str],
    names: list[str],
    v: str,
    path: Path,
    settled: set[int],
) -> None:
    if v not in g.dicts:
        with g.block(f"if type({v}) is not dict and not isinstance({v}, dict):"):
            g.raise_at(f"{g.ref(wrong_value_type)}('a dict', {v})", path)
    required = [i for i, p in enumerate(parts) if p.mode == "req"]
    if len(required) > len(settled):
        with g.block("try:"):
            for i in required:
                if i not in settled:
                    g.line(f"{names[i]} = {v}[{parts[i].key!r}]")
        with g.block("except KeyError:"):
            g.raise_at(
                f"{g.ref(key_error)}({g.ref(parts, 'parts')}, {g.ref(keys, 'keys')}, {v})", path
            )
    for i, p in enumerate(parts):
        if p.mode in ("opt", "varopt"):
            g.line(f"{names[i]} = {v}.get({p.key!r})")
        elif p.mode == "dft":
            g.line(f"{names[i]} = {v}.get({p.key!r}, {g.ref(p.default)})")
        elif p.mode == "splice":
            # a nested record (a union of objects, say) gets only its own keys
            own = g.ref(p.keys)
            g.line(f"{names[i]} = {{k: x for k, x in {v}.items() if k in {own}}}")
    # every required key was found, so the dict has unknown keys iff it has
    # more than the required ones and the optional ones it holds
    optional = sorted(str(k) for k in keys - {p.key for p in parts if p.mode == "req"})
    known = g.ref(keys, "keys")
    if len(optional) <= 4:
        count = " + ".join([str(len(required)), *(f"({k!r} in {v})" for k in optional)])
        test = f"len({v}) > {count}"
    else:
        test = f"len({v}) > {len(required)} and not {v}.keys() <= {known}"
    with g.block(f"if {test}:"):
        g.raise_at(f"{g.ref(key_error)}({g.ref(parts, 'parts')}, {known}, {v})", path)


def _fetch_elements(g: Gen, parts: Sequence[Part], names: list[str], v: str, path: Path) -> None:
    arity = sum(p.arity if p.mode == "splice" else 1 for p in parts)
    with g.block(f"if not isinstance({v}, (tuple, list)):"):
        g.raise_at(f"{g.ref(wrong_value_type)}('a tuple', {v})", path)
    with g.block(f"if len({v}) != {arity}:"):
        g.raise_at(f"{g.ref(bad_arity)}({arity}, {v})", path)
    index = 0
    for p, name in zip(parts, names, strict=True):
        if p.mode == "splice":
            g.line(f"{name} = tuple({v}[{index}:{index + p.arity}])")
            index += p.arity
        else:
            g.line(f"{name} = {v}[{index}]")
            index += 1
