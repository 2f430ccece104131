"""SQLite: an FTS5 trigram table for 'contains' on subjects' folded name and code

Revision ID: 5b8e0c3f9a17
Revises: d41f8c27a6e3
Create Date: 2026-11-26 10:00:00.000000

A filter `name contains x` is `name_folded LIKE '%x%'`, which no b-tree serves: SQLite matched the
pattern against every folded name for a list's count. An FTS5 table with the trigram tokenizer
finds the same subjects from the trigrams of x: a phrase of three characters or more matches exactly
the texts that hold it. It indexes the folded columns as they
are (case_sensitive 1: they are folded already, and the filter's value is folded the same way), as
an external-content table over `subject`, kept by triggers, so it cannot drift from the rows.
PostgreSQL serves the LIKE with its pg_trgm indexes (7c1e5a9d2b40) and has nothing to do here.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "5b8e0c3f9a17"
down_revision: str | None = "d41f8c27a6e3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "subject_trigrams"
COLUMNS = "name_folded, code_folded"
OLD = "old.id, old.name_folded, old.code_folded"
NEW = "new.id, new.name_folded, new.code_folded"

UPGRADE = [
    f"""CREATE VIRTUAL TABLE {TABLE} USING fts5({COLUMNS}, content='subject', content_rowid='id',
    tokenize='trigram case_sensitive 1')""",
    f"INSERT INTO {TABLE} ({TABLE}) VALUES ('rebuild')",
    f"""CREATE TRIGGER {TABLE}_insert AFTER INSERT ON subject BEGIN
        INSERT INTO {TABLE} (rowid, {COLUMNS}) VALUES ({NEW});
    END""",
    f"""CREATE TRIGGER {TABLE}_delete AFTER DELETE ON subject BEGIN
        INSERT INTO {TABLE} ({TABLE}, rowid, {COLUMNS}) VALUES ('delete', {OLD});
    END""",
    f"""CREATE TRIGGER {TABLE}_update AFTER UPDATE OF name_folded, code_folded ON subject BEGIN
        INSERT INTO {TABLE} ({TABLE}, rowid, {COLUMNS}) VALUES ('delete', {OLD});
        INSERT INTO {TABLE} (rowid, {COLUMNS}) VALUES ({NEW});
    END""",
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for statement in UPGRADE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        return
    for action in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER {TABLE}_{action}")
    op.execute(f"DROP TABLE {TABLE}")
