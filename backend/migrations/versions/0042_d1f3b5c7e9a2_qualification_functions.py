"""the functions a qualification opens and each function's minimum of qualified people

qualification_function: the functions of its cartographies a qualification qualifies its holders for
(none named: the modules' spot elements say it, as before). function.minimum_qualified: how many
qualified people the function needs (default 3, 0..1000), against which coverage is measured.

Revision ID: d1f3b5c7e9a2
Revises: c0e2a4b6d8f1
Create Date: 2026-12-19 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "d1f3b5c7e9a2"
down_revision: str | None = "c0e2a4b6d8f1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "qualification_function",
        sa.Column("qualification_id", sa.Integer(), nullable=False),
        sa.Column("function_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["qualification_id"],
            ["qualification.id"],
            name=op.f("fk_qualification_function_qualification_id_qualification"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["function_id"],
            ["function.id"],
            name=op.f("fk_qualification_function_function_id_function"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("qualification_id", "function_id", name=op.f("pk_qualification_function")),
    )
    op.create_index("ix_qualification_function_function_id", "qualification_function", ["function_id"])
    # A plain ADD COLUMN with a constant default: SQLite keeps the table as it is.
    op.add_column(
        "function", sa.Column("minimum_qualified", sa.Integer(), nullable=False, server_default="3")
    )


def downgrade() -> None:
    with op.batch_alter_table("function") as batch:
        batch.drop_column("minimum_qualified")
    op.drop_index("ix_qualification_function_function_id", table_name="qualification_function")
    op.drop_table("qualification_function")
