"""reports

Each user's saved path report parameter sets, and the progress of the reports being generated.

Revision ID: 8ff0c0050c72
Revises: 62eda964bd50
Create Date: 2026-11-24 20:56:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "8ff0c0050c72"
down_revision: str | None = "62eda964bd50"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "report_configuration",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("is_default", sa.Boolean(), nullable=False),
        sa.Column("selectors", sa.JSON(), nullable=False),
        sa.Column("document_options", sa.JSON(), nullable=False),
        sa.Column("path_options", sa.JSON(), nullable=False),
        sa.Column("module_options", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_report_configuration_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_configuration")),
        sa.UniqueConstraint("user_id", "name", name=op.f("uq_report_configuration_user_id")),
    )
    op.create_index(op.f("ix_report_configuration_user_id"), "report_configuration", ["user_id"])
    op.create_table(
        "report_progress",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_report_progress_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_report_progress")),
    )
    op.create_index(op.f("ix_report_progress_user_id"), "report_progress", ["user_id"])


def downgrade() -> None:
    op.drop_table("report_progress")
    op.drop_table("report_configuration")
