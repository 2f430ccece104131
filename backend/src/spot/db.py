import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, MutableMapping
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    ARRAY,
    Boolean,
    ColumnElement,
    Connection,
    DateTime,
    Engine,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    bindparam,
    create_engine,
    event,
    exc,
)
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.type_api import TypeEngine
from sqlalchemy.sql.visitors import InternalTraversal
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from spot.config import get_settings

log = logging.getLogger("spot.db")

T = TypeVar("T")

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UtcDateTime(TypeDecorator[datetime]):
    """Time stamps stored in UTC and always read back timezone-aware (SQLite drops the zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def result_processor(self, dialect: Dialect, coltype: object) -> Callable[[Any], datetime | None] | None:
        """Straight to an aware datetime in UTC, without process_result_value's wrapper: lists read
        thousands of time stamps (a function view, 1,400). On SQLite from the stored text (cheaper than
        parsing then datetime.replace(): docs/performance.md); on PostgreSQL, whose sessions are in UTC
        (make_engine), the driver's value as it is."""
        return _sqlite_utc if dialect.name == "sqlite" else _utc


def _utc(value: datetime | None) -> datetime | None:
    if value is None or value.tzinfo is UTC:
        return value
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _sqlite_utc(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        return datetime.fromisoformat(value + "+00:00")
    except ValueError:  # a time stamp written with its offset
        return datetime.fromisoformat(value).astimezone(UTC)


class IdList(TypeDecorator[list[int]]):
    """Ids as one bound value (see in_ids): an integer array on PostgreSQL, JSON text on SQLite."""

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(ARRAY(Integer))
        return dialect.type_descriptor(String())

    def process_bind_param(self, value: Iterable[int] | None, dialect: Dialect) -> Any:
        ids = [] if value is None else list(value)
        return ids if dialect.name == "postgresql" else json.dumps(ids)


class in_ids(ColumnElement[bool]):  # named in lower case, as SQL constructs are
    """`column IN (the ids of the parameter `name`)`, one bound value however many ids:
    `column = ANY(CAST((SELECT :name) AS INTEGER[]))` on PostgreSQL,
    `column IN (SELECT value FROM json_each(:name))` on SQLite.
    Where an expanding IN writes a parameter per id, the statement's text stays the same for any
    number of ids, so PostgreSQL's driver prepares it once instead of the server planning each."""

    inherit_cache = True
    type = Boolean()
    _is_implicitly_boolean = True
    _traverse_internals = [
        ("column", InternalTraversal.dp_clauseelement),
        ("ids", InternalTraversal.dp_clauseelement),
    ]

    def __init__(self, column: Any, name: str) -> None:
        self.column = column
        self.ids = bindparam(name, type_=IdList())


@compiles(in_ids)
def _in_ids(element: in_ids, compiler: SQLCompiler, **kw: Any) -> str:
    ids = compiler.process(element.ids, **kw)
    return f"{compiler.process(element.column, **kw)} IN (SELECT value FROM json_each({ids}))"


@compiles(in_ids, "postgresql")
def _in_ids_postgresql(element: in_ids, compiler: SQLCompiler, **kw: Any) -> str:
    # The list is read by a sub-select that the planner does not look into: every plan, with the ids
    # or without, then assumes the same few ids, and once prepared the statement keeps one generic
    # plan instead of being planned again on each run (a custom plan that sees 3 ids always looks
    # cheaper than a generic one that assumes 10). An index lookup per id fits any list it gets.
    ids = compiler.process(element.ids, **kw)
    return f"{compiler.process(element.column, **kw)} = ANY(CAST((SELECT {ids}) AS INTEGER[]))"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        table = cls.__dict__.get("__table__")
        if table is not None and "sqlite_autoincrement" not in dict(table.dialect_kwargs):
            # An id is never given twice: without AUTOINCREMENT, SQLite gives a new row the largest id
            # + 1, the id of the newest row if it was deleted (PostgreSQL's sequences never go back).
            # SQLAlchemy writes it for an integer key of one column that is not a foreign key; the
            # migration b6f1c2d9e8a4 rebuilt the tables made before, and a migration creating a table
            # passes sqlite_autoincrement=True (tests/core/test_ids_never_reused.py checks both). A
            # table whose rows are never deleted may say sqlite_autoincrement=False: it cannot give an
            # id again anyway.
            table.dialect_kwargs["sqlite_autoincrement"] = True


SQLITE_BUSY_SECONDS = 5
SQLITE_MMAP_BYTES = 2 << 30
SQLITE_CACHE_KIB = 32 << 10
SQLITE_AUTOCHECKPOINT_PAGES = 10_000
SQLITE_CHECKPOINT_SECONDS = 0.5


def sqlite_pragmas(dbapi_connection: object, _record: object = None) -> None:
    """Settings of every SQLite connection (the benchmark floor uses them too, to compare like with like)."""
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
    # Reads through a shared memory map of the file rather than each connection's own page cache,
    # and sorts and temporary indexes in memory.
    cursor.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
    cursor.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
    cursor.execute("PRAGMA temp_store=MEMORY")
    # The request that fills the write-ahead log past this many pages copies it back into the database
    # (tens of ms): a large bound, so that the server's background checkpoints do it instead.
    cursor.execute(f"PRAGMA wal_autocheckpoint={SQLITE_AUTOCHECKPOINT_PAGES}")
    cursor.close()
    # Imported here: the query language's package imports this module (its lists run on sessions).
    from spot.querylang.text import register_sqlite_functions

    register_sqlite_functions(dbapi_connection)  # type: ignore[arg-type]


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False}, **POOL)
        event.listen(engine, "connect", sqlite_pragmas)
        return engine
    # Sessions in UTC: the driver then gives time stamps in UTC already (UtcDateTime), and SQL that
    # turns a time stamp into a day or a text does it the same whatever the server's default.
    engine = create_engine(url, connect_args={"options": "-c TimeZone=UTC"}, **POOL)
    ping_after_idle(engine)
    event.listen(engine, "do_execute", _custom_plan)
    return engine


# An execution option for statements whose best plan depends on their values (lists: filters, their
# counts). PostgreSQL's driver prepares a statement after five runs, and the server may then switch
# to a generic plan made for any value: twice as slow, for instance, to count the subjects of one
# cartography. Such statements are never prepared: each run is planned with its values.
CUSTOM_PLAN = "spot_custom_plan"


def _custom_plan(cursor: Any, statement: str, parameters: Any, context: Any) -> bool | None:
    if not context.execution_options.get(CUSTOM_PLAN):
        return None  # SQLAlchemy runs it as usual
    cursor.execute(statement, parameters, prepare=False)
    return True


# A pooled connection may have been closed by the server (a restart, an idle timeout) while it sat
# unused. Testing it on every checkout (SQLAlchemy's pool_pre_ping) costs each request a round trip;
# under load connections come back within milliseconds, so only one idle for longer is tested.
PING_AFTER_IDLE_SECONDS = 5.0
_IDLE_SINCE = "spot_idle_since"


def ping_after_idle(engine: Engine) -> None:
    """Test a connection taken from the pool when it has been idle for PING_AFTER_IDLE_SECONDS; a
    dead one is replaced (DisconnectionError makes the pool connect again, up to three times)."""

    @event.listens_for(engine, "checkin")
    def checkin(_dbapi_connection: Any, record: Any) -> None:
        record.info[_IDLE_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop(_IDLE_SINCE, None)
        if since is None or time.monotonic() - since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            dbapi_connection.rollback()  # out of the transaction the test began, as the pool hands it out
        except engine.dialect.loaded_dbapi.Error as error:
            raise exc.DisconnectionError(str(error)) from error


def start_sqlite_checkpoints(engine: Engine, every: float = SQLITE_CHECKPOINT_SECONDS) -> Callable[[], None]:
    """Copy the write-ahead log back into an SQLite database from a thread of its own, every `every`
    seconds, so that no request pays for it; returns what stops the thread. PASSIVE: it never waits
    for, nor blocks, readers and writers (SQLite releases the GIL while it works)."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every):
            try:
                with engine.connect() as connection:
                    connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception as exc:  # the next round tries again; requests checkpoint past the bound
                log.warning("background checkpoint failed: %s", exc)

    thread = threading.Thread(target=run, name="sqlite-checkpoints", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(timeout=5)

    return halt


# Requests hold a connection each from their first statement to their end; they interleave only where
# a route awaits (a password hash, a provider's answer), so a few connections serve a worker.
# Last in, first out: the connection just given back serves the next request. An SQLite connection
# whose pages another connection's write made stale reads them again (a subject page, which writes
# its read, found its session later through the pool's oldest connection than through its newest:
# docs/performance.md, "How requests run"); on PostgreSQL the busy connections are the ones with
# prepared statements.
POOL = {"pool_size": 10, "max_overflow": 20, "pool_use_lifo": True}


@lru_cache
def get_engine() -> Engine:
    return make_engine(get_settings().database_url)


@lru_cache
def session_factory() -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


# Set on the session of a hot read (core.routing.Kind): what it writes is the tracking of its reads
# (and at most one statement of it), each statement its own transaction on PostgreSQL.
SAFE_REQUEST = "spot_safe_request"
# Set on a request's session once its route has ended it: it may not begin again (_refuse_reuse).
_ENDED = "spot_ended"

# Where a request keeps its session (request_session), for the route that ends it (core.routing.SpotRoute).
REQUEST_SESSION = "spot.db"


class SessionEnded(RuntimeError):
    """The request's session was used after its route ended it: a streamed body, or a background
    task, that reads the database opens its own session (core.routing.streamed)."""


@event.listens_for(Session, "after_transaction_create")
def _refuse_reuse(session: Session, transaction: Any) -> None:
    if transaction.parent is None and session.info.get(_ENDED):
        raise SessionEnded(
            "the request's session is closed: a streamed body opens its own (core.routing.streamed)"
        )


def request_session(request: Request) -> Session:
    """The request's session, opened at its first use: the request is the transaction, which its
    route ends as its kind says (core.routing): committed once the response is ready, or rolled back
    on error.

    Routes but work routes are coroutines and run their statements on the event loop (see
    docs/performance.md): database calls take microseconds on SQLite and a round trip on PostgreSQL,
    far less than a trip through the thread pool, and a transaction that never awaits between its first
    write and its commit cannot interleave with another request's in this process."""
    opened: Session | None = request.scope.get(REQUEST_SESSION)
    if opened is not None:
        return opened
    route: Any = request.scope.get("route")
    if not getattr(route, "ends_request_session", False):
        raise RuntimeError(f"{request.url.path}: a route using the database must be built by api_router")
    session = session_factory()()
    hot = route.kind == "hot read"
    session.info[SAFE_REQUEST] = hot
    if hot and session.get_bind().dialect.name == "postgresql":
        # A hot read writes one statement at most, the tracking of its read (history.lazy_read_with):
        # each statement is then its own transaction, which spares the round trips of BEGIN and
        # COMMIT. Its reads see what they would in one READ COMMITTED transaction: each statement's
        # own snapshot.
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    request.scope[REQUEST_SESSION] = session
    return session


async def request_db(request: Request) -> Session:
    """The `DB` dependency: the request's session (request_session). A plain dependency, not one
    with yield: FastAPI's exit stacks around a dependency with yield add to every request's cost
    (docs/performance.md, "How requests run")."""
    return request_session(request)


def end_request(scope: MutableMapping[str, Any], *, commit: bool) -> None:
    """Commit (or roll back) and close the session request_db opened for the request, if any. The
    session may not begin again (SessionEnded), but by reopen."""
    session: Session | None = scope.pop(REQUEST_SESSION, None)
    if session is None:
        return
    try:
        if commit:
            session.commit()
        else:
            session.rollback()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
        session.info[_ENDED] = True


def reopen(session: Session) -> None:
    """Let an ended session begin again: a work route's, in its worker thread (core.routing)."""
    session.info.pop(_ENDED, None)
    session.info[SAFE_REQUEST] = False


def plain(db: Session) -> Connection:
    """The session's connection, for statements over plain columns: what they select or write holds
    no ORM entity. Run there, a statement skips the ORM's handling of it (its cost is in
    docs/performance.md; a subject page runs six). Changes pending in the session are flushed first, as
    the ORM would."""
    db.flush()
    return db.connection()


async def off_the_loop(db: Session, work: Callable[[], T]) -> T:
    """`work()`, the rest of a route's database work on `db`: on PostgreSQL in the thread pool, where
    its transaction also ends (commit, or rollback on error) and its connection goes back to the pool;
    inline on SQLite. For list pages, which spend most of their time waiting for PostgreSQL: while one
    waits in a thread, the event loop serves other requests. Calls that mostly run Python gain nothing:
    the subject page served fewer requests a second in the pool. The figures of both are in
    docs/performance.md, "How requests run".

    The transaction ends in the thread so that no lock it took waits on the event loop: a statement
    there that waited for such a lock would hold the loop, and with it the commit that frees the lock.
    On SQLite, whose statements run in this process, the thread hand-offs cost more than they save.
    Values of the work's ORM objects stay readable after the commit (expire_on_commit=False)."""
    if db.get_bind().dialect.name != "postgresql":
        return work()

    def unit() -> T:
        try:
            result = work()
            db.commit()
            return result
        except BaseException:
            db.rollback()
            raise
        finally:
            db.close()

    return await run_in_threadpool(unit)


MODEL_MODULES = ["spot.users.models", "spot.permissions.models", "spot.account.models"]
MODEL_MODULES += ["spot.core.history_models", "spot.mapping.models", "spot.subjects.models"]
MODEL_MODULES += ["spot.filters.models"]
MODEL_MODULES += ["spot.resources.models"]
MODEL_MODULES += ["spot.discussions.models"]
MODEL_MODULES += ["spot.core.signatures"]
MODEL_MODULES += ["spot.mediations.models"]
MODEL_MODULES += ["spot.references.models"]
MODEL_MODULES += ["spot.lms.models", "spot.lms.scorm.models"]
MODEL_MODULES += ["spot.training.modules.models", "spot.training.paths.models"]
MODEL_MODULES += ["spot.qualifications.models"]
MODEL_MODULES += ["spot.reports.models"]
MODEL_MODULES += ["spot.apitokens.models", "spot.notifications.models"]
MODEL_MODULES += ["spot.notifications.scan_models"]
MODEL_MODULES += ["spot.documents.models"]
MODEL_MODULES += ["spot.jobs.models"]
MODEL_MODULES += ["spot.operations.models"]


def load_models() -> None:
    """Import every area's tables so that the metadata is complete (migrations, tests)."""
    import importlib

    for name in MODEL_MODULES:
        importlib.import_module(name)


def alembic_config(url: str | None = None):
    from alembic.config import Config

    config = Config(str(Path(__file__).resolve().parents[2] / "alembic.ini"))
    if url:
        config.attributes["url"] = url
    return config


def migrate(url: str | None = None) -> None:
    from alembic import command

    command.upgrade(alembic_config(url), "heads")
