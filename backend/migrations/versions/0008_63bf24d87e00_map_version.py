"""map_version: a number that every change to the map's hierarchy moves, kept by triggers

Revision ID: 63bf24d87e00
Revises: 5b8e0c3f9a17
Create Date: 2026-11-27 10:00:00.000000

Subject pages, lists and the function view show each subject's path through the map (site,
cartography, activities, function). Reading those paths was a recursive statement on every request,
for a hierarchy that changes only when a map is imported. Each process
now keeps the whole hierarchy in memory beside the version it was read at, and a request compares
that with this row (spot.mapping.service.map_paths).

Triggers move the number whoever writes, so no writer can forget to. On PostgreSQL they run once
per statement and before it: a transaction takes this row's lock before any row of the map, so two
writers of the map wait for each other instead of deadlocking. SQLite has only row triggers, and
one writer at a time anyway.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "63bf24d87e00"
down_revision: str | None = "5b8e0c3f9a17"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("site", "cartography", "activity", "function")
BUMP = "UPDATE map_version SET version = version + 1"
POSTGRESQL_FUNCTION = f"""CREATE FUNCTION map_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    {BUMP};
    RETURN NULL;
END $$"""


def upgrade() -> None:
    op.create_table(
        "map_version",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("id = 1", name="ck_map_version_single_row"),
    )
    op.execute("INSERT INTO map_version (id, version) VALUES (1, 1)")
    postgresql = op.get_bind().dialect.name == "postgresql"
    if postgresql:
        op.execute(POSTGRESQL_FUNCTION)
    for table in TABLES:
        if postgresql:
            op.execute(
                f"""CREATE TRIGGER {table}_map_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE
                ON "{table}" FOR EACH STATEMENT EXECUTE FUNCTION map_version_bump()"""
            )
            continue
        for action in ("INSERT", "UPDATE", "DELETE"):
            op.execute(
                f"""CREATE TRIGGER {table}_map_version_{action.lower()} AFTER {action} ON "{table}"
                BEGIN {BUMP}; END"""
            )


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in TABLES:
        if postgresql:
            op.execute(f'DROP TRIGGER {table}_map_version ON "{table}"')
            continue
        for action in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER {table}_map_version_{action}")
    if postgresql:
        op.execute("DROP FUNCTION map_version_bump()")
    op.drop_table("map_version")
