"""mediations' calendar invitations

What each person was last sent for a scheduled mediation (its SEQUENCE and a fingerprint of what it
said), so that a change sends a new sequence and a removal a cancellation.

Revision ID: e5a7c9d1f3b5
Revises: d4f6b8c0e2a4
Create Date: 2026-12-14 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e5a7c9d1f3b5"
down_revision: str | None = "d4f6b8c0e2a4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mediation_invitation",
        sa.Column("mediation_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("sequence", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("cancelled", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["mediation_id"],
            ["mediation.id"],
            name=op.f("fk_mediation_invitation_mediation_id_mediation"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_mediation_invitation_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("mediation_id", "user_id", name=op.f("pk_mediation_invitation")),
    )


def downgrade() -> None:
    op.drop_table("mediation_invitation")
