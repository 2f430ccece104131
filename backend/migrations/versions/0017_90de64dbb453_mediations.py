"""mediations: scheduled or unplanned sessions of a mediator with participants, their tracking
periods and report items

Revision ID: 90de64dbb453
Revises: 7eff9d901554
Create Date: 2026-12-01 09:00:00.000000

A mediation has a resource gallery (core.parents type "mediation"): like the map's items, a trigger
removes its resources when it is deleted, whoever deletes it (resource_parent_deleted, migration
f7f744a8fd3f, on PostgreSQL).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "90de64dbb453"
down_revision: str | None = "7eff9d901554"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _user(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], ["user.id"], name=op.f(f"fk_{table}_{column}_user"), ondelete="SET NULL"
    )


def _of_mediation(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["mediation_id"],
        ["mediation.id"],
        name=op.f(f"fk_{table}_mediation_id_mediation"),
        ondelete="CASCADE",
    )


def upgrade() -> None:
    folded = sa.String(length=300).with_variant(sa.String(length=300, collation="C"), "postgresql")
    op.create_table(
        "mediation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("title_folded", folded, server_default="", nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("description_folded", sa.Text(), server_default="", nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("scheduling_date", sa.DateTime(timezone=True), nullable=True),
        sa.Column("creator_id", sa.Integer(), nullable=True),
        sa.Column("mediator_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("execution_start", sa.DateTime(timezone=True), nullable=True),
        sa.Column("execution_stop", sa.DateTime(timezone=True), nullable=True),
        sa.Column("report_comment", sa.Text(), server_default="", nullable=False),
        sa.Column("reported_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("discussion_id", sa.Integer(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        _user("creator_id", "mediation"),
        _user("mediator_id", "mediation"),
        _user("updated_by", "mediation"),
        sa.ForeignKeyConstraint(
            ["discussion_id"],
            ["discussion.id"],
            name=op.f("fk_mediation_discussion_id_discussion"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mediation")),
    )
    for column in ("creator_id", "mediator_id", "status", "scheduling_date", "updated_at"):
        op.create_index(op.f(f"ix_mediation_{column}"), "mediation", [column], unique=False)
    for column in ("execution_start", "execution_stop"):
        op.create_index(op.f(f"ix_mediation_{column}"), "mediation", [column], unique=False)
    op.create_index("ix_mediation_title_folded", "mediation", ["title_folded", "id"], unique=False)

    for table, other, target in (
        ("mediation_participant", "user_id", "user"),
        ("mediation_visible_group", "group_id", "group"),
        ("mediation_visible_person", "user_id", "user"),
    ):
        op.create_table(
            table,
            sa.Column("mediation_id", sa.Integer(), nullable=False),
            sa.Column(other, sa.Integer(), nullable=False),
            _of_mediation(table),
            sa.ForeignKeyConstraint(
                [other], [f"{target}.id"], name=op.f(f"fk_{table}_{other}_{target}"), ondelete="CASCADE"
            ),
            sa.PrimaryKeyConstraint("mediation_id", other, name=op.f(f"pk_{table}")),
        )
        op.create_index(op.f(f"ix_{table}_{other}"), table, [other], unique=False)

    op.create_table(
        "mediation_tracking_period",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("mediation_id", sa.Integer(), nullable=False),
        sa.Column("start", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stop", sa.DateTime(timezone=True), nullable=True),
        _of_mediation("mediation_tracking_period"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mediation_tracking_period")),
    )
    op.create_index(
        op.f("ix_mediation_tracking_period_mediation_id"),
        "mediation_tracking_period",
        ["mediation_id"],
        unique=False,
    )

    op.create_table(
        "mediation_report_item",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("mediation_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("tracking_id", sa.Integer(), nullable=False),
        sa.Column("entity_type", sa.String(length=30), nullable=False),
        sa.Column("entity_id", sa.Integer(), nullable=False),
        sa.Column("date", sa.DateTime(timezone=True), nullable=False),
        sa.Column("mode", sa.String(length=1), nullable=False),
        sa.Column("content", sa.String(length=1000), nullable=False),
        _of_mediation("mediation_report_item"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mediation_report_item")),
    )
    op.create_index(
        "ix_mediation_report_item_mediation",
        "mediation_report_item",
        ["mediation_id", "position"],
        unique=False,
    )

    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            'CREATE TRIGGER resource_of_mediation_deleted AFTER DELETE ON "mediation" '
            "FOR EACH ROW EXECUTE FUNCTION resource_parent_deleted('mediation')"
        )
    else:
        op.execute(
            'CREATE TRIGGER resource_of_mediation_deleted AFTER DELETE ON "mediation" BEGIN '
            "DELETE FROM resource WHERE parent_type = 'mediation' AND parent_id = OLD.id; END"
        )


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    op.execute(
        "DROP TRIGGER IF EXISTS resource_of_mediation_deleted" + (' ON "mediation"' if postgresql else "")
    )
    op.drop_index("ix_mediation_report_item_mediation", table_name="mediation_report_item")
    op.drop_table("mediation_report_item")
    op.drop_index(op.f("ix_mediation_tracking_period_mediation_id"), table_name="mediation_tracking_period")
    op.drop_table("mediation_tracking_period")
    for table, other in (
        ("mediation_visible_person", "user_id"),
        ("mediation_visible_group", "group_id"),
        ("mediation_participant", "user_id"),
    ):
        op.drop_index(op.f(f"ix_{table}_{other}"), table_name=table)
        op.drop_table(table)
    op.drop_index("ix_mediation_title_folded", table_name="mediation")
    for column in (
        "execution_stop",
        "execution_start",
        "updated_at",
        "scheduling_date",
        "status",
        "mediator_id",
        "creator_id",
    ):
        op.drop_index(op.f(f"ix_mediation_{column}"), table_name="mediation")
    op.drop_table("mediation")
