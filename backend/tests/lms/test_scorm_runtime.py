"""The SCORM run-time: launching a SCORM unit, the CMI a SCO loads (a new attempt, a suspended one resumed),
its commits stored per learner, unit and attempt, and every refusal (unknown or expired key, malformed
data, a commit after terminate)."""

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from lms.conftest import leaves
from lms.scorm_packages import MANIFEST_12, imported, scorm12, scorm2004
from lms.test_lms_concurrency import race
from spot.core.time import utcnow
from spot.lms.models import LmsAttempt, LmsCourse, LmsLaunch
from spot.lms.scorm import datamodel
from spot.lms.scorm.models import ScormAttempt
from spot.users.models import User
from support import API, assert_error

MANAGER = "perm_TrainingManagement"


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-admin", [MANAGER]))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-learner", []))


@pytest.fixture
def course12(client, manager) -> dict[str, Any]:
    return imported(client, manager, scorm12())


@pytest.fixture
def course2004(client, manager) -> dict[str, Any]:
    return imported(client, manager, scorm2004())


class Sco:
    """A launched SCO, as scorm-again in its page talks to Spot."""

    def __init__(self, client: TestClient, url: str) -> None:
        self.client = client
        self.url = url
        path = urlsplit(url).path
        self.key = path.split("/lms/play/")[1].split("/")[0]
        self.base = f"{API}/lms/scorm/{self.key}"

    def load(self) -> dict[str, Any]:
        response = self.client.get(f"{self.base}/cmi")
        assert response.status_code == 200, response.text
        return response.json()

    def commit(self, cmi: dict[str, Any], terminate: bool = False, status: int = 200) -> Any:
        response = self.client.post(f"{self.base}/commit", json={"cmi": cmi, "terminate": terminate})
        assert response.status_code == status, response.text
        return response


def launch(client: TestClient, headers: dict[str, str], item_id: int) -> Sco:
    response = client.post(f"{API}/lms/items/{item_id}/launch", headers=headers)
    assert response.status_code == 200, response.text
    return Sco(client, response.json()["url"])


def test_a_scorm_unit_launches_at_its_content_with_its_standard(client, course12, learner):
    unit = leaves(course12)["Lecture : le risque électrique"]
    response = client.post(f"{API}/lms/items/{unit['id']}/launch", headers=learner)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["standard"] == "scorm12"
    path = urlsplit(body["url"]).path
    assert path.startswith(f"{API}/lms/play/")
    # The SCO, with the item's parameters, in the frame that holds its runtime (lms/scorm/player.py).
    assert 'src="lecture/index.html?page=1"' in client.get(path).text
    page = client.get(f"{path}lecture/index.html")
    assert page.status_code == 200 and "Contenu" in page.text
    # An asset opens as it is.
    asset = client.post(f"{API}/lms/items/{leaves(course12)['Fiche mémo']['id']}/launch", headers=learner)
    assert urlsplit(asset.json()["url"]).path.endswith("/fiche.html")


def test_a_first_load_starts_a_new_attempt_with_what_the_lms_gives(client, course12, learner, db):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    loaded = sco.load()
    assert loaded["version"] == "1.2"
    cmi = loaded["cmi"]
    assert cmi["core"]["entry"] == "ab-initio" and cmi["core"]["credit"] == "credit"
    user = db.get(User, int(cmi["core"]["student_id"]))
    assert user is not None and user.login == "scorm-learner"
    assert cmi["core"]["student_name"] == user.display_name
    assert cmi["core"]["total_time"] == "0000:00:00.00"
    assert cmi["student_data"] == {
        "mastery_score": "80",
        "max_time_allowed": "00:30:00",
        "time_limit_action": "exit,message",
    }
    assert "lesson_location" not in cmi["core"] and "suspend_data" not in cmi
    # Loading again within the launch gives the same attempt.
    assert sco.load() == loaded
    assert len(db.scalars(select(ScormAttempt)).all()) == 1


def test_a_suspended_attempt_resumes_where_the_learner_stopped(client, course12, learner, db):
    unit = leaves(course12)["Lecture : le risque électrique"]["id"]
    sco = launch(client, learner, unit)
    cmi = sco.load()["cmi"]
    assert cmi["launch_data"] == "niveau=1"
    cmi["core"] |= {"lesson_location": "page3", "lesson_status": "incomplete", "exit": "suspend"}
    cmi["core"]["session_time"] = "00:01:30"
    cmi["suspend_data"] = "abc"
    sco.commit(cmi, terminate=True)
    # Another device, later: a new launch resumes the attempt.
    again = launch(client, learner, unit)
    resumed = again.load()["cmi"]
    assert resumed["core"]["entry"] == "resume"
    assert resumed["core"]["lesson_location"] == "page3" and resumed["suspend_data"] == "abc"
    assert resumed["core"]["lesson_status"] == "incomplete"
    assert resumed["core"]["total_time"] == "0000:01:30.00"
    assert "exit" not in resumed["core"] and "session_time" not in resumed["core"]
    resumed["core"] |= {"session_time": "00:00:45", "lesson_status": "completed", "exit": ""}
    again.commit(resumed, terminate=True)
    attempt = db.scalars(select(ScormAttempt)).one()
    assert (attempt.number, attempt.total_seconds, attempt.completion_status) == (1, 135, "completed")
    # Finished normally: the next launch starts a second attempt, from nothing.
    third = launch(client, learner, unit).load()["cmi"]
    assert third["core"]["entry"] == "ab-initio" and "lesson_location" not in third["core"]
    assert [a.number for a in db.scalars(select(ScormAttempt).order_by(ScormAttempt.number))] == [1, 2]


def test_a_2004_attempt_resumes_after_exit_suspend(client, course2004, learner):
    unit = leaves(course2004)["Introduction"]["id"]
    sco = launch(client, learner, unit)
    loaded = sco.load()
    assert loaded["version"] == "2004"
    cmi = loaded["cmi"]
    assert (cmi["entry"], cmi["mode"], cmi["launch_data"]) == ("ab-initio", "normal", "chapitre=intro")
    assert cmi["completion_threshold"] == "0.5" and cmi["total_time"] == "PT0H0M0S"
    cmi |= {"location": "p2", "suspend_data": "zz", "exit": "suspend", "session_time": "PT1M30.5S"}
    cmi |= {"completion_status": "incomplete", "interactions": {"0": {"id": "q1", "result": "correct"}}}
    sco.commit(cmi)
    resumed = launch(client, learner, unit).load()["cmi"]
    assert (resumed["entry"], resumed["location"], resumed["suspend_data"]) == ("resume", "p2", "zz")
    assert resumed["total_time"] == "PT0H1M30.5S"
    assert resumed["interactions"] == {"0": {"id": "q1", "result": "correct"}}


def test_after_terminate_the_launch_is_closed(client, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    cmi = sco.load()["cmi"]
    sco.commit(cmi, terminate=True)
    assert_error(sco.commit(cmi, status=403), 403)
    assert_error(client.get(f"{sco.base}/cmi"), 403)


def test_a_commit_before_loading_is_refused(client, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    assert_error(sco.commit({"core": {}}, status=409), 409)


def test_unknown_expired_and_removed_launches_answer_404(client, course12, learner, manager, db):
    assert_error(client.get(f"{API}/lms/scorm/nothing/cmi"), 404, "notFound")
    assert_error(client.post(f"{API}/lms/scorm/nothing/commit", json={"cmi": {}}), 404, "notFound")
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    db.execute(update(LmsLaunch).where(LmsLaunch.key == sco.key).values(expires_at=utcnow() - timedelta(1)))
    db.commit()
    assert_error(client.get(f"{sco.base}/cmi"), 404, "notFound")
    other = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    other.load()
    assert client.delete(f"{API}/lms/courses/{course12['id']}", headers=manager).status_code == 204
    assert_error(client.post(f"{other.base}/commit", json={"cmi": {}}), 404, "notFound")


def test_an_asset_has_no_run_time_and_is_done_once_launched(client, course12, learner, db):
    fiche = leaves(course12)["Fiche mémo"]["id"]
    sco = launch(client, learner, fiche)
    assert_error(client.get(f"{sco.base}/cmi"), 404)
    progress = client.get(f"{API}/lms/courses/{course12['id']}/progress", headers=learner).json()
    unit = next(u for u in progress["units"] if u["itemId"] == fiche)
    assert (unit["status"], unit["tracked"]) == ("completed", False)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"cmi": {"core": {"lesson_status": "done"}}}, "cmi.core.lesson_status: one of"),
        ({"cmi": {"core": {"session_time": "90 s"}}}, "cmi.core.session_time: a time span"),
        ({"cmi": {"core": {"score": {"raw": "beaucoup"}}}}, "cmi.core.score.raw: a number"),
        ({"cmi": {"core": {"exit": "away"}}}, "cmi.core.exit: one of"),
        ({"cmi": {"core": []}}, "cmi.core: an object"),
        ({"cmi": {"suspend_data": "x" * 64_001}}, "cmi.suspend_data: 64000 characters at most"),
        ({"cmi": {"core": {"lesson_location": True}}}, "cmi.core.lesson_location: a string"),
        ({"cmi": {}, "terminate": "yes"}, "terminate: true or false"),
        ({"cmi": "x"}, "cmi: an object"),
        ([], "commit: a JSON object"),
    ],
)
def test_malformed_12_commits_are_refused_with_a_message(client, course12, learner, body, message):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    sco.load()
    response = client.post(f"{sco.base}/commit", json=body)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(message)


@pytest.mark.parametrize(
    ("cmi", "message"),
    [
        ({"completion_status": "done"}, "cmi.completion_status: one of"),
        ({"success_status": "completed"}, "cmi.success_status: one of"),
        ({"score": {"scaled": "1.5"}}, "cmi.score.scaled: a number from -1 to 1"),
        ({"session_time": "00:01:00"}, "cmi.session_time: an ISO 8601 duration"),
        ({"session_time": "PT"}, "cmi.session_time: an ISO 8601 duration"),
        ({"progress_measure": "2"}, "cmi.progress_measure: a number from 0 to 1"),
        ({"interactions": "q1"}, "cmi.interactions: an object or a list"),
    ],
)
def test_malformed_2004_commits_are_refused_with_a_message(client, course2004, learner, cmi, message):
    sco = launch(client, learner, leaves(course2004)["Évaluation"]["id"])
    sco.load()
    response = client.post(f"{sco.base}/commit", json={"cmi": cmi})
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(message)


def test_a_commit_that_is_not_json_is_refused(client, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    sco.load()
    response = client.post(f"{sco.base}/commit", content=b"{cmi", headers={"Content-Type": "text/plain"})
    assert_error(response, 400)
    # A beacon's text/plain body is read as JSON.
    beacon = client.post(f"{sco.base}/commit", content=b'{"cmi": {}}', headers={"Content-Type": "text/plain"})
    assert beacon.json() == {"result": True, "errorCode": 0}


def test_the_runtime_answers_any_origin_without_credentials(client, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    preflight = client.options(
        f"{sco.base}/commit",
        headers={"Origin": "null", "Access-Control-Request-Method": "POST"},
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    loaded = client.get(f"{sco.base}/cmi", headers={"Origin": "null"})
    assert loaded.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in loaded.headers


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("0000:00:00", 0), ("01:02:03.5", 3723.5), ("9999:59:59.99", 9999 * 3600 + 3599.99)],
)
def test_scorm_12_time_spans(text, seconds):
    assert datamodel.timespan_12(text, "t") == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("PT1M30S", 90), ("P1DT2H", 93600), ("PT0.25S", 0.25), ("P1Y", 365 * 86400), ("P0D", 0)],
)
def test_scorm_2004_time_intervals(text, seconds):
    assert datamodel.interval_2004(text, "t") == pytest.approx(seconds)


def test_times_are_written_back_in_each_standard(db):
    assert datamodel.format_timespan_12(3723.5) == "0001:02:03.50"
    assert datamodel.format_interval_2004(3723.5) == "PT1H2M3.5S"
    assert datamodel.format_interval_2004(0) == "PT0H0M0S"
    del db


def test_the_course_standard_is_kept(db, course12):
    course = db.get(LmsCourse, course12["id"])
    assert course is not None and course.standard == "scorm12"


def test_launches_loading_at_once_each_get_an_attempt(client, db, course12, learner):
    unit = leaves(course12)["Quiz habilitation"]["id"]
    scos = [launch(client, learner, unit) for _ in range(4)]
    responses = race([lambda sco=sco: client.get(f"{sco.base}/cmi") for sco in scos])
    assert [r.status_code for r in responses] == [200] * 4, [r.text for r in responses]
    db.expire_all()
    found = db.scalars(select(ScormAttempt).order_by(ScormAttempt.number)).all()
    assert [a.number for a in found] == [1, 2, 3, 4]
    assert len({a.launch_id for a in found}) == 4


def test_a_sco_loading_again_within_its_launch_goes_on_from_its_last_commit(client, course12, learner, db):
    sco = launch(client, learner, leaves(course12)["Lecture : le risque électrique"]["id"])
    cmi = sco.load()["cmi"]
    cmi["core"] |= {"lesson_location": "page2", "session_time": "00:00:20"}
    sco.commit(cmi)
    again = sco.load()["cmi"]
    assert (again["core"]["entry"], again["core"]["lesson_location"]) == ("ab-initio", "page2")
    again["core"]["session_time"] = "00:00:10"
    sco.commit(again, terminate=True)
    attempt = db.scalars(select(ScormAttempt)).one()
    assert attempt.total_seconds == 30


def test_a_12_item_holding_items_launches_its_own_resource_first(client, manager, learner):
    text = MANIFEST_12.format(title="Habilitation électrique").replace(
        '<item identifier="bloc_bases">', '<item identifier="bloc_bases" identifierref="res_fiche">'
    )
    tree = imported(client, manager, scorm12(text))
    block = tree["children"][0]
    assert [c["name"] for c in block["children"]] == [
        "Les bases",
        "Lecture : le risque électrique",
        "Fiche mémo",
    ]
    launched = client.post(f"{API}/lms/items/{block['children'][0]['id']}/launch", headers=learner)
    assert launched.status_code == 200 and launched.json()["url"].endswith("/fiche.html")


def test_commits_at_once_give_one_quiz_attempt(client, db, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    cmi = sco.load()["cmi"]
    cmi["core"] |= {"lesson_status": "passed", "score": {"raw": "90"}}
    body = {"cmi": cmi}
    responses = race([lambda: client.post(f"{sco.base}/commit", json=body) for _ in range(4)])
    assert [r.status_code for r in responses] == [200] * 4, [r.text for r in responses]
    db.expire_all()
    assert [(a.grade, a.success) for a in db.scalars(select(LmsAttempt))] == [(9.0, True)]


def test_one_launch_loading_twice_at_once_binds_one_attempt(client, db, course12, learner):
    sco = launch(client, learner, leaves(course12)["Quiz habilitation"]["id"])
    responses = race([lambda: client.get(f"{sco.base}/cmi") for _ in range(3)])
    assert [r.status_code for r in responses] == [200] * 3, [r.text for r in responses]
    db.expire_all()
    assert len(db.scalars(select(ScormAttempt)).all()) == 1
