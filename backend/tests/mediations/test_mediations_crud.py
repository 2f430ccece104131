"""Creating, reading and updating mediations: the JSON, visibility (403/404), 'Create and start',
optimistic locking, every validation key of spec 1 §5, history entries and system messages."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import delete, func, select

from mediations.people import ROLES, history, system_messages, tomorrow
from spot.config import get_settings
from spot.core.time import utcnow
from spot.mediations.models import Mediation
from spot.resources.models import Resource
from support import API, assert_error, field_codes


def test_create_answers_the_mediation(client, cast, new_mediation, db) -> None:
    created = new_mediation()
    assert created["status"] == "created"
    assert created["title"] == "Réunion" and created["description"] == "Ligne 1\nLigne 2"
    assert created["creator"] == {"id": cast.id("creator"), "name": cast.users["creator"].display_name}
    assert created["mediator"]["id"] == cast.id("mediator")
    assert [p["id"] for p in created["participants"]] == [cast.id("participant")]
    assert [g["id"] for g in created["visibleByGroups"]] == [cast.group("groupMember")]
    assert [p["id"] for p in created["visibleByPersons"]] == [cast.id("visiblePerson")]
    assert created["trackingPeriods"] == [] and created["durationMinutes"] == 0
    assert created["reporting"] is None and created["signatures"] == []
    assert created["version"] == 1 and created["discussionId"] is not None
    assert created["lastUpdate"]["userId"] == cast.id("creator")
    assert created["executionStart"] is None and created["executionStop"] is None
    assert history(db, created["id"]) == [("W", "created", cast.id("creator"))]


def test_create_and_start(client, cast, db) -> None:
    response = client.post(
        f"{API}/mediation/unplanned", json={"title": "Imprévu"}, headers=cast.headers["other"]
    )
    assert response.status_code == 200, response.text
    started = response.json()
    assert started["status"] == "started"
    assert started["creator"]["id"] == started["mediator"]["id"] == cast.id("other")
    assert started["participants"] == [] and started["description"] == ""
    assert started["visibleByGroups"] == [] and started["visibleByPersons"] == []
    assert started["schedulingDate"] is None
    assert len(started["trackingPeriods"]) == 1 and started["trackingPeriods"][0]["stop"] is None
    assert started["executionStart"] == started["trackingPeriods"][0]["start"]
    assert started["can"]["pause"] and started["can"]["stop"]
    assert [e[1] for e in history(db, started["id"])] == ["created", "statusChanged"]
    assert system_messages(db, started["discussionId"]) == [
        ("statusChanged", {"status": "started"}, cast.id("other"))
    ]


@pytest.mark.parametrize("role", ROLES)
def test_reading_follows_visibility(client, cast, new_mediation, db, role) -> None:
    mediation = new_mediation()
    response = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers[role])
    if role == "other":
        assert_error(response, 403)
        assert history(db, mediation["id"])[1:] == []
    else:
        assert response.status_code == 200, response.text
        assert history(db, mediation["id"])[-1] == ("R", None, cast.id(role))


def test_unknown_mediation_is_404(client, cast) -> None:
    assert_error(client.get(f"{API}/mediation/999999", headers=cast.headers["creator"]), 404)
    body = {"status": "started"}
    assert_error(
        client.post(f"{API}/mediation/999999/status", json=body, headers=cast.headers["creator"]), 404
    )


def test_not_signed_in_is_401(client) -> None:
    assert client.get(f"{API}/mediation/1").status_code == 401


def test_update_saves_and_records(client, cast, new_mediation, db, save_body) -> None:
    mediation = new_mediation()
    body = save_body(
        title="Nouveau titre", participants=[cast.id("participant"), cast.id("other")], version=1
    )
    response = client.post(f"{API}/mediation/{mediation['id']}", json=body, headers=cast.headers["creator"])
    assert response.status_code == 200, response.text
    saved = response.json()
    assert saved["title"] == "Nouveau titre" and saved["version"] == 2
    assert {p["id"] for p in saved["participants"]} == {cast.id("participant"), cast.id("other")}
    assert history(db, mediation["id"])[-1] == ("W", "updated", cast.id("creator"))
    assert system_messages(db, mediation["discussionId"]) == [
        ("updated", {"name": "Nouveau titre"}, cast.id("creator"))
    ]
    # The new participant may read it now.
    assert client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["other"]).status_code == 200
    db.expire_all()
    assert db.scalar(select(Mediation.title_folded).where(Mediation.id == mediation["id"])) == "nouveau titre"


def test_stale_version_is_409(client, cast, new_mediation, save_body) -> None:
    mediation = new_mediation()
    url = f"{API}/mediation/{mediation['id']}"
    assert (
        client.post(url, json=save_body(title="Un", version=1), headers=cast.headers["creator"]).status_code
        == 200
    )
    response = client.post(url, json=save_body(title="Deux", version=1), headers=cast.headers["creator"])
    assert_error(response, 409, "staleVersion")


def test_an_update_without_version_applies(client, cast, new_mediation, save_body) -> None:
    """The spec's client sends the form without a version (spec 1 §7): it applies to the stored one."""
    mediation = new_mediation()
    url = f"{API}/mediation/{mediation['id']}"
    response = client.post(url, json=save_body(title="Sans version"), headers=cast.headers["creator"])
    assert response.status_code == 200, response.text
    assert response.json()["title"] == "Sans version" and response.json()["version"] == 2
    again = client.post(url, json=save_body(title="Encore"), headers=cast.headers["creator"])
    assert again.status_code == 200, again.text
    assert again.json()["version"] == 3
    stale = client.post(url, json=save_body(title="Vieux", version=1), headers=cast.headers["creator"])
    assert_error(stale, 409, "staleVersion")


def test_nobody_else_may_edit(client, cast, new_mediation, save_body) -> None:
    mediation = new_mediation()
    url = f"{API}/mediation/{mediation['id']}"
    for role in ("participant", "visiblePerson", "groupMember", "other"):
        response = client.post(url, json=save_body(title="Pris", version=1), headers=cast.headers[role])
        assert_error(response, 403)


# Validation (spec 1 §5) ---------------------------------------------------------------------


def _create(client, cast, body):
    return client.post(f"{API}/mediation", json=body, headers=cast.headers["creator"])


@pytest.mark.parametrize(
    ("title", "code"),
    [
        ("", "emptyFieldError"),
        ("   ", "emptyFieldError"),
        (" Titre", "beginEndWhitespaceError"),
        ("Titre ", "beginEndWhitespaceError"),
    ],
)
def test_title_follows_the_general_text_rule(client, cast, save_body, title, code) -> None:
    response = _create(client, cast, save_body(title=title))
    assert_error(response, 422)
    assert ("title", code) in field_codes(response)


def test_title_too_long(client, cast, save_body) -> None:
    assert_error(_create(client, cast, save_body(title="x" * 301)), 422)
    assert _create(client, cast, save_body(title="x" * 300)).status_code == 200


def test_mediator_is_required(client, cast, save_body) -> None:
    response = _create(client, cast, save_body(mediator=None))
    assert_error(response, 400, "mustNotBeEmpty")
    assert field_codes(response) == {("mediator", "mustNotBeEmpty")}


def test_participants_are_required(client, cast, save_body) -> None:
    response = _create(client, cast, save_body(participants=[]))
    assert_error(response, 400, "mustNotBeEmpty")
    assert field_codes(response) == {("participants", "mustNotBeEmpty")}


def test_mediator_cannot_be_participant(client, cast, save_body) -> None:
    body = save_body(participants=[cast.id("participant"), cast.id("mediator")])
    response = _create(client, cast, body)
    assert_error(response, 400, "mediatorCantBeParticipant")
    assert field_codes(response) == {("participants", "mediatorCantBeParticipant")}


@pytest.mark.parametrize("field", ["mediator", "participants", "visibleByPersons", "visibleByGroups"])
def test_unknown_ids_are_invalid(client, cast, save_body, field) -> None:
    value = 987654 if field == "mediator" else [987654]
    response = _create(client, cast, save_body(**{field: value}))
    assert_error(response, 400, "invalidValue")
    assert field_codes(response) == {(field, "invalidValue")}


def _local(day_offset: int, hour: int, minute: int = 0) -> str:
    zone = ZoneInfo(get_settings().timezone)
    local = datetime.now(zone) + timedelta(days=day_offset)
    when = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    return when.astimezone(UTC).isoformat().replace("+00:00", "Z")


def test_scheduling_date_not_before_today(client, cast, save_body) -> None:
    response = _create(client, cast, save_body(schedulingDate=_local(-1, 23, 59)))
    assert_error(response, 400, "errors.lessThanMin")
    assert field_codes(response) == {("schedulingDate", "errors.lessThanMin")}


def test_scheduling_today_at_least_one_minute_ahead(client, cast, save_body) -> None:
    now = utcnow()
    too_soon = (now + timedelta(seconds=20)).isoformat().replace("+00:00", "Z")
    response = _create(client, cast, save_body(schedulingDate=too_soon))
    assert field_codes(response) == {("schedulingDate", "errors.lessThanMin")}
    later = (now + timedelta(minutes=2)).isoformat().replace("+00:00", "Z")
    assert _create(client, cast, save_body(schedulingDate=later)).status_code == 200
    assert _create(client, cast, save_body(schedulingDate=None)).status_code == 200


def test_untouched_past_date_is_kept(client, cast, new_mediation, force, save_body) -> None:
    """The date rules apply to a date set or changed, not to the stored one."""
    mediation = new_mediation()
    past = utcnow() - timedelta(days=3)
    force(mediation["id"], scheduling_date=past)
    got = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["creator"]).json()
    body = save_body(title="Retitré", schedulingDate=got["schedulingDate"], version=got["version"])
    response = client.post(f"{API}/mediation/{mediation['id']}", json=body, headers=cast.headers["creator"])
    assert response.status_code == 200, response.text
    changed = save_body(schedulingDate=_local(-2, 10), version=response.json()["version"])
    response = client.post(
        f"{API}/mediation/{mediation['id']}", json=changed, headers=cast.headers["creator"]
    )
    assert field_codes(response) == {("schedulingDate", "errors.lessThanMin")}


def test_description_multiline_and_bounded(client, cast, save_body) -> None:
    assert _create(client, cast, save_body(description="")).status_code == 200
    assert _create(client, cast, save_body(description="a\n\tb")).status_code == 200
    assert_error(_create(client, cast, save_body(description="x" * 5001)), 422)
    assert_error(_create(client, cast, save_body(description="a\x00b")), 422)


def test_tomorrow_is_accepted(client, cast, save_body) -> None:
    assert _create(client, cast, save_body(schedulingDate=tomorrow())).status_code == 200


# History and system messages of status changes -----------------------------------------------


def test_status_change_writes_history_and_message(client, cast, new_mediation, db) -> None:
    mediation = new_mediation()
    url = f"{API}/mediation/{mediation['id']}/status"
    for status in ("started", "paused", "started", "stopped"):
        assert client.post(url, json={"status": status}, headers=cast.headers["mediator"]).status_code == 200
    events = [e for e in history(db, mediation["id"]) if e[0] == "W"]
    assert (
        events == [("W", "created", cast.id("creator"))] + [("W", "statusChanged", cast.id("mediator"))] * 4
    )
    assert [m[1]["status"] for m in system_messages(db, mediation["discussionId"])] == [
        "started",
        "paused",
        "started",
        "stopped",
    ]


def test_mediation_discussion_follows_visibility(client, cast, new_mediation) -> None:
    mediation = new_mediation()
    url = f"{API}/discussion/{mediation['discussionId']}"
    assert client.get(url, headers=cast.headers["groupMember"]).status_code == 200
    assert_error(client.get(url, headers=cast.headers["other"]), 403)


def test_a_save_without_change_writes_nothing(client, cast, new_mediation, db, save_body) -> None:
    mediation = new_mediation()
    response = client.post(
        f"{API}/mediation/{mediation['id']}", json=save_body(version=1), headers=cast.headers["creator"]
    )
    assert response.status_code == 200, response.text
    assert response.json()["version"] == 1
    assert [e[1] for e in history(db, mediation["id"]) if e[0] == "W"] == ["created"]


def test_gallery_follows_visibility_and_goes_with_the_mediation(client, cast, new_mediation, db) -> None:
    mediation = new_mediation()
    url = f"{API}/resource/mediation/{mediation['id']}"
    assert client.get(url, headers=cast.headers["groupMember"]).status_code == 200
    assert_error(client.get(url, headers=cast.headers["other"]), 403)
    assert_error(client.get(f"{API}/resource/mediation/999999", headers=cast.headers["creator"]), 404)
    now = utcnow()
    db.add(
        Resource(
            parent_type="mediation",
            parent_id=mediation["id"],
            resource_type="link",
            name="Lien",
            link="https://example.org",
            created_at=now,
            updated_at=now,
        )
    )
    db.commit()
    db.execute(delete(Mediation).where(Mediation.id == mediation["id"]))
    db.commit()
    assert db.scalar(select(func.count()).select_from(Resource)) == 0


def test_a_participant_who_left_stays_named_and_is_marked_inactive(client, cast, new_mediation, db) -> None:
    from spot.users.models import User

    mediation = new_mediation()
    assert mediation["inactivePeople"] == []
    db.get(User, cast.id("participant")).active = False
    db.commit()
    shown = client.get(f"{API}/mediation/{mediation['id']}", headers=cast.headers["creator"]).json()
    assert shown["inactivePeople"] == [cast.id("participant")]
    assert [p["id"] for p in shown["participants"]] == [cast.id("participant")]
