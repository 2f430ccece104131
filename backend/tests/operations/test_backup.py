"""Backups and restores (`spot backup DIR`, `spot restore DIR`; docs/operations.md, "Backups and
restores"), on the suite's database (SQLite, or PostgreSQL with SPOT_TEST_DATABASE_URL): a round trip
gives the same answers from the restored database and store; a damaged backup, a missing file, a
target that is not empty or of another kind are refused before anything is written; a backup taken
while people write restores to a consistent state (every file its database refers to, with the
manifest's checksum)."""

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from alembic import command
from sqlalchemy import Engine, create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from typer.testing import CliRunner

from mail_server import free_port
from mapping.maps import Map, load
from operations.test_health_and_metrics import _wait_until_answering
from resources.gallery import EDIT, PDF, add, gallery_url, image
from spot import cli
from spot import db as database
from spot.core import files
from spot.operations import backup
from spot.operations.models import BackupHold, HeldDeletion
from spot.resources.models import Resource
from support import API

SPOT = str(Path(sys.executable).parent / "spot")


@dataclass(frozen=True)
class Target:
    """An empty database of the suite's kind and an empty file store (the folder store of `data`)."""

    url: str
    data: Path

    @property
    def store(self) -> files.FileStore:
        return files.FolderFileStore(self.data / "files")

    def engine(self) -> Engine:
        return create_engine(self.url, poolclass=NullPool)


@pytest.fixture
def source() -> Engine:
    return database.get_engine()


@pytest.fixture(scope="session")
def restore_database() -> Iterator[str | None]:
    """On PostgreSQL, the database restores go into, made once a test process (and emptied before each
    test by `target`): named as the suite's databases are, its process id last, so that a killed
    run's is dropped by the next."""
    base = os.environ.get("SPOT_TEST_DATABASE_URL")
    if not base:
        yield None
        return
    name = f"spot_test_restore_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"
    server = make_url(base).set(drivername="postgresql+psycopg")
    admin = create_engine(server, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
        connection.execute(text(f'ALTER DATABASE "{name}" SET synchronous_commit = off'))
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def target(restore_database: str | None, tmp_path: Path) -> Target:
    if restore_database is None:
        return Target(f"sqlite:///{tmp_path}/restored.db", tmp_path / "restored-data")
    engine = create_engine(restore_database, poolclass=NullPool)
    raw = engine.raw_connection()  # the driver's own: the statement has % signs and no parameter
    try:
        raw.cursor().execute(backup._EMPTY_POSTGRESQL)  # what the last test restored goes
        raw.commit()
    finally:
        raw.close()
        engine.dispose()
    return Target(restore_database, tmp_path / "restored-data")


@pytest.fixture
def editor(make_user, login) -> dict[str, str]:
    return login(make_user("editeur", [EDIT]))


@pytest.fixture
def reader(make_user, login) -> dict[str, str]:
    return login(make_user("lecteur"))


@pytest.fixture
def small(db, client, editor) -> Map:
    """A small map with a gallery of an image and a pdf on one subject."""
    test_map = load(db)
    parent = ("subject", test_map.subject("S1"))
    assert add(client, editor, parent, "image", "Photo", "photo.png", image(40, 30)).status_code == 200
    assert add(client, editor, parent, "pdf", "Notice", "notice.pdf", PDF).status_code == 200
    return test_map


def _referenced(engine: Engine) -> set[str]:
    with engine.connect() as connection:
        return backup.referenced_names(connection)


def _manifest(folder: Path) -> dict:
    return json.loads((folder / backup.MANIFEST).read_text())


def _assert_consistent(target: Target, folder: Path, store: files.FileStore | None = None) -> set[str]:
    """The restored database refers only to files its store (the target's folder unless told) has,
    each with the manifest's checksum; the store has no other file. The names."""
    store = store or target.store
    engine = target.engine()
    try:
        names = _referenced(engine)
    finally:
        engine.dispose()
    listed = {entry["name"]: entry["sha256"] for entry in _manifest(folder)["files"]}
    assert names == set(listed) == set(store.names())
    for name in names:
        assert hashlib.sha256(store.get(name)).hexdigest() == listed[name]
    return names


def _empty(target: Target) -> bool:
    return backup._target_tables(make_url(target.url)) == [] and not list(target.store.names())


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _file_copy(folder: Path, name: str) -> Path:
    return folder / backup.FILES / name[:2] / name


# ---------------------------------------------------------------------------------------------------
# A round trip


@pytest.fixture
def served(target: Target) -> Iterator[str]:
    """Once the test has restored into `target`, `start()` serves it (spot serve): its address."""
    servers: list[subprocess.Popen] = []

    def start() -> str:
        port = free_port()
        env = {**os.environ, "SPOT_DATABASE_URL": target.url, "SPOT_DATA_DIR": str(target.data)}
        server = subprocess.Popen(
            [SPOT, "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        servers.append(server)
        base = f"http://127.0.0.1:{port}"
        _wait_until_answering(base, server)
        return base

    yield start  # type: ignore[misc]
    for server in servers:
        server.terminate()
        server.wait(timeout=60)


def _lists(test_map: Map) -> list[tuple[str, str, dict | None]]:
    cartography, subject = test_map.cartography("C1"), test_map.subject("S1")
    return [
        ("GET", "/site", None),
        ("GET", "/cartography", None),
        ("POST", "/subject/query", {"sort": "code"}),
        ("POST", "/cartography/query", {}),
        ("POST", "/function/query", {}),
        ("GET", f"/cartography/{cartography}", None),
        ("GET", f"/cartography/{cartography}/zones", None),
        ("GET", f"/pictos/{cartography}", None),
        ("GET", f"/resource/subject/{subject}", None),
    ]


def test_a_round_trip_gives_the_same_answers_from_the_restored_database_and_store(
    small, client, reader, target, served, tmp_path
):
    folder = tmp_path / "backup"
    done = CliRunner().invoke(cli.app, ["backup", str(folder)])
    assert done.exit_code == 0, done.output
    assert f"into {folder}" in done.output
    manifest = _manifest(folder)
    assert manifest["format"] == 1 and manifest["database"]["kind"] == database.get_engine().dialect.name
    # The map's plans, pictograms and photos, the gallery's image, its thumbnail and its pdf.
    assert len(manifest["files"]) >= 6

    said: list[str] = []
    backup.restore(folder, url=target.url, store=target.store, say=said.append)
    assert said[0].startswith("backup checked")
    _assert_consistent(target, folder)

    restored = httpx.Client(base_url=served(), timeout=60)  # its reader's session is in the backup
    downloads = [f"/cartography/{small.cartography('C1')}/image"]
    for method, path, body in _lists(small):
        answers = [c.request(method, f"{API}{path}", json=body, headers=reader) for c in (client, restored)]
        assert answers[0].status_code == 200, (path, answers[0].text)
        assert answers[1].json() == answers[0].json(), path
        assert answers[0].json(), path
        if path.startswith("/resource/"):
            downloads += [
                r[key]
                for r in answers[0].json()["resources"]
                for key in ("fileUrl", "thumbnailUrl")
                if r[key]
            ]
    assert len(downloads) == 4  # the plan, the image, its thumbnail, the pdf
    for address in downloads:
        address = address if address.startswith(API) else f"{API}{address}"
        original, copy = client.get(address, headers=reader), restored.get(address, headers=reader)
        assert original.status_code == copy.status_code == 200, address
        assert copy.content == original.content and copy.headers["etag"] == original.headers["etag"]
    restored.close()


def test_files_in_an_object_store_are_backed_up_and_restored_into_another(
    s3_store, s3_server, small, target, tmp_path
):
    """Through the FileStore interface only: the same backup from an S3-compatible store (the map's
    files and the gallery's went there), restored into another bucket."""
    folder = tmp_path / "backup"
    done = backup.backup(folder, engine=database.get_engine(), store=files.get_file_store())
    assert done.files >= 6
    into = files.store_at(f"s3://{s3_server.new_bucket()}/restored")
    backup.restore(folder, url=target.url, store=into)
    _assert_consistent(target, folder, into)


# ---------------------------------------------------------------------------------------------------
# Refusals: nothing is written


def test_a_target_that_is_not_empty_is_refused_unless_forced(small, settings_env, target, tmp_path):
    folder = tmp_path / "backup"
    backup.backup(folder, engine=database.get_engine(), store=files.get_file_store())
    backup.restore(folder, url=target.url, store=target.store)
    names = _assert_consistent(target, folder)
    # A file the backup does not have, left by whatever used the store before.
    stray = tmp_path / "stray.pdf"
    stray.write_bytes(PDF)
    target.store.adopt(stray, "0" * 32 + ".pdf")

    settings_env(SPOT_DATABASE_URL=target.url, SPOT_DATA_DIR=str(target.data))
    again = CliRunner().invoke(cli.app, ["restore", str(folder)])
    assert again.exit_code == 2
    assert "refused: the target is not empty" in again.output and "--force" in again.output
    assert set(target.store.names()) == names | {"0" * 32 + ".pdf"}

    forced = CliRunner().invoke(cli.app, ["restore", str(folder), "--force"])
    assert forced.exit_code == 0, forced.output
    assert f"restored {len(names)} files" in forced.output
    assert _assert_consistent(target, folder) == names  # the stray file went with the old content


def test_a_damaged_backup_is_refused_and_nothing_is_written(small, target, tmp_path):
    made = tmp_path / "backup"
    backup.backup(made, engine=database.get_engine(), store=files.get_file_store())
    name = _manifest(made)["files"][0]["name"]
    copy = f"{backup.FILES}/{name[:2]}/{name}"
    dump = _manifest(made)["database"]["file"]
    damages = {
        "a stored file's byte": (
            lambda folder: _flip_a_byte(folder / copy),
            f"{copy} differs from the manifest",
        ),
        "the database copy's byte": (
            lambda folder: _flip_a_byte(folder / dump),
            f"{dump} differs from the manifest",
        ),
        "a missing file": (lambda folder: (folder / copy).unlink(), f"{copy} is missing"),
    }
    for damage, (do, problem) in damages.items():
        folder = tmp_path / damage
        shutil.copytree(made, folder)
        do(folder)
        with pytest.raises(backup.Refused) as refused:
            backup.restore(folder, url=target.url, store=target.store)
        assert "is damaged or was changed" in str(refused.value), damage
        assert problem in str(refused.value), damage
        assert _empty(target), damage


def test_the_cli_says_a_refusal_and_exits_2(small, settings_env, target, tmp_path):
    folder = tmp_path / "backup"
    backup.backup(folder, engine=database.get_engine(), store=files.get_file_store())
    _flip_a_byte(_file_copy(folder, _manifest(folder)["files"][-1]["name"]))
    settings_env(SPOT_DATABASE_URL=target.url, SPOT_DATA_DIR=str(target.data))
    done = CliRunner().invoke(cli.app, ["restore", str(folder)])
    assert done.exit_code == 2
    assert done.output.startswith("refused: the backup in") and "Nothing was restored" in done.output
    assert _empty(target)
    missing = CliRunner().invoke(cli.app, ["restore", str(tmp_path / "nothing-here")])
    assert missing.exit_code == 2 and "is not a backup, or one that did not finish" in missing.output


def test_a_backup_restores_into_the_same_kind_of_database_only(small, source, tmp_path):
    folder = tmp_path / "backup"
    backup.backup(folder, engine=source, store=files.get_file_store())
    other = (
        "postgresql+psycopg://spot@127.0.0.1:1/none"
        if source.dialect.name == "sqlite"
        else f"sqlite:///{tmp_path}/other.db"
    )
    with pytest.raises(backup.Refused, match="restores into the same kind of database only"):
        backup.restore(folder, url=other, store=files.FolderFileStore(tmp_path / "other"))
    assert not (tmp_path / "other.db").exists() and not (tmp_path / "other").exists()


def test_a_backup_of_a_newer_spot_is_refused(small, target, tmp_path):
    folder = tmp_path / "backup"
    backup.backup(folder, engine=database.get_engine(), store=files.get_file_store())
    manifest = _manifest(folder)
    manifest["database"]["revisions"] = ["0123456789ab"]
    (folder / backup.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(backup.Refused, match="0123456789ab is unknown to this Spot"):
        backup.restore(folder, url=target.url, store=target.store)
    assert _empty(target)


def test_a_backup_goes_into_a_new_or_empty_folder_only(small, tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("kept")
    done = CliRunner().invoke(cli.app, ["backup", str(tmp_path / "used")])
    assert done.exit_code == 2 and "is not an empty folder" in done.output
    assert [p.name for p in (tmp_path / "used").iterdir()] == ["notes.txt"]


def test_a_file_the_database_refers_to_and_the_store_lacks_fails_the_backup(small, db, tmp_path):
    name = db.scalars(select(Resource.file_ref).where(Resource.file_ref.is_not(None))).first()
    files.get_file_store().delete(name)
    with pytest.raises(backup.Failed, match=f"does not have \\({name}\\)"):
        backup.backup(
            tmp_path / "backup",
            engine=database.get_engine(),
            store=files.get_file_store(),
            wait_for_files_s=0,
        )
    assert not (tmp_path / "backup").exists()  # nothing half-written is left
    with database.get_engine().connect() as connection:
        assert connection.scalar(select(BackupHold.holder)) is None  # its hold went with it


def test_a_database_that_does_not_answer_fails_the_backup_clearly(tmp_path):
    absent = create_engine(f"postgresql+psycopg://spot@127.0.0.1:{free_port()}/spot", poolclass=NullPool)
    with pytest.raises(backup.Failed, match="the database did not answer .*; nothing was kept"):
        backup.backup(tmp_path / "backup", engine=absent, store=files.get_file_store())
    assert not (tmp_path / "backup").exists()


def test_an_older_backup_is_migrated_once_restored(small, source, target, tmp_path):
    if source.dialect.name != "sqlite":
        pytest.skip("the migration after a restore is the same code on both databases: tested on SQLite")
    folder = tmp_path / "backup"
    backup.backup(folder, engine=source, store=files.get_file_store())
    # The copy as the previous version of Spot would have written it: its schema one migration behind.
    copy = folder / "database.sqlite"
    command.downgrade(database.alembic_config(f"sqlite:///{copy}"), "-1")
    with sqlite3.connect(copy) as connection:
        connection.execute("PRAGMA journal_mode=DELETE")
        [older] = [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]
    manifest = _manifest(folder)
    manifest["database"].update(
        revisions=[older], size=copy.stat().st_size, sha256=hashlib.sha256(copy.read_bytes()).hexdigest()
    )
    (folder / backup.MANIFEST).write_text(json.dumps(manifest))
    said: list[str] = []
    done = backup.restore(folder, url=target.url, store=target.store, say=said.append)
    assert done.migrated_from == [older]
    assert any(f"the backup's schema ({older}) is older than this Spot's" in line for line in said)
    engine = target.engine()
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT version_num FROM alembic_version")) != older
    engine.dispose()
    _assert_consistent(target, folder)


# ---------------------------------------------------------------------------------------------------
# Backups while people write


def test_a_file_deleted_after_the_snapshot_is_in_the_backup_and_deleted_once_it_ends(
    small, client, editor, db, target, tmp_path
):
    parent = ("subject", small.subject("S1"))
    resource = client.get(gallery_url(*parent), headers=editor).json()["resources"][0]
    name = db.scalar(select(Resource.file_ref).where(Resource.id == resource["id"]))
    store = files.get_file_store()

    def delete_it() -> None:
        answer = client.delete(f"{gallery_url(*parent)}/{resource['id']}", headers=editor)
        assert answer.status_code == 204
        assert name in set(store.names())  # held: the snapshot refers to it
        with database.get_engine().connect() as connection:
            assert name in set(connection.scalars(select(HeldDeletion.name)))  # with its thumbnail

    folder = tmp_path / "backup"
    backup.backup(folder, engine=database.get_engine(), store=store, after_snapshot=delete_it)
    assert name not in set(store.names())  # deleted once the backup ended
    with database.get_engine().connect() as connection:
        assert connection.scalar(select(HeldDeletion.name)) is None
        assert connection.scalar(select(BackupHold.holder)) is None
    backup.restore(folder, url=target.url, store=target.store)
    assert name in _assert_consistent(target, folder)


def test_the_hold_of_a_backup_killed_lapses_and_the_next_backup_deletes_what_it_held(
    small, client, editor, db, tmp_path
):
    """A backup killed (here, its row as a live one leaves it) holds deletions until its lease passes."""
    store = files.get_file_store()
    db.add(BackupHold(holder="killed", held_until=backup.utcnow() + backup.LEASE))
    db.commit()
    parent = ("subject", small.subject("S1"))
    resource = client.get(gallery_url(*parent), headers=editor).json()["resources"][1]
    name = db.scalar(select(Resource.file_ref).where(Resource.id == resource["id"]))
    assert client.delete(f"{gallery_url(*parent)}/{resource['id']}", headers=editor).status_code == 204
    assert name in set(store.names())
    # Another backup while the killed one's lease runs keeps it held.
    backup.backup(tmp_path / "first", engine=database.get_engine(), store=store)
    assert name in set(store.names())
    db.execute(text("UPDATE backup_hold SET held_until = :now"), {"now": backup.utcnow()})
    db.commit()
    backup.backup(tmp_path / "second", engine=database.get_engine(), store=store)
    assert name not in set(store.names())
    assert db.scalar(select(BackupHold.holder)) is None and db.scalar(select(HeldDeletion.name)) is None


def test_spot_starting_deletes_what_a_killed_backup_held_once_its_hold_lapsed(app, small, client, editor, db):
    from fastapi.testclient import TestClient

    store = files.get_file_store()
    db.add(BackupHold(holder="killed", held_until=backup.utcnow() + backup.LEASE))
    db.commit()
    parent = ("subject", small.subject("S1"))
    resource = client.get(gallery_url(*parent), headers=editor).json()["resources"][1]
    name = db.scalar(select(Resource.file_ref).where(Resource.id == resource["id"]))
    assert client.delete(f"{gallery_url(*parent)}/{resource['id']}", headers=editor).status_code == 204
    with TestClient(app):  # Spot starts while the hold still runs: the file stays
        pass
    assert name in set(store.names())
    db.execute(text("UPDATE backup_hold SET held_until = :now"), {"now": backup.utcnow()})
    db.commit()
    with TestClient(app):  # and once it lapsed
        pass
    assert name not in set(store.names())
    assert db.scalar(select(BackupHold.holder)) is None and db.scalar(select(HeldDeletion.name)) is None


def test_a_backup_taken_during_writes_restores_to_a_consistent_state(app, small, editor, target, tmp_path):
    """A writer adds resources with files and deletes older ones while the backup runs, between its
    snapshot and its copy of the files among others (after_snapshot waits for three of its rounds)."""
    from fastapi.testclient import TestClient

    writer = TestClient(app)
    parent = ("subject", small.subject("S2"))
    rounds = threading.Condition()
    state = {"rounds": 0, "errors": []}
    stop = threading.Event()

    def write() -> None:
        created: list[int] = []
        try:
            while not stop.is_set():
                answer = add(writer, editor, parent, "pdf", "Notice", "notice.pdf", PDF + os.urandom(64))
                assert answer.status_code == 200, answer.text
                created.append(answer.json()["id"])
                if len(created) > 2:
                    gone = writer.delete(f"{gallery_url(*parent)}/{created.pop(0)}", headers=editor)
                    assert gone.status_code == 204, gone.text
                with rounds:
                    state["rounds"] += 1
                    rounds.notify_all()
        except BaseException as exc:  # said by the test
            state["errors"].append(exc)
            with rounds:
                rounds.notify_all()

    def three_more_rounds() -> None:
        with rounds:
            start = state["rounds"]
            rounds.wait_for(lambda: state["rounds"] >= start + 3 or state["errors"], timeout=60)

    thread = threading.Thread(target=write, name="backup-test-writer")
    thread.start()
    try:
        with rounds:
            rounds.wait_for(lambda: state["rounds"] >= 3 or state["errors"], timeout=60)
        folder = tmp_path / "backup"
        backup.backup(
            folder,
            engine=database.get_engine(),
            store=files.get_file_store(),
            after_snapshot=three_more_rounds,
        )
    finally:
        stop.set()
        thread.join(timeout=60)
    assert state["errors"] == []
    backup.restore(folder, url=target.url, store=target.store)
    names = _assert_consistent(target, folder)
    engine = target.engine()
    with engine.connect() as connection:
        pdfs = set(connection.scalars(select(Resource.file_ref).where(Resource.parent_id == parent[1])))
    engine.dispose()
    assert pdfs and pdfs <= names
