"""Tests talk HTTP to the real app on a real database: a temporary SQLite file, or PostgreSQL
when SPOT_TEST_DATABASE_URL is set (each test process, hence each xdist worker, gets a database of its
own, named after its process id so that concurrent runs on one server never drop each other's)."""

from spot.core import startup

# The tests' modules and the app's are imported, and the tests collected, with the cycle collector
# paused (core.startup); it runs again once they are collected (pytest_collection_finish).
startup.pause_collector()

import atexit
import hashlib
import os
import shutil
import tempfile
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import cache
from pathlib import Path

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from sqlalchemy import Connection, Table, TextClause, create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

# Starlette asks for httpx2 under its test client; the suite keeps httpx (the app's own client) until
# the move is made for both, and says nothing of it on every worker's start.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
import httpx2
from fastapi.testclient import TestClient
from starlette.types import ASGIApp

_tmp = Path(tempfile.mkdtemp(prefix="spot-tests-"))
atexit.register(shutil.rmtree, _tmp, ignore_errors=True)
_PG_BASE = os.environ.get("SPOT_TEST_DATABASE_URL")
_PG_DATABASE = f"spot_test_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"


@contextmanager
def _pg_admin() -> Iterator[Connection]:
    assert _PG_BASE
    engine = create_engine(
        make_url(_PG_BASE).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )
    with engine.connect() as conn:
        yield conn
    engine.dispose()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _create_pg_database() -> None:
    """A fresh database for this process, after dropping those of runs killed before their teardown."""
    with _pg_admin() as conn:
        for name in conn.scalars(text(r"SELECT datname FROM pg_database WHERE datname LIKE 'spot\_test\_%'")):
            pid = name.rsplit("_", 1)[-1]
            if name == _PG_DATABASE or (pid.isdigit() and not _alive(int(pid))):
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(text(f'CREATE DATABASE "{_PG_DATABASE}"'))
        _test_database_settings(conn, _PG_DATABASE)


def _test_database_settings(conn: Connection, database: str) -> None:
    """A commit in the test database does not wait for its WAL to reach the disk: what a crash of the
    server could lose, a test run does not keep (its gain is in docs/performance.md, "The test
    suite"). Statements and their results are the same.
    A statement that waits for a lock more than 5 minutes fails, naming itself: a test whose session
    holds what the app (or the emptying of the tables after it) waits for fails, rather than hanging
    the run. A test's waits for locks last milliseconds."""
    conn.execute(text(f'ALTER DATABASE "{database}" SET synchronous_commit = off'))
    conn.execute(text(f"ALTER DATABASE \"{database}\" SET lock_timeout = '300s'"))


def _drop_pg_database() -> None:
    with _pg_admin() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{_PG_DATABASE}" WITH (FORCE)'))


def _database_url() -> str:
    if not _PG_BASE:
        return f"sqlite:///{_tmp}/spot.db"
    url = make_url(_PG_BASE).set(drivername="postgresql+psycopg", database=_PG_DATABASE)
    return url.render_as_string(hide_password=False)


os.environ["SPOT_DATABASE_URL"] = _database_url()
os.environ["SPOT_DATA_DIR"] = str(_tmp / "data")
os.environ.setdefault("SPOT_CUSTOMER_NAME", "Usine de test")

from argon2 import PasswordHasher

from spot.core import passwords

# argon2's production cost (64 MiB, 3 passes) makes every password check slow on purpose; tests use
# the cheapest parameters. Verification reads the parameters from the stored hash, so the code paths
# are the same.
passwords._hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)

from mail_server import SmtpServer
from object_server import CREDENTIALS, REGION, S3Server
from spot import db as database
from spot.account.models import SessionToken
from spot.account.service import issue_token
from spot.config import Settings, get_settings
from spot.core.passwords import hash_password
from spot.core.signatures import REAUTHENTICATE_AFTER
from spot.core.time import utcnow
from spot.main import create_app
from spot.permissions.models import GroupPermission
from spot.users.models import Group, User
from support import PASSWORD

_PASSWORD_HASH = hash_password(PASSWORD)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Each reason tests were skipped for, once with its count: `-q` shows only how many were, which
    would hide that this machine lacks the conformance material (``tests/lms/conformance.py``)."""
    reasons = Counter(
        report.longrepr[2].removeprefix("Skipped: ")
        for report in terminalreporter.stats.get("skipped", [])
        if isinstance(report.longrepr, tuple)
    )
    for reason, count in reasons.most_common():
        terminalreporter.write_line(f"{count} skipped: {reason}")


@pytest.fixture(scope="session")
def app():
    # Created here, not at import: the xdist controller imports this file too but runs no test.
    if _PG_BASE:
        _create_pg_database()
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    if _PG_BASE:
        _create_pg_emptying()
    yield create_app()
    database.get_engine().dispose()
    if _PG_BASE:
        _drop_pg_database()


# On PostgreSQL, the tables are emptied by one function of the test database (made with it): one
# round trip where a statement a table took one each, its statements planned once. It runs as a
# replica (session_replication_role, as _put_back does): no trigger fires, neither the foreign keys'
# checks, which took most of the time (a user's row alone is checked against every table that names
# users), nor the triggers that keep the trigram tables, emptied here with the models' tables.
_PG_EMPTYING = "spot_tests.empty_tables"


def _create_pg_emptying() -> None:
    quote = database.get_engine().dialect.identifier_preparer.quote
    with database.get_engine().begin() as conn:
        trigrams = conn.scalars(
            text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE :like"),
            {"like": "%\\_trigrams"},
        ).all()
        models = [table.name for table in database.Base.metadata.sorted_tables]
        deletes = "".join(
            f"IF EXISTS (SELECT 1 FROM {name}) THEN DELETE FROM {name}; END IF; "
            for name in map(quote, [*trigrams, *models])
        )
        conn.exec_driver_sql("CREATE SCHEMA IF NOT EXISTS spot_tests")
        conn.exec_driver_sql(
            f"CREATE OR REPLACE FUNCTION {_PG_EMPTYING}() RETURNS void LANGUAGE plpgsql AS $$ BEGIN "
            f"PERFORM set_config('session_replication_role', 'replica', true); {deletes}END $$"
        )


@pytest.fixture(autouse=True)
def _clean_tables(app) -> Iterator[None]:
    """After each test, the tables it filled are emptied. On SQLite, one statement finds them (a test
    fills a few of them), deleted children first; what their delete triggers write is found on the
    next pass. On PostgreSQL, one call does it all (_create_pg_emptying)."""
    yield
    engine = database.get_engine()
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.exec_driver_sql(f"SELECT {_PG_EMPTYING}()")
        return
    with engine.begin() as conn:
        while filled := _filled_tables(conn):
            for table in _children_first():
                if table.name in filled:
                    conn.execute(table.delete())


# What a fixture built from an empty database, kept by this test process and put back for each later
# test that asks for it: the database's rows and the stored files, as they were once built (the build
# is what its tests test elsewhere). Put back, not rebuilt: a map import takes about 30 ms on SQLite
# and 40 on PostgreSQL, the demo organisation seconds; the copy, a few milliseconds.
_kept: dict[str, object] = {}


def _filled_tables(conn: Connection) -> set[str]:
    """The names of the models' tables holding a row (one statement, written once)."""
    return set(conn.scalars(_filled_tables_statement(conn.dialect.identifier_preparer.quote)))


@cache
def _filled_tables_statement(quote: Callable[[str], str]) -> TextClause:
    return text(
        " UNION ALL ".join(
            f"SELECT '{table.name}' WHERE EXISTS (SELECT 1 FROM {quote(table.name)})"
            for table in database.Base.metadata.sorted_tables
        )
    )


@cache
def _children_first() -> list[Table]:
    return list(reversed(database.Base.metadata.sorted_tables))


def _snapshot_schema(name: str) -> str:
    return f"spot_kept_{name}"


def _stored_files() -> dict[Path, tuple[int, int]]:
    """The file store's files (their paths under it), each with its size and time of change."""
    root = _tmp / "data"
    return {
        path.relative_to(root): (stat.st_size, stat.st_mtime_ns)
        for path in root.rglob("*")
        if path.is_file() and (stat := path.stat())
    }


def _keep(name: str, before: dict[Path, tuple[int, int]]) -> None:
    engine = database.get_engine()
    if engine.dialect.name == "sqlite":
        import sqlite3

        raw = engine.raw_connection()
        try:
            with sqlite3.connect(_tmp / f"kept-{name}.db") as copy:
                raw.driver_connection.backup(copy)  # type: ignore[union-attr]
        finally:
            raw.close()
    else:
        quote = engine.dialect.identifier_preparer.quote
        schema = quote(_snapshot_schema(name))
        with engine.begin() as conn:
            # The tables holding a row: the models' and the trigram tables their triggers fill (the
            # triggers do not run when the rows are put back); not the job queue's nor map_version,
            # which _put_back moves on.
            tables = conn.scalars(text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).all()
            models = {table.name for table in database.Base.metadata.sorted_tables}
            filled = [
                quote(table_name)
                for table_name in tables
                if (table_name in models or table_name.endswith("_trigrams"))
                and conn.scalar(text(f"SELECT EXISTS (SELECT 1 FROM {quote(table_name)})"))
            ]
            conn.exec_driver_sql(f"CREATE SCHEMA {schema}")
            for table in filled:
                conn.exec_driver_sql(f"CREATE TABLE {schema}.{table} AS TABLE {table}")
        # Put back in one round trip, without the tables' triggers (their rows are copied as they were)
        # and constraint checks (the rows were consistent): session_replication_role, a superuser's.
        _kept[f"{name}:restore"] = "SET LOCAL session_replication_role = replica; " + "".join(
            f"INSERT INTO {table} SELECT * FROM {schema}.{table}; " for table in filled
        )
    # The files the build wrote, not those earlier tests of the process left.
    for path, state in _stored_files().items():
        if before.get(path) != state:
            (_tmp / f"kept-{name}-data" / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(_tmp / "data" / path, _tmp / f"kept-{name}-data" / path)


def _put_back(name: str) -> None:
    engine = database.get_engine()
    with engine.connect() as conn:
        version = conn.scalar(text("SELECT version FROM map_version"))
    if engine.dialect.name == "sqlite":
        import sqlite3

        raw = engine.raw_connection()
        try:
            with sqlite3.connect(_tmp / f"kept-{name}.db") as copy:
                copy.backup(raw.driver_connection)  # type: ignore[arg-type]
        finally:
            raw.close()
    else:
        with engine.begin() as conn:
            conn.exec_driver_sql(str(_kept[f"{name}:restore"]))
    # The map's version moves on, as after any change of the map: the process's copy of the map
    # (mapping.service.map_paths), read at an earlier version, never serves the map put back.
    with engine.begin() as conn:
        conn.execute(text("UPDATE map_version SET version = :version"), {"version": (version or 0) + 1})
    if (_tmp / f"kept-{name}-data").exists():
        shutil.copytree(_tmp / f"kept-{name}-data", _tmp / "data", dirs_exist_ok=True)


def kept(name: str, db: Session, build: Callable[[], object]) -> object:
    """What `build` returned and left in the database and the file store, built by the first test of
    this process to ask and put back for the next ones. Built as always when the database is not empty
    (a fixture asked for earlier wrote) or the files go to an object store."""
    db.close()
    with database.get_engine().connect() as conn:
        empty = not _filled_tables(conn)
    if not empty or get_settings().file_store:
        return build()
    if name in _kept:
        _put_back(name)
        return _kept[name]
    before = _stored_files()
    _kept[name] = value = build()
    db.commit()
    db.close()
    _keep(name, before)
    return value


@pytest.fixture
def demo_org(app, db: Session) -> list:
    """The demo organisation as `spot.demo.seed` leaves it (its logins returned), for a test that starts
    from it: seeded once per test process, then put back for each test that asks (kept). Ask for it
    before any fixture that writes."""
    from spot import demo as demo_organisation

    def seed() -> list:
        return list(demo_organisation.seed(db))

    return list(kept("demo", db, seed))  # type: ignore[call-overload]


@pytest.fixture
def test_map(db: Session):
    """The test map (tests/mapping/maps.py), imported once per test process and put back (kept) for
    each test that asks."""
    from mapping.maps import Map, load

    kept("test_map", db, lambda: load(db) and None)
    return Map(db)


@pytest.fixture
def two_sites(db: Session, test_map):
    """The test map and a second site (SEC: cartography C3, activity E1, functions H1 and H2)."""
    from mapping.maps import SECOND_SITE, load

    load(db, SECOND_SITE)
    return test_map


@pytest.fixture(scope="session")
def _event_loop() -> Iterator[BlockingPortal]:
    """One event loop per test process, in its own thread, that runs the app's requests, as a server
    runs them all on one loop. A TestClient left to itself starts a loop and its thread for each request
    (about 2.5 ms)."""
    with start_blocking_portal() as portal:
        yield portal


class _WholeRequests(httpx2.BaseTransport):
    """Each request run whole on the test process's event loop, by one call from the test's thread:
    httpx's ASGI transport runs the app to the end of its answer and keeps the answer's body. Starlette's
    own transport hands the request, the answer's start and each part of its body across threads one by
    one (six calls or more a request, about 2 ms of CPU more than one)."""

    def __init__(self, app: ASGIApp, portal: BlockingPortal) -> None:
        # As Starlette's test client says who calls (address=testclient in the logs and throttles).
        self._asgi = httpx2.ASGITransport(app=app, client=("testclient", 50000))
        self._portal = portal

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        request.read()  # the body as bytes, which the transport reads on the loop

        async def whole() -> tuple[int, httpx2.Headers, bytes]:
            answer = await self._asgi.handle_async_request(request)
            return answer.status_code, answer.headers, await answer.aread()

        status, headers, body = self._portal.call(whole)
        # As a stream, so that no Content-Length is added to an answer sent without one (in chunks).
        return httpx2.Response(status, headers=headers, stream=httpx2.ByteStream(body), request=request)


@pytest.fixture
def client(app, _event_loop: BlockingPortal) -> TestClient:
    client = TestClient(app, raise_server_exceptions=True)
    client.portal = _event_loop
    client._transport = _WholeRequests(app, _event_loop)
    return client


@pytest.fixture
def db() -> Iterator[Session]:
    with database.session_factory()() as session:
        yield session
        session.commit()


MakeUser = Callable[..., User]


@pytest.fixture
def make_user(db: Session) -> MakeUser:
    """A committed user holding exactly the given permissions (through a group of its own)."""
    counter = iter(range(1, 10_000))

    def make(login: str | None = None, permissions: tuple[str, ...] | list[str] = (), **fields: str) -> User:
        n = next(counter)
        login = login or f"user{n}"
        group = Group(
            name=f"group-of-{login}", permissions=[GroupPermission(name=str(p)) for p in permissions]
        )
        user = User(
            login=login,
            first_name=fields.get("first_name", f"Prénom{n}"),
            last_name=fields.get("last_name", f"Nom{n}"),
            external_id=fields.get("external_id"),
            email=fields.get("email"),
            password_hash=_PASSWORD_HASH,
            groups=[group],
        )
        db.add(user)
        db.commit()
        return user

    return make


@pytest.fixture
def login() -> Callable[[User], dict[str, str]]:
    """Sign a user in and return the headers that carry the session: the session the sign-in route opens
    (account.service.issue_token), without its password check and throttling, which account/ tests."""

    def do(user: User) -> dict[str, str]:
        with database.session_factory()() as session:
            token = issue_token(session, user=user)
            session.commit()
        return {"x-access-token": token}

    return do


class Authentication:
    """When the session of some headers (from `login`) last proved its user's identity, for the
    signatures' re-authentication rule (core.signatures.REAUTHENTICATE_AFTER, 5 minutes)."""

    def __init__(self, db: Session) -> None:
        self.db = db

    def set_age(self, headers: dict[str, str], age: timedelta) -> None:
        token_hash = hashlib.sha256(headers["x-access-token"].encode()).hexdigest()
        session = self.db.scalars(select(SessionToken).where(SessionToken.token_hash == token_hash)).one()
        session.authenticated_at = utcnow() - age
        self.db.commit()

    def stale(self, headers: dict[str, str]) -> None:
        """A signature now answers 401 reauthenticationRequired."""
        self.set_age(headers, REAUTHENTICATE_AFTER + timedelta(minutes=1))

    def fresh(self, headers: dict[str, str]) -> None:
        """A signature is accepted without the password again."""
        self.set_age(headers, timedelta(0))


@pytest.fixture
def authentication(db: Session) -> Authentication:
    """`authentication.stale(headers)` / `authentication.fresh(headers)`: age the session's last
    authentication past the signatures' limit, or make it now."""
    return Authentication(db)


@pytest.fixture
def settings_env() -> Iterator[Callable[..., Settings]]:
    """Change settings through the environment, as in production; restored after the test."""
    patch = pytest.MonkeyPatch()

    def apply(**env: str) -> Settings:
        for name, value in env.items():
            patch.setenv(name, value)
        get_settings.cache_clear()
        return get_settings()

    yield apply
    patch.undo()
    get_settings.cache_clear()


@pytest.fixture
def smtp(settings_env) -> Iterator[SmtpServer]:
    """A real SMTP server (tests/mail_server.py), and Spot set to send through it."""
    server = SmtpServer()
    server.start()
    settings_env(SPOT_SMTP_URL=server.url, SPOT_MAIL_FROM="Spot <spot@usine-demo.example>")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def s3_server() -> Iterator[S3Server]:
    """A real S3-protocol server (tests/object_server.py), one a test process."""
    server = S3Server()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def s3_store(s3_server, settings_env) -> str:
    """Spot's files in a new bucket of the S3 server (SPOT_FILE_STORE=s3://bucket/files): its address."""
    address = f"s3://{s3_server.new_bucket()}/files"
    settings_env(
        SPOT_FILE_STORE=address, SPOT_S3_ENDPOINT_URL=s3_server.url, SPOT_S3_REGION=REGION, **CREDENTIALS
    )
    return address


def pytest_collection_finish(session: pytest.Session) -> None:
    startup.resume_collector()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes() -> None:
    """xdist's controller collects no test: it resumes the collector as it starts its workers."""
    startup.resume_collector()
