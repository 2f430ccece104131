"""`core/` is cross-cutting only (DESIGN §3): it imports no area. An area that core needs registers
itself when it loads (core.parents, core.auth, core.history, core.signatures). Besides core itself,
core may import only the database (spot.db) and the settings (spot.config)."""

import ast
from pathlib import Path

import spot

ROOT = Path(spot.__file__).parent
NOT_AREAS = ("spot.core", "spot.db", "spot.config")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in ROOT.rglob("*.py")}


def imports(name: str) -> set[str]:
    """The spot modules a module imports anywhere in its text (functions and TYPE_CHECKING blocks too):
    `from spot.a import b` is spot.a.b when b is a module, else spot.a."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in MODULES else base)
    return {module for module in found if module == "spot" or module.startswith("spot.")}


def is_area(module: str) -> bool:
    return module != "spot" and not any(module == top or module.startswith(top + ".") for top in NOT_AREAS)


def test_the_scan_sees_core_and_the_areas() -> None:
    assert "spot.core.auth" in MODULES and "spot.account.service" in MODULES
    assert "spot.core.errors" in imports("spot.core.auth")
    assert is_area("spot.account.service") and not is_area("spot.core.auth")


def test_core_imports_no_area() -> None:
    offending = sorted(
        f"{name} → {imported}"
        for name in MODULES
        if name.startswith("spot.core")
        for imported in imports(name)
        if imported in MODULES and is_area(imported)
    )
    assert offending == []
