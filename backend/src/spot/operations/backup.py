"""Backups and restores of the database and the stored files together (`spot backup DIR`, `spot restore
DIR`; docs/operations.md, "Backups and restores").

A backup is a folder: the database's copy (PostgreSQL: `pg_dump`'s custom format, `database.dump`;
SQLite: the online backup API, `database.sqlite`), every stored file that copy refers to
(`files/ab/abcdef….ext`), and `manifest.json`, written last, with each one's size and SHA-256.

Consistency. The database is copied at one moment (pg_dump in a snapshot exported by a transaction
that reads, in that same snapshot, the names of the files it refers to; SQLite's backup in one step),
then those files are copied. Stored names are never given twice and a name's content never changes,
so a file in the store is the file the snapshot means; the only race is its deletion, right after
the commit of a transaction that stopped referring to it (core.files). So while a backup runs it
holds deletions: a row of backup_hold, renewed as it works and lapsing if it is killed; core.files
then records the names in held_file_deletion instead of deleting them (operations.models, the rule
it asks), and they are deleted when the last backup ends, or at the next backup after a killed one's
hold lapsed, if still unreferenced.

A restore checks every checksum before writing anything, refuses a target database with tables or a
store with files unless forced, copies the files into the store, then restores the database in one
transaction (PostgreSQL: pg_restore's script through psql --single-transaction; SQLite: the backup
API, one transaction on the target): a failure leaves the target database as it was and removes the
files it copied. A backup older than the code is then migrated."""

import hashlib
import json
import logging
import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, insert, select, text, update
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from spot import db as database
from spot.core import files
from spot.core.errors import ApiError
from spot.core.time import utcnow
from spot.operations.models import BackupHold, HeldDeletion, live_hold

log = logging.getLogger(__name__)

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE_FILE = {"postgresql": "database.dump", "sqlite": "database.sqlite"}
KIND_NAMES = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}
FILES = "files"
# A backup's hold on deletions lasts this long unless renewed (it is, every quarter of it, while the
# backup works): a backup killed holds them this long at most.
LEASE = timedelta(minutes=10)
# The tables of the hold itself: not copied (a restored database starts with no backup running).
HOLD_TABLES = (BackupHold.__tablename__, HeldDeletion.__tablename__)
_CHUNK = 1 << 20
_IN_CHUNK = 500


# What a database or a file store that does not answer raises (a store's 503 is an ApiError).
UNANSWERED = (SQLAlchemyError, ApiError, OSError)


def _unanswered(exc: BaseException) -> str:
    if isinstance(exc, SQLAlchemyError):
        return f"the database did not answer ({exc.__class__.__name__}: {str(exc).splitlines()[0]})"
    if isinstance(exc, ApiError):
        return f"the file store did not answer ({exc.message})"
    return f"a file could not be read or written ({exc})"


class BackupError(Exception):
    """A backup or a restore that did not happen; the message says why, for the operator."""


class Refused(BackupError):
    """Refused before anything was written (exit code 2)."""


class Failed(BackupError):
    """Failed while working; the message says in what state it left things (exit code 1)."""


@dataclass(frozen=True)
class Summary:
    kind: str
    revisions: list[str]
    files: int
    bytes: int
    migrated_from: list[str] | None = None  # a restore's: the backup's revisions, when it migrated them


# ---------------------------------------------------------------------------------------------------
# The hold on deletions


@contextmanager
def holding_deletions(engine: Engine, store: files.FileStore) -> Iterator[None]:
    """Deletions held while the block runs; once it ends, those held are done if no backup holds them
    any more (release_held_deletions)."""
    release_held_deletions(engine, store)  # what a killed backup held, once its hold lapsed
    holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
    with engine.begin() as connection:
        connection.execute(insert(BackupHold).values(holder=holder, held_until=utcnow() + LEASE))
    stop = threading.Event()

    def renew() -> None:
        while not stop.wait(LEASE.total_seconds() / 4):
            try:
                with engine.begin() as connection:
                    connection.execute(
                        update(BackupHold)
                        .where(BackupHold.holder == holder)
                        .values(held_until=utcnow() + LEASE)
                    )
            except Exception as exc:  # tried again at the next round, well within the lease
                log.warning("backup: the hold on deletions could not be renewed: %s", exc)

    renewing = threading.Thread(target=renew, name="backup-hold", daemon=True)
    renewing.start()
    try:
        yield
    finally:
        stop.set()
        renewing.join()
        try:
            with engine.begin() as connection:
                connection.execute(delete(BackupHold).where(BackupHold.holder == holder))
            release_held_deletions(engine, store)
        except UNANSWERED as exc:  # the hold lapses by itself; the next backup deletes what it held
            log.warning("backup: the hold on deletions was not released: %s", _unanswered(exc))


def release_held_deletions(engine: Engine, store: files.FileStore) -> int:
    """Deletes the files whose deletion backups held, once no live hold remains (a lapsed hold, of a
    backup killed, is removed): those no row refers to. How many it deleted."""
    now = utcnow()
    with engine.begin() as connection:
        connection.execute(delete(BackupHold).where(BackupHold.held_until <= now))
        if live_hold(connection, now) is not None:
            return 0  # another backup runs: the last to end deletes them
        held = set(connection.scalars(select(HeldDeletion.name)))
    if not held:
        return 0
    # A name is never given again, so one unreferenced now stays so: no later snapshot needs it.
    with engine.connect() as connection:
        unreferenced = held - referenced_names(connection, held)
    for name in sorted(unreferenced):
        store.delete(name)
        log.info("stored file removed name=%s (its deletion was held by a backup)", name)
    with engine.begin() as connection:
        for chunk in _chunks(sorted(held)):
            connection.execute(delete(HeldDeletion).where(HeldDeletion.name.in_(chunk)))
    return len(unreferenced)


def _chunks(items: list[str]) -> Iterator[list[str]]:
    for start in range(0, len(items), _IN_CHUNK):
        yield items[start : start + _IN_CHUNK]


def referenced_names(connection: Connection, among: set[str] | None = None) -> set[str]:
    """The stored file names the database refers to (core.files.REFERENCES), all or among `among`."""
    found: set[str] = set()
    for column in files.REFERENCES:
        if among is None:
            found |= set(connection.scalars(select(column).where(column.is_not(None)).distinct()))
        else:
            for chunk in _chunks(sorted(among)):
                found |= set(connection.scalars(select(column).where(column.in_(chunk))))
    found.discard("")
    return found


# ---------------------------------------------------------------------------------------------------
# Backup


def backup(
    folder: Path,
    *,
    engine: Engine,
    store: files.FileStore,
    wait_for_files_s: float = 10.0,
    after_snapshot: Callable[[], None] | None = None,
) -> Summary:
    """Write a backup of the database of `engine` and of the files of `store` it refers to into
    `folder` (new, or empty). A file the snapshot refers to but the store lacks is waited for up to
    `wait_for_files_s` (a transaction storing it may be committing), then fails the backup.
    `after_snapshot` runs between the database's copy and the files' (what the tests write there)."""
    kind = engine.dialect.name
    if kind not in DATABASE_FILE:
        raise Refused(f"backups cover PostgreSQL and SQLite databases, not {kind}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise Refused(f"{folder} is not an empty folder: a backup goes into a new or empty one")
    created = not folder.exists()
    folder.mkdir(parents=True, exist_ok=True)
    try:
        with holding_deletions(engine, store):
            dump = folder / DATABASE_FILE[kind]
            if kind == "postgresql":
                names, revisions = _dump_postgresql(engine, dump)
            else:
                names, revisions = _copy_sqlite(engine, dump)
            if after_snapshot:
                after_snapshot()
            copied = _copy_files(store, names, folder / FILES, wait_for_files_s)
        manifest = {
            "format": FORMAT,
            "spotVersion": _spot_version(),
            "createdAt": utcnow().isoformat(),
            "database": {"kind": kind, "revisions": revisions, **_described(dump, folder)},
            "files": copied,
        }
        partial = folder / f"{MANIFEST}.part"
        partial.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        partial.rename(folder / MANIFEST)  # written last: a backup without it did not finish
    except BaseException as exc:
        _remove_content(folder, remove_folder=created)
        if isinstance(exc, UNANSWERED):
            raise Failed(f"{_unanswered(exc)}; nothing was kept of this backup") from exc
        raise
    total = sum(entry["size"] for entry in copied)
    return Summary(kind=kind, revisions=revisions, files=len(copied), bytes=total)


def _spot_version() -> str:
    try:
        return metadata.version("spot")
    except metadata.PackageNotFoundError:
        return "unknown"


def _remove_content(folder: Path, *, remove_folder: bool) -> None:
    if remove_folder:
        shutil.rmtree(folder, ignore_errors=True)
        return
    for entry in folder.iterdir():
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def _revisions(connection: Connection) -> list[str]:
    return sorted(connection.scalars(text("SELECT version_num FROM alembic_version")))


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The URL for pg_dump, pg_restore and psql, and their environment: the password through
    PGPASSWORD, never on a command line that other users of the machine can read."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _run(command: list[str], env: dict[str, str], what: str) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise Failed(
            f"{command[0]} could not be run ({exc}): PostgreSQL's client programs must be on the PATH"
        ) from exc
    if done.returncode:
        raise Failed(f"{what} failed (exit {done.returncode}): {done.stderr.strip()[-2000:]}")


def _dump_postgresql(engine: Engine, dump: Path) -> tuple[set[str], list[str]]:
    """pg_dump in the snapshot of a transaction that reads, in it, the files the dump refers to."""
    connection = engine.connect().execution_options(isolation_level="REPEATABLE READ")
    try:
        with connection.begin():
            snapshot = connection.scalar(text("SELECT pg_export_snapshot()"))
            names = referenced_names(connection)
            revisions = _revisions(connection)
            address, env = _libpq(engine.url)
            excluded = [f"--exclude-table-data={table}" for table in HOLD_TABLES]
            command = ["pg_dump", "--format=custom", f"--snapshot={snapshot}", *excluded]
            _run([*command, f"--file={dump}", address], env, "pg_dump")
    finally:
        connection.close()
    return names, revisions


def _copy_sqlite(engine: Engine, copy: Path) -> tuple[set[str], list[str]]:
    """SQLite's online backup in one step: the database as it was at one moment, while writers go on
    (write-ahead log). The copy is one file (rollback journal), without the hold's rows."""
    source_path = engine.url.database
    if not source_path or source_path == ":memory:":
        raise Refused("an SQLite database in memory cannot be backed up")
    source = sqlite3.connect(source_path, timeout=database.SQLITE_BUSY_SECONDS)
    try:
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
            target.execute("PRAGMA journal_mode=DELETE")
            for table in HOLD_TABLES:
                target.execute(f'DELETE FROM "{table}"')
            target.commit()
        finally:
            target.close()
    finally:
        source.close()
    reader = create_engine(f"sqlite:///{copy}", poolclass=NullPool)
    try:
        with reader.connect() as connection:
            return referenced_names(connection), _revisions(connection)
    finally:
        reader.dispose()


def _missing(exc: Exception) -> bool:
    return isinstance(exc, ApiError) and exc.status == 404


def _copy_files(store: files.FileStore, names: set[str], folder: Path, wait_s: float) -> list[dict[str, Any]]:
    copied: dict[str, dict[str, Any]] = {}
    pending = sorted(names)
    deadline = time.monotonic() + wait_s
    while True:
        missing = []
        for name in pending:
            if not files._NAME.match(name):
                raise Failed(f"the database refers to a stored file of an unknown name: {name!r}")
            try:
                stream = store.open(name)
            except ApiError as exc:
                if not _missing(exc):
                    raise Failed(f"the file store did not answer ({exc.message}) reading {name}") from exc
                missing.append(name)
                continue
            target = folder / name[:2] / name
            target.parent.mkdir(parents=True, exist_ok=True)
            with stream, target.open("wb") as out:
                copied[name] = {"name": name, **_copy(stream, out)}
        if not missing:
            return [copied[name] for name in sorted(copied)]
        if time.monotonic() >= deadline:
            shown = ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
            raise Failed(
                f"the database refers to {len(missing)} stored files the file store does not have ({shown}); "
                "nothing was kept of this backup"
            )
        pending = missing
        time.sleep(0.2)


def _copy(source: Any, out: Any) -> dict[str, Any]:
    digest, size = hashlib.sha256(), 0
    while chunk := source.read(_CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if out is not None:
            out.write(chunk)
    return {"size": size, "sha256": digest.hexdigest()}


def _described(path: Path, folder: Path) -> dict[str, Any]:
    with path.open("rb") as source:
        return {"file": str(path.relative_to(folder)), **_copy(source, None)}


# ---------------------------------------------------------------------------------------------------
# Restore


def read_manifest(folder: Path) -> dict[str, Any]:
    """The backup's manifest, refused when it is missing or not one this Spot reads."""
    path = folder / MANIFEST
    if not path.is_file():
        raise Refused(f"{path} is missing: {folder} is not a backup, or one that did not finish")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        kind = manifest["database"]["kind"]
        if not all(isinstance(revision, str) for revision in manifest["database"]["revisions"]):
            raise TypeError("revisions are not names")
        entries = [(e["name"], int(e["size"]), str(e["sha256"])) for e in manifest["files"]]
        version = manifest["format"]
    except (ValueError, KeyError, TypeError) as exc:
        problem = f"{exc.__class__.__name__}: {exc}"
        raise Refused(f"{path} cannot be read as a backup's manifest ({problem})") from exc
    if version != FORMAT:
        raise Refused(f"{path} is of backup format {version!r}; this Spot reads format {FORMAT}")
    if kind not in DATABASE_FILE or manifest["database"].get("file") != DATABASE_FILE[kind]:
        raise Refused(f"{path} names an unknown database copy")
    bad = [name for name, _size, _sum in entries if not isinstance(name, str) or not files._NAME.match(name)]
    if bad:
        raise Refused(f"{path} lists files of names Spot never gives ({bad[0]!r}): refused")
    return manifest


def verify(folder: Path, manifest: dict[str, Any]) -> None:
    """Every file of the backup is there with the manifest's size and SHA-256 (read whole), else
    Refused naming what differs."""
    expected = [(manifest["database"]["file"], manifest["database"])]
    expected += [(f"{FILES}/{entry['name'][:2]}/{entry['name']}", entry) for entry in manifest["files"]]
    problems = []
    for relative, entry in expected:
        path = folder / relative
        if not path.is_file():
            problems.append(f"{relative} is missing")
            continue
        with path.open("rb") as source:
            found = _copy(source, None)
        if found["size"] != entry["size"] or found["sha256"] != entry["sha256"]:
            problems.append(f"{relative} differs from the manifest (size or SHA-256)")
    if problems:
        shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
        raise Refused(f"the backup in {folder} is damaged or was changed: {shown}. Nothing was restored")


def _code_revisions() -> tuple[set[str], Callable[[str], bool]]:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(database.alembic_config())

    def known(revision: str) -> bool:
        try:
            return script.get_revision(revision) is not None
        except Exception:  # alembic's own errors for a revision it does not have
            return False

    return set(script.get_heads()), known


def _target_tables(url: URL) -> list[str]:
    """The tables the target database has (none: it may be restored into)."""
    if url.get_backend_name() == "sqlite":
        path = Path(url.database or "")
        if not path.is_file():
            return []
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            rows = connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'"
            )
            return sorted(row[0] for row in rows)
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            return sorted(
                connection.scalars(
                    text(
                        "SELECT table_schema || '.' || table_name FROM information_schema.tables "
                        "WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
                    )
                )
            )
    finally:
        engine.dispose()


def restore(
    folder: Path,
    *,
    url: str,
    store: files.FileStore,
    force: bool = False,
    say: Callable[[str], None] = log.info,
) -> Summary:
    """Restore the backup in `folder` into the database at `url` and into `store`: checked whole
    first; refused into a database with tables or a store with files unless `force` (their content is
    then replaced: the store's files the backup does not have are deleted once the database is
    restored); migrated when the backup is older than the code."""
    manifest = read_manifest(folder)
    kind, target = manifest["database"]["kind"], make_url(url)
    target_kind = target.get_backend_name()
    if target_kind != kind:
        raise Refused(
            f"this backup is of a {KIND_NAMES[kind]} database and the target (SPOT_DATABASE_URL) is "
            f"{KIND_NAMES.get(target_kind, target_kind)}: a backup restores into the same kind of database "
            "only"
        )
    verify(folder, manifest)
    revisions: list[str] = sorted(manifest["database"]["revisions"])
    heads, known = _code_revisions()
    unknown = [revision for revision in revisions if not known(revision)]
    if unknown:
        raise Refused(
            f"the backup's schema revision {', '.join(unknown)} is unknown to this Spot (a newer version "
            "made it): restore it with that version or a later one"
        )
    try:
        tables = _target_tables(target)
        existing = set(store.names())
    except UNANSWERED as exc:
        raise Failed(f"{_unanswered(exc)}; nothing was restored") from exc
    if not force and (tables or existing):
        held = [f"{len(tables)} tables"] if tables else []
        held += [f"{len(existing)} stored files"] if existing else []
        raise Refused(
            f"the target is not empty ({' and '.join(held)}): restore into an empty database "
            "and file store, or pass --force to replace their content"
        )
    checked = f"the {KIND_NAMES[kind]} database and {len(manifest['files'])} files"
    say(f"backup checked: {checked} match the manifest")
    added = _restore_files(folder, manifest, store, existing)
    try:
        dump = folder / manifest["database"]["file"]
        if kind == "postgresql":
            _restore_postgresql(dump, target, replace=force)
        else:
            _restore_sqlite(dump, target)
    except BaseException as exc:
        for name in added:
            store.delete(name)
        state = "its former content" if force and tables else "no table"
        raise Failed(
            f"the database could not be restored ({exc}); it was left as it was ({state}: the restore runs "
            f"in one transaction), and the {len(added)} files copied into the store were removed"
        ) from exc
    backed_up = {entry["name"] for entry in manifest["files"]}
    for name in sorted(existing - backed_up):
        store.delete(name)  # --force: the store is the backup's, as the database is
    say(f"restored the database (revision {', '.join(revisions)}) and {len(backed_up)} files")
    migrated_from = None
    if set(revisions) != heads:
        say(
            f"the backup's schema ({', '.join(revisions)}) is older than this Spot's "
            f"({', '.join(sorted(heads))}): migrating"
        )
        try:
            database.migrate(target.render_as_string(hide_password=False))
        except Exception as exc:
            raise Failed(
                f"the backup was restored, but migrating it failed ({exc}): the database holds the backup at "
                f"revision {', '.join(revisions)}; run `spot migrate` once the cause is fixed"
            ) from exc
        migrated_from = revisions
        say("migrated")
    total = sum(int(entry["size"]) for entry in manifest["files"])
    return Summary(
        kind=kind, revisions=revisions, files=len(backed_up), bytes=total, migrated_from=migrated_from
    )


def _restore_files(
    folder: Path, manifest: dict[str, Any], store: files.FileStore, existing: set[str]
) -> list[str]:
    """Copy the backup's files into the store (a name already there holds the same content: a name
    is never given twice); the names added. A failure removes those added and says so."""
    added: list[str] = []
    try:
        for entry in manifest["files"]:
            name = entry["name"]
            if name in existing:
                continue
            with tempfile.NamedTemporaryFile(dir=files.scratch_folder(), suffix=".part", delete=False) as out:
                with (folder / FILES / name[:2] / name).open("rb") as source:
                    shutil.copyfileobj(source, out, _CHUNK)
                copy = Path(out.name)
            try:
                store.adopt(copy, name)
            finally:
                copy.unlink(missing_ok=True)
            added.append(name)
    except BaseException as exc:
        for name in added:
            store.delete(name)
        raise Failed(
            f"the files could not be copied into the store ({exc}); the {len(added)} copied were removed, "
            "the database was not touched"
        ) from exc
    return added


# With --force on PostgreSQL, in the restore's transaction: every schema of the target goes (its
# tables, functions, extensions), and public comes back as PostgreSQL 15 makes it.
_EMPTY_POSTGRESQL = """
DO $$ DECLARE s text; BEGIN
  FOR s IN SELECT nspname FROM pg_namespace
           WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', s);
  END LOOP;
END $$;
CREATE SCHEMA public;
ALTER SCHEMA public OWNER TO pg_database_owner;
GRANT USAGE ON SCHEMA public TO PUBLIC;
"""


def _restore_postgresql(dump: Path, target: URL, *, replace: bool) -> None:
    """pg_restore's script run by psql in one transaction that stops at the first error: all or
    nothing. Objects are owned by the role restoring (--no-owner, --no-acl)."""
    address, env = _libpq(target)
    env["PGOPTIONS"] = "-c client_min_messages=warning"
    script = ["pg_restore", "--no-owner", "--no-acl", "--file=-", str(dump)]
    run = ["psql", "--no-psqlrc", "--quiet", "--single-transaction", "--set=ON_ERROR_STOP=1"]
    run += ["--command", _EMPTY_POSTGRESQL] if replace else []
    run += ["--file=-", "--dbname", address]
    with tempfile.TemporaryFile() as script_errors, tempfile.TemporaryFile() as run_errors:
        writer = subprocess.Popen(script, stdout=subprocess.PIPE, stderr=script_errors, env=env)
        assert writer.stdout is not None
        try:
            runner = subprocess.Popen(
                run, stdin=writer.stdout, stdout=subprocess.DEVNULL, stderr=run_errors, env=env
            )
        finally:
            writer.stdout.close()  # psql holds it now: pg_restore sees a broken pipe if psql stops
        ran, wrote = runner.wait(), writer.wait()
        if ran or wrote:
            errors = []
            for name, code, output in (("pg_restore", wrote, script_errors), ("psql", ran, run_errors)):
                output.seek(0)
                said = output.read().decode(errors="replace").strip()[-2000:]
                if code:
                    errors.append(f"{name} exit {code}: {said}")
            raise Failed("; ".join(errors))


def _restore_sqlite(copy: Path, target: URL) -> None:
    """SQLite's backup API from the copy into the target file, in one transaction of the target."""
    path = Path(target.database or "")
    if not target.database or target.database == ":memory:":
        raise Refused("a backup cannot be restored into an SQLite database in memory")
    path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        destination = sqlite3.connect(path, timeout=database.SQLITE_BUSY_SECONDS)
        try:
            source.backup(destination)
            destination.execute("PRAGMA journal_mode=WAL")  # as Spot keeps it (db.sqlite_pragmas)
        finally:
            destination.close()
    finally:
        source.close()
