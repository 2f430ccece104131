"""the mind map's main node takes the subject's name, whoever renames the subject

The main node (code 0) is the subject itself in its mind map: its name is the subject's. A trigger
renames it with the subject (the subject form, a map import, anything that writes the name), as
another keeps subject.main_node_status from its status; main nodes that had kept an older name take
the subject's now.

Revision ID: c8e2f4a6b1d3
Revises: b6f1c2d9e8a4
Create Date: 2026-12-08 10:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "c8e2f4a6b1d3"
down_revision: str | None = "b6f1c2d9e8a4"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SQLITE = """CREATE TRIGGER subject_main_node_name AFTER UPDATE OF name ON subject
    WHEN NEW.name IS NOT OLD.name
    BEGIN UPDATE mind_map_item SET name = NEW.name WHERE subject_id = NEW.id AND code = 0; END"""
POSTGRESQL = [
    """CREATE FUNCTION subject_main_node_name() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE mind_map_item SET name = NEW.name
        WHERE subject_id = NEW.id AND code = 0 AND name IS DISTINCT FROM NEW.name;
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER subject_main_node_name AFTER UPDATE OF name ON subject
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION subject_main_node_name()""",
]
SUBJECT_NAME = "(SELECT subject.name FROM subject WHERE subject.id = mind_map_item.subject_id)"
IN_STEP = f"UPDATE mind_map_item SET name = {SUBJECT_NAME} WHERE code = 0 AND name <> {SUBJECT_NAME}"


def upgrade() -> None:
    op.execute(IN_STEP)
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRESQL:
            op.execute(statement)
    else:
        op.execute(SQLITE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER subject_main_node_name ON subject")
        op.execute("DROP FUNCTION subject_main_node_name()")
    else:
        op.execute("DROP TRIGGER subject_main_node_name")
