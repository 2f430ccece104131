"""POST /history/contributions: reads (views) and writes (contributions) per week or month, of the
entries on map items the caller may read, counted from known entries at known dates."""

import pytest

from history.entries import add, at
from mapping.maps import restrict
from spot.mapping.models import CartographyVisibility
from support import API, assert_error, field_codes

TRACK = "perm_VisuTrack"


def ask(client, headers, **body):
    return client.post(
        f"{API}/history/contributions", json={"fromYear": 2025, "count": 4, **body}, headers=headers
    )


def figures(response):
    assert response.status_code == 200, response.text
    return [(p["views"], p["contributions"]) for p in response.json()["periods"]]


@pytest.fixture
def tracker(make_user, login):
    return login(make_user("suivi", [TRACK]))


def on_subject(db, m, code, when, mode="R", user_id=None):
    add(
        db,
        at(when),
        user_id=user_id,
        item_type="subject",
        item_id=m.subject(code),
        mode=mode,
        cartography_id=m.cartography("C2" if code == "T1" else "C1"),
    )


# Periods ----------------------------------------------------------------------------------------------


def test_weeks_from_the_week_of_the_first_of_january(client, db, test_map, tracker):
    # 1 January 2025 is a Wednesday: week 0 runs from Monday 30 December 2024.
    on_subject(db, test_map, "S1", "2024-12-29 23:59")  # the week before
    on_subject(db, test_map, "S1", "2024-12-30 00:00")
    on_subject(db, test_map, "S1", "2025-01-05 23:59", mode="W")
    on_subject(db, test_map, "S2", "2025-01-06 00:00")
    on_subject(db, test_map, "S2", "2025-01-20 10:00", mode="W")
    on_subject(db, test_map, "S2", "2025-01-21 10:00", mode="W")
    on_subject(db, test_map, "S2", "2025-01-27 00:00")  # the week after
    response = ask(client, tracker)
    assert response.json()["granularity"] == "week"
    assert [p["start"] for p in response.json()["periods"]] == [
        "2024-12-30",
        "2025-01-06",
        "2025-01-13",
        "2025-01-20",
    ]
    assert figures(response) == [(1, 1), (1, 0), (0, 0), (0, 2)]
    later = ask(client, tracker, start=1, count=2)
    assert [p["start"] for p in later.json()["periods"]] == ["2025-01-06", "2025-01-13"]
    assert figures(later) == [(1, 0), (0, 0)]


def test_weeks_begin_at_midnight_of_the_organisation_time_zone(client, db, test_map, tracker):
    # 23:30 UTC on Sunday 5 January is 00:30 on Monday 6 January in Paris: the second week.
    on_subject(db, test_map, "S1", "2025-01-06 00:30")
    # Summer time: 00:30 on Monday 30 June in Paris is 22:30 UTC on Sunday.
    on_subject(db, test_map, "S1", "2025-06-30 00:30", mode="W")
    assert figures(ask(client, tracker, count=2)) == [(0, 0), (1, 0)]
    assert figures(ask(client, tracker, start=25, count=2)) == [(0, 0), (0, 1)]


def test_months(client, db, test_map, tracker):
    on_subject(db, test_map, "S1", "2024-12-31 23:59")
    on_subject(db, test_map, "S1", "2025-01-01 00:00", mode="W")
    on_subject(db, test_map, "S3", "2025-01-31 23:59")
    on_subject(db, test_map, "T1", "2025-03-15 12:00", mode="W")
    response = ask(client, tracker, fromYear=2024, granularity="month", start=11, count=4)
    assert [p["start"] for p in response.json()["periods"]] == [
        "2024-12-01",
        "2025-01-01",
        "2025-02-01",
        "2025-03-01",
    ]
    assert figures(response) == [(1, 0), (1, 1), (0, 0), (0, 1)]
    # Summer time: 00:30 on 1 July in Paris is 22:30 UTC on 30 June.
    on_subject(db, test_map, "S1", "2025-07-01 00:30")
    assert figures(ask(client, tracker, fromYear=2024, granularity="month", start=17, count=2)) == [
        (0, 0),
        (1, 0),
    ]


def test_weeks_across_years(client, db, test_map, tracker):
    on_subject(db, test_map, "S1", "2026-01-02 12:00")
    periods = ask(client, tracker, fromYear=2025, start=52, count=2).json()["periods"]
    assert [p["start"] for p in periods] == ["2025-12-29", "2026-01-05"]
    assert [p["views"] for p in periods] == [1, 0]


# Filters ------------------------------------------------------------------------------------------------


def test_user_ids(client, db, test_map, make_user, tracker):
    anne, bob = make_user("anne"), make_user("bob")
    on_subject(db, test_map, "S1", "2025-01-07 10:00", user_id=anne.id)
    on_subject(db, test_map, "S1", "2025-01-07 11:00", mode="W", user_id=bob.id)
    on_subject(db, test_map, "S1", "2025-01-07 12:00", mode="W", user_id=None)
    assert figures(ask(client, tracker, count=2)) == [(0, 0), (1, 2)]
    assert figures(ask(client, tracker, count=2, userIds=[anne.id])) == [(0, 0), (1, 0)]
    assert figures(ask(client, tracker, count=2, userIds=[anne.id, bob.id])) == [(0, 0), (1, 1)]


@pytest.fixture
def spread(db, two_sites):
    """One read of each item kind of C1, C2 and C3, in week 1 of 2025, and writes on a few."""
    m = two_sites
    c1, c2 = m.cartography("C1"), m.cartography("C2")
    day = "2025-01-07 10:00"
    add(db, at(day), user_id=None, item_type="cartography", item_id=c1, cartography_id=c1)
    add(db, at(day), user_id=None, item_type="function", item_id=m.function("F1"), cartography_id=c1)
    add(
        db, at(day), user_id=None, item_type="function", item_id=m.function("F2"), cartography_id=c1, mode="W"
    )
    for code in ("S1", "S2", "S3", "T1"):
        on_subject(db, m, code, day)
    on_subject(db, m, "S3", day, mode="W")
    add(db, at(day), user_id=None, item_type="cartography", item_id=c2, cartography_id=c2, mode="W")
    c3 = m.cartography("C3")
    add(db, at(day), user_id=None, item_type="function", item_id=m.function("H1"), cartography_id=c3)
    # Not an item of the map: no cartography.
    add(db, at(day), user_id=None, item_type="user", item_id=1)
    return m


def week1(client, headers, **body):
    return figures(ask(client, headers, start=1, count=1, **body))[0]


def test_item_ids(client, spread, tracker):
    m = spread
    assert week1(client, tracker) == (7, 3)  # the whole map
    assert week1(client, tracker, itemIds=[m.cartography("C1")]) == (5, 2)
    assert week1(client, tracker, itemIds=[m.cartography("C2")]) == (1, 1)
    assert week1(client, tracker, itemIds=[m.site_id]) == (6, 3)
    # A function: its own entries and its subjects' (S1, S3).
    assert week1(client, tracker, itemIds=[m.function("F1")]) == (3, 1)
    assert week1(client, tracker, itemIds=[m.function("F2")]) == (1, 1)
    # An activity: the subjects of it and of its sub-activities (S1 in A11, S3 in A121).
    assert week1(client, tracker, itemIds=[m.activity("A1")]) == (2, 1)
    assert week1(client, tracker, itemIds=[m.activity("A2")]) == (1, 0)
    assert week1(client, tracker, subjectIds=[m.subject("S3")]) == (1, 1)
    # A subject named in itemIds, as the spec's subject page asks for its own usage.
    assert week1(client, tracker, itemIds=[m.subject("S3")]) == (1, 1)
    assert week1(client, tracker, itemIds=[m.subject("S3"), m.function("F1")]) == (3, 1)
    # Several: each entry counts once.
    assert week1(
        client, tracker, itemIds=[m.cartography("C1"), m.function("F1")], subjectIds=[m.subject("T1")]
    ) == (6, 2)


def test_unknown_items(client, spread, tracker):
    response = ask(client, tracker, itemIds=[999_999])
    assert_error(response, 404, "itemNotFound")
    assert_error(ask(client, tracker, subjectIds=[999_999]), 404, "subjectNotFound")


# Visibility ---------------------------------------------------------------------------------------------


def test_a_hidden_cartography_counts_nothing(client, db, spread, make_user, login):
    m = spread
    user = make_user("limité", [TRACK])
    restrict(db, user, m.cartography("C2"))
    headers = login(user)
    assert week1(client, headers) == (1, 1)
    assert week1(client, headers, itemIds=[m.cartography("C2")]) == (1, 1)
    assert_error(ask(client, headers, itemIds=[m.cartography("C1")]), 403, "Insufficient rights to view")
    assert_error(ask(client, headers, itemIds=[m.function("F1")]), 403)
    assert_error(ask(client, headers, subjectIds=[m.subject("S1")]), 403)
    assert_error(ask(client, headers, itemIds=[m.subject("S1")]), 403)
    assert_error(ask(client, headers, itemIds=[m.site_id + 0, m.cartography("C1")]), 403)


def test_a_cartography_limited_to_a_function_counts_what_is_seen(client, db, spread, make_user, login):
    m = spread
    user = make_user("fonction", [TRACK])
    db.add(CartographyVisibility(group_id=user.groups[0].id, item_type="function", item_id=m.function("F1")))
    db.commit()
    headers = login(user)
    # C1 itself, F1, and F1's subjects S1 and S3; not F2 nor S2, nor C2 and C3.
    assert week1(client, headers) == (4, 1)
    assert week1(client, headers, itemIds=[m.cartography("C1")]) == (4, 1)
    assert_error(ask(client, headers, itemIds=[m.function("F2")]), 403)


def test_a_user_in_no_group_sees_no_entry(client, db, spread, make_user, login):
    user = make_user("seul", [TRACK])
    # Permissions through a group that sees nothing: a visibility row of a cartography that is gone.
    db.add(CartographyVisibility(group_id=user.groups[0].id, item_type="cartography", item_id=999_999))
    db.commit()
    assert week1(client, login(user)) == (0, 0)


# Who may ask, and bad input -----------------------------------------------------------------------------

ROLES = {"nobody": [], "tracker": [TRACK], "editor": ["perm_EditPdv", "perm_SetPermissions"]}
ACTIONS = {"contributions": TRACK, "mine": None}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, test_map, make_user, login, role, action):
    headers = login(make_user(permissions=ROLES[role]))
    if action == "contributions":
        response = ask(client, headers, itemIds=[test_map.cartography("C1")])
    else:
        response = client.get(f"{API}/history/mine?from=2025-01-01&to=2025-01-31", headers=headers)
    if ACTIONS[action] is None or ACTIONS[action] in ROLES[role]:
        assert response.status_code == 200, response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")


def test_signed_in_only(client):
    assert_error(ask(client, {}), 401)


@pytest.mark.parametrize(
    "body, code",
    [
        ({"granularity": "day"}, ("granularity", "enum")),
        ({"count": 0}, ("count", "greater_than_equal")),
        ({"count": 201}, ("count", "less_than_equal")),
        ({"count": None}, ("count", "int_type")),
        ({"start": -1}, ("start", "greater_than_equal")),
        ({"start": 5201}, ("start", "less_than_equal")),
        ({"fromYear": 1999}, ("fromYear", "greater_than_equal")),
        ({"fromYear": 2101}, ("fromYear", "less_than_equal")),
        ({"fromYear": "2025x"}, ("fromYear", "int_parsing")),
        ({"itemIds": ["x"]}, ("itemIds.0", "invalidId")),
        ({"itemIds": [-1]}, ("itemIds.0", "greater_than_equal")),
        ({"userIds": [True]}, ("userIds.0", "invalidId")),
        ({"subjectIds": "1"}, ("subjectIds", "list_type")),
        ({"userIds": list(range(1001))}, ("userIds", "too_long")),
    ],
)
def test_bad_input(client, make_user, login, body, code):
    response = ask(client, login(make_user(permissions=[TRACK])), **body)
    assert_error(response, 422, "atLeastOneErrorLeft")
    assert field_codes(response) == {code}


def test_the_year_is_required(client, make_user, login):
    response = client.post(
        f"{API}/history/contributions", json={"count": 2}, headers=login(make_user(permissions=[TRACK]))
    )
    assert_error(response, 422)
    assert field_codes(response) == {("fromYear", "emptyFieldError")}


def test_the_last_periods_allowed_answer(client, make_user, login):
    headers = login(make_user(permissions=[TRACK]))
    for granularity in ("week", "month"):
        response = ask(client, headers, fromYear=2100, start=5200, count=200, granularity=granularity)
        assert response.status_code == 200, response.text
        assert len(response.json()["periods"]) == 200
