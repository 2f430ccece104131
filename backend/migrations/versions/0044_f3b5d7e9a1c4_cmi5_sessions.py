"""cmi5 sessions: launch mode, closing, entitlement key

lms_item.entitlement_key: the au's `entitlementKey` of cmi5.xml, given to the unit in LMS.LaunchData
(cmi5 §10.2.7). lms_launch.launch_mode: Normal, Browse or Review (§10.2.2); lms_launch.closed_at: when
the session ended (its terminated statement, or abandoned by the LMS): later requests of the session are
refused. lms_statement.defined: a cmi5 defined statement (the cmi5 category, or the LMS's own), the
ones the session and registration rules count; lms_statement.object_id: the statement's object, which
statement queries filter on. Statements already stored get both from their content.

Revision ID: f3b5d7e9a1c4
Revises: e2a4c6d8f0b3
Create Date: 2026-12-21 09:00:00
"""

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "f3b5d7e9a1c4"
down_revision: str | None = "e2a4c6d8f0b3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CMI5_CATEGORY = "https://w3id.org/xapi/cmi5/context/categories/cmi5"


def _facts(content: str) -> tuple[bool, str]:
    try:
        statement = json.loads(content)
    except ValueError:
        return False, ""
    if not isinstance(statement, dict):
        return False, ""
    target = statement.get("object")
    object_id = target.get("id") if isinstance(target, dict) else None
    context = statement.get("context")
    activities = context.get("contextActivities") if isinstance(context, dict) else None
    category = activities.get("category") if isinstance(activities, dict) else None
    category = [category] if isinstance(category, dict) else category
    defined = isinstance(category, list) and any(
        isinstance(a, dict) and a.get("id") == CMI5_CATEGORY for a in category
    )
    return defined, object_id[:500] if isinstance(object_id, str) else ""


def upgrade() -> None:
    # Plain ADD COLUMNs with constant defaults: SQLite keeps the tables as they are.
    op.add_column("lms_item", sa.Column("entitlement_key", sa.Text(), nullable=True))
    op.add_column(
        "lms_launch", sa.Column("launch_mode", sa.String(length=10), nullable=False, server_default="Normal")
    )
    op.add_column("lms_launch", sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column(
        "lms_statement", sa.Column("defined", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "lms_statement", sa.Column("object_id", sa.String(length=500), nullable=False, server_default="")
    )
    op.create_index("ix_lms_statement_registration", "lms_statement", ["registration"])
    statements = sa.table(
        "lms_statement",
        sa.column("id", sa.Integer()),
        sa.column("content", sa.Text()),
        sa.column("defined", sa.Boolean()),
        sa.column("object_id", sa.String()),
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(statements.c.id, statements.c.content)).all()
    for row_id, content in rows:
        defined, object_id = _facts(content)
        bind.execute(
            statements.update()
            .where(statements.c.id == row_id)
            .values(defined=defined, object_id=object_id)
        )
    # A session that ended (terminated, or abandoned: its launch was made to expire) is closed.
    ended = (
        "FROM lms_statement s WHERE s.launch_id = lms_launch.id AND s.verb IN "
        "('http://adlnet.gov/expapi/verbs/terminated', 'https://w3id.org/xapi/adl/verbs/abandoned')"
    )
    bind.execute(
        sa.text(f"UPDATE lms_launch SET closed_at = (SELECT min(s.stored_at) {ended}) WHERE EXISTS (SELECT 1 {ended})")
    )


def downgrade() -> None:
    op.drop_index("ix_lms_statement_registration", table_name="lms_statement")
    with op.batch_alter_table("lms_statement") as batch:
        batch.drop_column("object_id")
        batch.drop_column("defined")
    with op.batch_alter_table("lms_launch") as batch:
        batch.drop_column("closed_at")
        batch.drop_column("launch_mode")
    with op.batch_alter_table("lms_item") as batch:
        batch.drop_column("entitlement_key")
