"""the outbox of messages

Every message is written here in the transaction of what causes it, then sent by a sender: nothing is
lost when the mail server is down or the process is killed.

Revision ID: d4f6b8c0e2a4
Revises: c3e5a7b9d1f2
Create Date: 2026-12-13 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "d4f6b8c0e2a4"
down_revision: str | None = "c3e5a7b9d1f2"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox_message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.String(60), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("to_address", sa.String(320), nullable=False),
        sa.Column("language", sa.String(2), nullable=False),
        sa.Column("subject", sa.String(300), nullable=False),
        sa.Column("text_body", sa.Text(), nullable=False),
        sa.Column("html_body", sa.Text(), nullable=False),
        sa.Column("calendar", sa.Text(), nullable=True),
        sa.Column("calendar_method", sa.String(10), nullable=True),
        sa.Column("dedupe_key", sa.String(300), nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("uncertain", sa.Boolean(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_outbox_message_user_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_message")),
        sa.UniqueConstraint("dedupe_key", name=op.f("uq_outbox_message_dedupe_key")),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_outbox_message_due", "outbox_message", ["status", "next_attempt_at"])
    op.create_index(op.f("ix_outbox_message_created_at"), "outbox_message", ["created_at"])
    op.create_index(op.f("ix_outbox_message_user_id"), "outbox_message", ["user_id"])


def downgrade() -> None:
    op.drop_table("outbox_message")
