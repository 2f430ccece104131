"""SCORM 1.2 and 2004 courses: the package's standard and each learner's SCO attempts

lms_course.standard: cmi5, scorm12 or scorm2004 (the courses there are cmi5). lms_scorm_course: a SCORM
course's edition and its organization's navigation; lms_scorm_item: each item's SCORM type (sco, asset,
"" for a cluster), navigation and time limits; lms_scorm_attempt: a learner's attempts at a SCO, with
the run-time data of their last commit.

Revision ID: b5d7f9a1c3e6
Revises: a4c6e8f0b2d5
Create Date: 2026-12-23 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "b5d7f9a1c3e6"
down_revision: str | None = "a4c6e8f0b2d5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "lms_course", sa.Column("standard", sa.String(length=10), server_default="cmi5", nullable=False)
    )
    op.create_table(
        "lms_scorm_course",
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("edition", sa.String(length=30), nullable=False),
        sa.Column("choice", sa.Boolean(), nullable=False),
        sa.Column("flow", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["lms_course.id"],
            name=op.f("fk_lms_scorm_course_course_id_lms_course"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("course_id", name=op.f("pk_lms_scorm_course")),
    )
    op.create_table(
        "lms_scorm_item",
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("scorm_type", sa.String(length=5), nullable=False),
        sa.Column("choice", sa.Boolean(), nullable=False),
        sa.Column("flow", sa.Boolean(), nullable=False),
        sa.Column("max_time_allowed", sa.String(length=50), nullable=True),
        sa.Column("time_limit_action", sa.String(length=30), nullable=True),
        sa.Column("completion_threshold", sa.Float(), nullable=True),
        sa.Column("completion_set_by_content", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_scorm_item_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("item_id", name=op.f("pk_lms_scorm_item")),
    )
    op.create_table(
        "lms_scorm_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("launch_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("terminated_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended", sa.Boolean(), nullable=False),
        sa.Column("commits", sa.Integer(), nullable=False),
        sa.Column("entry", sa.String(length=10), nullable=False),
        sa.Column("exit", sa.String(length=20), nullable=False),
        sa.Column("completion_status", sa.String(length=20), nullable=False),
        sa.Column("success_status", sa.String(length=10), nullable=False),
        sa.Column("lesson_status", sa.String(length=20), nullable=True),
        sa.Column("score_raw", sa.Float(), nullable=True),
        sa.Column("score_min", sa.Float(), nullable=True),
        sa.Column("score_max", sa.Float(), nullable=True),
        sa.Column("score_scaled", sa.Float(), nullable=True),
        sa.Column("location", sa.Text(), nullable=False),
        sa.Column("suspend_data", sa.Text(), nullable=False),
        sa.Column("session_seconds", sa.Float(), nullable=False),
        sa.Column("total_seconds", sa.Float(), nullable=False),
        sa.Column("earlier_seconds", sa.Float(), nullable=False),
        sa.Column("interactions", sa.Text(), nullable=False),
        sa.Column("cmi", sa.Text(), nullable=False),
        sa.Column("lms_attempt_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_scorm_attempt_user_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["item_id"],
            ["lms_item.id"],
            name=op.f("fk_lms_scorm_attempt_item_id_lms_item"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["launch_id"],
            ["lms_launch.id"],
            name=op.f("fk_lms_scorm_attempt_launch_id_lms_launch"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["lms_attempt_id"],
            ["lms_attempt.id"],
            name=op.f("fk_lms_scorm_attempt_lms_attempt_id_lms_attempt"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_scorm_attempt")),
        sa.UniqueConstraint(
            "user_id", "item_id", "number", name=op.f("uq_lms_scorm_attempt_user_item_number")
        ),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_lms_scorm_attempt_item_id", "lms_scorm_attempt", ["item_id"])
    op.create_index("ix_lms_scorm_attempt_launch_id", "lms_scorm_attempt", ["launch_id"])


def downgrade() -> None:
    op.drop_index("ix_lms_scorm_attempt_launch_id", table_name="lms_scorm_attempt")
    op.drop_index("ix_lms_scorm_attempt_item_id", table_name="lms_scorm_attempt")
    op.drop_table("lms_scorm_attempt")
    op.drop_table("lms_scorm_item")
    op.drop_table("lms_scorm_course")
    with op.batch_alter_table("lms_course") as batch:
        batch.drop_column("standard")
