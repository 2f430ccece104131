"""query language: unaccent_lower and saved filters

Revision ID: bfb1f4cd5d8d
Revises: 308da449a8a1
Create Date: 2026-11-23 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "bfb1f4cd5d8d"
down_revision: str | None = "308da449a8a1"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# spot.querylang.text.fold in SQL (SQLite gets it from spot.db on every connection). IMMUTABLE and
# plain SQL so that PostgreSQL inlines it and expression indexes may use it.
FOLD_FROM = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    "ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿ"
    "ĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲų"
    "ŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ"
    "ØøĐđŁłÐðŒÆ"
)
FOLD_TO = (
    "abcdefghijklmnopqrstuvwxyz"
    "aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyy"
    "aaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuu"
    "wwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy"
    "ooddllddœæ"
)
UNACCENT_LOWER = f"""
CREATE OR REPLACE FUNCTION unaccent_lower(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT replace(replace(translate($1, '{FOLD_FROM}', '{FOLD_TO}'), 'œ', 'oe'), 'æ', 'ae')
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(UNACCENT_LOWER)
    op.create_table(
        "saved_filter",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("entity_type", sa.String(length=60), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("filter", sa.Text(), nullable=False),
        sa.Column("sorting", sa.String(length=500), nullable=False),
        sa.Column("is_default", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user.id"], name=op.f("fk_saved_filter_user_id_user"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_saved_filter")),
        sa.UniqueConstraint("user_id", "entity_type", "name", name="uq_saved_filter_user_entity_name"),
    )


def downgrade() -> None:
    op.drop_table("saved_filter")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS unaccent_lower(text)")
