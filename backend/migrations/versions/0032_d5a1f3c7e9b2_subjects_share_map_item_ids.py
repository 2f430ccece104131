"""subjects take their ids from the map items' series, so that an id names one item of the hierarchy

Spec 1 lets a client name any item of the hierarchy in `itemIds` (the subject page asks for its own
contributions that way). Sites, cartographies, activities and functions already share one id series
(`map_item_id`); subjects had their own, so a subject's id could also be a function's. From now on a
new subject takes the next id of the shared series. Existing subjects keep their ids (bookmarks,
legacy links and the history name them): each is registered in the series where its id is still
free; an id already taken by another map item stays that item's in `itemIds` (the explicit
`subjectIds` names such a subject). The series then starts past every subject id ever given, the
history's deleted subjects included, so no new item takes one.

Revision ID: d5a1f3c7e9b2
Revises: c8e2f4a6b1d3
Create Date: 2026-12-09 09:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "d5a1f3c7e9b2"
down_revision: str | None = "c8e2f4a6b1d3"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

REGISTER = """INSERT INTO map_item_id (id, type)
    SELECT subject.id, 'subject' FROM subject
    WHERE NOT EXISTS (SELECT 1 FROM map_item_id WHERE map_item_id.id = subject.id)"""
LARGEST = """SELECT coalesce(max(id), 0) FROM (
    SELECT max(id) AS id FROM map_item_id
    UNION ALL SELECT max(id) FROM subject
    UNION ALL SELECT max(item_id) FROM history_entry WHERE item_type = 'subject') AS ids"""


def upgrade() -> None:
    bind = op.get_bind()
    op.execute(REGISTER)
    largest = bind.exec_driver_sql(LARGEST).scalar_one()
    if bind.dialect.name == "postgresql":
        if largest:
            bind.exec_driver_sql(
                "SELECT setval(pg_get_serial_sequence('map_item_id', 'id'), %(n)s)", {"n": largest}
            )
    else:
        bind.exec_driver_sql(
            "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'map_item_id'", (largest,)
        )
        bind.exec_driver_sql(
            "INSERT INTO sqlite_sequence (name, seq) SELECT 'map_item_id', ?"
            " WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'map_item_id')",
            (largest,),
        )


def downgrade() -> None:
    op.execute("DELETE FROM map_item_id WHERE type = 'subject'")
