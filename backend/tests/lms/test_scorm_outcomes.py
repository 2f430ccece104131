"""What a SCORM attempt gives Spot, as a cmi5 unit's statements do: a score with a result is a quiz attempt
(scaled × 10, or raw within min and max, one decimal), passed or (unless a quiz) completed satisfies the
unit, and a module element pointing at it is done; the learner's progress through the course; the golf
examples run as their pages would."""

from typing import Any
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from lms.conformance import GOLF_12_SINGLE, GOLF_2004_MULTI, golf_zip, needs_golf
from lms.conftest import leaves
from lms.scorm_packages import MANIFEST_2004, imported, scorm12, scorm2004
from lms.test_scorm_runtime import Sco, launch
from spot.config import get_settings
from spot.lms.models import LmsAttempt, LmsCompletion, LmsSatisfaction
from spot.lms.scorm.models import ScormAttempt
from spot.training.modules.models import TrainingModuleItem
from spot.users.models import User
from support import API
from training.paths_support import Cast, act, get, make_module, make_path, move_to

MANAGER = "perm_TrainingManagement"


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-outcomes-admin", [MANAGER]))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-outcomes-learner", []))


@pytest.fixture
def course12(client, manager) -> dict[str, Any]:
    return imported(client, manager, scorm12())


@pytest.fixture
def course2004(client, manager) -> dict[str, Any]:
    return imported(client, manager, scorm2004())


def attempts(db: Session) -> list[tuple[float, bool]]:
    db.expire_all()
    return [(a.grade, a.success) for a in db.scalars(select(LmsAttempt).order_by(LmsAttempt.id))]


def done(db: Session, item_id: int) -> tuple[bool, bool]:
    """Whether the unit has a completion and is satisfied, for anyone."""
    db.expire_all()
    completion = db.scalar(select(LmsCompletion.id).where(LmsCompletion.item_id == item_id))
    satisfied = db.scalar(select(LmsSatisfaction.id).where(LmsSatisfaction.item_id == item_id))
    return completion is not None, satisfied is not None


def test_a_passed_12_quiz_is_a_graded_attempt_and_satisfies_the_unit(client, db, course12, learner):
    quiz = leaves(course12)["Quiz habilitation"]["id"]
    sco = launch(client, learner, quiz)
    cmi = sco.load()["cmi"]
    cmi["core"] |= {"lesson_status": "passed", "score": {"raw": "87", "min": "0", "max": "100"}}
    sco.commit(cmi)
    assert attempts(db) == [(8.7, True)]
    assert done(db, quiz) == (True, True)
    mine = client.get(f"{API}/lms/attempts/mine", headers=learner).json()
    assert [(a["quizId"], a["grade"], a["success"]) for a in mine] == [(quiz, 8.7, True)]
    detail = client.get(f"{API}/lms/attempts/{mine[0]['id']}", headers=learner).json()
    statement = detail["statement"]
    assert statement["verb"]["id"] == "http://adlnet.gov/expapi/verbs/passed"
    assert statement["result"]["score"] == {"raw": 87.0, "min": 0.0, "max": 100.0}
    attempt_extension = get_settings().public_url.rstrip("/") + "/xapi/extensions/scorm-attempt"
    assert statement["context"]["extensions"] == {attempt_extension: 1}
    # Later commits of the same attempt keep one quiz attempt, brought up to date.
    cmi["core"]["score"]["raw"] = "93"
    sco.commit(cmi, terminate=True)
    assert attempts(db) == [(9.3, True)]


def test_a_12_quiz_completed_with_a_score_is_judged_against_the_mastery_score(client, db, course12, learner):
    quiz = leaves(course12)["Quiz habilitation"]["id"]
    sco = launch(client, learner, quiz)
    cmi = sco.load()["cmi"]
    cmi["core"] |= {"lesson_status": "completed", "score": {"raw": "70"}}
    sco.commit(cmi, terminate=True)
    assert attempts(db) == [(7.0, False)]
    # A failed quiz is neither done nor satisfied, though its lesson is over.
    assert done(db, quiz) == (False, False)
    attempt = db.scalars(select(ScormAttempt)).one()
    assert (attempt.lesson_status, attempt.success_status) == ("failed", "failed")


def test_a_score_without_a_result_waits_for_the_session_to_end(client, db, course12, learner):
    quiz = leaves(course12)["Quiz habilitation"]["id"]
    sco = launch(client, learner, quiz)
    cmi = sco.load()["cmi"]
    cmi["core"] |= {"lesson_status": "incomplete", "score": {"raw": "40"}, "exit": "suspend"}
    sco.commit(cmi)
    assert attempts(db) == []
    sco.commit(cmi, terminate=True)
    assert attempts(db) == [(4.0, False)]
    assert done(db, quiz) == (False, False)


def test_a_2004_scaled_score_against_the_passing_score(client, db, course2004, learner):
    evaluation = leaves(course2004)["Évaluation"]["id"]
    sco = launch(client, learner, evaluation)
    cmi = sco.load()["cmi"]
    assert cmi["scaled_passing_score"] == "0.7" and cmi["max_time_allowed"] == "PT20M"
    # The SCO says failed, its scaled score says passed: the LMS evaluates (RTE 4.2.22).
    cmi |= {"score": {"scaled": "0.85", "raw": "17", "min": "0", "max": "20"}, "success_status": "failed"}
    cmi |= {"completion_status": "completed"}
    sco.commit(cmi, terminate=True)
    assert attempts(db) == [(8.5, True)]
    assert done(db, evaluation) == (True, True)


def test_a_2004_raw_score_counts_within_min_and_max(client, db, course2004, learner):
    evaluation = leaves(course2004)["Évaluation"]["id"]
    sco = launch(client, learner, evaluation)
    cmi = sco.load()["cmi"]
    cmi |= {"score": {"raw": "13", "min": "0", "max": "20"}, "success_status": "failed"}
    sco.commit(cmi)
    assert attempts(db) == [(6.5, False)]


def test_a_2004_reading_is_completed_by_its_progress_measure(client, db, course2004, learner):
    intro = leaves(course2004)["Introduction"]["id"]
    sco = launch(client, learner, intro)
    cmi = sco.load()["cmi"]
    sco.commit(cmi | {"progress_measure": "0.4", "completion_status": "completed"})
    assert done(db, intro) == (False, False)
    sco.commit(cmi | {"progress_measure": "0.6", "completion_status": "incomplete"})
    assert done(db, intro) == (True, True)
    # A reading reports no score: no quiz attempt.
    assert attempts(db) == []


def test_each_attempt_with_a_result_is_a_quiz_attempt(client, db, course2004, learner):
    evaluation = leaves(course2004)["Évaluation"]["id"]
    for scaled in ("0.5", "0.9"):
        sco = launch(client, learner, evaluation)
        cmi = sco.load()["cmi"]
        assert cmi["entry"] == "ab-initio"
        sco.commit(cmi | {"score": {"scaled": scaled}, "exit": "normal"}, terminate=True)
    assert attempts(db) == [(5.0, False), (9.0, True)]


def test_the_progress_of_a_learner_through_a_course(client, db, course2004, learner, manager):
    units = leaves(course2004)
    url = f"{API}/lms/courses/{course2004['id']}/progress"
    progress = client.get(url, headers=learner).json()
    assert progress["standard"] == "scorm2004" and progress["courseId"] == course2004["id"]
    assert [u["identifier"] for u in progress["units"]] == ["intro", "evaluation", "annexe"]
    assert [(u["itemId"], u["status"], u["grade"], u["resumable"]) for u in progress["units"]] == [
        (units["Introduction"]["id"], "notAttempted", None, False),
        (units["Évaluation"]["id"], "notAttempted", None, False),
        (units["Annexe"]["id"], "notAttempted", None, False),
    ]
    # The module's units: flow, no choice; the annex at the top: the organization's choice and flow.
    assert [(u["choice"], u["flow"], u["tracked"]) for u in progress["units"]] == [
        (False, True, True),
        (False, True, True),
        (True, True, False),
    ]
    intro = launch(client, learner, units["Introduction"]["id"])
    intro.commit(
        intro.load()["cmi"] | {"exit": "suspend", "location": "2", "completion_status": "incomplete"}
    )
    evaluation = launch(client, learner, units["Évaluation"]["id"])
    evaluation.commit(evaluation.load()["cmi"] | {"score": {"scaled": "0.6"}}, terminate=True)
    statuses = client.get(url, headers=learner).json()["units"]
    assert [(u["status"], u["grade"], u["resumable"]) for u in statuses] == [
        ("incomplete", None, True),
        ("failed", 6.0, False),
        ("notAttempted", None, False),
    ]
    # Another learner's progress is their own.
    assert {u["status"] for u in client.get(url, headers=manager).json()["units"]} == {"notAttempted"}
    assert client.get(f"{API}/lms/courses/999999/progress", headers=learner).status_code == 404


def test_a_module_element_pointing_at_a_scorm_quiz_is_done_once_passed(
    client, db, course12, make_user, login
):
    cast = Cast.of(make_user, login)
    quiz = leaves(course12)["Quiz habilitation"]["id"]
    module_id = make_module(db, "Habilitation", items=1)
    db.add(TrainingModuleItem(module_id=module_id, position=1, kind="lms", lms_item_id=quiz))
    db.commit()
    path_id = make_path(client, cast, [module_id])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    sco = launch(client, cast.headers["learner"], quiz)
    cmi = sco.load()["cmi"]
    sco.commit(
        cmi | {"core": cmi["core"] | {"lesson_status": "passed", "score": {"raw": "90"}}}, terminate=True
    )
    path = get(client, cast, path_id)
    element = path["assignedModules"][0]["results"][1]
    assert element["doneAt"] is not None
    assert path["assignedModules"][0]["completion"] == 50


def test_a_module_element_pointing_at_a_scorm_reading_is_done_once_completed(
    client, db, course12, make_user, login
):
    cast = Cast.of(make_user, login)
    reading = leaves(course12)["Lecture : le risque électrique"]["id"]
    module_id = make_module(db, "Lecture", items=1)
    db.add(TrainingModuleItem(module_id=module_id, position=1, kind="lms", lms_item_id=reading))
    db.commit()
    path_id = make_path(client, cast, [module_id])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    sco = launch(client, cast.headers["learner"], reading)
    cmi = sco.load()["cmi"]
    sco.commit(cmi | {"core": cmi["core"] | {"lesson_status": "completed"}})
    path = get(client, cast, path_id)
    assert path["assignedModules"][0]["results"][1]["doneAt"] is not None
    assert path["completion"] == 50


def golf_commit(sco: Sco, changes: dict[str, Any], terminate: bool = False) -> None:
    loaded = sco.load()["cmi"]
    sco.commit(loaded | changes, terminate=terminate)


@needs_golf
def test_the_golf_12_course_runs_as_its_pages_would(client, db, manager, learner, tmp_path):
    tree = imported(client, manager, golf_zip(GOLF_12_SINGLE, tmp_path).read_bytes())
    unit = leaves(tree)["Golf Explained"]["id"]
    sco = launch(client, learner, unit)
    frame = client.get(urlsplit(sco.url).path)
    assert frame.status_code == 200 and 'src="shared/launchpage.html"' in frame.text
    cmi = sco.load()["cmi"]
    # scormfunctions.js: bookmark and status while reading, then the assessment's score and status.
    cmi["core"] |= {"lesson_location": "3", "lesson_status": "incomplete", "exit": "suspend"}
    cmi["core"]["session_time"] = "0000:02:10.00"
    sco.commit(cmi, terminate=True)
    resumed = launch(client, learner, unit)
    cmi = resumed.load()["cmi"]
    assert (cmi["core"]["entry"], cmi["core"]["lesson_location"]) == ("resume", "3")
    cmi["core"] |= {"lesson_status": "passed", "score": {"raw": "80", "min": "0", "max": "100"}, "exit": ""}
    resumed.commit(cmi, terminate=True)
    assert attempts(db) == [(8.0, True)]
    assert done(db, unit) == (True, True)


@needs_golf
def test_the_golf_2004_quizzes_give_attempts(client, db, manager, learner, tmp_path):
    tree = imported(client, manager, golf_zip(GOLF_2004_MULTI, tmp_path).read_bytes())
    units = leaves(tree)
    # The golf SCOs of "minimum calls" report nothing: Spot completes them when they terminate.
    reading = launch(client, learner, units["How to Play"]["id"])
    golf_commit(reading, {"completion_status": "unknown", "session_time": "PT12S"}, terminate=True)
    quiz = launch(client, learner, units["Playing Golf Quiz"]["id"])
    assert "shared/assessmenttemplate.html?questions=Playing" in client.get(urlsplit(quiz.url).path).text
    golf_commit(
        quiz,
        {"score": {"raw": "75", "min": "0", "max": "100", "scaled": "0.75"}, "success_status": "passed"}
        | {"completion_status": "completed"},
        terminate=True,
    )
    assert attempts(db) == [(7.5, True)]
    assert done(db, units["How to Play"]["id"]) == (True, True)
    progress = client.get(f"{API}/lms/courses/{tree['id']}/progress", headers=learner).json()
    statuses = {u["itemId"]: u["status"] for u in progress["units"]}
    assert statuses[units["How to Play"]["id"]] == "completed"
    assert statuses[units["Playing Golf Quiz"]["id"]] == "passed"
    assert statuses[units["Par"]["id"]] == "notAttempted"
    # No sequencing in the golf manifest: choice, no flow (IMS SS's defaults).
    assert {(u["choice"], u["flow"]) for u in progress["units"]} == {(True, False)}


def test_a_sco_ending_without_reporting_completion_is_completed(client, db, course2004, course12, learner):
    intro = leaves(course2004)["Introduction"]["id"]
    suspended = launch(client, learner, intro)
    suspended.commit(suspended.load()["cmi"] | {"exit": "suspend"}, terminate=True)
    assert done(db, intro) == (False, False)
    ended = launch(client, learner, intro)
    ended.commit(ended.load()["cmi"] | {"exit": ""}, terminate=True)
    assert done(db, intro) == (True, True)
    reading = leaves(course12)["Lecture : le risque électrique"]["id"]
    sco = launch(client, learner, reading)
    sco.commit(sco.load()["cmi"], terminate=True)
    assert done(db, reading) == (True, True)
    attempt = db.scalars(select(ScormAttempt).where(ScormAttempt.item_id == reading)).one()
    assert (attempt.lesson_status, attempt.completion_status) == ("completed", "completed")


def test_a_sco_that_sets_its_completion_itself_is_not_completed_for_it(client, db, manager, learner):
    text = MANIFEST_2004.replace(
        "<adlcp:dataFromLMS>chapitre=intro</adlcp:dataFromLMS>",
        "<adlcp:dataFromLMS>chapitre=intro</adlcp:dataFromLMS><imsss:sequencing>"
        '<imsss:deliveryControls completionSetByContent="true"/></imsss:sequencing>',
    )
    intro = leaves(imported(client, manager, scorm2004(text)))["Introduction"]["id"]
    sco = launch(client, learner, intro)
    sco.commit(sco.load()["cmi"], terminate=True)
    assert done(db, intro) == (False, False)


def test_a_scorm_course_is_satisfied_once_all_its_units_are(client, db, course2004, learner):
    units = leaves(course2004)
    learner_id = db.scalar(select(User.id).where(User.login == "scorm-outcomes-learner"))
    url = f"{API}/lms/courses/{course2004['id']}/satisfaction?learnerId={learner_id}"
    intro = launch(client, learner, units["Introduction"]["id"])
    intro.commit(intro.load()["cmi"], terminate=True)
    evaluation = launch(client, learner, units["Évaluation"]["id"])
    evaluation.commit(evaluation.load()["cmi"] | {"score": {"scaled": "0.9"}}, terminate=True)
    before = client.get(url, headers=learner).json()
    assert before["satisfiedAt"] is None
    # The module's two units are: the block is satisfied; the annex, an asset, once launched.
    satisfied = {item["itemId"] for item in before["items"]}
    assert {
        units["Introduction"]["id"],
        units["Évaluation"]["id"],
        course2004["children"][0]["id"],
    } <= satisfied
    launch(client, learner, units["Annexe"]["id"])
    assert client.get(url, headers=learner).json()["satisfiedAt"] is not None
