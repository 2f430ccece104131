"""failed sign-ins of a user since their last sign-in

Wrong passwords given for a login, from any address, are counted on the user until they sign in with a
password again, who is then told how many there were.

Revision ID: 3f1a9c7d2e54
Revises: e4b7a2c95d13
Create Date: 2026-12-07 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "3f1a9c7d2e54"
down_revision: str | None = "e4b7a2c95d13"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("user", sa.Column("failed_sign_ins", sa.Integer(), server_default="0", nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("failed_sign_ins")
