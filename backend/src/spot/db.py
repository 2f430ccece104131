import threading
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, Engine, MetaData, TypeDecorator, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from spot.config import get_settings
from spot.querylang.text import register_sqlite_functions

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


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


SQLITE_BUSY_SECONDS = 5
SQLITE_MMAP_BYTES = 2 << 30
SQLITE_CACHE_KIB = 32 << 10


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
    cursor.close()
    register_sqlite_functions(dbapi_connection)  # type: ignore[arg-type]


def _queue_sqlite_writers(engine: Engine) -> None:
    """SQLite lets one transaction write at a time and makes the others retry after sleeping 1, 2,
    5, 10... ms (busy_timeout): concurrent requests that all record history would spend their time
    asleep while the database idles. In this process they queue on a lock instead, held from a
    transaction's first write until its connection returns to the pool (after the commit or
    rollback). Other processes still meet SQLite's own locking, as does a writer that waited here
    longer than busy_timeout."""
    lock = threading.Lock()

    def take(conn: Any, _cursor: Any, _statement: str, _params: Any, context: Any, _many: bool) -> None:
        writes = context is not None and (context.isinsert or context.isupdate or context.isdelete)
        if writes and not conn.info.get(_WRITING) and lock.acquire(timeout=SQLITE_BUSY_SECONDS):
            conn.info[_WRITING] = True

    def release(_dbapi_connection: Any, record: Any) -> None:
        if record.info.pop(_WRITING, False):
            lock.release()

    event.listen(engine, "before_cursor_execute", take)
    event.listen(engine.pool, "checkin", release)


_WRITING = "spot_writing"


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False}, **POOL)
        event.listen(engine, "connect", sqlite_pragmas)
        _queue_sqlite_writers(engine)
        return engine
    return create_engine(url, pool_pre_ping=True, **POOL)


# Sync routes run in a thread pool of 40 (anyio's default), each holding at most one connection while
# it runs: the pool keeps enough open that concurrent requests never open and close connections.
POOL = {"pool_size": 20, "max_overflow": 20}


@lru_cache
def get_engine() -> Engine:
    return make_engine(get_settings().database_url)


@lru_cache
def session_factory() -> sessionmaker[Session]:
    return sessionmaker(bind=get_engine(), expire_on_commit=False)


async def get_db() -> AsyncIterator[Session]:
    """The request is the transaction: commit once after the route returns, roll back on error.

    Async, so that opening the session (no I/O yet) costs no trip through the thread pool; the
    commit and the rollback, which do I/O, go through it."""
    session = session_factory()()
    try:
        yield session
        await run_in_threadpool(session.commit)
    except BaseException:
        await run_in_threadpool(session.rollback)
        raise
    finally:
        session.close()


MODEL_MODULES = ["spot.users.models", "spot.permissions.models", "spot.account.models"]
MODEL_MODULES += ["spot.history.models", "spot.mapping.models", "spot.subjects.models"]
MODEL_MODULES += ["spot.filters.models"]


def load_models() -> None:
    """Import every area's tables so that the metadata is complete (migrations, tests)."""
    import importlib

    for name in MODEL_MODULES:
        importlib.import_module(name)


def alembic_config(url: str | None = None):  # noqa: ANN201
    from alembic.config import Config

    config = Config(str(Path(__file__).resolve().parents[2] / "alembic.ini"))
    if url:
        config.attributes["url"] = url
    return config


def migrate(url: str | None = None) -> None:
    from alembic import command

    command.upgrade(alembic_config(url), "heads")
