"""requalification opened on time

The qualification's requalification window and default referents, the paths Spot opens itself,
and the record of each hold a requalification was opened for.

Revision ID: c0e2a4b6d8f1
Revises: b8d0f2a4c6e8
Create Date: 2026-12-18 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "c0e2a4b6d8f1"
down_revision: str | None = "b8d0f2a4c6e8"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs with a constant default: SQLite keeps the tables (and their triggers) as they are.
    op.add_column(
        "qualification",
        sa.Column("requalification_window_days", sa.Integer(), nullable=False, server_default="60"),
    )
    op.add_column(
        "training_path", sa.Column("opened_by_spot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "qualification_referent",
        sa.Column("qualification_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["qualification_id"],
            ["qualification.id"],
            name=op.f("fk_qualification_referent_qualification_id_qualification"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_qualification_referent_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("qualification_id", "user_id", name=op.f("pk_qualification_referent")),
    )
    op.create_index("ix_qualification_referent_user_id", "qualification_referent", ["user_id"])
    op.create_table(
        "requalification_opening",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("module_id", sa.Integer(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=False),
        sa.Column("path_id", sa.Integer(), nullable=True),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_requalification_opening_user_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["module_id"],
            ["training_module.id"],
            name=op.f("fk_requalification_opening_module_id_training_module"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["path_id"],
            ["training_path.id"],
            name=op.f("fk_requalification_opening_path_id_training_path"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("user_id", "module_id", "valid_until", name=op.f("pk_requalification_opening")),
    )
    op.create_index("ix_requalification_opening_path_id", "requalification_opening", ["path_id"])
    op.create_index("ix_requalification_opening_module_id", "requalification_opening", ["module_id"])


def downgrade() -> None:
    op.drop_index("ix_requalification_opening_module_id", table_name="requalification_opening")
    op.drop_index("ix_requalification_opening_path_id", table_name="requalification_opening")
    op.drop_table("requalification_opening")
    op.drop_index("ix_qualification_referent_user_id", table_name="qualification_referent")
    op.drop_table("qualification_referent")
    # Plain DROP COLUMNs (SQLite 3.35+): the tables are not rebuilt, so training_path keeps the
    # module_hold triggers (migration 3b9e6c1d7a52).
    op.drop_column("training_path", "opened_by_spot")
    op.drop_column("qualification", "requalification_window_days")
