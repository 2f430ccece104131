"""one learning-platform registration per learner and course

A learner's registration was the one of their earliest launch of the course, else a new one: two
first launches at once each made their own. It is now a row per learner and course (its primary key
keeps it one), taken from the earliest launch of each for what was launched before.

Revision ID: e4b7a2c95d13
Revises: a7d3e9c41b58
Create Date: 2026-12-07 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "e4b7a2c95d13"
down_revision: str | None = "a7d3e9c41b58"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lms_registration",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["course_id"], ["lms_course.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "course_id"),
    )
    op.create_index("ix_lms_registration_course_id", "lms_registration", ["course_id"])
    op.execute(
        "INSERT INTO lms_registration (user_id, course_id, registration, created_at) "
        "SELECT l.user_id, i.course_id, l.registration, l.created_at "
        "FROM lms_launch l JOIN lms_item i ON i.id = l.item_id "
        "WHERE l.id IN (SELECT MIN(f.id) FROM lms_launch f JOIN lms_item g ON g.id = f.item_id "
        "GROUP BY f.user_id, g.course_id)"
    )


def downgrade() -> None:
    op.drop_index("ix_lms_registration_course_id", table_name="lms_registration")
    op.drop_table("lms_registration")
