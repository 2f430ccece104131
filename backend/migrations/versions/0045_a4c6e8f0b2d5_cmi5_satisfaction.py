"""cmi5 satisfaction: units, blocks and courses satisfied or waived per learner and registration

lms_satisfaction: a unit (its moveOn met, NotApplicable once registered, or waived by an administrator),
a block or the course (item_id NULL: all their units satisfied) a learner satisfied, once each. The
units already satisfied by what was recorded before (completions, passed attempts, registrations for
NotApplicable units) are written from those rows, at the time they happened; blocks and courses follow
at the learner's next statement (docs/learning-platform.md, "Satisfaction").

Revision ID: a4c6e8f0b2d5
Revises: f3b5d7e9a1c4
Create Date: 2026-12-22 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "a4c6e8f0b2d5"
down_revision: str | None = "f3b5d7e9a1c4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "lms_satisfaction",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.Integer(), nullable=True),
        sa.Column("scope", sa.String(length=10), nullable=False),
        sa.Column("registration", sa.String(length=36), nullable=False),
        sa.Column("method", sa.String(length=20), nullable=False),
        sa.Column("reason", sa.String(length=40), nullable=True),
        sa.Column("waived_by", sa.Integer(), nullable=True),
        sa.Column("statement_id", sa.Integer(), nullable=True),
        sa.Column("satisfied_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_lms_satisfaction_user_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["course_id"],
            ["lms_course.id"],
            name=op.f("fk_lms_satisfaction_course_id_lms_course"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["item_id"], ["lms_item.id"], name=op.f("fk_lms_satisfaction_item_id_lms_item"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["waived_by"], ["user.id"], name=op.f("fk_lms_satisfaction_waived_by_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["statement_id"],
            ["lms_statement.id"],
            name=op.f("fk_lms_satisfaction_statement_id_lms_statement"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lms_satisfaction")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_lms_satisfaction_course_id", "lms_satisfaction", ["course_id"])
    op.create_index(
        "uq_lms_satisfaction_user_item",
        "lms_satisfaction",
        ["user_id", "item_id"],
        unique=True,
        sqlite_where=sa.text("item_id IS NOT NULL"),
        postgresql_where=sa.text("item_id IS NOT NULL"),
    )
    op.create_index(
        "uq_lms_satisfaction_user_course",
        "lms_satisfaction",
        ["user_id", "course_id"],
        unique=True,
        sqlite_where=sa.text("item_id IS NULL"),
        postgresql_where=sa.text("item_id IS NULL"),
    )
    _satisfied_from_earlier_results()


def _satisfied_from_earlier_results() -> None:
    """Units whose moveOn the rows already there meet: the first completion, the first passed attempt,
    the registration for NotApplicable units, each at the time it happened."""
    bind = op.get_bind()
    registrations = {
        (user_id, course_id): (registration, created_at)
        for user_id, course_id, registration, created_at in bind.execute(
            sa.text("SELECT user_id, course_id, registration, created_at FROM lms_registration")
        )
    }
    if not registrations:
        return
    completed = {
        (user_id, item_id): at
        for user_id, item_id, at in bind.execute(
            sa.text("SELECT user_id, item_id, completed_at FROM lms_completion")
        )
    }
    passed = {
        (user_id, item_id): at
        for user_id, item_id, at in bind.execute(
            sa.text("SELECT user_id, item_id, MIN(at) FROM lms_attempt WHERE success GROUP BY user_id, item_id")
        )
    }
    units = list(
        bind.execute(
            sa.text("SELECT id, course_id, move_on FROM lms_item WHERE kind IN ('resource', 'quiz')")
        )
    )
    users_of: dict[int, list[int]] = {}
    for user_id, course_id in registrations:
        users_of.setdefault(course_id, []).append(user_id)
    rows = []
    for item_id, course_id, move_on in units:
        for user_id in users_of.get(course_id, []):
            registration, registered_at = registrations[(user_id, course_id)]
            done, success = completed.get((user_id, item_id)), passed.get((user_id, item_id))
            method = "moveOn"
            if move_on == "Completed":
                at = done
            elif move_on == "Passed":
                at = success
            elif move_on == "CompletedAndPassed":
                at = max(done, success) if done is not None and success is not None else None
            elif move_on == "CompletedOrPassed":
                at = min((t for t in (done, success) if t is not None), default=None)
            else:
                at, method = registered_at, "notApplicable"
            if at is not None:
                rows.append(
                    {
                        "user_id": user_id,
                        "course_id": course_id,
                        "item_id": item_id,
                        "registration": registration,
                        "method": method,
                        "at": at,
                    }
                )
    if rows:
        bind.execute(
            sa.text(
                "INSERT INTO lms_satisfaction (user_id, course_id, item_id, scope, registration, method,"
                " satisfied_at) VALUES (:user_id, :course_id, :item_id, 'au', :registration, :method, :at)"
            ),
            rows,
        )


def downgrade() -> None:
    op.drop_index("uq_lms_satisfaction_user_course", table_name="lms_satisfaction")
    op.drop_index("uq_lms_satisfaction_user_item", table_name="lms_satisfaction")
    op.drop_index("ix_lms_satisfaction_course_id", table_name="lms_satisfaction")
    op.drop_table("lms_satisfaction")
