"""SQLite tables never give an id again: AUTOINCREMENT on every integer primary key

Without AUTOINCREMENT, SQLite gives a new row the largest id + 1: deleting the newest subject and
creating another gave the new one the deleted one's id (and its code, S{id}), so that bookmarks,
legacy links, messages and report references named an unrelated record. PostgreSQL's sequences never
go back; nothing changes there.

SQLite cannot add AUTOINCREMENT to a table: each table with an integer primary key of its own (not a
foreign key) whose rows may be deleted is rebuilt once, by SQLite's own procedure (https://sqlite.org/lang_altertable.html,
"other kinds of table schema changes"): its CREATE statement as stored, with the key written
`PRIMARY KEY AUTOINCREMENT`, the rows copied in one INSERT … SELECT, the old table dropped, the new one
renamed, then its indexes and triggers created again from their stored SQL (dropping a table drops
them). Foreign keys are off while the tables are swapped (a drop would otherwise delete or nullify
the rows of the tables referring to it), and checked before the commit. Each table's sequence starts
at its largest id, or at the largest id the history names for its items when that is larger (the
newest items deleted before this migration).

Revision ID: b6f1c2d9e8a4
Revises: 3f1a9c7d2e54
Create Date: 2026-12-08 09:00:00
"""

import re
from collections.abc import Sequence

from alembic import op
from sqlalchemy import Connection

revision: str = "b6f1c2d9e8a4"
down_revision: str | None = "3f1a9c7d2e54"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Tables whose rows are never deleted cannot give an id again: the history, the largest table by far
# (its rebuild would take most of this migration's time), keeps its plain integer key.
NEVER_DELETED = {"history_entry"}
# The history's item types whose ids are a table's (map items share map_item_id's ids).
HISTORY_TYPES = {
    "subject": ("subject",),
    "mediation": ("mediation",),
    "qualification": ("qualification",),
    "map_item_id": ("site", "cartography", "function", "activity"),
}
REBUILT = "_rebuilt_with_autoincrement"


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _tables(connection: Connection) -> list[tuple[str, str, str]]:
    """(table, key column, CREATE statement) of the tables to rebuild: an INTEGER primary key of one
    column that is not a foreign key, no AUTOINCREMENT yet, rows that may be deleted; virtual tables
    and their shadow tables (full-text search) are SQLite's own."""
    rows = connection.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).all()
    virtual = [name for name, sql in rows if sql.upper().startswith("CREATE VIRTUAL")]
    found = []
    for name, sql in rows:
        if (
            name in NEVER_DELETED
            or name in virtual
            or any(name.startswith(v + "_") for v in virtual)
            or "AUTOINCREMENT" in sql.upper()
        ):
            continue
        keys = [row for row in connection.exec_driver_sql(f"PRAGMA table_info({_quoted(name)})") if row[5]]
        if len(keys) != 1 or keys[0][2].upper() != "INTEGER":
            continue
        key = keys[0][1]
        foreign = {row[3] for row in connection.exec_driver_sql(f"PRAGMA foreign_key_list({_quoted(name)})")}
        if key not in foreign:
            found.append((name, key, sql))
    return found


def _with_autoincrement(name: str, key: str, sql: str) -> str:
    """The table's CREATE statement for its new copy: named REBUILT, the key `PRIMARY KEY
    AUTOINCREMENT` on its column (AUTOINCREMENT cannot go on a table constraint)."""
    key_name = rf'(?:{re.escape(key)}|"{re.escape(key)}")'
    created, n = re.subn(
        r"^CREATE TABLE\s+(?:\"[^\"]+\"|\w+)\s*\(", f"CREATE TABLE {_quoted(name + REBUILT)} (", sql
    )
    constraint = rf",\s*CONSTRAINT\s+(?:\"[^\"]+\"|\w+)\s+PRIMARY KEY\s*\(\s*{key_name}\s*\)"
    created, m = re.subn(constraint, "", created)
    column = rf"([(,]\s*{key_name}\s+INTEGER\s+NOT NULL)(\s*[,)])"
    created, k = re.subn(column, r"\1 PRIMARY KEY AUTOINCREMENT\2", created)
    if (n, m, k) != (1, 1, 1):
        raise RuntimeError(f"{name}: unexpected table definition, not rebuilt: {sql}")
    return created


def _rebuild(connection: Connection, name: str, key: str, sql: str) -> None:
    table, rebuilt = _quoted(name), _quoted(name + REBUILT)
    kept = (
        connection.exec_driver_sql(
            "SELECT sql FROM sqlite_master"
            " WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL",
            (name,),
        )
        .scalars()
        .all()
    )
    columns = ", ".join(_quoted(row[1]) for row in connection.exec_driver_sql(f"PRAGMA table_info({table})"))
    connection.exec_driver_sql(_with_autoincrement(name, key, sql))
    connection.exec_driver_sql(f"INSERT INTO {rebuilt} ({columns}) SELECT {columns} FROM {table}")
    connection.exec_driver_sql(f"DROP TABLE {table}")
    connection.exec_driver_sql(f"ALTER TABLE {rebuilt} RENAME TO {table}")
    for statement in kept:
        connection.exec_driver_sql(statement)
    largest = [f"SELECT max({_quoted(key)}) AS id FROM {table}"]
    types = HISTORY_TYPES.get(name, ())
    if types:
        marks = ", ".join("?" for _ in types)
        largest.append(f"SELECT max(item_id) FROM history_entry WHERE item_type IN ({marks})")
    connection.exec_driver_sql("DELETE FROM sqlite_sequence WHERE name = ?", (name,))
    connection.exec_driver_sql(
        "INSERT INTO sqlite_sequence (name, seq)"
        f" SELECT ?, coalesce(max(id), 0) FROM ({' UNION ALL '.join(largest)})",
        (name, *types),
    )


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    # Foreign keys can be switched off only outside a transaction: this migration ends the one of the
    # migrations before it and runs its own.
    with op.get_context().autocommit_block():
        connection = op.get_bind()
        connection.exec_driver_sql("PRAGMA foreign_keys = OFF")
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                # Renaming the new copy leaves the SQL of other tables' triggers as it is: they name
                # the table, which exists again once renamed.
                connection.exec_driver_sql("PRAGMA legacy_alter_table = ON")
                broken_before = set(connection.exec_driver_sql("PRAGMA foreign_key_check").all())
                for name, key, sql in _tables(connection):
                    _rebuild(connection, name, key, sql)
                connection.exec_driver_sql("PRAGMA legacy_alter_table = OFF")
                broken = set(connection.exec_driver_sql("PRAGMA foreign_key_check").all()) - broken_before
                if broken:
                    raise RuntimeError(f"foreign keys broken by the rebuild: {sorted(broken)[:5]}")
                connection.exec_driver_sql("COMMIT")
            except BaseException:
                connection.exec_driver_sql("ROLLBACK")
                raise
        finally:
            connection.exec_driver_sql("PRAGMA legacy_alter_table = OFF")
            connection.exec_driver_sql("PRAGMA foreign_keys = ON")


def downgrade() -> None:
    """The tables keep AUTOINCREMENT: a table without it would only give deleted ids again."""
