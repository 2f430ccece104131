"""what a mediation report item refers to

A report line was kept as the text its writer's client made, in the writer's language, naming items
the reader may not read. A line now keeps what it refers to (the event kind of a write, the item's
name when tracked) and each reader's client words it; the old wording stays for the signatures that
hashed it.

Revision ID: a7d3e9c41b58
Revises: 5c2d8e4f1a63
Create Date: 2026-12-05 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a7d3e9c41b58"
down_revision: str | None = "5c2d8e4f1a63"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("mediation_report_item", sa.Column("event", sa.String(length=40), nullable=True))
    op.add_column(
        "mediation_report_item",
        sa.Column("entity_name", sa.String(length=300), server_default="", nullable=False),
    )
    # From the history entry of each line, as a report saved from now on takes them.
    op.execute(
        "UPDATE mediation_report_item SET "
        "event = (SELECT h.event FROM history_entry h WHERE h.id = mediation_report_item.tracking_id), "
        "entity_name = COALESCE((SELECT h.item_name FROM history_entry h "
        "WHERE h.id = mediation_report_item.tracking_id), '')"
    )


def downgrade() -> None:
    with op.batch_alter_table("mediation_report_item") as batch_op:
        batch_op.drop_column("entity_name")
        batch_op.drop_column("event")
