"""lms: the learning platform's cmi5 courses and items, and what its runtime records (launches,
statements, activity state, quiz attempts, completions)

Revision ID: 036778a7bcf7
Revises: eb79f0b7555c
Create Date: 2026-12-02 12:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "036778a7bcf7"
down_revision: str | None = "eb79f0b7555c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lms_course",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("activity_id", sa.String(length=500), nullable=False),
        sa.Column("title", sa.String(length=500), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("lang", sa.String(length=35), nullable=False),
        sa.Column("content_key", sa.String(length=64), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("imported_by", sa.Integer(), nullable=True),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["imported_by"], ["user.id"], name=op.f("fk_lms_course_imported_by_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_course")),
        sa.UniqueConstraint("activity_id", name=op.f("uq_lms_course_activity_id")),
    )
    op.create_table(
        "lms_state",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("activity_id", sa.String(length=500), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("state_id", sa.String(length=500), nullable=False),
        sa.Column("content", sa.LargeBinary(), nullable=False),
        sa.Column("content_type", sa.String(length=255), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_state_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_state")),
        sa.UniqueConstraint(
            "user_id", "activity_id", "registration", "state_id", name="uq_lms_state_user_activity"
        ),
    )
    op.create_table(
        "lms_item",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("activity_id", sa.String(length=500), nullable=False),
        sa.Column("name", sa.String(length=500), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("move_on", sa.String(length=30), nullable=True),
        sa.Column("mastery_score", sa.Float(), nullable=True),
        sa.Column("launch_parameters", sa.Text(), nullable=True),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["lms_course.id"],
            name=op.f("fk_lms_item_course_id_lms_course"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["parent_id"], ["lms_item.id"], name=op.f("fk_lms_item_parent_id_lms_item"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_item")),
        sa.UniqueConstraint("course_id", "activity_id", name="uq_lms_item_course_activity"),
    )
    with op.batch_alter_table("lms_item", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lms_item_course_id"), ["course_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_lms_item_parent_id"), ["parent_id"], unique=False)

    op.create_table(
        "lms_launch",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("session_id", sa.String(length=36), nullable=False),
        sa.Column("fetch_token_hash", sa.String(length=64), nullable=False),
        sa.Column("fetch_used", sa.Boolean(), nullable=False),
        sa.Column("auth_token_hash", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_launch_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_launch_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_launch")),
        sa.UniqueConstraint("auth_token_hash", name=op.f("uq_lms_launch_auth_token_hash")),
        sa.UniqueConstraint("fetch_token_hash", name=op.f("uq_lms_launch_fetch_token_hash")),
        sa.UniqueConstraint("key", name=op.f("uq_lms_launch_key")),
    )
    with op.batch_alter_table("lms_launch", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lms_launch_item_id"), ["item_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_lms_launch_registration"), ["registration"], unique=False)
        batch_op.create_index(batch_op.f("ix_lms_launch_user_id"), ["user_id"], unique=False)

    op.create_table(
        "lms_statement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("statement_id", sa.String(length=36), nullable=False),
        sa.Column("launch_id", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("verb", sa.String(length=500), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_statement_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["launch_id"],
            ["lms_launch.id"],
            name=op.f("fk_lms_statement_launch_id_lms_launch"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_statement_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_statement")),
        sa.UniqueConstraint("statement_id", name=op.f("uq_lms_statement_statement_id")),
    )
    with op.batch_alter_table("lms_statement", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lms_statement_item_id"), ["item_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_lms_statement_launch_id"), ["launch_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_lms_statement_user_id"), ["user_id"], unique=False)

    op.create_table(
        "lms_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("statement_id", sa.Integer(), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("grade", sa.Float(), nullable=False),
        sa.Column("success", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_attempt_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["statement_id"],
            ["lms_statement.id"],
            name=op.f("fk_lms_attempt_statement_id_lms_statement"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_attempt_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_attempt")),
        sa.UniqueConstraint("statement_id", name=op.f("uq_lms_attempt_statement_id")),
    )
    with op.batch_alter_table("lms_attempt", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lms_attempt_item_id"), ["item_id"], unique=False)
        batch_op.create_index("ix_lms_attempt_user_item", ["user_id", "item_id"], unique=False)

    op.create_table(
        "lms_completion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=False),
        sa.Column("statement_id", sa.Integer(), nullable=True),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_completion_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["statement_id"],
            ["lms_statement.id"],
            name=op.f("fk_lms_completion_statement_id_lms_statement"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_completion_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_completion")),
        sa.UniqueConstraint("user_id", "item_id", name="uq_lms_completion_user_item"),
    )
    with op.batch_alter_table("lms_completion", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_lms_completion_item_id"), ["item_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("lms_completion", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lms_completion_item_id"))

    op.drop_table("lms_completion")
    with op.batch_alter_table("lms_attempt", schema=None) as batch_op:
        batch_op.drop_index("ix_lms_attempt_user_item")
        batch_op.drop_index(batch_op.f("ix_lms_attempt_item_id"))

    op.drop_table("lms_attempt")
    with op.batch_alter_table("lms_statement", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lms_statement_user_id"))
        batch_op.drop_index(batch_op.f("ix_lms_statement_launch_id"))
        batch_op.drop_index(batch_op.f("ix_lms_statement_item_id"))

    op.drop_table("lms_statement")
    with op.batch_alter_table("lms_launch", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lms_launch_user_id"))
        batch_op.drop_index(batch_op.f("ix_lms_launch_registration"))
        batch_op.drop_index(batch_op.f("ix_lms_launch_item_id"))

    op.drop_table("lms_launch")
    with op.batch_alter_table("lms_item", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_lms_item_parent_id"))
        batch_op.drop_index(batch_op.f("ix_lms_item_course_id"))

    op.drop_table("lms_item")
    op.drop_table("lms_state")
    op.drop_table("lms_course")
