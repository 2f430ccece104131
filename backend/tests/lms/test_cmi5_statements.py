"""Reading statements: the xAPI statements resource's queries (xAPI 1.0.3 §7.2.3) a launched unit asks
about its own learner, and the training managers' statement log of a learner and a unit."""

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from lms.conftest import leaves
from support import API, assert_error

VERB = "http://adlnet.gov/expapi/verbs/"


@pytest.fixture
def learner(make_user, login):
    user = make_user("learner", first_name="Léa", last_name="Martin")
    return user, login(user)


@pytest.fixture
def units(demo_course) -> dict[str, dict[str, Any]]:
    return leaves(demo_course)


def _session(launch, headers, unit_id: int, *verbs: str):
    runtime = launch(headers, unit_id).begin()
    for verb in verbs:
        result = {"completion": True} if verb == "completed" else None
        assert runtime.put(runtime.statement(verb, result)).status_code == 204
    return runtime


def _query(runtime, **params: str) -> Any:
    response = runtime.client.get(f"{runtime.endpoint}statements", params=params, headers=runtime.auth())
    assert response.status_code == 200, response.text
    return response.json()


def test_statements_by_registration_in_stored_order(launch, learner, units):
    _, headers = learner
    reading = _session(
        launch, headers, units["Les bases de la consignation"]["id"], "completed", "terminated"
    )
    quiz = launch(headers, units["Quiz consignation"]["id"]).begin()
    found = _query(quiz, registration=reading.params["registration"], ascending="true")
    verbs = [s["verb"]["id"].rsplit("/", 1)[-1] for s in found["statements"]]
    assert verbs == ["launched", "initialized", "completed", "terminated", "launched", "initialized"]
    assert found["more"] == ""
    consistent = quiz.client.get(f"{quiz.endpoint}statements", headers=quiz.auth())
    assert consistent.headers["X-Experience-API-Consistent-Through"].endswith("Z")
    assert all(s["stored"].endswith("Z") for s in found["statements"])
    newest_first = _query(quiz, registration=reading.params["registration"])
    assert [s["id"] for s in newest_first["statements"]] == [s["id"] for s in reversed(found["statements"])]


def test_statements_by_activity_verb_agent_and_time(launch, learner, units, make_user):
    _, headers = learner
    reading = _session(launch, headers, units["Les bases de la consignation"]["id"], "completed")
    by_activity = _query(reading, activity=reading.params["activityId"])["statements"]
    assert {s["object"]["id"] for s in by_activity} == {reading.params["activityId"]}
    assert len(by_activity) == 3
    completed = _query(reading, verb=VERB + "completed")["statements"]
    assert [s["verb"]["id"] for s in completed] == [VERB + "completed"]
    assert len(_query(reading, agent=reading.params["actor"])["statements"]) == 3
    stranger = json.dumps({"objectType": "Agent", "account": {"homePage": "https://x", "name": "1"}})
    assert _query(reading, agent=stranger)["statements"] == []
    stored = by_activity[0]["stored"]
    assert _query(reading, since=stored)["statements"] == []
    assert len(_query(reading, until=stored)["statements"]) == 3
    assert _query(reading, until="2000-01-01T00:00:00Z")["statements"] == []


def test_statements_of_another_learner_are_not_given(make_user, login, launch, learner, units):
    _, headers = learner
    mine = _session(launch, headers, units["Les bases de la consignation"]["id"])
    theirs = _session(launch, login(make_user("other")), units["Les bases de la consignation"]["id"])
    assert _query(theirs, registration=mine.params["registration"])["statements"] == []
    ids = {s["id"] for s in _query(mine)["statements"]}
    assert ids and not ids & {s["id"] for s in _query(theirs)["statements"]}


def test_statements_come_by_pages(launch, learner, units):
    _, headers = learner
    runtime = _session(
        launch, headers, units["Les bases de la consignation"]["id"], "completed", "terminated"
    )
    other = launch(headers, units["Quiz consignation"]["id"]).begin()
    seen: list[str] = []
    page = _query(other, limit="3", ascending="true")
    while True:
        seen += [s["id"] for s in page["statements"]]
        if not page["more"]:
            break
        assert len(page["statements"]) == 3
        more = urlsplit(page["more"])
        assert more.path == f"{API}/lms/xapi/statements"
        params = {key: values[0] for key, values in parse_qs(more.query).items()}
        page = _query(other, **params)
    assert seen == [s["id"] for s in _query(other, ascending="true")["statements"]]
    assert len(seen) == 6 and runtime.params["registration"]


def test_a_bad_query_is_refused(launch, learner, units):
    runtime = launch(learner[1], units["Quiz consignation"]["id"]).begin()
    url = f"{runtime.endpoint}statements"
    for params in (
        {"since": "yesterday"},
        {"until": "2026-01-01T00:00:00"},
        {"limit": "-1"},
        {"ascending": "yes"},
        {"cursor": "x"},
        {"agent": "{not json"},
        {"what": "1"},
        {"statementId": "a", "verb": VERB + "completed"},
    ):
        assert_error(runtime.client.get(url, params=params, headers=runtime.auth()), 400)
    assert_error(runtime.client.get(url, params={"voidedStatementId": "x"}, headers=runtime.auth()), 404)
    assert_error(
        runtime.client.get(url, params={"limit": "1"}, headers={"X-Experience-API-Version": "1.0.3"}), 401
    )


# The statement log ------------------------------------------------------------------------------------


def test_a_training_manager_reads_a_learners_statements(client, manager, launch, learner, units):
    user, headers = learner
    unit = units["Les bases de la consignation"]
    _session(launch, headers, unit["id"], "completed", "terminated")
    _session(launch, headers, units["Quiz consignation"]["id"])
    log = client.get(
        f"{API}/lms/statements", params={"learnerId": user.id, "itemId": unit["id"]}, headers=manager
    )
    assert log.status_code == 200, log.text
    body = log.json()
    assert body["total"] == 4 and body["page"] == 1 and body["pageSize"] == 50
    assert [row["verbName"] for row in body["items"]] == [
        "terminated",
        "completed",
        "initialized",
        "launched",
    ]
    completed = body["items"][1]
    assert completed["learnerName"] == "Léa Martin" and completed["itemName"] == unit["name"]
    assert completed["completion"] is True and completed["defined"] is True
    assert completed["launchMode"] == "Normal" and completed["sessionId"]
    assert completed["courseTitle"] == "Consignation des énergies"
    assert completed["statement"]["verb"]["id"] == VERB + "completed"
    everything = client.get(f"{API}/lms/statements", params={"learnerId": user.id}, headers=manager).json()
    assert everything["total"] == 6
    past = client.get(
        f"{API}/lms/statements", params={"learnerId": user.id, "page": 2}, headers=manager
    ).json()
    assert past["items"] == [] and past["total"] == 6
    learners = client.get(f"{API}/lms/items/{unit['id']}/learners", headers=manager).json()
    assert learners == [{"id": user.id, "name": "Léa Martin"}]


def test_the_statement_log_is_for_training_managers(client, launch, learner, units):
    user, headers = learner
    unit = units["Les bases de la consignation"]
    _session(launch, headers, unit["id"])
    assert_error(client.get(f"{API}/lms/statements", params={"learnerId": user.id}, headers=headers), 403)
    assert_error(client.get(f"{API}/lms/items/{unit['id']}/learners", headers=headers), 403)
    assert_error(client.get(f"{API}/lms/statements"), 401)


def test_the_statement_log_of_an_unknown_unit(client, manager):
    assert (
        client.get(f"{API}/lms/statements", params={"itemId": 999_999}, headers=manager).json()["total"] == 0
    )
    assert_error(client.get(f"{API}/lms/items/999999/learners", headers=manager), 404, "lmsElementNotFound")


def test_a_training_manager_reads_every_learners_statements_through_xapi(
    client, manager, make_user, login, launch, learner, units
):
    # cmi5 §4.2: an LMS account able to read every learner's statements (the LMS test suite reads the
    # registration's statements so), with a training manager's Spot token as bearer.
    _, headers = learner
    reading = _session(launch, headers, units["Les bases de la consignation"]["id"], "completed")
    other = _session(launch, login(make_user("other")), units["Les bases de la consignation"]["id"])
    bearer = {"Authorization": f"Bearer {manager['x-access-token']}", "X-Experience-API-Version": "1.0.3"}
    url = f"{API}/lms/xapi/statements"
    mine = client.get(
        url, params={"registration": reading.params["registration"], "ascending": "true"}, headers=bearer
    )
    assert mine.status_code == 200, mine.text
    assert [s["verb"]["id"].rsplit("/", 1)[-1] for s in mine.json()["statements"]] == [
        "launched",
        "initialized",
        "completed",
    ]
    everyone = client.get(url, params={"verb": VERB + "initialized"}, headers=bearer).json()["statements"]
    assert {s["context"]["registration"] for s in everyone} == {
        reading.params["registration"],
        other.params["registration"],
    }
    by_agent = client.get(url, params={"agent": other.params["actor"]}, headers=bearer).json()["statements"]
    assert {s["actor"]["account"]["name"] for s in by_agent} == {
        json.loads(other.params["actor"])["account"]["name"]
    }
    one = mine.json()["statements"][0]
    assert client.get(url, params={"statementId": one["id"]}, headers=bearer).json() == one
    # A learner's own Spot token reads nothing so; nor does an unknown one.
    assert_error(
        client.get(url, headers={**bearer, "Authorization": f"Bearer {headers['x-access-token']}"}), 403
    )
    assert_error(client.get(url, headers={**bearer, "Authorization": "Bearer nope"}), 401)
