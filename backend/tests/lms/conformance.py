"""Where the conformance material lives, read at test time and never copied into the repository.

The ADL cmi5 test suite (CATAPULT, its LTS packages under ``lts/pkg/src``) and the SCORM "golf" examples
(jcputney/elearning-module-parser, ``src/test/resources/modules``) are bare git mirrors on the machine. A test
reads a file with ``catapult_file`` or zips a folder into a temporary package with ``catapult_zip`` /
``golf_zip``: that repackages data, it builds no code. When a mirror is absent the tests that need it
are skipped with the reason (``needs_catapult``, ``needs_golf``); Spot's own packages always run.
The journeys (``e2e/``) import this module too: this is the one place naming the mirrors.
"""

import io
import os
import subprocess
import zipfile
from functools import cache
from pathlib import Path

import pytest

CATAPULT = Path(os.environ.get("SPOT_CATAPULT_GIT", "/work/.mirror/adlnet+CATAPULT/repo"))
GOLF = Path(os.environ.get("SPOT_GOLF_GIT", "/work/.mirror/jcputney+elearning-module-parser/repo"))

LTS = "lts/pkg/src"
GOLF_MODULES = "src/test/resources/modules"
GOLF_12_SINGLE = f"{GOLF_MODULES}/scorm12/RuntimeBasicCalls_SCORM12"
GOLF_2004_MULTI = f"{GOLF_MODULES}/scorm2004/RuntimeMinimumCalls_SCORM20043rdEdition"
GOLF_2004_SINGLE = f"{GOLF_MODULES}/scorm2004/RuntimeBasicCalls_SCORM20043rdEdition"


def _git(repo: Path, *args: str) -> bytes:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, timeout=120
    ).stdout


@cache
def _present(repo: Path) -> bool:
    if not repo.is_dir():
        return False
    try:
        _git(repo, "rev-parse", "--verify", "HEAD")
    except (OSError, subprocess.SubprocessError):
        return False
    return True


def has_catapult() -> bool:
    return _present(CATAPULT)


def has_golf() -> bool:
    return _present(GOLF)


needs_catapult = pytest.mark.skipif(
    not has_catapult(),
    reason=f"the ADL CATAPULT mirror (cmi5 LTS packages) is absent at {CATAPULT}; set SPOT_CATAPULT_GIT",
)
needs_golf = pytest.mark.skipif(
    not has_golf(),
    reason=f"the SCORM golf examples mirror is absent at {GOLF}; set SPOT_GOLF_GIT",
)


def _show(repo: Path, path: str) -> bytes:
    return _git(repo, "show", f"HEAD:{path}")


def _files(repo: Path, folder: str) -> list[str]:
    """Every file under ``folder`` (recursively), as paths relative to the repository."""
    listing = _git(repo, "ls-tree", "-r", "--name-only", "-z", "HEAD", folder.rstrip("/") + "/")
    return [name for name in listing.decode().split("\0") if name]


def catapult_file(path: str) -> bytes:
    """A file of the CATAPULT mirror; a bare name is taken under ``lts/pkg/src``."""
    return _show(CATAPULT, path if "/" in path and path.startswith("lts/") else f"{LTS}/{path}")


def _zip_folder(repo: Path, folder: str, dest: Path, extra: dict[str, bytes] | None = None) -> Path:
    buffer = io.BytesIO()
    prefix = folder.rstrip("/") + "/"
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in _files(repo, folder):
            archive.writestr(name[len(prefix) :], _show(repo, name))
        for name, content in (extra or {}).items():
            archive.writestr(name, content)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(buffer.getvalue())
    return dest


def golf_zip(folder: str, dest: Path) -> Path:
    """The golf example ``folder`` (a path in the mirror, e.g. ``GOLF_12_SINGLE``) zipped into ``dest``
    (a file path, or a directory: then ``<folder name>.zip`` inside it)."""
    target = dest / f"{Path(folder).name}.zip" if dest.is_dir() else dest
    return _zip_folder(GOLF, folder, target)


def catapult_zip(package: str, dest: Path) -> Path:
    """The LTS package ``package`` (a folder under ``lts/pkg/src``, e.g. ``001-essentials``) zipped with its
    ``cmi5.xml`` at the root and the suite's page template as ``index.html`` (the AU url of every package).
    Its script is the suite's unbuilt source: the package imports and launches, the AU does not run."""
    target = dest / f"{package}.zip" if dest.is_dir() else dest
    page = _show(CATAPULT, f"{LTS}/index.html")
    return _zip_folder(CATAPULT, f"{LTS}/{package}", target, {"index.html": page})


def catapult_course(example: str, dest: Path) -> Path:
    """A CATAPULT course example (a folder under ``course_examples``, e.g. ``multi_au_framed``) zipped as
    it is: ``cmi5.xml`` at the root and its content."""
    target = dest / f"{example}.zip" if dest.is_dir() else dest
    return _zip_folder(CATAPULT, f"course_examples/{example}", target)
