"""Time stamps go in as UTC and always come back aware and in UTC, on every database."""

from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import bindparam, text

from spot.db import UtcDateTime, get_engine

STAMP = datetime(2026, 3, 29, 1, 30, 5, 120, tzinfo=UTC)


def test_an_aware_stamp_comes_back_aware_in_utc(db):
    paris = STAMP.astimezone(timezone(timedelta(hours=2)))
    at = bindparam("at", paris, type_=UtcDateTime)
    column = text("SELECT :at AS at").bindparams(at).columns(at=UtcDateTime)
    assert db.execute(column).scalar_one() == STAMP
    assert db.execute(column).scalar_one().tzinfo == UTC
    assert db.execute(text("SELECT NULL AS at").columns(at=UtcDateTime)).scalar_one() is None


def test_naive_stamps_are_refused(db):
    with pytest.raises(Exception, match="naive datetime"):
        db.execute(text("SELECT :at").bindparams(bindparam("at", datetime(2026, 1, 1), type_=UtcDateTime)))


@pytest.mark.skipif(get_engine().dialect.name != "sqlite", reason="SQLite stores time stamps as text")
@pytest.mark.parametrize(
    ("stored", "expected"),
    [
        ("2026-03-29 01:30:05.000120", STAMP),
        ("2026-03-29 01:30:05", STAMP.replace(microsecond=0)),
        ("2026-03-29 03:30:05.000120+02:00", STAMP),  # written with its offset by another tool
    ],
)
def test_sqlite_text_is_read_as_utc(db, stored, expected):
    read = db.execute(text("SELECT :stored AS at").bindparams(stored=stored).columns(at=UtcDateTime))
    value = read.scalar_one()
    assert (value, value.tzinfo) == (expected, UTC)


def test_postgresql_sessions_are_in_utc(db):
    """The driver then gives UTC time stamps as they are (UtcDateTime's processor returns them)."""
    if get_engine().dialect.name != "postgresql":
        pytest.skip("PostgreSQL only")
    assert db.execute(text("SHOW TimeZone")).scalar_one() == "UTC"
    column = text("SELECT now() AS at").columns(at=UtcDateTime)
    assert db.execute(column).scalar_one().tzinfo is UTC
