"""My dashboard (GET /dashboards/mine): the user's current paths as learner, the bell's awaited actions
grouped by kind, their own contributions per month over the 12 months ending with this one, and the
validity of their periodic modules (colours and inclusive day counts at their boundaries, today fixed)."""

from datetime import date, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete

from dashboards.data import MINE, TODAY, fix_today, graded, module, path
from history.entries import add, at
from spot.training.paths.models import PathStatus, TrainingPath

DAY = timedelta(days=1)


@pytest.fixture
def me(make_user, login, monkeypatch):
    fix_today(monkeypatch)
    user = make_user("moi", first_name="Gabriel", last_name="Roux")
    return user, login(user)


def mine(client, headers):
    response = client.get(MINE, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def test_a_new_user_has_an_empty_dashboard(client, me):
    _user, headers = me
    body = mine(client, headers)
    assert body["currentPaths"] == [] and body["alerts"] == [] and body["periodicModules"] == []
    assert [p["start"] for p in body["contributions"]] == [
        f"{year}-{month:02d}-01"
        for year, month in [(2025, m) for m in range(5, 13)] + [(2026, m) for m in range(1, 5)]
    ]
    assert all(p["views"] == 0 and p["contributions"] == 0 for p in body["contributions"])


def test_current_paths_are_the_learners_own_at_their_boundaries(client, db, make_user, me):
    user, headers = me
    other = make_user("autre")
    kept = [
        path(db, user.id, start=TODAY, stop=TODAY + DAY, done=1, total=3, title="Commence aujourd'hui"),
        path(db, user.id, start=TODAY - DAY, stop=TODAY, done=2, total=3, title="Finit aujourd'hui"),
        path(db, user.id, start=TODAY, stop=TODAY, status="notAccepted", title="Un jour"),
    ]
    path(db, user.id, start=TODAY + DAY, stop=TODAY + 2 * DAY, title="Demain")
    path(db, user.id, start=TODAY - 2 * DAY, stop=TODAY - DAY, title="Hier")
    path(db, user.id, start=TODAY - DAY, stop=TODAY + DAY, status="canceled", title="Annulé")
    path(db, other.id, start=TODAY - DAY, stop=TODAY + DAY, title="D'un autre")
    db.commit()
    paths = mine(client, headers)["currentPaths"]
    # Soonest stop first, then earliest start.
    assert [p["id"] for p in paths] == [kept[1], kept[2], kept[0]]
    assert paths[0] == {
        "id": kept[1],
        "title": "Finit aujourd'hui",
        "status": "started",
        "startDate": (TODAY - DAY).isoformat(),
        "stopDate": TODAY.isoformat(),
        "completion": 67,
        "completionColour": "success",
    }
    assert [p["completion"] for p in paths] == [67, -1, 33]


# Periodic modules ---------------------------------------------------------------------------------------

# (valid until, days, colour) with today 2026-04-15: green from 2026-05-15 (a month ahead), red until the
# day before, grey once expired; listed down to 2026-02-15 (two months ago).
PERIODIC = [
    (date(2026, 6, 1), 48, "green"),
    (date(2026, 5, 15), 31, "green"),
    (date(2026, 5, 14), 30, "red"),
    (date(2026, 4, 16), 2, "red"),
    (TODAY, 1, "red"),
    (date(2026, 4, 14), 0, "grey"),
    (date(2026, 2, 15), -58, "grey"),
]


@pytest.mark.parametrize(("valid_until", "days", "color"), PERIODIC)
def test_periodic_module_colours_and_days(client, db, me, valid_until, days, color):
    user, headers = me
    module_id = module(db, "Habilitation électrique", periodicity=12)
    path_id = path(
        db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status="archived", title="H0B0"
    )
    graded(db, path_id, module_id, valid_until=valid_until, position=2)
    db.commit()
    assert mine(client, headers)["periodicModules"] == [
        {
            "pathId": path_id,
            "pathTitle": "H0B0",
            "moduleIndex": 2,
            "moduleId": module_id,
            "moduleName": "Habilitation électrique",
            "validUntil": valid_until.isoformat(),
            "days": days,
            "color": color,
        }
    ]


def test_which_modules_are_listed(client, db, make_user, me):
    user, headers = me
    periodic = module(db, "Périodique", periodicity=6)
    permanent = module(db, "Permanent")
    done = path(db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status="validated")
    listed = graded(db, done, periodic, valid_until=TODAY + 40 * DAY, position=0)
    graded(db, done, periodic, valid_until=date(2026, 2, 14), position=1)  # expired more than 2 months ago
    graded(db, done, periodic, valid_until=TODAY, position=2, success=False)  # failed
    graded(db, done, permanent, valid_until=None, position=3)  # not periodic
    graded(db, done, periodic, valid_until=TODAY, position=4, status="disabled")
    canceled = path(
        db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status=PathStatus.canceled.value
    )
    graded(db, canceled, periodic, valid_until=TODAY, position=0)
    elsewhere = path(db, make_user("autre").id, start=date(2025, 1, 1), stop=date(2025, 12, 31))
    graded(db, elsewhere, periodic, valid_until=TODAY, position=0)
    second = path(db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status="validated")
    soonest = graded(db, second, periodic, valid_until=TODAY + DAY, position=0)
    db.commit()
    modules = mine(client, headers)["periodicModules"]
    assert [(m["pathId"], m["moduleIndex"]) for m in modules] == [(second, 0), (done, 0)]
    assert listed and soonest


# Awaited actions ----------------------------------------------------------------------------------------


def test_awaited_actions_grouped_by_kind_in_the_bells_order(client, db, make_user, me):
    user, headers = me
    for title in ("A", "B"):
        path(db, user.id, start=TODAY, stop=TODAY + DAY, status="notAccepted", title=title)
    path(db, user.id, start=TODAY - 9 * DAY, stop=TODAY - DAY, status="validated", title="C")
    db.commit()
    groups = mine(client, headers)["alerts"]
    assert [(g["kind"], g["count"], sorted(a["args"]["title"] for a in g["alerts"])) for g in groups] == [
        ("trainingPathToAccept", 2, ["A", "B"]),
        ("trainingPathToSign", 1, ["C"]),
    ]
    bell = client.get("/backend/api/v2/account/alerts", headers=headers).json()
    assert bell["count"] == sum(g["count"] for g in groups)
    assert sorted(a["target"]["id"] for a in bell["alerts"]) == sorted(
        a["target"]["id"] for g in groups for a in g["alerts"]
    )


# The personal chart -------------------------------------------------------------------------------------


def test_own_contributions_per_month_over_twelve_months(client, db, make_user, me):
    user, headers = me
    from mapping.maps import load

    m = load(db)
    other = make_user("autre")

    def entry(when, mode="R", user_id=user.id):
        add(
            db,
            at(when),
            user_id=user_id,
            item_type="subject",
            item_id=m.subject("S1"),
            mode=mode,
            cartography_id=m.cartography("C1"),
        )

    entry("2025-04-30 23:59")  # before the first month
    entry("2025-05-01 00:00")
    entry("2025-05-20 10:00", mode="W")
    entry("2026-04-01 00:00", mode="W")
    entry("2026-04-15 08:00")
    entry("2026-04-15 08:00", user_id=other.id)
    periods = mine(client, headers)["contributions"]
    assert len(periods) == 12
    figures = {p["start"]: (p["views"], p["contributions"]) for p in periods}
    assert figures["2025-05-01"] == (1, 1)
    assert figures["2026-04-01"] == (1, 1)
    assert sum(v + c for v, c in figures.values()) == 4


def test_a_learner_without_any_permission_sees_their_chart(client, db, me):
    _user, headers = me
    assert len(mine(client, headers)["contributions"]) == 12


def test_january_ends_twelve_months_from_february_of_last_year(client, me, monkeypatch):
    _user, headers = me
    fix_today(monkeypatch, date(2027, 1, 3))
    starts = [p["start"] for p in mine(client, headers)["contributions"]]
    assert starts[0] == "2026-02-01" and starts[-1] == "2027-01-01"


@pytest.mark.parametrize(
    ("today", "valid_until", "color"),
    [
        # A month from 31 January is 28 February (the month's last day).
        (date(2026, 1, 31), date(2026, 2, 28), "green"),
        (date(2026, 1, 31), date(2026, 2, 27), "red"),
        (date(2026, 12, 15), date(2027, 1, 15), "green"),
        (date(2026, 12, 15), date(2027, 1, 14), "red"),
        # Two months before 31 March is 31 January: still listed, grey.
        (date(2026, 3, 31), date(2026, 1, 31), "grey"),
    ],
)
def test_months_at_the_ends_of_months(client, db, me, monkeypatch, today, valid_until, color):
    user, headers = me
    fix_today(monkeypatch, today)
    path_id = path(db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status="archived")
    graded(db, path_id, module(db, periodicity=3), valid_until=valid_until)
    db.commit()
    (listed,) = mine(client, headers)["periodicModules"]
    assert (listed["color"], listed["days"]) == (color, (valid_until - today).days + 1)


def test_listed_from_two_months_ago(client, db, me, monkeypatch):
    user, headers = me
    fix_today(monkeypatch, date(2026, 3, 31))
    path_id = path(db, user.id, start=date(2025, 1, 1), stop=date(2025, 12, 31), status="archived")
    module_id = module(db, periodicity=3)
    graded(db, path_id, module_id, valid_until=date(2026, 1, 30), position=0)
    graded(db, path_id, module_id, valid_until=date(2026, 1, 31), position=1)
    db.commit()
    assert [m["moduleIndex"] for m in mine(client, headers)["periodicModules"]] == [1]


def _plain_add_months(day: date, months: int) -> date:
    """A calendar month later or earlier, the day clamped: written apart from the service's."""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    month += 1
    for last in (31, 30, 29, 28):
        try:
            return date(year, month, min(day.day, last))
        except ValueError:
            continue
    raise AssertionError(day)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    today=st.dates(min_value=date(2024, 1, 1), max_value=date(2027, 12, 31)),
    offsets=st.lists(st.integers(-75, 75), min_size=1, max_size=6),
)
def test_periodic_modules_against_a_plain_computation(client, db, me, monkeypatch, today, offsets):
    user, headers = me
    fix_today(monkeypatch, today)
    db.execute(delete(TrainingPath))
    db.commit()
    module_id = module(db, periodicity=6)
    path_id = path(db, user.id, start=date(2020, 1, 1), stop=date(2020, 12, 31), status="archived")
    for position, offset in enumerate(offsets):
        graded(db, path_id, module_id, valid_until=today + timedelta(days=offset), position=position)
    db.commit()
    expected = []
    for position, offset in enumerate(offsets):
        until = today + timedelta(days=offset)
        if until < _plain_add_months(today, -2):
            continue
        color = "grey" if until < today else "green" if until >= _plain_add_months(today, 1) else "red"
        expected.append((until.isoformat(), position, offset + 1, color))
    answered = [
        (m["validUntil"], m["moduleIndex"], m["days"], m["color"])
        for m in mine(client, headers)["periodicModules"]
    ]
    assert answered == sorted(expected)
