"""mind map

The subject's mind map as a tree inside Spot (docs/mind-map.md): each node's parent, position among its
siblings, text, author and dates; the tree's own optimistic version on the subject; the diagram as a
stored file; the read-only copy of the tree kept when a subject is standardized.

Existing nodes become children of their subject's main node, in the order of their codes. Columns
with a foreign key are added in place on SQLite (ALTER TABLE … ADD COLUMN … REFERENCES), not by
rebuilding the table, which would drop the triggers that keep the main node's status and the search
trigrams (migrations 025fcc737dea, 98d571949f0e).

Revision ID: 10085eeea9f7
Revises: 8ff0c0050c72
Create Date: 2026-11-24 22:26:53
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "10085eeea9f7"
down_revision: str | None = "8ff0c0050c72"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (column, referenced table, on delete)
_NODE_REFERENCES = (
    ("parent_id", "mind_map_item", "CASCADE"),
    ("created_by", "user", "SET NULL"),
    ("updated_by", "user", "SET NULL"),
)


def upgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for column, table, on_delete in _NODE_REFERENCES:
        name = f"fk_mind_map_item_{column}_{table}"
        if postgresql:
            op.add_column("mind_map_item", sa.Column(column, sa.Integer(), nullable=True))
            op.create_foreign_key(name, "mind_map_item", table, [column], ["id"], ondelete=on_delete)
        else:
            op.execute(
                f'ALTER TABLE mind_map_item ADD COLUMN {column} INTEGER CONSTRAINT {name} REFERENCES "{table}" (id) '
                f"ON DELETE {on_delete}"
            )
    op.add_column("mind_map_item", sa.Column("position", sa.Integer(), server_default="0", nullable=False))
    op.add_column("mind_map_item", sa.Column("text", sa.Text(), server_default="", nullable=False))
    op.add_column("mind_map_item", sa.Column("created_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("mind_map_item", sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_mind_map_item_parent", "mind_map_item", ["parent_id"])
    op.execute(
        "UPDATE mind_map_item SET position = code, parent_id = (SELECT m.id FROM mind_map_item m "
        "WHERE m.subject_id = mind_map_item.subject_id AND m.code = 0) WHERE code <> 0"
    )

    op.add_column("subject", sa.Column("diagram_ref", sa.String(length=64), nullable=True))
    op.add_column("subject", sa.Column("diagram_media_type", sa.String(length=40), nullable=True))
    op.add_column("subject", sa.Column("diagram_sha256", sa.String(length=64), nullable=True))
    op.add_column("subject", sa.Column("diagram_name", sa.String(length=300), nullable=True))
    op.add_column("subject", sa.Column("mind_map_version", sa.Integer(), server_default="1", nullable=False))

    op.create_table(
        "standardized_mind_map",
        sa.Column("subject_id", sa.Integer(), nullable=False),
        sa.Column("standardized_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("standardized_by", sa.Integer(), nullable=True),
        sa.Column("nodes", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["standardized_by"],
            ["user.id"],
            name=op.f("fk_standardized_mind_map_standardized_by_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["subject_id"],
            ["subject.id"],
            name=op.f("fk_standardized_mind_map_subject_id_subject"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("subject_id", name=op.f("pk_standardized_mind_map")),
    )


def downgrade() -> None:
    op.drop_table("standardized_mind_map")
    for column in ("mind_map_version", "diagram_name", "diagram_sha256", "diagram_media_type", "diagram_ref"):
        op.drop_column("subject", column)
    op.drop_index("ix_mind_map_item_parent", table_name="mind_map_item")
    postgresql = op.get_bind().dialect.name == "postgresql"
    for column, table, _on_delete in _NODE_REFERENCES:
        if postgresql:
            op.drop_constraint(f"fk_mind_map_item_{column}_{table}", "mind_map_item", type_="foreignkey")
    for column in ("updated_at", "updated_by", "created_at", "created_by", "text", "position", "parent_id"):
        op.drop_column("mind_map_item", column)
