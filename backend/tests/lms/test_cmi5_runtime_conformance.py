"""cmi5 runtime conformance, as the cmi5 LMS test suite (CATAPULT lts/__tests__/runtime.js and its AUs)
checks it: the endpoint with the doubled slash of the cmi5 library 3.0/3.1, LMS.LaunchData's
entitlementKey, every field of the launched statement, the Normal, Browse and Review launch modes, the
session closed after terminated or abandoned, the ordering rules of cmi5 §9.3 within a session and a
registration (refused with 403), and the agent profile."""

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from sqlalchemy import func, select

from lms.conformance import catapult_zip, needs_catapult
from lms.conftest import CMI5, MASTERY_SCORE, SESSION_ID, Runtime, au, course_package, leaves, upload
from spot.lms.models import LmsAttempt, LmsCompletion, LmsLaunch, LmsStatement
from support import API, assert_error

EXTENSION = "https://w3id.org/xapi/cmi5/context/extensions/"
ADL = "https://w3id.org/xapi/adl/verbs/"
QUIZ_RESULT = {"score": {"scaled": 0.9, "raw": 9, "min": 0, "max": 10}, "success": True}
FAILED_RESULT = {"score": {"scaled": 0.4}, "success": False}


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("learner"))


@pytest.fixture
def units(demo_course) -> dict[str, dict[str, Any]]:
    return leaves(demo_course)


@pytest.fixture
def quiz(units) -> dict[str, Any]:
    return units["Quiz consignation"]


@pytest.fixture
def resource(units) -> dict[str, Any]:
    return units["Les bases de la consignation"]


def _launched(db, runtime: Runtime) -> dict[str, Any]:
    session = parse_qs(urlsplit(runtime.url).query)["registration"][0]
    rows = db.scalars(
        select(LmsStatement.content)
        .where(LmsStatement.registration == session, LmsStatement.verb.endswith("/launched"))
        .order_by(LmsStatement.id.desc())
    ).all()
    return json.loads(rows[0])


def _count(db, verb: str) -> int:
    return db.scalar(select(func.count()).select_from(LmsStatement).where(LmsStatement.verb.endswith(verb)))


# The endpoint as the cmi5 library 3.0 and 3.1 call it ---------------------------------------------------


def test_the_doubled_slash_of_the_cmi5_library_reaches_the_runtime(launch, learner, quiz):
    runtime = launch(learner, quiz["id"])
    runtime.token = runtime.fetch()["auth-token"]
    endpoint = runtime.endpoint
    assert endpoint.endswith("/xapi/")
    client, auth = runtime.client, runtime.auth()
    # The library joins `endpoint` and "/activities/state": ".../xapi//activities/state".
    data = client.get(f"{endpoint}/activities/state", params=runtime.state_params(), headers=auth)
    assert data.status_code == 200, data.text
    runtime.launch_data = data.json()
    assert client.get(f"{endpoint}/about").json() == {"version": ["1.0.3"]}
    initialized = runtime.statement("initialized")
    stored = client.put(
        f"{endpoint}/statements", params={"statementId": initialized["id"]}, json=initialized, headers=auth
    )
    assert stored.status_code == 204, stored.text
    posted = client.post(
        f"{endpoint}/statements", json=[runtime.statement("experienced", context=None)], headers=auth
    )
    assert posted.status_code in (400, 403)  # reached the runtime, which checks the statement
    read = client.get(f"{endpoint}/statements", params={"statementId": initialized["id"]}, headers=auth)
    assert read.status_code == 200 and read.json()["id"] == initialized["id"]
    put_state = client.put(
        f"{endpoint}/activities/state",
        params=runtime.state_params("bookmark"),
        json={"page": 2},
        headers=auth,
    )
    assert put_state.status_code == 204
    assert (
        client.delete(
            f"{endpoint}/activities/state", params=runtime.state_params("bookmark"), headers=auth
        ).status_code
        == 204
    )
    profile = client.get(
        f"{endpoint}/agents/profile",
        params={"profileId": "cmi5LearnerPreferences", "agent": runtime.params["actor"]},
        headers=auth,
    )
    assert profile.status_code == 404
    # The content's CORS covers the doubled slash too.
    preflight = client.options(
        f"{endpoint}/statements",
        headers={
            "Origin": "null",
            "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "authorization, content-type, x-experience-api-version",
        },
    )
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"


# LMS.LaunchData and the launched statement ------------------------------------------------------------

ENTITLED = au(
    "entitled",
    "Avec clé",
    url="index.html?paramA=1&amp;paramB=2",
    attributes='moveOn="CompletedAndPassed" masteryScore="0.9"',
).replace(
    "</url>",
    "</url><launchParameters>sample string</launchParameters>"
    "<entitlementKey>\n   sample value\n  </entitlementKey>",
)


@pytest.fixture
def entitled(client, manager) -> dict[str, Any]:
    members = ENTITLED + au("plain", "Sans clé")
    course_id = upload(client, manager, course_package(members)).json()["id"]
    return leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())


def test_launch_data_gives_the_entitlement_key(launch, learner, entitled):
    data = launch(learner, entitled["Avec clé"]["id"]).start().launch_data
    assert data["entitlementKey"] == {"courseStructure": "sample value"}
    assert data["launchParameters"] == "sample string" and data["masteryScore"] == 0.9
    plain = launch(learner, entitled["Sans clé"]["id"]).start().launch_data
    assert plain["entitlementKey"] == {"courseStructure": ""}


def test_the_launched_statement_carries_every_field_of_cmi5(db, launch, learner, entitled):
    runtime = launch(learner, entitled["Avec clé"]["id"]).start()
    statement = _launched(db, runtime)
    assert statement["verb"]["id"] == "http://adlnet.gov/expapi/verbs/launched"
    assert statement["actor"] == json.loads(runtime.params["actor"])
    assert statement["object"]["id"] == runtime.params["activityId"]
    context = statement["context"]
    assert context["registration"] == runtime.params["registration"]
    assert {"id": CMI5} in context["contextActivities"]["category"]
    grouping = [activity["id"] for activity in context["contextActivities"]["grouping"]]
    assert "https://example.com/courses/test/entitled" in grouping
    extensions = context["extensions"]
    data = runtime.launch_data
    assert extensions[SESSION_ID] == data["contextTemplate"]["extensions"][SESSION_ID]
    assert extensions[EXTENSION + "launchmode"] == data["launchMode"] == "Normal"
    assert extensions[EXTENSION + "moveon"] == data["moveOn"] == "CompletedAndPassed"
    assert extensions[EXTENSION + "masteryscore"] == data["masteryScore"] == 0.9
    assert extensions[EXTENSION + "launchparameters"] == data["launchParameters"]
    # The address the LMS launched, with the unit's own parameters and without the launch's (§9.6.3.4).
    launched = urlsplit(extensions[EXTENSION + "launchurl"])
    opened = urlsplit(runtime.url)
    assert (launched.scheme, launched.netloc, launched.path) == (opened.scheme, opened.netloc, opened.path)
    assert parse_qs(launched.query) == {"paramA": ["1"], "paramB": ["2"]}
    assert statement["timestamp"].endswith("Z")
    # A unit without a mastery score or launch parameters: no such extension.
    plain = _launched(db, launch(learner, entitled["Sans clé"]["id"]))
    assert EXTENSION + "masteryscore" not in plain["context"]["extensions"]
    assert EXTENSION + "launchparameters" not in plain["context"]["extensions"]


@needs_catapult
def test_the_suite_essentials_package_gets_its_launch_data(client, db, tmp_path, manager, launch, learner):
    # LTS 001-essentials: the checks its AU makes of LMS.LaunchData and its post-run checks of launched.
    package = catapult_zip("001-essentials", tmp_path).read_bytes()
    response = upload(client, manager, package)
    assert response.status_code == 200, response.text
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    unit = next(iter(leaves(tree).values()))
    runtime = launch(learner, unit["id"]).start()
    assert runtime.params["activityId"] != "https://w3id.org/xapi/cmi5/catapult/lts/au/001-essentials"
    assert urlsplit(runtime.url).path.endswith("/index.html")
    assert parse_qs(urlsplit(runtime.url).query)["paramA"] == ["1"]
    data = runtime.launch_data
    assert data["entitlementKey"]["courseStructure"] == "sample value"
    assert (data["masteryScore"], data["moveOn"]) == (0.9, "CompletedAndPassed")
    statement = _launched(db, runtime)
    extensions = statement["context"]["extensions"]
    assert extensions[EXTENSION + "masteryscore"] == data["masteryScore"]
    assert extensions[EXTENSION + "launchparameters"] == data["launchParameters"]
    assert parse_qs(urlsplit(extensions[EXTENSION + "launchurl"]).query) == {"paramA": ["1"], "paramB": ["2"]}


# Launch modes -------------------------------------------------------------------------------------------


def test_browse_records_no_result(client, db, launch, learner, quiz):
    runtime = launch(learner, quiz["id"], mode="Browse").begin()
    assert runtime.launch_data["launchMode"] == "Browse"
    assert _launched(db, runtime)["context"]["extensions"][EXTENSION + "launchmode"] == "Browse"
    for verb, result in (
        ("completed", {"completion": True}),
        ("failed", FAILED_RESULT),
        ("passed", QUIZ_RESULT),
    ):
        body = assert_error(runtime.put(runtime.statement(verb, result)), 403)
        assert "Browse" in body["message"]
    assert runtime.put(runtime.statement("terminated")).status_code == 204
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0
    assert db.scalar(select(func.count()).select_from(LmsCompletion)) == 0


def test_review_may_be_asked_and_records_no_result(db, launch, learner, quiz):
    runtime = launch(learner, quiz["id"], mode="Review").begin()
    assert runtime.launch_data["launchMode"] == "Review"
    body = assert_error(runtime.put(runtime.statement("passed", QUIZ_RESULT)), 403)
    assert "Review" in body["message"]
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0


def test_a_unit_without_criteria_reopened_launches_normal_and_records_again(client, manager, launch, learner):
    """A quiz with a mastery score and no moveOn (NotApplicable) is satisfied at registration, not by
    what the learner did in it: reopening it is a Normal launch, whose failed and passed count."""
    package = course_package(au("noter", "Sans critère", attributes='masteryScore="0.5"'))
    course_id = upload(client, manager, package).json()["id"]
    unit = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())["Sans critère"]
    first = launch(learner, unit["id"]).begin()
    assert first.launch_data["launchMode"] == "Normal"
    result = {"score": {"scaled": 0.2}, "success": False}
    assert first.put(first.statement("failed", result)).status_code == 204
    assert first.put(first.statement("terminated")).status_code == 204
    again = launch(learner, unit["id"]).begin()
    assert again.launch_data["launchMode"] == "Normal"
    assert (
        again.put(again.statement("passed", {"score": {"scaled": 0.7}, "success": True})).status_code == 204
    )
    attempts = client.post(
        f"{API}/lms/quiz-attempts",
        json={
            "learnerId": int(json.loads(first.params["actor"])["account"]["name"]),
            "quizIds": [unit["id"]],
        },
        headers=manager,
    ).json()
    assert [(a["grade"], a["success"]) for a in attempts] == [(2.0, False), (7.0, True)]


def test_only_browse_and_review_may_be_asked(client, learner, quiz):
    for mode in ("Normal", "browse", 1):
        response = client.post(f"{API}/lms/items/{quiz['id']}/launch", headers=learner, json={"mode": mode})
        assert_error(response, 422)


def test_a_learner_reopening_a_satisfied_unit_reviews_it(launch, learner, resource, quiz):
    first = launch(learner, resource["id"]).begin()
    assert first.launch_data["launchMode"] == "Normal"
    assert first.put(first.statement("completed", {"completion": True})).status_code == 204
    assert first.put(first.statement("terminated")).status_code == 204
    again = launch(learner, resource["id"]).begin()
    assert again.launch_data["launchMode"] == "Review"
    body = assert_error(again.put(again.statement("completed", {"completion": True})), 403)
    assert "Review" in body["message"] or "registration" in body["message"]
    # A failed quiz is not satisfied: it opens Normal again, and may be passed.
    quiz_run = launch(learner, quiz["id"]).begin()
    assert quiz_run.put(quiz_run.statement("failed", FAILED_RESULT)).status_code == 204
    assert quiz_run.put(quiz_run.statement("terminated")).status_code == 204
    retry = launch(learner, quiz["id"]).begin()
    assert retry.launch_data["launchMode"] == "Normal"
    assert retry.put(retry.statement("passed", QUIZ_RESULT)).status_code == 204
    # moveOn CompletedAndPassed: passed alone does not satisfy it.
    assert retry.put(retry.statement("terminated")).status_code == 204
    assert launch(learner, quiz["id"]).start().launch_data["launchMode"] == "Normal"


# Sessions and the ordering rules of cmi5 §9.3 -----------------------------------------------------------


def test_a_terminated_session_refuses_everything_after(client, db, launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).begin()
    assert runtime.put(runtime.statement("terminated")).status_code == 204
    assert db.scalar(select(LmsLaunch.closed_at)) is not None
    # A late statement: refused, and no attempt is made of it.
    late = runtime.put(runtime.statement("passed", QUIZ_RESULT))
    assert_error(late, 403)
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0
    allowed = runtime.statement("experienced")
    allowed["context"]["contextActivities"]["category"] = []
    assert_error(runtime.put(allowed), 403)
    assert_error(
        client.get(
            f"{runtime.endpoint}activities/state", params=runtime.state_params(), headers=runtime.auth()
        ),
        403,
    )


def test_statements_after_terminated_in_one_request_are_refused_whole(db, launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).begin()
    batch = [runtime.statement("terminated"), runtime.statement("passed", QUIZ_RESULT)]
    assert_error(runtime.post(batch), 403)
    assert _count(db, "/terminated") == 0 and db.scalar(select(LmsLaunch.closed_at)) is None
    # The same request in cmi5's order is stored whole.
    assert runtime.post(list(reversed(batch))).status_code == 200
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 1


def test_an_abandoned_session_refuses_everything_after(db, launch, learner, quiz):
    first = launch(learner, quiz["id"]).begin()
    launch(learner, quiz["id"]).start()
    assert _count(db, "/abandoned") == 1
    assert_error(first.put(first.statement("passed", QUIZ_RESULT)), 403)
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0


def test_the_first_statement_of_a_session_is_initialized(db, launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).start()
    allowed = runtime.statement("experienced")
    allowed["context"]["contextActivities"]["category"] = []
    for early in (allowed, runtime.statement("passed", QUIZ_RESULT), runtime.statement("terminated")):
        body = assert_error(runtime.put(early), 403)
        assert "initialized" in body["message"]
    assert runtime.put(runtime.statement("initialized")).status_code == 204
    assert runtime.put(allowed).status_code == 204


def test_a_verb_is_not_repeated_in_a_session(launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).begin()
    assert_error(runtime.put(runtime.statement("initialized")), 403)
    assert runtime.put(runtime.statement("completed", {"completion": True})).status_code == 204
    assert_error(runtime.put(runtime.statement("completed", {"completion": True})), 403)
    assert runtime.put(runtime.statement("failed", FAILED_RESULT)).status_code == 204
    # One of passed and failed per session, whichever came first.
    assert_error(runtime.put(runtime.statement("failed", FAILED_RESULT)), 403)
    assert_error(runtime.put(runtime.statement("passed", QUIZ_RESULT)), 403)
    # The same statement sent again is no new statement: accepted as the first time.
    again = runtime.statement("terminated")
    assert runtime.put(again).status_code == 204


def test_completed_and_passed_once_per_registration(db, launch, learner, quiz):
    first = launch(learner, quiz["id"]).begin()
    assert first.put(first.statement("passed", QUIZ_RESULT)).status_code == 204
    assert first.put(first.statement("terminated")).status_code == 204
    second = launch(learner, quiz["id"]).begin()  # CompletedAndPassed: not satisfied yet, Normal
    assert second.launch_data["launchMode"] == "Normal"
    assert_error(second.put(second.statement("passed", QUIZ_RESULT)), 403)
    body = assert_error(second.put(second.statement("failed", FAILED_RESULT)), 403)
    assert "after passed" in body["message"]
    assert second.put(second.statement("completed", {"completion": True})).status_code == 204
    assert second.put(second.statement("terminated")).status_code == 204
    third = launch(learner, quiz["id"]).begin()
    assert third.launch_data["launchMode"] == "Review"
    assert_error(third.put(third.statement("completed", {"completion": True})), 403)
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 1
    assert _count(db, "/completed") == 1 and _count(db, "/passed") == 1


def test_another_learner_keeps_rules_of_their_own(make_user, login, launch, learner, quiz):
    first = launch(learner, quiz["id"]).begin()
    assert first.put(first.statement("passed", QUIZ_RESULT)).status_code == 204
    other = launch(login(make_user("other")), quiz["id"]).begin()
    assert other.put(other.statement("passed", QUIZ_RESULT)).status_code == 204


def test_statements_of_one_session_at_once_keep_the_rules(db, launch, learner, quiz):
    from lms.test_lms_concurrency import race

    runtime = launch(learner, quiz["id"]).begin()
    statements = [runtime.statement("passed", QUIZ_RESULT) for _ in range(6)]
    responses = race([lambda statement=statement: runtime.put(statement) for statement in statements])
    assert sorted(r.status_code for r in responses) == [204] + [403] * 5, [r.text for r in responses]
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 1


# Agent profile (cmi5 §11) ---------------------------------------------------------------------------------


def test_learner_preferences_are_not_kept(launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).begin()
    url = f"{runtime.endpoint}agents/profile"
    mine = {"profileId": "cmi5LearnerPreferences", "agent": runtime.params["actor"]}
    other = {**mine, "agent": json.dumps({"mbox": "mailto:catapult@example.com"})}
    preferences = {"languagePreference": "fr-FR", "audioPreference": "on"}
    client, auth = runtime.client, runtime.auth()
    assert_error(client.get(url, params=mine, headers=auth), 404)
    assert_error(client.put(url, params=mine, json=preferences, headers=auth), 403)
    assert_error(client.post(url, params=mine, json=preferences, headers=auth), 403)
    assert_error(client.delete(url, params=mine, headers=auth), 403)
    assert_error(client.put(url, params=other, json=preferences, headers=auth), 403)
    assert_error(
        client.put(url, params={"profileId": "cmi5LearnerPreferences"}, json=preferences, headers=auth), 400
    )
    assert_error(client.get(url, params=mine, headers={"X-Experience-API-Version": "1.0.3"}), 401)


def test_a_mastery_score_in_the_launched_context_is_the_launch_datas(launch, learner, quiz):
    runtime = launch(learner, quiz["id"]).begin()
    passed = runtime.statement("passed", QUIZ_RESULT)
    assert passed["context"]["extensions"][MASTERY_SCORE] == 0.8
    assert runtime.put(passed).status_code == 204


def test_a_passed_without_score_needs_no_mastery_score(db, launch, learner, quiz):
    # LTS 001's AU: passed with success and duration, no score, no masteryscore extension (§9.6.3.2:
    # required of a verdict judged on the mastery score only).
    runtime = launch(learner, quiz["id"]).begin()
    passed = runtime.statement("passed", {"success": True})
    del passed["context"]["extensions"][MASTERY_SCORE]
    assert runtime.put(passed).status_code == 204, runtime.put(passed).text
    assert db.scalar(select(func.count()).select_from(LmsAttempt)) == 0  # no score, no grade


def test_the_cmi5_category_on_another_verb_makes_an_allowed_statement(db, launch, learner, quiz):
    # §7.1.3 calls it not allowed; early cmi5 libraries put the category on every statement: stored, and
    # counted by none of cmi5's rules (an "answered" twice in a session is no repeated verb).
    runtime = launch(learner, quiz["id"]).begin()
    for _ in range(2):
        answered = runtime.statement("answered", object={"id": "https://example.com/quiz/q1"})
        assert runtime.put(answered).status_code == 204
    stored = db.scalars(select(LmsStatement).where(LmsStatement.verb.endswith("/answered"))).all()
    assert [row.defined for row in stored] == [False, False]
