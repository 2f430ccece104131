"""The documents of a site (the DUERP) and the prevention measures of a subject

subject.prevention_measures: optional text printed in the DUERP. site_document: each generated version
of a site's document, written once: a trigger refuses any UPDATE of a row (docs/documents.md).

Revision ID: d7f9b1c3e5a8
Revises: c6e8a0b2d4f7
Create Date: 2026-12-25 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d7f9b1c3e5a8"
down_revision: str | None = "c6e8a0b2d4f7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("subject", sa.Column("prevention_measures", sa.Text(), server_default="", nullable=False))
    op.create_table(
        "site_document",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("site_id", sa.Integer(), nullable=False),
        sa.Column("site_code", sa.String(length=100), nullable=False),
        sa.Column("site_name", sa.String(length=300), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(length=2), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_by_name", sa.String(length=300), nullable=False),
        sa.Column("work_units", sa.Integer(), nullable=False),
        sa.Column("risks", sa.Integer(), nullable=False),
        sa.Column("actions", sa.Integer(), nullable=False),
        sa.Column("pdf_ref", sa.String(length=64), nullable=False),
        sa.Column("pdf_sha256", sa.String(length=64), nullable=False),
        sa.Column("pdf_size", sa.Integer(), nullable=False),
        sa.Column("xlsx_ref", sa.String(length=64), nullable=False),
        sa.Column("xlsx_sha256", sa.String(length=64), nullable=False),
        sa.Column("xlsx_size", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("site_id", "kind", "version", name="uq_site_document_version"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_site_document_site", "site_document", ["site_id", "kind"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "CREATE TRIGGER site_document_written_once BEFORE UPDATE ON site_document "
            "BEGIN SELECT RAISE(ABORT, 'a version of a site document never changes'); END"
        )
    else:
        op.execute(
            "CREATE FUNCTION site_document_written_once() RETURNS trigger LANGUAGE plpgsql AS $$ "
            "BEGIN RAISE EXCEPTION 'a version of a site document never changes'; END $$"
        )
        op.execute(
            "CREATE TRIGGER site_document_written_once BEFORE UPDATE ON site_document "
            "FOR EACH ROW EXECUTE FUNCTION site_document_written_once()"
        )


def downgrade() -> None:
    op.drop_index("ix_site_document_site", table_name="site_document")
    op.drop_table("site_document")
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP FUNCTION site_document_written_once()")
    with op.batch_alter_table("subject") as batch:
        batch.drop_column("prevention_measures")
