"""login throttling by (login, address) and by address, with growing waits

Revision ID: a3c7e91f0b52
Revises: 9e4b7c2d1f60
Create Date: 2026-11-29 03:00:00.000000

login_failure held one row per failure and refused a login outright after five of them, from
anywhere: anyone could keep anyone out. login_throttle holds one row per key, a (login, client
address) pair or an address, claimed with a compare-and-set (account.throttle). Failures still
counted in login_failure are a quarter of an hour old at most and are not carried over.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "a3c7e91f0b52"
down_revision: str | None = "9e4b7c2d1f60"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("last_failure_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("blocked_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_login_throttle")),
    )
    op.create_index(
        op.f("ix_login_throttle_last_failure_at"), "login_throttle", ["last_failure_at"], unique=False
    )
    op.drop_table("login_failure")


def downgrade() -> None:
    op.create_table(
        "login_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("login", sa.String(length=200), nullable=False),
        sa.Column("address", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failure")),
    )
    op.create_index("ix_login_failure_address_at", "login_failure", ["address", "at"], unique=False)
    op.create_index("ix_login_failure_login_at", "login_failure", ["login", "at"], unique=False)
    op.drop_index(op.f("ix_login_throttle_last_failure_at"), table_name="login_throttle")
    op.drop_table("login_throttle")
