"""On PostgreSQL a pooled connection is tested before use only after it sat idle
(spot.db.PING_AFTER_IDLE_SECONDS): a server restart while the pool waits is survived, and busy
connections cost no extra round trip."""

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import OperationalError

from spot import db as database

PID = text("SELECT pg_backend_pid()")


@pytest.fixture
def engine(app) -> Iterator[Engine]:
    url = database.get_engine().url
    if url.get_backend_name() != "postgresql":
        pytest.skip("PostgreSQL only")
    engine = database.make_engine(url.render_as_string(hide_password=False))
    yield engine
    engine.dispose()


def _pooled_connection_killed(engine: Engine) -> int:
    """Leaves one idle connection in the pool, whose server process has been ended."""
    with engine.connect() as connection:
        pid = connection.scalar(PID)
    with database.get_engine().connect() as admin:
        assert admin.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    return pid


def test_a_connection_that_died_while_idle_is_replaced(engine, monkeypatch):
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.0)
    dead = _pooled_connection_killed(engine)
    with engine.connect() as connection:
        assert connection.scalar(PID) != dead


def test_a_connection_back_within_the_delay_is_not_tested(engine, monkeypatch):
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 3600.0)
    _pooled_connection_killed(engine)
    with pytest.raises(OperationalError), engine.connect() as connection:
        connection.scalar(PID)


def test_a_tested_connection_is_left_outside_any_transaction(engine, monkeypatch):
    """The test must not open a transaction that a caller asking for autocommit would trip on."""
    monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.0)
    with engine.connect() as connection:
        connection.scalar(PID)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        assert connection.scalar(text("SELECT 1")) == 1
