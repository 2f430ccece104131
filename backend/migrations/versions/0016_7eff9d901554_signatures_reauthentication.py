"""signatures: electronic signatures of records, and when a session last proved its user's identity

Revision ID: 7eff9d901554
Revises: f7f744a8fd3f
Create Date: 2026-12-01 08:30:00.000000

A signature names its record by type and id (core.signatures), like a resource its parent; it is
never deleted, only revoked with a reason. `session_token.authenticated_at` is the last time the
session's user gave a password (sign-in, re-authentication); existing sessions take their issue time.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "7eff9d901554"
down_revision: str | None = "f7f744a8fd3f"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "signature",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("record_type", sa.String(length=40), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=False),
        sa.Column("signer_id", sa.Integer(), nullable=True),
        sa.Column("signer_name", sa.String(length=700), nullable=False),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("meaning", sa.String(length=60), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_by", sa.Integer(), nullable=True),
        sa.Column("revoke_reason", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(
            ["signer_id"], ["user.id"], name=op.f("fk_signature_signer_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["revoked_by"], ["user.id"], name=op.f("fk_signature_revoked_by_user"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_signature")),
    )
    op.create_index("ix_signature_record", "signature", ["record_type", "record_id"], unique=False)
    # One live signature per signer, record and meaning: two requests signing at once cannot both win.
    live = sa.text("revoked_at IS NULL")
    op.create_index(
        "uq_signature_live",
        "signature",
        ["record_type", "record_id", "signer_id", "meaning"],
        unique=True,
        sqlite_where=live,
        postgresql_where=live,
    )
    with op.batch_alter_table("session_token") as batch_op:
        batch_op.add_column(sa.Column("authenticated_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE session_token SET authenticated_at = issued_at")
    with op.batch_alter_table("session_token") as batch_op:
        batch_op.alter_column("authenticated_at", existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("session_token") as batch_op:
        batch_op.drop_column("authenticated_at")
    op.drop_index("uq_signature_live", table_name="signature")
    op.drop_index("ix_signature_record", table_name="signature")
    op.drop_table("signature")
