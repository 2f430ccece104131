"""an index on the path of training_path_referent

Deleting a path checks its referents by path (the foreign key's cascade) with no index leading with
it: a scan of every referent.

Revision ID: 5c2d8e4f1a63
Revises: 3b9e6c1d7a52
Create Date: 2026-11-25 03:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "5c2d8e4f1a63"
down_revision: str | None = "3b9e6c1d7a52"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_training_path_referent_path_id", "training_path_referent", ["path_id"])


def downgrade() -> None:
    op.drop_index("ix_training_path_referent_path_id", table_name="training_path_referent")
