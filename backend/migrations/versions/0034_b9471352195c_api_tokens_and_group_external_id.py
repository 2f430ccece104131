"""API tokens, and a group's external id

Other systems (an identity provider provisioning people and groups by SCIM) authenticate with API
tokens, kept hashed, of one scope each, revoked and never deleted. A group may carry its id in that
provider (unique when set). A person the provider deleted is deactivated and marked deprovisioned: the
provider no longer sees them, until they are reactivated.

Revision ID: b9471352195c
Revises: a78de001b4ad
Create Date: 2026-12-11 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "b9471352195c"
down_revision: str | None = "a78de001b4ad"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "api_token",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("scope", sa.String(length=20), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["created_by_id"], ["user.id"], name=op.f("fk_api_token_created_by_id_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_token")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_api_token_token_hash")),
        sqlite_autoincrement=True,
    )
    op.add_column("group", sa.Column("external_id", sa.String(length=200), nullable=True))
    op.create_index("uq_group_external_id", "group", ["external_id"], unique=True)
    op.add_column("user", sa.Column("deprovisioned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("deprovisioned_at")
    op.drop_index("uq_group_external_id", table_name="group")
    with op.batch_alter_table("group") as batch_op:
        batch_op.drop_column("external_id")
    op.drop_table("api_token")
