"""Subjects take their ids from the map items' series (mapping.models.MapItemId), so that an id of
`itemIds` names one item of the hierarchy; the migration registers the subjects made before it and
starts the series past every subject id ever given (the history's deleted ones included)."""

import os
from collections.abc import Iterator

import pytest
from alembic import command
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url

from mapping.maps import Map, load
from spot import db as database
from spot.mapping.models import MapItemId
from support import API

BEFORE, SHARED = "c8e2f4a6b1d3", "d5a1f3c7e9b2"


@pytest.fixture
def test_map(db) -> Map:
    return load(db)


def test_a_new_subject_takes_an_id_no_other_item_has(client, db, test_map, make_user, login) -> None:
    headers = login(make_user(permissions=["perm_EditPdv"]))
    response = client.post(
        f"{API}/subject",
        json={
            "name": "Nouveau sujet",
            "type": "risk",
            "cartographyId": test_map.cartography("C1"),
            "functionId": test_map.function("F1"),
            "activityId": test_map.activity("A12"),
        },
        headers=headers,
    )
    assert response.status_code == 200, response.text
    subject_id = response.json()["id"]
    assert db.scalar(select(MapItemId.type).where(MapItemId.id == subject_id)) == "subject"
    # Every subject of the map is in the series, none under another item's id.
    types = dict(db.execute(select(MapItemId.id, MapItemId.type)).tuples().all())
    assert all(types[test_map.subject(code)] == "subject" for code in ("S1", "S2", "S3", "T1"))


@pytest.fixture
def empty_database_url(tmp_path) -> Iterator[str]:
    """A database of its own, migrated by the test: a file on SQLite, a new database on PostgreSQL."""
    base = os.environ.get("SPOT_TEST_DATABASE_URL")
    if not base:
        yield f"sqlite:///{tmp_path / 'before.db'}"
        return
    name = f"spot_test_mig_{os.getpid()}"
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


ROWS = [
    "INSERT INTO map_item_id (id, type)"
    " VALUES (1, 'site'), (2, 'cartography'), (3, 'function'), (4, 'activity')",
    "INSERT INTO site (id, code, name) VALUES (1, 'S', 'Site')",
    "INSERT INTO cartography (id, site_id, code, name, ordering, image_width, image_height)"
    " VALUES (2, 1, 'C', 'Carto', 0, 0, 0)",
    "INSERT INTO function (id, cartography_id, code, name, ordering) VALUES (3, 2, 'F', 'Fonction', 0)",
    "INSERT INTO activity (id, cartography_id, code, name, ordering) VALUES (4, 2, 'A', 'Activité', 0)",
    # Subject 3 was made when subjects had a series of their own: function 3 has its id.
    *(
        "INSERT INTO subject (id, code, name, name_folded, code_folded, type, cartography_id,"
        " function_id, activity_id, frequency, gravity, detectability, standardized_comment,"
        f" has_diagram, version) VALUES ({n}, 'S{n}', 'Sujet', 'sujet', 's{n}', 'risk', 2, 3, 4,"
        " 0, 0, 0, '', false, 1)"
        for n in (3, 10, 11)
    ),
    # Subject 13, deleted before the migration, is named by the history.
    "INSERT INTO history_entry (at, item_type, item_id, item_key, item_name, mode)"
    " VALUES ('2026-01-01 00:00:00', 'subject', 13, 'S13', 'Ancien', 'W')",
]


def test_the_migration_registers_subjects_and_starts_past_every_subject_id(app, empty_database_url) -> None:
    config = database.alembic_config(empty_database_url)
    command.upgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.begin() as connection:
        for statement in ROWS:
            connection.exec_driver_sql(statement)

    command.upgrade(config, SHARED)

    with engine.begin() as connection:
        run = connection.exec_driver_sql
        assert run("SELECT id, type FROM map_item_id ORDER BY id").all() == [
            (1, "site"),
            (2, "cartography"),
            (3, "function"),  # stays the function's: subjectIds names subject 3
            (4, "activity"),
            (10, "subject"),
            (11, "subject"),
        ]
        # The next item of any kind goes past subject 13 of the history.
        assert run("INSERT INTO map_item_id (type) VALUES ('subject') RETURNING id").scalar() == 14
    engine.dispose()
    command.downgrade(config, BEFORE)
    engine = database.make_engine(empty_database_url)
    with engine.connect() as connection:
        subjects = connection.exec_driver_sql("SELECT count(*) FROM map_item_id WHERE type = 'subject'")
        assert subjects.scalar() == 0
    engine.dispose()
