"""the daily scan's lease and the expiry reminders sent

scan_lease: one row per scan (expiry reminders, the bell's dated alerts, digests), taken by a
compare-and-set with an expiry, and the last day it ran to its end. expiry_reminder: each (recipient,
person, qualification, last valid day, window) announced, once ever.

Revision ID: b8d0f2a4c6e8
Revises: a7c9e1f3b5d7
Create Date: 2026-12-17 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "b8d0f2a4c6e8"
down_revision: str | None = "a7c9e1f3b5d7"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "scan_lease",
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("holder", sa.String(200), nullable=True),
        sa.Column("held_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_day", sa.Date(), nullable=True),
        sa.Column("last_finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_scan_lease")),
    )
    op.create_table(
        "expiry_reminder",
        sa.Column("recipient_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("qualification_id", sa.Integer(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=False),
        sa.Column("days_window", sa.Integer(), nullable=False),
        sa.Column("announced_on", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["recipient_id"], ["user.id"], name=op.f("fk_expiry_reminder_recipient_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_expiry_reminder_user_id_user"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["qualification_id"],
            ["qualification.id"],
            name=op.f("fk_expiry_reminder_qualification_id_qualification"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "recipient_id",
            "user_id",
            "qualification_id",
            "valid_until",
            "days_window",
            name=op.f("pk_expiry_reminder"),
        ),
    )
    op.create_index("ix_expiry_reminder_valid_until", "expiry_reminder", ["valid_until"])


def downgrade() -> None:
    op.drop_index("ix_expiry_reminder_valid_until", table_name="expiry_reminder")
    op.drop_table("expiry_reminder")
    op.drop_table("scan_lease")
