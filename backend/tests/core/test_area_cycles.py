"""No two areas import each other (DESIGN §3), and no modules either: an area is a top-level package of
spot (core aside, which may import no area at all: tests/core/test_imports.py), and area A imports area B
when any module of A imports a module of B, at the top or inside a function, a TYPE_CHECKING block
included."""

import ast
from pathlib import Path

import spot

ROOT = Path(spot.__file__).parent
AREAS = sorted(p.name for p in ROOT.iterdir() if (p / "__init__.py").is_file() and p.name != "core")


def imported(source: str, package: str) -> set[str]:
    """The modules a module of `package` names in its imports (relative ones resolved), e.g.
    spot.users.models, or spot.users and spot.users.models for `from spot.users import models`."""
    parts = package.split(".")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found |= {module} | {f"{module}.{alias.name}" for alias in node.names}
    return found


def area_imports() -> dict[tuple[str, str], set[str]]:
    """(importing area, imported area) → the importing modules, relative to spot/."""
    edges: dict[tuple[str, str], set[str]] = {}
    for area in AREAS:
        for path in (ROOT / area).rglob("*.py"):
            package = ".".join(["spot", *path.relative_to(ROOT).parts[:-1]])
            for module in imported(path.read_text(encoding="utf-8"), package):
                parts = module.split(".")
                if parts[0] == "spot" and len(parts) > 1 and parts[1] in AREAS and parts[1] != area:
                    edges.setdefault((area, parts[1]), set()).add(str(path.relative_to(ROOT)))
    return edges


def cycles(edges: dict[tuple[str, str], set[str]]) -> dict[tuple[str, str], str]:
    """Each pair of areas that import each other, with the modules that do it."""
    return {
        (a, b): f"{a} → {b}: {sorted(edges[a, b])}; {b} → {a}: {sorted(edges[b, a])}"
        for (a, b) in edges
        if a < b and (b, a) in edges
    }


def test_the_scan_sees_imports_at_the_top_inside_functions_and_relative():
    source = """
import spot.mapping.models
from spot.users import service as users
from . import policy
from ..alerts.schemas import Alert

def late():
    from spot.core.history_models import HistoryEntry
"""
    found = imported(source, "spot.subjects.mindmap")
    assert {"spot.mapping.models", "spot.users.service", "spot.subjects.mindmap.policy"} <= found
    assert {"spot.subjects.alerts.schemas", "spot.core.history_models"} <= found
    assert "subjects" in AREAS and "core" not in AREAS
    assert "subjects/routes.py" in area_imports()["subjects", "permissions"]


def test_no_two_areas_import_each_other():
    assert cycles(area_imports()) == {}, (
        "areas that import each other: one of them should register with the other instead"
    )


def test_the_area_scan_finds_a_pair_that_imports_each_other():
    edges = {("a", "b"): {"a/x.py"}, ("b", "a"): {"b/y.py"}, ("b", "c"): {"b/z.py"}}
    assert set(cycles(edges)) == {("a", "b")}


def module_imports() -> dict[str, set[str]]:
    """Each module of spot (a package by its name) → the modules of spot it imports. `from package
    import name` imports the submodule package.name when there is one, else the package."""
    modules = {
        ".".join(["spot", *path.relative_to(ROOT).with_suffix("").parts]).removesuffix(".__init__"): path
        for path in ROOT.rglob("*.py")
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named = imported(path.read_text(encoding="utf-8"), package)
        graph[name] = {
            module
            for module in named
            if module in modules
            and module != name
            and not any(n.startswith(f"{module}.") for n in named & modules.keys())
        }
    return graph


def module_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, directly or through others (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return groups


def test_the_module_scan_sees_function_level_imports_and_finds_cycles_through_others():
    assert "spot.training.paths.elements" in module_imports()["spot.training.paths.service"]
    assert "spot.users.service" in module_imports()["spot.account.routes"]  # `from spot.users import service`
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert module_cycles(graph) == [["a", "b", "c"]]


def test_no_module_imports_one_that_imports_it_back():
    groups = module_cycles(module_imports())
    assert groups == [], "modules that import one another: one should register with the other"
