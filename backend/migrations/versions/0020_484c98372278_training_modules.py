"""training modules: modules and their ordered elements, and the minimal path tables their usage is
counted from (the training paths migration builds on them)

Revision ID: 484c98372278
Revises: 036778a7bcf7
Create Date: 2026-12-02 13:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "484c98372278"
down_revision: str | None = "036778a7bcf7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _folded(length: int) -> sa.types.TypeEngine:
    return sa.String(length=length).with_variant(sa.String(length=length, collation="C"), "postgresql")


def upgrade() -> None:
    op.create_table(
        "training_module",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("name_folded", _folded(300), server_default="", nullable=False),
        sa.Column("module_type", sa.String(length=20), nullable=False),
        sa.Column("reference_id", sa.Integer(), nullable=True),
        sa.Column("goals", sa.Text(), nullable=False),
        sa.Column("goals_folded", sa.Text(), server_default="", nullable=False),
        sa.Column("estimated_duration", sa.Integer(), nullable=False),
        sa.Column("periodicity", sa.Integer(), nullable=False),
        sa.Column("pass_threshold", sa.Integer(), nullable=False),
        sa.Column("enabled", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["user.id"], name=op.f("fk_training_module_creator_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["reference_id"],
            ["training_reference.id"],
            name=op.f("fk_training_module_reference_id_training_reference"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_training_module")),
    )
    op.create_index(op.f("ix_training_module_created_at"), "training_module", ["created_at"])
    op.create_index(op.f("ix_training_module_creator_id"), "training_module", ["creator_id"])
    op.create_index("ix_training_module_name_folded", "training_module", ["name_folded", "id"])
    op.create_index(op.f("ix_training_module_reference_id"), "training_module", ["reference_id"])

    op.create_table(
        "training_module_item",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("module_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("spot_item_type", sa.String(length=20), nullable=True),
        sa.Column("spot_item_id", sa.Integer(), nullable=True),
        sa.Column("title", sa.String(length=300), nullable=True),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("url", sa.String(length=2000), nullable=True),
        sa.Column("label", sa.String(length=300), nullable=True),
        sa.Column("lms_item_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["lms_item_id"],
            ["lms_item.id"],
            name=op.f("fk_training_module_item_lms_item_id_lms_item"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["module_id"],
            ["training_module.id"],
            name=op.f("fk_training_module_item_module_id_training_module"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_training_module_item")),
        sa.UniqueConstraint("module_id", "position", name="uq_training_module_item_position"),
    )
    op.create_index(op.f("ix_training_module_item_lms_item_id"), "training_module_item", ["lms_item_id"])

    op.create_table(
        "training_path",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("reference_id", sa.Integer(), nullable=True),
        sa.Column("learner_id", sa.Integer(), nullable=True),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["user.id"], name=op.f("fk_training_path_creator_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["learner_id"], ["user.id"], name=op.f("fk_training_path_learner_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["reference_id"],
            ["training_reference.id"],
            name=op.f("fk_training_path_reference_id_training_reference"),
            ondelete="RESTRICT",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_training_path")),
    )
    op.create_index(op.f("ix_training_path_creator_id"), "training_path", ["creator_id"])
    op.create_index(op.f("ix_training_path_learner_id"), "training_path", ["learner_id"])
    op.create_index(op.f("ix_training_path_reference_id"), "training_path", ["reference_id"])
    op.create_index(op.f("ix_training_path_status"), "training_path", ["status"])

    op.create_table(
        "training_path_module",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("path_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("module_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["module_id"],
            ["training_module.id"],
            name=op.f("fk_training_path_module_module_id_training_module"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["path_id"],
            ["training_path.id"],
            name=op.f("fk_training_path_module_path_id_training_path"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_training_path_module")),
    )
    op.create_index(op.f("ix_training_path_module_module_id"), "training_path_module", ["module_id"])
    op.create_index("ix_training_path_module_path", "training_path_module", ["path_id", "position"])


def downgrade() -> None:
    op.drop_table("training_path_module")
    op.drop_table("training_path")
    op.drop_table("training_module_item")
    op.drop_table("training_module")
