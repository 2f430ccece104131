"""a version per user and entity type of saved filters

Revision ID: c58d2e7a4f19
Revises: a3c7e91f0b52
Create Date: 2026-11-29 03:30:00.000000

Saved filters were guarded by an ETag, a hash of the user's filters read before the save and
compared in Python: two saves from the same list could both pass the comparison (SQLite) and the
second erased the first. The version is now a counter bumped by a conditional UPDATE, sent in the
body like every other entity's version. Users with saved filters start at version 1.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c58d2e7a4f19"
down_revision: str | None = "a3c7e91f0b52"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "saved_filter_set",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("entity_type", sa.String(length=60), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_saved_filter_set_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "entity_type", name=op.f("pk_saved_filter_set")),
    )
    op.execute(
        "INSERT INTO saved_filter_set (user_id, entity_type, version) "
        "SELECT DISTINCT user_id, entity_type, 1 FROM saved_filter"
    )


def downgrade() -> None:
    op.drop_table("saved_filter_set")
