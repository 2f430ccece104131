"""discussions: a thread per cartography, function and subject, its messages and read marks

Revision ID: 129b0b281101
Revises: c58d2e7a4f19
Create Date: 2026-11-30 05:30:00.000000

Each item names its thread in a `discussion_id` column, so that its page carries `discussionId`
without a statement of its own; items that exist get theirs here. The column is added in place
(no table copy on SQLite, which would drop the subject table's triggers).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "129b0b281101"
down_revision: str | None = "c58d2e7a4f19"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PARENTS = ("cartography", "function", "subject")


def upgrade() -> None:
    op.create_table(
        "discussion",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("parent_type", sa.String(length=30), nullable=False),
        sa.Column("parent_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discussion")),
        sa.UniqueConstraint("parent_type", "parent_id", name="uq_discussion_parent"),
    )
    op.create_table(
        "discussion_message",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("discussion_id", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("system_type", sa.String(length=40), nullable=True),
        sa.Column("system_args", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["author_id"], ["user.id"], name=op.f("fk_discussion_message_author_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["discussion_id"],
            ["discussion.id"],
            name=op.f("fk_discussion_message_discussion_id_discussion"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discussion_message")),
    )
    op.create_index("ix_discussion_message_author", "discussion_message", ["author_id", "discussion_id"])
    op.create_index("ix_discussion_message_discussion", "discussion_message", ["discussion_id", "at"])
    op.create_table(
        "discussion_read",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("discussion_id", sa.Integer(), nullable=False),
        sa.Column("read_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("read_up_to", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["discussion_id"],
            ["discussion.id"],
            name=op.f("fk_discussion_read_discussion_id_discussion"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_discussion_read_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("user_id", "discussion_id", name=op.f("pk_discussion_read")),
    )
    op.create_index(op.f("ix_discussion_read_discussion_id"), "discussion_read", ["discussion_id"])

    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in PARENTS:
        if postgresql:
            op.add_column(table, sa.Column("discussion_id", sa.Integer(), nullable=True))
            op.create_foreign_key(
                op.f(f"fk_{table}_discussion_id_discussion"),
                table,
                "discussion",
                ["discussion_id"],
                ["id"],
                ondelete="SET NULL",
            )
        else:
            op.execute(
                f'ALTER TABLE "{table}" ADD COLUMN discussion_id INTEGER '
                f"CONSTRAINT fk_{table}_discussion_id_discussion REFERENCES discussion (id) ON DELETE SET NULL"
            )
        op.execute(f"INSERT INTO discussion (parent_type, parent_id) SELECT '{table}', id FROM \"{table}\"")
        op.execute(
            f'UPDATE "{table}" SET discussion_id = (SELECT d.id FROM discussion d '
            f"WHERE d.parent_type = '{table}' AND d.parent_id = \"{table}\".id)"
        )


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for table in PARENTS:
        if postgresql:
            op.drop_constraint(op.f(f"fk_{table}_discussion_id_discussion"), table, type_="foreignkey")
        op.drop_column(table, "discussion_id")
    op.drop_index(op.f("ix_discussion_read_discussion_id"), table_name="discussion_read")
    op.drop_table("discussion_read")
    op.drop_index("ix_discussion_message_discussion", table_name="discussion_message")
    op.drop_index("ix_discussion_message_author", table_name="discussion_message")
    op.drop_table("discussion_message")
    op.drop_table("discussion")
