"""cmi5 sessions: launch mode, closing, entitlement key

Revision ID: f3b5d7e9a1c4
Revises: e2a4c6d8f0b3
Create Date: 2026-12-21 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "f3b5d7e9a1c4"
down_revision: str | None = "e2a4c6d8f0b3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
