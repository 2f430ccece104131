"""groupIds on POST /history/contributions, and POST /history/contributions/export: the xlsx file read
back with openpyxl (two sheets, writes then views; a row per user; a total column; an average row),
its figures against a plain-Python count of generated entries, its language, its bounds (78 weeks,
18 months: valueMustBeBetween) and who may ask."""

import io
from datetime import datetime

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert

from history.entries import add, at
from spot.core.history_models import HistoryEntry
from spot.users.models import Group, user_group
from support import API, assert_error, field_codes

TRACK = "perm_VisuTrack"
CHART = f"{API}/history/contributions"
EXPORT = f"{API}/history/contributions/export"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# Weeks 1 to 3 of 2025: from Monday 6 January to Sunday 26 January.
WEEKS = {"fromYear": 2025, "start": 1, "count": 3}
WEEK_STARTS = [datetime(2025, 1, 6), datetime(2025, 1, 13), datetime(2025, 1, 20)]
# A day of each week from week 0 to week 4: the first and the last are outside the range.
DAYS = ["2025-01-02 10:00", "2025-01-06 00:00", "2025-01-19 23:59", "2025-01-26 23:59", "2025-01-27 00:00"]


@pytest.fixture
def tracker(make_user, login):
    return login(make_user("suivi", [TRACK], first_name="Suzanne", last_name="Suivi"))


def export(client, headers, language=None, **body):
    if language is not None:
        headers = {**headers, "Accept-Language": language}
    return client.post(EXPORT, json={**WEEKS, **body}, headers=headers)


def sheets(response):
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == XLSX
    assert response.headers["content-disposition"] == 'attachment; filename="contributions.xlsx"'
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    return {
        sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)] for sheet in book.worksheets
    }


def on_subject(db, m, when, *, user_id, mode="R"):
    add(
        db,
        at(when),
        user_id=user_id,
        item_type="subject",
        item_id=m.subject("S1"),
        mode=mode,
        cartography_id=m.cartography("C1"),
    )


# The figures against a plain count ------------------------------------------------------------------------


@pytest.fixture
def people(db, make_user):
    """Four people (by name: Adam, Bernard, Carré, Dubois) and two groups: Jour (Adam, Bernard) and Nuit
    (Bernard, Dubois)."""
    users = [
        make_user("d", first_name="Denis", last_name="Dubois"),
        make_user("a", first_name="Alice", last_name="Adam"),
        make_user("c", first_name="Chloé", last_name="Carré"),
        make_user("b", first_name="Bruno", last_name="Bernard"),
    ]
    by_name = sorted(users, key=lambda u: u.last_name)
    day, night = Group(name="Jour"), Group(name="Nuit")
    db.add_all([day, night])
    db.flush()
    for group, members in ((day, by_name[:2]), (night, [by_name[1], by_name[3]])):
        for user in members:
            db.execute(insert(user_group).values(user_id=user.id, group_id=group.id))
    db.commit()
    return by_name, [day, night]


entries_strategy = st.lists(
    st.tuples(st.sampled_from([0, 1, 2, 3, None]), st.integers(0, len(DAYS) - 1), st.sampled_from("RW")),
    max_size=25,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    entries=entries_strategy,
    named=st.sets(st.integers(0, 3), max_size=2),
    groups=st.sets(st.integers(0, 1)),
)
def test_the_sheets_match_a_plain_count(client, db, test_map, tracker, people, entries, named, groups):
    users, group_rows = people
    db.execute(delete(HistoryEntry))
    db.commit()
    for who, day, mode in entries:
        on_subject(db, test_map, DAYS[day], user_id=None if who is None else users[who].id, mode=mode)

    members = {0: {0, 1}, 1: {1, 3}}
    chosen = set(named).union(*(members[g] for g in groups))
    counted = {}  # person index (None: deleted accounts) -> [writes per week], [views per week]
    for who, day, mode in entries:
        if not 1 <= day <= 3 or (chosen and who not in chosen):
            continue
        figures = counted.setdefault(who, ([0, 0, 0], [0, 0, 0]))
        figures[0 if mode == "W" else 1][day - 1] += 1
    listed = (
        sorted(chosen)
        if chosen
        else sorted(w for w in counted if w is not None) + ([None] if None in counted else [])
    )

    def rows(sheet: int, average: str, deleted: str) -> list[list]:
        body = []
        for who in listed:
            counts = counted.get(who, ([0, 0, 0], [0, 0, 0]))[sheet]
            name = deleted if who is None else f"{users[who].first_name} {users[who].last_name}"
            body.append([name, *counts, sum(counts)])
        sums = [sum(row[column] for row in body) for column in range(1, 5)]
        means = [round(total / len(body), 1) if body else 0 for total in sums]
        return body + [[average, *means]]

    body = {"userIds": [users[i].id for i in named], "groupIds": [group_rows[g].id for g in groups]}
    book = sheets(export(client, tracker, **body))
    assert list(book) == ["Contributions", "Consultations"]
    for title, sheet in (("Contributions", 0), ("Consultations", 1)):
        assert book[title][0] == ["Utilisateur", *WEEK_STARTS, "Total"]
        assert book[title][1:] == rows(sheet, "Moyenne", "Compte supprimé"), title

    # The chart counts the same entries.
    chart = client.post(CHART, json={**WEEKS, **body}, headers=tracker).json()["periods"]
    assert [p["contributions"] for p in chart] == [sum(counted[w][0][i] for w in counted) for i in range(3)]
    assert [p["views"] for p in chart] == [sum(counted[w][1][i] for w in counted) for i in range(3)]


# The file ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "titles", "user", "average"),
    [
        (None, ["Contributions", "Consultations"], "Utilisateur", "Moyenne"),
        ("fr-FR,fr;q=0.9", ["Contributions", "Consultations"], "Utilisateur", "Moyenne"),
        ("en", ["Contributions", "Views"], "User", "Average"),
        ("en-GB,en;q=0.9,fr;q=0.8", ["Contributions", "Views"], "User", "Average"),
        ("fr;q=0.5, en;q=0.8", ["Contributions", "Views"], "User", "Average"),
        ("de-DE, en;q=0.3", ["Contributions", "Views"], "User", "Average"),
        ("de-DE", ["Contributions", "Consultations"], "Utilisateur", "Moyenne"),
        ("en;q=0", ["Contributions", "Consultations"], "Utilisateur", "Moyenne"),
    ],
)
def test_sheet_names_and_headers_in_the_language_asked(
    client, db, test_map, tracker, people, language, titles, user, average
):
    users, _groups = people
    on_subject(db, test_map, DAYS[1], user_id=users[0].id, mode="W")
    book = sheets(export(client, tracker, language))
    assert list(book) == titles
    for rows in book.values():
        assert rows[0][0] == user and rows[0][-1] == "Total"
        assert rows[-1][0] == average
    assert book[titles[0]][1:] == [["Alice Adam", 1, 0, 0, 1], [average, 1, 0, 0, 1]]
    assert book[titles[1]][1:] == [["Alice Adam", 0, 0, 0, 0], [average, 0, 0, 0, 0]]


def test_dates_shown_as_the_client_shows_them(client, tracker):
    for language, pattern in (("fr", "dd/mm/yyyy"), ("en", "yyyy-mm-dd")):
        response = export(client, tracker, language)
        assert response.status_code == 200
        sheet = openpyxl.load_workbook(io.BytesIO(response.content)).worksheets[0]
        assert sheet.cell(1, 2).value == WEEK_STARTS[0]
        assert sheet.cell(1, 2).number_format == pattern


def test_months_headed_as_months(client, tracker):
    """A month's column is headed by the month ("novembre 2026", "2026-11"), not by its first day."""
    body = {"fromYear": 2025, "granularity": "month", "start": 1, "count": 2}
    for language, pattern in (("fr", "[$-40C]mmmm yyyy"), ("en", "yyyy-mm")):
        response = client.post(EXPORT, json=body, headers=tracker | {"Accept-Language": language})
        assert response.status_code == 200, response.text
        for sheet in openpyxl.load_workbook(io.BytesIO(response.content)).worksheets:
            assert [sheet.cell(1, column).value for column in (2, 3)] == [
                datetime(2025, 2, 1),
                datetime(2025, 3, 1),
            ]
            assert {sheet.cell(1, column).number_format for column in (2, 3)} == {pattern}


def test_months(client, db, test_map, tracker, people):
    users, _groups = people
    on_subject(db, test_map, "2025-02-28 23:59", user_id=users[1].id)
    on_subject(db, test_map, "2025-03-01 00:00", user_id=users[1].id, mode="W")
    book = sheets(
        client.post(
            EXPORT, json={"fromYear": 2025, "granularity": "month", "start": 1, "count": 2}, headers=tracker
        )
    )
    writes, views = book.values()
    assert writes[0] == ["Utilisateur", datetime(2025, 2, 1), datetime(2025, 3, 1), "Total"]
    assert writes[1:] == [["Bruno Bernard", 0, 1, 1], ["Moyenne", 0, 1, 1]]
    assert views[1:] == [["Bruno Bernard", 1, 0, 1], ["Moyenne", 1, 0, 1]]


def test_no_entry_no_user_named(client, tracker):
    book = sheets(export(client, tracker))
    for rows in book.values():
        assert rows[1:] == [["Moyenne", 0, 0, 0, 0]]


def test_an_average_of_one_decimal(client, db, test_map, tracker, people):
    users, _groups = people
    for _ in range(2):
        on_subject(db, test_map, DAYS[1], user_id=users[0].id, mode="W")
    book = sheets(export(client, tracker, userIds=[users[0].id, users[1].id, users[2].id]))
    assert book["Contributions"][-1] == ["Moyenne", 0.7, 0, 0, 0.7]


def test_only_items_the_user_may_read(client, db, two_sites, make_user, login):
    from mapping.maps import restrict

    m = two_sites
    writer = make_user("w", first_name="Wanda", last_name="Writer")
    on_subject(db, m, DAYS[1], user_id=writer.id, mode="W")
    add(
        db,
        at(DAYS[1]),
        user_id=writer.id,
        item_type="subject",
        item_id=m.subject("T1"),
        mode="W",
        cartography_id=m.cartography("C2"),
    )
    limited = make_user("limité", [TRACK])
    restrict(db, limited, m.cartography("C2"))
    book = sheets(export(client, login(limited), userIds=[writer.id]))
    assert book["Contributions"][1] == ["Wanda Writer", 1, 0, 0, 1]
    assert_error(export(client, login(limited), itemIds=[m.cartography("C1")]), 403)


@pytest.mark.parametrize(("language", "mark"), [("fr", " (inactif)"), ("en", " (inactive)")])
def test_a_person_who_left_is_marked_in_the_language_asked(
    client, db, test_map, tracker, people, make_user, login, language, mark
):
    users, _groups = people
    on_subject(db, test_map, DAYS[1], user_id=users[0].id, mode="W")
    on_subject(db, test_map, DAYS[2], user_id=users[1].id, mode="W")
    make_user("keeper", ["perm_SetPermissions"])  # someone still manages permissions
    manager = login(make_user("manager", ["perm_UserManagement"]))
    response = client.post(f"{API}/user/byId/{users[0].id}/deactivate", headers=manager)
    assert response.status_code == 200, response.text
    # Named, and with entries when nobody is named: the same row either way.
    for body in ({"userIds": [users[0].id, users[1].id]}, {}):
        writes, views = sheets(export(client, tracker, language, **body)).values()
        assert [row[0] for row in writes[1:-1]] == [f"Alice Adam{mark}", "Bruno Bernard"], body
        assert [row[0] for row in views[1:-1]] == [f"Alice Adam{mark}", "Bruno Bernard"], body
        assert writes[1] == [f"Alice Adam{mark}", 1, 0, 0, 1]


# Bounds, errors and permissions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("granularity", "count", "status"),
    [("week", 78, 200), ("week", 79, 422), ("month", 18, 200), ("month", 19, 422), ("week", 1, 200)],
)
def test_at_most_78_weeks_or_18_months(client, tracker, granularity, count, status):
    response = export(client, tracker, granularity=granularity, count=count, start=0)
    if status == 200:
        assert response.status_code == 200, response.text
        assert len(sheets(response)["Contributions"][0]) == count + 2
    else:
        assert_error(response, 422, "atLeastOneErrorLeft")
        assert field_codes(response) == {("count", "valueMustBeBetween")}


def test_the_chart_keeps_its_bounds(client, tracker):
    response = client.post(CHART, json={"fromYear": 2025, "count": 100}, headers=tracker)
    assert response.status_code == 200
    assert len(response.json()["periods"]) == 100


@pytest.mark.parametrize("count", [0, -1, "x"])
def test_count_at_least_one(client, tracker, count):
    assert_error(export(client, tracker, count=count), 422)


def test_unknown_groups(client, tracker, people):
    _users, groups = people
    for url in (CHART, EXPORT):
        response = client.post(url, json={**WEEKS, "groupIds": [groups[0].id, 999_999]}, headers=tracker)
        assert_error(response, 404, "groupNotFound")
        assert field_codes(response) == {("groupIds", "groupNotFound")}


def test_unknown_items(client, test_map, tracker):
    assert_error(export(client, tracker, itemIds=[999_999]), 404, "itemNotFound")


@pytest.mark.parametrize(("permissions", "status"), [([TRACK], 200), (["perm_TableauBord"], 403), ([], 403)])
def test_who_may_export(client, make_user, login, permissions, status):
    response = export(client, login(make_user("x", permissions)))
    assert response.status_code == status
    if status != 200:
        assert_error(response, status)


def test_anonymous(client):
    assert_error(client.post(EXPORT, json=WEEKS), 401)


# groupIds on the chart ---------------------------------------------------------------------------------


def test_group_members_count_as_named_users(client, db, test_map, tracker, people):
    users, (day, night) = people
    for user, mode in zip(users, "RWRW", strict=True):
        on_subject(db, test_map, DAYS[1], user_id=user.id, mode=mode)

    def week(**body):
        periods = client.post(CHART, json={**WEEKS, **body}, headers=tracker).json()["periods"]
        return periods[0]["views"], periods[0]["contributions"]

    assert week() == (2, 2)
    assert week(groupIds=[day.id]) == (1, 1)  # Adam (R), Bernard (W)
    assert week(groupIds=[night.id]) == (0, 2)  # Bernard (W), Dubois (W)
    assert week(groupIds=[day.id, night.id]) == (1, 2)
    assert week(groupIds=[night.id], userIds=[users[2].id]) == (1, 2)  # and Carré (R)
    assert week(groupIds=[night.id], userIds=[users[1].id]) == (0, 2)  # Bernard once
