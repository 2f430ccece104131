"""mind-map node codes are never given again

The highest code each subject's mind map gave (subject.mind_map_last_code): a new node takes the next
one, so a deleted node's code never names another node. It starts at each tree's highest code.

Revision ID: f6b8d0e2a4c6
Revises: e5a7c9d1f3b5
Create Date: 2026-12-15 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "f6b8d0e2a4c6"
down_revision: str | None = "e5a7c9d1f3b5"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A plain ADD COLUMN: SQLite keeps the table (and its triggers) as it is.
    last_code = sa.Column("mind_map_last_code", sa.Integer(), nullable=False, server_default="0")
    op.add_column("subject", last_code)
    op.execute(
        "UPDATE subject SET mind_map_last_code = COALESCE("
        "(SELECT MAX(code) FROM mind_map_item WHERE mind_map_item.subject_id = subject.id), 0)"
    )


def downgrade() -> None:
    with op.batch_alter_table("subject") as batch:
        batch.drop_column("mind_map_last_code")
