"""A running backup's hold on the deletion of stored files

backup_hold: one row per backup running, with the time its hold lapses unless renewed.
held_file_deletion: the stored files whose deletion a backup held, deleted when the backups end
(operations.backup).

Revision ID: e8a0c2d4f6b9
Revises: f9b1d3e5a7c0
Create Date: 2026-12-30 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "e8a0c2d4f6b9"
down_revision: str | None = "f9b1d3e5a7c0"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "backup_hold",
        sa.Column("holder", sa.String(length=200), nullable=False),
        sa.Column("held_until", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("holder", name=op.f("pk_backup_hold")),
    )
    op.create_table(
        "held_file_deletion",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("held_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_held_file_deletion")),
    )


def downgrade() -> None:
    op.drop_table("held_file_deletion")
    op.drop_table("backup_hold")
