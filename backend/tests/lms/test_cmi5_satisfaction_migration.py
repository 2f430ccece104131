"""Migration 0045 (cmi5 satisfaction): the units that the rows already there satisfy — the first
completion, the first passed attempt, the registration for NotApplicable units, as each unit's moveOn
asks — are written satisfied at the time it happened; and it goes down again."""

import os
import uuid
from collections.abc import Iterator
from datetime import datetime

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spot import db as database

BEFORE, AFTER = "f3b5d7e9a1c4", "a4c6e8f0b2d5"
VERB = "http://adlnet.gov/expapi/verbs/"


@pytest.fixture
def empty_database_url(tmp_path) -> Iterator[str]:
    """A database of its own, migrated by the test: a file on SQLite, a new database on PostgreSQL."""
    base = os.environ.get("SPOT_TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp_path / 'before.db'}"
        return
    name = f"spot_test_mig45_{os.getpid()}"
    admin = create_engine(make_url(base).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(drivername="postgresql+psycopg", database=name).render_as_string(False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# Units by id: their moveOn, whether the learner completed them (day) and passed them (day).
UNITS = {
    10: ("Completed", 3, None),
    11: ("Completed", None, 4),
    12: ("Passed", 2, 5),
    13: ("CompletedAndPassed", 6, 7),
    14: ("CompletedAndPassed", 6, None),
    15: ("CompletedOrPassed", 9, 8),
    16: ("NotApplicable", None, None),
    17: (None, None, None),
}
REGISTERED_ON = 1


def _at(day: int) -> str:
    return f"2026-01-{day:02d} 10:00:00"


def test_the_migration_writes_what_earlier_results_satisfied(app, empty_database_url) -> None:
    config = database.alembic_config(empty_database_url)
    command.upgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.begin() as connection:
        for user_id, login in ((1, "lea"), (2, "marc")):
            connection.exec_driver_sql(
                'INSERT INTO "user" (id, login, first_name, last_name, password_hash, created_at)'
                f" VALUES ({user_id}, '{login}', 'L', 'M', 'x', '2026-01-01 00:00:00')"
            )
        connection.exec_driver_sql(
            "INSERT INTO lms_course (id, activity_id, title, description, lang, content_key, imported_at,"
            " version)"
            " VALUES (1, 'https://example.com/c', 'Cours', '', 'fr', 'k', '2026-01-01 00:00:00', 1)"
        )
        connection.exec_driver_sql(
            "INSERT INTO lms_item (id, course_id, kind, activity_id, name, description, url, position)"
            " VALUES (9, 1, 'group', 'https://example.com/b', 'Bloc', '', '', 0)"
        )
        for item_id, (move_on, completed, passed) in UNITS.items():
            connection.execute(
                text(
                    "INSERT INTO lms_item (id, course_id, parent_id, kind, activity_id, name, description,"
                    " url, move_on, position)"
                    " VALUES (:id, 1, 9, 'quiz', :aid, 'U', '', 'index.html', :move_on, :id)"
                ),
                {"id": item_id, "aid": f"https://example.com/au/{item_id}", "move_on": move_on},
            )
            for verb, day in (("completed", completed), ("passed", passed)):
                if day is None:
                    continue
                statement = connection.execute(
                    text(
                        "INSERT INTO lms_statement (statement_id, user_id, item_id, registration, verb,"
                        " content, stored_at) VALUES (:sid, 1, :item, 'r1', :verb, '{}', :at) RETURNING id"
                    ),
                    {"sid": str(uuid.uuid4()), "item": item_id, "verb": VERB + verb, "at": _at(day)},
                ).scalar_one()
                if verb == "completed":
                    connection.execute(
                        text(
                            "INSERT INTO lms_completion (user_id, item_id, statement_id, completed_at)"
                            " VALUES (1, :item, :statement, :at)"
                        ),
                        {"item": item_id, "statement": statement, "at": _at(day)},
                    )
                else:
                    connection.execute(
                        text(
                            "INSERT INTO lms_attempt (user_id, item_id, statement_id, registration, grade,"
                            " success, at)"
                            " VALUES (1, :item, :statement, 'r1', 9.0, true, :at)"
                        ),
                        {"item": item_id, "statement": statement, "at": _at(day)},
                    )
        # Léa is registered in the course; Marc never launched it: nothing of his is satisfied.
        connection.exec_driver_sql(
            "INSERT INTO lms_registration (user_id, course_id, registration, created_at)"
            f" VALUES (1, 1, 'r1', '{_at(REGISTERED_ON)}')"
        )
    engine.dispose()
    command.upgrade(config, AFTER)
    engine = database.make_engine(empty_database_url)
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT user_id, item_id, scope, registration, method, satisfied_at FROM lms_satisfaction"
            " ORDER BY item_id"
        ).all()
    engine.dispose()

    def day_of(value: object) -> int:
        when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
        return when.day

    assert [(r[0], r[1], r[2], r[3], r[4], day_of(r[5])) for r in rows] == [
        (1, 10, "au", "r1", "moveOn", 3),
        (1, 12, "au", "r1", "moveOn", 5),
        (1, 13, "au", "r1", "moveOn", 7),
        (1, 15, "au", "r1", "moveOn", 8),
        (1, 16, "au", "r1", "notApplicable", REGISTERED_ON),
        (1, 17, "au", "r1", "notApplicable", REGISTERED_ON),
    ]
    command.downgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.connect() as connection:
        tables = connection.exec_driver_sql(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = 'lms_satisfaction'"
            if engine.dialect.name == "postgresql"
            else "SELECT count(*) FROM sqlite_master WHERE name = 'lms_satisfaction'"
        ).scalar_one()
        assert tables == 0
    engine.dispose()
