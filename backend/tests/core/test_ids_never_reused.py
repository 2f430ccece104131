"""An id is never given twice: deleting the newest subject, module or qualification and creating another
gives the new one another id (and the subject another code), on SQLite as on PostgreSQL. On SQLite every
table with an integer key of its own has AUTOINCREMENT (db.Base, and the migration that rebuilt the tables
made before), which the migration test checks keeps rows, indexes and triggers."""

from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import Integer, Table, create_engine, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateTable

from mapping.maps import Map, load
from qualifications.world import ADMIN, BOARD, QUALIFICATIONS, body, group, module
from spot import db as database
from support import API
from training.catalogue import MANAGE, MODULES
from training.catalogue import form as module_form

SUBJECT_RIGHTS = ["perm_EditPdv", "perm_RemPdv"]
# The migration that rebuilt SQLite's tables with AUTOINCREMENT, and the one before it.
REBUILD = "b6f1c2d9e8a4"


@pytest.fixture
def test_map(db) -> Map:
    return load(db)


def created_deleted_created(client, url: str, payload: dict, headers: dict[str, str]) -> tuple[int, int]:
    first = client.post(url, json=payload, headers=headers)
    assert first.status_code == 200, first.text
    deleted = client.delete(f"{url}/{first.json()['id']}", headers=headers)
    assert deleted.status_code == 204, deleted.text
    second = client.post(url, json=payload, headers=headers)
    assert second.status_code == 200, second.text
    return first.json()["id"], second.json()["id"]


def test_a_subject_gets_neither_the_id_nor_the_code_of_the_newest_deleted_one(
    client, test_map, make_user, login
):
    headers = login(make_user(permissions=SUBJECT_RIGHTS))
    payload = {
        "name": "Nouveau sujet",
        "type": "risk",
        "cartographyId": test_map.cartography("C1"),
        "functionId": test_map.function("F1"),
        "activityId": test_map.activity("A12"),
    }
    deleted, created = created_deleted_created(client, f"{API}/subject", payload, headers)
    assert created > deleted
    assert client.get(f"{API}/subject/{created}", headers=headers).json()["code"] != f"S{deleted}"


def test_a_module_gets_another_id(client, test_map, make_user, login):
    headers = login(make_user(permissions=[MANAGE]))
    deleted, created = created_deleted_created(client, MODULES, module_form(test_map), headers)
    assert created > deleted


def test_a_qualification_gets_another_id(client, db, make_user, login):
    headers = login(make_user(permissions=[BOARD, ADMIN]))
    payload = body("Conduite", groups=[group(db, "Équipe")], modules=[module(db, "Habilitation")])
    deleted, created = created_deleted_created(client, QUALIFICATIONS, payload, headers)
    assert created > deleted


def _schema(url: str) -> dict[str, str | None]:
    engine = create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT type || ' ' || name, sql FROM sqlite_master"
                " WHERE type IN ('index', 'trigger', 'table')"
            )
        ).all()
    engine.dispose()
    return dict(rows)  # type: ignore[arg-type]


# A small map, three subjects (the middle one with a validated main node), and a history entry of a
# fourth subject deleted before the migration.
ROWS = [
    "INSERT INTO user (id, login, first_name, last_name, password_hash, created_at)"
    " VALUES (1, 'a', 'A', 'B', '', '2026-01-01 00:00:00')",
    "INSERT INTO map_item_id (id, type)"
    " VALUES (1, 'site'), (2, 'cartography'), (3, 'function'), (4, 'activity')",
    "INSERT INTO site (id, code, name) VALUES (1, 'S', 'Site')",
    "INSERT INTO cartography (id, site_id, code, name, ordering, image_width, image_height)"
    " VALUES (2, 1, 'C', 'Carto', 0, 0, 0)",
    "INSERT INTO function (id, cartography_id, code, name, ordering) VALUES (3, 2, 'F', 'Fonction', 0)",
    "INSERT INTO activity (id, cartography_id, code, name, ordering) VALUES (4, 2, 'A', 'Activité', 0)",
    *(
        "INSERT INTO subject (id, code, name, name_folded, code_folded, type, cartography_id,"
        " function_id, activity_id, frequency, gravity, detectability, standardized_comment,"
        f" has_diagram, version, created_by) VALUES ({n}, 'S{n}', 'Consignation', 'consignation',"
        f" 's{n}', 'risk', 2, 3, 4, 0, 0, 0, '', 0, 1, 1)"
        for n in (10, 11, 12)
    ),
    "INSERT INTO mind_map_item (subject_id, code, name, status) VALUES (11, 0, 'Consignation', 'validated')",
    "INSERT INTO history_entry (at, user_id, item_type, item_id, item_key, item_name, mode)"
    " VALUES ('2026-01-01 00:00:00', 1, 'subject', 13, 'S13', 'Ancien', 'W')",
]
NEW_SUBJECT = (
    "INSERT INTO subject (code, name, type, cartography_id, function_id, activity_id, frequency,"
    " gravity, detectability, standardized_comment, has_diagram, version)"
    " VALUES ('X', 'X', 'risk', 2, 3, 4, 0, 0, 0, '', 0, 1)"
)


def test_the_sqlite_rebuild_keeps_rows_indexes_and_triggers_and_gives_no_id_again(
    app, tmp_path: Path
) -> None:
    if database.get_engine().dialect.name != "sqlite":
        pytest.skip("PostgreSQL's sequences never gave an id again")
    url = f"sqlite:///{tmp_path / 'before.db'}"
    config = database.alembic_config(url)
    command.upgrade(config, f"{REBUILD}-1")
    engine = database.make_engine(url)
    with engine.begin() as connection:
        for statement in ROWS:
            connection.exec_driver_sql(statement)
    engine.dispose()
    before = _schema(url)

    command.upgrade(config, REBUILD)

    after = _schema(url)
    assert {k: v for k, v in after.items() if not k.startswith("table ")} == {
        k: v for k, v in before.items() if not k.startswith("table ")
    }
    assert "AUTOINCREMENT" in (after["table subject"] or "")
    engine = database.make_engine(url)
    with engine.begin() as connection:
        run = connection.exec_driver_sql
        assert run("SELECT id, code, created_by FROM subject ORDER BY id").all() == [
            (10, "S10", 1),
            (11, "S11", 1),
            (12, "S12", 1),
        ]
        # The triggers work: the main node's status is the subject's, search finds the subjects.
        assert run("SELECT main_node_status FROM subject WHERE id = 11").scalar() == "validated"
        run("UPDATE mind_map_item SET status = 'inProgress' WHERE subject_id = 11 AND code = 0")
        assert run("SELECT main_node_status FROM subject WHERE id = 11").scalar() == "inProgress"
        assert (
            run("SELECT count(*) FROM subject_trigrams WHERE subject_trigrams MATCH 'onsign'").scalar() == 3
        )
        # New ids go past the largest ever given, the history's included.
        run("INSERT INTO map_item_id (type) VALUES ('site')")
        assert run("SELECT max(id) FROM map_item_id").scalar() == 5
        run(NEW_SUBJECT)
        assert run("SELECT max(id) FROM subject").scalar() == 14
        # The foreign keys still cascade.
        run("DELETE FROM function WHERE id = 3")
        assert run("SELECT count(*) FROM subject").scalar() == 0
    engine.dispose()


def _own_integer_key(table: Table) -> bool:
    keys = list(table.primary_key.columns)
    return len(keys) == 1 and isinstance(keys[0].type, Integer) and not keys[0].foreign_keys


def test_every_table_with_an_integer_key_of_its_own_autoincrements_on_sqlite(app) -> None:
    """The models say so (db.Base), and so do the tables that the migrations made, those of a migration
    after the rebuild included (op.create_table(..., sqlite_autoincrement=True))."""
    # The history's rows are never deleted: its ids cannot come back (HistoryEntry).
    tables = [
        t for t in database.Base.metadata.sorted_tables if _own_integer_key(t) and t.name != "history_entry"
    ]
    assert {"subject", "training_module", "qualification", "resource"} <= {t.name for t in tables}
    for table in tables:
        assert "AUTOINCREMENT" in str(CreateTable(table).compile(dialect=sqlite.dialect())), table.name
    if database.get_engine().dialect.name != "sqlite":
        return
    with database.get_engine().connect() as connection:
        stored = dict(
            connection.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all()
        )
    assert [t.name for t in tables if "AUTOINCREMENT" not in stored[t.name]] == []
