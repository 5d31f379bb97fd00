"""Codecs written with the ``construct`` library for the three benchmark workloads.

:func:`codecs` maps each workload name of :mod:`workloads` to up to two
``(encode, decode)`` pairs that give the same bytes and values as our
encodings:

``"construct"``
    The declarative ``construct`` structs, interpreted.
``"construct (compiled)"``
    The same structs after ``Construct.compile()`` (construct >= 2.10).

The wire layouts are big-endian and follow :mod:`handwritten`. Construct
parses into ``Container`` / ``ListContainer`` (an ordered dict with an extra
``_io`` key, and a list subclass) and its structs need every field, so each
codec converts between our plain values and construct's at the edge: a dict or
list comprehension that builds only the plain dicts and lists our values are
made of. That conversion is part of construct's cost.

Limits of construct found while writing these:

* ``GreedyRange`` (a list that runs to the end of its ``Prefixed`` byte-size
  area) has no compiler support: ``compile()`` accepts it but links the
  interpreted instance, with interpreted elements. The compiled codecs
  therefore compile each list element on its own and put the ``Compiled``
  element inside ``GreedyRange`` before compiling the whole. ``GreedyRange``
  also stops at the first element that fails to parse, so malformed input ends
  a list early instead of raising.
* ``compile()`` turns ``Rebuild`` functions into source with ``repr``: they
  must be ``this`` expressions, not lambdas. The option presence bytes are
  therefore rebuilt from ``this.value != None`` (``is not`` cannot be
  overloaded).
* Construct has no Zarith integer: :func:`_zarith_z` is a custom ``Construct``
  that reads one byte at a time, like construct's own ``VarInt``, and cannot
  be compiled (it is linked, which compiling ``GreedyRange`` does anyway), so
  the compiled ``zarith_z`` codec only compiles the parsing of the byte-size
  prefix.
* ``Prefixed`` compiles its parsing only: building any of these structs runs
  the interpreted ``Prefixed``, so compiling speeds up building only through
  the compiled elements (the block header's and records' structs).
* Construct has no 31-bit integer: ``int31`` fields are ``Int32sb``, which does
  not reject values outside ``int31``'s range.
* Nothing here checks that a ``Prefixed`` area or the whole input is consumed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["codecs"]

Codec = tuple[Callable[[Any], bytes], Callable[[bytes], Any]]

_STATE_TAGS = {"running": 0, "exited": 1, "stopped": 2, "signaled": 3}
_STATE_NAMES = ("running", "exited", "stopped", "signaled")


def _zarith_z(c: Any) -> Any:
    """A construct field for one Zarith signed integer (``z``)."""

    class ZarithZ(c.Construct):  # type: ignore[misc]
        """Zarith ``z``: sign and 6 bits in the first byte, then 7-bit groups, low first."""

        def _parse(self, stream: Any, context: Any, path: str) -> int:
            read = stream.read
            b: bytes = read(1)
            if not b:
                raise c.StreamError("zarith: no more bytes", path=path)
            first = b[0]
            m = first & 0x3F
            if first & 0x80:
                shift = 6
                while True:
                    b = read(1)
                    if not b:
                        raise c.StreamError("zarith: truncated", path=path)
                    d = b[0]
                    m |= (d & 0x7F) << shift
                    if d < 0x80:
                        break
                    shift += 7
            return -m if first & 0x40 else m

        def _build(self, obj: int, stream: Any, context: Any, path: str) -> int:
            if obj < 0:
                m = -obj
                first = 0x40 | (m & 0x3F)
            else:
                m = obj
                first = m & 0x3F
            m >>= 6
            if not m:
                stream.write(bytes((first,)))
                return obj
            out = bytearray((0x80 | first,))
            while m >= 0x80:
                out.append(0x80 | (m & 0x7F))
                m >>= 7
            out.append(m)
            stream.write(out)
            return obj

    return ZarithZ()


def _structs(c: Any, compiled: bool) -> dict[str, Any]:
    """The construct structs of the workloads (raw: construct's value shapes)."""

    def element(sub: Any) -> Any:
        return sub.compile() if compiled else sub

    def option(present: Any, sub: Any) -> Any:
        # ``!= None``: a ``this`` expression, so that ``compile()`` accepts it.
        return c.FocusedSeq(
            "value",
            "present" / c.Rebuild(present, c.this.value != None),  # noqa: E711
            "value" / c.If(c.this.present, sub),
        )

    fitness_element = element(c.Prefixed(c.Int32ub, c.GreedyBytes))
    header = c.Struct(
        "level" / c.Int32sb,
        "proto" / c.Int8ub,
        "predecessor" / c.Bytes(32),
        "timestamp" / c.Int64sb,
        "validation_pass" / c.Int8ub,
        "operations_hash" / c.Bytes(32),
        "fitness" / c.Prefixed(c.Int32ub, c.GreedyRange(fitness_element)),
        "context" / c.Bytes(32),
        "protocol_data" / c.GreedyBytes,
    )
    zarith = c.Prefixed(c.Int32ub, c.GreedyRange(_zarith_z(c)))
    # One flat struct per record: the state's tag, pid and code sit between uid
    # and parent on the wire; running (tag 0) has no code (``Switch`` default:
    # ``Pass``, parsing to None).
    code = c.Int32sb
    record = c.Struct(
        "uid" / c.Int16ub,
        "tag" / c.Int8ub,
        "pid" / c.Int32sb,
        "code"
        / c.Switch(
            c.this.tag,
            {1: option(c.Mapping(c.Int8ub, {False: 0x00, True: 0xFF}), code), 2: code, 3: code},
        ),
        "parent" / option(c.Flag, c.Int32sb),
    )
    records = c.Prefixed(c.Int32ub, c.GreedyRange(element(record)))
    structs = {"block_header": header, "zarith_z": zarith, "records": records}
    if compiled:
        return {name: s.compile() for name, s in structs.items()}
    return structs


def _codecs(structs: dict[str, Any]) -> dict[str, Codec]:
    header_build = structs["block_header"].build
    header_parse = structs["block_header"].parse

    def header_decode(b: bytes) -> dict[str, Any]:
        r = header_parse(b)
        return {
            "level": r["level"],
            "proto": r["proto"],
            "predecessor": r["predecessor"],
            "timestamp": r["timestamp"],
            "validation_pass": r["validation_pass"],
            "operations_hash": r["operations_hash"],
            "fitness": list(r["fitness"]),
            "context": r["context"],
            "protocol_data": r["protocol_data"],
        }

    zarith_parse = structs["zarith_z"].parse

    def zarith_decode(b: bytes) -> list[int]:
        return list(zarith_parse(b))

    records_build = structs["records"].build
    records_parse = structs["records"].parse
    tags, names = _STATE_TAGS, _STATE_NAMES

    def records_encode(v: list[dict[str, Any]]) -> bytes:
        return records_build(  # type: ignore[no-any-return]
            [
                {
                    "uid": r["uid"],
                    "tag": tags[st["state"]],
                    "pid": st["pid"],
                    "code": st.get("code"),
                    "parent": r["parent"],
                }
                for r in v
                for st in (r["state"],)
            ]
        )

    def records_decode(b: bytes) -> list[dict[str, Any]]:
        return [
            {
                "uid": r["uid"],
                "state": {"state": "running", "pid": r["pid"]}
                if (t := r["tag"]) == 0
                else {"state": names[t], "pid": r["pid"], "code": r["code"]},
                "parent": r["parent"],
            }
            for r in records_parse(b)
        ]

    return {
        "block_header": (header_build, header_decode),
        "zarith_z": (structs["zarith_z"].build, zarith_decode),
        "records": (records_encode, records_decode),
    }


def codecs() -> dict[str, dict[str, Codec]]:
    """Workload name -> {variant: (encode, decode)}: ``construct``, interpreted and compiled.

    Raises :class:`ImportError` if ``construct`` is not installed.
    """
    import construct  # type: ignore[import-untyped, import-not-found, unused-ignore]

    interpreted = _codecs(_structs(construct, compiled=False))
    compiled = _codecs(_structs(construct, compiled=True))
    return {
        name: {"construct": interpreted[name], "construct (compiled)": compiled[name]}
        for name in interpreted
    }
