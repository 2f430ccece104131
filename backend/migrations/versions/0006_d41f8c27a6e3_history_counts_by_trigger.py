"""cartography counters kept by a trigger on history_entry

Revision ID: d41f8c27a6e3
Revises: 7c1e5a9d2b40
Create Date: 2026-11-25 11:00:00.000000

Every read of a subject, function or cartography writes a history entry, and the cartography's
counter followed it with a second statement from Python. The database now bumps the counter
itself, in the same transaction, whoever inserts the entry: one statement less per tracked read,
and a counter that cannot drift from the history.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "d41f8c27a6e3"
down_revision: str | None = "7c1e5a9d2b40"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE = """CREATE TRIGGER history_entry_counted AFTER INSERT ON history_entry
WHEN NEW.cartography_id IS NOT NULL
BEGIN
    INSERT INTO cartography_counter (cartography_id, reads, writes)
    VALUES (NEW.cartography_id, NEW.mode = 'R', NEW.mode = 'W')
    ON CONFLICT (cartography_id) DO UPDATE
    SET reads = reads + excluded.reads, writes = writes + excluded.writes;
END"""

POSTGRESQL = [
    """CREATE FUNCTION history_entry_counted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO cartography_counter (cartography_id, reads, writes)
        VALUES (NEW.cartography_id, (NEW.mode = 'R')::int, (NEW.mode = 'W')::int)
        ON CONFLICT (cartography_id) DO UPDATE
        SET reads = cartography_counter.reads + EXCLUDED.reads,
            writes = cartography_counter.writes + EXCLUDED.writes;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER history_entry_counted AFTER INSERT ON history_entry
    FOR EACH ROW WHEN (NEW.cartography_id IS NOT NULL) EXECUTE FUNCTION history_entry_counted()""",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRESQL:
            op.execute(statement)
    else:
        op.execute(SQLITE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER history_entry_counted ON history_entry")
        op.execute("DROP FUNCTION history_entry_counted()")
    else:
        op.execute("DROP TRIGGER history_entry_counted")
