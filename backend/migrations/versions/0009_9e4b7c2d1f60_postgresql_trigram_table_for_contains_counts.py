"""PostgreSQL: a narrow table of subjects' folded name and code for the counts of 'contains'

Revision ID: 9e4b7c2d1f60
Revises: 63bf24d87e00
Create Date: 2026-11-28 10:00:00.000000

The count of `name contains x` over every subject is `count(*) WHERE name_folded LIKE '%x%'`: the
pg_trgm index (7c1e5a9d2b40) finds the candidates, but each must be checked again in its row, and
subject rows are wide: a common word visits a large part of the table's pages. This table holds
only the id and the two folded texts (a fraction of the pages), with their own pg_trgm indexes,
kept equal to `subject` by a trigger (and by the foreign key's cascade on delete).
It has the name of SQLite's FTS5 table (5b8e0c3f9a17), which serves the same counts there.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "9e4b7c2d1f60"
down_revision: str | None = "63bf24d87e00"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLE = "subject_trigrams"
COLUMNS = ("name_folded", "code_folded")

SYNC = f"""
CREATE FUNCTION {TABLE}_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO {TABLE} (id, name_folded, code_folded) VALUES (NEW.id, NEW.name_folded, NEW.code_folded)
    ON CONFLICT (id) DO UPDATE SET name_folded = EXCLUDED.name_folded, code_folded = EXCLUDED.code_folded;
    RETURN NULL;
END $$
"""
TRIGGER = f"""
CREATE TRIGGER {TABLE}_sync AFTER INSERT OR UPDATE OF name_folded, code_folded ON subject
FOR EACH ROW EXECUTE FUNCTION {TABLE}_sync()
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.create_table(
        TABLE,
        sa.Column(
            "id",
            sa.Integer(),
            sa.ForeignKey("subject.id", ondelete="CASCADE", name=f"fk_{TABLE}_id_subject"),
        ),
        sa.Column("name_folded", sa.String(300, collation="C"), nullable=False),
        sa.Column("code_folded", sa.String(100, collation="C"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=f"pk_{TABLE}"),
    )
    op.execute(
        f"INSERT INTO {TABLE} (id, name_folded, code_folded) SELECT id, name_folded, code_folded FROM subject"
    )
    for column in COLUMNS:
        op.create_index(
            f"ix_{TABLE}_{column}",
            TABLE,
            [column],
            postgresql_using="gin",
            postgresql_ops={column: "gin_trgm_ops"},
        )
    op.execute(SYNC)
    op.execute(TRIGGER)
    op.execute(f"ANALYZE {TABLE}")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"DROP TRIGGER {TABLE}_sync ON subject")
    op.execute(f"DROP FUNCTION {TABLE}_sync()")
    op.drop_table(TABLE)
