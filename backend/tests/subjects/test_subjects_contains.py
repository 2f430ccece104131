"""`contains` on subjects' name and code: the page matches with LIKE, the count (on SQLite) with the
FTS5 trigram table that triggers keep (migration 5b8e0c3f9a17). Both must always agree."""

import pytest
from sqlalchemy import select

from mapping.maps import restrict
from spot.mapping.models import Subject
from spot.subjects.query import SUBJECT
from support import API

EDIT, DELETE = "perm_EditPdv", "perm_RemPdv"


def listed(client, headers, filter_text):
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


@pytest.mark.parametrize(
    "filter_text", ["name contains plaq", "name contains er", "name contains une & name contains plaq"]
)
def test_the_count_of_a_lone_contains_is_the_number_of_matching_rows(db, test_map, filter_text):
    """However the count is made (from the trigram table alone when nothing else filters, see
    docs/performance.md), it is what the subjects' own rows give."""
    from spot.querylang import run_query

    _rows, total = run_query(db, SUBJECT, select(Subject.id), filter_text, "code", 1, 1)
    _rows, from_rows = run_query(
        db, SUBJECT, select(Subject.id).where(Subject.id > 0), filter_text, "code", 1, 1
    )
    assert total == from_rows > 0


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
