"""notification preferences and digests

Each person's mode per kind of message (now, digest, never; no row: the kind's default), and the link
of a message, which the daily digest lists. Messages kept for the digest are outbox messages of status
`held`, then `digested` (the status column holds them as it is).

Revision ID: a7c9e1f3b5d7
Revises: f6b8d0e2a4c6
Create Date: 2026-12-16 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a7c9e1f3b5d7"
down_revision: str | None = "f6b8d0e2a4c6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notification_preference",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(60), nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_notification_preference_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "kind", name=op.f("pk_notification_preference")),
    )
    # A plain ADD COLUMN: SQLite keeps the table as it is.
    op.add_column("outbox_message", sa.Column("link", sa.String(500), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox_message") as batch:
        batch.drop_column("link")
    op.drop_table("notification_preference")
