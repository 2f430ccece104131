"""Spec 1 §4 and §6: every status transition allowed and refused for each role, in each status, as one
table; the field-editing table per status; 409 illegalTransition with the current status."""

from datetime import timedelta

import pytest
from sqlalchemy import select

from mediations.people import ROLES, tomorrow
from spot.core.time import utcnow
from spot.mediations.models import TrackingPeriod
from support import API, assert_error, field_codes

STATUSES = ("created", "started", "paused", "stopped", "validated", "archived", "canceled")
# (from, to) → the action; every other pair is illegal (409).
ACTIONS = {
    ("created", "started"): "start",
    ("started", "paused"): "pause",
    ("paused", "started"): "resume",
    ("started", "stopped"): "stop",
    ("paused", "stopped"): "stop",
    ("stopped", "validated"): "validate",
    ("validated", "stopped"): "invalidate",
    **{(s, "canceled"): "cancel" for s in ("created", "started", "paused", "stopped", "validated")},
}


def allowed_roles(current: str, action: str) -> set[str]:
    """Who may do the action (spec 1 §6)."""
    if action == "cancel" and current == "created":
        return {"creator", "mediator"}
    return {"mediator"}


def put_in(force, mediation_id: int, status: str, *, report: bool = True) -> None:
    force(mediation_id, status=status, reported_at=utcnow() if report else None)


READERS = [role for role in ROLES if role != "other"]
CASES = [(current, target, role) for current in STATUSES for target in STATUSES for role in ROLES]


@pytest.mark.parametrize(("current", "target", "role"), CASES)
def test_transition_table(client, cast, new_mediation, force, current, target, role) -> None:
    mediation = new_mediation()
    put_in(force, mediation["id"], current)
    response = client.post(
        f"{API}/mediation/{mediation['id']}/status", json={"status": target}, headers=cast.headers[role]
    )
    action = ACTIONS.get((current, target))
    if role == "other":
        assert_error(response, 403)  # may not even read it
    elif action is None:
        body = assert_error(response, 409, "illegalTransition")
        assert body["errors"] == [{"field": "status", "code": current}]
    elif role not in allowed_roles(current, action):
        assert_error(response, 403)
    else:
        assert response.status_code == 200, response.text
        assert response.json()["status"] == target


def test_can_follows_the_table(client, cast, new_mediation, force) -> None:
    """`can` says for each role and status exactly what the status call accepts."""
    mediation = new_mediation()
    for current in STATUSES:
        put_in(force, mediation["id"], current)
        for role in READERS:
            can = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers[role]).json()["can"]
            for (source, _target), action in ACTIONS.items():
                if source == current:
                    assert can[action] == (role in allowed_roles(current, action)), (current, role, action)
            if current not in {s for s, _ in ACTIONS if ACTIONS[(s, _)] == "cancel"}:
                assert can["cancel"] is False


def test_validate_needs_a_report(client, cast, new_mediation, force) -> None:
    mediation = new_mediation()
    put_in(force, mediation["id"], "stopped", report=False)
    got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["mediator"]).json()
    assert got["can"]["validate"] is False and got["can"]["editReport"] is True
    response = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "validated"},
        headers=cast.headers["mediator"],
    )
    assert assert_error(response, 409, "illegalTransition")["errors"] == [
        {"field": "status", "code": "stopped"}
    ]


def test_no_report_nor_validation_without_participants(client, cast, db, force) -> None:
    started = client.post(
        f"{API}/mediation/unplanned", json={"title": "Vite"}, headers=cast.headers["mediator"]
    )
    mediation_id = started.json()["id"]
    put_in(force, mediation_id, "stopped")
    got = client.get(f"{API}/mediation/{mediation_id}", headers=cast.headers["mediator"]).json()
    assert got["can"]["editReport"] is False and got["can"]["validate"] is False
    response = client.post(
        f"{API}/mediation/{mediation_id}/status",
        json={"status": "validated"},
        headers=cast.headers["mediator"],
    )
    assert_error(response, 409, "illegalTransition")


def test_a_mediation_started_without_participants_says_its_report_needs_them(client, cast) -> None:
    """'Create and start' leaves no participant: the mediator is told the report needs some, and may add
    them while it runs or once stopped, after which the report may be written."""
    headers = cast.headers["mediator"]
    started = client.post(f"{API}/mediation/unplanned", json={"title": "Vite"}, headers=headers).json()
    assert started["can"]["reportNeeds"] == ["participants"]
    url = f"{API}/mediation/{started['id']}"
    stopped = client.post(f"{url}/status", json={"status": "stopped"}, headers=headers).json()
    assert stopped["can"]["editReport"] is False
    assert stopped["can"]["reportNeeds"] == ["participants"]
    assert stopped["can"]["fields"]["participants"] is True
    body = {"title": "Vite", "mediator": cast.id("mediator"), "participants": [cast.id("participant")]}
    saved = client.post(url, json=body, headers=headers)
    assert saved.status_code == 200, saved.text
    assert saved.json()["can"]["editReport"] is True and saved.json()["can"]["reportNeeds"] == []
    # Only the mediator is told: nobody else could act on it.
    got = client.get(url, headers=cast.headers["participant"]).json()
    assert got["can"]["reportNeeds"] == []


def test_cancel_and_stop_are_irreversible(client, cast, new_mediation) -> None:
    mediation = new_mediation()
    url, headers = f"{API}/mediation/{mediation['id']}/status", cast.headers["mediator"]
    assert client.post(url, json={"status": "started"}, headers=headers).status_code == 200
    assert client.post(url, json={"status": "stopped"}, headers=headers).status_code == 200
    for target in ("started", "paused", "created"):
        assert_error(client.post(url, json={"status": target}, headers=headers), 409, "illegalTransition")
    assert client.post(url, json={"status": "canceled"}, headers=headers).status_code == 200
    for target in STATUSES:
        body = assert_error(
            client.post(url, json={"status": target}, headers=headers), 409, "illegalTransition"
        )
        assert body["errors"][0]["code"] == "canceled"


def test_unknown_status_is_refused(client, cast, new_mediation) -> None:
    mediation = new_mediation()
    response = client.post(
        f"{API}/mediation/{mediation['id']}/status",
        json={"status": "finished"},
        headers=cast.headers["mediator"],
    )
    assert response.status_code in (400, 422)


# Tracking periods follow the transitions ------------------------------------------------------


def test_periods_follow_start_pause_resume_stop(client, cast, new_mediation, db) -> None:
    mediation = new_mediation()
    url, headers = f"{API}/mediation/{mediation['id']}/status", cast.headers["mediator"]
    started = client.post(url, json={"status": "started"}, headers=headers).json()
    assert len(started["trackingPeriods"]) == 1 and started["trackingPeriods"][0]["stop"] is None
    assert started["executionStart"] == started["trackingPeriods"][0]["start"]
    assert started["executionStop"] is None
    assert started["durationMinutes"] == 1
    paused = client.post(url, json={"status": "paused"}, headers=headers).json()
    assert paused["trackingPeriods"][0]["stop"] is not None
    assert paused["executionStop"] == paused["trackingPeriods"][0]["stop"]
    # A resume in the minute of the pause reopens that period.
    resumed = client.post(url, json={"status": "started"}, headers=headers).json()
    assert len(resumed["trackingPeriods"]) == 1 and resumed["trackingPeriods"][0]["stop"] is None
    # A resume later opens a new period.
    client.post(url, json={"status": "paused"}, headers=headers)
    earlier = utcnow().replace(second=0, microsecond=0) - timedelta(minutes=10)
    period = db.scalars(select(TrackingPeriod).where(TrackingPeriod.mediation_id == mediation["id"])).one()
    period.start, period.stop = earlier - timedelta(minutes=5), earlier
    db.commit()
    resumed = client.post(url, json={"status": "started"}, headers=headers).json()
    assert len(resumed["trackingPeriods"]) == 2
    stopped = client.post(url, json={"status": "stopped"}, headers=headers).json()
    assert all(p["stop"] is not None for p in stopped["trackingPeriods"])
    # 6 minutes (start to stop, both included) + 1 minute (this minute).
    assert stopped["durationMinutes"] == 7
    assert stopped["executionStart"] == stopped["trackingPeriods"][0]["start"]
    assert stopped["executionStop"] == stopped["trackingPeriods"][-1]["stop"]


# The field-editing table of spec 1 §6 ---------------------------------------------------------

FIELDS = (
    "title",
    "description",
    "schedulingDate",
    "mediator",
    "participants",
    "visibleByGroups",
    "visibleByPersons",
)
CREATOR_FIELDS = {
    "created": set(FIELDS),
    "started": {"visibleByGroups", "visibleByPersons"},
    "paused": {"visibleByGroups", "visibleByPersons"},
    "stopped": {"visibleByGroups", "visibleByPersons"},
    "validated": {"visibleByGroups", "visibleByPersons"},
    "archived": {"visibleByGroups", "visibleByPersons"},
    "canceled": set(),
}
MEDIATOR_FIELDS = {
    "created": {"title", "description"},
    "started": {"title", "description", "participants"},
    "paused": {"title", "description", "participants"},
    "stopped": {"title", "description", "participants"},
    "validated": set(),
    "archived": set(),
    "canceled": set(),
}


def editable(role: str, status: str) -> set[str]:
    return {"creator": CREATOR_FIELDS, "mediator": MEDIATOR_FIELDS}.get(role, {}).get(status, set())


def changed_value(cast, field: str):
    return {
        "title": "Autre titre",
        "description": "Autre description",
        "schedulingDate": tomorrow(hour=15),
        "mediator": cast.id("other"),
        "participants": [cast.id("participant"), cast.id("visiblePerson")],
        "visibleByGroups": [],
        "visibleByPersons": [cast.id("other")],
    }[field]


FIELD_CASES = [(status, role, field) for status in STATUSES for role in ROLES for field in FIELDS]


@pytest.mark.parametrize(("status", "role", "field"), FIELD_CASES)
def test_field_editing_table(client, cast, new_mediation, force, status, role, field) -> None:
    mediation = new_mediation()
    put_in(force, mediation["id"], status)
    headers = cast.headers[role]
    if role == "other":
        assert_error(client.get(f"{API}/mediation/{mediation['id']}", headers=headers), 403)
        return
    current = client.get(f"{API}/mediation/{mediation['id']}", headers=headers).json()
    assert current["can"]["fields"][field] == (field in editable(role, status))
    body = {
        "title": current["title"],
        "description": current["description"],
        "schedulingDate": current["schedulingDate"],
        "mediator": current["mediator"]["id"],
        "participants": [p["id"] for p in current["participants"]],
        "visibleByGroups": [g["id"] for g in current["visibleByGroups"]],
        "visibleByPersons": [p["id"] for p in current["visibleByPersons"]],
        "version": current["version"],
        field: changed_value(cast, field),
    }
    response = client.post(f"{API}/mediation/{mediation['id']}", json=body, headers=headers)
    may_edit = (
        role == "creator"
        and status != "canceled"
        or (role == "mediator" and status not in ("validated", "archived", "canceled"))
    )
    assert current["can"]["edit"] == may_edit
    if field in editable(role, status):
        assert response.status_code == 200, response.text
        saved = response.json()
        assert saved["version"] == current["version"] + 1
    elif not may_edit:
        assert_error(response, 403)
    else:
        assert_error(response, 409, "fieldNotEditable")
        assert field_codes(response) == {(field, "fieldNotEditable")}


def test_every_refused_field_is_named(client, cast, new_mediation, force, save_body) -> None:
    mediation = new_mediation()
    put_in(force, mediation["id"], "started")
    body = save_body(
        title="Changé", mediator=cast.id("other"), visibleByPersons=[], version=mediation["version"]
    )
    response = client.post(f"{API}/mediation/{mediation['id']}", json=body, headers=cast.headers["creator"])
    assert_error(response, 409, "fieldNotEditable")
    assert field_codes(response) == {("title", "fieldNotEditable"), ("mediator", "fieldNotEditable")}


def test_unchanged_fields_pass_whoever_may_edit(client, cast, new_mediation, force, save_body) -> None:
    """A field sent as it is is not a change, even one the user may not change."""
    mediation = new_mediation()
    put_in(force, mediation["id"], "validated")
    got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["creator"]).json()
    body = save_body(schedulingDate=got["schedulingDate"], visibleByPersons=[], version=got["version"])
    response = client.post(f"{API}/mediation/{mediation['id']}", json=body, headers=cast.headers["creator"])
    assert response.status_code == 200, response.text
    assert response.json()["visibleByPersons"] == []


def test_cancel_closes_the_running_period(client, cast, new_mediation) -> None:
    mediation = new_mediation()
    url, headers = f"{API}/mediation/{mediation['id']}/status", cast.headers["mediator"]
    assert client.post(url, json={"status": "started"}, headers=headers).status_code == 200
    canceled = client.post(url, json={"status": "canceled"}, headers=headers).json()
    assert canceled["status"] == "canceled"
    assert [p["stop"] is not None for p in canceled["trackingPeriods"]] == [True]
    assert canceled["executionStop"] == canceled["trackingPeriods"][0]["stop"]
