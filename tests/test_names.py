"""No two functions of the package share a name where a reader would confuse them.

The rule, over every module-level ``def`` of ``data_encoding`` (read from
the source, not imported):

* A **public** function's name (no leading ``_``) is unique across the
  package, but for the names of :data:`SAME_IDEA`, each one idea in
  several modules on purpose, in exactly the modules listed there.
* A **private** function's name is unique across the core: every module
  outside ``cli/`` and ``node/``. Generated code names the core's helpers
  after themselves (``Source.ref`` takes an object's ``__name__``: two
  ``too_deep`` were both ``_too_deep`` in generated lines), and the
  tracebacks of every codec show them; a private helper of the command or
  of the node's encodings is its module's own business.
* A **singledispatch registration** (decorated ``@<dispatcher>.register``)
  is exempt: it is never called by its name. Across the passes it is named
  ``_<node>_<role>``, the role saying which dispatcher it serves
  (``_conv_reader``, ``_union_accepts_json``, ``_list_inline``).

Methods are not checked: a method is reached through its class, and one
name across classes is how an interface is written (``_rebuild``, the
renderer's method per op).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import data_encoding

PACKAGE = Path(data_encoding.__file__).parent

SAME_IDEA: dict[str, tuple[frozenset[str], str]] = {
    name: (frozenset(modules), reason)
    for name, modules, reason in [
        (
            "list_",
            {"tree/sequences.py", "tree/fixed.py", "tree/variable.py"},
            "the reference's Fixed.list and Variable.list: one combinator's "
            "variants, named by their module (fixed.list_)",
        ),
        (
            "array",
            {"tree/sequences.py", "tree/fixed.py", "tree/variable.py"},
            "the reference's Fixed.array and Variable.array, likewise",
        ),
        (
            "string",
            {"tree/fixed.py", "tree/bounded.py"},
            "the reference's Fixed.string and Bounded.string, likewise",
        ),
        (
            "bytes_",
            {"tree/fixed.py", "tree/bounded.py"},
            "the reference's Fixed.bytes and Bounded.bytes, likewise",
        ),
        (
            "build",
            {"node/protocols/operations.py", "node/protocols/results.py"},
            "a protocol's operations, a protocol's receipts: each family's "
            "builder, called by its module (operations.build, results.build)",
        ),
        (
            "main",
            {"cli/app.py", "cli/demo.py"},
            "each a program's entry point (python -m)",
        ),
        *(
            (
                name,
                {"arrow.py", "passes/arrow.py"},
                "the Arrow pass's entry point and its public name, which gives "
                "it the node's timestamps",
            )
            for name in ("schema_of", "table_of", "values_of", "cell_of", "table_of_cells")
        ),
        (
            "describe",
            {"passes/schema/describe.py", "cli/commands.py", "node/rpc/__init__.py"},
            "each named after what it answers: Encoding.describe's pass, the "
            "describe command (every command's function is named after it), "
            "the node's GET /describe",
        ),
    ]
}
"""The public names that several modules define on purpose, where, and why."""


def _is_registration(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``fn`` is decorated ``@<dispatcher>.register`` (with or
    without a type argument)."""
    for decorator in fn.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "register":
            return True
    return False


def _definitions() -> dict[str, set[str]]:
    """Each module-level function name of the package (registrations aside),
    with the modules (paths under the package) that define it."""
    where: dict[str, set[str]] = defaultdict(set)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for node in ast.parse(path.read_text(), module).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not (
                _is_registration(node)
            ):
                where[node.name].add(module)
    return where


def _in_core(module: str) -> bool:
    return not module.startswith(("cli/", "node/"))


def test_public_functions_have_names_of_their_own() -> None:
    shared = {
        name: modules
        for name, modules in _definitions().items()
        if not name.startswith("_") and len(modules) > 1
    }
    assert shared == {name: modules for name, (modules, _) in SAME_IDEA.items()}


def test_the_cores_private_helpers_have_names_of_their_own() -> None:
    shared = {}
    for name, modules in _definitions().items():
        core = {m for m in modules if _in_core(m)}
        if name.startswith("_") and len(core) > 1:
            shared[name] = core
    assert shared == {}


def test_the_rule_sees_registrations_and_functions() -> None:
    """The scan finds what it checks: a registration is left out, a helper
    and a public function are in (else the tests above could not fail)."""
    where = _definitions()
    assert "_conv_reader" not in where  # @build_reader.register
    assert where["_lower_read_binary"] == {"passes/binary/jsonlowering.py"}
    assert where["inline_ops"] == {"passes/binary/inline.py"}
    assert where["inline_json"] == {"passes/json/fast.py"}
    assert where["list_"] == {"tree/sequences.py", "tree/fixed.py", "tree/variable.py"}
