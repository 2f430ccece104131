"""No source file of the repository is over 800 lines, but the generated API client and the demo
organisation's data: a module that outgrows that is split by what it is about (e.g. a list's cards, the
data model of a standard, a view of its own), as the areas' files are."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
MAX_LINES = 800
SOURCES = ("backend/src", "backend/tests", "frontend/src", "frontend/scripts", "e2e", "bench")
SUFFIXES = {".py", ".ts", ".tsx", ".js", ".mjs", ".css"}
EXEMPT = (
    ROOT / "frontend/src/api/schema.d.ts",  # generated: make api-client
    ROOT / "backend/src/spot/demo",  # the demo organisation's data
)
SKIPPED_FOLDERS = {"node_modules", "__pycache__", "results"}


def source_files() -> list[Path]:
    found = []
    for folder in SOURCES:
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            if SKIPPED_FOLDERS & set(path.relative_to(ROOT).parts):
                continue
            if any(path == exempt or exempt in path.parents for exempt in EXEMPT):
                continue
            found.append(path)
    return found


def test_no_source_file_is_over_800_lines():
    files = source_files()
    assert len(files) > 500  # the walk found the repository's sources
    too_long = {
        str(path.relative_to(ROOT)): count
        for path in files
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert too_long == {}
