"""Jobs: long work run outside the request (docs/operations.md, "Jobs")

job: each job asked for, its owner, progress, result file and heartbeat (jobs.models); report_progress
goes (the path report's zip is a job). On PostgreSQL,
procrastinate's schema too (its tables, types and functions, as procrastinate 3.10 writes them), the
queue that hands jobs to runners (jobs.queue). A later procrastinate whose schema changes brings its
migration scripts (procrastinate/sql/migrations): a migration of Spot applies them.

Revision ID: f9b1d3e5a7c0
Revises: d7f9b1c3e5a8
Create Date: 2026-12-29 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f9b1d3e5a7c0"
down_revision: str | None = "d7f9b1c3e5a8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("parameters", sa.JSON(), nullable=False),
        sa.Column("language", sa.String(length=2), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result_file", sa.String(length=64), nullable=True),
        sa.Column("download_name", sa.String(length=200), nullable=True),
        sa.Column("media_type", sa.String(length=100), nullable=True),
        sa.Column("error", sa.String(length=60), nullable=True),
        sa.Column("summary", sa.JSON(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("queue_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("downloaded_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["owner_id"], ["user.id"], name=op.f("fk_job_owner_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_job_status", "job", ["status"])
    op.create_index(op.f("ix_job_owner_id"), "job", ["owner_id"])
    # The zip's progress was a row the client polled while the zip streamed: its job's now.
    op.drop_table("report_progress")
    if op.get_bind().dialect.name == "postgresql":
        from procrastinate.schema import SchemaManager

        # As procrastinate applies it (SchemaManager.apply_schema): its % doubled for the driver.
        op.get_bind().exec_driver_sql(SchemaManager.get_schema().replace("%", "%%"))


def downgrade() -> None:
    # procrastinate's schema stays: dropping it would lose the jobs of another version's runners.
    op.drop_index(op.f("ix_job_owner_id"), table_name="job")
    op.drop_index("ix_job_status", table_name="job")
    op.drop_table("job")
    op.create_table(
        "report_progress",
        sa.Column("id", sa.String(length=36), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name="fk_report_progress_user_id_user", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_report_progress"),
    )
    op.create_index("ix_report_progress_user_id", "report_progress", ["user_id"])
