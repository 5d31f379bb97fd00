"""The package's layers, kept: no module imports from a layer above its own,
and no modules import each other in a circle.

The layers, lowest first (``ARCHITECTURE.md``, "Layers")::

    errors < jsonvalue < compiling < depth < tree < passes < node < signer < package < cli

A module's layer is its folder (``tree/``, ``passes/``, ``node/``, ``cli/``)
or, at the top of the package, its own name, except for the few modules
``PLACED`` names. A module may import from its own layer and the ones below.
The one exception is the façade: the methods of ``Encoding`` (``tree/core.py``)
reach their passes by imports inside the methods (and name the types of
their results under ``TYPE_CHECKING``), so that the tree imports none of them
when it is built; ``FACADE`` lists those pairs, exactly.

Inside ``passes/``, the codecs stand side by side over a shared base: a
module of the base imports only the base; a module of a column (a package of
``passes/``: ``binary``, ``json``, ``schema``) imports only the base and
its own column; the passes ``above`` them may import any. ``PASSES`` places
each module at the top of ``passes/``.

Every import counts, at module level or inside a function, absolute or
relative. A circle counts through imports that run when the module is
imported (not those inside functions or under ``TYPE_CHECKING``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import data_encoding

PACKAGE = "data_encoding"
LAYERS = (
    "errors",
    "jsonvalue",
    "compiling",
    "depth",
    "tree",
    "passes",
    "node",
    "signer",
    "package",
    "cli",
)
# the modules at the top of the package whose layer is not their own name
PLACED = {
    "__init__": "package",  # re-exports the public names of the layers below
    "noncanonical": "depth",  # like depth.py, per-thread state of a reading
    "strategies": "passes",  # the public name of the strategies pass
    "arrow": "package",  # the public name of the Arrow pass, with the node's timestamps
    # many inputs over worker processes: a user of the tree's entry points, above the
    # library's own layers so that none of them depends on process pools
    "parallel": "package",
    "demo": "cli",  # make demo runs the command (wherever it is: here, or in cli/)
    "__main__": "cli",  # python -m data_encoding runs the command
}
FACADE = frozenset(
    ("data_encoding.tree.core", f"data_encoding.passes.{name}")
    for name in (
        "binary",
        "json",
        "schema",
        "schema.describe",
        "schema.jsonschema",
        "schema.table",
        "strategies",
    )
)

# inside passes/: the base both codecs share, the columns (packages of
# passes/) and the passes above them, which use several columns
BASE = "base"
ABOVE = "above"
COLUMNS = ("binary", "json", "schema")
PASSES = {
    **dict.fromkeys(
        ("emit", "choosing", "transparent", "dispatch", "recordrule", "leafjson"), BASE
    ),
    "strategies": ABOVE,  # draws values by the binary rules, checked by the JSON ones
}


@dataclass(frozen=True)
class Import:
    """``importer`` imports ``imported`` at ``line``; ``runs`` when the
    importer is imported (at module level, not under ``TYPE_CHECKING``)."""

    importer: str
    imported: str
    line: int
    runs: bool


def module_name(path: str) -> str:
    """``tree/core.py`` -> ``data_encoding.tree.core``, ``cli/__init__.py``
    -> ``data_encoding.cli``."""
    parts = [PACKAGE, *path.removesuffix(".py").split("/")]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str | None:
    """The layer of a module of the package, ``None`` if no rule places it."""
    top = module.split(".")[1] if "." in module else "__init__"
    if "." not in module.removeprefix(f"{PACKAGE}.") and top in PLACED:
        return PLACED[top]
    return top if top in LAYERS else None


def column_of(module: str) -> str | None:
    """Where a module of ``passes/`` stands: ``BASE``, ``ABOVE`` or its
    column; ``None`` for ``passes/__init__`` and modules outside ``passes/``.
    A module no rule places stands in a column of its own name (so that an
    import of it from the base or another column is reported)."""
    parts = module.split(".")
    if parts[1:2] != ["passes"] or len(parts) < 3:
        return None
    if len(parts) > 3 and parts[2] in COLUMNS:
        return parts[2]
    return PASSES.get(parts[2], parts[2])


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: str, source: str, modules: frozenset[str]) -> Iterator[Import]:
    """Every import of a module of the package in ``source`` (the file at
    ``path``), relative ones resolved: ``from P import n`` imports the module
    ``P.n`` if there is one, else ``P``."""
    importer = module_name(path)
    package = importer if path.endswith("__init__.py") else importer.rpartition(".")[0]

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
            return
        base = package.split(".")
        base = base[: len(base) - node.level + 1] if node.level else []
        parent = ".".join([*base, *([node.module] if node.module else [])])
        for alias in node.names:
            child = f"{parent}.{alias.name}"
            yield child if child in modules else parent

    def visit(node: ast.AST, runs: bool) -> Iterator[Import]:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in dict.fromkeys(targets(node)):  # one per module imported
                if target in modules:
                    yield Import(importer, target, node.lineno, runs)
        elif isinstance(node, ast.If) and is_type_checking(node.test):
            for statement in node.body:
                yield from visit(statement, runs=False)
            for statement in node.orelse:
                yield from visit(statement, runs)
        else:
            inside = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            for child in ast.iter_child_nodes(node):
                yield from visit(child, runs and not inside)

    yield from visit(ast.parse(source, path), runs=True)


def up_imports(imports: list[Import]) -> Iterator[str]:
    """A message for each import up the layers that ``FACADE`` does not list."""
    rank = {layer: n for n, layer in enumerate(LAYERS)}
    for i in imports:
        low, high = layer_of(i.importer), layer_of(i.imported)
        if low is None or high is None or rank[high] <= rank[low]:
            continue
        if not i.runs and (i.importer, i.imported) in FACADE:
            continue
        yield (
            f"{i.importer} (layer {low}) imports {i.imported} (layer {high}),"
            f" a layer above its own, at line {i.line}"
        )


def across_columns(imports: list[Import]) -> Iterator[str]:
    """A message for each import inside ``passes/`` from the base into a
    column, or from one column into another."""
    for i in imports:
        low, high = column_of(i.importer), column_of(i.imported)
        if low is None or high is None or low in (high, ABOVE) or high == BASE:
            continue
        yield (
            f"{i.importer} ({low}) imports {i.imported} ({high}),"
            f" {'a column' if low == BASE else 'beside its own column'}, at line {i.line}"
        )


def circles(imports: list[Import]) -> Iterator[str]:
    """A message per circle of imports that run (one circle through each
    strongly connected set of modules, the shortest through its first
    module by name), found by Tarjan's algorithm: linear in the imports."""
    graph: dict[str, list[str]] = {}
    for i in imports:
        if i.runs:
            graph.setdefault(i.importer, []).append(i.imported)
            graph.setdefault(i.imported, [])
    for targets in graph.values():
        targets.sort()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in graph[module]:
            if target not in index:
                connect(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component: list[str] = []
            while not component or component[-1] != module:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            components.append(component)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    for component in sorted(sorted(c) for c in components):
        first = component[0]
        if len(component) > 1 or first in graph[first]:
            yield "import circle: " + " -> ".join(shortest_circle(graph, first, set(component)))


def shortest_circle(graph: Mapping[str, list[str]], start: str, within: set[str]) -> list[str]:
    """The shortest path from ``start`` back to itself through ``within``
    (breadth first, so each module is seen once)."""
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for target in graph[module]:
                if target == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if target in within and target not in came_from:
                    came_from[target] = module
                    following.append(target)
        frontier = following
    raise AssertionError(f"{start} is on no circle")


def imports_in(files: Mapping[str, str]) -> list[Import]:
    """The imports between the modules of ``files`` (path in the package -> source)."""
    modules = frozenset(module_name(path) for path in files)
    return [i for path, source in files.items() for i in imports_of(path, source, modules)]


def violations(files: Mapping[str, str]) -> list[str]:
    """What breaks the layers in ``files``: the modules no rule places, the
    imports up the layers, those across the columns of ``passes/``, the
    circles."""
    unplaced = sorted(m for m in map(module_name, files) if layer_of(m) is None)
    imports = imports_in(files)
    return [
        *(f"{m} has no layer" for m in unplaced),
        *up_imports(imports),
        *across_columns(imports),
        *circles(imports),
    ]


def package_files() -> dict[str, str]:
    root = Path(data_encoding.__file__).parent
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*.py"))}


def test_the_package_keeps_its_layers_and_has_no_import_circle() -> None:
    assert violations(package_files()) == []


def test_the_facade_list_names_only_imports_the_facade_makes() -> None:
    """The exception stays exact: each pair it lists is an import inside a
    method (or a type's) of ``tree/core.py``."""
    made = {(i.importer, i.imported) for i in imports_in(package_files()) if not i.runs}
    assert FACADE - made == set()


def test_up_imports_circles_and_unplaced_modules_are_reported() -> None:
    files = {
        "__init__.py": "from .tree import core\n",
        "errors.py": "",
        "tree/__init__.py": "",
        "tree/core.py": (
            "from typing import TYPE_CHECKING\n"
            "from ..errors import x\n"
            "if TYPE_CHECKING:\n"
            "    from ..passes.schema import Schema\n"
            "def encode():\n"
            "    from ..passes import binary\n"
            "def slice():\n"
            "    from data_encoding.passes.binary.slicing import s\n"
        ),
        "tree/zarith.py": (
            "from typing import TYPE_CHECKING\n"
            "from ..passes.emit import index_of\n"
            "from .core import Encoding\n"
            "if TYPE_CHECKING:\n"
            "    from ..node.hashes import HashBytes\n"
        ),
        "passes/__init__.py": "",
        "passes/emit.py": "",
        "passes/binary/__init__.py": "from .codec import build_reader\n",
        "passes/binary/codec.py": "from ...tree.core import Encoding\n",
        "passes/binary/slicing.py": "",
        "passes/binary/lowering.py": "import data_encoding.passes.binary.parts\n",
        "passes/binary/parts.py": "from . import rules\n",
        "passes/binary/rules.py": (
            "def later():\n    from .lowering import lowered\nfrom . import lowering\n"
        ),
        "passes/schema/__init__.py": "from ...tree import core\n",
        "passes/choosing.py": "from .choosing import first_case\n",
        "extra.py": "from .node import hashes\n",
        "alone.py": "import json\n",
        "node/__init__.py": "",
        "node/hashes.py": "",
    }
    assert violations(files) == [
        "data_encoding.alone has no layer",
        "data_encoding.extra has no layer",
        "data_encoding.tree.core (layer tree) imports data_encoding.passes.binary.slicing"
        " (layer passes), a layer above its own, at line 8",
        "data_encoding.tree.zarith (layer tree) imports data_encoding.passes.emit"
        " (layer passes), a layer above its own, at line 2",
        "data_encoding.tree.zarith (layer tree) imports data_encoding.node.hashes"
        " (layer node), a layer above its own, at line 5",
        "import circle: data_encoding.passes.binary.lowering"
        " -> data_encoding.passes.binary.parts -> data_encoding.passes.binary.rules"
        " -> data_encoding.passes.binary.lowering",
        "import circle: data_encoding.passes.choosing -> data_encoding.passes.choosing",
    ]


def test_imports_across_the_columns_of_the_passes_are_reported() -> None:
    files = {
        "passes/__init__.py": "from . import emit\n",
        "passes/emit.py": "from .json import exact\n",
        "passes/choosing.py": "def later():\n    from .extra import helper\n",
        "passes/extra.py": "from .choosing import first_case\n",
        "passes/json/__init__.py": "from .exact import exact_to\n",
        "passes/json/exact.py": (
            "from ..binary.rules import canonical\nfrom ..choosing import first_case\n"
        ),
        "passes/binary/__init__.py": "from .rules import canonical\n",
        "passes/binary/rules.py": "from ..dispatch import takes_default\n",
        "passes/dispatch.py": "",
        "passes/strategies.py": "from .json import exact\nfrom .binary import rules\n",
    }
    assert violations(files) == [
        "data_encoding.passes.emit (base) imports data_encoding.passes.json.exact (json),"
        " a column, at line 1",
        "data_encoding.passes.choosing (base) imports data_encoding.passes.extra (extra),"
        " a column, at line 2",
        "data_encoding.passes.json.exact (json) imports data_encoding.passes.binary.rules"
        " (binary), beside its own column, at line 1",
    ]
