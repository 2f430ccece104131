"""Learning-platform results and training paths: a result counts for the modules that were open when it
arrived (started, not yet graded, path neither closed nor canceled), and the figures every screen reads
(lists, My dashboard, the group progress page, reports) change in the statement's own transaction,
without anyone opening the path; reading a path writes nothing."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from lms.conftest import leaves
from spot.training.modules.models import TrainingModuleItem
from spot.training.paths.models import TrainingPath, TrainingPathModule, TrainingPathVisit
from training.paths_support import PATHS, Cast, act, get, make_module, make_path, move_to

PASSED = {"score": {"scaled": 1.0}, "success": True}


@pytest.fixture
def cast(make_user, login) -> Cast:
    return Cast.of(make_user, login)


@pytest.fixture
def quiz(demo_course) -> int:
    return int(leaves(demo_course)["Quiz consignation"]["id"])


def quiz_module(db: Session, quiz: int, name: str = "Consignation") -> int:
    """A module of two elements: a web link, then the demo quiz."""
    module_id = make_module(db, name, items=1)
    db.add(TrainingModuleItem(module_id=module_id, position=1, kind="lms", lms_item_id=quiz))
    db.commit()
    return module_id


def started(client: TestClient, cast: Cast, module_id: int) -> int:
    """A path of the module, accepted, started, its module started by the referent."""
    path_id = make_path(client, cast, [module_id])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    return path_id


def pass_quiz(launch, cast: Cast, quiz: int) -> None:
    """As the demo quiz's page does: passed, then completed (its moveOn is CompletedAndPassed)."""
    runtime = launch(cast.headers["learner"], quiz).begin()
    assert runtime.put(runtime.statement("passed", PASSED)).status_code == 204
    assert runtime.put(runtime.statement("completed", {"completion": True})).status_code == 204


def card(client: TestClient, cast: Cast, path_id: int, role: str = "learner") -> dict[str, Any]:
    response = client.post(f"{PATHS}/query", json={"pageSize": 200}, headers=cast.headers[role])
    assert response.status_code == 200, response.text
    return next(c for c in response.json()["results"] if c["id"] == path_id)


def quiz_element(path: dict[str, Any]) -> dict[str, Any]:
    return path["assignedModules"][0]["results"][1]


def test_a_passed_quiz_shows_at_once_in_the_list_and_my_dashboard(client, db, cast, launch, quiz) -> None:
    path_id = started(client, cast, quiz_module(db, quiz))
    assert card(client, cast, path_id)["completion"] == 0
    pass_quiz(launch, cast, quiz)
    # Nobody opened the path: what the lists and the dashboard read is already stored.
    assert card(client, cast, path_id)["completion"] == 50
    assert card(client, cast, path_id, "creator")["completion"] == 50
    mine = client.get("/backend/api/v2/dashboards/mine", headers=cast.headers["learner"]).json()
    assert [(p["id"], p["completion"]) for p in mine["currentPaths"]] == [(path_id, 50)]
    path = get(client, cast, path_id)
    assert quiz_element(path)["doneAt"] is not None
    assert (path["assignedModules"][0]["completion"], path["completion"]) == (50, 50)


def test_reading_a_path_writes_nothing(client, db, cast, quiz) -> None:
    path_id = started(client, cast, quiz_module(db, quiz))
    module = db.scalar(select(TrainingPathModule).where(TrainingPathModule.path_id == path_id))
    assert module is not None
    url_item = db.scalar(
        select(TrainingModuleItem.id).where(
            TrainingModuleItem.module_id == module.module_id, TrainingModuleItem.position == 0
        )
    )
    # A row no action wrote: a read does not store it in the path's figures.
    db.execute(
        insert(TrainingPathVisit).values(
            path_module_id=module.id, module_item_id=url_item, done_at=module.started_at
        )
    )
    db.commit()
    version = get(client, cast, path_id)["version"]
    db.expire_all()
    path = db.get(TrainingPath, path_id)
    assert path is not None and (path.done_items, path.version) == (0, version)
    # The view's reload button stores what the elements say.
    reloaded = client.post(f"{PATHS}/{path_id}/update", headers=cast.headers["learner"]).json()
    assert reloaded["completion"] == 50
    assert card(client, cast, path_id)["completion"] == 50


def test_a_result_before_the_module_started_does_not_count(client, db, cast, launch, quiz) -> None:
    module_id = quiz_module(db, quiz)
    before_the_path = make_path(client, cast, [module_id], title="Avant")
    pass_quiz(launch, cast, quiz)  # before this path exists, and before the other one is accepted
    path_id = make_path(client, cast, [module_id], title="Après")
    for one in (before_the_path, path_id):
        assert card(client, cast, one)["completion"] == 0
        assert quiz_element(get(client, cast, one))["doneAt"] is None
        move_to(client, cast, one, "started")
        act(client, cast, "referent", one, "0/startNow")
        path = get(client, cast, one)
        assert (quiz_element(path)["doneAt"], quiz_element(path)["quizes"][0]["result"]) == (None, None)
        assert (path["completion"], card(client, cast, one)["completion"]) == (0, 0)


def test_a_result_after_the_module_is_graded_does_not_change_it(client, db, cast, launch, quiz) -> None:
    path_id = make_path(client, cast, [quiz_module(db, quiz), make_module(db, "Autre")])
    move_to(client, cast, path_id, "started")
    act(client, cast, "referent", path_id, "0/startNow")
    graded = act(client, cast, "referent", path_id, "0/grade", {"grade": 6, "comment": "Juste"})
    pass_quiz(launch, cast, quiz)
    path = get(client, cast, path_id)
    assert path["version"] == graded["version"]
    assert (quiz_element(path)["doneAt"], quiz_element(path)["quizes"][0]["result"]) == (None, None)
    assert path["assignedModules"][0]["completion"] == 0
    assert card(client, cast, path_id)["completion"] == 0


@pytest.mark.parametrize("status", ["validated", "archived"])
def test_a_result_after_the_path_is_closed_does_not_change_it(client, db, cast, launch, quiz, status) -> None:
    """A requalification: the learner passes the quiz while following another path; the closed one
    holding it stays as it was signed, the open one counts it."""
    closed = make_path(client, cast, [quiz_module(db, quiz)], title="Requalification")
    before = move_to(client, cast, closed, status)
    open_path = started(client, cast, quiz_module(db, quiz, "Consignation 2"))
    pass_quiz(launch, cast, quiz)
    after = get(client, cast, closed)
    assert (after["version"], after["completion"]) == (before["version"], before["completion"])
    assert quiz_element(after)["doneAt"] is None
    assert card(client, cast, closed)["completion"] == before["completion"]
    assert card(client, cast, open_path)["completion"] == 50


def test_a_result_after_the_path_is_canceled_does_not_change_it(client, db, cast, launch, quiz) -> None:
    path_id = started(client, cast, quiz_module(db, quiz))
    canceled = act(client, cast, "creator", path_id, "cancel")
    pass_quiz(launch, cast, quiz)
    path = get(client, cast, path_id)
    assert (path["version"], path["completion"]) == (canceled["version"], 0)
    assert quiz_element(path)["doneAt"] is None
    assert card(client, cast, path_id)["completion"] == 0
