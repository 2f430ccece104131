"""The bell's mediation kinds (GET /account/alerts): mediationToStart, mediationToReport and
mediationToValidate for the mediator, mediationToSign for each participant who has not signed; each
with the mediation's title and the mediation as its target, from the SQL of GET /mediation/actionable."""

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, update

from spot.alerts.service import LIMIT
from spot.core.time import utcnow
from spot.mediations.models import Mediation
from support import API

URL = f"{API}/account/alerts"


def mediation_alerts(client, headers) -> list[tuple[str, int, str]]:
    response = client.get(URL, headers=headers)
    assert response.status_code == 200, response.text
    return [
        (alert["kind"], alert["target"]["id"], alert["args"]["title"])
        for alert in response.json()["alerts"]
        if alert["target"]["type"] == "mediation"
    ]


class People:
    def __init__(self, make_user, login) -> None:
        self.users = {role: make_user(login=role) for role in ("creator", "mediator", "first", "second")}
        self.headers = {role: login(user) for role, user in self.users.items()}

    def bells(self, client) -> dict[str, list[tuple[str, int, str]]]:
        return {role: mediation_alerts(client, headers) for role, headers in self.headers.items()}


def post(client, people: People, role: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = client.post(f"{API}/mediation{path}", json=body, headers=people.headers[role])
    assert response.status_code == 200, response.text
    return response.json()


def test_the_bell_shows_each_step_to_the_right_person(client, db, make_user, login):
    people = People(make_user, login)
    tomorrow = datetime.now(UTC) + timedelta(days=2)
    mediation = post(
        client,
        people,
        "creator",
        "",
        {
            "title": "Point sécurité",
            "description": "",
            "schedulingDate": tomorrow.isoformat(),
            "mediator": people.users["mediator"].id,
            "participants": [people.users["first"].id, people.users["second"].id],
            "visibleByGroups": [],
            "visibleByPersons": [],
        },
    )
    mid, title = mediation["id"], "Point sécurité"
    nobody: dict[str, list[tuple[str, int, str]]] = {role: [] for role in people.users}
    assert people.bells(client) == nobody

    # The day comes.
    db.execute(
        update(Mediation).where(Mediation.id == mid).values(scheduling_date=utcnow() - timedelta(hours=1))
    )
    db.commit()
    assert people.bells(client) == nobody | {"mediator": [("mediationToStart", mid, title)]}

    post(client, people, "mediator", f"/{mid}/status", {"status": "started"})
    assert people.bells(client) == nobody
    stopped = post(client, people, "mediator", f"/{mid}/status", {"status": "stopped"})
    assert people.bells(client) == nobody | {"mediator": [("mediationToReport", mid, title)]}

    post(
        client,
        people,
        "mediator",
        f"/{mid}/report",
        {"comment": "Fait", "items": [], "version": stopped["version"]},
    )
    assert people.bells(client) == nobody | {"mediator": [("mediationToValidate", mid, title)]}

    post(client, people, "mediator", f"/{mid}/status", {"status": "validated"})
    to_sign = [("mediationToSign", mid, title)]
    assert people.bells(client) == nobody | {"first": to_sign, "second": to_sign}

    post(client, people, "first", f"/{mid}/sign")
    assert people.bells(client) == nobody | {"second": to_sign}
    post(client, people, "second", f"/{mid}/sign")
    assert people.bells(client) == nobody


def test_each_alert_has_its_title_date_and_target(client, make_user, login):
    people = People(make_user, login)
    created = post(
        client,
        people,
        "creator",
        "",
        {
            "title": "Sans date",
            "description": "",
            "schedulingDate": None,
            "mediator": people.users["mediator"].id,
            "participants": [people.users["first"].id],
            "visibleByGroups": [],
            "visibleByPersons": [],
        },
    )
    response = client.get(URL, headers=people.headers["mediator"])
    assert response.json() == {
        "alerts": [
            {
                "kind": "mediationToStart",
                "args": {"title": "Sans date"},
                # Not scheduled: awaited since its creation.
                "date": created["lastUpdate"]["date"],
                "target": {"type": "mediation", "id": created["id"]},
            }
        ],
        "count": 1,
    }


def test_at_most_the_limit_with_the_exact_count(client, db, make_user, login):
    mediator = make_user()
    now = utcnow()
    rows = [
        {
            "title": f"Médiation {n}",
            "title_folded": f"mediation {n}",
            "description": "",
            "status": "created",
            "mediator_id": mediator.id,
            "scheduling_date": now - timedelta(days=1, minutes=n),
            "created_at": now - timedelta(days=5),
            "updated_at": now - timedelta(days=5),
            "version": 1,
        }
        for n in range(LIMIT + 3)
    ]
    db.execute(insert(Mediation), rows)
    db.commit()
    response = client.get(URL, headers=login(mediator))
    body = response.json()
    assert body["count"] == LIMIT + 3
    assert [alert["args"]["title"] for alert in body["alerts"]] == [f"Médiation {n}" for n in range(LIMIT)]
