"""`contains` on subjects' name and code: the page matches with LIKE, the count (on SQLite) with the
FTS5 trigram table that triggers keep (migration 5b8e0c3f9a17). Both must always agree."""

import pytest
from sqlalchemy import select

from mapping.maps import restrict
from spot.querylang import compile_filter, parse_filter
from spot.subjects.models import Subject
from spot.subjects.query import SUBJECT
from support import API

EDIT, DELETE = "perm_EditPdv", "perm_RemPdv"


def listed(client, headers, filter_text):  # noqa: ANN001
    """The codes of every match and the list's total, read one subject a page so that the total
    is always counted (a short first page counts its own rows)."""
    body = {"filter": filter_text, "sort": "code", "pageSize": 1}
    first = client.post(f"{API}/subject/query", json=body, headers=headers).json()
    codes = [s["code"] for s in first["results"]]
    for page in range(2, first["totalItems"] + 2):
        more = client.post(f"{API}/subject/query", json={**body, "page": page}, headers=headers).json()
        codes += [s["code"] for s in more["results"]]
    return codes, first["totalItems"]


@pytest.fixture
def editor(make_user, login):
    return login(make_user(permissions=[EDIT, DELETE]))


@pytest.mark.parametrize(
    ("filter_text", "codes"),
    [
        ("name contains plaq", ["S1"]),
        ("name contains PLAQUETTE", ["S1"]),
        ("name contains ÉBAV", ["S3"]),  # accents and case fold on both sides
        ("name contains er", ["S1", "S2", "S3", "T1"]),  # under three characters: no trigram
        ("name contains une ", ["S1", "S2"]),  # spaces inside a value are kept
        ('name contains a"b', []),  # a quote cannot break the trigram phrase
        ("code contains s1", ["S1"]),
        ("name contains plaq & type oneOf quality", []),
        ("name contains plaq | name contains cote", ["S1", "S2"]),
        ("name contains zzz", []),
    ],
)
def test_the_count_agrees_with_the_matches(client, test_map, editor, filter_text, codes):
    assert listed(client, editor, filter_text) == (codes, len(codes))


def test_renamed_and_deleted_subjects_are_counted_as_they_are_now(client, test_map, editor):
    s2 = f"{API}/subject/{test_map.subject('S2')}"
    current = client.get(s2, headers=editor).json()
    renamed = client.post(
        s2,
        json={
            "name": "Mesurer une plaquette",
            "type": current["type"],
            "cartographyId": current["cartographyId"],
            "functionId": current["functionId"],
            "activityId": current["activityId"],
            "version": current["version"],
        },
        headers=editor,
    )
    assert renamed.status_code == 200, renamed.text
    assert listed(client, editor, "name contains plaquette") == (["S1", "S2"], 2)
    assert listed(client, editor, "name contains cote") == ([], 0)
    copy = client.post(f"{API}/subject/{test_map.subject('S1')}/duplicate", headers=editor)
    assert copy.status_code == 200, copy.text
    assert listed(client, editor, "name contains plaquette")[1] == 3
    assert client.delete(f"{API}/subject/{test_map.subject('S1')}", headers=editor).status_code == 204
    assert listed(client, editor, "name contains plaquette")[1] == 2


@pytest.mark.parametrize(("value", "reads_trigrams"), [("plaq", True), ("pl", False)])
def test_on_sqlite_counts_read_the_trigram_table(db, value, reads_trigrams):  # noqa: ANN001
    if db.get_bind().dialect.name != "sqlite":
        pytest.skip("SQLite only: PostgreSQL serves the LIKE with its pg_trgm index")
    tree = parse_filter(f"name contains {value}", SUBJECT)
    bind = db.get_bind()
    counted = str(select(Subject.id).where(compile_filter(tree, SUBJECT, counting=True)).compile(bind))
    paged = str(select(Subject.id).where(compile_filter(tree, SUBJECT)).compile(bind))
    assert ("subject_trigrams.name_folded MATCH" in counted) is reads_trigrams
    assert "LIKE" in paged and "subject_trigrams" not in paged


@pytest.mark.parametrize(
    ("filter_text", "narrow"),
    [
        ("name contains plaq", True),
        ("name contains er", False),
        ("name contains une & name contains plaq", False),
    ],
)
def test_the_count_of_a_lone_contains_reads_the_trigram_table(db, test_map, filter_text, narrow):
    """On either database the count of a lone `contains` of three characters or more, for a user who
    sees every row, reads the narrow trigram table alone (on PostgreSQL, migration 9e4b7c2d1f60), and
    finds what the subjects' own rows give."""
    import re

    from sqlalchemy import event

    from spot.querylang import run_query

    statements: list[str] = []

    def seen(_conn, _cursor, statement: str, *_args) -> None:  # noqa: ANN001
        statements.append(statement)

    engine = db.get_bind().engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        _rows, total = run_query(db, SUBJECT, select(Subject.id), filter_text, "code", 1, 1)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    # A base select with a condition is counted from the subjects' rows.
    _rows, from_rows = run_query(
        db, SUBJECT, select(Subject.id).where(Subject.id > 0), filter_text, "code", 1, 1
    )
    assert total == from_rows > 0
    counts = [s for s in statements if "count(" in s.lower()]
    alone = [re.search(r"FROM subject\b(?!_)", s) is None and "FROM subject_trigrams" in s for s in counts]
    assert counts and all(a == narrow for a in alone)


@pytest.mark.parametrize(("cartography", "codes"), [("C1", ["S1", "S2"]), ("C2", [])])
def test_a_restricted_user_counts_only_what_it_sees(
    db, client, test_map, make_user, login, cartography, codes
):
    """Counted from the trigram table alone only for those who see everything."""
    user = make_user()
    restrict(db, user, test_map.cartography(cartography))
    assert listed(client, login(user), "name contains r une") == (codes, len(codes))
    assert listed(client, login(user), "name contains plaquette") == (codes[:1], len(codes[:1]))


def test_a_base_select_narrowed_by_a_join_counts_only_its_rows(db, test_map):
    """The trigram table alone counts only a base select over every row: no condition, no join."""
    from sqlalchemy import and_

    from spot.mapping.models import Function
    from spot.querylang import run_query

    of_f1 = select(Subject.id).join(Function, and_(Function.id == Subject.function_id, Function.code == "F1"))
    rows, total = run_query(db, SUBJECT, of_f1, "name contains r une", "code", 1, 1)
    assert (rows, total) == ([test_map.subject("S1")], 1)
    rows, total = run_query(db, SUBJECT, select(Subject.id), "name contains r une", "code", 1, 1)
    assert total == 2


def test_only_a_select_of_every_row_counts_from_the_trigram_table_alone():
    from sqlalchemy import true

    from spot.mapping.models import Function
    from spot.querylang.service import _every_row
    from spot.subjects.service import SUMMARY_COLUMNS

    every = select(*SUMMARY_COLUMNS)
    assert _every_row(every, SUBJECT)
    assert _every_row(select(Subject.id), SUBJECT)
    narrowed = [
        every.where(true()),
        every.join(Function, Function.id == Subject.function_id),
        every.select_from(Function),
        select(Subject.id, Function.id),
        select(Function.id),
    ]
    assert [_every_row(statement, SUBJECT) for statement in narrowed] == [False] * len(narrowed)
