"""cmi5 moveOn, satisfied and waived (cmi5 §9.3.7, §9.3.9, §9.4, §13.1.4): when a unit is satisfied,
the satisfied statements Spot issues for its blocks and course (their fields and order as the LTS
procedure checks them, tests 001, 004-x, 009), NotApplicable units at registration, and waivers."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from lms.conftest import COURSE_ID, au, langstring, leaves, structure, upload, zip_of
from spot.lms import satisfaction
from spot.lms.models import LmsSatisfaction, LmsStatement
from support import API, assert_error

SATISFIED = "https://w3id.org/xapi/adl/verbs/satisfied"
WAIVED = "https://w3id.org/xapi/adl/verbs/waived"
CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
MOVE_ON = "https://w3id.org/xapi/cmi5/context/categories/moveon"
SESSION = "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
BLOCK = f"{COURSE_ID}/block"


def block(members: str, ident: str = "block", title: str = "Bloc") -> str:
    texts = langstring("title", title) + langstring("description", "")
    return f'<block id="{COURSE_ID}/{ident}">{texts}{members}</block>'


def course(client: TestClient, manager: dict[str, str], members: str) -> dict[str, dict[str, Any]]:
    data = zip_of({"cmi5.xml": structure(members), "index.html": "<html lang='fr'></html>"})
    response = upload(client, manager, data)
    assert response.status_code == 200, response.text
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=manager).json()
    return {"course": tree, **leaves(tree)}


def statements(db: Session, registration: str) -> list[dict[str, Any]]:
    """The registration's statements as stored, in the order they were stored."""
    db.expire_all()
    rows = db.scalars(
        select(LmsStatement.content)
        .where(LmsStatement.registration == registration)
        .order_by(LmsStatement.id)
    )
    return [json.loads(content) for content in rows]


def verbs(found: list[dict[str, Any]]) -> list[str]:
    return [s["verb"]["id"].rsplit("/", 1)[-1] for s in found]


def grouping(statement: dict[str, Any]) -> list[str]:
    return [a["id"] for a in statement["context"]["contextActivities"]["grouping"]]


def categories(statement: dict[str, Any]) -> list[str]:
    return [a["id"] for a in statement["context"]["contextActivities"]["category"]]


@pytest.fixture
def learners(make_user, login):
    """A new learner each call: (id, headers)."""
    made = iter(range(1, 100))

    def make() -> tuple[int, dict[str, str]]:
        user = make_user(f"apprenant{next(made)}")
        return user.id, login(user)

    return make


@pytest.fixture
def learner(learners) -> tuple[int, dict[str, str]]:
    return learners()


def test_completed_satisfies_the_unit_then_its_block_then_the_course(client, db, manager, learners, launch):
    units = course(client, manager, block(au("lecture", "Lecture", attributes='moveOn="Completed"')))
    learner_id, headers = learners()
    run = launch(headers, units["Lecture"]["id"]).start()
    session = run.launch_data["contextTemplate"]["extensions"][SESSION]
    response = run.post([run.statement("initialized"), run.statement("completed", {"completion": True})])
    assert response.status_code == 200, response.text
    found = statements(db, run.params["registration"])
    # LTS 004-1: launched, initialized, completed, then the block's and the course's satisfied.
    assert verbs(found) == ["launched", "initialized", "completed", "satisfied", "satisfied"]
    block_statement, course_statement = found[3], found[4]
    assert block_statement["object"]["definition"]["type"] == "https://w3id.org/xapi/cmi5/activitytype/block"
    assert (
        course_statement["object"]["definition"]["type"] == "https://w3id.org/xapi/cmi5/activitytype/course"
    )
    assert block_statement["object"]["id"] not in (BLOCK, COURSE_ID)
    assert course_statement["object"]["id"] not in (BLOCK, COURSE_ID)
    assert grouping(block_statement) == [BLOCK]
    assert grouping(course_statement) == [COURSE_ID]
    for statement in (block_statement, course_statement):
        assert statement["context"]["extensions"][SESSION] == session
        assert statement["context"]["registration"] == run.params["registration"]
        assert CMI5 in categories(statement)
        assert statement["actor"] == json.loads(run.params["actor"])
    assert satisfaction.is_satisfied(db, learner_id, units["Lecture"]["id"], at_registration=False)
    # The block's and course's objects are the same in every registration (LMS generated, stable).
    other = launch(learners()[1], units["Lecture"]["id"]).start()
    other.post([other.statement("initialized"), other.statement("completed", {"completion": True})])
    again = statements(db, other.params["registration"])
    assert again[3]["object"]["id"] == block_statement["object"]["id"]
    assert again[4]["object"]["id"] == course_statement["object"]["id"]


def finish(run, *steps: tuple[str, dict[str, Any] | None]) -> None:
    response = run.post([run.statement(verb, result) for verb, result in steps])
    assert response.status_code == 200, response.text


COMPLETED = ("completed", {"completion": True})
PASSED = ("passed", {"success": True, "score": {"scaled": 0.9}})
FAILED = ("failed", {"success": False, "score": {"scaled": 0.2}})


@pytest.mark.parametrize(
    ("move_on", "steps", "satisfied"),
    [
        ("Completed", [COMPLETED], True),
        ("Completed", [PASSED], False),
        ("Passed", [PASSED], True),
        ("Passed", [COMPLETED], False),
        ("Passed", [FAILED, COMPLETED], False),
        ("CompletedOrPassed", [PASSED], True),
        ("CompletedOrPassed", [COMPLETED], True),
        ("CompletedOrPassed", [FAILED], False),
        ("CompletedAndPassed", [COMPLETED], False),
        ("CompletedAndPassed", [PASSED], False),
        ("CompletedAndPassed", [COMPLETED, PASSED], True),
        ("CompletedAndPassed", [FAILED, COMPLETED], False),
    ],
)
def test_move_on_decides_when_the_unit_is_satisfied(
    client, db, manager, learner, launch, move_on, steps, satisfied
):
    units = course(client, manager, au("unite", "Unité", attributes=f'moveOn="{move_on}" masteryScore="0.5"'))
    learner_id, headers = learner
    run = launch(headers, units["Unité"]["id"]).start()
    finish(run, ("initialized", None), *steps)
    assert satisfaction.is_satisfied(db, learner_id, units["Unité"]["id"]) is satisfied
    found = verbs(statements(db, run.params["registration"]))
    # A course without blocks: the course's satisfied statement only.
    assert found.count("satisfied") == (1 if satisfied else 0)


def test_completed_and_passed_in_two_sessions(client, db, manager, learner, launch):
    """CompletedAndPassed counts the registration's statements, whatever the session (LTS 001)."""
    units = course(
        client, manager, au("quiz", "Quiz", attributes='moveOn="CompletedAndPassed" masteryScore="0.8"')
    )
    learner_id, headers = learner
    first = launch(headers, units["Quiz"]["id"]).start()
    finish(first, ("initialized", None), COMPLETED, ("terminated", None))
    assert not satisfaction.is_satisfied(db, learner_id, units["Quiz"]["id"])
    second = launch(headers, units["Quiz"]["id"]).start()
    finish(second, ("initialized", None), PASSED)
    found = statements(db, second.params["registration"])
    assert verbs(found)[-2:] == ["passed", "satisfied"]
    assert (
        found[-1]["context"]["extensions"][SESSION]
        == second.launch_data["contextTemplate"]["extensions"][SESSION]
    )
    assert satisfaction.is_satisfied(db, learner_id, units["Quiz"]["id"])


def test_a_block_waits_for_all_its_units_nested_blocks_first(client, db, manager, learner, launch):
    inner = block(au("b", "B", attributes='moveOn="Completed"'), ident="inner", title="Intérieur")
    units = course(
        client,
        manager,
        block(au("a", "A", attributes='moveOn="Completed"') + inner, ident="outer", title="Extérieur")
        + au("c", "C", attributes='moveOn="Completed"'),
    )
    learner_id, headers = learner
    run = launch(headers, units["B"]["id"]).start()
    finish(run, ("initialized", None), COMPLETED)
    found = statements(db, run.params["registration"])
    # B alone satisfies the inner block; the outer one also waits for A.
    assert verbs(found) == ["launched", "initialized", "completed", "satisfied"]
    assert grouping(found[-1]) == [f"{COURSE_ID}/inner"]
    run = launch(headers, units["A"]["id"]).start()
    finish(run, ("initialized", None), COMPLETED)
    found = statements(db, run.params["registration"])
    assert verbs(found)[-2:] == ["completed", "satisfied"]
    assert grouping(found[-1]) == [f"{COURSE_ID}/outer"]
    run = launch(headers, units["C"]["id"]).start()
    finish(run, ("initialized", None), COMPLETED, ("terminated", None))
    found = statements(db, run.params["registration"])
    assert verbs(found)[-3:] == ["completed", "satisfied", "terminated"]
    assert grouping(found[-2]) == [COURSE_ID]
    assert found[-2]["object"]["definition"]["type"].endswith("/course")
    # Each block and the course satisfied once; stored with the statement issued.
    rows = db.scalars(select(LmsSatisfaction).where(LmsSatisfaction.user_id == learner_id)).all()
    assert sorted(row.scope for row in rows) == ["au", "au", "au", "block", "block", "course"]
    assert all(row.statement_id is not None for row in rows if row.scope != "au")


def test_not_applicable_units_are_satisfied_at_registration_before_launched(
    client, db, manager, learner, launch
):
    """LTS 004-5: the first two statements of the registration are the block's and course's satisfied."""
    units = course(
        client, manager, block(au("lire", "Lire") + au("voir", "Voir", attributes='moveOn="NotApplicable"'))
    )
    learner_id, headers = learner
    run = launch(headers, units["Lire"]["id"]).start()
    found = statements(db, run.params["registration"])
    assert verbs(found) == ["satisfied", "satisfied", "launched"]
    assert grouping(found[0]) == [BLOCK]
    assert grouping(found[1]) == [COURSE_ID]
    # Outside the unit's session: a session of their own (cmi5 §9.3.9).
    launched_session = run.launch_data["contextTemplate"]["extensions"][SESSION]
    assert found[0]["context"]["extensions"][SESSION] == found[1]["context"]["extensions"][SESSION]
    assert found[0]["context"]["extensions"][SESSION] != launched_session
    assert satisfaction.is_satisfied(db, learner_id, units["Lire"]["id"])
    assert satisfaction.is_satisfied(db, learner_id, units["Voir"]["id"])
    # Satisfied by the registration, not by anything the learner did in it.
    assert not satisfaction.is_satisfied(db, learner_id, units["Voir"]["id"], at_registration=False)
    # A second launch issues nothing more.
    launch(headers, units["Voir"]["id"])
    assert verbs(statements(db, run.params["registration"])) == [
        "satisfied",
        "satisfied",
        "launched",
        "launched",
    ]


def test_the_unit_cannot_send_satisfied_or_waived(client, manager, learner, launch):
    units = course(client, manager, au("unite", "Unité", attributes='moveOn="Completed"'))
    run = launch(learner[1], units["Unité"]["id"]).start()
    for verb in (SATISFIED, WAIVED):
        statement = run.statement("initialized")
        statement["verb"] = {"id": verb}
        assert run.post([statement]).status_code == 403


# Waivers ------------------------------------------------------------------------------------------------


def test_an_administrator_waives_a_unit(client, db, manager, learner, launch):
    """LTS 009-1: the waived statement (reason, success and completion, cmi5 and moveon categories, a
    session of its own), then the course's satisfied in that session."""
    units = course(client, manager, au("unite", "Unité", attributes='moveOn="Passed" masteryScore="0.8"'))
    learner_id, headers = learner
    item_id = units["Unité"]["id"]
    run = launch(headers, item_id).start()
    finish(run, ("initialized", None), ("terminated", None))
    response = client.post(
        f"{API}/lms/items/{item_id}/waive",
        json={"learnerId": learner_id, "reason": "Administrative"},
        headers=manager,
    )
    assert response.status_code == 200, response.text
    assert response.json()["method"] == "waived"
    found = statements(db, run.params["registration"])
    assert verbs(found) == ["launched", "initialized", "terminated", "waived", "satisfied"]
    waived, satisfied = found[3], found[4]
    assert (
        waived["result"]["extensions"]["https://w3id.org/xapi/cmi5/result/extensions/reason"]
        == "Administrative"
    )
    assert waived["result"]["success"] is True and waived["result"]["completion"] is True
    assert CMI5 in categories(waived) and MOVE_ON in categories(waived)
    assert waived["actor"] == json.loads(run.params["actor"])
    assert waived["context"]["registration"] == run.params["registration"]
    assert waived["object"]["id"] == run.params["activityId"]
    assert grouping(waived) == [f"{COURSE_ID}/unite"]
    session = waived["context"]["extensions"][SESSION]
    assert session and session != run.launch_data["contextTemplate"]["extensions"][SESSION]
    assert CMI5 in categories(satisfied) and satisfied["actor"] == waived["actor"]
    assert satisfied["context"]["extensions"][SESSION] == session
    assert satisfied["context"]["registration"] == run.params["registration"]
    assert satisfaction.is_satisfied(db, learner_id, item_id)
    # Once per unit and registration.
    again = client.post(
        f"{API}/lms/items/{item_id}/waive",
        json={"learnerId": learner_id, "reason": "Tested Out"},
        headers=manager,
    )
    assert_error(again, 409, "lmsUnitAlreadySatisfied")
    listed = client.get(
        f"{API}/lms/courses/{units['course']['id']}/satisfaction",
        params={"learnerId": learner_id},
        headers=manager,
    )
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert body["satisfiedAt"] is not None and body["canWaive"] is True
    assert [(i["itemId"], i["method"], i["reason"]) for i in body["items"]] == [
        (item_id, "waived", "Administrative")
    ]


def test_waiving_a_unit_never_launched_registers_the_learner(client, db, manager, learner):
    units = course(
        client,
        manager,
        au("a", "A", attributes='moveOn="Completed"') + au("b", "B", attributes='moveOn="Completed"'),
    )
    learner_id, _ = learner
    response = client.post(
        f"{API}/lms/items/{units['A']['id']}/waive",
        json={"learnerId": learner_id, "reason": "Tested Out"},
        headers=manager,
    )
    assert response.status_code == 200, response.text
    rows = db.scalars(select(LmsStatement).where(LmsStatement.user_id == learner_id)).all()
    # One unit of two: waived, the course not yet satisfied.
    assert [row.verb.rsplit("/", 1)[-1] for row in rows] == ["waived"]
    assert rows[0].launch_id is None


def test_waive_refusals(client, db, manager, learner, make_user, login):
    units = course(client, manager, au("a", "A", attributes='moveOn="Completed"'))
    learner_id, headers = learner
    item_id = units["A"]["id"]
    url = f"{API}/lms/items/{item_id}/waive"
    body = {"learnerId": learner_id, "reason": "Administrative"}
    # Only training managers waive; the learner cannot waive for themself.
    assert client.post(url, json=body, headers=headers).status_code == 403
    path_admin = login(make_user("pathadmin", ["perm_TrainingPathAdmin"]))
    assert client.post(url, json=body, headers=path_admin).status_code == 403
    assert client.post(url, json={**body, "reason": "Because"}, headers=manager).status_code in (400, 422)
    assert client.post(url, json={**body, "learnerId": True}, headers=manager).status_code in (400, 422)
    assert_error(client.post(url, json={**body, "learnerId": 999_999}, headers=manager), 404, "notFound")
    assert_error(
        client.post(f"{API}/lms/items/999999/waive", json=body, headers=manager), 404, "lmsElementNotFound"
    )
    # Nothing refused was satisfied.
    assert db.scalar(select(LmsSatisfaction.id)) is None
    # A learner reads their own satisfaction, not another's.
    own = client.get(
        f"{API}/lms/courses/{units['course']['id']}/satisfaction",
        params={"learnerId": learner_id},
        headers=headers,
    )
    assert own.status_code == 200 and own.json()["canWaive"] is False
    other_id = make_user("autre").id
    other = client.get(
        f"{API}/lms/courses/{units['course']['id']}/satisfaction",
        params={"learnerId": other_id},
        headers=headers,
    )
    assert other.status_code == 403


def test_satisfy_is_once_and_tells_the_listeners(client, db, manager, learner):
    units = course(client, manager, au("a", "A", attributes='moveOn="Completed"'))
    learner_id, _ = learner
    heard: list[tuple[int, int]] = []
    satisfaction.on_satisfied(lambda _db, user_id, item_id: heard.append((user_id, item_id)))
    try:
        from spot.core.time import utcnow

        assert satisfaction.satisfy(db, user_id=learner_id, item_id=units["A"]["id"], at=utcnow()) is True
        assert satisfaction.satisfy(db, user_id=learner_id, item_id=units["A"]["id"], at=utcnow()) is False
        db.commit()
    finally:
        satisfaction._LISTENERS.pop()
    assert heard == [(learner_id, units["A"]["id"])]


# Training paths: a module element pointing at a unit is done when the unit is satisfied --------------------


@pytest.fixture
def cast(make_user, login):
    from training.paths_support import Cast

    return Cast.of(make_user, login)


def units_module(db: Session, item_ids: list[int]) -> int:
    from spot.training.modules.models import TrainingModuleItem
    from training.paths_support import make_module

    module_id = make_module(db, "Six unités", items=0)
    for position, item_id in enumerate(item_ids):
        db.add(TrainingModuleItem(module_id=module_id, position=position, kind="lms", lms_item_id=item_id))
    db.commit()
    return module_id


def started_path(client: TestClient, cast, module_id: int) -> int:
    from training.paths_support import act, make_path, move_to

    path_id = make_path(client, cast, [module_id])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    return path_id


def path_view(client: TestClient, cast, path_id: int) -> tuple[int, list[bool]]:
    from training.paths_support import get

    path = get(client, cast, path_id)
    return path["completion"], [r["doneAt"] is not None for r in path["assignedModules"][0]["results"]]


SIX = (
    au("lire", "Lire", attributes='moveOn="Completed"')
    + au("quiz", "Quiz", attributes='moveOn="Passed" masteryScore="0.8"')
    + au("examen", "Examen", attributes='moveOn="CompletedAndPassed" masteryScore="0.8"')
    + au("exercice", "Exercice", attributes='moveOn="CompletedOrPassed" masteryScore="0.8"')
    + au("video", "Vidéo")
    + au("annexe", "Annexe", attributes='moveOn="Completed"')
)


def test_a_path_counts_the_units_the_learner_satisfied(client, db, manager, cast, launch):
    """The issue's path: six units finished under cmi5's rules (a quiz completed without a passed, a
    video without criteria opened) are all done, the path at 100 %."""
    units = course(client, manager, SIX)
    names = ["Lire", "Quiz", "Examen", "Exercice", "Vidéo", "Annexe"]
    path_id = started_path(client, cast, units_module(db, [units[n]["id"] for n in names]))
    assert path_view(client, cast, path_id) == (0, [False] * 6)
    headers = cast.headers["learner"]
    done = {
        "Lire": [COMPLETED],
        "Quiz": [PASSED],
        "Examen": [PASSED, COMPLETED],
        "Exercice": [COMPLETED],
        "Vidéo": [],
    }
    for name, steps in done.items():
        run = launch(headers, units[name]["id"]).start()
        finish(run, ("initialized", None), *steps, ("terminated", None))
    # The video (no criteria) counts once opened while the module is open; the sixth is not done yet.
    assert path_view(client, cast, path_id) == (83, [True, True, True, True, True, False])
    # The sixth, waived by a training manager.
    learner_id = cast.id("learner")
    response = client.post(
        f"{API}/lms/items/{units['Annexe']['id']}/waive",
        json={"learnerId": learner_id, "reason": "Equivalent Outside Activity"},
        headers=manager,
    )
    assert response.status_code == 200, response.text
    assert path_view(client, cast, path_id) == (100, [True] * 6)
    from training.paths_support import PATHS

    cards = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=headers).json()["results"]
    assert next(c for c in cards if c["id"] == path_id)["completion"] == 100


def test_a_unit_not_satisfied_or_satisfied_before_the_module_started_is_not_done(
    client, db, manager, cast, launch
):
    units = course(client, manager, SIX)
    headers = cast.headers["learner"]
    # Before the path: the reading is satisfied, the video (no criteria) opened.
    for name, steps in (("Lire", [COMPLETED]), ("Vidéo", [])):
        run = launch(headers, units[name]["id"]).start()
        finish(run, ("initialized", None), *steps, ("terminated", None))
    path_id = started_path(
        client, cast, units_module(db, [units[n]["id"] for n in ("Lire", "Vidéo", "Examen")])
    )
    # The examination passed but not completed: its CompletedAndPassed is not met.
    run = launch(headers, units["Examen"]["id"]).start()
    finish(run, ("initialized", None), PASSED, ("terminated", None))
    assert path_view(client, cast, path_id) == (0, [False, False, False])
    # Opening the video again while the module is open counts it (nothing else is asked of it).
    launch(headers, units["Vidéo"]["id"])
    assert path_view(client, cast, path_id) == (33, [False, True, False])
    # The stored figures followed the launch.
    from training.paths_support import PATHS

    cards = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=headers).json()["results"]
    assert next(c for c in cards if c["id"] == path_id)["completion"] == 33


def test_the_statements_api_lists_the_registration_in_the_lts_order(client, manager, learner, launch):
    """LTS 004-x and 004-5 pull the registration's statements in ascending order through xAPI."""
    units = course(
        client,
        manager,
        block(au("lire", "Lire", attributes='moveOn="Completed"') + au("voir", "Voir"), ident="block"),
    )
    run = launch(learner[1], units["Lire"]["id"]).start()
    finish(run, ("initialized", None), COMPLETED)
    response = client.get(
        f"{run.endpoint}statements",
        params={"registration": run.params["registration"], "ascending": "true"},
        headers=run.auth(),
    )
    assert response.status_code == 200, response.text
    found = response.json()["statements"]
    # Voir (NotApplicable) at registration: the block waits for Lire; then Lire's completed satisfies both.
    assert verbs(found) == ["launched", "initialized", "completed", "satisfied", "satisfied"]
    assert [grouping(s) for s in found[3:]] == [[BLOCK], [COURSE_ID]]


def test_two_units_satisfied_at_once_satisfy_their_block(client, db, manager, learner, launch, monkeypatch):
    """A reading and a quiz open side by side, each completed at the same moment: the block and the course
    are satisfied once, whichever transaction comes second. Each transaction lingers after satisfying its
    unit, so that the two overlap: without the registration's lock, each would miss the other's unit."""
    import time

    from lms.test_lms_concurrency import race

    monkeypatch.setattr(satisfaction, "_LISTENERS", [*satisfaction._LISTENERS, lambda *_: time.sleep(0.5)])

    units = course(
        client,
        manager,
        block(au("a", "A", attributes='moveOn="Completed"') + au("b", "B", attributes='moveOn="Completed"')),
    )
    learner_id, headers = learner
    runs = [launch(headers, units[name]["id"]).start() for name in ("A", "B")]
    for run in runs:
        finish(run, ("initialized", None))
    responses = race(
        [lambda run=run: run.post([run.statement("completed", {"completion": True})]) for run in runs]
    )
    assert [r.status_code for r in responses] == [200, 200], [r.text for r in responses]
    db.expire_all()
    rows = db.scalars(select(LmsSatisfaction).where(LmsSatisfaction.user_id == learner_id)).all()
    assert sorted(row.scope for row in rows) == ["au", "au", "block", "course"]
    found = verbs(statements(db, runs[0].params["registration"]))
    assert found.count("satisfied") == 2
