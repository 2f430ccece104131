"""Tomorrow's coverage (qualifications.forecast, docs/qualifications.md "Tomorrow's coverage"): each
function's qualified people today and at +30, +60 and +90 days against its minimum, with those of
them being requalified, on the cartography qualification dashboard and the plan's answer
(GET /dashboards/cartography/{id}/coverage); the bell's functionUnderMinimum for the managers of the
cartography; visibility in each."""

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import update

from qualifications.world import (
    ADMIN,
    BOARD,
    TODAY,
    graded,
    group,
    in_progress,
    join,
    module,
    on,
    qualification,
)
from spot.core.time import midnight
from spot.mapping.models import CartographyVisibility, Function
from spot.notifications import coverage as coverage_warnings
from spot.qualifications import coverage, forecast
from spot.qualifications.validity import ModuleValidity
from support import API

ALERTS = f"{API}/account/alerts"


def coverage_of(client, headers, cartography_id):
    return client.get(f"{API}/dashboards/cartography/{cartography_id}/coverage", headers=headers)


def points(entry):
    """(days, valid, requalifying, under the minimum) of each day of a function's forecast."""
    return [(p["days"], p["valid"], p["requalifying"], p["underMinimum"]) for p in entry["points"]]


@pytest.fixture
def workshop(client, db, test_map, make_user, login, today):
    """C1's function F2 (Contrôleur, minimum 3) is covered by 'Contrôle' (module 'Mesurer', a spot
    element on F2), of the team Atelier, which the manager Marie belongs to. On Mesurer: Anne holds it
    for good, Bruno until +20 and is being requalified, Chloé until +45, David until +120; Emma's expired
    3 days ago (being requalified: not counted); Fanny never passed it. Two people expire within 60 days
    and one of them is being requalified."""
    people = {
        name: make_user(name, first_name=name.title(), last_name="Test", email=f"{name}@usine.example")
        for name in ("anne", "bruno", "chloe", "david", "emma", "fanny")
    }
    marie = make_user(
        "marie", [BOARD, ADMIN], first_name="Marie", last_name="Martin", email="marie@usine.example"
    )
    team = group(db, "Atelier", [p.id for p in people.values()] + [marie.id])
    mesurer = module(db, "Mesurer", functions=[test_map.function("F2")])
    headers = login(marie)
    c1 = test_map.cartography("C1")
    controle = qualification(
        client, headers, "Contrôle", groups=[team], modules=[mesurer], cartographies=[c1]
    )
    ids = {name: user.id for name, user in people.items()}
    graded(db, ids["anne"], mesurer, days=None)
    graded(db, ids["bruno"], mesurer, days=20)
    in_progress(db, ids["bruno"], mesurer)
    graded(db, ids["chloe"], mesurer, days=45)
    graded(db, ids["david"], mesurer, days=120)
    graded(db, ids["emma"], mesurer, days=-3)
    in_progress(db, ids["emma"], mesurer)
    return {
        "people": ids,
        "marie": marie,
        "headers": headers,
        "team": team,
        "c1": c1,
        "f2": test_map.function("F2"),
        "map": test_map,
        "mesurer": mesurer,
        "controle": controle,
    }


def f2(answer, workshop):
    (entry,) = [f for f in answer if f["function"]["id"] == workshop["f2"]]
    return entry


def test_the_hand_made_case(client, workshop):
    answer = coverage_of(client, workshop["headers"], workshop["c1"])
    assert answer.status_code == 200, answer.text
    entry = f2(answer.json()["functions"], workshop)
    assert points(entry) == [
        (0, 4, 0, False),  # Anne, Bruno, Chloé, David
        (30, 3, 1, False),  # Bruno dropped out, being requalified
        (60, 2, 1, True),  # Chloé too: under the minimum of 3
        (90, 2, 1, True),
    ]
    assert [p["date"] for p in entry["points"]] == [on(0), on(30), on(60), on(90)]
    assert entry["minimum"] == 3
    assert entry["fallsOn"] == on(46)  # the day after Chloé's last valid day
    assert entry["outlook"] == "falling"
    assert entry["cartographyId"] == workshop["c1"]


def test_the_cartography_dashboard_carries_the_same_forecast(client, workshop):
    dashboard = client.get(
        f"{API}/dashboards/qualifications/cartography/{workshop['c1']}", headers=workshop["headers"]
    ).json()
    plan = coverage_of(client, workshop["headers"], workshop["c1"]).json()
    assert dashboard["forecast"] == plan["functions"]
    # F1 (no qualification covers it) and F3 (none either): nobody, under their minimum today; F2 falls.
    assert [(f["function"]["name"], f["outlook"]) for f in plan["functions"]] == [
        ("Magasinier", "nobody"),
        ("Opérateur régleur", "nobody"),
        ("Contrôleur", "falling"),
    ]
    assert plan["warnDays"] == 60
    assert plan["cartography"] == {"id": workshop["c1"], "name": "Atelier de test"}


def test_the_minimum_decides_the_outlook(client, db, workshop):
    def outlook(minimum):
        db.execute(update(Function).where(Function.id == workshop["f2"]).values(minimum_qualified=minimum))
        db.commit()
        entry = f2(coverage_of(client, workshop["headers"], workshop["c1"]).json()["functions"], workshop)
        return entry["outlook"], entry["fallsOn"], [p["underMinimum"] for p in entry["points"]]

    assert outlook(0) == ("enough", None, [False] * 4)  # needs nobody
    assert outlook(2) == ("enough", None, [False] * 4)  # Anne and David stay beyond 90 days
    assert outlook(4) == ("falling", on(21), [False, True, True, True])  # Bruno's last day is +20
    assert outlook(5) == ("under", None, [True] * 4)


def test_a_qualification_naming_its_functions_covers_those(client, db, workshop):
    """With qualification_function, the qualification covers the functions it names (coverage's rule)."""
    from spot.qualifications.models import QualificationFunction

    db.add(
        QualificationFunction(
            qualification_id=workshop["controle"], function_id=workshop["map"].function("F1")
        )
    )
    db.commit()
    functions = coverage_of(client, workshop["headers"], workshop["c1"]).json()["functions"]
    outlooks = {f["function"]["name"]: (f["outlook"], points(f)[0][1]) for f in functions}
    assert outlooks == {
        "Opérateur régleur": ("falling", 4),
        "Contrôleur": ("nobody", 0),
        "Magasinier": ("nobody", 0),
    }


def test_a_requalification_graded_brings_the_person_back(client, db, workshop):
    graded(db, workshop["people"]["bruno"], workshop["mesurer"], days=365, graded_days_ago=0)
    entry = f2(coverage_of(client, workshop["headers"], workshop["c1"]).json()["functions"], workshop)
    assert points(entry) == [(0, 4, 0, False), (30, 4, 0, False), (60, 3, 0, False), (90, 3, 0, False)]
    assert entry["outlook"] == "enough"


# Permissions and visibility ---------------------------------------------------------------------------


def test_the_plan_answer_needs_the_dashboards_permission(client, make_user, login, workshop):
    assert coverage_of(client, login(make_user()), workshop["c1"]).status_code == 403
    assert coverage_of(client, workshop["headers"], 999999).status_code == 404


def test_a_hidden_cartography_answers_403(client, db, make_user, login, workshop):
    user = make_user(permissions=[BOARD])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="cartography", item_id=workshop["map"].cartography("C2")
        )
    )
    db.commit()
    assert coverage_of(client, login(user), workshop["c1"]).status_code == 403


def test_only_the_functions_the_user_sees(client, db, make_user, login, workshop):
    user = make_user(permissions=[BOARD])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="function", item_id=workshop["map"].function("F1")
        )
    )
    db.commit()
    headers = login(user)
    functions = coverage_of(client, headers, workshop["c1"]).json()["functions"]
    assert [f["function"]["name"] for f in functions] == ["Opérateur régleur"]
    dashboard = client.get(
        f"{API}/dashboards/qualifications/cartography/{workshop['c1']}", headers=headers
    ).json()
    assert [f["function"]["name"] for f in dashboard["forecast"]] == ["Opérateur régleur"]


# The bell ------------------------------------------------------------------------------------------------


def bell(client, headers):
    response = client.get(ALERTS, headers=headers)
    assert response.status_code == 200, response.text
    return [a for a in response.json()["alerts"] if a["kind"] == "functionUnderMinimum"]


def scan(db, day=TODAY):
    """The daily scan's coverage step, whose findings the bell shows."""
    coverage_warnings.warn(db, day=day)
    db.commit()


def test_the_manager_is_told_of_the_fall_the_scan_found(client, db, workshop):
    assert bell(client, workshop["headers"]) == []  # nothing before the day's scan
    scan(db)
    (alert,) = bell(client, workshop["headers"])
    assert alert["args"] == {
        "name": "Contrôleur",
        "cartography": "Atelier de test",
        "fallsOn": on(46),
        "days": 46,
        "valid": 2,
        "minimum": 3,
    }
    assert alert["target"] == {"type": "cartographyQualifications", "id": workshop["c1"]}
    assert datetime.fromisoformat(alert["date"]) == midnight(TODAY)  # the day the scan found it


def test_a_fall_beyond_60_days_is_not_told(client, db, workshop):
    graded(db, workshop["people"]["chloe"], workshop["mesurer"], days=70, graded_days_ago=0)
    scan(db)
    assert bell(client, workshop["headers"]) == []  # falls on +71


def test_a_function_already_under_its_minimum_is_not_a_fall(client, db, workshop):
    db.execute(update(Function).where(Function.id == workshop["f2"]).values(minimum_qualified=5))
    db.commit()
    scan(db)
    assert bell(client, workshop["headers"]) == []


def test_a_fall_that_no_longer_holds_leaves_the_bell_at_the_next_scan(client, db, workshop):
    scan(db)
    # Chloé renewed: F2 now falls on +71, beyond 60 days.
    graded(db, workshop["people"]["chloe"], workshop["mesurer"], days=70, graded_days_ago=0)
    assert len(bell(client, workshop["headers"])) == 1  # as of this morning's scan
    scan(db)
    assert bell(client, workshop["headers"]) == []


def test_who_is_told(client, db, make_user, login, workshop):
    outsider = make_user(permissions=[BOARD])  # a manager outside the team who sees the cartography
    member = make_user()  # in the team, without the permission
    blind = make_user(permissions=[BOARD])  # a manager of the team who does not see F2
    join(db, workshop["team"], member.id, blind.id)
    # The team's group sees C2 only, blind's own F1 only (Marie's own group sees everything).
    c2 = workshop["map"].cartography("C2")
    db.add(CartographyVisibility(group_id=workshop["team"], item_type="cartography", item_id=c2))
    f1 = workshop["map"].function("F1")
    db.add(CartographyVisibility(group_id=blind.groups[0].id, item_type="function", item_id=f1))
    db.commit()
    scan(db)
    assert len(bell(client, workshop["headers"])) == 1
    assert len(bell(client, login(outsider))) == 1
    assert bell(client, login(member)) == []
    assert bell(client, login(blind)) == []
    # What a manager sees is read at each call: the outsider's group limited to C2 after the scan.
    db.add(CartographyVisibility(group_id=outsider.groups[0].id, item_type="cartography", item_id=c2))
    db.commit()
    assert bell(client, login(outsider)) == []


# The rule in plain Python -------------------------------------------------------------------------------


def test_falls_on_is_the_first_day_under_the_minimum():
    today = date(2026, 6, 15)
    function = coverage.SeenFunction(id=1, name="F", code="F", cartography_id=1, minimum=2)

    def hold(days, requalifying=False):
        until = None if days is None else today + timedelta(days=days)
        remaining = 10000 if days is None else days
        return ModuleValidity(remaining, until, 1, 2 if requalifying else None)

    holds = {7: [(1, "a", hold(10)), (2, "b", hold(0, True)), (3, "c", hold(-1, True)), (4, "d", hold(89))]}
    f = forecast.of_function(function, [7], holds, today)
    # b's last day is today: from tomorrow a and d remain; from +11 d alone (under 2): falls on +11.
    assert f.falls_on == today + timedelta(days=11)
    assert f.falls_to == 1
    assert [(p.valid, p.requalifying) for p in f.points] == [(3, 0), (1, 1), (1, 1), (0, 1)]
    # Two holds of one person on two covering qualifications: the longer counts.
    holds[8] = [(1, "a", hold(None))]
    f = forecast.of_function(function, [7, 8], holds, today)
    assert f.falls_on == today + timedelta(days=90)  # d's last day is +89
    assert [p.valid for p in f.points] == [3, 2, 2, 1]


@settings(max_examples=300, deadline=None)
@given(
    people=st.lists(
        st.lists(
            st.tuples(st.one_of(st.none(), st.integers(-5, 120)), st.booleans()), min_size=1, max_size=2
        ),
        max_size=8,
    ),
    minimum=st.integers(0, 6),
)
def test_the_forecast_agrees_with_counting_day_by_day(people, minimum):
    """Each person's holds on two covering qualifications (last day as days from today, None: permanent;
    being requalified or not), counted naively day by day."""
    today = date(2026, 6, 15)
    function = coverage.SeenFunction(id=1, name="F", code="F", cartography_id=1, minimum=minimum)
    holds: dict[int, list] = {1: [], 2: []}
    for user_id, person in enumerate(people):
        for q, (days, requalifying) in zip((1, 2), person, strict=False):
            until = None if days is None else today + timedelta(days=days)
            remaining = 10000 if days is None else days
            holds[q].append((user_id, "p", ModuleValidity(remaining, until, 1, 2 if requalifying else None)))

    def last(person):
        valid = [(10**6 if d is None else d) for d, _ in person if d is None or d >= 0]
        return max(valid) if valid else None

    def requalified(person):
        return any(r for d, r in person if d is None or d >= 0)

    def valid_on(d):
        return sum(1 for p in people if last(p) is not None and last(p) >= d)

    f = forecast.of_function(function, [1, 2], holds, today)
    assert [(p.valid, p.requalifying) for p in f.points] == [
        (
            valid_on(d),
            sum(1 for p in people if last(p) is not None and last(p) < d and requalified(p)),
        )
        for d in forecast.HORIZONS
    ]
    falls = [d for d in range(0, 91) if valid_on(d) < minimum]
    expected = falls[0] if falls and valid_on(0) >= minimum else None
    assert f.falls_on == (None if expected is None else today + timedelta(days=expected))
    assert f.falls_to == (None if expected is None else valid_on(expected))
