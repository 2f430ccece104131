"""Files of transactions that do not commit leave the store, and what a killed process left is
cleaned when Spot starts: a partial upload, a file of a transaction that never committed (removed), a
file whose row was committed before the process died (moved into the store, as older versions left
them). The scratch folders of living processes (other workers) are left alone."""

import fcntl
import secrets

import pytest
from fastapi.testclient import TestClient

from resources.gallery import EDIT, PDF, add, gallery_url
from spot.config import get_settings
from spot.core import files
from spot.core.errors import ApiError
from spot.resources.models import Resource


@pytest.fixture
def editor(make_user, login):
    return login(make_user("editeur", [EDIT]))


def in_store(name: str) -> bool:
    try:
        files.get_file_store().get(name)
    except ApiError:
        return False
    return True


def test_a_file_stays_in_the_store_only_if_its_transaction_commits(db) -> None:
    name = files.store(db, b"kept", extension="bin")
    assert in_store(name) and not (files.scratch_folder() / name).exists()
    db.rollback()
    assert not in_store(name)

    name = files.store(db, b"gone", extension="bin")
    db.close()  # a session closed without committing
    assert not in_store(name)

    name = files.store(db, b"kept", extension="bin")
    db.commit()
    assert in_store(name) and not (files.scratch_folder() / name).exists()
    files.get_file_store().delete(name)


def scratch(name: str, content: dict[str, bytes], *, alive: bool) -> object:
    """A process's scratch folder as it leaves it: its lock file, held while it lives."""
    root = get_settings().data_dir / "uploads"
    (root / name).mkdir(parents=True)
    for file_name, data in content.items():
        (root / name / file_name).write_bytes(data)
    lock = (root / f"{name}.lock").open("wb")
    if alive:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return lock
    lock.close()
    return None


def test_start_up_cleans_what_killed_processes_left(app, client, db, test_map, editor) -> None:
    parent = ("subject", test_map.subject("S1"))
    created = add(client, editor, parent, "pdf", "Notice", "notice.pdf", PDF)
    assert created.status_code == 200, created.text
    # A process died after committing a resource, before moving its file into the store.
    committed = f"{secrets.token_hex(16)}.pdf"
    resource = db.get(Resource, created.json()["id"])
    files.retired(db, resource.file_ref)
    resource.file_ref = committed
    db.commit()
    uncommitted, partial = f"{secrets.token_hex(16)}.pdf", f"{secrets.token_hex(16)}.part"
    dead, living = secrets.token_hex(8), secrets.token_hex(8)
    scratch(dead, {committed: PDF, uncommitted: PDF, partial: PDF[:20]}, alive=False)
    lock = scratch(living, {partial: PDF[:20]}, alive=True)
    root = get_settings().data_dir / "uploads"

    with TestClient(app):  # Spot starts
        pass

    assert not (root / dead).exists() and not (root / f"{dead}.lock").exists()
    assert in_store(committed) and not in_store(uncommitted)
    file = client.get(f"{gallery_url(*parent)}/{resource.id}/file", headers=editor)
    assert file.status_code == 200 and file.content == PDF
    assert (root / living / partial).exists()
    lock.close()  # type: ignore[attr-defined]
