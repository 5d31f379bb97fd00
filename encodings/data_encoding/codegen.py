"""Generated readers and writers for records and tuples.

A record or a tuple is a sequence of :class:`Part` s. This module writes one
Python function that reads (or writes) the whole sequence, the way one would
by hand: consecutive fixed-width leaves are fused into a single precompiled
``struct.Struct`` call, other parts call their own compiled functions, and
error paths are added in ``except`` clauses only (free when nothing fails).

Layout rules (checked by :func:`~data_encoding.size.sequence_size` when the
encoding is built): at most one part is variable; the parts after it are
fixed and are read from the end of the frame.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .core import Encoding, Reader, Writer
from .errors import DataEncodingError, DecodeError, EncodeError, describe_value
from .leaves import not_enough_data, wrong_value_type
from .size import DYNAMIC, VARIABLE, Fixed

Mode = Literal["req", "opt", "varopt", "dft", "splice"]


@dataclass(frozen=True)
class Part:
    """One element of a sequence.

    ``key`` is the dict key of a record field or the index of a tuple element.
    ``mode``: ``req`` (always there), ``opt`` (a presence byte, then the value),
    ``varopt`` (present iff bytes remain in its frame), ``dft`` (always in
    binary, may be omitted in JSON) or ``splice`` (a nested record or tuple
    whose keys or elements are merged into this one's).
    """

    key: str | int
    enc: Encoding[Any]
    mode: Mode = "req"
    default: Any = None
    title: str | None = None
    description: str | None = None
    #: splices only: the keys (records) or the element count (tuples) it yields
    keys: frozenset[str] = frozenset()
    arity: int = 1

    @property
    def size(self) -> Any:
        if self.mode == "opt":
            return self.enc.size if self.enc.size is VARIABLE else DYNAMIC
        if self.mode == "varopt":
            return VARIABLE
        return self.enc.size


def _fusable(part: Part) -> bool:
    return part.mode in ("req", "dft") and part.enc.atom() is not None


class _Source:
    """Accumulates generated code and the objects it refers to."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.env: dict[str, Any] = {
            "_Err": DataEncodingError,
            "DecodeError": DecodeError,
        }

    def ref(self, prefix: str, obj: Any) -> str:
        name = f"{prefix}{len(self.env)}"
        self.env[name] = obj
        return name

    def emit(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def compile(self, name: str) -> Callable[..., Any]:
        code = "\n".join(self.lines)
        exec(compile(code, f"<data_encoding {name}>", "exec"), self.env)
        fn: Callable[..., Any] = self.env[name]
        fn.__source__ = code  # type: ignore[attr-defined]  # kept for debugging
        return fn


def _runs(parts: Sequence[Part]) -> list[list[int] | int]:
    """Group part indexes: a list is a run of fusable atoms, an int a lone part."""
    groups: list[list[int] | int] = []
    for i, part in enumerate(parts):
        if _fusable(part):
            if groups and isinstance(groups[-1], list):
                groups[-1].append(i)
            else:
                groups.append([i])
        else:
            groups.append(i)
    return groups


def _short_run(parts: Sequence[Part], run: Sequence[int], pos: int, end: int) -> DecodeError:
    """The precise error for a fused run that does not fit: the first field that runs out."""
    for i in run:
        atom = parts[i].enc.atom()
        assert atom is not None
        if end - pos < atom.width:
            return not_enough_data(pos, atom.width, end).within(parts[i].key)  # type: ignore[return-value]
        pos += atom.width
    return not_enough_data(pos, 0, end)


def _bad_flag(pos: int, flag: int, key: str | int) -> DecodeError:
    err = DecodeError(
        "invalid_presence_flag",
        f"invalid presence byte 0x{flag:02x} (only 0x00 and 0xff)",
        offset=pos,
    )
    return err.within(key)  # type: ignore[return-value]


def _extra(pos: int, stop: int, key: str | int) -> DecodeError:
    err = DecodeError(
        "extra_bytes", f"extra bytes: {stop - pos} unread after the field", offset=pos
    )
    return err.within(key)  # type: ignore[return-value]


def build_reader(parts: Sequence[Part], as_dict: bool) -> Reader:
    src = _Source()
    src.env["_short_run"] = _short_run
    src.env["_not_enough"] = not_enough_data
    src.env["_bad_flag"] = _bad_flag
    src.env["_extra"] = _extra
    src.env["_P"] = parts
    src.emit(0, "def read(buf, pos, end):")
    var_index = next((i for i, p in enumerate(parts) if p.size is VARIABLE), None)
    tail = 0
    if var_index is not None:
        for p in parts[var_index + 1 :]:
            assert isinstance(p.size, Fixed)
            tail += p.size.n
    values: list[str] = []
    for group in _runs(parts):
        if isinstance(group, list):
            _read_run(src, parts, group, values)
        else:
            _read_part(src, parts, group, values, group == var_index, tail)
    if as_dict:
        plain = [
            f"{parts[i].key!r}: {values[i]}" for i in range(len(parts)) if parts[i].mode != "splice"
        ]
        src.emit(1, "d = {" + ", ".join(plain) + "}")
        for i, p in enumerate(parts):
            if p.mode == "splice":
                src.emit(1, f"d.update({values[i]})")
        src.emit(1, "return d, pos")
    else:
        items = [
            f"{values[i]}," if p.mode != "splice" else f"*{values[i]}," for i, p in enumerate(parts)
        ]
        src.emit(1, "return (" + " ".join(items) + "), pos")
    return src.compile("read")


def _read_run(src: _Source, parts: Sequence[Part], run: list[int], values: list[str]) -> None:
    atoms = [parts[i].enc.atom() for i in run]
    width = sum(a.width for a in atoms if a is not None)
    fmt = "".join(a.fmt for a in atoms if a is not None)
    names = [f"v{i}" for i in run]
    values.extend(names)
    run_ref = src.ref("_run", run)
    if width:
        src.emit(1, f"if end - pos < {width}: raise _short_run(_P, {run_ref}, pos, end)")
        unpack = src.ref("_S", struct.Struct(">" + fmt).unpack_from)
        targets = [n for n, a in zip(names, atoms, strict=True) if a is not None and a.fmt]
        src.emit(1, f"({', '.join(targets)},) = {unpack}(buf, pos)")
    offset = 0
    for i, name, atom in zip(run, names, atoms, strict=True):
        assert atom is not None
        if atom.unpack is not None:
            fn = src.ref("_u", atom.unpack)
            arg = name if atom.fmt else "None"
            src.emit(1, f"try: {name} = {fn}({arg})")
            where = f"e.shift(pos + {offset}).within({parts[i].key!r})"
            src.emit(1, f"except _Err as e: raise {where} from None")
        offset += atom.width
    if width:
        src.emit(1, f"pos += {width}")


def _read_part(
    src: _Source,
    parts: Sequence[Part],
    i: int,
    values: list[str],
    is_variable: bool,
    tail: int,
) -> None:
    part = parts[i]
    name = f"v{i}"
    values.append(name)
    read = src.ref("_r", part.enc._read)
    key = part.key
    step = "" if part.mode == "splice" else f".within({key!r})"
    frame_end = "end"
    if is_variable:
        frame_end = "vend"
        src.emit(1, f"vend = end - {tail}")
        src.emit(1, f"if vend < pos: raise _not_enough(pos, {tail}, end){step}")
    call = [
        f"try: {name}, pos = {read}(buf, pos, {frame_end})",
        f"except _Err as e: raise e{step} from None",
    ]
    if part.mode == "opt":
        src.emit(1, f"if pos >= end: raise _not_enough(pos, 1, end){step}")
        src.emit(1, "flag = buf[pos]")
        src.emit(1, f"if flag == 0: {name} = None; pos += 1")
        src.emit(1, "elif flag == 255:")
        src.emit(2, "pos += 1")
        for line in call:
            src.emit(2, line)
        src.emit(1, f"else: raise _bad_flag(pos, flag, {key!r})")
    elif part.mode == "varopt":
        src.emit(1, f"if pos == vend: {name} = None")
        src.emit(1, "else:")
        for line in call:
            src.emit(2, line)
    else:
        for line in call:
            src.emit(1, line)
    if is_variable:
        src.emit(1, f"if pos != vend: raise _extra(pos, vend, {key!r})")


def _missing(parts: Sequence[Part], value: Any) -> EncodeError:
    for part in parts:
        if part.mode == "req" and part.key not in value:
            err = EncodeError("missing_field", f"missing field {part.key!r}")
            return err.within(part.key)  # type: ignore[return-value]
    return EncodeError("missing_field", "missing field")


def _unknown(keys: frozenset[str], value: Any) -> EncodeError:
    extra = sorted(str(k) for k in value if k not in keys)
    err = EncodeError("unexpected_field", f"unexpected field {extra[0]!r}")
    return err.within(extra[0])  # type: ignore[return-value]


def _run_failure(
    parts: Sequence[Part], run: Sequence[int], values: Sequence[Any], exc: Exception
) -> EncodeError:
    """Say which field of a fused run could not be written (called after ``struct`` failed)."""
    for i, value in zip(run, values, strict=True):
        atom = parts[i].enc.atom()
        assert atom is not None
        try:
            atom.check(value)
        except DataEncodingError as err:
            return err.within(parts[i].key)  # type: ignore[return-value]
    if isinstance(exc, EncodeError):
        return exc
    return EncodeError("invalid_value", f"cannot write the fields: {exc}")


def _not_container(expected: str, value: Any) -> EncodeError:
    return wrong_value_type(expected, value)


def _bad_arity(expected: int, value: Any) -> EncodeError:
    return EncodeError(
        "wrong_length",
        f"expected a tuple of {expected} elements, got {len(value)}: {describe_value(value)}",
    )


def _empty_optional(key: str | int) -> EncodeError:
    err = EncodeError(
        "empty_optional",
        "an optional field without presence byte cannot hold a value that encodes to "
        "no bytes: it would read back as absent",
    )
    return err.within(key)  # type: ignore[return-value]


def build_writer(parts: Sequence[Part], as_dict: bool, keys: frozenset[str]) -> Writer:
    src = _Source()
    src.env.update(
        _empty_optional=_empty_optional,
        _missing=_missing,
        _unknown=_unknown,
        _run_failure=_run_failure,
        _not_container=_not_container,
        _bad_arity=_bad_arity,
        _P=parts,
        _KEYS=keys,
    )
    src.emit(0, "def write(out, v):")
    names = [f"v{i}" for i in range(len(parts))]
    if as_dict:
        _fetch_fields(src, parts, names)
    else:
        _fetch_elements(src, parts, names)
    for group in _runs(parts):
        if isinstance(group, list):
            _write_run(src, parts, group, names)
        else:
            _write_part(src, parts[group], names[group])
    return src.compile("write")


def _fetch_fields(src: _Source, parts: Sequence[Part], names: list[str]) -> None:
    src.emit(1, "if not isinstance(v, dict): raise _not_container('a dict', v)")
    required = [i for i, p in enumerate(parts) if p.mode == "req"]
    if required:
        src.emit(1, "try:")
        for i in required:
            src.emit(2, f"{names[i]} = v[{parts[i].key!r}]")
        src.emit(1, "except KeyError: raise _missing(_P, v) from None")
    for i, p in enumerate(parts):
        if p.mode in ("opt", "varopt"):
            src.emit(1, f"{names[i]} = v.get({p.key!r})")
        elif p.mode == "dft":
            src.emit(1, f"{names[i]} = v.get({p.key!r}, {src.ref('_d', p.default)})")
        elif p.mode == "splice":
            # a nested record (a union of objects, say) gets only its own keys
            src.emit(
                1, f"{names[i]} = {{k: x for k, x in v.items() if k in {src.ref('_k', p.keys)}}}"
            )
    # every key was found, so the dict has extra keys iff it has more than the
    # required ones and they are not all known
    src.emit(1, f"if len(v) > {len(required)} and not v.keys() <= _KEYS: raise _unknown(_KEYS, v)")


def _fetch_elements(src: _Source, parts: Sequence[Part], names: list[str]) -> None:
    arity = sum(p.arity if p.mode == "splice" else 1 for p in parts)
    src.emit(1, "if not isinstance(v, (tuple, list)): raise _not_container('a tuple', v)")
    src.emit(1, f"if len(v) != {arity}: raise _bad_arity({arity}, v)")
    index = 0
    for i, p in enumerate(parts):
        if p.mode == "splice":
            src.emit(1, f"{names[i]} = tuple(v[{index}:{index + p.arity}])")
            index += p.arity
        else:
            src.emit(1, f"{names[i]} = v[{index}]")
            index += 1


def _write_run(src: _Source, parts: Sequence[Part], run: list[int], names: list[str]) -> None:
    atoms = [parts[i].enc.atom() for i in run]
    args = []
    for i, atom in zip(run, atoms, strict=True):
        assert atom is not None
        if not atom.fmt:
            continue
        if atom.pack is not None:
            args.append(f"{src.ref('_p', atom.pack)}({names[i]})")
        else:
            args.append(names[i])
    run_ref = src.ref("_run", run)
    values = "(" + "".join(f"{names[i]}, " for i in run) + ")"
    src.emit(1, "try:")
    for i, atom in zip(run, atoms, strict=True):
        assert atom is not None
        if not atom.fmt:  # zero-width: only check the value
            src.emit(2, f"{src.ref('_c', atom.check)}({names[i]})")
    if args:
        fmt = "".join(a.fmt for a in atoms if a is not None)
        pack = src.ref("_S", struct.Struct(">" + fmt).pack)
        src.emit(2, f"out += {pack}({', '.join(args)})")
    src.emit(1, f"except Exception as x: raise _run_failure(_P, {run_ref}, {values}, x) from None")


def _write_part(src: _Source, part: Part, name: str) -> None:
    write = src.ref("_w", part.enc._write)
    step = "" if part.mode == "splice" else f".within({part.key!r})"
    call = [f"try: {write}(out, {name})", f"except _Err as e: raise e{step} from None"]
    if part.mode == "opt":
        src.emit(1, f"if {name} is None: out.append(0)")
        src.emit(1, "else:")
        src.emit(2, "out.append(255)")
        for line in call:
            src.emit(2, line)
    elif part.mode == "varopt":
        # no presence byte: a present value must take bytes, or it would read
        # back as absent (one value, one encoding)
        src.emit(1, f"if {name} is not None:")
        src.emit(2, "mark = len(out)")
        for line in call:
            src.emit(2, line)
        src.emit(2, f"if len(out) == mark: raise _empty_optional({part.key!r})")
    else:
        for line in call:
            src.emit(1, line)
