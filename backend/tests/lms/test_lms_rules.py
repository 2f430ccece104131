"""The catalogue's rules: who may do what (role × action), removed courses, item names."""

import pytest

from lms.conftest import MANAGER, PATH_ADMIN, course_package, leaves, upload
from spot.lms import service
from support import API, assert_error

ROLES = {"nobody": [], "manager": [MANAGER], "pathAdmin": [PATH_ADMIN]}
ACTIONS = {
    # action: the permissions that allow it (None: any signed-in user)
    "list courses": None,
    "course tree": None,
    "item names": None,
    "launch": None,
    "own attempts": None,
    "own quiz attempts": None,
    "upload": {MANAGER},
    "remove": {MANAGER},
    "waive": {MANAGER},
    "statement log": {MANAGER},
    "another learner's quiz attempts": {MANAGER, PATH_ADMIN},
    "another learner's attempt": {MANAGER, PATH_ADMIN},
}


@pytest.fixture
def world(client, make_user, login, manager, launch):
    """A course with a quiz, and another learner who passed it."""
    course_id = upload(client, manager, course_package()).json()["id"]
    units = leaves(client.get(f"{API}/lms/courses/{course_id}", headers=manager).json())
    quiz = units["Quiz"]
    other = make_user("other")
    runtime = launch(login(other), quiz["id"]).begin()
    passed = runtime.statement("passed", {"score": {"scaled": 0.9}, "success": True})
    assert runtime.put(passed).status_code == 204
    attempt = client.post(
        f"{API}/lms/quiz-attempts", json={"learnerId": other.id, "quizIds": [quiz["id"]]}, headers=manager
    ).json()[0]
    return {
        "course": course_id,
        "quiz": quiz["id"],
        # A unit a new learner has not satisfied (moveOn Passed), to waive.
        "exam": units["Examen"]["id"],
        "other": other.id,
        "attempt": attempt["id"],
    }


def perform(client, headers, user, world, action, make_learner=lambda: 0):
    if action == "list courses":
        return client.get(f"{API}/lms/courses", headers=headers)
    if action == "course tree":
        return client.get(f"{API}/lms/courses/{world['course']}", headers=headers)
    if action == "item names":
        return client.post(f"{API}/lms/items/names", json=[world["quiz"]], headers=headers)
    if action == "launch":
        return client.post(f"{API}/lms/items/{world['quiz']}/launch", headers=headers)
    if action == "own attempts":
        return client.get(f"{API}/lms/attempts/mine", headers=headers)
    if action == "own quiz attempts":
        body = {"learnerId": user.id, "quizIds": [world["quiz"]]}
        return client.post(f"{API}/lms/quiz-attempts", json=body, headers=headers)
    if action == "upload":
        return upload(client, headers, course_package())
    if action == "remove":
        return client.delete(f"{API}/lms/courses/{world['course']}", headers=headers)
    if action == "waive":
        body = {"learnerId": make_learner(), "reason": "Administrative"}
        return client.post(f"{API}/lms/items/{world['exam']}/waive", json=body, headers=headers)
    if action == "statement log":
        return client.get(f"{API}/lms/statements", params={"learnerId": world["other"]}, headers=headers)
    if action == "another learner's quiz attempts":
        body = {"learnerId": world["other"], "quizIds": [world["quiz"]]}
        return client.post(f"{API}/lms/quiz-attempts", json=body, headers=headers)
    return client.get(f"{API}/lms/attempts/{world['attempt']}", headers=headers)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("action", ACTIONS)
def test_permission_table(client, make_user, login, world, role, action):
    user = make_user(permissions=ROLES[role])
    headers = login(user)
    needed = ACTIONS[action]
    allowed = needed is None or bool(needed & set(ROLES[role]))
    response = perform(client, headers, user, world, action, lambda: make_user().id)
    if allowed:
        assert response.status_code in (200, 204), response.text
    else:
        assert_error(response, 403, "Insufficient rights to access this information")


@pytest.mark.parametrize("role", ROLES)
def test_each_course_says_what_the_reader_may_do_as_the_calls_allow(client, make_user, login, world, role):
    """The catalogue's `can`, which the page's buttons follow, is the table above."""
    headers = login(make_user(permissions=ROLES[role]))
    permissions = set(ROLES[role])
    allowed = {
        action: bool(ACTIONS[action] & permissions)
        for action in ("upload", "remove", "waive", "statement log")
    }
    (card,) = client.get(f"{API}/lms/courses", headers=headers).json()
    assert (
        client.get(f"{API}/account/whoAmI", headers=headers).json()["can"]["importCourses"]
        == allowed["upload"]
    )
    assert card["can"] == {
        "remove": allowed["remove"],
        "waive": allowed["waive"],
        "readStatements": allowed["statement log"],
    }


@pytest.mark.parametrize("action", ACTIONS)
def test_every_catalogue_call_needs_a_session(client, make_user, world, action):
    response = perform(client, {}, make_user(), world, action)
    assert_error(response, 401)


def test_unknown_and_removed_courses_are_404(client, manager, world):
    assert_error(client.get(f"{API}/lms/courses/999999", headers=manager), 404, "lmsElementNotFound")
    assert client.delete(f"{API}/lms/courses/{world['course']}", headers=manager).status_code == 204
    assert_error(
        client.get(f"{API}/lms/courses/{world['course']}", headers=manager), 404, "lmsElementNotFound"
    )
    assert_error(client.delete(f"{API}/lms/courses/{world['course']}", headers=manager), 404)
    assert client.get(f"{API}/lms/courses", headers=manager).json() == []
    assert client.post(f"{API}/lms/items/names", json=[world["quiz"]], headers=manager).json() == []
    assert_error(
        client.post(f"{API}/lms/items/{world['quiz']}/launch", headers=manager), 404, "lmsElementNotFound"
    )
    # Attempts already made keep their names.
    mine = client.post(
        f"{API}/lms/quiz-attempts",
        json={"learnerId": world["other"], "quizIds": [world["quiz"]]},
        headers=manager,
    ).json()
    assert len(mine) == 1


def test_item_names_and_existing_items(client, db, manager, world):
    tree = client.get(f"{API}/lms/courses/{world['course']}", headers=manager).json()
    block = tree["children"][0]
    ids = [block["id"], world["quiz"], 999_999]
    names = client.post(f"{API}/lms/items/names", json=ids, headers=manager).json()
    assert [(n["id"], n["type"], n["name"], n["courseId"], n["courseTitle"]) for n in names] == [
        (block["id"], "group", "Bloc 1", world["course"], "Cours de test"),
        (world["quiz"], "quiz", "Quiz", world["course"], "Cours de test"),
    ]
    found = service.existing_items(db, ids)
    assert set(found) == {world["quiz"]}
    assert found[world["quiz"]].type == "quiz" and found[world["quiz"]].course_title == "Cours de test"


def test_quiz_attempts_only_for_the_asked_quizzes(client, manager, world):
    body = {"learnerId": world["other"], "quizIds": []}
    assert client.post(f"{API}/lms/quiz-attempts", json=body, headers=manager).json() == []
    body = {"learnerId": world["other"], "quizIds": [world["quiz"] + 1000]}
    assert client.post(f"{API}/lms/quiz-attempts", json=body, headers=manager).json() == []


def test_an_unknown_attempt_is_404(client, manager):
    assert_error(client.get(f"{API}/lms/attempts/999999", headers=manager), 404)
