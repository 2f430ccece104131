"""Migration 0044 (cmi5 sessions): statements stored before it learn whether they are cmi5 defined and
their object, launches whose session ended (terminated, or abandoned) are closed; and it goes down
again."""

import json
import os
from collections.abc import Iterator

import pytest
from alembic import command
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spot import db as database

BEFORE, AFTER = "e2a4c6d8f0b3", "f3b5d7e9a1c4"
CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
VERB = "http://adlnet.gov/expapi/verbs/"


@pytest.fixture
def empty_database_url(tmp_path) -> Iterator[str]:
    """A database of its own, migrated by the test: a file on SQLite, a new database on PostgreSQL."""
    base = os.environ.get("SPOT_TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp_path / 'before.db'}"
        return
    name = f"spot_test_mig44_{os.getpid()}"
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


def _statement(verb: str, *, defined: bool, target: str = "urn:uuid:au") -> str:
    category = [{"id": CMI5}] if defined else []
    return json.dumps(
        {
            "verb": {"id": VERB + verb},
            "object": {"id": target},
            "context": {"contextActivities": {"category": category}},
        }
    )


ROWS = [
    'INSERT INTO "user" (id, login, first_name, last_name, password_hash, created_at)'
    " VALUES (1, 'lea', 'Léa', 'Martin', 'x', '2026-01-01 00:00:00')",
    "INSERT INTO lms_course (id, activity_id, title, description, lang, content_key, imported_at, version)"
    " VALUES (1, 'https://example.com/c', 'Cours', '', 'fr', 'k', '2026-01-01 00:00:00', 1)",
    "INSERT INTO lms_item (id, course_id, kind, activity_id, name, description, url, position)"
    " VALUES (2, 1, 'resource', 'https://example.com/au', 'Lecture', '', 'index.html', 0)",
    *(
        "INSERT INTO lms_launch (id, key, user_id, item_id, registration, session_id, fetch_token_hash,"
        f" fetch_used, created_at, expires_at) VALUES ({n}, 'k{n}', 1, 2, 'r', 's{n}', 'h{n}', true,"
        " '2026-01-01 00:00:00', '2030-01-01 00:00:00')"
        for n in (1, 2)
    ),
]
STATEMENTS = [
    (1, 1, "launched", True, "urn:uuid:au"),
    (2, 1, "initialized", True, "urn:uuid:au"),
    (3, 1, "experienced", False, "https://example.com/page"),
    (4, 1, "terminated", True, "urn:uuid:au"),
    (5, 2, "launched", True, "urn:uuid:au"),
]


def test_the_migration_fills_what_statements_and_sessions_were(app, empty_database_url) -> None:
    config = database.alembic_config(empty_database_url)
    command.upgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.begin() as connection:
        for statement in ROWS:
            connection.exec_driver_sql(statement)
        for row_id, launch_id, verb, defined, target in STATEMENTS:
            connection.execute(
                text(
                    "INSERT INTO lms_statement (id, statement_id, launch_id, user_id, item_id, registration,"
                    " verb, content, stored_at) VALUES (:id, :sid, :launch, 1, 2, 'r', :verb, :content,"
                    " '2026-01-02 10:00:00')"
                ),
                {
                    "id": row_id,
                    "sid": f"00000000-0000-4000-8000-00000000000{row_id}",
                    "launch": launch_id,
                    "verb": VERB + verb,
                    "content": _statement(verb, defined=defined, target=target),
                },
            )
    engine.dispose()
    command.upgrade(config, AFTER)
    engine = database.make_engine(empty_database_url)
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT id, defined, object_id FROM lms_statement ORDER BY id"
        ).all()
        assert [(row_id, bool(defined), target) for row_id, defined, target in rows] == [
            (row_id, defined, target) for row_id, _, _, defined, target in STATEMENTS
        ]
        launches = connection.exec_driver_sql(
            "SELECT id, launch_mode, closed_at FROM lms_launch ORDER BY id"
        ).all()
        assert [(row[0], row[1], row[2] is not None) for row in launches] == [
            (1, "Normal", True),
            (2, "Normal", False),
        ]
    engine.dispose()
    command.downgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.connect() as connection:
        columns = connection.exec_driver_sql("SELECT * FROM lms_statement").keys()
        assert "defined" not in columns and "object_id" not in columns
    engine.dispose()
