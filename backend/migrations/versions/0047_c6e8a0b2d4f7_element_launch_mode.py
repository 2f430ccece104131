"""The launch mode a module's learning-platform element asks for

training_module_item.launch_mode: Normal (results recorded; a unit the learner satisfied reopens in
Review), Browse or Review (cmi5 §10.2.2, SCORM's lesson mode: nothing recorded). Null for other kinds.

Revision ID: c6e8a0b2d4f7
Revises: b5d7f9a1c3e6
Create Date: 2026-12-24 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "c6e8a0b2d4f7"
down_revision: str | None = "b5d7f9a1c3e6"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("training_module_item", sa.Column("launch_mode", sa.String(length=10), nullable=True))
    op.execute("UPDATE training_module_item SET launch_mode = 'Normal' WHERE kind = 'lms'")


def downgrade() -> None:
    with op.batch_alter_table("training_module_item") as batch:
        batch.drop_column("launch_mode")
