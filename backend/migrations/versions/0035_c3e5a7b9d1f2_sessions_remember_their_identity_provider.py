"""sessions remember their identity provider

A session opened through an identity provider keeps the provider's name and its ID token, so that
signing out of Spot also ends the provider's session (RP-initiated logout).

Revision ID: c3e5a7b9d1f2
Revises: b9471352195c
Create Date: 2026-12-12 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c3e5a7b9d1f2"
down_revision: str | None = "b9471352195c"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("session_token", sa.Column("identity_provider", sa.String(200), nullable=True))
    op.add_column("session_token", sa.Column("id_token", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("session_token") as batch_op:
        batch_op.drop_column("id_token")
        batch_op.drop_column("identity_provider")
