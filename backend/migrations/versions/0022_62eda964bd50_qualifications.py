"""qualifications

A qualification names cartographies, qualifiable groups and modules; it has a discussion and a
resource gallery (core.parents type "qualification"), whose resources a trigger removes when it is
deleted, as for mediations.

Revision ID: 62eda964bd50
Revises: 0cdb46e0c7da
Create Date: 2026-11-24 19:37:23.098376
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "62eda964bd50"
down_revision: str | None = "0cdb46e0c7da"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "qualification",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column(
            "name_folded",
            sa.String(length=300).with_variant(sa.String(length=300, collation="C"), "postgresql"),
            server_default="",
            nullable=False,
        ),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("discussion_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["creator_id"], ["user.id"], name=op.f("fk_qualification_creator_id_user"), ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["discussion_id"],
            ["discussion.id"],
            name=op.f("fk_qualification_discussion_id_discussion"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_qualification")),
    )
    op.create_index(op.f("ix_qualification_creator_id"), "qualification", ["creator_id"])
    op.create_index("ix_qualification_name_folded", "qualification", ["name_folded", "id"])

    for name, column, target in (
        ("cartography", "cartography_id", "cartography"),
        ("group", "group_id", "group"),
        ("module", "module_id", "training_module"),
    ):
        table = f"qualification_{name}"
        extra = [sa.Column("position", sa.Integer(), nullable=False)] if name == "module" else []
        op.create_table(
            table,
            sa.Column("qualification_id", sa.Integer(), nullable=False),
            sa.Column(column, sa.Integer(), nullable=False),
            *extra,
            sa.ForeignKeyConstraint(
                [column], [f"{target}.id"], name=op.f(f"fk_{table}_{column}_{target}"), ondelete="CASCADE"
            ),
            sa.ForeignKeyConstraint(
                ["qualification_id"],
                ["qualification.id"],
                name=op.f(f"fk_{table}_qualification_id_qualification"),
                ondelete="CASCADE",
            ),
            sa.PrimaryKeyConstraint("qualification_id", column, name=op.f(f"pk_{table}")),
        )
        op.create_index(op.f(f"ix_{table}_{column}"), table, [column])

    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            'CREATE TRIGGER resource_of_qualification_deleted AFTER DELETE ON "qualification" '
            "FOR EACH ROW EXECUTE FUNCTION resource_parent_deleted('qualification')"
        )
    else:
        op.execute(
            'CREATE TRIGGER resource_of_qualification_deleted AFTER DELETE ON "qualification" BEGIN '
            "DELETE FROM resource WHERE parent_type = 'qualification' AND parent_id = OLD.id; END"
        )


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    op.execute(
        "DROP TRIGGER IF EXISTS resource_of_qualification_deleted"
        + (' ON "qualification"' if postgresql else "")
    )
    for table in (
        "qualification_module",
        "qualification_group",
        "qualification_cartography",
        "qualification",
    ):
        op.drop_table(table)
