"""people: e-mail address, active, language

A person may have an e-mail address (unique when set, kept in lower case), is active until deactivated
(a person who left stays, named, wherever they appear), and has the language everything the server
writes for them uses.

Revision ID: a78de001b4ad
Revises: d5a1f3c7e9b2
Create Date: 2026-12-10 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a78de001b4ad"
down_revision: str | None = "d5a1f3c7e9b2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("user", sa.Column("email", sa.String(320), nullable=True))
    op.add_column("user", sa.Column("active", sa.Boolean(), server_default=sa.true(), nullable=False))
    op.add_column("user", sa.Column("deactivated_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("user", sa.Column("language", sa.String(2), server_default="fr", nullable=False))
    op.create_index("uq_user_email", "user", ["email"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_user_email", table_name="user")
    with op.batch_alter_table("user") as batch_op:
        for column in ("language", "deactivated_at", "active", "email"):
            batch_op.drop_column(column)
