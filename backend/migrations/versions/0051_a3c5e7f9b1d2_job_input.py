"""A job's input file (an import's upload), stored with it and removed once it finished

job.input_file: its stored name (core.files), referred to while the job waits or runs.

Revision ID: a3c5e7f9b1d2
Revises: e8a0c2d4f6b9
Create Date: 2026-12-29 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a3c5e7f9b1d2"
down_revision: str | None = "e8a0c2d4f6b9"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("job", sa.Column("input_file", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("job") as batch:
        batch.drop_column("input_file")
