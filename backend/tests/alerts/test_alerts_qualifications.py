"""The bell's qualification kinds (GET /account/alerts, and My dashboard's awaited actions):
qualificationExpiring for the user's own qualifications held 0 to 30 more days; teamQualificationExpiring
for perm_TableauBord holders, of the people of their groups held 0 to 90 more days, in the window of
90, 60, 30 or 7 days they entered; dated at midnight of the window's first day, aimed at the user's
qualification dashboard. Today is fixed."""

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, insert

from dashboards.data import BOARD, MINE, T0, TODAY, fix_today, held, module
from spot.core.time import midnight
from spot.qualifications.alerts import window
from spot.qualifications.models import Qualification, QualificationGroup, QualificationModule
from spot.training.paths.models import TrainingPath
from spot.users.models import Group, user_group
from support import API

URL = f"{API}/account/alerts"


def qualification(db, name, group_ids, module_ids):
    row = Qualification(name=name, created_at=T0, updated_at=T0)
    db.add(row)
    db.flush()
    for group_id in group_ids:
        db.add(QualificationGroup(qualification_id=row.id, group_id=group_id))
    for position, module_id in enumerate(module_ids):
        db.add(QualificationModule(qualification_id=row.id, module_id=module_id, position=position))
    db.flush()
    return row.id


def bell(client, headers, kind):
    response = client.get(URL, headers=headers)
    assert response.status_code == 200, response.text
    return [a for a in response.json()["alerts"] if a["kind"] == kind]


def iso(moment):
    return moment.isoformat().replace("+00:00", "Z")


@pytest.fixture
def world(db, make_user, login, monkeypatch):
    """A team (group Atelier): the manager Marie (perm_TableauBord), Anne and Bruno; a qualification
    'Cariste' for the team requiring two periodic modules."""
    fix_today(monkeypatch)
    team = Group(name="Atelier")
    db.add(team)
    db.flush()
    manager = make_user("marie", [BOARD], first_name="Marie", last_name="Manager")
    anne = make_user("anne", first_name="Anne", last_name="Aubry")
    bruno = make_user("bruno", first_name="Bruno", last_name="Blanc")
    for user in (manager, anne, bruno):
        db.execute(insert(user_group).values(user_id=user.id, group_id=team.id))
    modules = [module(db, "Conduite", periodicity=12), module(db, "Sécurité", periodicity=12)]
    cariste = qualification(db, "Cariste", [team.id], modules)
    db.commit()
    return {
        "team": team,
        "manager": manager,
        "anne": anne,
        "bruno": bruno,
        "modules": modules,
        "cariste": cariste,
        "headers": {u.login: login(u) for u in (manager, anne, bruno)},
    }


@pytest.mark.parametrize(
    ("days", "alerted"),
    [(-1, False), (0, True), (1, True), (7, True), (29, True), (30, True), (31, False), (10000, False)],
)
def test_own_qualification_expiring_within_30_days(client, db, world, days, alerted):
    anne = world["anne"]
    first, second = world["modules"]
    held(db, anne.id, first, days=days if days != 10000 else 400)
    held(db, anne.id, second, days=days if days != 10000 else 500)
    db.commit()
    alerts = bell(client, world["headers"]["anne"], "qualificationExpiring")
    if not alerted:
        assert alerts == []
        return
    assert alerts == [
        {
            "kind": "qualificationExpiring",
            "args": {"name": "Cariste", "days": days + 1, "validUntil": str(TODAY + timedelta(days=days))},
            "date": iso(midnight(TODAY + timedelta(days=days - 30))),
            "target": {"type": "userQualifications", "id": anne.id},
        }
    ]


def test_the_hold_is_the_earliest_module(client, db, world):
    anne = world["anne"]
    first, second = world["modules"]
    held(db, anne.id, first, days=200)
    held(db, anne.id, second, days=12)
    db.commit()
    (alert,) = bell(client, world["headers"]["anne"], "qualificationExpiring")
    assert alert["args"] == {"name": "Cariste", "days": 13, "validUntil": str(TODAY + timedelta(days=12))}


def test_a_module_never_held_means_no_hold(client, db, world):
    # Only one of the two modules is held: the qualification is not held at all (never validated).
    held(db, world["anne"].id, world["modules"][0], days=5)
    db.commit()
    assert bell(client, world["headers"]["anne"], "qualificationExpiring") == []


@pytest.mark.parametrize(
    ("days", "expected_window"),
    [
        (-1, None),
        (0, 7),
        (7, 7),
        (8, 30),
        (30, 30),
        (31, 60),
        (60, 60),
        (61, 90),
        (90, 90),
        (91, None),
    ],
)
def test_team_qualification_expiring_in_its_window(client, db, world, days, expected_window):
    anne = world["anne"]
    for module_id in world["modules"]:
        held(db, anne.id, module_id, days=days)
    db.commit()
    alerts = bell(client, world["headers"]["marie"], "teamQualificationExpiring")
    if expected_window is None:
        assert alerts == []
        return
    assert alerts == [
        {
            "kind": "teamQualificationExpiring",
            "args": {
                "name": "Cariste",
                "user": "Anne Aubry",
                "days": days + 1,
                "validUntil": str(TODAY + timedelta(days=days)),
                "window": expected_window,
            },
            "date": iso(midnight(TODAY + timedelta(days=days - expected_window))),
            "target": {"type": "userQualifications", "id": anne.id},
        }
    ]
    assert window(days) == expected_window


def test_who_sees_team_alerts(client, db, world, make_user, login):
    """Only perm_TableauBord holders, about the people of their groups, never about themselves; the
    people concerned see their own kind only when within 30 days."""
    manager, anne, bruno = world["manager"], world["anne"], world["bruno"]
    for user, days in ((manager, 3), (anne, 45), (bruno, 5)):
        for module_id in world["modules"]:
            held(db, user.id, module_id, days=days)
    outsider = make_user("olivier", [BOARD])  # a manager of no shared group
    db.commit()
    headers = world["headers"]
    team = bell(client, headers["marie"], "teamQualificationExpiring")
    assert sorted((a["target"]["id"], a["args"]["days"]) for a in team) == [(anne.id, 46), (bruno.id, 6)]
    # Newest first: Bruno entered the 7-day window two days ago, Anne the 60-day one 15 days ago.
    assert [a["target"]["id"] for a in team] == [bruno.id, anne.id]
    assert bell(client, headers["bruno"], "teamQualificationExpiring") == []
    assert bell(client, login(outsider), "teamQualificationExpiring") == []
    assert [a["args"]["days"] for a in bell(client, headers["marie"], "qualificationExpiring")] == [4]
    assert [a["args"]["days"] for a in bell(client, headers["bruno"], "qualificationExpiring")] == [6]
    assert bell(client, headers["anne"], "qualificationExpiring") == []


def test_only_qualifications_concerning_the_person(client, db, world):
    """A qualification of another group does not concern the team, nor is its manager told of it; one
    person in two qualifiable groups of a qualification has one alert."""
    anne = world["anne"]
    other = Group(name="Magasin")
    db.add(other)
    db.flush()
    magasin_module = module(db, "Stockage", periodicity=6)
    qualification(db, "Magasinier", [other.id], [magasin_module])
    db.execute(insert(user_group).values(user_id=anne.id, group_id=other.id))
    qualification(db, "Double", [world["team"].id, other.id], [magasin_module])
    held(db, anne.id, magasin_module, days=10)
    held(db, world["bruno"].id, magasin_module, days=10)
    db.commit()
    own = bell(client, world["headers"]["anne"], "qualificationExpiring")
    assert sorted(a["args"]["name"] for a in own) == ["Double", "Magasinier"]
    # Bruno is not in Magasin: only Double concerns him, which he holds.
    assert [a["args"]["name"] for a in bell(client, world["headers"]["bruno"], "qualificationExpiring")] == [
        "Double"
    ]
    # Marie manages the team, not Magasin: Magasinier concerns Anne through Magasin alone.
    team = bell(client, world["headers"]["marie"], "teamQualificationExpiring")
    assert sorted((a["args"]["user"], a["args"]["name"]) for a in team) == [
        ("Anne Aubry", "Double"),
        ("Bruno Blanc", "Double"),
    ]


def test_counted_in_the_bell_and_on_my_dashboard(client, db, world):
    for user in (world["anne"], world["bruno"]):
        for module_id in world["modules"]:
            held(db, user.id, module_id, days=20)
    db.commit()
    body = client.get(URL, headers=world["headers"]["marie"]).json()
    assert body["count"] == 2
    groups = client.get(MINE, headers=world["headers"]["marie"]).json()["alerts"]
    assert [(g["kind"], g["count"]) for g in groups] == [("teamQualificationExpiring", 2)]
    groups = client.get(MINE, headers=world["headers"]["anne"]).json()["alerts"]
    assert [(g["kind"], g["count"]) for g in groups] == [("qualificationExpiring", 1)]


def test_my_dashboard_counts_the_days_of_an_alert_as_those_of_its_module(client, db, world):
    """The alert and the periodic module it comes from say the same last day and the same days left."""
    first, second = world["modules"]
    held(db, world["anne"].id, first, days=20)
    held(db, world["anne"].id, second, days=200)
    db.commit()
    body = client.get(MINE, headers=world["headers"]["anne"]).json()
    ((alert,),) = [g["alerts"] for g in body["alerts"] if g["kind"] == "qualificationExpiring"]
    soonest = body["periodicModules"][0]
    assert (alert["args"]["validUntil"], alert["args"]["days"]) == (soonest["validUntil"], soonest["days"])
    assert soonest["days"] == 21


# Generated holds against a plain computation --------------------------------------------------------------

# None: never held; otherwise days left (negative: expired).
held_days = st.one_of(st.none(), st.integers(-3, 95))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(holds=st.lists(st.tuples(held_days, held_days), min_size=3, max_size=3))
def test_generated_holds(client, db, world, holds):
    """Anne, Bruno and the manager, each holding the two modules of Cariste for the generated days."""
    db.execute(delete(TrainingPath))
    db.commit()
    people = [world["anne"], world["bruno"], world["manager"]]
    for person, days in zip(people, holds, strict=True):
        for module_id, left in zip(world["modules"], days, strict=True):
            if left is not None:
                held(db, person.id, module_id, days=left)
    db.commit()

    def hold(days):
        return min(-10000 if d is None else d for d in days)

    def plain_window(days):
        return 7 if days <= 7 else 30 if days <= 30 else 60 if days <= 60 else 90

    expected_team = sorted(
        (person.id, hold(days) + 1, plain_window(hold(days)))
        for person, days in zip(people[:2], holds[:2], strict=True)
        if 0 <= hold(days) <= 90
    )
    team = bell(client, world["headers"]["marie"], "teamQualificationExpiring")
    assert sorted((a["target"]["id"], a["args"]["days"], a["args"]["window"]) for a in team) == expected_team
    dates = [a["date"] for a in team]
    assert dates == sorted(dates, reverse=True)
    for person, days in zip(people, holds, strict=True):
        login_name = person.login
        own = bell(client, world["headers"][login_name], "qualificationExpiring")
        expected = [hold(days) + 1] if 0 <= hold(days) <= 30 else []
        assert [a["args"]["days"] for a in own] == expected
