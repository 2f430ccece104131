"""GET /mediation/actionable: the mediations awaiting something from the signed-in user: the mediator
starts a created one scheduled today or earlier (or unscheduled), reports a stopped one with participants,
validates it once reported; a participant signs a validated one. Newest first, at most 50."""

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select

from spot.core.time import utcnow
from spot.demo import mediations as mediations_demo
from spot.mediations.actionable import LIMIT, end_of_today
from spot.mediations.models import Mediation, MediationParticipant
from support import API, assert_error

URL = f"{API}/mediation/actionable"


def actions(client, headers) -> list[tuple[int, str]]:
    response = client.get(URL, headers=headers)
    assert response.status_code == 200, response.text
    return [(item["id"], item["action"]) for item in response.json()]


def everyone(client, cast) -> dict[str, list[tuple[int, str]]]:
    return {role: actions(client, headers) for role, headers in cast.headers.items()}


def status(client, cast, mediation: dict[str, Any], target: str) -> dict[str, Any]:
    response = client.post(
        f"{API}/mediation/{mediation['id']}/status", json={"status": target}, headers=cast.headers["mediator"]
    )
    assert response.status_code == 200, response.text
    return response.json()


def test_the_mediator_starts_a_mediation_scheduled_today_or_earlier(client, cast, new_mediation, force):
    earlier, today, tomorrow = new_mediation(), new_mediation(), new_mediation()
    force(earlier["id"], scheduling_date=utcnow() - timedelta(days=3))
    force(today["id"], scheduling_date=end_of_today() - timedelta(minutes=1))
    force(tomorrow["id"], scheduling_date=end_of_today())
    found = everyone(client, cast)
    assert sorted(found.pop("mediator")) == sorted([(earlier["id"], "start"), (today["id"], "start")])
    assert all(not listed for listed in found.values()), found


def test_an_unscheduled_mediation_is_to_start(client, cast, new_mediation):
    unscheduled = new_mediation(schedulingDate=None)
    assert actions(client, cast.headers["mediator"]) == [(unscheduled["id"], "start")]
    assert actions(client, cast.headers["creator"]) == []


def test_each_step_awaits_the_right_person(client, db, cast, new_mediation, force):
    mediation = new_mediation(schedulingDate=None)
    status(client, cast, mediation, "started")
    assert all(not listed for listed in everyone(client, cast).values())
    stopped = status(client, cast, mediation, "stopped")
    found = everyone(client, cast)
    assert found.pop("mediator") == [(mediation["id"], "report")]
    assert all(not listed for listed in found.values()), found

    written = client.post(
        f"{API}/mediation/{mediation['id']}/report",
        json={"comment": "Compte rendu", "items": [], "version": stopped["version"]},
        headers=cast.headers["mediator"],
    )
    assert written.status_code == 200, written.text
    found = everyone(client, cast)
    assert found.pop("mediator") == [(mediation["id"], "validate")]
    assert all(not listed for listed in found.values()), found

    status(client, cast, mediation, "validated")
    found = everyone(client, cast)
    assert found.pop("participant") == [(mediation["id"], "sign")]
    assert all(not listed for listed in found.values()), found

    signed = client.post(f"{API}/mediation/{mediation['id']}/sign", headers=cast.headers["participant"])
    assert signed.status_code == 200, signed.text
    assert all(not listed for listed in everyone(client, cast).values())

    # Invalidated: the signature is revoked, the report awaits validation again, then a new signature.
    status(client, cast, mediation, "stopped")
    assert actions(client, cast.headers["mediator"]) == [(mediation["id"], "validate")]
    status(client, cast, mediation, "validated")
    assert actions(client, cast.headers["participant"]) == [(mediation["id"], "sign")]


def test_a_stopped_mediation_without_participants_awaits_nothing(client, cast):
    unplanned = client.post(
        f"{API}/mediation/unplanned", json={"title": "Seul"}, headers=cast.headers["other"]
    )
    assert unplanned.status_code == 200, unplanned.text
    response = client.post(
        f"{API}/mediation/{unplanned.json()['id']}/status",
        json={"status": "stopped"},
        headers=cast.headers["other"],
    )
    assert response.status_code == 200, response.text
    assert actions(client, cast.headers["other"]) == []


@pytest.mark.parametrize("step", ["created", "stopped", "validated"])
def test_a_canceled_mediation_awaits_nothing(client, cast, new_mediation, force, step):
    mediation = new_mediation(schedulingDate=None)
    force(mediation["id"], status=step, reported_at=utcnow() if step == "validated" else None)
    status(client, cast, mediation, "canceled")
    assert all(not listed for listed in everyone(client, cast).values())


def test_each_is_a_card_with_its_action(client, cast, new_mediation):
    mediation = new_mediation(schedulingDate=None, title="Point sécurité")
    response = client.get(URL, headers=cast.headers["mediator"])
    (item,) = response.json()
    assert item["action"] == "start"
    assert item["title"] == "Point sécurité"
    assert item["status"] == "created"
    assert item["mediator"] == mediation["mediator"]
    assert item["creator"] == mediation["creator"]
    assert item["description"] == mediation["description"]
    assert item["lastUpdate"]["userId"] == cast.id("creator")


def test_newest_first_at_most_the_limit(client, db, cast):
    now = utcnow()
    rows = [
        {
            "title": f"Médiation {n}",
            "title_folded": f"mediation {n}",
            "description": "",
            "status": "stopped",
            "creator_id": cast.id("creator"),
            "mediator_id": cast.id("mediator"),
            "created_at": now - timedelta(days=10),
            "updated_at": now - timedelta(days=10) + timedelta(minutes=n),
            "version": 1,
        }
        for n in range(LIMIT + 2)
    ]
    ids = list(db.scalars(insert(Mediation).returning(Mediation.id, sort_by_parameter_order=True), rows))
    db.execute(
        insert(MediationParticipant), [{"mediation_id": i, "user_id": cast.id("participant")} for i in ids]
    )
    db.commit()
    listed = actions(client, cast.headers["mediator"])
    assert len(listed) == LIMIT
    assert [i for i, _ in listed] == list(reversed(ids))[:LIMIT]
    assert {action for _, action in listed} == {"report"}


def test_anonymous_is_refused(client):
    assert_error(client.get(URL), 401)


# The demo ------------------------------------------------------------------------------------------------


def test_the_demo_has_a_mediation_in_each_status_and_awaits_the_administrator(demo_org, client, db):
    from mapping.test_mapping_demo import demo_login
    from spot import demo

    demo.seed(db)
    db.commit()
    admin = demo_login(client, db, "admin")
    statuses = {m.title: m.status for m in db.scalars(select(Mediation))}
    assert len(statuses) == len(mediations_demo.MEDIATIONS)
    assert set(statuses.values()) == {"created", "started", "stopped", "validated", "canceled"}
    assert {action for _, action in actions(client, admin)} == {"start", "validate", "sign"}
    mediator = demo_login(client, db, "mediateur")
    assert {action for _, action in actions(client, mediator)} == {"report"}

    # The stopped ones lie over real history: the report page lists actions; the report names some.
    reported = db.scalar(
        select(Mediation).where(Mediation.status == "stopped", Mediation.reported_at.is_not(None))
    )
    assert reported is not None
    page = client.get(f"{API}/mediation/{reported.id}", headers=admin).json()
    assert page["reporting"]["items"]
    period = page["trackingPeriods"][0]
    listed = client.get(
        f"{API}/mediation/{reported.id}/trackedActions",
        params={"start": period["start"], "stop": period["stop"]},
        headers=admin,
    )
    assert listed.status_code == 200, listed.text
    assert listed.json()
    validated = db.scalar(select(Mediation).where(Mediation.status == "validated"))
    assert validated is not None
    signatures = client.get(f"{API}/mediation/{validated.id}", headers=admin).json()["signatures"]
    assert len(signatures) == 1
    assert signatures[0]["modifiedAfterSignature"] is False
