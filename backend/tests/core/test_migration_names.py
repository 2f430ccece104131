"""Migration files are named in chain order: NNNN_<revision>_<slug>.py, numbered 0001, 0002, … with
every revision's down_revision in a file of a smaller number, so the versions folder sorted by name
reads from the base to the head. Alembic reads the ids inside the files, not their names; the names
are for the reader. A new revision (`alembic revision` writes <rev>_<slug>.py) takes the next number."""

import ast
import re
from pathlib import Path

VERSIONS = Path(__file__).parents[2] / "migrations" / "versions"
NAME = re.compile(r"^(\d{4})_([0-9a-f]+)_[a-z0-9_]+\.py$")


def ids(path: Path) -> tuple[str, tuple[str, ...]]:
    """The file's revision and its down_revisions (none for the base), read from its assignments."""
    values: dict[str, object] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in ("revision", "down_revision") and value:
            values[target.id] = ast.literal_eval(value)
    down = values["down_revision"]
    parents = () if down is None else (down,) if isinstance(down, str) else tuple(down)
    return str(values["revision"]), parents


def test_migration_files_are_numbered_in_chain_order() -> None:
    files = sorted(VERSIONS.glob("*.py"))
    number_of: dict[str, int] = {}
    parents_of: dict[str, tuple[str, ...]] = {}
    for position, path in enumerate(files, start=1):
        revision, parents = ids(path)
        expected = f"{position:04d}_{revision}_…"
        match = NAME.match(path.name)
        assert match, f"{path.name}: name it {expected}.py"
        assert int(match[1]) == position, f"{path.name}: numbers run 0001, 0002, …; name it {expected}.py"
        assert match[2] == revision, f"{path.name}: its revision is {revision}; name it {expected}.py"
        number_of[revision], parents_of[revision] = position, parents

    assert [r for r, parents in parents_of.items() if not parents] == [ids(files[0])[0]], "one base, first"
    for revision, parents in parents_of.items():
        for parent in parents:
            assert parent in number_of, f"{revision}: down_revision {parent} has no file"
            assert number_of[parent] < number_of[revision], (
                f"{revision} (file {number_of[revision]:04d}) follows {parent}"
                f" (file {number_of[parent]:04d}): renumber the files in chain order"
            )
