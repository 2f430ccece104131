"""On SQLite the server copies the write-ahead log back into the database from a thread of its own,
so that no request pays for it (README, Performance)."""

import threading
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, text

from spot import db as database
from spot.main import create_app

CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)"


def test_the_server_checkpoints_in_the_background_while_it_runs() -> None:
    engine = database.get_engine()
    if engine.dialect.name != "sqlite":
        pytest.skip("SQLite only")
    with engine.connect() as connection:
        bound = connection.execute(text("PRAGMA wal_autocheckpoint")).scalar()
    assert bound == database.SQLITE_AUTOCHECKPOINT_PAGES
    seen: list[str] = []

    def capture(_conn, _cursor, statement, *_args) -> None:
        if statement == CHECKPOINT:
            seen.append(threading.current_thread().name)

    event.listen(engine, "before_cursor_execute", capture)
    try:
        with TestClient(create_app()):
            deadline = time.monotonic() + 10
            while len(seen) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
        assert seen[:2] == ["sqlite-checkpoints"] * 2
        stopped = len(seen)
        time.sleep(database.SQLITE_CHECKPOINT_SECONDS * 3)
        assert len(seen) == stopped, "the thread stops with the app"
    finally:
        event.remove(engine, "before_cursor_execute", capture)
