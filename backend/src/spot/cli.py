import asyncio
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
import uvicorn
from sqlalchemy import select

from spot import db as database
from spot.core import startup

app = typer.Typer(help="Spot: the server and its administration.", no_args_is_help=True)


def _logging() -> None:
    from spot.config import get_settings
    from spot.operations import logs

    logs.configure(get_settings().log_format)


@app.command()
def migrate() -> None:
    """Bring the database schema up to date (alembic upgrade head)."""
    database.migrate()


ANNOUNCER = "spot-announcer"


def _quietly(load: Callable[[], list[str]]) -> list[str]:
    """The demo's own sign-offs and signatures, logged one by one, would bury the start-up lines."""
    spot_log = logging.getLogger("spot")
    level = spot_log.level
    spot_log.setLevel(logging.WARNING)
    try:
        return load()
    finally:
        spot_log.setLevel(level)


def _announce_once_answering(address: str, lines: list[str], stopped: threading.Event) -> None:
    """Print `lines` once the server answers at `address`: uvicorn says where it listens before the
    application has started, and a newcomer's first request would then wait or fail."""
    while not stopped.is_set():
        try:
            urllib.request.urlopen(address, timeout=5).close()
        except urllib.error.HTTPError:
            pass  # an answer all the same
        except OSError:
            time.sleep(0.5)
            continue
        typer.echo("\n".join(lines))
        return


@app.command()
def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    demo: Annotated[
        bool, typer.Option("--demo", help="Also load the demo organisation and list its logins.")
    ] = False,
    no_jobs: Annotated[
        bool, typer.Option("--no-jobs", help="Run no jobs here: `spot worker` processes run them.")
    ] = False,
) -> None:
    """Migrate, then serve the API under /backend/api/v2 and the client under /spotv2/, and run jobs
    (unless --no-jobs); once it answers, say where (and, with --demo, the demo logins)."""
    import os

    startup.import_app()
    from spot.main import NO_JOBS

    _logging()
    database.migrate()
    if no_jobs:
        os.environ[NO_JOBS] = "1"
    address = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/spotv2/"
    lines = [*(_quietly(_demo_logins) if demo else []), f"Spot is at {address}"]
    if workers > 1:
        _share_metrics()
    stopped = threading.Event()
    threading.Thread(
        target=_announce_once_answering,
        args=(address, lines, stopped),
        name=f"{ANNOUNCER} {address}",
        daemon=True,
    ).start()
    try:
        uvicorn.run(
            "spot.main:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            access_log=False,
            # Longer than the idle time after which clients and proxies close a kept connection (Node's
            # agent 5 s, nginx 75 s): with uvicorn's 5 s, a request sent on a connection the server was
            # closing at that instant was reset.
            timeout_keep_alive=90,
            log_level="info",
            log_config=_uvicorn_logging(),
        )
    finally:
        stopped.set()


@app.command()
def worker() -> None:
    """Run jobs only, in this process, until stopped (SIGTERM or Ctrl-C): on PostgreSQL through
    procrastinate, on SQLite from the job table (docs/operations.md, "Jobs"). The database must be
    migrated (spot migrate)."""
    import os
    import signal

    from spot.core import files
    from spot.jobs import runner

    startup.import_app()
    from spot.main import load_job_kinds

    _logging()
    database.load_models()
    load_job_kinds()
    files.clean_scratch(database.get_engine())
    stopped = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopped.set())
    halt = runner.start()
    logging.getLogger("spot.jobs").info("spot worker running jobs (pid %s)", os.getpid())
    stopped.wait()
    halt()


def _uvicorn_logging() -> dict[str, Any]:
    from spot.config import get_settings
    from spot.operations import logs

    return logs.logging_config(get_settings().log_format)


def _share_metrics() -> None:
    """The worker processes of this server keep their metrics in one folder of their own, emptied
    first, so that a scrape answered by any of them counts them all (operations.metrics)."""
    import os
    import shutil

    from spot.config import get_settings
    from spot.operations.metrics import MULTIPROCESS_FOLDER

    root = get_settings().data_dir / "metrics"
    for left in root.glob("*"):  # servers stopped before (or killed) leave theirs
        if not left.name.isdigit() or not Path(f"/proc/{left.name}").exists():
            shutil.rmtree(left, ignore_errors=True)
    folder = root / str(os.getpid())
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    os.environ[MULTIPROCESS_FOLDER] = str(folder)


@app.command("migrate-files")
def migrate_files(
    to: Annotated[str, typer.Option("--to", help="The store to copy to: a folder, or s3://bucket/prefix.")],
) -> None:
    """Copy every stored file into another store (a folder or s3://bucket/prefix) and check each one;
    run again, it copies only what is missing or differs. Then set SPOT_FILE_STORE to it."""
    from spot.config import get_settings
    from spot.core import files

    _logging()
    source = files.get_file_store()
    same = to == (get_settings().file_store or str(get_settings().data_dir / "files"))
    if not same and "://" not in to:
        same = isinstance(source, files.FolderFileStore) and source.root.resolve() == Path(to).resolve()
    if same:
        typer.echo(f"{to} is the store itself: nothing to copy", err=True)
        raise typer.Exit(2)
    try:
        done = files.copy_store(source, files.store_at(to))
    except ValueError as exc:
        typer.echo(f"copy failed: {exc}", err=True)
        raise typer.Exit(1) from exc
    typer.echo(f"{done.copied} copied, {done.present} already there, {done.checked} checked")


@app.command("create-user")
def create_user(
    login: str,
    password: Annotated[str, typer.Option()],
    first_name: Annotated[str, typer.Option("--first-name")] = "",
    last_name: Annotated[str, typer.Option("--last-name")] = "",
    external_id: Annotated[str | None, typer.Option("--external-id")] = None,
    email: Annotated[str | None, typer.Option("--email")] = None,
    admin: Annotated[bool, typer.Option("--admin", help="Join the all-permissions group.")] = False,
) -> None:
    """Create a user; --admin adds it to the administrators group."""
    from pydantic import ValidationError

    from spot.core.errors import ApiError
    from spot.permissions.models import GroupPermission
    from spot.permissions.names import ALL_PERMISSIONS
    from spot.users import service
    from spot.users.models import Group
    from spot.users.schemas import UserCreate

    database.load_models()
    with database.session_factory()() as db:
        group_ids: list[int] = []
        if admin:
            group = db.scalar(select(Group).where(Group.name == ADMIN_GROUP))
            if group is None:
                permissions = [GroupPermission(name=p) for p in ALL_PERMISSIONS]
                group = Group(name=ADMIN_GROUP, permissions=permissions)
                db.add(group)
                db.flush()
            group_ids = [group.id]
        try:
            data = UserCreate(
                login=login,
                password=password,
                first_name=first_name,
                last_name=last_name,
                external_id=external_id,
                email=email,
                group_ids=group_ids,
            )
            user = asyncio.run(service.create(db, data=data))
        except ValidationError as exc:
            typer.echo(f"invalid user: {exc}", err=True)
            raise typer.Exit(2) from exc
        except ApiError as exc:
            typer.echo(f"cannot create user: {exc.message}", err=True)
            raise typer.Exit(2) from exc
        db.commit()
        typer.echo(f"created user {user.login} (id {user.id})")


ADMIN_GROUP = "Administrateurs"


def _demo_logins() -> list[str]:
    """Load the demo organisation (idempotent); the lines that list its logins."""
    from spot import demo

    database.load_models()
    with database.session_factory()() as db:
        logins = demo.seed(db)
        db.commit()
    return [f"Demo logins (password for all: {demo.DEMO_PASSWORD}):"] + [
        f"  {item.login:<12} {item.first_name} {item.last_name} — {item.role}" for item in logins
    ]


@app.command("seed-demo")
def seed_demo() -> None:
    """Load the demo organisation (idempotent) and print its logins."""
    for line in _demo_logins():
        typer.echo(line)


@app.command("import-map")
def import_map(file: Annotated[typer.FileBinaryRead, typer.Argument(help="A map bundle (.zip)")]) -> None:
    """Import a map bundle (docs/map-bundle.md): checked whole first (a bad bundle writes nothing), then
    created or updated by codes."""
    from spot.core.errors import ApiError
    from spot.mapping import bundle

    data = file.read(bundle.MAX_BUNDLE_BYTES + 1)
    if len(data) > bundle.MAX_BUNDLE_BYTES:
        typer.echo("refused: the bundle is bigger than 30,000,000 bytes", err=True)
        raise typer.Exit(2)
    database.load_models()
    with database.session_factory()() as db:
        try:
            result = bundle.import_bundle(db, data=data, user=None, in_steps=True)
        except ApiError as exc:
            db.rollback()  # and with it the files stored for the bundle
            typer.echo(f"refused: {exc.message}", err=True)
            raise typer.Exit(2) from exc
        db.commit()
    typer.echo(f"imported site {result.site_id}: created {result.created}, updated {result.updated}")


@app.command("import-users")
def import_users(
    file: Annotated[typer.FileBinaryRead, typer.Argument(help="People and their groups (.csv or .xlsx)")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Say what each row would do; change nothing.")
    ] = False,
    deactivate_missing: Annotated[
        bool,
        typer.Option("--deactivate-missing", help="Deactivate the active people the file does not list."),
    ] = False,
) -> None:
    """Import people and their groups (docs/people.md): all or nothing; exits 2 when any row is refused."""
    from spot.core.errors import ApiError
    from spot.people import service
    from spot.people.routes import MAX_FILE_BYTES

    data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        typer.echo("refused: the file is bigger than 30,000,000 bytes", err=True)
        raise typer.Exit(2)
    database.load_models()
    with database.session_factory()() as db:
        try:
            report = service.run(
                db, data=data, dry_run=dry_run, deactivate_missing=deactivate_missing, importer=None
            )
        except ApiError as exc:
            db.rollback()
            field = f" ({exc.errors[0].field})" if exc.errors else ""
            typer.echo(f"refused: {exc.message}{field}", err=True)
            raise typer.Exit(2) from exc
        db.commit()
    for row in report.rows:
        if row.outcome == "refused":
            problems = ", ".join(f"{e.column}: {e.code}" for e in row.errors)
            typer.echo(f"line {row.line}: refused ({problems})", err=True)
    counts = ", ".join(
        f"{name} {getattr(report, name)}"
        for name in ("created", "updated", "unchanged", "deactivated", "refused")
    )
    verdict = "applied" if report.applied else "dry run" if dry_run else "not applied: a row is refused"
    typer.echo(f"{verdict}: {counts}")
    if report.refused:
        raise typer.Exit(2)


@app.command("create-api-token")
def create_api_token(
    name: Annotated[str, typer.Argument(help="What the token is for (the identity provider's name)")],
    scope: Annotated[str, typer.Option("--scope", help="What the token opens: scim")],
) -> None:
    """Create an API token; its value is the last line printed, shown this once (only its hash is kept)."""
    from spot.apitokens import service
    from spot.apitokens.models import SCOPES

    if scope not in SCOPES or not name.strip() or len(name.strip()) > 200:
        typer.echo(f"refused: a name of 1 to 200 characters and a scope among {', '.join(SCOPES)}", err=True)
        raise typer.Exit(2)
    database.load_models()
    with database.session_factory()() as db:
        token, value = service.create(db, name=name, scope=scope, by=None)
        db.commit()
    typer.echo(f"API token {token.id} ({scope}) created; it is shown this once:")
    typer.echo(value)


@app.command()
def notify(
    send: Annotated[
        bool, typer.Option("--send", help="Also send the outbox's due messages (SPOT_SMTP_URL).")
    ] = False,
) -> None:
    """Run the daily scan once, now (requalification paths, expiry reminders, the bell's dated alerts,
    digests; each scan once a day, whatever the number of runs and processes), e.g. from cron
    (docs/notifications.md)."""
    from spot.config import get_settings
    from spot.notifications import scan, sender

    _logging()
    database.load_models()
    for name, count in scan.run().items():
        typer.echo(
            f"{name}: "
            + (
                "not run here (another process runs it)"
                if count is None
                else f"{count} {scan.COUNTED.get(name, 'queued')}"
            )
        )
    if not send:
        return
    if not get_settings().smtp_url:
        typer.echo("sent: 0 (no mail server set, SPOT_SMTP_URL: messages wait in the outbox)")
        return
    typer.echo(f"sent: {sender.drain()}")


@app.command("import-course")
def import_course(
    file: Annotated[typer.FileBinaryRead, typer.Argument(help="A course package (.zip)")],
) -> None:
    """Import a course package (docs/learning-platform.md), or update the course of the same id; a
    faulty package is refused whole, naming the faulty entry or element."""
    import shutil
    import tempfile

    from spot.core import files
    from spot.core.errors import ApiError
    from spot.lms import package, service

    limit = package.max_package_bytes()
    # A copy the import moves into the store, made in pieces: the memory stays flat whatever the size.
    with tempfile.NamedTemporaryFile(dir=files.scratch_folder(), suffix=".part", delete=False) as out:
        shutil.copyfileobj(file, out, 1 << 20)
        copy = Path(out.name)
    if copy.stat().st_size > limit:
        copy.unlink()
        typer.echo(f"refused: the package is bigger than {limit:,} bytes (SPOT_COURSE_MAX_BYTES)", err=True)
        raise typer.Exit(2)
    database.load_models()
    with database.session_factory()() as db:
        try:
            result = service.import_course(db, path=copy, user_id=None)
        except ApiError as exc:
            db.rollback()  # and with it the stored package
            faults = ", ".join(f"{e.field}: {e.code}" for e in exc.errors)
            typer.echo(f"refused: {exc.message}" + (f" ({faults})" if faults else ""), err=True)
            raise typer.Exit(2) from exc
        finally:
            copy.unlink(missing_ok=True)  # moved into the store when imported
        db.commit()
    verb = "created" if result.created else "updated"
    typer.echo(f"{verb} course {result.id} '{result.title}' with {result.items} units")


@app.command("backup")
def backup_command(
    folder: Annotated[Path, typer.Argument(help="A new or empty folder to write the backup into")],
) -> None:
    """Write a consistent copy of the database and of the stored files it refers to into FOLDER, with a
    manifest of checksums (PostgreSQL: pg_dump; SQLite: its online backup), while Spot runs
    (docs/operations.md, "Backups and restores")."""
    from spot.core import files
    from spot.operations import backup

    _logging()
    database.load_models()
    try:
        done = backup.backup(folder, engine=database.get_engine(), store=files.get_file_store())
    except backup.BackupError as exc:
        raise _stopped("backup", exc) from exc
    kind = backup.KIND_NAMES[done.kind]
    typer.echo(
        f"backed up the {kind} database (revision {', '.join(done.revisions)}) and {done.files} files "
        f"({done.bytes:,} bytes) into {folder}"
    )


@app.command("restore")
def restore_command(
    folder: Annotated[Path, typer.Argument(help="A folder written by spot backup")],
    force: Annotated[
        bool,
        typer.Option("--force", help="Replace the content of a database or file store that is not empty."),
    ] = False,
) -> None:
    """Restore a backup into the database of SPOT_DATABASE_URL and the file store: every checksum is
    checked first; a database with tables or a store with files is refused unless --force; a backup
    older than this Spot is then migrated. Stop Spot's servers first (docs/operations.md)."""
    from spot.config import get_settings
    from spot.core import files
    from spot.operations import backup

    _logging()
    database.load_models()
    try:
        done = backup.restore(
            folder, url=get_settings().database_url, store=files.get_file_store(), force=force, say=typer.echo
        )
    except backup.BackupError as exc:
        raise _stopped("restore", exc) from exc
    kind = backup.KIND_NAMES[done.kind]
    typer.echo(f"restored {done.files} files ({done.bytes:,} bytes) and the {kind} database")


def _stopped(what: str, exc: Exception) -> typer.Exit:
    """A backup or restore that did not happen, said: exit 2 when refused before writing anything, 1
    when it failed on the way."""
    from spot.operations import backup

    refused = isinstance(exc, backup.Refused)
    typer.echo(f"{'refused' if refused else f'{what} failed'}: {exc}", err=True)
    return typer.Exit(2 if refused else 1)
