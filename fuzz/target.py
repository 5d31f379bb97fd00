"""A libFuzzer target (atheris) for one catalogue id.

Usage::

    FUZZ_ID=chain.blocks python fuzz/target.py [libFuzzer flags] [corpus folders or input files]

The id comes from the environment variable ``FUZZ_ID``, not from argv:
every argument is libFuzzer's, and libFuzzer starts copies of the target
with the same argv (``-fork``, ``-merge``), which inherit the environment.
Given files rather than folders, libFuzzer runs the property on each of them
once: ``FUZZ_ID=ID python fuzz/target.py FILE`` reproduces a finding.

The property, on every input ``data`` (``check``):

* ``decode(data)`` raises nothing but a ``DecodeError``;
* bytes that decode to ``v`` are ``v``'s bytes: ``encode(v) == data``
  (canonicity) and ``length(v) == len(data)``;
* ``v``'s JSON, printed as text and read back, encodes to ``data`` again, and
  those bytes decode to a value that encodes to ``data``; the codec in JSON
  mode agrees: ``decode_json(data)`` is that JSON (the same text) and
  ``encode_json`` of it is ``data``, and on bytes that do not decode
  ``decode_json`` raises ``decode``'s very error; or ``v`` has no JSON
  form, for one of the three reasons the README documents
  (``NO_JSON_FORM``), and ``decode_json`` refuses it with ``to_json``'s
  very error: it holds a float that is not finite, an integer past
  Python's limit on printing integers, or a bounded string that is not
  UTF-8 (bytes hold all three; the reference's bytes do too).

Any other exception (``to_json`` refusing a value that ``decode`` made for
another reason included), and the ``AssertionError`` of a broken property,
leaves the target: libFuzzer saves the input (``crash-<sha1>`` under
``-artifact_prefix``) and stops.

Coverage: the package's modules are imported under
``atheris.instrument_imports``, and the functions the library generates at
run time (the compiled readers, writers and JSON converters, all made by
``passes.emit.Source.compile``) are instrumented as they are made: they are
most of what runs on an input, and an import hook never sees them.
"""

from __future__ import annotations

import contextlib
import os
import pkgutil
import re
import sys
from collections.abc import Callable
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING, Any

import atheris
from atheris.import_hook import instrument_imports
from atheris.instrument_bytecode import instrument_func

if TYPE_CHECKING:
    from data_encoding import Encoding

ID_VARIABLE = "FUZZ_ID"
"""The environment variable that names the catalogue id to fuzz."""

PACKAGE = "data_encoding"

# never reached by the property: the command line (and its demo), the Hypothesis
# strategies (which import Hypothesis) and the slices of the CLI's `slice`
_SKIPPED = {"cli", "__main__", "strategies", "slicing"}

EncodingOf = Callable[[str], "Encoding[Any]"]
"""How a target finds the encoding of an id (the catalogue's, by default)."""

Property = Callable[[str, "Encoding[Any]"], Callable[[bytes], None]]
"""A target's property over one id's encoding, as libFuzzer calls it: one
input at a time, raising on a finding (:func:`check`; the lenient reader's
is ``fuzz/lenient_target.py``'s)."""


def _import_tree(package: ModuleType) -> None:
    """Import every module under ``package`` but the skipped ones.

    ``pkgutil.walk_packages`` would import the skipped packages too, to look
    inside them: this walk looks at a name before importing it."""
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if not _SKIPPED.isdisjoint(info.name.split(".")):
            continue
        module = import_module(info.name)
        if info.ispkg:
            _import_tree(module)


def import_instrumented() -> None:
    """Import the library under atheris' import hook, all of it at once.

    The library imports its passes lazily, on an encoding's first use: a
    module first imported after this block would not be instrumented."""
    with instrument_imports(include=[PACKAGE]):
        _import_tree(import_module(PACKAGE))


def instrument_generated_code() -> None:
    """Instrument each function the library generates, as it is made.

    The only change made to the library, and made in this process alone: its
    one compiling method returns the instrumented function instead."""
    from data_encoding.passes import emit

    compile_source = emit.Source.compile

    def compile_instrumented(self: emit.Source, name: str, label: str) -> Callable[..., Any]:
        return instrument_func(compile_source(self, name, label))

    emit.Source.compile = compile_instrumented  # type: ignore[method-assign]


def catalogue_encoding(id: str) -> Encoding[Any]:
    """The encoding registered under ``id``."""
    from data_encoding.node import registry

    return registry.find(id).encoding


def warm_up(id: str, one_input: Callable[[bytes], None]) -> None:
    """Build the generated functions the property uses before libFuzzer's
    clock starts.

    Instrumenting a generated function takes up to a second or two (atheris'
    rewriting grows with the square of its length); made on the first input,
    it would eat the campaign's time and trip ``-timeout``. The property is
    run on the id's valid samples, whatever it finds: that is libFuzzer's to
    report, on these same bytes among its seeds."""
    from data_encoding.node import registry

    try:
        samples = registry.find(id).samples["valid"]
    except registry.UnknownId:
        samples = []
    for sample in samples:
        with contextlib.suppress(Exception):
            one_input(bytes.fromhex(str(sample["hex"])))


SHOWN_BYTES = 64
"""Inputs longer than this show their first bytes only in a message (the
finding's file holds them all)."""


def shown(data: bytes) -> str:
    """An input in hex, for a message."""
    if len(data) <= SHOWN_BYTES:
        return data.hex() or "(empty)"
    return f"{data[:SHOWN_BYTES].hex()}... ({len(data)} bytes)"


NO_JSON_FORM = (
    ("not_json", re.compile(r".* has no JSON form \(not a finite number\)")),
    ("out_of_range", re.compile(r"number too large to print in decimal")),
    ("not_json", re.compile(r"a bounded string's JSON form must be UTF-8")),
)
"""``to_json``'s errors (code, message) for a value that bytes hold and JSON
cannot: the README's "Strictness" (``decode_json`` must raise them alike)."""


def written_otherwise(e: Encoding[Any], data: bytes, value: Any) -> str | None:
    """How ``value``, read from ``data``, is not written as ``data`` by
    ``encode`` and ``length`` (``None``: it is)."""
    again = e.encode(value)
    if again != data:
        return f"re-encodes to {again.hex()}"
    length = e.length(value)
    if length != len(data):
        return f"its value's length() is {length}"
    return None


def broken(e: Encoding[Any], data: bytes, value: Any) -> str | None:
    """What is wrong with ``value``, which ``data`` decodes to (``None``: nothing)."""
    from data_encoding import EncodeError
    from data_encoding.jsonvalue import dumps, loads

    wrong = written_otherwise(e, data, value)
    if wrong is not None:
        return wrong
    try:
        json = e.to_json(value)
    except EncodeError as err:
        if not any(err.code == code and form.fullmatch(err.message) for code, form in NO_JSON_FORM):
            raise
        try:
            fused: Any = e.decode_json(data)
        except EncodeError as again:
            if said(again) == said(err):
                return None
            fused = again
        return f"to_json refuses it ({err}), decode_json gives {fused!r}"
    text = dumps(json)
    rebuilt = e.encode(e.from_json(loads(text)))
    if rebuilt != data:
        return f"its JSON {text} encodes to {rebuilt.hex()}"
    fused = dumps(e.decode_json(data))
    if fused != text:
        return f"decode_json gives {fused}, not {text}"
    written = e.encode_json(loads(text))
    if written != data:
        return f"encode_json of its JSON {text} gives {written.hex()}"
    reread = e.encode(e.decode(rebuilt))
    if reread != data:
        return f"it reads back through JSON as {reread.hex()}"
    return None


def said(err: Exception) -> tuple[Any, ...]:
    """An error as a property compares it: its type, code, offset, path, message."""
    return (
        type(err).__name__,
        getattr(err, "code", None),
        getattr(err, "offset", None),
        getattr(err, "path", None),
        str(err),
    )


def _error_of(action: Callable[[bytes], Any], data: bytes) -> tuple[Any, ...] | None:
    """What ``action(data)`` raises (``None``: it returns)."""
    try:
        action(data)
    except Exception as err:
        return said(err)
    return None


def check(id: str, e: Encoding[Any]) -> Callable[[bytes], None]:
    """The property over ``e``, as libFuzzer calls it: one input at a time.

    A ``decode`` that raises anything but a ``DecodeError`` is left to
    propagate; once bytes decode, any failure of the property (an exception
    of a later step included) is an ``AssertionError`` naming ``id``, the
    input in hex and what went wrong."""
    from data_encoding import DecodeError

    def one_input(data: bytes) -> None:
        try:
            value = e.decode(data)
        except DecodeError as err:
            refused = _error_of(e.decode_json, data)
            if refused != said(err):
                raise AssertionError(
                    f"{id}: input {shown(data)}: decode raises {said(err)}, decode_json {refused}"
                ) from None
            return
        where = f"{id}: input {shown(data)} decodes"
        try:
            wrong = broken(e, data, value)
        except Exception as err:
            raise AssertionError(f"{where}, then {type(err).__name__}: {err}") from err
        if wrong is not None:
            raise AssertionError(f"{where}, but {wrong}")

    return one_input


def main(
    argv: list[str], encoding_of: EncodingOf = catalogue_encoding, property: Property = check
) -> None:
    """Fuzz ``property`` over the id ``FUZZ_ID`` names; ``argv`` goes to
    libFuzzer as it is."""
    id = os.environ.get(ID_VARIABLE, "")
    if not id:
        sys.exit(f"{argv[0]}: set {ID_VARIABLE} to the catalogue id to fuzz")
    import_instrumented()
    instrument_generated_code()
    e = encoding_of(id)
    one_input = property(id, e)
    warm_up(id, one_input)
    atheris.Setup(argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
