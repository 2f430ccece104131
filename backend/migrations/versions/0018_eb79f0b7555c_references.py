"""references: training references (module, path, function, subject, qualification), one list per type

Revision ID: eb79f0b7555c
Revises: 90de64dbb453
Create Date: 2026-12-02 09:00:00.000000

Training modules and paths point to a reference by its id (their own migrations add the foreign keys).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "eb79f0b7555c"
down_revision: str | None = "90de64dbb453"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _folded(length: int) -> sa.types.TypeEngine:
    return sa.String(length=length).with_variant(sa.String(length=length, collation="C"), "postgresql")


def upgrade() -> None:
    op.create_table(
        "training_reference",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(length=20), nullable=False),
        sa.Column("code", sa.String(length=100), nullable=False),
        sa.Column("code_folded", _folded(100), server_default="", nullable=False),
        sa.Column("label", sa.String(length=300), nullable=False),
        sa.Column("label_folded", _folded(300), server_default="", nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("description_folded", sa.Text(), server_default="", nullable=False),
        sa.Column("disabled", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_training_reference")),
        sa.UniqueConstraint("type", "code", name="uq_training_reference_type_code"),
    )
    op.create_index("ix_training_reference_code_folded", "training_reference", ["type", "code_folded", "id"])
    op.create_index(
        "ix_training_reference_label_folded", "training_reference", ["type", "label_folded", "id"]
    )


def downgrade() -> None:
    op.drop_index("ix_training_reference_label_folded", table_name="training_reference")
    op.drop_index("ix_training_reference_code_folded", table_name="training_reference")
    op.drop_table("training_reference")
