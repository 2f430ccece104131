"""PostgreSQL: trigram indexes for 'contains' on subjects' folded name and code

Revision ID: 7c1e5a9d2b40
Revises: 025fcc737dea
Create Date: 2026-11-25 10:00:00.000000

A filter `name contains x` is `name_folded LIKE '%x%'`, which a b-tree cannot serve: PostgreSQL read
every subject, where a pg_trgm GIN index reads only the candidates. pg_trgm ships with PostgreSQL
and is a trusted extension (PostgreSQL 13+): the database's owner may create it. SQLite has no such
index; its scan of the folded-name index is already the cheapest plan it has (an FTS5 trigram table
gained too little on the count to be worth a second copy of the text).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "7c1e5a9d2b40"
down_revision: str | None = "025fcc737dea"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("name_folded", "code_folded")


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    for column in COLUMNS:
        op.create_index(
            f"ix_subject_{column}_trigrams",
            "subject",
            [column],
            postgresql_using="gin",
            postgresql_ops={column: "gin_trgm_ops"},
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for column in COLUMNS:
        op.drop_index(f"ix_subject_{column}_trigrams", table_name="subject")
