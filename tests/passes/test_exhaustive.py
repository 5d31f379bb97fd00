"""Every node type against every dispatching function of the passes.

A pass is a function per node type (``functools.singledispatch``): a node
type it has no registration for takes its default, silently. For each
concrete node type (every ``Encoding`` subclass of the package) and each
dispatching function (every ``singledispatch`` function of
``data_encoding.passes``), the type or a parent is registered, or the
wrapper table (``passes/transparent.py``) sees through it where the
function's default follows that table, or the function lists it beside
itself as taking its default on purpose (``dispatch.takes_default``). The
failure names each missing pair and the file to add it to. The same holds
of the wrapper table: every wrapper type has a row, and the table its
module draws is the table."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, cast

from data_encoding.passes import transparent
from data_encoding.passes.dispatch import DEFAULTS
from data_encoding.passes.transparent import TABLE, Row, row
from data_encoding.tree.core import Encoding
from data_encoding.tree.leaves import AtomEncoding
from data_encoding.tree.records import Parts
from data_encoding.tree.wrappers import Mu, Splitted, Transparent, Wrapper

ABSTRACT = {AtomEncoding, Parts, Transparent, Wrapper}
"""The bases that no combinator builds: what their subclasses share."""


class Dispatcher(Protocol):
    """A ``functools.singledispatch`` function."""

    registry: Mapping[type, Callable[..., Any]]

    def __call__(self, *args: Any) -> Any: ...

    def dispatch(self, cls: type) -> Callable[..., Any]: ...


def _dispatcher(f: object) -> Dispatcher | None:
    is_one = callable(getattr(f, "dispatch", None)) and hasattr(f, "registry")
    return cast(Dispatcher, f) if is_one else None


def _modules(package: str) -> Iterator[Any]:
    root = importlib.import_module(package)
    yield root
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        yield importlib.import_module(info.name)


def _subclasses(cls: type[Any]) -> Iterator[type[Any]]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _node_types() -> list[type[Any]]:
    for package in ("data_encoding.tree", "data_encoding.node"):
        list(_modules(package))  # every node type defined, by whichever module
    types = {cls for cls in _subclasses(Encoding) if cls.__module__.startswith("data_encoding.")}
    return sorted(types - ABSTRACT, key=lambda cls: cls.__name__)


NODE_TYPES = _node_types()
"""Every concrete node type of the package."""

DISPATCHERS = {
    f"{module.__name__.removeprefix('data_encoding.passes.')}.{name}": f
    for module in _modules("data_encoding.passes")
    for name, obj in vars(module).items()
    if (f := _dispatcher(obj)) is not None and getattr(f, "__module__", None) == module.__name__
}
"""Every dispatching function of the passes, by its dotted name."""


def _file(name: str) -> str:
    """``binary.rules.many`` -> ``passes/binary/rules.py``."""
    return f"passes/{name.rpartition('.')[0].replace('.', '/')}.py"


def _takes_by_default(f: Dispatcher, cls: type) -> bool:
    return f.dispatch(cls) is f.registry[object]


def _covered(f: Dispatcher, cls: type) -> bool:
    declared = DEFAULTS[f]
    return (
        not _takes_by_default(f, cls)
        or (declared.through is not None and getattr(row(cls), declared.through) is not None)
        or any(issubclass(cls, listed) for listed in declared.why)
    )


def test_the_node_types_and_dispatching_functions_are_found() -> None:
    assert " ".join(cls.__name__ for cls in NODE_TYPES) == (
        "Bool Bounded Bson CheckSize Conv Def Delayed Described DirectJson DynamicSize "
        "FixedBytes Float HashBytes Int ListEncoding Matching MergeObjs MergeTups Mu Named "
        "Obj Option Padded RangedInt RawBytes Splitted StringEnum TaggedBytes Tup Union "
        "Zarith ZeroWidth"
    )
    assert " ".join(sorted(DISPATCHERS)) == (
        "arrow._column "
        "binary.codec.build_reader binary.codec.build_sizer binary.codec.build_writer "
        "binary.inline.bytes_of binary.inline.inline_ops binary.jsonmode.reads_json "
        "binary.jsonmode.writes_json binary.lenient.build_lenient_reader "
        "binary.lenient.build_marked_writer binary.marking._holds binary.marking.lenient_unpack "
        "binary.rules.fixed_atom binary.rules.many "
        "choosing.accepts choosing.accepts_json json.exact.exact_from json.exact.exact_to "
        "json.fast._composite json.fast.inline_json leafjson.read_leaf strategies._build"
    )


def test_every_dispatching_function_says_what_it_leaves_to_its_default() -> None:
    undeclared = [
        f"{name}: decorate it with @takes_default (passes/dispatch.py) in {_file(name)}"
        for name, f in DISPATCHERS.items()
        if f not in DEFAULTS
    ]
    assert not undeclared, "\n".join(undeclared)


def _missing(node_types: list[type]) -> list[str]:
    """What the failure says: each pair neither registered nor listed."""
    return [
        f"{name} has no registration for {cls.__name__}: register one in {_file(name)}, "
        f"or list {cls.__name__} in the @takes_default beside {name.rpartition('.')[2]}, "
        "saying why it takes the default"
        for name, f in DISPATCHERS.items()
        for cls in node_types
        if not _covered(f, cls)
    ]


def test_every_node_type_is_registered_or_listed_in_every_dispatching_function() -> None:
    missing = _missing(NODE_TYPES)
    assert not missing, "\n".join(missing)


def test_what_is_listed_as_taking_the_default_takes_it() -> None:
    stale = [
        f"{name} lists {cls.__name__} as taking its default, but dispatches it elsewhere"
        for name, f in DISPATCHERS.items()
        for cls in DEFAULTS[f].why
        if not _takes_by_default(f, cls)
    ]
    assert not stale, "\n".join(stale)


def test_a_new_node_type_is_named_in_every_function_it_must_consider() -> None:
    class Planted(Encoding[Any]):
        """A node type no pass knows (it lives only in this test)."""

    missing = _missing([Planted])
    assert len(missing) == len(DISPATCHERS)
    assert (
        "binary.rules.many has no registration for Planted: register one in "
        "passes/binary/rules.py, or list Planted in the @takes_default beside many, "
        "saying why it takes the default"
    ) in missing


# ------------------------------------------------------------ the wrapper table


def test_every_wrapper_type_has_a_row() -> None:
    wrappers = [cls for cls in NODE_TYPES if issubclass(cls, Wrapper | Splitted | Mu)]
    assert " ".join(cls.__name__ for cls in wrappers) == (
        "Bounded CheckSize Conv Def Delayed Described DirectJson DynamicSize FixedBytes "
        "HashBytes Mu Named Padded Splitted TaggedBytes"
    )
    missing = [
        f"{cls.__name__} has no row: add one to TABLE in passes/transparent.py"
        for cls in wrappers
        if row(cls) == Row()
    ]
    assert not missing, "\n".join(missing)


def _drawn() -> dict[str, list[str]]:
    """The table ``transparent``'s documentation draws: its rows' cells by type name."""
    doc = inspect.getdoc(transparent) or ""
    lines = doc.splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("====")]
    header = lines[rules[0] + 1].split()
    rows = [line.split() for line in lines[rules[1] + 1 : rules[2]]]
    return {cells[0]: cells[1:] for cells in [header, *rows]}


def test_the_documentation_draws_the_table() -> None:
    def cell(value: str | bool | None) -> str:
        return "·" if value in (None, False) else "yes" if value is True else str(value)

    drawn = _drawn()
    assert drawn.pop("wrapper") == list(Row._fields)
    assert drawn == {cls.__name__: [cell(v) for v in r] for cls, r in TABLE.items()}
