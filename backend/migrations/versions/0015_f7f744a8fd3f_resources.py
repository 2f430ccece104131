"""resources: the galleries of cartographies, functions and subjects

Revision ID: f7f744a8fd3f
Revises: 8f78d6649b44
Create Date: 2026-11-30 05:40:00.000000

A resource names its parent by type and id (core.parents), so no foreign key removes it with its
parent: triggers do, on each parent table, whoever deletes the parent (a route, a map import, the
cascade from a cartography). Without them, SQLite, which may give a deleted row's id to the next
one, would show a deleted subject's resources on a new subject.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f7f744a8fd3f"
down_revision: str | None = "8f78d6649b44"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PARENT_TABLES = ("cartography", "function", "subject")


def upgrade() -> None:
    op.create_table(
        "resource",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("parent_type", sa.String(length=30), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=False),
        sa.Column("resource_type", sa.String(length=10), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("link", sa.String(length=2000), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("ordering", sa.Integer(), nullable=False),
        sa.Column("file_ref", sa.String(length=64), nullable=True),
        sa.Column("thumbnail_ref", sa.String(length=64), nullable=True),
        sa.Column("media_type", sa.String(length=100), nullable=True),
        sa.Column("size", sa.BigInteger(), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user.id"], name=op.f("fk_resource_created_by_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["updated_by"], ["user.id"], name=op.f("fk_resource_updated_by_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_resource")),
    )
    op.create_index("ix_resource_parent", "resource", ["parent_type", "parent_id", "ordering"], unique=False)
    # core.files looks stored names up in these columns before removing a file.
    op.create_index(op.f("ix_resource_file_ref"), "resource", ["file_ref"], unique=False)
    op.create_index(op.f("ix_resource_thumbnail_ref"), "resource", ["thumbnail_ref"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """CREATE FUNCTION resource_parent_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                DELETE FROM resource WHERE parent_type = TG_ARGV[0] AND parent_id = OLD.id;
                RETURN NULL;
            END $$"""
        )
        for table in PARENT_TABLES:
            op.execute(
                f'CREATE TRIGGER resource_of_{table}_deleted AFTER DELETE ON "{table}" '
                f"FOR EACH ROW EXECUTE FUNCTION resource_parent_deleted('{table}')"
            )
    else:
        for table in PARENT_TABLES:
            op.execute(
                f'CREATE TRIGGER resource_of_{table}_deleted AFTER DELETE ON "{table}" BEGIN '
                f"DELETE FROM resource WHERE parent_type = '{table}' AND parent_id = OLD.id; END"
            )


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in PARENT_TABLES:
        op.execute(
            f"DROP TRIGGER IF EXISTS resource_of_{table}_deleted" + (f' ON "{table}"' if postgresql else "")
        )
    if postgresql:
        op.execute("DROP FUNCTION IF EXISTS resource_parent_deleted()")
    op.drop_index(op.f("ix_resource_thumbnail_ref"), table_name="resource")
    op.drop_index(op.f("ix_resource_file_ref"), table_name="resource")
    op.drop_index("ix_resource_parent", table_name="resource")
    op.drop_table("resource")
