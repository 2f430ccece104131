"""Case- and accent-insensitive text comparison, identical in Python, SQLite and PostgreSQL.

Both sides of a string criterion go through `fold`: ASCII letters are lower-cased, the accented
Latin letters of FOLD_FROM become the plain letters of FOLD_TO, and the ligatures œ and æ become
"oe" and "ae". Nothing else changes, so the result does not depend on a database locale.

In SQL the same rule is the function `unaccent_lower(text)`: registered on every SQLite connection
(`register_sqlite_functions`, called by spot.db) and created on PostgreSQL by the migration
"query language: unaccent_lower and saved filters" as an IMMUTABLE SQL function made of
translate() and replace(), so that PostgreSQL inlines it and expression indexes such as
`CREATE INDEX ... ON subject (unaccent_lower(name) COLLATE "C")` can serve sorting and equality.
Changing these tables needs a new migration redefining the PostgreSQL function.
"""

import sqlite3

SQL_FUNCTION = "unaccent_lower"

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
LIGATURES = {"œ": "oe", "æ": "ae"}

_TABLE: dict[int, str] = {ord(a): LIGATURES.get(b, b) for a, b in zip(FOLD_FROM, FOLD_TO, strict=True)}
_TABLE.update({ord(ligature): letters for ligature, letters in LIGATURES.items()})


def fold(value: str) -> str:
    return value.translate(_TABLE)


def _sql_fold(value: str | None) -> str | None:
    return None if value is None else fold(value)


def register_sqlite_functions(connection: sqlite3.Connection) -> None:
    connection.create_function(SQL_FUNCTION, 1, _sql_fold, deterministic=True)
