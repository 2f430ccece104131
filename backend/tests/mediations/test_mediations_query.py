"""POST /mediation/query: only the mediations the user may read, the filter fields of spec 1 §3,
the sorts, paging and counts."""

from datetime import timedelta

import pytest

from spot.core.time import utcnow
from support import API, assert_error


def titles(client, headers, filter: str = "", sort: str = "title", **extra) -> list[str]:
    response = client.post(
        f"{API}/mediation/query", json={"filter": filter, "sort": sort, **extra}, headers=headers
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["totalItems"] == len(body["results"]) or "pageSize" in extra
    return [card["title"] for card in body["results"]]


@pytest.fixture
def three(client, cast, new_mediation, force):
    """Alpha (participant, visible to the group member), Beta (other participant, no visibility),
    Gamma (unscheduled, stopped, visible person)."""
    alpha = new_mediation(title="Alpha", description="Première ligne\nréunion équipe")
    beta = new_mediation(
        title="Beta", participants=[cast.id("other")], visibleByGroups=[], visibleByPersons=[]
    )
    gamma = new_mediation(title="Gamma", schedulingDate=None, visibleByGroups=[], description="atelier")
    now = utcnow()
    force(
        gamma["id"],
        status="stopped",
        execution_start=now - timedelta(days=2),
        execution_stop=now - timedelta(days=1),
    )
    force(alpha["id"], updated_at=now - timedelta(hours=1))
    return {"alpha": alpha["id"], "beta": beta["id"], "gamma": gamma["id"]}


def test_cards(client, cast, three) -> None:
    body = client.post(
        f"{API}/mediation/query", json={"sort": "title"}, headers=cast.headers["creator"]
    ).json()
    assert body["totalItems"] == 3
    card = body["results"][0]
    assert set(card) == {
        "id",
        "title",
        "description",
        "status",
        "schedulingDate",
        "executionStart",
        "executionStop",
        "creator",
        "mediator",
        "lastUpdate",
    }
    assert card["creator"] == {"id": cast.id("creator"), "name": cast.users["creator"].display_name}
    assert card["mediator"]["id"] == cast.id("mediator")
    assert card["lastUpdate"]["userId"] == cast.id("creator")


def test_visibility(client, cast, three) -> None:
    assert titles(client, cast.headers["creator"]) == ["Alpha", "Beta", "Gamma"]
    assert titles(client, cast.headers["mediator"]) == ["Alpha", "Beta", "Gamma"]
    assert titles(client, cast.headers["participant"]) == ["Alpha", "Gamma"]
    assert titles(client, cast.headers["other"]) == ["Beta"]
    assert titles(client, cast.headers["visiblePerson"]) == ["Alpha", "Gamma"]
    assert titles(client, cast.headers["groupMember"]) == ["Alpha"]


def test_filters(client, cast, three) -> None:
    h = cast.headers["creator"]
    assert titles(client, h, "title contains alp") == ["Alpha"]
    assert titles(client, h, "title startsWith g") == ["Gamma"]
    assert titles(client, h, "description contains equipe") == ["Alpha"]
    assert titles(client, h, "scheduled equals true") == ["Alpha", "Beta"]
    assert titles(client, h, "scheduled equals false") == ["Gamma"]
    assert titles(client, h, "status oneOf stopped") == ["Gamma"]
    assert titles(client, h, "status noneOf stopped") == ["Alpha", "Beta"]
    assert titles(client, h, f"participants oneOf {cast.id('other')}") == ["Beta"]
    assert titles(client, h, f"mediator oneOf {cast.id('mediator')}") == ["Alpha", "Beta", "Gamma"]
    assert titles(client, h, f"creator oneOf {cast.id('other')}") == []
    assert titles(client, h, "execution_start before 2999-01-01") == ["Gamma"]
    assert titles(client, h, "execution_stop after 2000-01-01") == ["Gamma"]
    assert titles(client, h, "scheduling_date after 2000-01-01") == ["Alpha", "Beta"]
    assert titles(client, h, "last_update after 2000-01-01") == ["Alpha", "Beta", "Gamma"]


def test_sorts(client, cast, three) -> None:
    h = cast.headers["creator"]
    assert titles(client, h, sort="-title") == ["Gamma", "Beta", "Alpha"]
    # Default: last update, newest first (Alpha was updated an hour ago).
    assert titles(client, h, sort="")[-1] == "Alpha"
    assert titles(client, h, sort="-last_update")[-1] == "Alpha"
    assert titles(client, h, sort="status")[-1] == "Gamma"
    for field in ("scheduling_date", "execution_start", "execution_stop"):
        assert sorted(titles(client, h, sort=field)) == ["Alpha", "Beta", "Gamma"]


def test_paging(client, cast, three) -> None:
    h = cast.headers["creator"]
    body = client.post(
        f"{API}/mediation/query", json={"sort": "title", "page": 2, "pageSize": 2}, headers=h
    ).json()
    assert body["totalItems"] == 3 and [c["title"] for c in body["results"]] == ["Gamma"]


def test_unknown_field_is_refused(client, cast, three) -> None:
    response = client.post(
        f"{API}/mediation/query", json={"filter": "colour oneOf red"}, headers=cast.headers["creator"]
    )
    assert_error(response, 400)
