"""history: a cartography's entries by time, for contributions

Revision ID: 8f78d6649b44
Revises: 98d571949f0e
Create Date: 2026-11-30 05:50:00.000000

POST /history/contributions counts a cartography's reads and writes per week: an index by
(cartography_id, at) with the mode and the user in it answers each week from the index alone. It
replaces ix_history_entry_cartography_mode, which nothing reads since the cartography counters are
kept by a trigger (d41f8c27a6e3): the history keeps as many indexes to update on each entry.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "8f78d6649b44"
down_revision: str | None = "98d571949f0e"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index(
        "ix_history_entry_cartography_at",
        "history_entry",
        ["cartography_id", "at", "mode", "user_id"],
        unique=False,
    )
    op.drop_index("ix_history_entry_cartography_mode", table_name="history_entry")


def downgrade() -> None:
    op.create_index(
        "ix_history_entry_cartography_mode", "history_entry", ["cartography_id", "mode"], unique=False
    )
    op.drop_index("ix_history_entry_cartography_at", table_name="history_entry")
