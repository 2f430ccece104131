"""global search: trigram tables of the folded names of cartographies, functions and mind-map nodes

Revision ID: 98d571949f0e
Revises: 129b0b281101
Create Date: 2026-11-30 10:00:00.000000

The global search (spot.search) finds cartographies, functions, subjects and mind-map nodes whose
folded name (querylang.text.fold: no case, no accent) contains the folded text. Subjects already have
their folded name and its trigram table (5b8e0c3f9a17 on SQLite, 9e4b7c2d1f60 on PostgreSQL); this
gives the three other tables one of the same name, `<table>_trigrams`, kept by the database itself
(triggers, foreign key cascade), whoever writes the rows (map import, subject create, duplicate,
delete, mind-map edits):

- SQLite: an FTS5 table (trigram tokenizer, case_sensitive 1 since the text is folded already) of
  unaccent_lower(name) (the fold, registered on every connection by spot.db), rowid = the row's id;
  and an expression index on unaccent_lower(name) for texts of 1 or 2 characters, which no trigram
  can serve: they match the names that begin with them (a range on the index).
- PostgreSQL: a narrow table (id, name_folded COLLATE "C") with a pg_trgm GIN index for 'contains'
  and a b-tree (name_folded, id) for the prefixes of 1 or 2 characters, in alphabetical order, kept equal to the table by a trigger and by the
  foreign key's cascade on delete.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "98d571949f0e"
down_revision: str | None = "129b0b281101"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TABLES = ("cartography", "function", "mind_map_item")


def _sqlite(table: str) -> list[str]:
    t = f"{table}_trigrams"
    return [
        f"CREATE VIRTUAL TABLE {t} USING fts5(name_folded, tokenize='trigram case_sensitive 1')",
        f'INSERT INTO {t} (rowid, name_folded) SELECT id, unaccent_lower(name) FROM "{table}"',
        f"""CREATE TRIGGER {t}_insert AFTER INSERT ON "{table}" BEGIN
            INSERT INTO {t} (rowid, name_folded) VALUES (new.id, unaccent_lower(new.name));
        END""",
        f"""CREATE TRIGGER {t}_delete AFTER DELETE ON "{table}" BEGIN
            DELETE FROM {t} WHERE rowid = old.id;
        END""",
        f"""CREATE TRIGGER {t}_update AFTER UPDATE OF id, name ON "{table}" BEGIN
            DELETE FROM {t} WHERE rowid = old.id;
            INSERT INTO {t} (rowid, name_folded) VALUES (new.id, unaccent_lower(new.name));
        END""",
        f'CREATE INDEX ix_{table}_name_prefix ON "{table}" (unaccent_lower(name))',
    ]


def _postgresql(table: str) -> None:
    t = f"{table}_trigrams"
    op.create_table(
        t,
        sa.Column(
            "id", sa.Integer(), sa.ForeignKey(f"{table}.id", ondelete="CASCADE", name=f"fk_{t}_id_{table}")
        ),
        sa.Column("name_folded", sa.String(collation="C"), nullable=False),
        sa.PrimaryKeyConstraint("id", name=f"pk_{t}"),
    )
    op.execute(f'INSERT INTO {t} (id, name_folded) SELECT id, unaccent_lower(name) FROM "{table}"')
    op.create_index(
        f"ix_{t}_name_folded",
        t,
        ["name_folded"],
        postgresql_using="gin",
        postgresql_ops={"name_folded": "gin_trgm_ops"},
    )
    op.create_index(f"ix_{t}_name_prefix", t, ["name_folded", "id"])
    op.execute(f"""
        CREATE FUNCTION {t}_sync() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO {t} (id, name_folded) VALUES (NEW.id, unaccent_lower(NEW.name))
            ON CONFLICT (id) DO UPDATE SET name_folded = EXCLUDED.name_folded;
            RETURN NULL;
        END $$""")
    op.execute(
        f'CREATE TRIGGER {t}_sync AFTER INSERT OR UPDATE OF name ON "{table}" '
        f"FOR EACH ROW EXECUTE FUNCTION {t}_sync()"
    )
    op.execute(f"ANALYZE {t}")


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in TABLES:
        if dialect == "sqlite":
            for statement in _sqlite(table):
                op.execute(statement)
        elif dialect == "postgresql":
            _postgresql(table)


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    for table in TABLES:
        t = f"{table}_trigrams"
        if dialect == "sqlite":
            for action in ("insert", "delete", "update"):
                op.execute(f"DROP TRIGGER {t}_{action}")
            op.execute(f"DROP INDEX ix_{table}_name_prefix")
            op.execute(f"DROP TABLE {t}")
        elif dialect == "postgresql":
            op.execute(f'DROP TRIGGER {t}_sync ON "{table}"')
            op.execute(f"DROP FUNCTION {t}_sync()")
            op.drop_table(t)
