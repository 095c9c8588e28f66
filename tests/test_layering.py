"""Import contracts (issue #16): which layer may import what, and who may touch whose privates.

Guards that hold today are plain assertions. Where today's code still breaks a rule, the test
carries an explicit allow-list of the current offenders: a new offender fails the test, and so
does an allow-listed one that no longer offends, so the lists only shrink and always tell the
truth. Every import counts, including those under ``if TYPE_CHECKING:`` and inside functions.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import TypeVar

PACKAGE = Path(__file__).resolve().parents[1] / "bme_desktop"
T = TypeVar("T")
FORBIDDEN = ("PySide6", "pyqtgraph", "OpenGL", "shiboken6")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_and_layout_sources_import_no_qt() -> None:
    offenders = []
    for folder in ("core", "layout"):
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = {m for m in imported_modules(path) if m.split(".")[0] in FORBIDDEN}
            if bad:
                offenders.append(f"{path.relative_to(PACKAGE)}: {sorted(bad)}")
    assert offenders == []


def test_importing_the_core_loads_no_qt_module() -> None:
    code = (
        "import sys, pkgutil, importlib, bme_desktop.core as c, bme_desktop.layout as l\n"
        "for pkg in (c, l):\n"
        "    for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- the package's own import graph ------------------------------------------------------------


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def sources() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, path: Path, tree: ast.AST) -> Iterator[str]:
    """Every module of the package that ``module`` imports (a name imported from a package
    counts as its submodule when it is one, as import-linter counts it), and the first argument
    of ``import_module``."""
    known = sources()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path.name == "__init__.py", node)
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            yield from submodules
            if len(submodules) < len(node.names):  # ``from pkg import sub`` alone does not count as pkg
                yield base
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value


@cache
def import_graph() -> dict[str, frozenset[str]]:
    """module -> the package's modules it imports (TYPE_CHECKING and function-level included)."""
    known = sources()
    graph: dict[str, frozenset[str]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = frozenset(m for m in _targets(module, path, tree) if m in known and m != module)
    return graph


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def forbidden_imports(importers: tuple[str, ...], imported: tuple[str, ...]) -> set[tuple[str, str]]:
    return {
        (src, dst)
        for src, targets in import_graph().items()
        if _under(src, importers)
        for dst in targets
        if _under(dst, imported)
    }


def check_allow_list(found: set[T], allowed: set[T]) -> None:
    new = sorted(map(str, found - allowed))
    gone = sorted(map(str, allowed - found))
    assert not new, f"new offenders (fix them; the allow-list only shrinks): {new}"
    assert not gone, f"these no longer offend: take them off the allow-list: {gone}"


def test_the_import_graph_sees_relative_type_checking_and_function_imports() -> None:
    graph = import_graph()
    # ``from .service import MemoryService`` under TYPE_CHECKING, and a function-level import
    assert "bme_desktop.core.service" in graph["bme_desktop.core.pipelines"]
    assert "bme_desktop.core.extract.scheduler" in graph["bme_desktop.core.pipelines"]
    # ``from . import editing`` names a module, not just the package
    assert "bme_desktop.core.editing" in graph["bme_desktop.core.service"]


# (a) the front ends use the service's methods, not the core's insides ------------------------

FRONT_ENDS = ("bme_desktop.ui", "bme_desktop.bridge", "bme_desktop.mcp", "bme_desktop.sillytavern")
CORE_INSIDES = tuple(f"bme_desktop.core.{p}" for p in ("store", "extract", "recall", "lifecycle", "index"))


def test_ui_and_bridge_do_not_import_the_core_pipelines_or_store() -> None:
    assert sorted(forbidden_imports(FRONT_ENDS, CORE_INSIDES)) == []


def _service_calls(tree: ast.AST, methods: set[str]) -> set[str]:
    """``service.read(…)`` / ``x.service.write(…)``: the methods of ``methods`` called on a
    name or attribute called ``service``."""
    found = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in methods
            and (
                (isinstance(node.func.value, ast.Name) and node.func.value.id == "service")
                or (isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "service")
            )
        ):
            found.add(node.func.attr)
    return found


def test_ui_and_bridge_run_no_reader_or_unit_of_work_of_their_own() -> None:
    """The service's methods answer each question in one transaction; a front end that runs its
    own reader or unit of work depends on the store's insides and skips the service's events."""
    found = {
        (m, call)
        for m, p in sources().items()
        if _under(m, FRONT_ENDS)
        for call in _service_calls(ast.parse(p.read_text(encoding="utf-8")), {"read", "write", "write_later"})
    }
    assert sorted(found) == []


# The core's module-level writers: a front end calls the service's operation that wraps each
# (``MemoryService.run_chat_operation``, ``run_recorded``, ``import_chats``…), which returns its
# OpResult (its changes, initiator and origin), not the bare function.
BARE_WRITERS = {
    "bme_desktop.core.chat_ops": {"run_operation", "rebuild_summaries"},
    "bme_desktop.core.evolve": {"run_evolve", "rebuild_vectors"},
    "bme_desktop.core.rewrites": {"run_recorded", "record_step"},
    "bme_desktop.core.merging": {"merge_nodes"},
    "bme_desktop.core.demo_story": {"build_demo"},
    "bme_desktop.core.backup.importer": {"import_chats"},
    "bme_desktop.core.backup.memory_import": {"import_memories"},
    "bme_desktop.core.backup.files": {"restore", "restore_chain"},
    "bme_desktop.core.backup.purge": {"purge_all"},
    "bme_desktop.core.lifecycle.persona": {"reject_trait", "unreject_trait"},
}
COMMAND_LINES = tuple(
    f"bme_desktop.{m}" for m in ("cli", "backup_cli", "maintain_cli", "scope_cli", "doctor")
)


def bare_writers_imported(module: str, path: Path) -> set[tuple[str, str]]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = _resolve(module, path.name == "__init__.py", node)
            found |= {
                (module, f"{base}.{a.name}") for a in node.names if a.name in BARE_WRITERS.get(base, ())
            }
    return found


def test_front_ends_write_through_the_services_operations() -> None:
    found = {
        hit
        for m, p in sources().items()
        if _under(m, FRONT_ENDS + COMMAND_LINES)
        for hit in bare_writers_imported(m, p)
    }
    assert sorted(found) == []


def test_bare_writers_imported_sees_relative_and_absolute_imports(tmp_path: Path) -> None:
    path = tmp_path / "x.py"
    path.write_text(
        "from ...core.chat_ops import OPERATIONS, run_operation\n"
        "def f():\n    from bme_desktop.core.backup.purge import purge_all\n",
        encoding="utf-8",
    )
    assert bare_writers_imported("bme_desktop.ui.panels.x", path) == {
        ("bme_desktop.ui.panels.x", "bme_desktop.core.chat_ops.run_operation"),
        ("bme_desktop.ui.panels.x", "bme_desktop.core.backup.purge.purge_all"),
    }


def test_service_calls_sees_a_read_on_the_service_or_on_an_attribute_called_service() -> None:
    tree = ast.parse("service.read(f)\nc.service.write(g)\nreader.read(h)\nservice.recall(r)\n")
    assert _service_calls(tree, {"read", "write"}) == {"read", "write"}


# (b) core pipelines depend on ports, never on the service -------------------------------------

SERVICE = "bme_desktop.core.service"
# ``core.pipelines`` is where the service's pipelines are wired: the one core module besides the
# service that may name it.
WIRING = "bme_desktop.core.pipelines"


def test_core_modules_do_not_import_the_service() -> None:
    found = {
        src
        for src, dst in forbidden_imports(("bme_desktop.core",), (SERVICE,))
        if src not in (SERVICE, WIRING)
    }
    assert sorted(found) == []


# the tables (SQL) stay in core/store: everyone else asks the store's readers and writers
TABLES = "bme_desktop.core.store.tables"


def test_only_the_store_imports_the_tables() -> None:
    found = {
        src
        for src, dst in forbidden_imports(("bme_desktop",), (TABLES,))
        if not _under(src, ("bme_desktop.core.store",))
    }
    assert not found, f"only core/store may import the tables; these do: {sorted(found)}"


# the largest import cycle inside core/ --------------------------------------------------------


def strongly_connected(graph: dict[str, frozenset[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    out.append(component)
    return out


def core_cycles() -> list[set[str]]:
    core = {
        m: frozenset(d for d in ds if _under(d, ("bme_desktop.core",)))
        for m, ds in import_graph().items()
        if _under(m, ("bme_desktop.core",))
    }
    return sorted((c for c in strongly_connected(core) if len(c) > 1), key=len, reverse=True)


def test_strongly_connected_finds_a_cycle_and_leaves_a_chain_apart() -> None:
    graph = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}
    assert sorted(map(sorted, strongly_connected(graph))) == [["a", "b", "c"], ["d"]]


# Pinned at today's size: lower it as the cycle shrinks (the goal is no cycle larger than one
# package's own modules). The test fails above it, and asks for the pin to follow below it.
LARGEST_CORE_CYCLE = 2


def test_the_largest_import_cycle_inside_core_does_not_grow() -> None:
    cycles = core_cycles()
    largest = len(cycles[0]) if cycles else 0
    assert largest <= LARGEST_CORE_CYCLE, f"core import cycle grew to {largest}: {sorted(cycles[0])}"
    assert largest == LARGEST_CORE_CYCLE, f"the largest core cycle shrank to {largest}: lower the pin"


# (d) nobody reaches into another module's private attributes -----------------------------------

# Underscore names that are public API (namedtuple's methods) or a standard-library type only
# nameable by its private name (argparse's sub-parser action, for annotations).
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_fields", "_make", "_SubParsersAction"}


def _own_privates(tree: ast.AST) -> set[str]:
    """Private names this module defines: functions, classes, module names and attributes it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if n.startswith("_")}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORE


def private_reaches(module: str, path: Path) -> set[tuple[str, str]]:
    """(module, name) for each private name ``module`` takes from an object or module that is not
    its own: ``other._name``, ``getattr(other, "_name")``, ``from x import _name`` (a private
    submodule of the importer's own package is its own)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _own_privates(tree)
    known = sources()
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.add((module, node.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and node.args[1].value not in own
        ):
            found.add((module, node.args[1].value))
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, path.name == "__init__.py", node)
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for alias in node.names:
                if not _private(alias.name):
                    continue
                if f"{base}.{alias.name}" in known and base == package:
                    continue
                found.add((module, alias.name))
    return found


def test_no_module_reaches_into_another_modules_privates() -> None:
    found: set[tuple[str, str]] = set().union(*(private_reaches(m, p) for m, p in sources().items()))
    assert sorted(found) == []


def test_private_reaches_sees_attribute_getattr_and_import(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from os import _exit\nservice._manual()\ngetattr(service, '_writer_ident')\n"
        "self._mine = 1\nother._mine\nparts._replace()\n",
        encoding="utf-8",
    )
    assert private_reaches("probe", probe) == {
        ("probe", "_exit"),
        ("probe", "_manual"),
        ("probe", "_writer_ident"),
    }
