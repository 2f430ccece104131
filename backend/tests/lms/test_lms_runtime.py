"""The cmi5 runtime: launch address, one-time fetch, LMS.LaunchData, statements turned into attempts and
completions, idempotency, refusals, activity state, CORS and the sandboxed content."""

import json
from datetime import timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update

from lms.conftest import CMI5, MASTERY_SCORE, MOVE_ON, SESSION_ID, XAPI, leaves
from spot.config import get_settings
from spot.core.time import utcnow
from spot.demo import lms as demo
from spot.lms.models import LmsCompletion, LmsLaunch, LmsStatement
from spot.lms.service import grade_of
from support import API, assert_error


@pytest.fixture
def learner(make_user, login):
    user = make_user("learner")
    return user, login(user)


@pytest.fixture
def quiz(demo_course):
    return leaves(demo_course)["Quiz consignation"]


@pytest.fixture
def resource(demo_course):
    return leaves(demo_course)["Les bases de la consignation"]


def test_launch_address_carries_the_cmi5_parameters(launch, learner, quiz):
    user, headers = learner
    runtime = launch(headers, quiz["id"])
    parts = urlsplit(runtime.url)
    assert f"{parts.scheme}://{parts.netloc}" == get_settings().public_url
    assert parts.path.startswith(f"{API}/lms/play/") and parts.path.endswith("/quiz.html")
    assert set(runtime.params) == {"endpoint", "fetch", "actor", "registration", "activityId"}
    assert runtime.params["endpoint"] == f"{get_settings().public_url}{API}/lms/xapi/"
    actor = json.loads(runtime.params["actor"])
    assert actor["objectType"] == "Agent" and actor["account"]["name"] == str(user.id)
    assert actor["account"]["homePage"]
    # A generated activity id, never the publisher's (cmi5 §8.1.5), the same at each launch.
    assert runtime.params["activityId"] != demo.QUIZ_ACTIVITY_ID
    again = launch(headers, quiz["id"])
    assert again.params["activityId"] == runtime.params["activityId"]
    # One registration per learner and course, shared by its units.
    assert again.params["registration"] == runtime.params["registration"]


def test_the_launch_address_is_on_the_public_url_whatever_the_host_header(
    client, settings_env, learner, quiz
):
    settings_env(SPOT_PUBLIC_URL="https://spot.example.com/")
    response = client.post(
        f"{API}/lms/items/{quiz['id']}/launch", headers={**learner[1], "Host": "attacker.example"}
    )
    assert response.status_code == 200, response.text
    url = response.json()["url"]
    params = {key: values[0] for key, values in parse_qs(urlsplit(url).query).items()}
    assert url.startswith(f"https://spot.example.com{API}/lms/play/")
    assert params["fetch"].startswith(f"https://spot.example.com{API}/lms/fetch/")
    assert params["endpoint"] == f"https://spot.example.com{API}/lms/xapi/"
    assert "attacker" not in url


def test_launch_of_an_unknown_or_group_item_is_404(client, learner, demo_course):
    _, headers = learner
    for item_id in (999_999, demo_course["children"][0]["id"]):
        response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers)
        assert_error(response, 404, "lmsElementNotFound")


def test_launch_needs_a_session(client, quiz):
    assert_error(client.post(f"{API}/lms/items/{quiz['id']}/launch"), 401)


def test_fetch_gives_the_auth_token_once(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"])
    first = runtime.fetch()
    assert set(first) == {"auth-token"} and first["auth-token"]
    second = runtime.fetch()
    assert second["error-code"] == "1" and second["error-text"]
    assert "auth-token" not in second


def test_an_unknown_or_expired_fetch_address_gives_the_error_object(client, db, launch, learner, quiz):
    assert client.post(f"{API}/lms/fetch/nothing").json()["error-code"] == "2"
    runtime = launch(learner[1], quiz["id"])
    db.execute(update(LmsLaunch).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.commit()
    assert runtime.fetch()["error-code"] == "1"


def test_launch_data_holds_the_context_template_and_the_unit_rules(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    data = runtime.launch_data
    assert data["launchMode"] == "Normal"
    assert data["moveOn"] == "CompletedAndPassed"
    assert data["masteryScore"] == 0.8
    assert data["returnURL"] == f"{get_settings().public_url}/spotv2/lms"
    template = data["contextTemplate"]
    assert template["extensions"][SESSION_ID]
    assert {"objectType": "Activity", "id": demo.QUIZ_ACTIVITY_ID} in template["contextActivities"][
        "grouping"
    ]
    # Each launch is a session of its own.
    other = launch(learner[1], quiz["id"]).start()
    assert (
        other.launch_data["contextTemplate"]["extensions"][SESSION_ID] != template["extensions"][SESSION_ID]
    )


def test_the_launch_is_recorded_by_a_launched_statement(db, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"])
    stored = db.scalars(select(LmsStatement)).one()
    content = json.loads(stored.content)
    assert content["verb"]["id"].endswith("/launched")
    assert content["object"]["id"] == runtime.params["activityId"]
    assert content["context"]["registration"] == runtime.params["registration"]


@pytest.mark.parametrize(
    ("scaled", "grade", "verb"), [(0.8, 8.0, "passed"), (1, 10.0, "passed"), (0.4, 4.0, "failed")]
)
def test_a_judged_statement_with_a_score_becomes_an_attempt(
    client, launch, learner, quiz, scaled, grade, verb
):
    user, headers = learner
    runtime = launch(headers, quiz["id"]).start()
    assert runtime.put(runtime.statement("initialized")).status_code == 204
    result = {"score": {"scaled": scaled, "raw": scaled * 5, "min": 0, "max": 5}, "success": verb == "passed"}
    assert runtime.put(runtime.statement(verb, result)).status_code == 204
    attempts = client.post(
        f"{API}/lms/quiz-attempts", json={"learnerId": user.id, "quizIds": [quiz["id"]]}, headers=headers
    ).json()
    assert len(attempts) == 1
    attempt = attempts[0]
    assert attempt["quizId"] == quiz["id"] and attempt["learnerId"] == user.id
    assert attempt["grade"] == grade and attempt["success"] is (verb == "passed")
    assert attempt["link"] == f"{API}/lms/attempts/{attempt['id']}"
    detail = client.get(attempt["link"], headers=headers).json()
    assert detail["statement"]["verb"]["id"].endswith(verb) and detail["quizName"] == "Quiz consignation"
    mine = client.get(f"{API}/lms/attempts/mine", headers=headers).json()
    assert [(a["quizName"], a["courseTitle"], a["grade"]) for a in mine] == [
        ("Quiz consignation", "Consignation des énergies", grade)
    ]


def test_grades_are_rounded_half_up_to_one_decimal():
    assert [grade_of(s) for s in (0.85, 0.333, 0.666, 0.05, 0, 1)] == [8.5, 3.3, 6.7, 0.5, 0.0, 10.0]


def test_a_judged_statement_without_score_makes_no_attempt(client, launch, learner, quiz):
    user, headers = learner
    runtime = launch(headers, quiz["id"]).begin()
    assert runtime.put(runtime.statement("passed", {"success": True})).status_code == 204
    body = {"learnerId": user.id, "quizIds": [quiz["id"]]}
    assert client.post(f"{API}/lms/quiz-attempts", json=body, headers=headers).json() == []


def test_a_completed_statement_marks_the_unit_done(db, launch, learner, resource):
    user, headers = learner
    runtime = launch(headers, resource["id"]).begin()
    assert runtime.put(runtime.statement("completed", {"completion": True})).status_code == 204
    done = db.scalars(select(LmsCompletion)).one()
    assert (done.user_id, done.item_id) == (user.id, resource["id"])
    from spot.lms import service

    assert set(service.completed_items(db, learner_id=user.id, item_ids=[resource["id"]])) == {resource["id"]}


def test_statements_are_idempotent_by_id(db, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    statement = runtime.statement("initialized")
    assert runtime.put(statement).status_code == 204
    assert runtime.put(statement).status_code == 204
    assert runtime.post([statement]).json() == [statement["id"]]
    changed = {**statement, "timestamp": "2026-12-02T11:00:00Z"}
    assert_error(runtime.put(changed), 409)
    assert db.scalar(select(LmsStatement.id).where(LmsStatement.statement_id == statement["id"])) is not None
    assert len(db.scalars(select(LmsStatement).where(LmsStatement.verb.endswith("initialized"))).all()) == 1
    stored = runtime.client.get(
        f"{runtime.endpoint}statements", params={"statementId": statement["id"]}, headers=runtime.auth()
    )
    assert stored.status_code == 200
    assert {k: v for k, v in stored.json().items() if k != "stored"} == statement
    assert stored.json()["stored"].endswith("Z")


def test_a_repeated_judged_statement_makes_one_attempt(client, launch, learner, quiz):
    user, headers = learner
    runtime = launch(headers, quiz["id"]).begin()
    passed = runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True})
    assert runtime.put(passed).status_code == 204
    assert runtime.put(passed).status_code == 204
    body = {"learnerId": user.id, "quizIds": [quiz["id"]]}
    assert len(client.post(f"{API}/lms/quiz-attempts", json=body, headers=headers).json()) == 1


def test_a_statement_needs_its_id(db, launch, learner, quiz):
    # cmi5 §9.1: the unit gives every statement its id; POST answers the ids it stored.
    runtime = launch(learner[1], quiz["id"]).start()
    statement = runtime.statement("initialized")
    del statement["id"]
    assert_error(runtime.post(statement), 403)
    statement["id"] = runtime.statement("x")["id"]
    response = runtime.post(statement)
    assert response.status_code == 200 and response.json() == [statement["id"]]
    assert response.headers["X-Experience-API-Version"] == "1.0.3"


def _invalid(statement):
    """Statements xAPI itself refuses (400)."""
    return {
        "verb without id": {**statement, "verb": {"display": {"fr": "x"}}},
        "object not an activity": {**statement, "object": {"objectType": "Agent", "id": "x"}},
        "id not a uuid": {**statement, "id": "12"},
        "timestamp not a time": {**statement, "timestamp": "hier"},
        "result not an object": {**statement, "result": [1]},
    }


def _not_cmi5(runtime, statement):
    """Statements cmi5 does not allow (403, as the cmi5 test suite expects)."""
    passed = runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True})
    completed = runtime.statement("completed", {"completion": True})
    no_move_on = json.loads(json.dumps(completed))
    no_move_on["context"]["contextActivities"]["category"] = [{"id": CMI5}]
    no_mastery = json.loads(json.dumps(passed))
    del no_mastery["context"]["extensions"][MASTERY_SCORE]
    other_mastery = json.loads(json.dumps(passed))
    other_mastery["context"]["extensions"][MASTERY_SCORE] = 0.5
    allowed_move_on = json.loads(json.dumps(statement))
    allowed_move_on["context"]["contextActivities"]["category"] = [{"id": MOVE_ON}]
    raw = runtime.statement("passed", {"score": {"scaled": 0.9, "raw": 9}, "success": True})
    return {
        "no actor": {k: v for k, v in statement.items() if k != "actor"},
        "a group as actor": {**statement, "actor": {**statement["actor"], "objectType": "Group"}},
        "no context": {k: v for k, v in statement.items() if k != "context"},
        "no timestamp": {k: v for k, v in statement.items() if k != "timestamp"},
        "timestamp not in UTC": {**statement, "timestamp": "2026-12-02T10:00:00-06:00"},
        "score out of range": runtime.statement("passed", {"score": {"scaled": 1.5}, "success": True}),
        "score on completed": runtime.statement("completed", {"completion": True, "score": {"scaled": 1}}),
        "raw score without min and max": raw,
        "passed without success": runtime.statement("passed", {"score": {"scaled": 0.9}}),
        "passed with completion": runtime.statement(
            "passed", {"score": {"scaled": 0.9}, "success": True, "completion": True}
        ),
        "completed with success": runtime.statement("completed", {"completion": True, "success": True}),
        "passed below mastery": runtime.statement("passed", {"score": {"scaled": 0.5}, "success": True}),
        "failed above mastery": runtime.statement("failed", {"score": {"scaled": 0.9}, "success": False}),
        "completed without completion": runtime.statement("completed", {}),
        "completed without duration": {**completed, "result": {"completion": True}},
        "terminated without duration": {**runtime.statement("terminated"), "result": {}},
        "completed without the moveon category": no_move_on,
        "allowed with the moveon category": allowed_move_on,
        "passed without the mastery score": no_mastery,
        "passed with another mastery score": other_mastery,
        "defined about another activity": {
            **runtime.statement("terminated"),
            "object": {"id": "https://example.com/other"},
        },
    }


def test_malformed_statements_are_refused_with_a_message(db, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).begin()
    statement = runtime.statement("experienced")
    statement["context"]["contextActivities"]["category"] = []
    for status, cases in ((400, _invalid(statement)), (403, _not_cmi5(runtime, statement))):
        for case, body in cases.items():
            response = runtime.put({**body, "id": body.get("id", statement["id"])})
            assert response.status_code == status, (case, response.text)
            body_ = assert_error(response, status)
            assert body_["message"], case
    assert_error(
        runtime.client.put(
            f"{runtime.endpoint}statements",
            params={"statementId": statement["id"]},
            content=b"{not json",
            headers=runtime.auth(),
        ),
        400,
    )
    # Nothing but the launched and initialized statements was stored.
    assert len(db.scalars(select(LmsStatement)).all()) == 2


def test_statements_not_from_the_launch_are_refused(make_user, login, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).begin()
    other = launch(login(make_user("other")), quiz["id"]).begin()
    statement = runtime.statement("experienced")
    for case, changed in {
        "another learner": {**statement, "actor": json.loads(other.params["actor"])},
        "another registration": {
            **statement,
            "context": {**statement["context"], "registration": other.params["registration"]},
        },
        "another session": {
            **statement,
            "context": {
                **statement["context"],
                "extensions": {SESSION_ID: "00000000-0000-4000-8000-000000000000"},
            },
        },
    }.items():
        body = assert_error(runtime.put(changed), 403)
        assert "launch" in body["message"] or "learner" in body["message"], case
    # Another launch's token cannot write this launch's statement as its own.
    assert_error(other.put(statement), 403)


def test_lms_verbs_and_voiding_are_refused(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    for verb in ("launched", "voided"):
        assert_error(runtime.put(runtime.statement(verb)), 403)


def test_the_xapi_endpoint_needs_the_auth_token_and_the_version(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    statement = runtime.statement("initialized")
    assert_error(runtime.put(statement, headers=XAPI), 401)
    assert_error(runtime.put(statement, headers={**XAPI, "Authorization": "Basic bm9wZQ=="}), 401)
    assert_error(runtime.put(statement, headers={"Authorization": f"Basic {runtime.token}"}), 400)
    assert_error(runtime.put(statement, headers={**runtime.auth(), "X-Experience-API-Version": "2.0.0"}), 400)


def test_an_expired_launch_refuses_statements(db, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    db.execute(update(LmsLaunch).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.commit()
    assert_error(runtime.put(runtime.statement("initialized")), 401)


def test_activity_state_documents(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    url = f"{runtime.endpoint}activities/state"
    client, auth = runtime.client, runtime.auth()
    params = runtime.state_params("progress")
    assert_error(client.get(url, params=params, headers=auth), 404)
    assert client.put(url, params=params, json={"a": 1}, headers=auth).status_code == 204
    assert client.post(url, params=params, json={"b": 2}, headers=auth).status_code == 204
    assert client.get(url, params=params, headers=auth).json() == {"a": 1, "b": 2}
    ids = client.get(url, params=runtime.state_params(None), headers=auth).json()
    assert ids == ["LMS.LaunchData", "progress"]
    assert client.delete(url, params=params, headers=auth).status_code == 204
    assert_error(client.get(url, params=params, headers=auth), 404)
    # LMS.LaunchData is the LMS's: the unit cannot change or delete it (cmi5 §10.2.1).
    launch_data = runtime.state_params()
    assert_error(client.put(url, params=launch_data, json={}, headers=auth), 403)
    assert_error(client.delete(url, params=launch_data, headers=auth), 403)
    assert client.delete(url, params=runtime.state_params(None), headers=auth).status_code == 204
    assert client.get(url, params=launch_data, headers=auth).json()["launchMode"] == "Normal"
    # Another activity, learner or registration is not this launch's.
    for change in (
        {"activityId": "https://example.com/other"},
        {"agent": json.dumps({"objectType": "Agent", "account": {"homePage": "x", "name": "1"}})},
        {"registration": "00000000-0000-4000-8000-000000000000"},
        {"agent": "{not json"},
    ):
        assert_error(client.get(url, params={**params, **change}, headers=auth), 400)


def test_about(client):
    response = client.get(f"{API}/lms/xapi/about")
    assert response.json() == {"version": ["1.0.3"]}


def test_cors_preflight_and_headers_of_the_runtime(client, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).start()
    preflight = client.options(
        f"{runtime.endpoint}statements",
        headers={
            "Origin": "null",
            "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "authorization, content-type, x-experience-api-version",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "PUT" in preflight.headers["access-control-allow-methods"]
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "x-experience-api-version"} <= {
        h.strip() for h in allowed.split(",")
    }
    assert "access-control-allow-credentials" not in preflight.headers
    fetch_preflight = client.options(urlsplit(runtime.params["fetch"]).path, headers={"Origin": "null"})
    assert fetch_preflight.status_code == 204
    response = runtime.put(runtime.statement("initialized"))
    assert response.headers["access-control-allow-origin"] == "*"
    refused = runtime.put(runtime.statement("launched"))
    assert refused.headers["access-control-allow-origin"] == "*"
    # The rest of the API stays closed to other origins.
    other = client.options(
        f"{API}/lms/courses", headers={"Origin": "null", "Access-Control-Request-Method": "GET"}
    )
    assert "access-control-allow-origin" not in other.headers


def test_content_is_served_sandboxed_under_the_launch_key(client, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"])
    page = client.get(urlsplit(runtime.url).path)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Quiz consignation" in page.text
    policy = page.headers["content-security-policy"]
    assert "sandbox allow-scripts allow-forms" in policy and "allow-same-origin" not in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    base = urlsplit(runtime.url).path.rsplit("/", 1)[0]
    script = client.get(f"{base}/cmi5.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    style = client.get(f"{base}/style.css")
    assert style.headers["content-type"].startswith("text/css")
    # The page's own requests come from its opaque origin: readable without credentials.
    assert style.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in style.headers


def test_content_is_404_for_a_bad_key_a_missing_file_or_an_escape(client, db, launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"])
    base = urlsplit(runtime.url).path.rsplit("/", 1)[0]
    assert_error(client.get(f"{API}/lms/play/not-a-key/quiz.html"), 404)
    assert_error(client.get(f"{base}/missing.html"), 404)
    assert_error(client.get(f"{base}/..%2F..%2Fetc/passwd"), 404)
    assert_error(client.get(f"{base}/%2Fetc%2Fpasswd"), 404)
    db.execute(update(LmsLaunch).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.commit()
    assert_error(client.get(urlsplit(runtime.url).path), 404)


def test_content_and_runtime_of_a_removed_course_are_closed(
    client, manager, launch, learner, demo_course, quiz
):
    runtime = launch(learner[1], quiz["id"])
    runtime.start()
    assert client.delete(f"{API}/lms/courses/{demo_course['id']}", headers=manager).status_code == 204
    assert_error(client.get(urlsplit(runtime.url).path), 404)
    assert_error(runtime.put(runtime.statement("initialized")), 401)


def test_the_demo_course_answers_are_the_documented_ones():
    script = (demo.COURSE_FOLDER / "quiz.js").read_text()
    assert 'var ANSWERS = { q1: "b", q2: "c", q3: "a", q4: "d", q5: "b" };' in script
    page = (demo.COURSE_FOLDER / "quiz.html").read_text()
    for question in range(1, 6):
        for letter in "abcd":
            assert f'id="q{question}-{letter}"' in page and f'for="q{question}-{letter}"' in page


def test_statements_of_a_unit_use_the_cmi5_category(launch, learner, quiz):
    runtime = launch(learner[1], quiz["id"]).begin()
    allowed = runtime.statement("experienced")
    allowed["verb"] = {"id": "http://adlnet.gov/expapi/verbs/experienced"}
    allowed["context"]["contextActivities"].pop("category")
    allowed["object"] = {"id": "https://example.com/page/2"}
    # A cmi5 allowed statement (no cmi5 category) may be about another activity.
    assert runtime.put(allowed).status_code == 204
    assert CMI5 not in json.dumps(allowed)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON, field=st.sampled_from(["actor", "verb", "object", "context", "result", "id", "timestamp"]))
def test_any_statement_is_stored_or_refused_never_a_server_error(launch, learner, quiz, body, field):
    runtime = launch(learner[1], quiz["id"]).start()
    statement = {**runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True}), field: body}
    for response in (runtime.put({**statement, "id": runtime.statement("x")["id"]}), runtime.post(body)):
        assert response.status_code in (200, 204, 400, 403, 409), response.text
    state = runtime.client.post(
        f"{runtime.endpoint}activities/state",
        params=runtime.state_params("free"),
        json=body,
        headers=runtime.auth(),
    )
    assert state.status_code in (204, 400), state.text


def test_launching_a_unit_again_abandons_its_open_session(db, launch, learner, quiz, resource):
    first = launch(learner[1], quiz["id"]).start()
    assert first.put(first.statement("initialized")).status_code == 204
    # Another unit's session stays open; a launch whose token was never fetched is not a session.
    other_unit = launch(learner[1], resource["id"]).start()
    unfetched = launch(learner[1], quiz["id"])
    second = launch(learner[1], quiz["id"]).start()
    abandoned = db.scalars(select(LmsStatement).where(LmsStatement.verb.endswith("/abandoned"))).all()
    assert len(abandoned) == 1
    content = json.loads(abandoned[0].content)
    assert (
        content["context"]["extensions"][SESSION_ID]
        == first.launch_data["contextTemplate"]["extensions"][SESSION_ID]
    )
    assert content["result"]["duration"].startswith("PT")
    # The abandoned session records nothing more; the others do.
    assert_error(first.put(first.statement("terminated")), 403)
    assert other_unit.put(other_unit.statement("initialized")).status_code == 204
    assert second.put(second.statement("initialized")).status_code == 204
    assert unfetched.fetch()["auth-token"]


def test_a_terminated_session_is_not_abandoned(db, launch, learner, quiz):
    first = launch(learner[1], quiz["id"]).start()
    assert first.put(first.statement("initialized")).status_code == 204
    assert first.put(first.statement("terminated")).status_code == 204
    launch(learner[1], quiz["id"]).start()
    assert db.scalars(select(LmsStatement).where(LmsStatement.verb.endswith("/abandoned"))).all() == []


def test_a_lone_surrogate_escape_is_stored_as_received(launch, learner, quiz):
    # JSON may escape a lone UTF-16 surrogate ("\ud800"), which no UTF-8 text column accepts as such.
    runtime = launch(learner[1], quiz["id"]).begin()
    statement = runtime.statement("x")
    statement["context"]["contextActivities"]["category"] = []
    statement["context"]["extensions"]["https://example.org/note"] = "SURROGATE"
    body = json.dumps(statement).replace("SURROGATE", "\\ud800")
    headers = {**runtime.auth(), "Content-Type": "application/json"}
    stored = runtime.client.put(
        f"{runtime.endpoint}statements",
        params={"statementId": statement["id"]},
        content=body,
        headers=headers,
    )
    assert stored.status_code == 204, stored.text
    read = runtime.client.get(
        f"{runtime.endpoint}statements", params={"statementId": statement["id"]}, headers=runtime.auth()
    )
    assert read.status_code == 200
    assert json.loads(read.text)["context"]["extensions"]["https://example.org/note"] == "\ud800"
