"""the warnings sent to managers about a function falling under its minimum

coverage_warning: each (manager, function, day it falls under its minimum) warned, once ever, by the
daily scan's coverage step (notifications.coverage); a later fall of the same function (another day)
is another warning. Each scan keeps the row's figures (qualified that day, minimum) and marks a fall
that no longer holds as resolved: the bell shows the falls still ahead and unresolved.

Revision ID: e2a4c6d8f0b3
Revises: d1f3b5c7e9a2
Create Date: 2026-12-20 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "e2a4c6d8f0b3"
down_revision: str | None = "d1f3b5c7e9a2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "coverage_warning",
        sa.Column("manager_id", sa.Integer(), nullable=False),
        sa.Column("function_id", sa.Integer(), nullable=False),
        sa.Column("falls_on", sa.Date(), nullable=False),
        sa.Column("warned_on", sa.Date(), nullable=False),
        sa.Column("valid", sa.Integer(), nullable=False),
        sa.Column("minimum", sa.Integer(), nullable=False),
        sa.Column("resolved_on", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(
            ["manager_id"], ["user.id"], name=op.f("fk_coverage_warning_manager_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["function_id"],
            ["function.id"],
            name=op.f("fk_coverage_warning_function_id_function"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("manager_id", "function_id", "falls_on", name=op.f("pk_coverage_warning")),
    )
    op.create_index("ix_coverage_warning_falls_on", "coverage_warning", ["falls_on"])
    op.create_index("ix_coverage_warning_function_id", "coverage_warning", ["function_id"])


def downgrade() -> None:
    op.drop_index("ix_coverage_warning_function_id", table_name="coverage_warning")
    op.drop_index("ix_coverage_warning_falls_on", table_name="coverage_warning")
    op.drop_table("coverage_warning")
