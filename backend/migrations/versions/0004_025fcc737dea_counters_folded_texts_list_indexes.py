"""cartography counters; subjects' folded texts and main node status; indexes of map reads and lists

Revision ID: 025fcc737dea
Revises: 41b0db33640a, bfb1f4cd5d8d
Create Date: 2026-11-24 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "025fcc737dea"
down_revision: tuple[str, ...] = ("41b0db33640a", "bfb1f4cd5d8d")
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WRITES = sa.text("mode = 'W'")

# subject.main_node_status follows the status of the subject's mind-map node of code 0, whoever writes it.
SQLITE_TRIGGERS = [
    """CREATE TRIGGER mind_map_item_main_inserted AFTER INSERT ON mind_map_item WHEN NEW.code = 0
    BEGIN UPDATE subject SET main_node_status = NEW.status WHERE id = NEW.subject_id; END""",
    """CREATE TRIGGER mind_map_item_main_updated AFTER UPDATE OF code, status, subject_id ON mind_map_item
    WHEN OLD.code = 0 OR NEW.code = 0
    BEGIN
        UPDATE subject SET main_node_status = NULL WHERE id = OLD.subject_id AND OLD.code = 0;
        UPDATE subject SET main_node_status = NEW.status WHERE id = NEW.subject_id AND NEW.code = 0;
    END""",
    """CREATE TRIGGER mind_map_item_main_deleted AFTER DELETE ON mind_map_item WHEN OLD.code = 0
    BEGIN UPDATE subject SET main_node_status = NULL WHERE id = OLD.subject_id; END""",
]
POSTGRESQL_TRIGGERS = [
    """CREATE FUNCTION subject_main_node_status() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.code = 0 THEN
            UPDATE subject SET main_node_status = NULL WHERE id = OLD.subject_id;
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.code = 0 THEN
            UPDATE subject SET main_node_status = NEW.status WHERE id = NEW.subject_id;
        END IF;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER mind_map_item_main_node_status
    AFTER INSERT OR DELETE OR UPDATE OF code, status, subject_id ON mind_map_item
    FOR EACH ROW EXECUTE FUNCTION subject_main_node_status()""",
]


SORTED_DATES = ("created_at", "updated_at", "followed_at", "resolved_at", "criticity_at", "standardized_at")


def _folded(length: int) -> sa.types.TypeEngine:
    return sa.String(length).with_variant(sa.String(length, collation="C"), "postgresql")


def upgrade() -> None:
    op.create_table(
        "cartography_counter",
        sa.Column("cartography_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("reads", sa.Integer(), nullable=False),
        sa.Column("writes", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("cartography_id", name=op.f("pk_cartography_counter")),
    )
    op.execute(
        "INSERT INTO cartography_counter (cartography_id, reads, writes) "
        "SELECT cartography_id, SUM(CASE WHEN mode = 'R' THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN mode = 'W' THEN 1 ELSE 0 END) "
        "FROM history_entry WHERE cartography_id IS NOT NULL GROUP BY cartography_id"
    )
    op.create_index(
        "ix_history_entry_writes",
        "history_entry",
        ["item_type", "item_id", "user_id", "at"],
        sqlite_where=WRITES,
        postgresql_where=WRITES,
    )

    op.add_column("subject", sa.Column("code_folded", _folded(100), nullable=False, server_default=""))
    op.add_column("subject", sa.Column("name_folded", _folded(300), nullable=False, server_default=""))
    # unaccent_lower is spot.querylang.text.fold in SQL on both databases (SQLite: spot.db registers it).
    op.execute("UPDATE subject SET code_folded = unaccent_lower(code), name_folded = unaccent_lower(name)")
    op.add_column("subject", sa.Column("main_node_status", sa.String(20), nullable=True))
    op.execute(
        "UPDATE subject SET main_node_status = "
        "(SELECT status FROM mind_map_item WHERE subject_id = subject.id AND code = 0)"
    )
    postgresql = op.get_bind().dialect.name == "postgresql"
    for trigger in POSTGRESQL_TRIGGERS if postgresql else SQLITE_TRIGGERS:
        op.execute(trigger)
    op.create_index("ix_subject_main_node_status", "subject", ["main_node_status"])
    op.create_index("ix_subject_code_folded", "subject", ["code_folded", "id"])
    op.create_index("ix_subject_name_folded", "subject", ["name_folded", "id"])
    op.create_index("ix_subject_cartography_activity", "subject", ["cartography_id", "activity_id"])
    if postgresql:
        # Lists sort dates with missing ones last, descending too: PostgreSQL's plain indexes give
        # DESC NULLS FIRST (SQLite's NULLs, the smallest values, come last anyway).
        for column in SORTED_DATES:
            op.create_index(f"ix_subject_{column}_desc", "subject", [sa.text(f"{column} DESC NULLS LAST"), "id"])
    # Statistics for the new indexes: without them SQLite may sort half the table rather than walk an index.
    op.execute("ANALYZE subject")


def downgrade() -> None:
    op.drop_index("ix_subject_cartography_activity", table_name="subject")
    if op.get_bind().dialect.name == "postgresql":
        for column in SORTED_DATES:
            op.drop_index(f"ix_subject_{column}_desc", table_name="subject")
    op.drop_index("ix_subject_name_folded", table_name="subject")
    op.drop_index("ix_subject_code_folded", table_name="subject")
    op.drop_index("ix_subject_main_node_status", table_name="subject")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER mind_map_item_main_node_status ON mind_map_item")
        op.execute("DROP FUNCTION subject_main_node_status()")
    else:
        for name in ("inserted", "updated", "deleted"):
            op.execute(f"DROP TRIGGER mind_map_item_main_{name}")
    with op.batch_alter_table("subject") as batch_op:
        batch_op.drop_column("main_node_status")
        batch_op.drop_column("name_folded")
        batch_op.drop_column("code_folded")
    op.drop_index("ix_history_entry_writes", table_name="history_entry")
    op.drop_table("cartography_counter")
